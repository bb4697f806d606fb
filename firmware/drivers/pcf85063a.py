"""The Badger 2040 W's PCF85063A real-time clock: its alarm, which can
power a switched-off board up (boards/badger2040w.py loads this module
only for the moment it talks to the clock, so a session carries none of
it).

PCF85063A at 0x51 on I2C; its alarm reaches a GPIO (high = alarm;
Pimoroni's turn_off() watches it). Registers (Pimoroni's pcf85063a driver,
the NXP datasheet): 0x00 control 1 (0 = running, 24 h), 0x01 control 2
(bit 7 alarm interrupt enable, bit 6 alarm flag, cleared by writing 0),
0x04-0x06 seconds / minutes / hours in BCD (bit 7 of seconds: oscillator
stopped), 0x0B-0x0F the second / minute / hour / day / weekday alarm in
BCD, bit 7 set = that field ignored.
"""

try:
    from micropython import const
except ImportError:  # CPython tests
    def const(x):
        return x

_ADDR = const(0x51)  # fixed
_CONTROL_1 = const(0x00)
_CONTROL_2 = const(0x01)
_SECONDS = const(0x04)
_SECOND_ALARM = const(0x0B)
_AIE = const(0x80)
_AF = const(0x40)
LONGEST_S = 86399  # the alarm matches second, minute and hour: at most 23:59:59 ahead


def _get(i2c, reg, n=1):
    return i2c.readfrom_mem(_ADDR, reg, n)


def _set(i2c, reg, value):
    i2c.writeto_mem(_ADDR, reg, bytes((value,)))


def _bcd(n):
    return (n // 10) << 4 | n % 10


def _unbcd(b):
    return (b >> 4) * 10 + (b & 0x0F)


def start(i2c):
    """Make sure the clock runs (as Pimoroni's module does) and no fired
    alarm holds its pin high. OSError where nothing answers at 0x51."""
    _set(i2c, _CONTROL_1, 0x00)
    clear_alarm(i2c)


def set_alarm(i2c, seconds):
    """The alarm about ``seconds`` ahead (2 .. LONGEST_S)."""
    if seconds > LONGEST_S:
        raise ValueError("the RTC alarm reaches at most 23:59:59 ahead")
    seconds = max(seconds, 2)  # never an alarm that may already have passed
    t = _get(i2c, _SECONDS, 3)
    now = _unbcd(t[2] & 0x3F) * 3600 + _unbcd(t[1] & 0x7F) * 60 + _unbcd(t[0] & 0x7F)
    at = (now + seconds) % 86400
    i2c.writeto_mem(_ADDR, _SECOND_ALARM, bytes((_bcd(at % 60), _bcd(at // 60 % 60), _bcd(at // 3600), 0x80, 0x80)))
    _set(i2c, _CONTROL_2, (_get(i2c, _CONTROL_2)[0] | _AIE) & ~_AF)


def clear_alarm(i2c):
    _set(i2c, _CONTROL_2, _get(i2c, _CONTROL_2)[0] & ~(_AIE | _AF))
    i2c.writeto_mem(_ADDR, _SECOND_ALARM, b"\x80\x80\x80\x80\x80")

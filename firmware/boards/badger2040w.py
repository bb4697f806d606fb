"""Pimoroni Badger 2040 W: the Badger 2040 (boards/badger2040.py) with its
own LED pin, no battery sense, and a PCF85063A RTC whose alarm can power
the board up. In a module of its own: a Badger 2040 never loads the RTC's
code (~0.5 KB of its heap).

PCF85063A at 0x51 on I2C; its alarm reaches a GPIO (high = alarm;
Pimoroni's turn_off() watches it) and powers a switched-off board up.
Registers (Pimoroni's pcf85063a driver, the NXP datasheet): 0x00 control 1
(0 = running, 24 h), 0x01 control 2 (bit 7 alarm interrupt enable, bit 6
alarm flag, cleared by writing 0), 0x04-0x06 seconds / minutes / hours in
BCD (bit 7 of seconds: oscillator stopped), 0x0B-0x0F the second / minute
/ hour / day / weekday alarm in BCD, bit 7 set = that field ignored.
"""

from boards.badger2040 import Badger2040Board

RTC_ADDR = 0x51  # the PCF85063A's fixed I2C address

try:
    from micropython import const
except ImportError:  # CPython tests
    def const(x):
        return x

_CONTROL_1 = const(0x00)
_CONTROL_2 = const(0x01)
_SECONDS = const(0x04)
_SECOND_ALARM = const(0x0B)
_AIE = const(0x80)
_AF = const(0x40)


def _bcd(n):
    return (n // 10) << 4 | n % 10


def _unbcd(b):
    return (b >> 4) * 10 + (b & 0x0F)


class Badger2040WBoard(Badger2040Board):
    """The 2040 W: the same panel and buttons, its own LED pin, no battery
    sense, and a PCF85063A RTC whose alarm can power the board up."""

    name = "badger2040w"

    def __init__(self, flash_dir="", clock=None, serial=None):
        Badger2040Board.__init__(self, flash_dir, clock, serial)
        m = self.machine
        rtc = self.pins["rtc"]
        self.i2c = m.I2C(rtc["i2c"], sda=m.Pin(rtc["sda"]), scl=m.Pin(rtc["scl"]), freq=100000)
        self.alarm_pin = m.Pin(rtc["alarm"], m.Pin.IN, m.Pin.PULL_DOWN)
        self._reg = bytearray(1)
        self.alarm_set = False
        if self.alarm_pin.value():
            self.woke = "rtc"
        self.has_rtc = True
        try:
            self._set(_CONTROL_1, 0x00)  # make sure the clock runs, as Pimoroni's module does
            self.clear_wake_alarm()  # a fired alarm would hold its pin high
        except OSError:  # no answer at 0x51: play on without the alarm
            self.has_rtc = False

    def _get(self, reg, n=1):
        return self.i2c.readfrom_mem(RTC_ADDR, reg, n)

    def _set(self, reg, value):
        self._reg[0] = value
        self.i2c.writeto_mem(RTC_ADDR, reg, self._reg)

    def _alarm_fired(self):
        return self.alarm_set and self.alarm_pin.value() == 1

    def set_wake_alarm(self, seconds):
        """Wake (power up, or end power_off() on USB) in about seconds, 2 to
        86399, through the RTC's alarm on second, minute and hour. False
        when the RTC did not answer at start."""
        if not self.has_rtc:
            return False
        seconds = int(seconds)
        if seconds > 86399:
            raise ValueError("the RTC alarm reaches at most 23:59:59 ahead")
        seconds = max(seconds, 2)  # never an alarm that may already have passed
        t = self._get(_SECONDS, 3)
        now = _unbcd(t[2] & 0x3F) * 3600 + _unbcd(t[1] & 0x7F) * 60 + _unbcd(t[0] & 0x7F)
        at = (now + seconds) % 86400
        self.i2c.writeto_mem(RTC_ADDR, _SECOND_ALARM, bytes((
            _bcd(at % 60), _bcd(at // 60 % 60), _bcd(at // 3600), 0x80, 0x80)))
        self._set(_CONTROL_2, (self._get(_CONTROL_2)[0] | _AIE) & ~_AF)
        self.alarm_set = True
        return True

    def clear_wake_alarm(self):
        if not self.has_rtc:
            return
        self._set(_CONTROL_2, self._get(_CONTROL_2)[0] & ~(_AIE | _AF))
        self.i2c.writeto_mem(RTC_ADDR, _SECOND_ALARM, b"\x80\x80\x80\x80\x80")
        self.alarm_set = False

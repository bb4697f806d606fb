"""A fake PCF85063A real-time clock (the Badger 2040 W's) at 0x51 on the fake
machine's I2C bus 0, register by register.

Registers kept: 0x00 control 1 (bit 5 STOP: the clock stands still while
set), 0x01 control 2 (bit 7 AIE alarm interrupt enable, bit 6 AF alarm
flag: the chip sets it, a write of 0 clears it, a write of 1 leaves it),
0x04-0x0A seconds .. years in BCD (the time runs on the shared simulated
clock from START), 0x0B-0x0F second / minute / hour / day / weekday alarm
(BCD, bit 7 set = field ignored; all ignored = no alarm). Reads and writes
auto-increment. The alarm fires at the first whole second whose enabled
fields match; the Badger 2040 W's GPIO8 then reads high while AF and AIE
are both set. Writes to registers it does not keep are refused
(PanelError-style: RtcError), as is BCD that is not BCD.
"""

import machine

ADDRESS = 0x51
START = (2024, 6, 1, 12, 0, 0)  # at simulated time 0: year, month, day, h, m, s


class RtcError(Exception):
    """A register access the board module should not make."""


def _bcd(n):
    return (n // 10) << 4 | n % 10


def _unbcd(b, what):
    if (b & 0x0F) > 9 or (b >> 4) > 9:
        raise RtcError("%s: 0x%02x is not BCD" % (what, b))
    return (b >> 4) * 10 + (b & 0x0F)


class FakePCF85063A:
    def __init__(self, bus=0, int_pin=8):
        self.regs = bytearray(0x12)
        self.regs[0x0B:0x10] = b"\x80\x80\x80\x80\x80"
        self.base_s = START[3] * 3600 + START[4] * 60 + START[5]  # seconds of the day at base_ms
        self.base_ms = 0
        self.checked_s = None  # last whole second the alarm was checked at
        self.writes = []  # (register, bytes)
        machine.attach_i2c(bus, ADDRESS, self)
        machine.drive(int_pin, self._int_level)

    # -- time -----------------------------------------------------------------
    def seconds_now(self):
        """Seconds since midnight on the RTC now."""
        if self.regs[0x00] & 0x20:
            return self.base_s
        return (self.base_s + (machine.clock.now - self.base_ms) // 1000) % 86400

    def _tick(self):
        """Set AF when a second that matches the alarm has come."""
        now_s = self.seconds_now()
        if self.checked_s is None:
            self.checked_s = now_s
            return
        alarm = self.regs[0x0B:0x0E]
        if all(b & 0x80 for b in self.regs[0x0B:0x10]):
            self.checked_s = now_s
            return
        s = self.checked_s
        while s != now_s:
            s = (s + 1) % 86400
            if ((alarm[0] & 0x80 or _unbcd(alarm[0], "second alarm") == s % 60)
                    and (alarm[1] & 0x80 or _unbcd(alarm[1], "minute alarm") == s // 60 % 60)
                    and (alarm[2] & 0x80 or _unbcd(alarm[2], "hour alarm") == s // 3600)):
                self.regs[0x01] |= 0x40
                break
        self.checked_s = now_s

    def _int_level(self, now):
        self._tick()
        return 1 if (self.regs[0x01] & 0xC0) == 0xC0 else 0

    def alarm_flag(self):
        self._tick()
        return bool(self.regs[0x01] & 0x40)

    # -- bus ---------------------------------------------------------------------
    def i2c_read(self, reg, n):
        self._tick()
        s = self.seconds_now()
        self.regs[0x04] = _bcd(s % 60)
        self.regs[0x05] = _bcd(s // 60 % 60)
        self.regs[0x06] = _bcd(s // 3600)
        if reg + n > len(self.regs):
            raise RtcError("read of %d bytes from 0x%02x runs past the registers" % (n, reg))
        return bytes(self.regs[reg:reg + n])

    def i2c_write(self, reg, data):
        self._tick()
        self.writes.append((reg, bytes(data)))
        for i in range(len(data)):
            r = reg + i
            v = data[i]
            if r == 0x01:
                keep_af = self.regs[0x01] & 0x40 if v & 0x40 else 0
                self.regs[0x01] = (v & ~0x40) | keep_af
            elif r == 0x00 or 0x0B <= r <= 0x0F:
                if 0x0B <= r <= 0x0D and not v & 0x80:
                    _unbcd(v, "alarm register 0x%02x" % r)
                self.regs[r] = v
            elif 0x04 <= r <= 0x06:
                self.regs[r] = v
                self.base_s = (_unbcd(self.regs[0x06] & 0x3F, "hours") * 3600
                               + _unbcd(self.regs[0x05] & 0x7F, "minutes") * 60
                               + _unbcd(self.regs[0x04] & 0x7F, "seconds"))
                self.base_ms = machine.clock.now
            else:
                raise RtcError("write to register 0x%02x, which the board module has no business with" % r)
        self.checked_s = self.seconds_now()

"""A fake Waveshare Pico-ePaper-2.9 panel (SSD1680 controller, 128 x 296,
"V2": no partial waveform in OTP) on the fake machine's SPI bus and pins.

It decodes what the driver sends (DC low = command, DC high = data, CS low
required) and keeps the controller's state: registers (data entry mode, RAM
X/Y windows and address counters), the two RAMs (0x24 new image, 0x26
previous image; 1 = white, one byte = 8 sources, MSB first), the loaded
waveform, clock/analog power, deep sleep, and what the glass shows.

0x22 sequence bits: 0x80 clock on, 0x40 analog on, 0x20 load temperature,
0x10 load the OTP waveform, 0x08 display mode 2, 0x04 display, 0x02 analog
off, 0x01 clock off; 0x20 runs it and drives BUSY high (1 = busy) for a
realistic time: POWER_ON_MS, FULL_MS (mode 1: the glass becomes RAM 0x24)
or the loaded waveform's frames (mode 2, lut_ms(): only pixels whose 0x24
and 0x26 bits differ change; needs a waveform written with 0x32 since the
last reset, as this panel has none in OTP). The LUT's layout, frame rate
and times are host_tools/sim/emu/ssd1680.mjs's, with their sources. The 0x37 display option's ping-pong bit copies 0x24 to 0x26
after a mode-2 update.

It raises PanelError at once for what the real one would get wrong or
ignore: bytes with CS high; anything while BUSY is high; anything in deep
sleep (0x10) before a hardware reset; a reset during a refresh; unknown
commands; a command with the wrong number of data bytes; RAM writes outside
the window; a display step without clock and analog power or without a
waveform. ``stuck = True`` holds BUSY high for ever (from now);
``stick_on_update = True`` does so from the next refresh.

The landscape view (landscape()) follows Waveshare's landscape example:
landscape pixel (x, y) is gate Y = x, source X = 127 - y.
"""

import machine

SOURCES = 128
GATES = 296
ROW = SOURCES // 8  # 16 bytes per gate
RAM = ROW * GATES  # 4736

DATA_LEN = {
    0x01: 3, 0x03: 1, 0x04: 3, 0x10: 1, 0x11: 1, 0x12: 0, 0x18: 1, 0x20: 0, 0x21: 2,
    0x22: 1, 0x24: None, 0x26: None, 0x2C: 1, 0x32: 153, 0x37: 10, 0x3C: 1, 0x3F: 1,
    0x44: 2, 0x45: 4, 0x4E: 1, 0x4F: 2,
}


class PanelError(Exception):
    """The driver did something the SSD1680 would not accept."""


LUT_TIMING = 60  # 12 groups of 7 timing bytes after the 60 level bytes
LUT_FR = LUT_TIMING + 12 * 7  # a frame-rate nibble per group
FRAME_MS = {2: 736.721 / 32}  # FR 2: GxEPD2's 32 frames in 736.7 ms


def lut_ms(lut):
    """A 153-byte waveform's duration in ms (PanelError for an unknown frame rate)."""
    ms = 0.0
    for g in range(12):
        tpa, tpb, srab, tpc, tpd, srcd, rp = lut[LUT_TIMING + g * 7:LUT_TIMING + g * 7 + 7]
        n = ((tpa + tpb) * (srab + 1) + (tpc + tpd) * (srcd + 1)) * (rp + 1)
        fr = (lut[LUT_FR + g // 2] >> (0 if g & 1 else 4)) & 0x0F
        if n and fr not in FRAME_MS:
            raise PanelError("the loaded waveform runs at a frame rate (FR %d) not modelled" % fr)
        ms += n * FRAME_MS.get(fr, 0)
    return round(ms)


class FakeSSD1680:
    FULL_MS = 4012  # GxEPD2's measure of the OTP full update on this panel
    POWER_ON_MS = 96  # GxEPD2's measure
    RESET_MS = 3
    SWRESET_MS = 5

    def __init__(self, spi_id=1, cs=9, dc=8, rst=12, busy=13):
        self.rst_pin = rst
        machine.attach(spi_id, self, dc=dc, cs=cs)
        machine.drive(busy, self._busy_level)
        machine.on_write(rst, self._rst_written)
        self.ram = {0x24: bytearray(b"\xaa" * RAM), 0x26: bytearray(b"\x55" * RAM)}
        self.glass = bytearray(b"\xff" * RAM)
        self.busy_until = 0
        self.stuck = False
        self.stick_on_update = False
        self.asleep = False
        self.in_reset = False
        self.updates = []  # {"kind": "full" | "fast", "t": ms}
        self.commands = []  # every command byte, in order
        self.resets = 0
        self.sleeps = 0
        self.cmd = None
        self.data = bytearray()
        self._defaults()

    def _defaults(self):
        self.entry = 0x03
        self.xs, self.xe = 0, ROW - 1
        self.ys, self.ye = 0, GATES - 1
        self.xc = 0
        self.yc = 0
        self.gates = GATES
        self.seq = 0xFF
        self.lut = None
        self.clock_on = False
        self.analog_on = False
        self.pingpong = False

    # -- lines ------------------------------------------------------------
    def _busy_level(self, now):
        return 1 if (self.stuck or now < self.busy_until) else 0

    def busy(self):
        return self._busy_level(machine.clock.now) == 1

    def _rst_written(self, level):
        if level == 0:
            if self.busy() and not self.stuck:
                raise PanelError("hardware reset during a refresh (BUSY high)")
            self.in_reset = True
        elif self.in_reset:
            self.in_reset = False
            self._finish_command()
            self.cmd = None
            self.asleep = False
            self.resets += 1
            self._defaults()
            self.busy_until = machine.clock.now + self.RESET_MS

    def spi_write(self, data, dc, cs):
        if cs != 0:
            raise PanelError("SPI bytes with CS high are not for the panel")
        if self.in_reset:
            raise PanelError("SPI bytes while RST is low")
        if self.asleep:
            raise PanelError("SSD1680 is in deep sleep: only a hardware reset wakes it")
        if self.busy():
            raise PanelError("SPI bytes while BUSY is high (%s)" % (
                "stuck" if self.stuck else "%d ms left" % (self.busy_until - machine.clock.now)))
        if dc is None:
            raise PanelError("no DC line on the bus")
        if dc == 0:
            for c in data:
                self._finish_command()
                self._begin(c)
        else:
            if self.cmd is None:
                raise PanelError("data bytes without a command")
            if self.cmd in (0x24, 0x26):
                for b in data:
                    self._ram_write(b)
            else:
                self.data.extend(data)
                n = DATA_LEN[self.cmd]
                if len(self.data) > n:
                    raise PanelError("command 0x%02x takes %d data bytes, got %d" % (self.cmd, n, len(self.data)))
                if len(self.data) == n:
                    self._apply(self.cmd, bytes(self.data))
                    self.cmd = None

    # -- commands -----------------------------------------------------------
    def _finish_command(self):
        if self.cmd is not None and self.cmd not in (0x24, 0x26):
            raise PanelError("command 0x%02x needs %d data bytes, got %d" % (
                self.cmd, DATA_LEN[self.cmd], len(self.data)))
        self.cmd = None

    def _begin(self, c):
        if c not in DATA_LEN:
            raise PanelError("unknown SSD1680 command 0x%02x" % c)
        self.commands.append(c)
        self.data = bytearray()
        if DATA_LEN[c] == 0:
            self._apply(c, b"")
            return
        self.cmd = c

    def _apply(self, c, d):
        if c == 0x01:
            self.gates = (d[0] | (d[1] << 8)) + 1
            if self.gates != GATES:
                raise PanelError("driver output control: %d gates, the panel has %d" % (self.gates, GATES))
        elif c == 0x11:
            self.entry = d[0] & 0x07
        elif c == 0x44:
            self.xs, self.xe = d[0] & 0x3F, d[1] & 0x3F
        elif c == 0x45:
            self.ys, self.ye = d[0] | (d[1] << 8), d[2] | (d[3] << 8)
        elif c == 0x4E:
            self.xc = d[0] & 0x3F
        elif c == 0x4F:
            self.yc = d[0] | (d[1] << 8)
        elif c == 0x22:
            self.seq = d[0]
        elif c == 0x20:
            self._activate()
        elif c == 0x12:
            self._defaults()
            self.busy_until = machine.clock.now + self.SWRESET_MS
        elif c == 0x10:
            if d[0] & 0x03:
                self.asleep = True
                self.sleeps += 1
                if d[0] & 0x03 == 0x03:  # mode 2 does not keep RAM
                    self.ram[0x24][:] = bytes(RAM)
                    self.ram[0x26][:] = bytes(RAM)
        elif c == 0x32:
            self.lut = bytes(d)
        elif c == 0x37:
            self.pingpong = bool(d[5] & 0x40)
        # 0x03, 0x04, 0x18, 0x21, 0x2C, 0x3C, 0x3F: voltages and options

    def _ram_write(self, b):
        lo_x, hi_x = min(self.xs, self.xe), max(self.xs, self.xe)
        lo_y, hi_y = min(self.ys, self.ye), max(self.ys, self.ye)
        if not (lo_x <= self.xc <= hi_x and lo_y <= self.yc <= hi_y and self.xc < ROW and self.yc < GATES):
            raise PanelError("RAM write at X byte %d, gate %d: outside the window" % (self.xc, self.yc))
        self.ram[self.cmd][self.yc * ROW + self.xc] = b
        x_step = 1 if self.entry & 0x01 else -1
        y_step = 1 if self.entry & 0x02 else -1
        if self.entry & 0x04:  # Y counter first
            self.yc += y_step
            if self.yc > hi_y or self.yc < lo_y:
                self.yc = self.ys
                self.xc += x_step
                if self.xc > hi_x or self.xc < lo_x:
                    self.xc = self.xs
        else:
            self.xc += x_step
            if self.xc > hi_x or self.xc < lo_x:
                self.xc = self.xs
                self.yc += y_step
                if self.yc > hi_y or self.yc < lo_y:
                    self.yc = self.ys

    def _activate(self):
        s = self.seq
        ms = 0
        otp_loaded = False
        if s & 0x80:
            self.clock_on = True
        if s & 0x40:
            if not self.clock_on:
                raise PanelError("analog on without the clock")
            if not self.analog_on:
                ms += self.POWER_ON_MS
            self.analog_on = True
        if s & 0x10:
            if s & 0x08:
                raise PanelError("this panel has no display-mode-2 waveform in OTP: load one with 0x32")
            otp_loaded = True
        if s & 0x04:
            if not (self.clock_on and self.analog_on):
                raise PanelError("display step without clock and analog power (0x22 0x%02x)" % s)
            new = self.ram[0x24]
            if s & 0x08:
                if self.lut is None:
                    raise PanelError("display mode 2 with no waveform loaded (0x32) since the last reset")
                old = self.ram[0x26]
                g = self.glass
                for i in range(RAM):
                    changed = new[i] ^ old[i]
                    if changed:
                        g[i] = (g[i] & (0xFF ^ changed)) | (new[i] & changed)
                if self.pingpong:
                    old[:] = new
                kind = "fast"
                ms += lut_ms(self.lut)
            else:
                if not otp_loaded and self.lut is None:
                    raise PanelError("display mode 1 with no waveform: set 0x10 (load LUT) in 0x22")
                self.glass[:] = new
                kind = "full"
                ms += self.FULL_MS
            self.updates.append({"kind": kind, "t": machine.clock.now})
            if self.stick_on_update:
                self.stuck = True
        if s & 0x02:
            self.analog_on = False
        if s & 0x01:
            self.clock_on = False
        self.busy_until = machine.clock.now + ms

    # -- views -----------------------------------------------------------------
    def landscape(self):
        """What the glass shows as a 296 x 128 MONO_HLSB frame, 1 = black."""
        out = bytearray(GATES * SOURCES // 8)
        g = self.glass
        for x in range(GATES):  # landscape x = gate
            row = x * ROW
            obyte = x >> 3
            obit = 0x80 >> (x & 7)
            for y in range(SOURCES):  # landscape y = 127 - source
                src = SOURCES - 1 - y
                white = (g[row + (src >> 3)] >> (7 - (src & 7))) & 1
                if not white:
                    out[y * (GATES // 8) + obyte] |= obit
        return bytes(out)

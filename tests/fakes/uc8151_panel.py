"""A fake Badger 2040 panel (UC8151 controller, 128 sources x 296 gates,
b/w) on the fake machine's SPI bus and pins.

It decodes what a driver sends (DC low = command, DC high = data, CS low
required) and keeps the controller's state: the panel setting (PSR:
resolution, b/w, waveform from OTP or registers, gate scan and source shift
directions), the data polarity (CDI), the frame rate (PLL), the five
waveform registers, charge pumps (PON/POF), partial mode and window
(PTIN/PTL/PTOU), the new-data RAM (DTM2) in data order (gate after gate,
16 bytes of 8 sources, MSB first), deep sleep, and what the glass shows.

BUSY is LOW while the controller works (1 = ready): after RST rises
(RESET_MS), PON (POWER_ON_MS), POF (POWER_OFF_MS) and DRF (the refresh:
FULL_MS with the OTP waveform; with a register waveform its frames, sum of
the 4 phases x repeat over the groups of LUT_VCOM, at the PLL frame rate).
In deep sleep BUSY reads low (not ready) until a hardware reset.

It raises PanelError at once, and records it in ``errors``, for what the
real one would get wrong or ignore: bytes with CS high; anything while BUSY
is low; anything in deep sleep before a hardware reset; a reset pulse
shorter than RESET_LOW_MIN_MS or during a refresh; unknown commands; the
wrong number of data bytes; DSLP without the 0xA5 check code or with the
charge pumps on; DTM2 bytes beyond the RAM or the partial window; a partial
window off the 8-source banks or off the panel, or on some sources only
with the source shift reversed (where those banks land is not known); a refresh without power on,
after a DTM2 transfer left unfinished, without the 128 x 296 b/w panel
setting, with a register waveform not fully loaded since the reset, at an
unknown frame rate, or with waveforms that need the old data (DTM1, which
no driver here writes: WW must equal BW and WB equal BB). The RAM holds a
stripe pattern after every reset, so RAM not written before a refresh shows.
``stuck = True`` holds BUSY low for ever (from now); ``stick_on_update =
True`` does so from the next refresh.

Orientation (landscape() and glass): Pimoroni's rotation 0 (gates scan
down, sources shift right) puts data byte k, bit 7 - j of gate g at
landscape (g, 8k + j); the gate scan bit mirrors x, the source shift bit
mirrors y. Data bit 1 is white when the CDI's DDX bit 0 (0x10) is set.
"""

import machine

SOURCES = 128
GATES = 296
ROW = SOURCES // 8  # 16 bytes per gate
RAM = ROW * GATES  # 4736
LANDSCAPE_ROW = GATES // 8  # 37 bytes per landscape row

STREAM = -1
DATA_LEN = {
    0x00: 1, 0x01: 5, 0x02: 0, 0x03: 1, 0x04: 0, 0x06: 3, 0x07: 1,
    0x10: STREAM, 0x11: 0, 0x12: 0, 0x13: STREAM,
    0x20: 44, 0x21: 42, 0x22: 42, 0x23: 42, 0x24: 42,
    0x30: 1, 0x41: 1, 0x50: 1, 0x60: 1, 0x61: 3, 0x82: 1,
    0x90: 7, 0x91: 0, 0x92: 0,
}
PLL_HZ = {0x3F: 29, 0x3E: 33, 0x3D: 40, 0x3C: 50, 0x3B: 67, 0x3A: 100, 0x39: 200}


class PanelError(Exception):
    """The driver did something the UC8151 would not accept."""


class FakeUC8151:
    FULL_MS = 4500  # Pimoroni: update time with the OTP waveform
    POWER_ON_MS = 40
    POWER_OFF_MS = 20
    RESET_MS = 3
    RESET_LOW_MIN_MS = 1

    def __init__(self, spi_id=0, cs=17, dc=20, rst=21, busy=26):
        machine.attach(spi_id, self, dc=dc, cs=cs)
        machine.drive(busy, self._busy_level)
        machine.on_write(rst, self._rst_written)
        self.ram = bytearray(RAM)
        self.glass = bytearray(LANDSCAPE_ROW * SOURCES)  # landscape MONO_HLSB, 1 = black
        self.busy_until = 0
        self.stuck = False
        self.stick_on_update = False
        self.asleep = False
        self.rst_low_at = None
        self.updates = []  # {"kind", "t", "ms", "window"}
        self.commands = []  # (t, command byte), in order
        self.errors = []
        self.resets = 0
        self.sleeps = 0
        self.cmd = None
        self.data = bytearray()
        self._defaults()

    def _defaults(self):
        self.psr = 0x0F  # the reset value: 96 x 230, b/w/red, OTP
        self.cdi = 0xD7
        self.pll = 0x3C
        self.luts = {}
        self.power = False
        self.partial = False
        self.window = None  # (hrst, hred, vrst, vred)
        self.dtm_left = None  # bytes still owed by an unfinished DTM2 transfer
        self.dtm_pos = 0
        for i in range(RAM):
            self.ram[i] = 0xAA if (i // ROW) & 1 else 0x55

    # -- lines -----------------------------------------------------------------
    def _busy_level(self, now):
        return 0 if (self.stuck or self.asleep or now < self.busy_until) else 1

    def busy(self):
        return self._busy_level(machine.clock.now) == 0

    def _fail(self, msg):
        self.errors.append(msg)
        raise PanelError(msg)

    def _rst_written(self, level):
        now = machine.clock.now
        if level == 0:
            if now < self.busy_until and not self.stuck and not self.asleep:
                self._fail("hardware reset during a refresh (BUSY low)")
            self.rst_low_at = now
        elif self.rst_low_at is not None:
            low = now - self.rst_low_at
            self.rst_low_at = None
            if low < self.RESET_LOW_MIN_MS:
                self._fail("reset pulse of %d ms: RST must stay low at least %d ms" % (low, self.RESET_LOW_MIN_MS))
            self.cmd = None
            self.asleep = False
            self.resets += 1
            self._defaults()
            self.busy_until = now + self.RESET_MS

    def spi_write(self, data, dc, cs):
        if cs != 0:
            self._fail("SPI bytes with CS high are not for the panel")
        if self.rst_low_at is not None:
            self._fail("SPI bytes while RST is low")
        if self.asleep:
            self._fail("UC8151 is in deep sleep: only a hardware reset wakes it")
        if self.busy():
            self._fail("SPI bytes while BUSY is low (%s)" % (
                "stuck" if self.stuck else "%d ms left" % (self.busy_until - machine.clock.now)))
        if dc is None:
            self._fail("no DC line on the bus")
        if dc == 0:
            for c in data:
                self._finish_command()
                self._begin(c)
        elif self.cmd is None:
            self._fail("data bytes without a command")
        elif self.cmd == 0x13:
            self._ram_write(data)
        elif self.cmd == 0x10:
            self._fail("DTM1 (old data): no waveform this driver loads reads it")
        else:
            self.data.extend(data)
            n = DATA_LEN[self.cmd]
            if len(self.data) > n:
                self._fail("command 0x%02x takes %d data bytes, got %d" % (self.cmd, n, len(self.data)))
            if len(self.data) == n:
                cmd = self.cmd
                self.cmd = None
                self._apply(cmd, bytes(self.data))

    # -- commands ----------------------------------------------------------------
    def _finish_command(self):
        if self.cmd is not None and DATA_LEN[self.cmd] != STREAM:
            self._fail("command 0x%02x needs %d data bytes, got %d" % (self.cmd, DATA_LEN[self.cmd], len(self.data)))
        self.cmd = None

    def _begin(self, c):
        if c not in DATA_LEN:
            self._fail("unknown UC8151 command 0x%02x" % c)
        self.commands.append((machine.clock.now, c))
        self.data = bytearray()
        if c == 0x13:
            self.dtm_pos = 0
            self.dtm_left = self._window_bytes()
        if DATA_LEN[c] == 0:
            self._apply(c, b"")
        else:
            self.cmd = c

    def _window_bytes(self):
        if not self.partial:
            return RAM
        if self.window is None:
            self._fail("DTM2 in partial mode with no window set (PTL)")
        hrst, hred, vrst, vred = self.window
        return ((hred - hrst + 1) // 8) * (vred - vrst + 1)

    def _apply(self, c, d):
        now = machine.clock.now
        if c == 0x00:
            self.psr = d[0]
        elif c == 0x50:
            self.cdi = d[0]
        elif c == 0x30:
            self.pll = d[0]
        elif 0x20 <= c <= 0x24:
            self.luts[c] = bytes(d)
        elif c == 0x04:
            if not self.power:
                self.busy_until = now + self.POWER_ON_MS
            self.power = True
        elif c == 0x02:
            if self.power:
                self.busy_until = now + self.POWER_OFF_MS
            self.power = False
        elif c == 0x07:
            if d[0] != 0xA5:
                self._fail("deep sleep without the check code 0xA5 (got 0x%02x): ignored by the chip" % d[0])
            if self.power:
                self._fail("deep sleep with the charge pumps on: power off (POF) first")
            self.asleep = True
            self.sleeps += 1
        elif c == 0x91:
            self.partial = True
        elif c == 0x92:
            self.partial = False
        elif c == 0x90:
            hrst, hred = d[0], d[1]
            vrst, vred = (d[2] << 8) | d[3], (d[4] << 8) | d[5]
            if hrst & 7 or hred & 7 != 7 or hred < hrst or hred >= SOURCES:
                self._fail("partial window sources %d..%d: must be whole banks of 8 within 0..127" % (hrst, hred))
            if vred < vrst or vred >= GATES:
                self._fail("partial window gates %d..%d: outside 0..295" % (vrst, vred))
            if not self.psr & 0x04 and (hrst, hred) != (0, SOURCES - 1):
                self._fail("a window on some sources with the source shift reversed: nothing known "
                           "says where PTL's source banks land then, so this model does not guess")
            self.window = (hrst, hred, vrst, vred)
        elif c == 0x12:
            self._refresh()
        # 0x01, 0x03, 0x06, 0x41, 0x60, 0x61, 0x82: voltages, timing, options;
        # 0x11 (DSP) ends a data transfer.

    def _ram_write(self, data):
        n = len(data)
        if n > self.dtm_left:
            self._fail("DTM2: %d bytes more than the %s holds" % (
                n - self.dtm_left, "partial window" if self.partial else "RAM"))
        if not self.partial:
            self.ram[self.dtm_pos:self.dtm_pos + n] = data
        else:
            hrst, hred, vrst, vred = self.window
            wb = (hred - hrst + 1) // 8
            for i in range(n):
                p = self.dtm_pos + i
                self.ram[(vrst + p // wb) * ROW + hrst // 8 + p % wb] = data[i]
        self.dtm_pos += n
        self.dtm_left -= n

    def _frames(self):
        """Frames of the register waveform (from LUT_VCOM's groups)."""
        lut = self.luts[0x20]
        total = 0
        for g in range(7):
            i = g * 6
            total += (lut[i + 1] + lut[i + 2] + lut[i + 3] + lut[i + 4]) * lut[i + 5]
        return total

    def _refresh(self):
        if not self.power:
            self._fail("refresh (DRF) with the charge pumps off: PON first")
        if self.partial and self.window is None:
            self._fail("partial refresh with no window set (PTL)")
        if self.dtm_left:
            self._fail("refresh after an unfinished DTM2 transfer (%d bytes missing)" % self.dtm_left)
        if self.psr & 0xC0 != 0x80 or not self.psr & 0x10:
            self._fail("panel setting 0x%02x: not 128 x 296 black/white" % self.psr)
        if self.psr & 0x20:
            for reg in (0x20, 0x21, 0x22, 0x23, 0x24):
                if reg not in self.luts:
                    self._fail("register waveform without LUT 0x%02x loaded since the reset" % reg)
            if self.luts[0x21] != self.luts[0x22] or self.luts[0x23] != self.luts[0x24]:
                self._fail("this waveform depends on the old data (DTM1), which is never written")
            if self.pll not in PLL_HZ:
                self._fail("unknown frame rate (PLL 0x%02x)" % self.pll)
            frames = self._frames()
            ms = frames * 1000 // PLL_HZ[self.pll]
            kind = "partial" if self.partial else "fast"
        else:
            frames = None
            ms = self.FULL_MS
            kind = "partial-otp" if self.partial else "full"
        if self.partial:
            hrst, hred, vrst, vred = self.window
            gates = range(vrst, vred + 1)
            window = (vrst, vred, hrst, hred)
        else:
            gates = range(GATES)
            window = None
        self._to_glass(gates, self.window if self.partial else None)
        self.updates.append({"kind": kind, "t": machine.clock.now, "ms": ms, "frames": frames, "window": window})
        self.busy_until = machine.clock.now + ms
        if self.stick_on_update:
            self.stuck = True

    def _to_glass(self, gates, window):
        lo, hi = (0, SOURCES - 1) if window is None else (window[0], window[1])
        white_is_one = bool(self.cdi & 0x10)
        up = bool(self.psr & 0x08)
        right = bool(self.psr & 0x04)
        g = self.glass
        for gate in gates:
            x = GATES - 1 - gate if up else gate
            obyte = x >> 3
            obit = 0x80 >> (x & 7)
            row = gate * ROW
            for s in range(lo, hi + 1):
                one = (self.ram[row + (s >> 3)] >> (7 - (s & 7))) & 1
                y = s if right else SOURCES - 1 - s
                i = y * LANDSCAPE_ROW + obyte
                if one != white_is_one:
                    g[i] |= obit
                else:
                    g[i] &= 0xFF ^ obit

    # -- views -----------------------------------------------------------------
    def landscape(self):
        """What the glass shows as a 296 x 128 MONO_HLSB frame, 1 = black."""
        return bytes(self.glass)

    def kinds(self):
        return [u["kind"] for u in self.updates]

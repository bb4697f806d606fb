"""The project's own driver for the SSD1680 e-paper controller on SPI, as on
the Waveshare Pico-ePaper-2.9 (2.9", 128 x 296 b/w, "V2" panel).

Facts it relies on (Waveshare's Pico-ePaper-2.9 example and wiki, the
SSD1680 command set as used by GxEPD2's GDEM029T94 driver):

* 4-wire SPI, mode 0, MSB first; DC low = command byte, DC high = data;
  CS low for the whole transfer.
* BUSY is HIGH while the controller works (0 = idle). No command may be sent
  while BUSY is high. A hardware reset (RST low, then high) is the only way
  out of deep sleep.
* Init: HW reset, wait, 0x12 SW reset (registers to defaults, RAM kept),
  wait, 0x01 driver output (296 gates: 0x27 0x01 0x00), 0x11 data entry
  mode, 0x44/0x45 RAM X (bytes) / Y (gates) window, 0x3C border, 0x21
  display update control (0x00 0x80), 0x18 0x80 internal temperature
  sensor, 0x4E/0x4F RAM address counters.
* RAM: 0x24 = the new image, 0x26 = the previous one; 1 = white, 0 = black;
  one byte = 8 pixels along X (sources), most significant bit first.
* Full update: 0x22 0xF7 (clock and analog on, load temperature and the
  OTP waveform, display, analog and clock off), 0x20 to start: ~3 s
  (Waveshare) to ~4 s (GxEPD2 measured 4.0 s at room temperature).
* Fast update: this panel has no partial waveform in OTP, so it is loaded
  (0x32, 153 bytes) with its voltages (0x3F end option, 0x03 gate, 0x04
  source, 0x2C VCOM), 0x37 display option, 0x3C 0x80 border, 0x22 0xC0 +
  0x20 power on (BUSY ~96 ms: GxEPD2's measure), then 0x22 0xCC + 0x20
  (GxEPD2's partial update: display mode 2 with clock and analog kept on).
  The waveform is Waveshare's WF_PARTIAL_2IN9 with its first group run
  once instead of twice: 12 frames of ~23 ms (host_tools/sim/emu/ssd1680.mjs
  derives it), 0.28 s instead of 0.51 s. The waveform only drives pixels
  whose new (0x24) and old (0x26) bits differ, so 0x26 must hold what the
  glass shows: a full update writes the frame into both RAMs, and the
  display option (0x37, byte 5 bit 6: "ping-pong") has the controller copy
  0x24 into 0x26 after each fast update, as Waveshare's own partial update
  relies on; so a fast update writes 0x24 only.
* Kept ready: after a fast update the controller stays powered with its
  waveform loaded, so the next press's update is its RAM write and 0x20
  (no reset, no 96 ms power on). finish() (before the board sleeps) and
  poll() after READY_MS without an update power it off (0x22 0x83 + 0x20,
  GxEPD2's power off, ~140 ms) and put it into deep sleep: the analog
  power is never left on unattended (GxEPD2: powering off "avoids screen
  fading over time"). A full update (0xF7) ends powered off.
* Deep sleep: 0x10 0x01 (mode 1, RAM kept), sent once BUSY is low.
* The datasheet asks for no pause between refreshes beyond BUSY;
  MIN_INTERVAL_MS adds one if a panel needs it.

Orientation. Our frames are 296 x 128 landscape MONO_HLSB, bit 1 = black.
The panel is natively 128 sources (X) x 296 gates (Y). As Waveshare's
landscape example does, a landscape pixel (x, y) is gate Y = x and source
X = 127 - y: with data entry mode 0x06 (Y counter first, Y incrementing, X
decrementing from byte 15, the window's X start above its end: the mode
Zephyr's ssd16xx driver uses for its normal orientation) the RAM takes,
gate after gate, the bytes of one 8-pixel horizontal band of the landscape
image in MONO_VLSB order, bands from the top (y 0..7, X byte 15) to the
bottom: the MONO_VLSB frame as it lies in memory. The renderer draws in
that layout itself (canvas(): a render.Canvas over a MONO_VLSB buffer, ink
1), the only frame buffer: show() flips its bits (the panel's 1 is white;
drivers/invert.py in native code, 0.3 ms on a Pico), sends it in one SPI
write, and flips them back once the update has started: no per-pixel work,
no second frame buffer, no allocation per frame. A landscape MONO_HLSB
frame given instead is first converted into a buffer made on first use
(one framebuf blit, ~58 ms; tests and other renderers).

Waits are bounded: a BUSY pin that never falls raises PanelTimeout with
what was being waited for, instead of hanging. Updates do not block: show()
starts one and returns; poll() notices the end (the controller stays ready
after a fast update, else goes into deep sleep); the next show() (or
finish()) waits for it if needed.
"""

from drivers.panel import Panel

try:
    from micropython import const
except ImportError:  # CPython tests
    def const(x):
        return x

WIDTH = 296  # landscape, as our frames
HEIGHT = 128
FRAME_BYTES = WIDTH * HEIGHT // 8  # 4736

# Commands (const and private: folded into the code, no module attributes or
# names on the board)
_DRIVER_OUTPUT = const(0x01)
_GATE_VOLTAGE = const(0x03)
_SOURCE_VOLTAGE = const(0x04)
_DEEP_SLEEP = const(0x10)
_DATA_ENTRY = const(0x11)
_SW_RESET = const(0x12)
_TEMP_SENSOR = const(0x18)
_MASTER_ACTIVATION = const(0x20)
_UPDATE_CONTROL_1 = const(0x21)
_UPDATE_CONTROL_2 = const(0x22)
_WRITE_RAM_BW = const(0x24)
_WRITE_RAM_OLD = const(0x26)
_VCOM = const(0x2C)
_WRITE_LUT = const(0x32)
_DISPLAY_OPTION = const(0x37)
_BORDER = const(0x3C)
_END_OPTION = const(0x3F)
_RAM_X_WINDOW = const(0x44)
_RAM_Y_WINDOW = const(0x45)
_RAM_X_COUNTER = const(0x4E)
_RAM_Y_COUNTER = const(0x4F)

# 0x22 bits: 0x80 clock on, 0x40 analog on, 0x20 load temperature, 0x10 load
# LUT, 0x08 display mode 2, 0x04 display, 0x02 analog off, 0x01 clock off.
_SEQ_FULL = const(b"\xf7")  # on, load temperature + OTP waveform, display (mode 1), off
_SEQ_POWER_ON = const(b"\xc0")  # clock + analog on
_SEQ_FAST = const(b"\xcc")  # clock + analog on, display mode 2 (the loaded waveform): stays powered
_SEQ_POWER_OFF = const(b"\x83")  # analog + clock off

_DATA_ENTRY_Y_FIRST = const(b"\x06")  # AM=1 (Y counter first), X decrement, Y increment

# Waveshare WF_PARTIAL_2IN9 (153 bytes): voltage levels per phase, phase
# timing/repeat groups, frame rate; its group 0 (TPA 10 frames) runs once
# (RP 0), not twice (RP 1): 12 frames, not 22. One bytes literal: a board
# reads it from flash (made at run time it took ~180 B of heap).
_PARTIAL_LUT = const(
    b"\x00\x40\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80\x80\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x40\x40\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x0a\x00\x00\x00\x00\x00\x00\x01"
    b"\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x22\x22\x22\x22\x22\x22\x00\x00\x00"
)
# The voltages Waveshare sends with that waveform.
_PARTIAL_END_OPTION = const(b"\x22")
_PARTIAL_GATE = const(b"\x17")
_PARTIAL_SOURCE = const(b"\x41\xb0\x32")
_PARTIAL_VCOM = const(b"\x36")
_PARTIAL_DISPLAY_OPTION = const(b"\x00\x00\x00\x00\x00\x40\x00\x00\x00\x00")


class SSD1680(Panel):
    """The SSD1680 (BUSY high while it works) on drivers/panel.py's Panel."""

    NAME = "SSD1680"

    # Longest waits, in ms, before PanelTimeout (typical: reset and power on
    # ~0.1 s, full 3-4 s, fast 0.3-0.75 s; cold panels are slower).
    TIMEOUT_MS = {"reset": 1000, "software reset": 1000, "power on": 1000,
                  "full update": 10000, "fast update": 3000, "power off": 1000}
    MIN_INTERVAL_MS = 0
    RESET_LOW_MS = 2

    def __init__(self, spi, cs, dc, rst, busy, clock=None, idle=None):
        Panel.__init__(self, spi, cs, dc, rst, busy, clock, idle)
        self._canvas = None  # see canvas()
        self._landscape = None  # HlsbToVlsb into a buffer of its own, made on first use
        # flips a frame's bits in place: native_invert() puts native code
        # here; else drivers/vlsb.py's, loaded on first use (a board that
        # draws on canvas() in native code never loads that module)
        self.invert = None
        self.ended = None
        self.powered = False  # ready for a fast update: its waveform loaded, analog power on
        self.ready_at = 0  # since when (ticks_ms)
        self.counts = {"full": 0, "fast": 0}

    # -- low level -------------------------------------------------------
    def _lost(self):
        Panel._lost(self)
        self.powered = False

    def command(self, cmd, data=None):
        self.cs.value(0)
        self.dc.value(0)
        self._one[0] = cmd
        self.spi.write(self._one)
        if data:
            self.dc.value(1)
            self.spi.write(data)
        self.cs.value(1)

    def _write_ram(self, cmd, ram):
        """A frame into RAM ``cmd``: ram is its bytes as the panel takes
        them (ram_image()), from X byte 15, gate 0 (the module notes)."""
        self.command(_RAM_X_COUNTER, b"\x0f")
        self.command(_RAM_Y_COUNTER, b"\x00\x00")
        self.command(cmd, ram)

    def init(self):
        self.reset()
        self.command(_SW_RESET)
        self.clock.sleep_ms(self.RESET_WAIT_MS)
        self.wait("software reset")
        self.command(_DRIVER_OUTPUT, b"\x27\x01\x00")  # 296 gates
        self.command(_DATA_ENTRY, _DATA_ENTRY_Y_FIRST)
        self.command(_RAM_X_WINDOW, b"\x0f\x00")  # bytes 15 down to 0 = sources 127..0
        self.command(_RAM_Y_WINDOW, b"\x00\x00\x27\x01")  # gates 0..295
        self.command(_BORDER, b"\x05")
        self.command(_UPDATE_CONTROL_1, b"\x00\x80")
        self.command(_TEMP_SENSOR, b"\x80")
        self.asleep = False

    def sleep(self):
        """Deep sleep (RAM kept); only a hardware reset wakes it."""
        if not self.asleep:
            self.command(_DEEP_SLEEP, b"\x01")
            self.asleep = True

    # -- frames --------------------------------------------------------------
    def canvas(self):
        """A drawing target in this panel's own layout (a render.Canvas over
        a MONO_VLSB buffer, ink 1) for the renderer, made once; None where
        there is no framebuf. show() takes it instead of a frame."""
        if self._canvas is None:
            from render import framebuf

            if framebuf is not None:
                from render import Canvas

                self._canvas = Canvas(bytearray(FRAME_BYTES), framebuf.MONO_VLSB)
        return self._canvas

    def native_invert(self):
        """Flip the frame's bits in native code (drivers/invert.py) instead
        of framebuf: a board whose runtime compiles viper."""
        from drivers.invert import invert

        self.invert = invert

    def ram_image(self, frame):
        """The panel RAM's bytes for a frame, made in place: the MONO_VLSB
        bytes (ink 1) of the canvas(), or of our landscape MONO_HLSB frame
        (1 = black) converted into a buffer of its own, with every bit
        flipped (the panel's 1 is white). release() flips them back."""
        if frame is not None and frame is self._canvas:
            buf = frame.buf
        else:
            if len(frame) != FRAME_BYTES:
                raise ValueError("a frame is %d bytes, not %d" % (FRAME_BYTES, len(frame)))
            if self._landscape is None:
                from drivers.vlsb import HlsbToVlsb

                self._landscape = HlsbToVlsb(bytearray(FRAME_BYTES), WIDTH, HEIGHT)
            self._landscape.convert(frame)
            buf = self._landscape.out
        if self.invert is None:
            from drivers.vlsb import invert

            self.invert = invert
        self.invert(buf)
        return buf

    def release(self, ram):
        """ram_image()'s bytes back as they were drawn."""
        self.invert(ram)

    # -- updates -------------------------------------------------------------
    def poll(self):
        """True when no update is running. Never waits: an update that has
        ended leaves the panel ready (a fast one) or puts it into deep
        sleep; a panel ready READY_MS with no update is powered off (the
        power off runs as an update does; its end puts it to sleep)."""
        if self.updating is None:
            if not (self.powered and not self.busy()
                    and self.clock.ticks_diff(self.clock.ticks_ms(), self.ready_at) >= self.READY_MS):
                return True
            self._power_off()
        if self.busy():
            return False
        self._finished()
        return True

    def finish(self):
        """Wait (bounded) for a running update, then power off and deep
        sleep (the board is about to sleep)."""
        self._end_update()
        if self.powered:
            self.wait("power on")
            self._power_off()
            self._end_update()

    def _end_update(self):
        """Wait (bounded) for the update running, if any, and end it."""
        if self.updating is not None:
            spent = self.clock.ticks_diff(self.clock.ticks_ms(), self.started)
            self.wait(self.updating, max(0, self.TIMEOUT_MS[self.updating] - spent))
            self._finished()

    def _power_off(self):
        self.command(_UPDATE_CONTROL_2, _SEQ_POWER_OFF)
        self.command(_MASTER_ACTIVATION)
        self.powered = False
        self.updating = "power off"
        self.started = self.clock.ticks_ms()

    def wake(self):
        """Ready the fast update a button press is about to make, at the
        press's edge, unless the panel is ready already (kept so since the
        last fast update): out of deep sleep, the fast waveform loaded, and
        the analog power switched on, whose BUSY (~0.1 s) then runs while
        the firmware works the press out (rules, save, render) instead of
        after it; show() only sends the frame. Nothing while an update
        runs (show() waits for it)."""
        if self.powered or (self.updating is not None and self.busy()):
            return
        if self.updating is not None:
            self._finished()  # ended: a fresh start from deep sleep, as show() makes
        self.init()
        self._fast_settings()
        self.command(_UPDATE_CONTROL_2, _SEQ_POWER_ON)
        self.command(_MASTER_ACTIVATION)
        self.powered = True
        self.ready_at = self.clock.ticks_ms()

    def _fast_settings(self):
        """The fast update's waveform and voltages (Waveshare's, loaded
        before the analog power goes on, as their partial update does)."""
        self.command(_WRITE_LUT, _PARTIAL_LUT)
        self.command(_END_OPTION, _PARTIAL_END_OPTION)
        self.command(_GATE_VOLTAGE, _PARTIAL_GATE)
        self.command(_SOURCE_VOLTAGE, _PARTIAL_SOURCE)
        self.command(_VCOM, _PARTIAL_VCOM)
        self.command(_DISPLAY_OPTION, _PARTIAL_DISPLAY_OPTION)
        self.command(_BORDER, b"\x80")

    def _finished(self):
        """An update's end: a fast one leaves the panel ready (powered, its
        waveform loaded); a full one or a power off, in deep sleep."""
        self.updating = None
        self.ended = self.ready_at = self.clock.ticks_ms()
        if not self.powered:
            self.sleep()

    def show(self, frame, mode):
        """Start a "full" or "fast" update ("partial" is a fast one: the
        waveform only drives changed pixels); returns the mode used."""
        if mode not in ("full", "fast", "partial"):
            raise ValueError("update mode must be full, fast or partial, not %r" % (mode,))
        ram = self.ram_image(frame)
        try:
            return self._start(ram, mode)
        finally:  # the update has started (or failed): the canvas as drawn
            self.release(ram)

    def _start(self, ram, mode):
        """show()'s update from the frame's RAM bytes."""
        self._end_update()
        if self.MIN_INTERVAL_MS and self.ended is not None:
            left = self.MIN_INTERVAL_MS - self.clock.ticks_diff(self.clock.ticks_ms(), self.ended)
            if left > 0:
                self._pause(left)
        if self.powered:
            self.wait("power on")  # RAM writes wait for BUSY; mostly over by now
            if mode == "full":  # a full update starts from a reset: the fast waveform's settings are not its
                self.powered = False
        if not self.powered:
            self.init()
        if mode == "full":
            self._write_ram(_WRITE_RAM_OLD, ram)
            self._write_ram(_WRITE_RAM_BW, ram)
            self.command(_UPDATE_CONTROL_2, _SEQ_FULL)
            self.command(_MASTER_ACTIVATION)
            self.updating = "full update"
            self.counts["full"] += 1
        else:
            self._write_ram(_WRITE_RAM_BW, ram)  # 0x26 holds the glass already (module notes)
            if not self.powered:
                self._fast_settings()
                self.command(_UPDATE_CONTROL_2, _SEQ_POWER_ON)
                self.command(_MASTER_ACTIVATION)
                self.wait("power on")
                self.powered = True
            self.command(_UPDATE_CONTROL_2, _SEQ_FAST)
            self.command(_MASTER_ACTIVATION)
            self.updating = "fast update"
            self.counts["fast"] += 1
            mode = "fast"
        self.started = self.clock.ticks_ms()
        return mode

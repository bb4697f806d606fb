"""The project's own driver for the UC8151 e-paper controller on SPI, as on
the Pimoroni Badger 2040 / 2040 W (2.9", 296 x 128 b/w).

Facts it relies on (Pimoroni's pimoroni-pico drivers/uc8151/uc8151.{hpp,cpp},
which drives this very panel; the UC8151 command set as GxEPD2's
GxEPD2_290_T5 uses it on the same controller family):

* 4-wire SPI, mode 0, MSB first; DC low = command byte, DC high = data;
  CS low for the whole transfer. Pimoroni clocks it at 12 MHz.
* BUSY is LOW while the controller works (Pimoroni: is_busy() is
  !gpio_get(BUSY), with a pull-up). No command is sent while BUSY is low.
* Reset: RST low 10 ms, high, 10 ms, then wait for BUSY (Pimoroni). Deep
  sleep: POF 0x02 (charge pumps off, wait), then DSLP 0x07 with the check
  code 0xA5; only a hardware reset wakes it, and its RAM is not trusted
  afterwards, so every update writes all the RAM it refreshes.
* Setup after each reset: PSR 0x00 (0x80 128 x 296, 0x10 b/w, 0x02 booster
  on, 0x01 no soft reset; 0x20 = waveform from registers, else OTP; 0x08
  gate scan up, 0x04 source shift right), PWR 0x01 03 00 2B 2B 2B, BTST
  0x06 17 17 17, PFS 0x03 00, TSE 0x41 00 (internal temperature sensor),
  TCON 0x60 22, CDI 0x50 9C (data bit 1 = white), PLL 0x30 3A (100 Hz
  frames: Pimoroni's setup ends on it, whatever the speed).
* Frame: PON 0x04 (wait), DTM2 0x13 with 16 bytes per gate (128 sources,
  8 per byte, MSB first) for gates 0..295, DSP 0x11, DRF 0x12: BUSY stays
  low until the glass is done.
* Speeds (Pimoroni's set_update_speed): 0 = the panel's OTP waveform,
  ~4.5 s; 1-3 load waveforms into LUT_VCOM 0x20 (44 bytes) and LUT_WW,
  LUT_BW, LUT_WB, LUT_BB 0x21-0x24 (42 bytes each): 7 groups of 6 bytes, a
  level byte (4 phases x 2 bits) then 4 frame counts and a repeat count.
  Their "fast" (~0.8 s: 93 frames at 100 Hz) and "turbo" (~0.25 s: 26
  frames) waveforms are the same three groups with different frame counts;
  they drive each pixel to its new colour whatever it showed before (WW =
  BW, WB = BB), so the old-data RAM (DTM1) is never needed. full = OTP;
  fast and partial = their turbo timing, over the whole panel or a window
  (antirez's uc8151_micropython measures 389/227/148 ms update latencies
  for its computed waveforms on this panel: turbo's 0.26 s is among them).
  The greyer whites and ghosts a short waveform leaves are firmware/
  refresh.py's to clean up.
* Kept ready: after a register-waveform update the controller stays
  powered (PON) with the waveform loaded, so the next fast or partial
  update is its RAM write and DRF, with no reset, setup or PON (~60 ms).
  finish() (before the board sleeps) and poll() after READY_MS with no
  update power it off (POF) and put it into deep sleep.
* Partial: PTIN 0x91, PTL 0x90 (HRST, HRED: sources in banks of 8; VRST,
  VRED: 9-bit gates; PT_SCAN), DTM2 with the window's bytes only (gate
  after gate), DRF refreshes only the window; PTOU 0x92 for whole-panel
  writes. Pimoroni's partial_update() gives the window in exactly these
  coordinates with the rotation-0 panel setting used here.

Orientation: Pimoroni's rotation 0 (gates scan down, sources shift right),
so the RAM is their "1BitY" layout: landscape (x, y) is gate x, byte
x * 16 + y // 8, bit 7 - y % 8, 1 = white. Our frames are 296 x 128
landscape MONO_HLSB, bit 1 = black. The renderer draws on a board in
MONO_VLSB (bands of 8 rows, top row in bit 0, 1 = black) itself: canvas(),
a render.Canvas over a buffer of ours, the frame show() takes. From there
the RAM bytes are made CHUNK gates at a time as the writes need them: 16
GS8 column blits (stride 16) put band b at byte b of each gate through a
256-entry palette that reverses and inverts each byte: no per-pixel Python,
and no second frame in the board's heap. What the glass shows is kept as a
CRC of each gate and of each band, enough to find a partial update's box. A
landscape MONO_HLSB frame given instead (tests, other renderers) is first
converted into a staging buffer made on first use (one framebuf blit).

Waits are bounded: a BUSY line that never rises raises PanelTimeout with
what was being waited for, instead of hanging. Updates do not block: show()
starts one and returns; poll() notices the end (the controller stays ready
after a fast update, else goes into deep sleep); the next show() (or
finish()) waits for it if needed.
"""

from array import array
from binascii import crc32

from drivers.panel import Panel

try:
    import framebuf
except ImportError:  # CPython tests
    framebuf = None

try:
    from micropython import const
except ImportError:  # CPython tests
    def const(x):
        return x

WIDTH = 296  # landscape = gates
HEIGHT = 128  # sources
BANDS = HEIGHT // 8  # 16 bytes per gate
FRAME_BYTES = WIDTH * HEIGHT // 8  # 4736
CHUNK = 37  # gates put in RAM order at a time (8 chunks of the 296): 592 bytes
SPAN = 8  # gates one CRC of the glass covers (37 spans): a partial box is whole spans

# Commands (const and private: no module attributes on the board)
_PSR = const(0x00)
_PWR = const(0x01)
_POF = const(0x02)
_PFS = const(0x03)
_PON = const(0x04)
_BTST = const(0x06)
_DSLP = const(0x07)
_DSP = const(0x11)
_DRF = const(0x12)
_DTM2 = const(0x13)
_LUT_VCOM = const(0x20)
_LUT_WW = const(0x21)
_LUT_BW = const(0x22)
_LUT_WB = const(0x23)
_LUT_BB = const(0x24)
_PLL = const(0x30)
_TSE = const(0x41)
_CDI = const(0x50)
_TCON = const(0x60)
_PTL = const(0x90)
_PTIN = const(0x91)
_PTOU = const(0x92)
_LUT_VCOM_BYTES = const(44)
_LUT_PIXEL_BYTES = const(42)

# The waveform from registers: (frame counts of the 4 phases, repeat) per
# group; level bytes per group (2 bits a phase) for VCOM, a pixel going white
# and a pixel going black (Pimoroni's turbo speed: 26 frames at 100 Hz).
LUT_TURBO = (((1, 1, 2, 0), 1), ((2, 2, 0, 0), 2), ((2, 2, 3, 0), 2))
LEVELS_VCOM = b"\x00\x00\x00"
LEVELS_TO_WHITE = b"\x54\x60\xa8"
LEVELS_TO_BLACK = b"\xa8\x60\x54"
# Each byte bit-reversed (a column byte's top row to bit 7) and inverted (1 =
# white): the RAM byte of a canvas byte. A constant, kept in a board's
# flash (256 B of heap when it was made at start-up; tests check it).
REV = (
    b"\xff\x7f\xbf\x3f\xdf\x5f\x9f\x1f\xef\x6f\xaf\x2f\xcf\x4f\x8f\x0f\xf7\x77\xb7\x37\xd7\x57\x97\x17"
    b"\xe7\x67\xa7\x27\xc7\x47\x87\x07\xfb\x7b\xbb\x3b\xdb\x5b\x9b\x1b\xeb\x6b\xab\x2b\xcb\x4b\x8b\x0b"
    b"\xf3\x73\xb3\x33\xd3\x53\x93\x13\xe3\x63\xa3\x23\xc3\x43\x83\x03\xfd\x7d\xbd\x3d\xdd\x5d\x9d\x1d"
    b"\xed\x6d\xad\x2d\xcd\x4d\x8d\x0d\xf5\x75\xb5\x35\xd5\x55\x95\x15\xe5\x65\xa5\x25\xc5\x45\x85\x05"
    b"\xf9\x79\xb9\x39\xd9\x59\x99\x19\xe9\x69\xa9\x29\xc9\x49\x89\x09\xf1\x71\xb1\x31\xd1\x51\x91\x11"
    b"\xe1\x61\xa1\x21\xc1\x41\x81\x01\xfe\x7e\xbe\x3e\xde\x5e\x9e\x1e\xee\x6e\xae\x2e\xce\x4e\x8e\x0e"
    b"\xf6\x76\xb6\x36\xd6\x56\x96\x16\xe6\x66\xa6\x26\xc6\x46\x86\x06\xfa\x7a\xba\x3a\xda\x5a\x9a\x1a"
    b"\xea\x6a\xaa\x2a\xca\x4a\x8a\x0a\xf2\x72\xb2\x32\xd2\x52\x92\x12\xe2\x62\xa2\x22\xc2\x42\x82\x02"
    b"\xfc\x7c\xbc\x3c\xdc\x5c\x9c\x1c\xec\x6c\xac\x2c\xcc\x4c\x8c\x0c\xf4\x74\xb4\x34\xd4\x54\x94\x14"
    b"\xe4\x64\xa4\x24\xc4\x44\x84\x04\xf8\x78\xb8\x38\xd8\x58\x98\x18\xe8\x68\xa8\x28\xc8\x48\x88\x08"
    b"\xf0\x70\xb0\x30\xd0\x50\x90\x10\xe0\x60\xa0\x20\xc0\x40\x80\x00"
)


class UC8151(Panel):
    """The UC8151 (BUSY low while it works) on drivers/panel.py's Panel."""

    NAME = "UC8151"
    BUSY_LEVEL = 0

    # Longest waits, in ms, before PanelTimeout (Pimoroni's update times:
    # OTP 4.5 s, fast 0.8 s, turbo 0.25 s; cold panels are slower).
    TIMEOUT_MS = {"reset": 1000, "power on": 1000, "power off": 1000,
                  "full update": 10000, "fast update": 3000, "partial update": 2000}
    PARTIAL_MAX = 0.5  # a partial update over more of the panel goes fast

    def __init__(self, spi, cs, dc, rst, busy, clock=None, idle=None, chunk=None):
        """``chunk``: CHUNK * BANDS bytes to make the RAM bytes in (a
        board may share them: they are in use only while show() runs)."""
        Panel.__init__(self, spi, cs, dc, rst, busy, clock, idle)
        # The new frame as MONO_VLSB bands (1 = black): the canvas()'s
        # buffer, or the staging buffer of a landscape frame (see _take).
        self.vlsb = None
        self._canvas = None
        self._staging = None  # (buffer, HlsbToVlsb), made for the first landscape frame
        # CHUNK gates of the frame in the panel's RAM layout (1 = white, 16
        # bytes a gate), made by _ram() as the RAM writes need them: the
        # whole RAM image would take 4.7 KB of the board's heap.
        self._chunk = chunk if chunk is not None else bytearray(CHUNK * BANDS)
        self._chunk_mv = memoryview(self._chunk)[:CHUNK * BANDS]
        # What the glass shows, as a CRC-32 of each span of SPAN gates' RAM
        # bytes and of each band's: a partial update's box is the spans and
        # bands whose CRC changed (a copy of the shown frame would take
        # 4.7 KB more; a CRC a gate, 1 KB more than a CRC a span, for a box
        # at most 7 gates wider on each side, which updates as fast).
        self._gate_crc = array("I", range(WIDTH // SPAN))
        self._band_crc = array("I", range(BANDS))
        self._fbs = None
        if framebuf is not None:
            # The chunk as 16 columns of CHUNK and the bands as one column
            # of bytes (made in _take): blitting the second at
            # (b, -(296 b + x)) copies band b's bytes of gates x.. into
            # column b.
            self._fbs = [framebuf.FrameBuffer(self._chunk, BANDS, CHUNK, framebuf.GS8), None,
                         (REV, 256, 1, framebuf.GS8)]  # a palette read from flash
        self._lut = bytearray(_LUT_VCOM_BYTES)
        self._window = bytearray(7)
        self.known = False  # the glass is unknown until a whole-panel update
        self.ready = False  # powered, the turbo waveform loaded (module notes)
        self.ready_at = 0  # since when (ticks_ms)
        self.counts = {"full": 0, "fast": 0, "partial": 0, "skipped": 0}

    # -- low level -----------------------------------------------------------
    def _lost(self):
        Panel._lost(self)
        self.known = False
        self.ready = False

    def command(self, cmd, data=None):
        self._data_start(cmd)
        if data:
            self.spi.write(data)
        self.cs.value(1)

    def init(self, timing=None):
        """Reset and set up; timing: a register waveform (LUT_TURBO), or
        None for the OTP one. Ends with the power on."""
        self.reset()
        self.asleep = False
        # 128 x 296, b/w, booster on, no soft reset, gates down, sources
        # right (Pimoroni's rotation 0); 0x20: the waveform from the
        # registers, not the OTP.
        self.command(_PSR, b"\x97" if timing is None else b"\xb7")
        self.command(_PWR, b"\x03\x00\x2b\x2b\x2b")
        self.command(_BTST, b"\x17\x17\x17")
        self.command(_PFS, b"\x00")
        self.command(_TSE, b"\x00")
        self.command(_TCON, b"\x22")
        self.command(_CDI, b"\x9c")
        self.command(_PLL, b"\x3a")
        if timing is not None:
            self._send_lut(_LUT_VCOM, LEVELS_VCOM, timing, _LUT_VCOM_BYTES)
            self._send_lut(_LUT_WW, LEVELS_TO_WHITE, timing, _LUT_PIXEL_BYTES)
            self._send_lut(_LUT_BW, LEVELS_TO_WHITE, timing, _LUT_PIXEL_BYTES)
            self._send_lut(_LUT_WB, LEVELS_TO_BLACK, timing, _LUT_PIXEL_BYTES)
            self._send_lut(_LUT_BB, LEVELS_TO_BLACK, timing, _LUT_PIXEL_BYTES)
        self.command(_PON)
        self.wait("power on")

    def _send_lut(self, cmd, levels, timing, size):
        lut = self._lut
        for i in range(size):
            lut[i] = 0
        for g in range(len(timing)):
            frames, repeat = timing[g]
            i = g * 6
            lut[i] = levels[g]
            lut[i + 1] = frames[0]
            lut[i + 2] = frames[1]
            lut[i + 3] = frames[2]
            lut[i + 4] = frames[3]
            lut[i + 5] = repeat
        self.command(cmd, memoryview(lut)[:size])

    def _send_box(self, box):
        """Partial mode, the window, and its bytes gate after gate."""
        x0, x1, b0, b1 = box
        w = self._window
        w[0] = b0 * 8  # HRST, HRED: sources (rows)
        w[1] = b1 * 8 + 7
        w[2] = x0 >> 8  # VRST, VRED: gates
        w[3] = x0 & 0xFF
        w[4] = x1 >> 8
        w[5] = x1 & 0xFF
        w[6] = 1  # PT_SCAN, as Pimoroni and GxEPD2 send
        self.command(_PTIN)
        self.command(_PTL, w)
        self._data_start(_DTM2)
        for x in range(x0 - x0 % CHUNK, x1 + 1, CHUNK):
            mv = self._ram(x)
            for i in range(max(x0, x), min(x1 + 1, x + CHUNK)):
                o = (i - x) * BANDS
                self.spi.write(mv[o + b0:o + b1 + 1])
        self.cs.value(1)

    def _send_all(self, scanned):
        """The whole frame into the RAM, gate after gate; its CRCs taken on
        the way unless _scan() has (the frame is read once either way)."""
        self.command(_PTOU)
        self._data_start(_DTM2)
        if scanned:
            for x in range(0, WIDTH, CHUNK):
                self.spi.write(self._ram(x))
        else:
            self._scan(self.spi.write)
        self.cs.value(1)

    def _data_start(self, cmd):
        """A command whose data follows in several writes; CS stays low
        until the caller raises it."""
        self.cs.value(0)
        self.dc.value(0)
        self._one[0] = cmd
        self.spi.write(self._one)
        self.dc.value(1)

    def sleep(self):
        """Power off, then deep sleep; only a hardware reset wakes it."""
        if not self.asleep:
            self.command(_POF)
            self.wait("power off")
            self.command(_DSLP, b"\xa5")  # the check code
            self.asleep = True

    # -- frames --------------------------------------------------------------
    def canvas(self):
        """A drawing target in the panel's column-byte layout (a render.Canvas
        over a MONO_VLSB buffer, ink 1) for the renderer, made once; None
        where there is no framebuf. show() takes it instead of a frame."""
        if self._canvas is None and framebuf is not None:
            from render import Canvas

            self._canvas = Canvas(bytearray(FRAME_BYTES), framebuf.MONO_VLSB)
        return self._canvas

    def _take(self, frame):
        """The frame's MONO_VLSB bands as self.vlsb: the canvas()'s own
        buffer, or our landscape MONO_HLSB frame (1 = black) converted into
        the staging buffer."""
        if frame is not None and frame is self._canvas:
            vlsb = frame.buf
        else:
            if len(frame) != FRAME_BYTES:
                raise ValueError("a frame is %d bytes, not %d" % (FRAME_BYTES, len(frame)))
            if self._staging is None:
                buf = bytearray(FRAME_BYTES)
                # imported here: a board draws on canvas() and never loads
                # it (0.6 KB of a Badger's heap)
                from drivers.vlsb import HlsbToVlsb

                self._staging = (buf, HlsbToVlsb(buf, WIDTH, HEIGHT))
            self._staging[1].convert(frame)
            vlsb = self._staging[0]
        if vlsb is not self.vlsb:
            self.vlsb = vlsb
            if self._fbs is not None:
                self._fbs[1] = framebuf.FrameBuffer(vlsb, 1, FRAME_BYTES, framebuf.GS8)

    def _ram(self, x):
        """Gates x .. x + CHUNK - 1 of self.vlsb in the panel's RAM layout,
        in self._chunk (a view of it returned): band b to byte b of each
        gate, each byte reversed (top row to bit 7) and inverted (1 =
        white)."""
        if self._fbs is not None:
            ram, bands, pal = self._fbs
            for b in range(BANDS):
                ram.blit(bands, b, -(b * WIDTH + x), -1, pal)
            return self._chunk_mv
        v, out, t = self.vlsb, self._chunk, REV
        for i in range(CHUNK):
            for b in range(BANDS):
                out[i * BANDS + b] = t[v[b * WIDTH + x + i]]
        return self._chunk_mv

    def _scan(self, write=None):
        """Take the frame's CRCs as what the glass will show; (x0, x1, b0,
        b1): the gates (whole spans) and 8-row bands whose CRC changed, or
        None. Read against the glass only when it is known. ``write``:
        given each chunk of RAM bytes as it is made."""
        x0 = x1 = -1
        crcs = self._gate_crc
        c = 0
        for x in range(0, WIDTH, CHUNK):
            mv = self._ram(x)
            if write is not None:
                write(mv)
            for i in range(CHUNK):
                c = crc32(mv[i * BANDS:(i + 1) * BANDS], c)  # a span runs on across chunks
                g = x + i
                if g % SPAN == SPAN - 1:
                    c &= 0x3FFFFFFF  # a small int: no heap
                    if c != crcs[g // SPAN]:
                        crcs[g // SPAN] = c
                        if x0 < 0:
                            x0 = g - SPAN + 1
                        x1 = g
                    c = 0
        b0 = b1 = -1
        crcs = self._band_crc
        v = memoryview(self.vlsb)
        for b in range(BANDS):
            c = crc32(v[b * WIDTH:(b + 1) * WIDTH]) & 0x3FFFFFFF
            if c != crcs[b]:
                crcs[b] = c
                if b0 < 0:
                    b0 = b
                b1 = b
        if x0 < 0 and b0 < 0:
            return None
        if x0 < 0 or b0 < 0:  # a change one CRC missed (1 in 2**30): all of it
            return 0, WIDTH - 1, 0, BANDS - 1
        return x0, x1, b0, b1

    # -- updates -------------------------------------------------------------
    def poll(self):
        """True when no update is running: an update that has ended leaves
        the panel ready (a register waveform) or puts it into deep sleep; a
        panel ready READY_MS with no update sleeps. Never waits (beyond
        power-off's BUSY)."""
        if self.updating is None:
            if self.ready and self.clock.ticks_diff(self.clock.ticks_ms(), self.ready_at) >= self.READY_MS:
                self.ready = False
                self.sleep()
            return True
        if self.busy():
            return False
        self._finished()
        return True

    def finish(self):
        """Wait (bounded) for a running update, then deep sleep (the board
        is about to sleep)."""
        self._end_update()
        if self.ready:
            self.ready = False
            self.sleep()

    def _end_update(self):
        if self.updating is not None:
            spent = self.clock.ticks_diff(self.clock.ticks_ms(), self.started)
            self.wait(self.updating, max(0, self.TIMEOUT_MS[self.updating] - spent))
            self._finished()

    def _finished(self):
        self.ready = self.updating != "full update"  # powered, the turbo waveform loaded
        self.ready_at = self.clock.ticks_ms()
        self.updating = None
        if not self.ready:
            self.sleep()

    def show(self, frame, mode):
        """Start a "full", "fast" or "partial" update; returns the one done:
        a partial becomes "fast" when the glass is unknown or more than
        PARTIAL_MAX of the panel changed, and "skipped" when nothing did."""
        if mode not in ("full", "fast", "partial"):
            raise ValueError("update mode must be full, fast or partial, not %r" % (mode,))
        self._take(frame)
        self._end_update()
        known, self.known = self.known, False  # until this frame is on its way to the glass
        scanned = mode == "partial"
        if scanned:  # the box first: it picks the mode
            box = self._scan()
            if known and box is None:
                self.known = True
                self.counts["skipped"] += 1
                return "skipped"
            if not known or (box[1] - box[0] + 1) * (box[3] - box[2] + 1) > self.PARTIAL_MAX * WIDTH * BANDS:
                mode = "fast"
        if mode == "full" or not self.ready:
            self.init(None if mode == "full" else LUT_TURBO)
        self.ready = False
        if mode == "partial":
            self._send_box(box)
        else:
            self._send_all(scanned)
        self.command(_DSP)
        self.command(_DRF)
        self.updating = mode + " update"
        self.started = self.clock.ticks_ms()
        self.known = True
        self.counts[mode] += 1
        return mode

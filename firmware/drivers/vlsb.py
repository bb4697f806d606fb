"""Our landscape frame into a panel's column-byte (MONO_VLSB) RAM layout.

Both e-ink controllers here (the Badger's UC8151 through PicoGraphics, and
the SSD1680) want 8 vertical pixels per byte, while the renderer draws
MONO_HLSB rows. On a board it is one framebuf blit; the pure-Python path is
for CPython tests (and gives the same bytes). That blit goes pixel by pixel
(~58 ms on a Pico): a board that lets the renderer draw in MONO_VLSB
(render.Canvas) needs no conversion; the SSD1680 only has the bits
flipped (invert(), or drivers/invert.py in native code where the board
has it).
"""

try:
    import framebuf
except ImportError:  # CPython
    framebuf = None


class HlsbToVlsb:
    """Converts into ``out`` (width * height // 8 bytes), ink 1 as in our
    frame (the Badger's staging buffer, the SSD1680's before its bits are
    flipped: invert())."""

    def __init__(self, out, width, height):
        self.out = out
        self.width = width
        self.height = height
        self._src = None
        self._src_fb = None
        if framebuf is not None:
            self._dst = framebuf.FrameBuffer(out, width, height, framebuf.MONO_VLSB)

    def convert(self, frame):
        if framebuf is not None:
            if frame is not self._src:
                self._src = frame
                self._src_fb = framebuf.FrameBuffer(frame, self.width, self.height, framebuf.MONO_HLSB)
            self._dst.blit(self._src_fb, 0, 0)
            return
        out, w = self.out, self.width
        for i in range(len(out)):
            out[i] = 0
        row_bytes = w // 8
        for y in range(self.height):
            band = (y >> 3) * w
            bit = 1 << (y & 7)
            row = y * row_bytes
            for xb in range(row_bytes):
                b = frame[row + xb]
                if b:
                    x = band + (xb << 3)
                    for k in range(8):
                        if b & (0x80 >> k):
                            out[x + k] |= bit


_FLIP = None  # framebuf's palette v -> 255 - v, made on first use (never on a board with native code)


def invert(buf):
    """Every bit of buf flipped, in place (ink 1 -> the SSD1680's 0): what
    drivers/invert.invert does in native code, here by one framebuf blit of
    the bytes seen as 8-bit pixels through a palette, so the loop runs in C
    (~6.7 ms a frame on a Pico); a plain loop on CPython."""
    global _FLIP
    if framebuf is None:
        for i in range(len(buf)):
            buf[i] ^= 0xFF
        return
    if _FLIP is None:
        _FLIP = framebuf.FrameBuffer(bytearray(range(255, -1, -1)), 256, 1, framebuf.GS8)
    fb = framebuf.FrameBuffer(buf, len(buf), 1, framebuf.GS8)
    fb.blit(fb, 0, 0, -1, _FLIP)  # each pixel read, then written, in place

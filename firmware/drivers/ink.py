"""Ink on a frame in the panels' own layout (MONO_VLSB, 296 x 128: 16 bands
of 296 column bytes, bit 0 the band's top row), in native code (viper).

framebuf draws a blit pixel by pixel through function pointers, ~0.75 us a
pixel on a Pico, and a scaled glyph costs a Python call per run of ink: the
flip screen took ~39 ms to draw. Here ink goes a column byte at a time:
text in the project's font (font8.py) and glyphs.py bitmaps, at any scale,
with the pixels framebuf would draw (a key-0 blit: paper is left as it is;
colour 0 clears ink; clipped at the edges). render.Canvas uses this module
for a MONO_VLSB canvas where the runtime compiles viper (MicroPython on the
rp2 and unix ports; host_tools/screens_mp.py --vlsb and --ink compare every
screen and random drawings with framebuf's pixels). Not on the MagTag:
CircuitPython draws on its own surface and has no viper.

The .mpy of this module holds machine code (mpy-cross -march=armv6m on the
RP2040 boards), which a board copies into its heap even from ROMFS: the
module keeps 3.6 KB there (measured on the emulated Pico), the price of
drawing a flip screen in ~1/10 of framebuf's time. (The SSD1680's bit flip
is in drivers/invert.py: a Badger never pays for it.)
"""

import framebuf
import micropython
from micropython import const

_W = const(296)
_H = const(128)

# font8.FONT as columns: glyph k's column x is byte 8 * k + x, bit r the
# glyph's row r (tests/host/test_screens.py checks it against font8.FONT;
# host_tools.screens.font_columns() makes it). Bytes: a board keeps them
# in flash.
COLUMNS = (
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x5f\x00\x00\x00\x00\x00\x00\x07\x00\x07\x00\x00\x00"
    b"\x00\x14\x7f\x14\x7f\x14\x00\x00\x00\x24\x2a\x7f\x2a\x12\x00\x00\x00\x23\x13\x08\x64\x62\x00\x00"
    b"\x00\x36\x49\x55\x22\x50\x00\x00\x00\x00\x04\x03\x00\x00\x00\x00\x00\x00\x1c\x22\x41\x00\x00\x00"
    b"\x00\x00\x41\x22\x1c\x00\x00\x00\x00\x14\x08\x3e\x08\x14\x00\x00\x00\x08\x08\x3e\x08\x08\x00\x00"
    b"\x00\x00\xa0\x60\x00\x00\x00\x00\x00\x08\x08\x08\x08\x08\x00\x00\x00\x00\x60\x60\x00\x00\x00\x00"
    b"\x00\x20\x10\x08\x04\x02\x00\x00\x00\x3e\x51\x49\x45\x3e\x00\x00\x00\x00\x42\x7f\x40\x00\x00\x00"
    b"\x00\x42\x61\x51\x49\x46\x00\x00\x00\x21\x41\x45\x4b\x31\x00\x00\x00\x18\x14\x12\x7f\x10\x00\x00"
    b"\x00\x27\x45\x45\x45\x39\x00\x00\x00\x3c\x4a\x49\x49\x30\x00\x00\x00\x01\x71\x09\x05\x03\x00\x00"
    b"\x00\x36\x49\x49\x49\x36\x00\x00\x00\x06\x49\x49\x29\x1e\x00\x00\x00\x00\x36\x36\x00\x00\x00\x00"
    b"\x00\x00\x56\x36\x00\x00\x00\x00\x00\x08\x14\x22\x41\x00\x00\x00\x00\x14\x14\x14\x14\x14\x00\x00"
    b"\x00\x00\x41\x22\x14\x08\x00\x00\x00\x02\x01\x51\x09\x06\x00\x00\x00\x3e\x41\x5d\x55\x5e\x00\x00"
    b"\x00\x7e\x09\x09\x09\x7e\x00\x00\x00\x7f\x49\x49\x49\x36\x00\x00\x00\x3e\x41\x41\x41\x22\x00\x00"
    b"\x00\x7f\x41\x41\x22\x1c\x00\x00\x00\x7f\x49\x49\x49\x41\x00\x00\x00\x7f\x09\x09\x09\x01\x00\x00"
    b"\x00\x3e\x41\x49\x49\x7a\x00\x00\x00\x7f\x08\x08\x08\x7f\x00\x00\x00\x00\x41\x7f\x41\x00\x00\x00"
    b"\x00\x20\x40\x41\x3f\x01\x00\x00\x00\x7f\x08\x14\x22\x41\x00\x00\x00\x7f\x40\x40\x40\x40\x00\x00"
    b"\x00\x7f\x02\x0c\x02\x7f\x00\x00\x00\x7f\x04\x08\x10\x7f\x00\x00\x00\x3e\x41\x41\x41\x3e\x00\x00"
    b"\x00\x7f\x09\x09\x09\x06\x00\x00\x00\x3e\x41\x51\x21\x5e\x00\x00\x00\x7f\x09\x19\x29\x46\x00\x00"
    b"\x00\x46\x49\x49\x49\x31\x00\x00\x00\x01\x01\x7f\x01\x01\x00\x00\x00\x3f\x40\x40\x40\x3f\x00\x00"
    b"\x00\x1f\x20\x40\x20\x1f\x00\x00\x00\x3f\x40\x38\x40\x3f\x00\x00\x00\x63\x14\x08\x14\x63\x00\x00"
    b"\x00\x03\x04\x78\x04\x03\x00\x00\x00\x61\x51\x49\x45\x43\x00\x00\x00\x00\x7f\x41\x41\x00\x00\x00"
    b"\x00\x02\x04\x08\x10\x20\x00\x00\x00\x00\x41\x41\x7f\x00\x00\x00\x00\x04\x02\x01\x02\x04\x00\x00"
    b"\x00\x80\x80\x80\x80\x80\x00\x00\x00\x00\x01\x02\x04\x00\x00\x00\x00\x20\x54\x54\x54\x78\x00\x00"
    b"\x00\x7f\x44\x44\x44\x38\x00\x00\x00\x38\x44\x44\x44\x20\x00\x00\x00\x38\x44\x44\x44\x7f\x00\x00"
    b"\x00\x38\x54\x54\x54\x18\x00\x00\x00\x08\x7e\x09\x01\x02\x00\x00\x00\x18\xa4\xa4\xa4\x7c\x00\x00"
    b"\x00\x7f\x08\x04\x04\x78\x00\x00\x00\x00\x44\x7d\x40\x00\x00\x00\x00\x40\x80\x84\x7d\x00\x00\x00"
    b"\x00\x7f\x10\x28\x44\x00\x00\x00\x00\x00\x41\x7f\x40\x00\x00\x00\x00\x7c\x04\x78\x04\x78\x00\x00"
    b"\x00\x7c\x08\x04\x04\x78\x00\x00\x00\x38\x44\x44\x44\x38\x00\x00\x00\xfc\x24\x24\x24\x18\x00\x00"
    b"\x00\x18\x24\x24\x24\xfc\x00\x00\x00\x7c\x08\x04\x04\x08\x00\x00\x00\x48\x54\x54\x54\x24\x00\x00"
    b"\x00\x04\x3f\x44\x40\x20\x00\x00\x00\x3c\x40\x40\x20\x7c\x00\x00\x00\x1c\x20\x40\x20\x1c\x00\x00"
    b"\x00\x3c\x40\x30\x40\x3c\x00\x00\x00\x44\x28\x10\x28\x44\x00\x00\x00\x1c\xa0\xa0\xa0\x7c\x00\x00"
    b"\x00\x44\x64\x54\x4c\x44\x00\x00\x00\x00\x08\x36\x41\x41\x00\x00\x00\x00\x00\x7f\x00\x00\x00\x00"
    b"\x00\x41\x41\x36\x08\x00\x00\x00\x00\x08\x04\x08\x10\x08\x00\x00\x00\x7f\x41\x41\x41\x7f\x00\x00"
)


@micropython.viper
def blit(frame, img, w: int, bands: int, x: int, y: int, c: int, scale: int):
    """The ink of ``img`` (a MONO_VLSB image w wide and 8 * bands tall)
    onto ``frame`` at (x, y), each pixel a scale x scale block, in colour c
    (1 sets, 0 clears); paper left as it is, clipped to the frame."""
    f = ptr8(frame)
    p = ptr8(img)
    i0 = 0  # the image columns that land on the frame: i0 .. i1 - 1
    while i0 < w and x + (i0 + 1) * scale <= 0:
        i0 += 1
    i1 = w
    while i1 > i0 and x + (i1 - 1) * scale >= _W:
        i1 -= 1
    ones = (1 << scale) - 1  # the rows one pixel covers
    q = 8  # pixels of a column byte spread at a time: 8 rows up to scale 3
    while q * scale > 24:  # (q * scale rows, shifted by up to 7, fit a word)
        q -= 1
    b = 0
    while b < bands:
        i = i0
        if scale == 1:  # each column byte lands on one or two frame bytes
            top = y + (b << 3)
            at = (top >> 3) * _W + x  # the frame byte under column i: at + i
            lo = 0 <= top < _H
            hi = (top & 7) and -8 <= top < _H - 8
            src = b * w
            k = int(f) + at + i  # the addresses of the first byte each side
            e = int(p) + src + i
            if c and lo and not ((top & 7) | ((k | e) & 3)):
                # a band onto a band, both sides on word boundaries (a card
                # face: 80 wide, x a multiple of 4, its bytes aligned in
                # ROMFS by host_tools/rp2040.py): OR a word at a time, 4x
                # quicker (a face took ~0.7 ms a byte at a time)
                u = k + ((i1 - i) & -4)
                i = i1 - ((i1 - i) & 3)
                while k < u:
                    ptr32(k)[0] = ptr32(k)[0] | ptr32(e)[0]
                    k += 4
                    e += 4
            while i < i1:
                v = p[src + i] << (top & 7)
                if not v:
                    pass
                elif c:
                    if lo:
                        f[at + i] = f[at + i] | (v & 0xFF)
                    if hi:
                        f[at + _W + i] = f[at + _W + i] | (v >> 8)
                else:
                    if lo:
                        f[at + i] = f[at + i] & (0xFF ^ (v & 0xFF))
                    if hi:
                        f[at + _W + i] = f[at + _W + i] & (0xFF ^ (v >> 8))
                i += 1
        while i < i1:
            v = p[b * w + i]
            left = x + i * scale
            xs = left if left > 0 else 0
            xe = left + scale if left + scale < _W else _W
            r = b << 3  # the image row of v's bit 0
            while v:
                e = v & ((1 << q) - 1)
                if e and scale > 1:  # q pixels -> q * scale rows
                    u = e
                    e = 0
                    k = 0
                    while u:
                        if u & 1:
                            e |= ones << k
                        u >>= 1
                        k += scale
                row = y + r * scale
                if row < 0:
                    e = e >> (0 - row) if row > -32 else 0
                    row = 0
                e = e << (row & 7)
                at = (row >> 3) * _W
                while e and at < _W * _H // 8:
                    m = e & 0xFF
                    if m:
                        xx = at + xs
                        while xx < at + xe:
                            if c:
                                f[xx] = f[xx] | m
                            else:
                                f[xx] = f[xx] & (0xFF ^ m)
                            xx += 1
                    e = e >> 8
                    at += _W
                v = v >> q
                r += q
            i += 1
        b += 1


@micropython.viper
def text(frame, s, x: int, y: int, c: int, scale: int):
    """The str s in the project's font at (x, y), 8 * scale pixels a
    character; a character outside printable ASCII is the font's box."""
    n = int(len(s))
    strip = bytearray(n << 3)
    o = ptr8(strip)
    t = ptr8(s)  # UTF-8
    g = ptr8(COLUMNS)
    i = 0  # byte of s
    j = 0  # column of the strip
    while j < (n << 3):
        k = t[i] - 0x20
        i += 1
        if k >= 0xA0:  # 0xC0.. leads a 2-4 byte sequence: skip the rest
            i += 1 if k < 0xC0 else (2 if k < 0xD0 else 3)
        if k < 0 or k > 94:
            k = 95
        k <<= 3
        end = j + 8
        while j < end:
            o[j] = g[k]
            j += 1
            k += 1
    blit(frame, strip, n << 3, 1, x, y, c, scale)


# glyphs.py bitmap -> its column bytes, made on first use: a screen draws
# a dozen or so (suits, result marks, the corner labels), each 13-40 bytes.
_COLUMNS_OF = {}
_KEEP = const(24)


def bitmap(frame, bm, x, y, c=1, scale=1):
    """A glyphs.py bitmap (w, h, rows: (w + 7) // 8 bytes a row, most
    significant bit leftmost) at (x, y). Turned into column bytes once
    (one framebuf blit: plain Python here, so no machine code in the heap)."""
    w, h = bm[0], bm[1]
    bands = (h + 7) >> 3
    img = _COLUMNS_OF.get(bm)
    if img is None:
        img = bytearray(w * bands)
        framebuf.FrameBuffer(img, w, bands << 3, framebuf.MONO_VLSB).blit((bm[2], w, h, framebuf.MONO_HLSB), 0, 0)
        if len(_COLUMNS_OF) >= _KEEP:  # a bound on the heap: those in use come back
            _COLUMNS_OF.clear()
        _COLUMNS_OF[bm] = img
    blit(frame, img, w, bands, x, y, c, scale)


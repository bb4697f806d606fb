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

from font8 import FONT

_W = const(296)
_H = const(128)


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
    character; a character outside printable ASCII is the font's box.
    font8.FONT's rows (most significant bit leftmost) are turned into the
    line's column bytes (bit r = row r) here: a table of the font as
    columns took 0.8 KB of the stock image's heap beside FONT."""
    n = int(len(s))
    strip = bytearray(n << 3)
    o = ptr8(strip)
    t = ptr8(s)  # UTF-8
    g = ptr8(FONT)
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
        r = 0
        while r < 8:
            v = g[k + r]
            col = j + 7  # bit 0: the glyph's last column
            while v:
                if v & 1:
                    o[col] = o[col] | (1 << r)
                v = v >> 1
                col -= 1
            r += 1
        j += 8
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


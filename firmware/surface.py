"""A drawing surface for CircuitPython, which has no ``framebuf``: exactly
the part of MicroPython's ``framebuf.FrameBuffer`` that render.py and
glyphs.py use, drawn into a 2-colour ``displayio.Bitmap``.

    bitmap = displayio.Bitmap(296, 128, 2)   # value 1 = black ink, 0 = paper
    s = Surface(bitmap)
    Renderer(fb=s).render(view)              # the screen lands in the bitmap

Every primitive follows framebuf's own algorithm (clipping included), so a
screen drawn here is pixel for pixel the one MicroPython draws:
fill, pixel, hline, vline, rect, fill_rect, line (framebuf's Bresenham),
ellipse (framebuf's midpoint ellipse with its quadrant mask), blit (1-bit
MONO_HLSB sources given as framebuf's ``(buffer, w, h, format)`` tuple, with
key and palette) and text (font8.py, as on MicroPython).
tests/host/test_magtag.py draws the same primitives on both and compares.

Fills go through ``bitmaptools.fill_region`` (native on CircuitPython) when
the runtime has it; everything else is plain Python. ``to_bytes()`` exports
the picture as the MONO_HLSB buffer framebuf would hold (for the host's
"screen" request and the tests); ``load_bytes()`` does the reverse.
"""

try:
    import bitmaptools
except ImportError:  # CPython without Blinka, or a build without it
    bitmaptools = None

import font8 as F

MONO_HLSB = 3

# ellipse quadrant mask bits, as framebuf has them
_Q1, _Q2, _Q3, _Q4, _FILL = 1, 2, 4, 8, 16


class Surface:
    """``bitmap``: anything indexed as ``bitmap[x, y]`` with ``width`` and
    ``height`` (a displayio.Bitmap with 2 values)."""

    def __init__(self, bitmap, max_runs=256):
        self.bitmap = bitmap
        # glyph blits' runs kept, at most this many sources: ~0.6 KB each, so
        # 256 of them (the MagTag's PSRAM) would fill a Pico's whole heap
        self.max_runs = max_runs
        self.width = bitmap.width
        self.height = bitmap.height
        self._fill_region = getattr(bitmaptools, "fill_region", None)  # None without bitmaptools
        self._runs = {}  # blit runs per (source, key, palette colours)
        # text: each glyph copied from an atlas of the font by bitmaptools.blit (native)
        self._glyph_blit = getattr(bitmaptools, "blit", None)
        self._atlases = [None, None]  # the font's glyphs in paper (0), in ink (1): made on first use

    # ------------------------------------------------------------ pixels

    def fill(self, c):
        self.bitmap.fill(c)

    def pixel(self, x, y, c=None):
        if 0 <= x < self.width and 0 <= y < self.height:
            if c is None:
                return self.bitmap[x, y]
            self.bitmap[x, y] = c
        return None

    def fill_rect(self, x, y, w, h, c):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self.height or x >= self.width:
            return
        xend = x + w
        if xend > self.width:
            xend = self.width
        yend = y + h
        if yend > self.height:
            yend = self.height
        if x < 0:
            x = 0
        if y < 0:
            y = 0
        bm = self.bitmap
        if xend - x == 1 and yend - y == 1:
            bm[x, y] = c
        elif self._fill_region is not None:
            self._fill_region(bm, x, y, xend, yend, c)
        else:
            for yy in range(y, yend):
                for xx in range(x, xend):
                    bm[xx, yy] = c

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.fill_rect(x, y, w, 1, c)
        self.fill_rect(x, y + h - 1, w, 1, c)
        self.fill_rect(x, y, 1, h, c)
        self.fill_rect(x + w - 1, y, 1, h, c)

    # ------------------------------------------------------------ shapes

    def line(self, x1, y1, x2, y2, c):
        """framebuf's line: Bresenham along the major axis, both ends drawn."""
        bm = self.bitmap
        width = self.width
        height = self.height
        dx = x2 - x1
        if dx > 0:
            sx = 1
        else:
            dx = -dx
            sx = -1
        dy = y2 - y1
        if dy > 0:
            sy = 1
        else:
            dy = -dy
            sy = -1
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                if 0 <= y1 < width and 0 <= x1 < height:
                    bm[y1, x1] = c
            elif 0 <= x1 < width and 0 <= y1 < height:
                bm[x1, y1] = c
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < width and 0 <= y2 < height:
            bm[x2, y2] = c

    def _ellipse_points(self, cx, cy, x, y, c, mask):
        if mask & _FILL:
            if mask & _Q1:
                self.fill_rect(cx, cy - y, x + 1, 1, c)
            if mask & _Q2:
                self.fill_rect(cx - x, cy - y, x + 1, 1, c)
            if mask & _Q3:
                self.fill_rect(cx - x, cy + y, x + 1, 1, c)
            if mask & _Q4:
                self.fill_rect(cx, cy + y, x + 1, 1, c)
        else:
            if mask & _Q1:
                self.pixel(cx + x, cy - y, c)
            if mask & _Q2:
                self.pixel(cx - x, cy - y, c)
            if mask & _Q3:
                self.pixel(cx - x, cy + y, c)
            if mask & _Q4:
                self.pixel(cx + x, cy + y, c)

    def ellipse(self, cx, cy, xr, yr, c, f=False, m=15):
        """framebuf's ellipse: the midpoint algorithm in two arcs; f fills,
        m masks quadrants (1 top right, 2 top left, 4 bottom left, 8 bottom
        right)."""
        mask = _FILL if f else 0
        mask |= m & 15
        if xr == 0 and yr == 0:
            if mask & 15:
                self.pixel(cx, cy, c)
            return
        two_asquare = 2 * xr * xr
        two_bsquare = 2 * yr * yr
        x = xr
        y = 0
        xchange = yr * yr * (1 - 2 * xr)
        ychange = xr * xr
        err = 0
        stoppingx = two_bsquare * xr
        stoppingy = 0
        while stoppingx >= stoppingy:  # first arc: y steps by one
            self._ellipse_points(cx, cy, x, y, c, mask)
            y += 1
            stoppingy += two_asquare
            err += ychange
            ychange += two_asquare
            if 2 * err + xchange > 0:
                x -= 1
                stoppingx -= two_bsquare
                err += xchange
                xchange += two_bsquare
        x = 0
        y = yr
        xchange = yr * yr
        ychange = xr * xr * (1 - 2 * yr)
        err = 0
        stoppingx = 0
        stoppingy = two_asquare * yr
        while stoppingx <= stoppingy:  # second arc: x steps by one
            self._ellipse_points(cx, cy, x, y, c, mask)
            x += 1
            stoppingx += two_bsquare
            err += xchange
            xchange += two_bsquare
            if 2 * err + ychange > 0:
                y -= 1
                stoppingy -= two_asquare
                err += ychange
                ychange += two_asquare

    # ------------------------------------------------------------ images

    def blit(self, src, x, y, key=-1, palette=None):
        """Copy a 1-bit MONO_HLSB image ``(buffer, w, h, format[, stride])``
        at (x, y). As in framebuf, a source pixel goes through the palette
        (pixel i of a ``(buffer, 2, 1, format)`` palette) and is drawn
        unless the result equals key."""
        if src[3] != MONO_HLSB:
            raise ValueError("Surface.blit draws MONO_HLSB sources only")
        if palette is not None:
            p = palette[0][0]
            out0, out1 = (p >> 7) & 1, (p >> 6) & 1
        else:
            out0, out1 = 0, 1
        draw0 = out0 if out0 != key else -1
        draw1 = out1 if out1 != key else -1
        runs = self._source_runs(src, draw0, draw1)
        fill_rect = self.fill_rect
        for r in runs:
            fill_rect(x + r[1], y + r[0], r[2], 1, r[3])

    def _source_runs(self, src, draw0, draw1):
        """(row, x, length, colour) runs of the pixels a blit draws; cached
        for immutable sources (font glyphs)."""
        buf, w, h = src[0], src[1], src[2]
        cache = isinstance(buf, bytes)
        if cache:
            ck = (buf, w, h, draw0, draw1)
            runs = self._runs.get(ck)
            if runs is not None:
                return runs
        stride = src[4] if len(src) > 4 else w
        bpr = (stride + 7) >> 3
        runs = []
        for r in range(h):
            o = r * bpr
            start = -1
            colour = -1
            for col in range(w + 1):
                if col < w:
                    bit = (buf[o + (col >> 3)] >> (7 - (col & 7))) & 1
                    cc = draw1 if bit else draw0
                else:
                    cc = -1
                if cc != colour:
                    if colour >= 0:
                        runs.append((r, start, col - start, colour))
                    start = col
                    colour = cc
        runs = tuple(runs)
        if cache and self.max_runs:
            if len(self._runs) >= self.max_runs:
                self._runs = {}
            self._runs[ck] = runs
        return runs

    def text(self, s, x, y, c=1):
        """Text in the project's font (font8.py), with framebuf's pixels
        (its blit with key, clipped at each edge). Where the runtime has
        bitmaptools.blit, each glyph is copied in native code from an atlas
        of the font (_atlas); a glyph cut by the left or top edge, which that
        blit refuses, and every glyph without it, go through font8.text and
        Surface.blit, in Python: 8 rows of runs found and drawn a glyph,
        most of a CircuitPython frame's drawing time."""
        blit = self._glyph_blit
        if blit is None:
            F.text(self, s, x, y, c)
            return
        c = 1 if c else 0
        if y >= self.height or y <= -8:
            return
        atlas = self._atlas(c)
        bm = self.bitmap
        width = self.width
        for ch in s:
            if ch != " " and -8 < x < width:
                if x < 0 or y < 0:
                    F.text(self, ch, x, y, c)
                else:
                    k = F.index(ch) << 3
                    blit(bm, atlas, x, y, x1=k, y1=0, x2=k + 8, y2=8, skip_source_index=1 - c)
            x += F.ADVANCE

    def _atlas(self, c):
        """The font's 96 glyphs side by side in a bitmap of the surface's
        kind (768 x 8 pixels, 768 bytes): ink in colour c, the rest in the
        other colour, which the blit skips."""
        atlas = self._atlases[c]
        if atlas is None:
            atlas = type(self.bitmap)(8 * (F.COUNT + 1), 8, 2)
            if not c:
                atlas.fill(1)
            font = F.FONT
            for i in range(len(font)):
                bits = font[i]
                x = (i >> 3) << 3
                while bits:
                    if bits & 0x80:
                        atlas[x, i & 7] = c
                    bits = (bits << 1) & 0xFF
                    x += 1
            self._atlases[c] = atlas
        return atlas

    # ------------------------------------------------------------ export

    def to_bytes(self, start=0, end=None):
        """The picture as a MONO_HLSB buffer (bit 1 = ink), the layout of the
        MicroPython renderer's frame buffer; or its bytes start:end alone
        (the host's screen request asks in parts: the whole buffer is 4,736
        bytes in one piece of a small heap)."""
        w, h = self.width, self.height
        stride = (w + 7) >> 3
        size = stride * h
        end = size if end is None or end > size else end
        out = bytearray(max(0, end - start))
        bm = self.bitmap
        for y in range(start // stride, (end + stride - 1) // stride):
            o = y * stride - start  # row y's first byte in out (below 0: before the slice)
            for x in range(max(0, -o * 8), min(w, (end - start - o) * 8)):
                if bm[x, y]:
                    out[o + (x >> 3)] |= 0x80 >> (x & 7)
        return out

    def load_bytes(self, buf):
        """Draw a MONO_HLSB buffer (bit 1 = ink) into the bitmap, row runs at
        a time."""
        w, h = self.width, self.height
        stride = (w + 7) >> 3
        if len(buf) < stride * h:
            raise ValueError("a %dx%d frame needs %d bytes, got %d" % (w, h, stride * h, len(buf)))
        self.fill(0)
        for y in range(h):
            o = y * stride
            start = -1
            for x in range(w + 1):
                ink = x < w and (buf[o + (x >> 3)] >> (7 - (x & 7))) & 1
                if ink and start < 0:
                    start = x
                elif not ink and start >= 0:
                    self.fill_rect(start, y, x - start, 1, 1)
                    start = -1

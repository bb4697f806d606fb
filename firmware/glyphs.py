"""The project's own small bitmaps and drawing routines for the 1-bit panel.

All art here is drawn for this project (no copied card art). A bitmap is a
tuple ``(width, height, rows)``: ``rows`` holds each row left to right, most
significant bit first, ``(width + 7) // 8`` bytes per row, bit 1 = ink. The
ASCII art above each bitmap is its source: ``#`` = ink. Keep the two in step
(tests/host/test_screens.py checks that they agree); to change a glyph, edit
the art and regenerate the bytes with ``host_tools.screens.pack_art``.

Drawing routines take a FrameBuffer-like ``fb`` (MicroPython ``framebuf``:
pixel, hline, vline, line, rect, fill_rect, text, optional ellipse) and a
colour ``c`` (1 = black ink, 0 = white paper; see layout.py). This module
imports nothing, so CPython can read its data too (tests compare the suit
bitmaps there).
"""

# --------------------------------------------------------------------------
# Bitmaps (generated from the art in the comments)

# anvil
#   .............
#   .............
#   #############
#   .############
#   ...#########.
#   ......######.
#   ......#####..
#   .....######..
#   ....########.
#   ...##########
#   ...##########
#   .............
#   .............
ANVIL = (13, 13, b"\x00\x00\x00\x00\xff\xf8\x7f\xf8\x1f\xf0\x03\xf0\x03\xe0\x07\xe0\x0f\xf0\x1f\xf8\x1f\xf8\x00\x00\x00\x00")

# blade
#   ......#......
#   .....###.....
#   .....###.....
#   .....###.....
#   .....###.....
#   .....###.....
#   .....###.....
#   .....###.....
#   ..#########..
#   ..#########..
#   ......#......
#   ......#......
#   .....###.....
BLADE = (13, 13, b"\x02\x00\x07\x00\x07\x00\x07\x00\x07\x00\x07\x00\x07\x00\x07\x00\x3f\xe0\x3f\xe0\x02\x00\x02\x00\x07\x00")

# crown
#   .............
#   ......#......
#   #....###....#
#   ##...###...##
#   ###.#####.###
#   #############
#   #############
#   #############
#   #############
#   .............
#   #############
#   #############
#   .............
CROWN = (13, 13, b"\x00\x00\x02\x00\x87\x08\xc7\x18\xef\xb8\xff\xf8\xff\xf8\xff\xf8\xff\xf8\x00\x00\xff\xf8\xff\xf8\x00\x00")

# dragon
#   #....#.......
#   ##...##......
#   .##..###.....
#   ..#######....
#   ..#########..
#   .##.#########
#   #############
#   ########.#.#.
#   ######.......
#   #####...#.#..
#   ####.########
#   .###..######.
#   ..##.........
DRAGON = (13, 13, b"\x84\x00\xc6\x00\x67\x00\x3f\x80\x3f\xe0\x6f\xf8\xff\xf8\xff\x50\xfc\x00\xf8\xa0\xf7\xf8\x73\xf0\x30\x00")

# anchor
#   .....###.....
#   .....#.#.....
#   .....###.....
#   ..#########..
#   ......#......
#   ......#......
#   ......#......
#   #.....#.....#
#   ##....#....##
#   .##...#...##.
#   ..###.#.###..
#   ...#######...
#   .....###.....
ANCHOR = (13, 13, b"\x07\x00\x05\x00\x07\x00\x3f\xe0\x02\x00\x02\x00\x02\x00\x82\x08\xc2\x18\x62\x30\x3a\xe0\x1f\xc0\x07\x00")

# bulb
#   ....#####....
#   ...#######...
#   ..#########..
#   ..#########..
#   ..#########..
#   ..#########..
#   ...#######...
#   ....#####....
#   .....###.....
#   ....#####....
#   .............
#   ....#####....
#   .....###.....
BULB = (13, 13, b"\x0f\x80\x1f\xc0\x3f\xe0\x3f\xe0\x3f\xe0\x3f\xe0\x1f\xc0\x0f\x80\x07\x00\x0f\x80\x00\x00\x0f\x80\x07\x00")

# crescent
#   ....#####....
#   ..#####......
#   .#####.......
#   .####........
#   #####........
#   #####........
#   #####........
#   #####........
#   #####........
#   .####........
#   .#####.......
#   ..#####......
#   ....#####....
CRESCENT = (13, 13, b"\x0f\x80\x3e\x00\x7c\x00\x78\x00\xf8\x00\xf8\x00\xf8\x00\xf8\x00\xf8\x00\x78\x00\x7c\x00\x3e\x00\x0f\x80")

# dart
#   ......#......
#   .....###.....
#   ....#####....
#   ...#######...
#   ..#########..
#   ......#......
#   ......#......
#   ......#......
#   ......#......
#   .....###.....
#   ....#.#.#....
#   ...#..#..#...
#   ..#...#...#..
DART = (13, 13, b"\x02\x00\x07\x00\x0f\x80\x1f\xc0\x3f\xe0\x02\x00\x02\x00\x02\x00\x02\x00\x07\x00\x0a\x80\x12\x40\x22\x20")

# miss
#   ##...##
#   ###.###
#   .#####.
#   ..###..
#   .#####.
#   ###.###
#   ##...##
MISS = (7, 7, b"\xc6\xee\x7c\x38\x7c\xee\xc6")

# tick
#   .....##
#   .....##
#   ....##.
#   ##..##.
#   ###.#..
#   .####..
#   ..##...
TICK = (7, 7, b"\x06\x06\x0c\xcc\xe8\x78\x30")

# skull
#   .#####.
#   #######
#   #..#..#
#   #######
#   .##.##.
#   .#####.
#   .#.#.#.
SKULL = (7, 7, b"\x7c\xfe\x92\xfe\x6c\x7c\x54")

# mini font 3x5: char, then its 5 rows
#   A .#. #.# ### #.# #.#
#   B ##. #.# ##. #.# ##.
#   C .## #.. #.. #.. .##
#   D ##. #.# #.# #.# ##.
#   E ### #.. ##. #.. ###
#   F ### #.. ##. #.. #..
#   G .## #.. #.# #.# .##
#   H #.# #.# ### #.# #.#
#   I ### .#. .#. .#. ###
#   J ..# ..# ..# #.# .#.
#   K #.# #.# ##. #.# #.#
#   L #.. #.. #.. #.. ###
#   M #.# ### ### #.# #.#
#   N ##. #.# #.# #.# #.#
#   O .#. #.# #.# #.# .#.
#   P ##. #.# ##. #.. #..
#   Q .#. #.# #.# ##. .##
#   R ##. #.# ##. #.# #.#
#   S .## #.. .#. ..# ##.
#   T ### .#. .#. .#. .#.
#   U #.# #.# #.# #.# ###
#   V #.# #.# #.# #.# .#.
#   W #.# #.# ### ### #.#
#   X #.# #.# .#. #.# #.#
#   Y #.# #.# .#. .#. .#.
#   Z ### ..# .#. #.. ###
#   0 ### #.# #.# #.# ###
#   1 .#. ##. .#. .#. ###
#   2 ##. ..# .#. #.. ###
#   3 ##. ..# .#. ..# ##.
#   4 #.# #.# ### ..# ..#
#   5 ### #.. ##. ..# ##.
#   6 .## #.. ### #.# ###
#   7 ### ..# .#. .#. .#.
#   8 ### #.# ### #.# ###
#   9 ### #.# ### ..# ##.
#   + ... .#. ### .#. ...
#   - ... ... ### ... ...
#   ? ##. ..# .#. ... .#.
#   ! .#. .#. .#. ... .#.
#   . ... ... ... ... .#.
#   / ..# ..# .#. #.. #..
#   : ... .#. ... .#. ...
#   = ... ### ... ### ...
MINI_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-?!./:='
MINI_FONT = b"\x02\x05\x07\x05\x05\x06\x05\x06\x05\x06\x03\x04\x04\x04\x03\x06\x05\x05\x05\x06\x07\x04\x06\x04\x07\x07\x04\x06\x04\x04\x03\x04\x05\x05\x03\x05\x05\x07\x05\x05\x07\x02\x02\x02\x07\x01\x01\x01\x05\x02\x05\x05\x06\x05\x05\x04\x04\x04\x04\x07\x05\x07\x07\x05\x05\x06\x05\x05\x05\x05\x02\x05\x05\x05\x02\x06\x05\x06\x04\x04\x02\x05\x05\x06\x03\x06\x05\x06\x05\x05\x03\x04\x02\x01\x06\x07\x02\x02\x02\x02\x05\x05\x05\x05\x07\x05\x05\x05\x05\x02\x05\x05\x07\x07\x05\x05\x05\x02\x05\x05\x05\x05\x02\x02\x02\x07\x01\x02\x04\x07\x07\x05\x05\x05\x07\x02\x06\x02\x02\x07\x06\x01\x02\x04\x07\x06\x01\x02\x01\x06\x05\x05\x07\x01\x01\x07\x04\x06\x01\x06\x03\x04\x07\x05\x07\x07\x01\x02\x02\x02\x07\x05\x07\x05\x07\x07\x05\x07\x01\x06\x00\x02\x07\x02\x00\x00\x00\x07\x00\x00\x06\x01\x02\x00\x02\x02\x02\x02\x00\x02\x00\x00\x00\x00\x02\x01\x01\x02\x04\x04\x00\x02\x00\x02\x00\x00\x07\x00\x07\x00"


# Suit symbols by the lower-case name an edition gives the suit (editions.py
# "suit_names"): the 1kFA suits and the Deckahedron World ones, which sit at
# the same places on the face (by rank).
SUIT_BITMAPS = {
    "anvil": ANVIL, "blade": BLADE, "crown": CROWN, "dragon": DRAGON,
    "anchor": ANCHOR, "bulb": BULB, "crescent": CRESCENT, "dart": DART,
}

MINI_W = 3  # mini font glyph size; advance = MINI_W + 1
MINI_H = 5
MARK_W = 7  # one result mark (X or tick)
MARK_GAP = 1
HAS_ELLIPSE = None  # decided on first use (MicroPython >= 1.20 has it)


def suit_bitmap(name):
    """The symbol for a suit key or edition suit name; None if unknown."""
    bm = SUIT_BITMAPS.get(name)
    if bm is None and isinstance(name, str):
        bm = SUIT_BITMAPS.get(name.lower())
    return bm


# --------------------------------------------------------------------------
# Primitives


_INVERT = (b"\x80", 2, 1, 3)  # blit palette (MONO_HLSB = 3): paper -> 1 = key, ink -> 0
_RUNS = None  # runs of ink per bitmap rows, for scaled blits: made on first use (never on a panel with native ink)


def _runs(bm):
    """The ink of a bitmap as rectangles of whole runs, bytes of (row,
    column, length, rows) quads: a run that repeats on the next row grows
    its rectangle instead of starting a new one (letter stems, bars)."""
    global _RUNS
    if _RUNS is None:
        _RUNS = {}
    runs = _RUNS.get(bm)
    if runs is None:
        w, h, data = bm
        bpr = (w + 7) >> 3
        out = bytearray()
        above = {}  # (column, length) of a run on the row above -> its quad
        for r in range(h):
            here = {}
            run = -1
            for col in range(w + 1):
                if col < w and data[r * bpr + (col >> 3)] & (0x80 >> (col & 7)):
                    if run < 0:
                        run = col
                elif run >= 0:
                    key = (run, col - run)
                    i = above.get(key)
                    if i is None:
                        i = len(out)
                        out += bytes((r, run, col - run, 0))
                    out[i + 3] += 1
                    here[key] = i
                    run = -1
            above = here
        if len(_RUNS) >= 64:  # a bound on the heap: glyphs in use come back
            _RUNS.clear()
        runs = _RUNS[bm] = bytes(out)
    return runs


def blit(fb, bm, x, y, c=1, scale=1):
    """Draw a bitmap's ink pixels in colour c (paper pixels are left alone),
    each as a scale x scale block. At scale 1 one framebuf blit; scaled, one
    fill_rect per rectangle of ink runs; a canvas with native ink (the
    panels' layout, drivers/ink.py) draws it there."""
    ink = getattr(fb, "ink", None)
    if ink is not None:
        ink.bitmap(fb.buf, bm, x, y, c, scale)
        return
    if scale == 1:
        src = (bm[2], bm[0], bm[1], 3)  # MONO_HLSB
        if c:
            fb.blit(src, x, y, 0)
        else:
            fb.blit(src, x, y, 1, _INVERT)
        return
    runs = _runs(bm)
    fill_rect = fb.fill_rect
    for i in range(0, len(runs), 4):
        fill_rect(x + runs[i + 1] * scale, y + runs[i] * scale, runs[i + 2] * scale, runs[i + 3] * scale, c)


_MINI = {}  # short mini-font lines (the zodiac labels) as images, made once: (line, scale) -> bitmap
_MINI_KEEP = 40  # at most this many lines of at most 4 characters kept (12 zodiac labels at 1x and 2x)


def _mini_image(s, scale=1):
    """s in the mini font as one bitmap (w, h, rows), each pixel ``scale``
    x ``scale``. Made once per label (see mini_text)."""
    adv = (MINI_W + 1) * scale
    stride = (len(s) * adv + 7) >> 3
    img = bytearray(stride * MINI_H * scale)
    px = 0
    for ch in s:
        k = MINI_CHARS.find(ch.upper()) if ch != " " else -1
        if k >= 0:
            o = k * MINI_H
            for r in range(MINI_H):
                bits = MINI_FONT[o + r]  # a row's 3 pixels: bit 2 leftmost
                for b in range(MINI_W):
                    if bits & (4 >> b):
                        for dy in range(scale):
                            row = (r * scale + dy) * stride
                            for dx in range(scale):
                                x = px + b * scale + dx
                                img[row + (x >> 3)] |= 0x80 >> (x & 7)
        px += adv
    return stride << 3, MINI_H * scale, bytes(img)


def mini_text(fb, s, x, y, c=1, scale=1):
    """Text in the 3x5 mini font (upper case, digits, + - ? ! . / : =),
    ``scale`` 2 for the cards' zodiac corners read across a table.
    A blit costs a board ~0.4 ms and putting a line together in Python
    more, so short lines (the corner labels, drawn on every flip screen)
    are kept as one image and drawn with one blit; longer ones draw a blit
    per character."""
    key = (s, scale)  # a tuple, not a formatted name: making a str costs a board a search of every interned name
    got = _MINI.get(key)
    if got is None and 0 < len(s) <= 4:
        got = _mini_image(s, scale)
        if len(_MINI) < _MINI_KEEP:
            _MINI[key] = got
    if got is not None:
        blit(fb, got, x, y, c)
        return
    key, pal = (0, None) if c else (1, _INVERT)
    for ch in s:
        k = MINI_CHARS.find(ch.upper()) if ch != " " else -1
        if k >= 0:
            # a row's 3 pixels are its byte's low bits: blit the whole byte
            # 5 pixels to the left (the other 5 are paper, never drawn)
            fb.blit((MINI_FONT[k * MINI_H:k * MINI_H + MINI_H], 8, MINI_H, 3), x - 5, y, key, pal)
        x += MINI_W + 1


def _has_ellipse(fb):
    global HAS_ELLIPSE
    if HAS_ELLIPSE is None:
        HAS_ELLIPSE = hasattr(fb, "ellipse")
    return HAS_ELLIPSE


def circle(fb, cx, cy, r, c=1, fill=False):
    """Circle of radius r (framebuf.ellipse when there, else midpoint)."""
    if r <= 0:
        fb.pixel(cx, cy, c)
        return
    if _has_ellipse(fb):
        fb.ellipse(cx, cy, r, r, c, fill)
        return
    x, y, err = r, 0, 1 - r
    while x >= y:
        if fill:
            fb.hline(cx - x, cy + y, 2 * x + 1, c)
            fb.hline(cx - x, cy - y, 2 * x + 1, c)
            fb.hline(cx - y, cy + x, 2 * y + 1, c)
            fb.hline(cx - y, cy - x, 2 * y + 1, c)
        else:
            for px, py in ((x, y), (y, x), (-y, x), (-x, y), (-x, -y), (-y, -x), (y, -x), (x, -y)):
                fb.pixel(cx + px, cy + py, c)
        y += 1
        if err < 0:
            err += 2 * y + 1
        else:
            x -= 1
            err += 2 * (y - x) + 1


def up_triangle(fb, cx, y, h, c=1):
    """Filled triangle pointing up: apex (cx, y), h rows, base 2h-1 wide."""
    for r in range(h):
        fb.hline(cx - r, y + r, 2 * r + 1, c)


def down_triangle(fb, cx, y, h, c=1):
    for r in range(h):
        fb.hline(cx - (h - 1 - r), y + r, 2 * (h - 1 - r) + 1, c)


# --------------------------------------------------------------------------
# Card parts


def level_width(level, scale=1):
    """Width of the result marks for a level: 1 = X, 2..4 = 1..3 ticks."""
    n = level - 1 if 2 <= level <= 4 else 1
    return (n * MARK_W + (n - 1) * MARK_GAP) * scale


_TICKS = [None, None, None, None]


def _ticks(n):
    """n ticks side by side as one bitmap (one blit): a tick is 7 pixels
    wide with a 1-pixel gap, so each fills its own byte of a row."""
    bm = _TICKS[n]
    if bm is None:
        rows = TICK[2]
        assert MARK_W + MARK_GAP == 8
        bm = _TICKS[n] = (8 * n - 1, MARK_W, b"".join(rows[r:r + 1] * n for r in range(MARK_W)))
    return bm


def level_bitmap(level):
    """The result marks of one suit as one bitmap: level 1 an X, levels 2,
    3, 4 one, two, three ticks (the single check, the double and the
    triple); None for any other level. Its width is level_width(level)."""
    if level == 1:
        return MISS
    if 2 <= level <= 4:
        return _ticks(level - 1)
    return None


def level_marks(fb, level, x, y, c=1, scale=1):
    """level_bitmap(level) at (x, y); any other level draws a small '?'
    box."""
    bm = level_bitmap(level)
    if bm is not None:
        blit(fb, bm, x, y, c, scale)
    else:
        fb.rect(x, y, MARK_W * scale, MARK_W * scale, c)
        mini_text(fb, "?", x + 2, y + 1, c)


# --------------------------------------------------------------------------
# Screen furniture


def resolve_bar(fb, x, y, w, h, c=1):
    """Under the card that resolves the flip: a solid bar."""
    fb.fill_rect(x, y, w, h, c)


def tie_mark(fb, x, y, w, h, on_bar, c=1):
    """'TIE' at the left of the marker row; knocked out of the resolving bar
    (on_bar), else on a dashed line."""
    tx = x + 3
    if on_bar:
        mini_text(fb, "TIE", tx, y + (h - MINI_H) // 2, 1 - c)
        return
    mid = y + h // 2
    for dx in range(tx + 14, x + w - 1, 6):
        fb.hline(dx, mid, 3, c)
    mini_text(fb, "TIE", tx, y + (h - MINI_H) // 2, c)


def cursor_mark(fb, cx, y, h, c=1):
    """The cursor while choosing among tied cards: a filled triangle."""
    up_triangle(fb, cx, y, h, c)


def battery(fb, x, y, volts, lo, hi, c=1):
    """A 15 x 7 battery: body with a nub at the right, filled in four
    steps from lo to hi volts; an empty battery shows a '!'."""
    fb.rect(x, y, 13, 7, c)
    fb.fill_rect(x + 13, y + 2, 2, 3, c)
    try:
        f = (float(volts) - lo) / (hi - lo)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        f = 0.0
    if not f > 0:  # also NaN
        f = 0.0
    if f > 1:
        f = 1.0
    n = int(f * 4 + 0.5)
    if n == 0:
        fb.vline(x + 6, y + 1, 3, c)
        fb.pixel(x + 6, y + 5, c)
    for i in range(n):
        fb.fill_rect(x + 2 + i * 3, y + 2, 2, 3, c)


def incap_mark(fb, x, y, c=1):
    """'Incapacitated': a small skull."""
    blit(fb, SKULL, x, y, c)

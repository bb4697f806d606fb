"""A card face drawn piece by piece: the zodiac corners, the numerals and
the centre mark, with the bitmaps only they use (as in glyphs.py: the ASCII
art above each bitmap is its source, checked by tests/host/test_screens.py).

render.py imports this module on the first card face it draws piece by
piece: on the unix port, the MagTag and the Badger, and when the faces are
made for a board's ROMFS (printed_face, host_tools/card_faces.py). The
Pico blits those faces instead and never imports it: these functions and
bitmaps stay out of its heap (~0.6 KB).
"""

import glyphs as G
import layout as L

# --------------------------------------------------------------------------
# Bitmaps (generated from the art in the comments)

# star
#   ....#....
#   ....#....
#   ...###...
#   #########
#   .#######.
#   ..#####..
#   ..##.##..
#   .##...##.
#   .#.....#.
STAR = (9, 9, b"\x08\x00\x08\x00\x1c\x00\xff\x80\x7f\x00\x3e\x00\x36\x00\x63\x00\x41\x00")

# halo
#   ..#########..
#   .#.........#.
#   #...........#
#   .#.........#.
#   ..#########..
#   .............
#   .....###.....
#   ....#####....
#   ....#####....
#   ....#####....
#   .....###.....
HALO = (13, 11, b"\x3f\xe0\x40\x10\x80\x08\x40\x10\x3f\xe0\x00\x00\x07\x00\x0f\x80\x0f\x80\x0f\x80\x07\x00")

# ret
#   ....#......
#   ...##......
#   ..#######..
#   .########..
#   ..##.....#.
#   ...#.....##
#   .........##
#   .........##
#   ........##.
#   .#########.
#   .########..
RETURN = (11, 11, b"\x08\x00\x18\x00\x3f\x80\x7f\x80\x30\x40\x10\x60\x00\x60\x00\x60\x00\xc0\x7f\xc0\x7f\x80")

# extop
#   .#######...
#   .#.....#...
#   .#..#..#...
#   .#..#..#...
#   .#.###.#...
#   .#..#..#...
#   .#######...
#   ...........
#   #########..
#   #########..
#   ...........
EXHAUST_TOP = (11, 11, b"\x7f\x00\x41\x00\x49\x00\x49\x00\x5d\x00\x49\x00\x7f\x00\x00\x00\xff\x80\xff\x80\x00\x00")

# minus1
#   .....##..
#   ....###..
#   .....##..
#   ###..##..
#   .....##..
#   .....##..
#   ....####.
MINUS_ONE = (9, 7, b"\x06\x00\x0e\x00\x06\x00\xe6\x00\x06\x00\x06\x00\x0f\x00")

# Zodiac corners as compact two-letter labels (all twelve distinct).
ZODIAC_LABELS = {
    "cow": "CO", "horse": "HO", "rabbit": "RB", "rat": "RT", "dog": "DO",
    "monkey": "MO", "tiger": "TI", "snake": "SN", "cock": "CK", "pig": "PI",
    "dragon": "DR", "goat": "GO",
}

TRI_W, TRI_H = 17, 15  # triangle ("d4") numeral frame
SQ_W = 13  # square ("d6") numeral frame

_DIGITS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")


def zodiac_label(name):
    lab = ZODIAC_LABELS.get(name)
    if lab is None:
        return (str(name) + "??")[:2].upper()
    return lab


def diamond(fb, cx, cy, r, c=1):
    """Outline of a square standing on a corner, vertices r from the centre."""
    fb.line(cx, cy - r, cx + r, cy, c)
    fb.line(cx + r, cy, cx, cy + r, c)
    fb.line(cx, cy + r, cx - r, cy, c)
    fb.line(cx - r, cy, cx, cy - r, c)


def thick_line(fb, x0, y0, x1, y1, c=1):
    fb.line(x0, y0, x1, y1, c)
    fb.line(x0 + 1, y0, x1 + 1, y1, c)


def triangle_numeral(fb, n, x, y, c=1):
    """The triangle ("d4") numeral: a TRI_W x TRI_H outline, digit inside."""
    m = TRI_W >> 1
    fb.line(x + m, y, x, y + TRI_H - 1, c)
    fb.line(x + m, y, x + TRI_W - 1, y + TRI_H - 1, c)
    fb.hline(x, y + TRI_H - 1, TRI_W, c)
    fb.text(_DIGITS[n % 10], x + 4, y + 7, c)


def square_numeral(fb, n, x, y, c=1):
    """The square ("d6") numeral: a SQ_W square outline, digit inside."""
    fb.rect(x, y, SQ_W, SQ_W, c)
    fb.text(_DIGITS[n % 10], x + 2, y + 3, c)


def centre_mark(fb, card, cx, cy, r, c=1):
    """The centre of a face: a diamond frame on Stamina cards, else a
    circle; inside it the XP star, and around it the critical rings (double
    thin ring = critical success; bold ring with an X inside = critical
    failure); blessings and wounds show their centre marker instead."""
    stamina = card.stamina
    if stamina:
        diamond(fb, cx, cy, r + 1, c)
        diamond(fb, cx, cy, r, c)
    else:
        G.circle(fb, cx, cy, r, c)
        G.circle(fb, cx, cy, r - 1, c)
    if card.crit == "success":
        G.circle(fb, cx, cy, r + 3, c)
        G.circle(fb, cx, cy, r + 5, c)
    elif card.crit == "fail":
        for k in range(3, 6):
            G.circle(fb, cx, cy, r + k, c)
        d = (r * 5) // 10
        thick_line(fb, cx - d, cy - d, cx + d - 1, cy + d, c)
        thick_line(fb, cx - d, cy + d, cx + d - 1, cy - d, c)
    if card.xp:
        G.blit(fb, STAR, cx - 4, cy - 4, c)
    marker = card.marker
    if marker == "copper":
        G.blit(fb, HALO, cx - 6, cy - 5, c)
    elif marker == "gold":
        G.circle(fb, cx, cy, r - 2, c, True)
        G.blit(fb, HALO, cx - 6, cy - 5, 1 - c)
    elif marker == "return":
        G.blit(fb, RETURN, cx - 5, cy - 5, c)
    elif marker == "minus1":
        G.blit(fb, MINUS_ONE, cx - 4, cy - 3, c)
    elif marker == "exhaust_top":
        G.blit(fb, EXHAUST_TOP, cx - 5, cy - 5, c)


def printed(r, card, x, y, w, h):
    """What renderer ``r`` draws of a face whatever the edition, past its
    frame and edges: the zodiac corners (2x where the face is full size),
    the numerals, the centre mark."""
    fb = r.fb
    full = w >= L.FULL_FACE_MIN and h >= L.FULL_FACE_MIN
    g = r._geometry(w, h)
    for k in range(4):
        G.mini_text(fb, zodiac_label(card.corners[k]), x + g[32 + 2 * k], y + g[33 + 2 * k], 1, 2 if full else 1)
    if full:
        if card.d4:
            triangle_numeral(fb, card.d4, x + g[40], y + g[41])
        if card.d6:
            square_numeral(fb, card.d6, x + g[42], y + g[43])
        radius = L.CENTRE_R
    else:
        radius = min(w, h) // 8
    centre_mark(fb, card, x + g[44], y + g[45], radius)


def printed_face(r, card):
    """``card``'s full-size face as MONO_VLSB column bytes (CARD_W x
    CARD_H, band by band): the frame, every edge's suit symbol (the default
    edition's: render_card draws another edition's over them) and marks,
    corners, numerals and centre, drawn by renderer ``r`` on its cleared
    canvas in the panel layout, so they are its pixels.
    host_tools/card_faces.py has the unix port make them all for a board's
    ROMFS; render.Renderer.render_card blits them."""
    from shared_rules.deck.editions import DEFAULT_EDITION, edition

    fb, w, h = r.fb, L.CARD_W, L.CARD_H
    fb.fill(0)
    r._frame(0, 0, w, h, 1)
    g = r._geometry(w, h)
    symbols = r.symbols(edition(DEFAULT_EDITION))
    for k in range(4):
        G.blit(fb, symbols[k], g[8 * k + 4], g[8 * k + 5], 1)
        r._marks(card.levels[k], g[8 * k + 6], g[8 * k + 7], 1)
    printed(r, card, 0, 0, w, h)
    out = bytearray()
    for band in range((h + 7) >> 3):
        out += fb.buf[band * L.WIDTH:band * L.WIDTH + w]
    return bytes(out)


def faces(render, ink):
    """Every card's printed face (printed_face), in shared_rules.deck.cards
    ALL_IDS order, as one bytes: drawn by module ``render``'s Renderer on a
    canvas in the panel layout with native ``ink``, as the Pico draws. What
    host_tools/card_faces.py puts in a board's ROMFS, and what
    host_tools/screens_mp.py checks against cards drawn piece by piece."""
    import framebuf
    from shared_rules.deck.cards import ALL_IDS, CARDS

    canvas = render.Canvas(bytearray(L.BUF_SIZE), framebuf.MONO_VLSB)
    canvas.ink = ink
    r = render.Renderer(fb=canvas)
    return b"".join(printed_face(r, CARDS[cid]) for cid in ALL_IDS)

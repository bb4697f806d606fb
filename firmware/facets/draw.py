"""Facets screens (views from ui.py beside it) on the 296 x 128 panel.

``draw(r, v)`` draws a view whose screen starts with "facets_"; the
renderer (render.py) imports this module the first time it meets one and
draws the hint and the status line itself (``status`` below for Facets).
Dice are drawn as the device draws cards: framed faces in a row, each
exploding face inverted (the marked set) and chained to the next with a
"+"; the band word big enough to read across a table.
"""

import glyphs as G
from shared_rules.facets.results import band_label
from render import _clip, _dict, _int, _list, _str

W = 296
FONT = 8
CONTENT_BOTTOM = 108


def draw(r, v):
    fn = SCREENS.get(v.get("screen"))
    if fn is None:
        r._message("Unknown screen", ["no screen called", _str(v.get("screen"), 36)], v.get("hint"))
        return
    fn(r, v)


def status(r, st):
    """The footer: H health, C cool, E effort, T tokens, then the rungs."""
    fb = r.fb
    st = _dict(st)
    fb.hline(0, 118, W, 1)
    h, c = _list(st.get("health")), _list(st.get("cool"))
    s = "H%d/%d C%d/%d E%d T%d" % (_int(h[0] if h else 0), _int(h[1] if len(h) > 1 else 0),
                                   _int(c[0] if c else 0), _int(c[1] if len(c) > 1 else 0),
                                   _int(st.get("effort")), _int(st.get("tokens")))
    right = W
    volts = st.get("battery")
    if volts is not None:
        G.battery(fb, 280, 120, volts, 3.3, 4.1)
        right = 277
    x = 1 + r.text_big(s, 1, 120, 1) + FONT
    rung = _str(st.get("rung"), 20).upper()
    if rung:
        x += r._tag(rung, x, 119) + 4
    name = _str(st.get("name"), 16)
    room = (right - x) // FONT
    if name and room >= 3:
        name = name[:room]
        r.text(name, right - len(name) * FONT, 120, 1)


# -- dice ---------------------------------------------------------------------

def _die_box(r, face, die, x, y, size, marked):
    """One rolled face in a card-like frame; a marked (exploding) face is
    inverted. The die's size sits small in the top-left corner."""
    fb = r.fb
    if marked:
        fb.fill_rect(x, y, size, size, 1)
    else:
        r._frame(x, y, size, size, 2)
    c = 0 if marked else 1
    s = "%d" % face
    scale = 3 if size >= 36 and len(s) <= 2 else 2
    if len(s) * FONT * scale > size - 4:
        scale = 1
    tw = len(s) * FONT * scale
    r.text_big(s, x + (size - tw) // 2, y + (size - 7 * scale) // 2 + 1, scale, c)
    if size >= 28:
        G.mini_text(fb, "D%d" % die, x + 3, y + 3, c)


def _dice_row(r, roll, x, y, size, room):
    """The roll's faces left to right, exploding ones chained with '+';
    returns the x after the row. A chain too long for the room shows its
    first faces, then '..'."""
    faces = _list(roll.get("faces"))
    die = _int(roll.get("die"), 8)
    explode = _int(roll.get("explode"), die)
    calm = roll.get("mode") == "calm"
    step = size + 12
    fit = max(1, (room - 16) // step)
    shown = faces if len(faces) <= fit else faces[:fit - 1]
    for i in range(len(shown)):
        f = _int(shown[i])
        _die_box(r, f, die, x, y, size, not calm and f >= explode and i < len(faces) - 1)
        x += size
        if i < len(faces) - 1:
            r.text("+", x + 2, y + size // 2 - 4, 1)
            x += 12
    if len(shown) < len(faces):
        r.text_big("..", x, y + size // 2 - 8, 2)
        x += 32
    if calm:
        r.text("calm", x + 4, y + 2, 1)
    return x


def _roll(r, v):
    r._title_bar(_str(v.get("title"), 40), _str(_list(v.get("rolls")) and _roll_right(_list(v.get("rolls"))[0]), 18))
    rolls = _list(v.get("rolls"))
    notes = _list(v.get("notes"))
    if len(rolls) == 1:
        ro = _dict(rolls[0])
        x = _dice_row(r, ro, 4, 14, 36, 200)
        _total(r, ro, max(x + 6, 200), 18, 2)
        word = _str(v.get("word"), 20)
        r._text_fit(word, 4, 56, W - 8, (3, 2, 1))
        y = 84
    else:
        y = 13
        for ro in rolls[:2]:
            ro = _dict(ro)
            x = max(_dice_row(r, ro, 4, y, 26, 176) + 4, 184)
            _total(r, ro, x, y + 1, 1)
            band = band_label(_str(ro.get("band"), 12))
            if band:
                r.text(band, x, y + 19, 1)
            y += 30
        word = _str(v.get("word"), 20)
        r._text_fit(word, 4, y, W - 8, (2, 1))
        y += 20
    for line in notes[:3]:
        if y > CONTENT_BOTTOM - 8:
            break
        r.text(_clip(_str(line, 36), W - 8), 4, y, 1)
        y += 10


def _roll_right(ro):
    ro = _dict(ro)
    s = "d%d" % _int(ro.get("die"))
    if ro.get("mode") == "pressure":
        s += " PRESSURE"
    return s


def _total(r, ro, x, y, scale):
    """'=19 +2' then 'vs 8' (or the defence total)."""
    total = _int(ro.get("total"))
    bonus = _int(ro.get("bonus"))
    s = "=%d" % total
    if bonus:
        s += "%+d" % bonus
    r._text_fit(s, x, y, W - x, (scale, 1))
    tn = ro.get("tn")
    if tn is not None:
        r.text("vs TN %d" % _int(tn), x, y + 8 * scale + 1, 1)
    elif bonus:
        r.text("-> %d" % _int(ro.get("result")), x, y + 8 * scale + 1, 1)


# -- home ---------------------------------------------------------------------

def _home(r, v):
    fb = r.fb
    name = _str(v.get("name"), 12).upper()
    r._text_fit(name, 4, 4, 200, (3, 2))
    # the target number, boxed on the right
    tn = "%d" % _int(v.get("tn"))
    fb.rect(214, 2, 80, 44, 1)
    r.text("TN", 218, 5, 1)
    r.text_big(tn, 294 - 4 - len(tn) * 32, 14, 4)  # under the label, 28 px tall
    die = _int(v.get("die"), 8)
    base = _int(v.get("base_die"), die)
    r._frame(4, 34, 60, 40, 2)  # the die to roll, as its card
    label = "d%d" % die
    r.text_big(label, 4 + (60 - len(label) * 24) // 2, 44, 3)
    if base != die:
        r.text("from d%d" % base, 6, 78, 1)  # a condition stepped it down
    odds = _list(v.get("chance"))
    if len(odds) == 2:
        r.text("%s%% meet, %s%% cost" % (_str(odds[0], 6), _str(odds[1], 6)), 4, 96, 1)
    task = v.get("task")
    if isinstance(task, dict):
        _task(r, _dict(task), 76)
        return
    lines = []
    if _int(v.get("bonus")):
        lines.append("bonus %+d" % _int(v.get("bonus")))
    if _int(v.get("effort")):
        lines.append("effort %d (+%d)" % (_int(v.get("effort")), 2 * _int(v.get("effort"))))
    if _int(v.get("explode")):
        lines.append("explodes on %d+" % _int(v.get("explode")))
    if v.get("trait"):
        lines.append("trait " + _str(v.get("trait"), 16))
    mode = _str(v.get("mode"), 10)
    y = 50
    if mode:
        r._tag(mode, 76, y)
        y += 12
    for line in lines[:4]:
        r.text(line, 76, y, 1)
        y += 10


def _task(r, k, x):
    """[Finesse 8 - 2/5 - 30s]: one box per attempt (filled a success, a
    slash a success with a cost, a cross a failure, empty not yet)."""
    fb = r.fb
    r.text(_clip(_str(k.get("text"), 32), W - x), x, 50, 1)
    marks = _str(k.get("marks"), 20)
    bx = x
    size = 14 if len(marks) <= 12 else 9
    for m in marks:
        fb.rect(bx, 62, size, size, 1)
        if m == "S":
            fb.fill_rect(bx, 62, size, size, 1)
        elif m == "C":
            fb.fill_rect(bx, 62, size, size, 1)
            fb.line(bx + 2, 62 + size - 3, bx + size - 3, 64, 0)
        elif m == "X":
            fb.line(bx + 2, 64, bx + size - 3, 62 + size - 3, 1)
            fb.line(bx + 2, 62 + size - 3, bx + size - 3, 64, 1)
        bx += size + 3
    state = _str(k.get("state"), 12)
    if state == "open":
        r.text("%d/%d  time %s" % (_int(k.get("wins")), _int(k.get("need")), _str(k.get("elapsed"), 10)), x, 82, 1)
    else:
        r._text_fit(state.upper(), x, 82, W - x, (3, 2))


# -- the sheet ----------------------------------------------------------------

LADDER_WORDS = {"health": ("hurt", "injured", "crippled", "dead"), "cool": ("weary", "drained", "exhausted")}


def _sheet(r, v):
    fb = r.fb
    st = _dict(v.get("status"))
    r._title_bar("CHARACTER", _str(st.get("name"), 16))
    attrs = _list(v.get("attrs"))
    sel = _int(v.get("selected"), -1)
    for i in range(min(9, len(attrs))):
        a = _list(attrs[i])
        letter, die, now, pens = _str(a[0], 1), _int(a[1]), _int(a[2]), _int(a[3])
        x = 2 + (i % 3) * 66
        y = 13 + (i // 3) * 16
        c = 1
        if i == sel:
            fb.fill_rect(x - 1, y - 1, 64, 16, 1)
            c = 0
        r.text_big(letter, x, y, 2, c)
        r.text_big("%d" % now, x + 20, y, 2, c)
        if pens:
            fb.hline(x + 20, y + 15, 16 * len("%d" % now), c)  # a condition weighs on it
        if die != now:
            G.mini_text(fb, "%d" % die, x + 54, y + 1, c)  # the die before conditions
    x0 = 204
    fb.vline(x0 - 4, 12, 48, 1)
    r.text_big("E%d" % _int(v.get("effort")), x0, 14, 2)
    r.text_big("T%d" % _int(v.get("tokens")), x0, 32, 2)
    traits = _list(v.get("traits"))
    if traits:
        r.text(_clip("%d trait%s" % (len(traits), "" if len(traits) == 1 else "s"), 90), x0, 50, 1)
    y = 62
    for lad in _list(v.get("ladders"))[:2]:
        lad = _list(lad)
        t, p, m, level = _str(lad[0], 6), _int(lad[1]), _int(lad[2]), _int(lad[3])
        _ladder(r, t, p, m, level, bool(v.get("dead")) and t == "health", y)
        y += 23


def _ladder(r, track, points, most, level, dead, y):
    fb = r.fb
    label = "H" if track == "health" else "C"
    r.text("%s%d/%d" % (label, points, most), 2, y + 3, 1)
    bx = 62
    n = most if most <= 20 else 20
    for i in range(n):
        filled = i < (points if most <= 20 else points * 20 // most)
        if filled:
            fb.fill_rect(bx, y + 2, 5, 9, 1)
        else:
            fb.rect(bx, y + 2, 5, 9, 1)
        bx += 7
    x = 62
    words = LADDER_WORDS.get(track, ())
    yy = y + 13
    for i in range(len(words)):
        w = words[i]
        now = (i + 1 == level and not dead) or (dead and w == "dead")
        if now:
            x += r._tag(w, x, yy - 1)
        else:
            G.mini_text(fb, w.upper(), x + 1, yy + 1, 1)
            x += len(w) * 4 + 2
        if i < len(words) - 1:
            r.text(">", x, yy, 1)
            x += 9


# -- odds ---------------------------------------------------------------------

def _odds(r, v):
    fb = r.fb
    r._title_bar(_str(v.get("title"), 36), _str(v.get("mode"), 10))
    y = 13
    for row in _list(v.get("rows"))[:5]:
        row = _list(row)
        band, frac, pct = _str(row[0], 12), _str(row[1], 24), _str(row[2], 6)
        r.text(band_label(band) or band, 2, y, 1)
        G.mini_text(fb, _clip(frac, 104).upper(), 2, y + 11, 1)
        bar = 0
        try:
            bar = int(float(pct) * 80 / 100 + 0.5)
        except ValueError:
            pass
        fb.rect(110, y + 2, 82, 12, 1)
        fb.fill_rect(111, y + 3, bar, 10, 1)
        s = pct + "%"
        r.text_big(s, W - 2 - len(s) * 16, y, 2)  # at most "100.0%": 96 px
        y += 19


SCREENS = {"facets_home": _home, "facets_roll": _roll, "facets_sheet": _sheet, "facets_odds": _odds}

"""Drawing of SAVE 2d6's screens (views named save_..., see ui.py beside it).

render.Renderer imports this module the first time it meets such a view
and calls draw(renderer, view); the hint and the status line are the
renderer's. A die that passes is drawn inverted (black face, white pips),
on home's pass set and on a roll alike, so "black passes" reads the same
everywhere; clocks are circles cut into their segments, the filled ones
black.
"""

import math

import glyphs as G
import layout as L

# Pip positions on a die face, in quarters of its side (1..3).
PIPS = {1: ((2, 2),), 2: ((1, 1), (3, 3)), 3: ((1, 1), (2, 2), (3, 3)),
        4: ((1, 1), (3, 1), (1, 3), (3, 3)), 5: ((1, 1), (3, 1), (2, 2), (1, 3), (3, 3)),
        6: ((1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3))}
LADDER = ("Strong", "Fair", "Shaken", "Hurt", "Down")


def _s(v, n=37):
    if v is None:
        return ""
    v = v if isinstance(v, str) else str(v)
    return v[:n]


def _l(v):
    return v if isinstance(v, (list, tuple)) else []


def _i(v, lo, hi, default):
    return v if type(v) is int and lo <= v <= hi else default


def die(r, x, y, size, face, passes):
    """One d6 face: inverted when it passes, an outline when it fails."""
    fb = r.fb
    face = _i(face, 1, 6, 1)
    if passes:
        fb.fill_rect(x, y, size, size, 1)
        for px, py in ((x, y), (x + size - 1, y), (x, y + size - 1), (x + size - 1, y + size - 1)):
            fb.pixel(px, py, 0)
    else:
        r._frame(x, y, size, size, 2 if size >= 24 else 1)
    pr = max(1, size // 9)
    ink = 0 if passes else 1
    for qx, qy in PIPS[face]:
        G.circle(fb, x + size * qx // 4, y + size * qy // 4, pr, ink, True)


def faces_row(r, faces, x, y, size, gap):
    """The six faces, those that pass inverted."""
    faces = _l(faces)
    for f in range(1, 7):
        die(r, x + (f - 1) * (size + gap), y, size, f, f in faces)
    return x + 6 * (size + gap)


def check_box(r, x, y, on):
    fb = r.fb
    fb.rect(x, y, 9, 9, 1)
    if on:
        fb.fill_rect(x + 2, y + 2, 5, 5, 1)


def _home(r, v):
    fb = r.fb
    r.text("PASS", 2, 8, 1)
    r.text("ON", 10, 18, 1)
    faces_row(r, v.get("faces"), 40, 1, 30, 4)
    y = 38
    sel = v.get("selected")
    rows = _l(v.get("switches"))
    for i in range(len(rows[:4])):
        row = _l(rows[i])
        if len(row) < 2:
            continue
        if i == sel:
            fb.fill_rect(1, y + 1, 5, 7, 1)
        check_box(r, 9, y, row[1] is True)
        r.text(_s(row[0], 20), 22, y + 1, 1)
        y += 12
    # right: health big, destiny
    health = _s(v.get("health"), 6).upper()
    r.text("HEALTH", 200, 38, 1)
    r.text_big(health, 200, 48, 2 if len(health) * 16 <= 96 else 1, 1)
    r.text("DESTINY " + _s(v.get("destiny"), 5).upper(), 168 if len(_s(v.get("destiny"))) > 5 else 176, 70, 1)
    odds = _l(v.get("odds"))
    if len(odds) == 3:
        r.text(_s("Complete %s Mixed %s Fail %s" % (odds[0], odds[1], odds[2]), 37), 0, 88, 1)
    extra = _l(v.get("extra"))
    if extra:
        r.text(_s("Next roll: " + ", ".join([_s(e, 12) for e in extra]), 37), 0, 99, 1)


def _roll(r, v):
    fb = r.fb
    dice = _l(v.get("dice"))
    passes = _l(v.get("passes"))
    for i in range(min(2, len(dice))):
        x = 4 + i * 58
        ok = i < len(passes) and passes[i] is True
        die(r, x, 2, 50, dice[i], ok)
        word = "PASS" if ok else "fail"
        r.text(word, x + (50 - len(word) * 8) // 2, 55, 1)
    r.text("Pass", 122, 8, 1)
    faces = _l(v.get("faces"))
    x = 158
    for f in faces[:5]:
        die(r, x, 2, 20, f, True)
        x += 24
    r.text(_s("Health " + _s(v.get("health")).upper(), 21), 122, 30, 1)
    r.text(_s("Destiny " + _s(v.get("destiny")), 21), 122, 42, 1)
    words = _s(v.get("words"), 12)
    scale = 3 if len(words) * 24 <= L.WIDTH - 4 else 2
    r.text_big(words, 4, 68, scale, 1)
    if v.get("result") == "pending":
        fb.rect(0, 65, L.WIDTH, 28, 1)
    r.text(_s(v.get("note"), 37), 0, 97, 1)


def _hero(r, v):
    fb = r.fb
    r._title_bar("Hero", "destiny " + _s(v.get("destiny"), 6))
    ladder = _l(v.get("ladder"))
    now = v.get("health")
    x = 1
    for i in range(len(ladder[:5])):
        h = _s(ladder[i], 6)
        label = h[:1].upper() + h[1:]
        w = 56
        if h == now:
            fb.fill_rect(x, 16, w, 18, 1)
            r.text(label, x + (w - len(label) * 8) // 2, 21, 0)
        else:
            fb.rect(x, 16, w, 18, 1)
            r.text(label, x + (w - len(label) * 8) // 2, 21, 1)
        if i < 4:
            fb.fill_rect(x + w, 24, 3, 2, 1)  # the ladder's rungs join
        x += w + 3
    threes = "Threes pass" if now in ("strong", "fair") else "Threes fail"
    if now == "down":
        threes = "Down: cannot affect the story"
    r.text(threes, 2, 40, 1)
    dest = _s(v.get("destiny"), 6).upper()
    r.text("DESTINY", 2, 56, 1)
    r.text_big(dest, 64, 52, 2, 1)
    pursuit = _s(v.get("pursuit"), 40)
    r.text(_s("Pursuit: " + (pursuit or "(none)"), 37), 2, 76, 1)
    n = _i(v.get("history"), 0, 999, 0)
    r.text("History: %d item%s" % (n, "" if n == 1 else "s"), 2, 90, 1)


def clock(r, cx, cy, rad, segments, filled):
    """A circle cut into ``segments`` from 12 o'clock clockwise, the first
    ``filled`` of them black."""
    fb = r.fb
    if filled > 0:
        step = 2 * math.pi / segments
        r2 = rad * rad
        for dy in range(-rad, rad + 1):
            for dx in range(-rad, rad + 1):
                if dx * dx + dy * dy > r2:
                    continue
                a = math.atan2(dx, -dy)  # 0 at 12 o'clock, growing clockwise
                if a < 0:
                    a += 2 * math.pi
                if int(a / step) < filled:
                    fb.pixel(cx + dx, cy + dy, 1)
    G.circle(fb, cx, cy, rad, 1)
    G.circle(fb, cx, cy, rad + 1, 1)
    for k in range(segments):
        a = 2 * math.pi * k / segments
        ex, ey = cx + int(round(rad * math.sin(a))), cy - int(round(rad * math.cos(a)))
        # spoke k parts segments k-1 and k: white inside the filled part
        both = k < filled and (k - 1) % segments < filled
        fb.line(cx, cy, ex, ey, 0 if both else 1)


def _clocks(r, v):
    clocks = _l(v.get("clocks"))[:6]
    r._title_bar("Clocks", "%d" % len(clocks))
    if not clocks:
        r.text("No clocks yet: the GM makes", 2, 30, 1)
        r.text("them at the hub.", 2, 42, 1)
        return
    cols = min(3, len(clocks))
    rows = 1 if len(clocks) <= 3 else 2
    cw = L.WIDTH // cols
    ch = (108 - 12) // rows
    rad = min(cw // 2, ch - 20) // 2 + (6 if rows == 1 else 2)
    for i in range(len(clocks)):
        c = _l(clocks[i])
        if len(c) != 4:
            continue
        segments = _i(c[2], 2, 12, 2)
        filled = _i(c[3], 0, segments, 0)
        x0 = (i % cols) * cw
        y0 = 13 + (i // cols) * ch
        if rows == 1:
            cx, cy = x0 + cw // 2, y0 + rad + 2
            clock(r, cx, cy, rad, segments, filled)
            name = _s(c[0], cw // 8)
            r.text(name, x0 + (cw - len(name) * 8) // 2, cy + rad + 5, 1)
            tag = "%s %d/%d" % ("setback" if c[1] == "setback" else "progress", filled, segments)
            tag = _s(tag, cw // 8)
            r.text(tag, x0 + (cw - len(tag) * 8) // 2, cy + rad + 15, 1)
        else:
            cx, cy = x0 + rad + 3, y0 + ch // 2
            clock(r, cx, cy, rad, segments, filled)
            tx = cx + rad + 5
            room = (x0 + cw - tx) // 8
            r.text(_s(c[0], room), tx, cy - 12, 1)
            r.text(_s("%d/%d" % (filled, segments), room), tx, cy - 2, 1)
            r._text_narrow("setback" if c[1] == "setback" else "progress", tx, cy + 8, room * 8)


def _odds(r, v):
    r._title_bar("Odds of this roll", "health " + _s(v.get("health"), 6))
    r.text("PASS", 2, 20, 1)
    faces_row(r, v.get("faces"), 40, 14, 22, 4)
    y = 44
    for row in _l(v.get("rows"))[:3]:
        row = _l(row)
        if len(row) != 3:
            continue
        r.text_big(_s(row[0], 9), 2, y, 2, 1)
        r.text(_s(row[1], 6), 160, y + 4, 1)
        r.text(_s(row[2], 5), 230, y + 4, 1)
        y += 21


SCREENS = {"save_home": _home, "save_roll": _roll, "save_hero": _hero, "save_clocks": _clocks,
           "save_odds": _odds}


def draw(r, v):
    fn = SCREENS.get(v.get("screen"))
    if fn is None:
        r._message("Unknown screen", ["no screen called", _s(v.get("screen"), 36)], v.get("hint"))
        return
    fn(r, v)

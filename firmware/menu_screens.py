"""The screens of the menus' flows (a menu, a number or a name being
picked, a mini-game, the character sheet), drawn by render.Renderer: loaded
when one is first drawn and dropped at the home screen with the menus
(app.RELEASABLE). On the stock MicroPython image a module's code is in the
heap while it is loaded; the home screen's drawing stays in render.py.
Each screen is draw(r, view) with r the Renderer."""

import glyphs as G
import layout as L

from render import _clip, _dict, _int, _list, _signed, _str

ATTRS = ("str", "dex", "int")
MINIGAME_TITLES = {"pick_locks": "PICK LOCKS", "magic": "FUNDAMENTAL MAGIC"}


# menu -------------------------------------------------------------------

def scroll_top(sel, n, rows):
    if n <= rows:
        return 0
    top = sel - rows // 2
    if top < 0:
        top = 0
    if top > n - rows:
        top = n - rows
    return top

def menu(r, v):
    fb = r.fb
    r._title_bar(_str(v.get("title"), 40))
    items = _list(v.get("items"))
    n = len(items)
    sel = _int(v.get("selected"), 0)
    top = scroll_top(sel, n, L.MENU_ROWS)
    rw = L.MENU_SCROLL_X - 3
    for row in range(L.MENU_ROWS):
        i = top + row
        if i >= n:
            break
        y = L.MENU_ROW_Y + row * L.MENU_ROW_H
        c = 1
        if i == sel:
            fb.fill_rect(0, y, rw, L.MENU_ROW_H, 1)
            c = 0
        s = _str(items[i], 40)
        if len(s) <= L.MENU_CHARS_2X:
            r.text_big(s, L.MENU_TEXT_X, y + 1, 2, c)
        elif len(s) * 14 <= rw - L.MENU_TEXT_X:  # 2x squeezed to 14 px a character
            xx = L.MENU_TEXT_X - 1
            for ch in s:
                r.text_big(ch, xx, y + 1, 2, c)
                xx += 14
        else:
            r.text(_clip(s, rw - L.MENU_TEXT_X), L.MENU_TEXT_X, y + 4, c)
    if top > 0:
        G.up_triangle(fb, L.MENU_SCROLL_X + 4, L.MENU_ROW_Y + 2, 5)
    if top + L.MENU_ROWS < n:
        G.down_triangle(fb, L.MENU_SCROLL_X + 4, L.MENU_ROW_Y + L.MENU_ROWS * L.MENU_ROW_H - 8, 5)
    if n > L.MENU_ROWS:  # scroll bar
        th = L.MENU_ROWS * L.MENU_ROW_H - 20
        ty = L.MENU_ROW_Y + 9 + th * top // n
        fb.fill_rect(L.MENU_SCROLL_X + 3, ty, 3, max(3, th * L.MENU_ROWS // n), 1)

# number -----------------------------------------------------------------

def number(r, v):
    tx, ty, ts = L.NUMBER_TITLE
    r._text_fit(_str(v.get("title"), 40), tx, ty, L.WIDTH - tx, (ts, 1))
    s = _str(_int(v.get("value")), 8)
    unit = _str(v.get("unit"), 20)
    sc = L.NUMBER_SCALE
    us = L.NUMBER_UNIT_SCALE
    while sc > 2 and len(s) * L.FONT * sc + (len(unit) * L.FONT * us + 8 if unit else 0) > L.WIDTH:
        sc -= 1
    uw = len(unit) * L.FONT * us + 8 if unit else 0
    if uw + len(s) * L.FONT * sc > L.WIDTH:
        unit = _clip(unit, L.WIDTH - len(s) * L.FONT * sc - 8, us)
        uw = len(unit) * L.FONT * us + 8 if unit else 0
    x = (L.WIDTH - len(s) * L.FONT * sc - uw) // 2
    x += r.text_big(s, x, L.NUMBER_VALUE_Y, sc)
    if unit:
        r.text_big(unit, x + 8, L.NUMBER_VALUE_Y + 7 * sc - 7 * us, us)

# entry ------------------------------------------------------------------

def entry(r, v):
    """A name being spelled: the letters so far at 2x, the letter under
    UP/DOWN inverted after them (the last ones shown if it is long)."""
    tx, ty, ts = L.NUMBER_TITLE
    r._text_fit(_str(v.get("title"), 40), tx, ty, L.WIDTH - tx, (ts, 1))
    text = _str(v.get("text"), 32)
    letter = _str(v.get("letter"), 1) or " "
    n = L.ENTRY_CHARS - 1
    if len(text) > n:
        text = text[len(text) - n:]
    x = r.text_big(text, L.ENTRY_TEXT[0], L.ENTRY_TEXT[1], L.ENTRY_TEXT[2])
    step = L.FONT * L.ENTRY_TEXT[2]
    r.fb.fill_rect(L.ENTRY_TEXT[0] + x - 2, L.ENTRY_TEXT[1] - 2, step + 2, step + 2, 1)
    r.text_big(letter, L.ENTRY_TEXT[0] + x, L.ENTRY_TEXT[1], L.ENTRY_TEXT[2], 0)

# minigame ---------------------------------------------------------------

def minigame(r, v):
    fb = r.fb
    kind = v.get("kind")
    title = MINIGAME_TITLES.get(kind) if isinstance(kind, str) else None
    r._title_bar(title or _str(kind, 30).upper())
    cards = _list(v.get("cards"))
    sel = _int(v.get("selected"), -1)
    first = 0
    if len(cards) > L.MINI_MAX_CARDS:
        first = scroll_top(sel, len(cards), L.MINI_MAX_CARDS)
        cards = cards[first:first + L.MINI_MAX_CARDS]
    n = len(cards)
    if n:
        slots = L.MINI_SLOTS[n]
        for i in range(n):
            x, y, w, h = slots[i]
            chosen = i + first == sel
            r._corner_card(cards[i], x, y, w, h, chosen)
            if chosen:
                fb.fill_rect(x, L.MINI_MARK_Y, w, L.MINI_MARK_H, 1)
    s = "SOLVED! B done" if v.get("solvable") else "NOT YET: C swap"
    r.text_big(s, (L.WIDTH - len(s) * 16) // 2, L.MINI_INFO_Y, 2)

# sheet ------------------------------------------------------------------

def sheet(r, v):
    fb = r.fb
    st = _dict(v.get("status"))
    r._title_bar("CHARACTER", _str(st.get("name"), 16))
    attrs = _dict(v.get("attrs"))
    mx, my, mw, mh = L.SHEET_MOVES
    for k in range(3):
        a = ATTRS[k]
        y = L.SHEET_ATTR_Y + k * L.SHEET_ATTR_H
        r.text_big(a.upper(), L.SHEET_ATTR_X, y + 6, 2)
        suit = attrs.get(a)
        bm = r.suit_symbol(suit)
        if bm is not None:
            G.blit(fb, bm, 52, y, 1, 2)
        r._text_narrow(r.suit_name(suit), 82, y + 9, mx - 86)
    fb.vline(mx - 4, my, mh, 1)
    moves = _list(v.get("moves"))
    n = len(moves)
    sel = _int(v.get("selected"), -1)
    rows = L.SHEET_MOVE_ROWS
    top = scroll_top(sel, n, rows)
    for row in range(rows):
        i = top + row
        if i >= n:
            break
        m = _list(moves[i])
        name = _str(m[0] if m else "?")
        lvl = _signed(_int(m[1] if len(m) > 1 else 0))
        y = my + row * L.SHEET_MOVE_H
        c = 1
        if i == sel:
            fb.fill_rect(mx, y, mw, L.SHEET_MOVE_H, 1)
            c = 0
        r.text(_clip(name, mw - 30), mx + 2, y + 2, c)
        r.text(lvl, mx + mw - 2 - len(lvl) * 8, y + 2, c)
    if top > 0:
        G.up_triangle(fb, mx - 10, my + 1, 4)
    if top + rows < n:
        G.down_triangle(fb, mx - 10, my + mh - 6, 4)

"""Render named screens with the device renderer and write the raw buffers.

Run from the repo root under the MicroPython unix port:

    micropython host_tools/screens/mp_render.py OUTDIR              the fixed VIEWS below -> OUTDIR/<name>.bin
    micropython host_tools/screens/mp_render.py OUTDIR VIEWS.json   views from a JSON list of [name, view]
    micropython host_tools/screens/mp_render.py --cards             every card id in every slot, every suit
    micropython host_tools/screens/mp_render.py --fuzz              junk in every view key: defaults, never an error page
    micropython host_tools/screens/mp_render.py --bench             render time and heap figures
    micropython host_tools/screens/mp_render.py --vlsb              every view drawn in the panel layout (MONO_VLSB) too
    micropython host_tools/screens/mp_render.py --ink               random drawings: native ink (drivers/ink.py) = framebuf
    micropython host_tools/screens/mp_render.py --faces             cards from their prebuilt faces = cards drawn piece by piece

Each .bin is the 4736-byte frame buffer (MONO_HLSB, bit 1 = black).
tests/host/screens/test_core.py runs this and checks pixels; host_tools/screens/core.py
turns buffers into PNGs. Prints one line per screen: "ok NAME".
"""

import gc
import sys

# The VIEWS below are plain data: CPython imports this module for them
# (tests/host/screens/test_core.py); only the functions need MicroPython.


def _paths():
    # Run from the repo root: the device code as on a board (firmware/), and shared_rules.
    if "firmware" not in sys.path:
        sys.path[:0] = ["firmware", "."]


def _renderer(buf=None):
    _paths()
    from render import Renderer

    return Renderer(buf)


def status(**kw):
    st = {"draw": 14, "discard": 4, "exhaustion": 2, "xp": 3, "harm": 1, "wounds": 0, "shadow": 2,
          "incapacitated": "", "edition": "md", "battery": 3.9, "name": "Kresk"}
    st.update(kw)
    return st


def flip(cards, suit, net, level, resolving, words, tied=None, selected=None, phase="open", note="",
         flashback=False, hint="A done  B again  C more", **st):
    return {"screen": "flip", "cards": cards, "suit": suit, "net": net, "level": level, "resolving": resolving,
            "tied": tied if tied is not None else ([resolving] if resolving is not None else []),
            "selected": selected, "phase": phase, "flashback": flashback, "words": words, "note": note,
            "status": status(**st), "hint": hint}


def home(attr, suit, net, move=None, **st):
    return {"screen": "home", "attr": attr, "suit": suit, "net": net, "move": move, "status": status(**st),
            "hint": "A attr  B flip  C menu"}


# A list (not a dict: MicroPython dicts do not keep insertion order).
VIEWS = [
    ("home", home("str", "crown", 1, "Fight")),
    ("home_dex_anvil", home("dex", "anvil", -2)),
    ("home_int_blade", home("int", "blade", 0, "Know Things")),
    ("home_str_dragon", home("str", "dragon", 6)),
    ("home_incap", home("dex", "blade", 0, None, incapacitated="3rd Wound", battery=3.35, draw=3)),
    ("home_dw", home("str", "crown", 1, "Fight", edition="dw-lucky")),
    ("home_no_battery", home("int", "dragon", -1, None, battery=None, name="")),
    ("flip_single_crown", flip(["4"], "crown", 0, 3, 0, "SUCCESS", note="with a complication")),
    ("flip_advantage", flip(["9", "13"], "dragon", 1, 4, 1, "SUCCESS")),
    ("flip_three_tie", flip(["3", "14", "7"], "blade", 2, 4, 0, "SUCCESS", tied=[0, 1])),
    ("flip_choose_tie", flip(["9", "5", "1"], "crown", -2, 1, None, "MISS", tied=[0, 2], selected=2,
                             phase="choose", note="tie: choose the card that resolves", hint="UP/DN pick  B choose")),
    ("flip_crit_success", flip(["11"], "anvil", 0, 4, 0, "CRITICAL SUCCESS", note="level up a move or take a blessing")),
    ("flip_crit_fail", flip(["1"], "dragon", 0, 1, 0, "MISS", note="critical failure: GM makes a move")),
    ("flip_wound_stopped", flip(["6", "pw1"], "crown", 2, 2, 0, "SUCCESS + SHADOW",
                                note="wound card: flip stopped, -1 Stamina")),
    ("flip_flashback", flip(["16"], "blade", 0, 2, 0, "SUCCESS + SHADOW", flashback=True, note="XP +1")),
    ("flip_blessings", flip(["pb5", "b1", "w1"], "anvil", -2, 1, 2, "MISS", note="wound card: flip stopped")),
    ("flip_dw", flip(["12", "20"], "blade", 1, 3, 0, "SUCCESS", tied=[0, 1], edition="dw-heroic")),
    ("flip_undecided", flip(["2", "8", "17"], "crown", 2, 0, None, "CHOOSE", tied=[], selected=1, phase="choose")),
    ("menu", {"screen": "menu", "title": "Menu", "items": ["Flip", "Reshuffle", "Take a Breather", "Rest",
              "Seek Help", "Take Harm", "Lose Stamina", "Character sheet", "Edition", "Connect to table"],
              "selected": 6, "status": status(), "hint": "UP/DN move  B choose  A back"}),
    ("menu_short", {"screen": "menu", "title": "Edition", "items": ["1kFA (markdown guide)", "1kFA 0.93",
                    "DW Lucky", "DW Heroic"], "selected": 0, "status": status(), "hint": "B choose  A back"}),
    ("number", {"screen": "number", "title": "Attack power", "value": 7, "unit": "dmg", "status": status(),
                "hint": "UP/DOWN change  B ok"}),
    ("message", {"screen": "message", "title": "Reshuffled", "lines": ["Deck shuffled: 18 cards.",
                 "Discard pile is empty.", "", "Mandatory reshuffle at 5 cards."], "hint": "B ok"}),
    ("minigame_pick_locks", {"screen": "minigame", "kind": "pick_locks", "cards": ["4", "9", "14"], "selected": 1,
                             "solvable": True, "status": status(), "hint": "LEFT/RIGHT card  B done"}),
    ("minigame_magic", {"screen": "minigame", "kind": "magic", "cards": ["2", "7", "pb1", "pw2"], "selected": 0,
                        "solvable": False, "status": status(), "hint": "B flip again  A give up"}),
    ("entry", {"screen": "entry", "title": "New move's name", "text": "Defy Dange", "letter": "r",
               "status": status(), "hint": "UP/DN letter B take A rub out C done"}),
    ("entry_long", {"screen": "entry", "title": "New move's name", "text": "Abcdefghijklmnopqrstuvwxyz",
                    "letter": "Q", "status": status(), "hint": ""}),
    ("sheet", {"screen": "sheet", "attrs": {"str": "crown", "dex": "anvil", "int": "dragon"},
               "moves": [["Fight", 1], ["Flee", 0], ["Sneak", -1], ["Know Things", 2], ["Charm", 0],
                         ["Shoot", -2], ["Climb", 0], ["Heal", 1], ["Pick Locks", 0]],
               "selected": 3, "status": status(), "hint": "UP/DOWN move  A back"}),
    ("unknown", {"screen": "bogus", "hint": "A back"}),
    ("bad_flip", {"screen": "flip", "cards": ["99", None, 5], "suit": "spade", "net": "x", "level": 9,
                  "resolving": 7, "tied": "no", "words": 12345678901234567890, "status": None}),
    ("bad_types", {"screen": "menu", "title": None, "items": None, "selected": "x", "status": []}),
    ("not_a_dict", ["screen", "home"]),
    ("long_strings", {"screen": "home", "attr": "strength", "suit": "crown", "net": 99, "move": "M" * 200,
                      "status": status(name="N" * 80, incapacitated="R" * 80, draw=12345), "hint": "H" * 100}),
]


def write_all(views, outdir):
    r = _renderer()
    for name, view in views:
        buf = r.render(view)
        with open(outdir + "/" + name + ".bin", "wb") as f:
            f.write(buf)
        print("ok", name)


def cards_everywhere():
    """Every card id in every flip slot and mini-game slot, every suit
    chosen, resolving and cursor on and off; the buffer never changes size."""
    r = _renderer(bytearray(4736 + 64))
    guard = bytes(range(64))
    r.buf[4736:] = guard

    import layout as L
    from shared_rules.deck.cards import ALL_IDS, SUITS

    n = 0
    slots = []
    for k in (1, 2, 3):
        slots.extend(L.FLIP_SLOTS[k])
    for k in (1, 2, 3, 4, 5):
        slots.extend(L.MINI_SLOTS[k])
    for cid in ALL_IDS:
        for slot in slots:
            for suit in SUITS + (None,):
                r.render_card(cid, slot[0], slot[1], slot[2], slot[3], suit, suit == "crown", suit == "blade")
                n += 1
            r._corner_card(cid, slot[0], slot[1], slot[2], slot[3], True)
    for ed in ("md", "v093", "dw-lucky", "dw-heroic"):
        for cid in ALL_IDS:
            r.render({"screen": "flip", "cards": [cid, cid, cid], "suit": "dragon", "net": 2, "level": 4,
                      "resolving": 1, "tied": [0, 1, 2], "selected": 2, "words": "SUCCESS",
                      "status": status(edition=ed)})
            n += 1
    for name, view in VIEWS:
        r.render(view)
        n += 1
    assert len(r.buf) == 4736 + 64, len(r.buf)
    assert bytes(r.buf[4736:]) == guard, "a drawing wrote past the 4736-byte panel buffer"
    print("cards ok %d %d" % (len(ALL_IDS), n))


def bench():
    import time

    _paths()
    gc.collect()
    h0 = gc.mem_alloc()
    import shared_rules.deck.cards  # noqa: F401  (the app loads these anyway)
    import shared_rules.deck.editions  # noqa: F401

    gc.collect()
    h1 = gc.mem_alloc()
    from render import Renderer

    gc.collect()
    h2 = gc.mem_alloc()
    r = Renderer()
    gc.collect()
    h3 = gc.mem_alloc()
    print("heap: shared_rules.deck.cards + editions %d bytes; then firmware.render (+ layout, glyphs) %d bytes;"
          " one Renderer (4736-byte buffer included) %d bytes" % (h1 - h0, h2 - h1, h3 - h2))
    for name, view in VIEWS:
        if not name.startswith("flip_"):
            continue
        times = []
        for _ in range(200):
            t0 = time.ticks_us()
            r.render(view)
            times.append(time.ticks_diff(time.ticks_us(), t0))
        times.sort()
        print("render %-20s median %6d us  (min %d, max %d)" % (name, times[100], times[0], times[-1]))
    gc.collect()
    a0 = gc.mem_alloc()
    gc.disable()
    r.render(dict(VIEWS)["flip_three_tie"])
    a1 = gc.mem_alloc()
    gc.enable()
    print("heap allocated by one 3-card flip render: %d bytes" % (a1 - a0))


def fuzz():
    """Every key of every view (and of its status) replaced by junk values:
    render must draw the screen with defaults, never fall back to its
    "Screen error" page. Prints "fuzz ok N" or the failing cases."""
    r = _renderer()
    import render as R

    errors = []
    where = [None]
    orig = R.Renderer._message

    def spy(self, title, lines, hint):
        if title == "Screen error":
            errors.append((where[0], lines))
        return orig(self, title, lines, hint)

    R.Renderer._message = spy
    junk = [None, 0, -1, 99, -(10 ** 30), "x", "", [], {}, [1, "2"], {"a": 1}, 3.5, float("nan"), float("inf"),
            True, "9" * 300, ["1", "2", "3", "4"], ("4",), [None, [None]]]
    n = 0
    try:
        for name, view in VIEWS:
            if not isinstance(view, dict):
                continue
            st = view.get("status")
            for key in sorted(view):
                for j in junk:
                    v = dict(view)
                    v[key] = j
                    where[0] = (name, key, j)
                    r.render(v)
                    n += 1
            if isinstance(st, dict):
                for key in sorted(st):
                    for j in junk:
                        v = dict(view)
                        s2 = dict(st)
                        s2[key] = j
                        v["status"] = s2
                        where[0] = (name, "status." + key, j)
                        r.render(v)
                        n += 1
    finally:
        R.Renderer._message = orig
    for e in errors[:20]:
        print("FAIL", e)
    if not errors:
        print("fuzz ok %d" % n)
    return 1 if errors else 0


def vlsb():
    """Every view drawn on a MONO_VLSB Canvas (the Pico's panel layout) and
    read back as a frame equals the plain MONO_HLSB render. Prints "vlsb ok
    N" or the views that differ."""
    import framebuf

    r = _renderer()
    import render as R

    from drivers import ink

    canvas = R.Canvas(bytearray(len(r.buf)), framebuf.MONO_VLSB)
    canvas.ink = ink  # as the Pico board draws
    rv = R.Renderer(fb=canvas)
    bad = []
    for name, view in VIEWS:
        if bytes(r.render(view)) != bytes(rv.render(view).to_bytes()):
            bad.append(name)
    for name in bad:
        print("FAIL", name)
    if not bad:
        print("vlsb ok %d" % len(VIEWS))
    return 1 if bad else 0


def ink(trials=300, seed=1):
    """Random text (ASCII and not), scaled text and glyphs.py bitmaps, in
    both colours, at scales 1-6, at positions in and off every edge, over
    random rectangles: drawn on a MONO_VLSB Canvas in native code
    (drivers/ink.py) and with framebuf (the same Canvas with its ink
    taken away) they must leave the same bytes, and the frame's bits flipped
    for the SSD1680 by drivers/invert.py must be framebuf's. Prints "ink ok N"."""
    import framebuf
    import random

    _renderer()
    import glyphs as G
    import render as R
    from drivers import ink as native
    from drivers import vlsb
    from drivers.invert import invert as native_invert

    for odd in (bytearray(L_BUF - 2), memoryview(bytearray(L_BUF))[1:]):  # never a word store off a boundary
        try:
            native_invert(odd)
        except ValueError:
            continue
        print("FAIL native invert took %d bytes not whole words" % len(odd))
        return 1

    random.seed(seed)
    from deck import card_art

    bitmaps = [v for m in (G, card_art) for v in (getattr(m, k) for k in dir(m))
               if isinstance(v, tuple) and len(v) == 3 and isinstance(v[2], bytes)]
    chars = "AZaz09 +-!~\u00e9\u20ac\U0001f600\t"
    for trial in range(trials):
        pair = []
        for with_ink in (True, False):
            canvas = R.Canvas(bytearray(L_BUF), framebuf.MONO_VLSB)
            if with_ink:
                canvas.ink = native
            pair.append((canvas, R.Renderer(fb=canvas)))
        ops = []
        for _ in range(6):
            x, y = random.randint(-60, 310), random.randint(-50, 140)
            c, scale, what = random.randint(0, 1), random.randint(1, 6), random.randint(0, 3)
            if what < 2:
                s = "".join(random.choice(chars) for _ in range(random.randint(0, 12)))
                ops.append(("text", s, x, y, c, scale if what else 1))
            elif what == 2:
                ops.append(("bitmap", random.choice(bitmaps), x, y, c, scale))
            else:
                ops.append(("rect", random.randint(1, 90), random.randint(1, 50), x, y, c))
        for canvas, r in pair:
            for op in ops:
                if op[0] == "text":
                    r.text_big(op[1], op[2], op[3], op[5], op[4])
                elif op[0] == "bitmap":
                    G.blit(canvas, op[1], op[2], op[3], op[4], op[5])
                else:
                    canvas.fill_rect(op[3], op[4], op[1], op[2], op[5])
        if pair[0][0].buf != pair[1][0].buf:
            print("FAIL trial %d: %r" % (trial, ops))
            return 1
        # the frame's way to the SSD1680: its bits flipped in place, natively
        # as by framebuf, and back
        drawn = bytes(pair[0][0].buf)
        ways = [bytearray(drawn), bytearray(drawn)]
        native_invert(ways[0])
        vlsb.invert(ways[1])
        if ways[0] != ways[1] or ways[0] != bytes(b ^ 0xFF for b in drawn):
            print("FAIL trial %d: the frame's bits flipped differently" % trial)
            return 1
        native_invert(ways[0])
        if ways[0] != drawn:
            print("FAIL trial %d: flipped twice is not the frame" % trial)
            return 1
    # images from a source at every alignment (a card face lies in ROMFS
    # wherever the image puts it) onto columns on and off word boundaries,
    # clipped at both edges
    bg = bytes(random.getrandbits(8) for _ in range(L_BUF))
    n = 0
    for shift in range(4):
        for w in (80, 13, 8, 5):
            img = bytes(random.getrandbits(8) for _ in range(2 * w))
            src = memoryview(bytes(shift) + img + bytes(3))[shift:shift + len(img)]
            for x in (0, 4, 84, 168, 3, -8, -5, 250, 292):
                for y in (8, 0, 3, -8, 120):  # on a band and off one, clipped
                    got, want = bytearray(bg), bytearray(bg)
                    native.blit(got, src, w, 2, x, y, 1, 1)
                    framebuf.FrameBuffer(want, 296, 128, framebuf.MONO_VLSB).blit(
                        (bytearray(img), w, 16, framebuf.MONO_VLSB), x, y, 0)
                    n += 1
                    if got != want:
                        print("FAIL a %d-column image %d bytes off a word, at (%d, %d)" % (w, shift, x, y))
                        return 1
    print("ink ok %d" % (trials + n))
    return 0


def faces():
    """Every card with its face made at build time (card_art.faces, as
    host_tools/flashing/card_faces.py makes them for a board) equals the card drawn
    piece by piece: in every flip slot, with no suit and each suit chosen,
    resolving, under the cursor, over paper and over ink, under each
    edition's symbols; and every view of VIEWS. Prints "faces ok N"."""
    import framebuf

    _renderer()
    from deck import card_art
    import layout as L
    import render as R
    from drivers import ink as native
    from shared_rules.deck.cards import ALL_IDS, SUITS
    from shared_rules.deck.editions import EDITION_KEYS

    data = card_art.faces(R, native)
    pair = []
    for with_faces in (True, False):
        canvas = R.Canvas(bytearray(L_BUF), framebuf.MONO_VLSB)
        canvas.ink = native
        r = R.Renderer(fb=canvas)
        r.faces = memoryview(data) if with_faces else b""
        pair.append((canvas, r))
    n = 0
    for ed in EDITION_KEYS:
        for _, r in pair:
            r.edition = R.edition(ed)
        for cid in ALL_IDS:
            for slot in L.FLIP_SLOTS[3]:
                for suit in (None,) + SUITS:
                    for resolving, highlight in ((False, False), (True, False), (False, True)):
                        for under in (0, 1):
                            for canvas, r in pair:
                                canvas.fill(under)
                                r.render_card(cid, slot[0], slot[1], slot[2], slot[3], suit, resolving, highlight,
                                              under == 1)
                            n += 1
                            if pair[0][0].buf != pair[1][0].buf:
                                print("FAIL card %s at %r, suit %s, resolving %s, cursor %s, over %s, edition %s"
                                      % (cid, slot, suit, resolving, highlight, under, ed))
                                return 1
    for name, view in VIEWS:
        if bytes(pair[0][1].render(view).buf) != bytes(pair[1][1].render(view).buf):
            print("FAIL view %s" % name)
            return 1
        n += 1
    # and the faces were drawn from: blank ones leave a card without its marks
    pair[0][1].faces = memoryview(bytes(len(data)))
    for canvas, r in pair:
        canvas.fill(0)
        r.render_card("11", 0, 0, L.CARD_W, L.CARD_H)
    if pair[0][0].buf == pair[1][0].buf:
        print("FAIL the prebuilt faces are not what render_card draws")
        return 1
    print("faces ok %d" % n)
    return 0


L_BUF = 296 * 128 // 8


def load_json(path):
    import json

    with open(path) as f:
        data = json.load(f)
    return [(str(item[0]), item[1]) for item in data]


def main(args):
    if args and args[0] == "--cards":
        cards_everywhere()
        return 0
    if args and args[0] == "--fuzz":
        return fuzz()
    if args and args[0] == "--vlsb":
        return vlsb()
    if args and args[0] == "--ink":
        return ink()
    if args and args[0] == "--faces":
        return faces()
    if args and args[0] == "--bench":
        bench()
        return 0
    if not args:
        print(__doc__)
        return 2
    views = load_json(args[1]) if len(args) > 1 else VIEWS
    write_all(views, args[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Device screens as PNG images, on the host (CPython + Pillow).

The renderer itself (firmware/render.py) runs only under MicroPython: this
module runs it in the MicroPython unix port beside the venv's Python (or on
PATH) through tests/screens_mp.py, then turns the raw 1-bit buffers into
images.

    python -m host_tools.screens docs/screens        regenerate the documentation PNGs

API: ``to_image(buf)``, ``save_png(buf, path, scale=2)``,
``render_views(views)`` -> {name: buffer}, ``render_views_to_pngs(views, outdir)``.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 296, 128
SCRIPT = "tests/screens_mp.py"


def to_image(buf, width=WIDTH, height=HEIGHT):
    """A Pillow mode "1" image of a MONO_HLSB buffer: black where a bit is 1."""
    from PIL import Image

    stride = (width + 7) // 8
    need = stride * height
    if len(buf) < need:
        raise ValueError("buffer has %d bytes, a %dx%d screen needs %d" % (len(buf), width, height, need))
    # Pillow's "1" raw mode packs 8 pixels a byte, MSB first, 1 = white:
    # the panel's 1 = black, so invert.
    data = bytes(b ^ 0xFF for b in bytes(buf[:need]))
    return Image.frombytes("1", (width, height), data, "raw", "1", stride)


def save_png(buf, path, scale=2, width=WIDTH, height=HEIGHT):
    """Write the buffer as a PNG, scaled up (nearest neighbour) for reading."""
    from PIL import Image

    img = to_image(buf, width, height)
    if scale and scale != 1:
        img = img.resize((width * scale, height * scale), Image.NEAREST)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    img.save(str(path))
    return str(path)


def find_micropython():
    """The MicroPython unix port: beside sys.executable (the venv), else PATH."""
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    found = shutil.which("micropython")
    if found:
        return found
    raise RuntimeError("micropython (the unix port) is not installed: run `make setup`")


def _check_names(views):
    seen = set()
    for name, _ in views:
        if not name or "/" in name or "\\" in name or name.startswith(".") or name in seen:
            raise ValueError("bad or repeated screen name %r" % (name,))
        seen.add(name)


def render_views(views, timeout=120):
    """Render ``views`` (a list of (name, view) pairs, or a dict) on the
    device renderer; returns {name: 4736-byte buffer}."""
    if isinstance(views, dict):
        views = sorted(views.items())
    views = [(str(n), v) for n, v in views]
    _check_names(views)
    with tempfile.TemporaryDirectory(prefix="screens_") as tmp:
        vpath = os.path.join(tmp, "views.json")
        with open(vpath, "w") as f:
            json.dump([[n, v] for n, v in views], f)
        outdir = os.path.join(tmp, "out")
        os.mkdir(outdir)
        proc = subprocess.run([find_micropython(), SCRIPT, outdir, vpath], cwd=str(ROOT),
                              capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            raise RuntimeError("rendering under MicroPython failed (exit %d):\n%s%s"
                               % (proc.returncode, proc.stdout, proc.stderr))
        out = {}
        for name, _ in views:
            with open(os.path.join(outdir, name + ".bin"), "rb") as f:
                out[name] = f.read()
        return out


def render_views_to_pngs(views, outdir, scale=2):
    """Render the views and write OUTDIR/<name>.png for each; returns the paths."""
    bufs = render_views(views)
    paths = []
    for name, buf in bufs.items():
        paths.append(save_png(buf, Path(outdir) / (name + ".png"), scale))
    return paths


# ---------------------------------------------------------------- glyph art

def pack_art(rows):
    """ASCII art ('#' ink, '.' paper) -> (w, h, bytes) in glyphs.py's format."""
    rows = [r.strip() for r in rows if r.strip()]
    w = len(rows[0])
    out = bytearray()
    for r in rows:
        if len(r) != w:
            raise ValueError("ragged art row %r" % r)
        for b in range((w + 7) // 8):
            v = 0
            for i in range(8):
                c = b * 8 + i
                if c < w and r[c] == "#":
                    v |= 0x80 >> i
            out.append(v)
    return w, len(rows), bytes(out)


def unpack_art(bm):
    """(w, h, bytes) -> list of ASCII art rows."""
    w, h, data = bm
    bpr = (w + 7) // 8
    return ["".join("#" if data[r * bpr + (c >> 3)] & (0x80 >> (c & 7)) else "." for c in range(w)) for r in range(h)]


# ---------------------------------------------------------------- the documentation screens

def _status(**kw):
    st = {"draw": 14, "discard": 4, "exhaustion": 2, "xp": 3, "harm": 1, "wounds": 0, "shadow": 2,
          "incapacitated": "", "edition": "md", "battery": 3.9, "name": "Kresk"}
    st.update(kw)
    return st


def _flip(cards, suit, net, level, resolving, words, tied=None, selected=None, phase="open", note="",
          flashback=False, hint="A done  B again  C more", **st):
    return {"screen": "flip", "cards": cards, "suit": suit, "net": net, "level": level, "resolving": resolving,
            "tied": tied if tied is not None else ([resolving] if resolving is not None else []),
            "selected": selected, "phase": phase, "flashback": flashback, "words": words, "note": note,
            "status": _status(**st), "hint": hint}


DOC_VIEWS = [
    ("flip_single_crown", _flip(["4"], "crown", 0, 3, 0, "SUCCESS", note="with a complication")),
    ("flip_advantage", _flip(["9", "13"], "dragon", 1, 4, 1, "SUCCESS")),
    ("flip_three_tie", _flip(["3", "14", "7"], "blade", 2, 4, 0, "SUCCESS", tied=[0, 1],
                             note="tie: both show 3 ticks")),
    ("flip_choose_tie", _flip(["9", "5", "1"], "crown", -2, 1, None, "MISS", tied=[0, 2], selected=2,
                              phase="choose", note="tie: choose the card that resolves")),
    ("flip_crit_success", _flip(["11"], "anvil", 0, 4, 0, "CRITICAL SUCCESS",
                                note="level up a move or take a blessing")),
    ("flip_crit_fail", _flip(["1"], "dragon", 0, 1, 0, "MISS", note="critical failure: GM makes a move")),
    ("flip_wound_stopped", _flip(["6", "pw1"], "crown", 2, 2, 0, "SUCCESS + SHADOW",
                                 note="wound card: flip stopped, -1 Stamina")),
    ("flip_flashback", _flip(["16"], "blade", 0, 2, 0, "SUCCESS + SHADOW", flashback=True, note="XP +1")),
    ("flip_blessing_wound_cards", _flip(["pb5", "b1", "w1"], "anvil", -2, 1, 2, "MISS",
                                        note="wound card: flip stopped")),
    ("flip_dw_edition", _flip(["12", "20"], "blade", 1, 3, 0, "SUCCESS", tied=[0, 1], edition="dw-lucky",
                              note="Deckahedron World suits")),
    ("home", {"screen": "home", "attr": "str", "suit": "crown", "net": 1, "move": "Fight",
              "status": _status(), "hint": "A attr  B flip  C menu"}),
    ("home_incapacitated", {"screen": "home", "attr": "dex", "suit": "blade", "net": -2, "move": None,
                            "status": _status(incapacitated="3rd Wound", draw=3, battery=3.4),
                            "hint": "A attr  B flip  C menu"}),
    ("menu", {"screen": "menu", "title": "Menu", "items": ["Flip", "Reshuffle", "Take a Breather", "Rest",
              "Seek Help", "Take Harm", "Lose Stamina", "Character sheet", "Edition", "Connect to table"],
              "selected": 6, "status": _status(), "hint": "UP/DN move  B choose  A back"}),
    ("number", {"screen": "number", "title": "Attack power", "value": 7, "unit": "dmg", "status": _status(),
                "hint": "UP/DOWN change  B ok"}),
    ("message", {"screen": "message", "title": "Reshuffled", "lines": ["Deck shuffled: 18 cards.",
                 "Discard pile is empty.", "", "Mandatory reshuffle at 5 cards."], "hint": "B ok"}),
    ("minigame_pick_locks", {"screen": "minigame", "kind": "pick_locks", "cards": ["4", "9", "14"],
                             "selected": 1, "solvable": True, "status": _status(),
                             "hint": "LEFT/RIGHT card  B done"}),
    ("minigame_magic", {"screen": "minigame", "kind": "magic", "cards": ["2", "7", "pb1", "pw2"], "selected": 0,
                        "solvable": False, "status": _status(), "hint": "B flip again  A give up"}),
    ("sheet", {"screen": "sheet", "attrs": {"str": "crown", "dex": "anvil", "int": "dragon"},
               "moves": [["Fight", 1], ["Flee", 0], ["Sneak", -1], ["Know Things", 2], ["Charm", 0],
                         ["Shoot", -2], ["Climb", 0], ["Heal", 1], ["Pick Locks", 0]],
               "selected": 3, "status": _status(), "hint": "UP/DOWN move  A back"}),
]


def _all_cards_views():
    from shared_rules.cards import ALL_IDS

    ids = list(ALL_IDS)
    views = []
    for k in range(0, len(ids), 3):
        group = ids[k:k + 3]
        views.append((group, {"screen": "flip", "cards": group, "suit": None, "net": 0, "level": 0,
                              "resolving": None, "tied": [], "words": "", "status": _status(), "hint": ""}))
    return views


def card_sheet(path, columns=7, scale=2, edition="md"):
    """Every card face (the 20 Deckahedron cards, then the blessing and wound
    cards) cut from 3-card flip screens, in a labelled grid."""
    from PIL import Image, ImageDraw

    from firmware import layout as L

    groups = _all_cards_views()
    for _, v in groups:
        v["status"]["edition"] = edition
    bufs = render_views([("cards_%02d" % i, v) for i, (_, v) in enumerate(groups)])
    faces = []
    for i, (ids, _) in enumerate(groups):
        img = to_image(bufs["cards_%02d" % i])
        for j, cid in enumerate(ids):
            x, y, w, h = L.FLIP_SLOTS[3][j]
            faces.append((cid, img.crop((x, y, x + w, y + h))))
    cw, ch = L.CARD_W * scale, L.CARD_H * scale
    pad, label = 10, 16
    rows = (len(faces) + columns - 1) // columns
    sheet = Image.new("L", (columns * (cw + pad) + pad, rows * (ch + pad + label) + pad), 255)
    draw = ImageDraw.Draw(sheet)
    for k, (cid, face) in enumerate(faces):
        x = pad + (k % columns) * (cw + pad)
        y = pad + (k // columns) * (ch + pad + label)
        sheet.paste(face.convert("L").resize((cw, ch), Image.NEAREST), (x, y))
        draw.text((x + cw // 2 - 4 * len(cid), y + ch + 2), cid, fill=0)
    sheet.save(str(path))
    return str(path)


def write_docs(outdir):
    """The PNGs of docs/screens/, plus all_cards.png (every face)."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    paths = render_views_to_pngs(DOC_VIEWS, outdir)
    paths.append(card_sheet(outdir / "all_cards.png"))
    paths.append(card_sheet(outdir / "all_cards_dw.png", edition="dw-lucky"))
    return paths


def main(argv=None):
    import argparse

    p = argparse.ArgumentParser(prog="python -m host_tools.screens",
                                description="Render the device screens to PNG (runs the MicroPython renderer).")
    p.add_argument("outdir", nargs="?", default="docs/screens", help="where to write the PNGs (default docs/screens)")
    p.add_argument("--views", help="a JSON file: a list of [name, view] pairs to render instead of the doc set")
    p.add_argument("--scale", type=int, default=2, help="pixel scale of the PNGs (default 2)")
    a = p.parse_args(argv)
    try:
        if a.views:
            with open(a.views) as f:
                views = [(str(n), v) for n, v in json.load(f)]
            paths = render_views_to_pngs(views, a.outdir, a.scale)
        else:
            paths = write_docs(a.outdir)
    except (OSError, ValueError, RuntimeError) as e:
        print("screens: %s" % e, file=sys.stderr)
        return 1
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Device screens as PNG images, on the host (CPython + Pillow).

The renderer itself (firmware/render.py) runs only under MicroPython: this
module runs it in the MicroPython unix port beside the venv's Python (or on
PATH) through host_tools/screens/mp_render.py, then turns the raw 1-bit buffers into
images.

    python -m host_tools.screens.core docs/screens        regenerate the documentation PNGs

API: ``to_image(buf)``, ``png_bytes(buf)``, ``save_png(buf, path, scale=2)``,
``render_views(views)`` -> {name: buffer}, ``render_views_to_pngs(views, outdir)``.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from shared_rules import systems

import host_tools
from host_tools import firmware_importable, system_module

firmware_importable()
from boards import Board  # noqa: E402  (the device's board contract)

ROOT = Path(host_tools.ROOT)
WIDTH, HEIGHT = 296, 128
SCRIPT = "host_tools/screens/mp_render.py"


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


def scaled(buf, width=WIDTH, height=HEIGHT, scale=2):
    """to_image scaled up (nearest neighbour) for reading."""
    from PIL import Image

    img = to_image(buf, width, height)
    if scale and scale != 1:
        img = img.resize((width * scale, height * scale), Image.NEAREST)
    return img


def png_bytes(buf, width=WIDTH, height=HEIGHT, scale=2):
    """The buffer as PNG file contents (the table's screens: console, scene, page)."""
    import io

    out = io.BytesIO()
    scaled(buf, width, height, scale).save(out, "PNG")
    return out.getvalue()


def save_png(buf, path, scale=2, width=WIDTH, height=HEIGHT):
    """Write the buffer as a PNG, scaled up (nearest neighbour) for reading."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    scaled(buf, width, height, scale).save(str(path))
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
    """A status line for views that are not made by the firmware (the card sheet)."""
    st = {"draw": 14, "discard": 4, "exhaustion": 2, "xp": 3, "harm": 1, "wounds": 0, "shadow": 2,
          "incapacitated": "", "edition": "md", "battery": 3.9, "name": "Kresk"}
    st.update(kw)
    return st


class _DocBoard(Board):
    """Just enough board for the real firmware App to run on CPython."""

    name = "docs"

    def __init__(self, folder):
        self.flash_dir = folder

    def serial_read(self, timeout_ms):
        return b""

    def serial_write(self, text):
        pass

    def buttons(self):
        return ()

    def show(self, buf, mode):
        pass

    def battery(self):
        return 3.9

    def entropy(self):
        return 7


def _all_cards_views():
    from shared_rules.deck.cards import ALL_IDS

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

    import layout as L

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


def doc_views():
    """[(name, view)] of every doc screen: each system's scenes
    (host_tools/screens/<its folder>.py)."""
    views = []
    for key in systems.KEYS:
        views += system_module("screens", key).views()
    return views


def write_docs(outdir):
    """The PNGs of docs/screens/, plus all_cards.png (every face)."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    paths = render_views_to_pngs(doc_views(), outdir)
    paths.append(card_sheet(outdir / "all_cards.png"))
    paths.append(card_sheet(outdir / "all_cards_dw.png", edition="dw-lucky"))
    return paths


def main(argv=None):
    import argparse

    p = argparse.ArgumentParser(prog="python -m host_tools.screens.core",
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

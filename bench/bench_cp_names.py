"""Where CircuitPython's heap goes before any code runs: the interned names and
the string constants of the game's .mpy files, read from the files the
flasher lays on CIRCUITPY (host_tools/flashing/magtag.py board_files).

    python bench/bench_cp_names.py [--board pico-epaper29-cp] [--qstrdefs FILE]

CircuitPython loads a .mpy into RAM (no ROMFS). Two of its costs grow with
the code and are counted here, per game system, at boot and over every
module a session may load:

- names: each name a module uses that CircuitPython's image does not
  already hold is interned for good (a module released later keeps its
  names). Interned names live in pools that double, from 20 entries: the
  1,261st needs a new pool of 1,280 entries, one block of about 7.7 KB
  (py/qstr.c), asked for at whatever moment that name is loaded;
- string constants that are not names: each a heap object (16 bytes) and
  its text in 16-byte blocks.

--qstrdefs is the CircuitPython build's genhdr/qstrdefs.generated.h (its
static names); `make circuitpython-image` leaves it in the cache's
build-circuitpython/build-raspberry_pi_pico/genhdr/. Without it every name
counts as new, an upper bound. The boot modules are the ones the app has
imported when its home screen is up on the unix port (the board's own
modules swapped for the CircuitPython board's).
"""

import argparse
import collections
import io
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from host_tools import FIRMWARE_MAIN  # noqa: E402
from host_tools import boards as registry  # noqa: E402
from host_tools.flashing import magtag, rp2040  # noqa: E402
from host_tools.sim.unixport import find_micropython  # noqa: E402
from shared_rules import systems  # noqa: E402

VERSION = "10.2.1"
POOL_CLIFF = sum(20 << i for i in range(6))  # 20 + 40 + ... + 640 = 1,260 names before the 1,280-entry pool
STR, BYTES, TUPLE = 5, 6, 10  # persistent object types (py/persistentcode.h)
BOOT_PROBE = r"""
import sys
flash, main = sys.argv[1], sys.argv[2]
sys.argv[:] = ["main.py", "--board", "sim", "--dir", flash, "--id", "census", "--seed", "3"]
import app
run = app.App.run
def listed(self, booted=None):
    def at_home():
        if booted:
            booted()
        print("MODULES", " ".join(sorted(sys.modules)))
        sys.exit(0)
    return run(self, at_home)
app.App.run = listed
exec(open(main).read())
"""


def _uint(f):
    v = 0
    while True:
        b = f.read(1)[0]
        v = (v << 7) | (b & 0x7F)
        if not b & 0x80:
            return v


def read_mpy(data):
    """(names, string constants) of a .mpy: the qstr table's own names (not the
    mpy format's static ones) and the str objects of its constant table."""
    f = io.BytesIO(data)
    header = f.read(4)
    if header[2] & 0x40:  # architecture flags follow
        _uint(f)
    n_names, n_objects = _uint(f), _uint(f)
    names = []
    for _ in range(n_names):
        n = _uint(f)
        if not n & 1:
            names.append(f.read(n >> 1).decode())
            f.read(1)
    strings = []

    def obj():
        kind = f.read(1)[0]
        if kind < STR:  # the function table, None, False, True, Ellipsis
            return
        if kind == TUPLE:
            for _ in range(_uint(f)):
                obj()
            return
        text = f.read(_uint(f))
        if kind in (STR, BYTES):
            f.read(1)
        if kind == STR:
            strings.append(text.decode())

    for _ in range(n_objects):
        obj()
    return names, strings


def heap_of_string(text):
    return 16 + (len(text.encode()) + 1 + 15) // 16 * 16


def static_names(qstrdefs):
    if not qstrdefs:
        return set()
    out = set()
    for line in Path(qstrdefs).read_text().splitlines():
        m = re.match(r'QDEF[01]\(MP_QSTR_\w*, \d+, \d+, "(.*)"\)', line)
        if m:
            out.add(m.group(1).encode().decode("unicode_escape"))
    return out


def boot_modules(board):
    """Module paths (a/b) the app holds at its home screen, on the unix port."""
    import tempfile

    with tempfile.TemporaryDirectory() as flash, tempfile.NamedTemporaryFile("w", suffix=".py") as probe:
        probe.write(BOOT_PROBE)
        probe.flush()
        env = dict(os.environ, MICROPYPATH=":".join((str(ROOT / "firmware"), str(ROOT))))
        out = subprocess.run([find_micropython(), probe.name, flash, FIRMWARE_MAIN],
                             capture_output=True, text=True, timeout=120, env=env).stdout
    line = next((ln for ln in out.splitlines() if ln.startswith("MODULES ")), None)
    if line is None:
        raise SystemExit("bench_cp_names: the unix port did not reach the home screen:\n" + out)
    mods = [m.replace(".", "/") for m in line.split()[1:] if m not in ("boards.sim", "start")]
    entry = registry.board(board)
    return mods + [entry["module"].replace(".", "/"), "boards/circuitpython", "surface"] + \
        ["lib/" + m for m in sorted(entry.get("libraries") or {})]


def census(board, qstrdefs=None):
    files = {p: read_mpy(d) for p, d in magtag.board_files(VERSION, board=board).items() if p.endswith(".mpy")}
    static = static_names(qstrdefs)
    boot = [p for m in boot_modules(board) for p in (m + ".mpy", m + "/__init__.mpy") if p in files]
    folders = [systems.folder(k) for k in systems.KEYS]
    rows = []
    for key in systems.KEYS:
        others = tuple(p for f in folders if f != systems.folder(key) for p in (f + "/", "shared_rules/%s/" % f))
        mine = [p for p in files if not p.startswith(others)]
        at_boot = [p for p in boot if p in mine] if key == systems.DEFAULT else None
        rows.append((key, at_boot, mine))
    out = []
    for key, at_boot, mine in rows:
        for label, paths in (("boot", at_boot), ("every module", mine)):
            if paths is None:
                continue
            names = set(n for p in paths for n in files[p][0]) - static
            strings = collections.Counter(s for p in paths for s in files[p][1] if s not in static and s not in names)
            heap = sum(k * heap_of_string(s) for s, k in strings.items())
            long_heap = sum(k * heap_of_string(s) for s, k in strings.items() if len(s) >= 30)
            by_module = sorted(((sum(heap_of_string(s) for s in files[p][1] if s in strings), p) for p in paths),
                               reverse=True)[:5]
            out.append({"system": key, "modules": label, "count": len(paths), "names": len(names),
                        "strings_heap": heap, "long_strings_heap": long_heap, "top": by_module})
    return out


def default_qstrdefs():
    """The static names `make circuitpython-image` left in the cache, or None."""
    path = rp2040.cache_dir() / "build-circuitpython" / "build-raspberry_pi_pico" / "genhdr" / "qstrdefs.generated.h"
    return str(path) if path.is_file() else None


def rows(board="pico-epaper29-cp", qstrdefs=None):
    """make bench's rows (name, label, value, goal)."""
    qstrdefs = qstrdefs or default_qstrdefs()
    out = []
    for r in census(board, qstrdefs):
        key = "cp.%s_%s" % (r["system"], "boot" if r["modules"] == "boot" else "all")
        where = "its boot modules" if r["modules"] == "boot" else "every module it may load"
        out.append((key + "_names", "CircuitPython Pico, %s, %s: names new to the image%s" % (
            r["system"], where, "" if qstrdefs else " (no qstrdefs: every name)"),
            "%d (%d modules)" % (r["names"], r["count"]), "<= %d (one pool)" % POOL_CLIFF))
        out.append((key + "_strings", "CircuitPython Pico, %s, %s: string constants' heap (those of 30+ characters)" % (
            r["system"], where), "%.1f KB (%.1f KB)" % (r["strings_heap"] / 1024, r["long_strings_heap"] / 1024), ""))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="pico-epaper29-cp")
    parser.add_argument("--qstrdefs", default=default_qstrdefs())
    a = parser.parse_args(argv)
    print("%s on CircuitPython %s; names new to the image: %s" % (
        a.board, VERSION, "against %s" % a.qstrdefs if a.qstrdefs else "every name (no --qstrdefs: an upper bound)"))
    for r in census(a.board, a.qstrdefs):
        print("%-8s %-12s %3d modules: %4d names (the 1,280-entry pool at %d), string constants ~%5d B of heap "
              "(%d B in those of 30+ characters); most: %s" % (
                  r["system"], r["modules"], r["count"], r["names"], POOL_CLIFF, r["strings_heap"],
                  r["long_strings_heap"], ", ".join("%s %d B" % (p, b) for b, p in r["top"][:3])))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Heap of the SAVE 2d6 system on the emulated Pico (MicroPython rp2 in
rp2040js, host_tools/sim/emulated.py), beside the Deckahedron's on the same
board and image.

    python bench/bench_save_pico.py [--rolls N] [--presses N]

1. The board boots with no save: a Deckahedron (heap_boot deck).
2. The host starts a SAVE hero over the link, rolls N times (a roll set
   aside on a two is declined), pushes three clocks, and the player presses
   through home, a roll, the menu, the clocks and the odds (heap after).
3. The board restarts on that save: it boots straight into SAVE, so only
   SAVE's modules are loaded (heap_boot save), and then plays again.

Heap figures are the firmware's own hello fields (heap_used, heap_free,
heap_low after a gc). Prints ``save.NAME: value unit`` lines. Skips (exit 0,
one line saying why) without the base image, the bootrom or Node.js.
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench_pico import WALL, press, wait_hello  # noqa: E402
from host_tools.sim.emulated import EmuBoard, unavailable  # noqa: E402
from host_tools.link import DeviceLink  # noqa: E402

ROLLS = 10
PRESSES = ("B", "A", "C", "DOWN", "DOWN", "B", "A", "C", "DOWN", "DOWN", "DOWN", "B", "A", "A")
CLOCKS = [{"name": "Ritual", "segments": 6, "filled": 2}, {"name": "Torches", "kind": "setback", "segments": 4,
                                                           "filled": 3},
          {"name": "Escape", "segments": 8, "filled": 8}]


def heap(info):
    return {k: info.get(k) for k in ("heap_used", "heap_free", "heap_low")}


def say(text):
    sys.stderr.write("%s\n" % text)
    sys.stderr.flush()


def play(board, rolls, presses):
    say("  %d rolls over the link, then %d presses" % (rolls, len(presses)))
    with DeviceLink(board.port, timeout=30.0) as link:
        link.request("set_clocks", clocks=CLOCKS)
        for _ in range(rolls):
            r = link.request("roll", preferred=True)
            if r.get("result") == "pending":
                link.request("decline")
    for b in presses:
        press(board, b)
    return heap(wait_hello(board.port))


def run(rolls, presses):
    out = {}
    with tempfile.TemporaryDirectory(prefix="deckahedron-save-bench-") as base:
        board = EmuBoard("save", str(Path(base) / "pico"), seed=7)
        try:
            say("boot (no save)")
            board.start()
            out["boot_deck"] = heap(wait_hello(board.port))
            with DeviceLink(board.port, timeout=30.0) as link:
                link.request("new_game", confirm=True, system="save", seed=7)
            out["after_play"] = play(board, rolls, presses)
            say("restart on the SAVE save")
            board.stop()
            board.start()
            info = wait_hello(board.port)
            if info.get("system") != "save":
                raise RuntimeError("the board did not boot into its SAVE save: %r" % info.get("system"))
            out["boot_save"] = heap(info)
            out["replay"] = play(board, rolls, presses)
        finally:
            board.close()
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rolls", type=int, default=ROLLS)
    p.add_argument("--presses", type=int, default=len(PRESSES))
    a = p.parse_args(argv)
    why = unavailable()
    if why:
        print("skipped: %s" % why)
        return 0
    t = time.monotonic()
    out = run(a.rolls, PRESSES[:a.presses])
    for stage, figures in out.items():
        for k, v in figures.items():
            print("save.%s_%s: %s bytes" % (stage, k, v))
    print("save.wall: %.0f s (limit %d s a step)" % (time.monotonic() - t, WALL))
    return 0


if __name__ == "__main__":
    sys.exit(main())

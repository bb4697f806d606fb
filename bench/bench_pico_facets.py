"""Heap and press figures of a Facets device on the emulated Pico
(MicroPython rp2 in rp2040js, host_tools/sim/emulated.py).

    python bench/bench_pico_facets.py [--presses N]

One board: it boots with a new Deckahedron character, is told to start a
Facets character (new_game system=facets), is restarted (so only what a
board playing Facets loads is in its heap), then plays N presses through
Facets' screens (rolls, the menu, the odds, the sheet). Heap figures come
from the firmware's hello (heap_used, heap_free, heap_low).

Prints ``pico.facets.NAME: value unit`` lines. Skips (exit 0, one line
saying why) without the base image, the bootrom or Node.js.
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for path in (str(ROOT), str(ROOT / "bench")):
    if path not in sys.path:
        sys.path.insert(0, path)

from host_tools.sim.emulated import EmuBoard, unavailable  # noqa: E402
from host_tools.link import DeviceLink  # noqa: E402

from bench_pico import NS, WALL, is_update, press, settle_flash, wait_hello  # noqa: E402

SEED = 7
# Roll, back; Menu > Odds; back; roll again; Menu > Character sheet; back.
PATTERN = ("B", "A", "C", "DOWN", "DOWN", "B", "A", "B", "A", "C") + ("DOWN",) * 6 + ("B", "A")


def kb(n):
    return "%.1f" % (n / 1024.0) if isinstance(n, int) else "-"


def main(argv=None):
    p = argparse.ArgumentParser(prog="python bench/bench_pico_facets.py")
    p.add_argument("--presses", type=int, default=len(PATTERN) * 2)
    a = p.parse_args(argv)
    why = unavailable()
    if why:
        print("skipped: %s" % why)
        return 0
    with tempfile.TemporaryDirectory() as base:
        board = EmuBoard("p1", str(Path(base) / "pico"), seed=SEED)
        try:
            board.start()
            board.wait_event(is_update, timeout=WALL)
            deck = wait_hello(board.port)
            with DeviceLink(board.port, timeout=30.0) as link:
                link.request("new_game", confirm=True, system="facets", seed=SEED)
            settle_flash(board)
            board.stop()
            board.start()  # a board whose save is a Facets character
            first = board.wait_event(is_update, timeout=WALL)
            boot = wait_hello(board.port)
            to_pixels = []
            for i in range(a.presses):
                edge, update = press(board, PATTERN[i % len(PATTERN)])
                if update is not None:
                    to_pixels.append(update["until"] * NS - edge)
            time.sleep(0.5)
            end = wait_hello(board.port)
        finally:
            board.close()
    assert boot.get("system") == "facets", boot
    print("pico.facets.deck_boot_heap_used: %s KB" % kb(deck.get("heap_used")))
    print("pico.facets.boot_ms: %.0f ms" % (first["t"] * NS * 1000))
    print("pico.facets.boot_heap_used: %s KB" % kb(boot.get("heap_used")))
    print("pico.facets.boot_heap_free: %s KB" % kb(boot.get("heap_free")))
    print("pico.facets.presses: %d" % a.presses)
    if to_pixels:
        to_pixels.sort()
        print("pico.facets.press_to_pixels_median: %.0f ms" % (to_pixels[len(to_pixels) // 2] * 1000))
        print("pico.facets.press_to_pixels_max: %.0f ms" % (to_pixels[-1] * 1000))
    print("pico.facets.heap_used_after: %s KB" % kb(end.get("heap_used")))
    print("pico.facets.heap_low: %s KB" % kb(end.get("heap_low")))
    print("pico.facets.commands: %d" % end.get("count", 0))
    return 0


if __name__ == "__main__":
    sys.exit(main())

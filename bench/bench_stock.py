"""The stock route's figures on the emulated Pico: the official MicroPython
v1.28.0 image with the game as .mpy files on littlefs (what `deckahedron
flash --port` gives a board that keeps that UF2), beside the ROMFS image's.

    python bench/bench_stock.py [--presses 500] [--seed 2]

Heap in use after boot (goal <= 128 KB), the boot to the home screen's
update command, the time a press takes to open the main menu, and a random
walk of every button: its resets (a MemoryError resets the board into its
save and leaves crash.log), the lowest free heap and what is in use after
it. Emulated RP2040 time, 125 MHz.
"""

import argparse
import sys
import tempfile
import time

from host_tools.sim.emulated import EmuBoard, random_walk, unavailable
from host_tools.link import DeviceLink

PRESSES = 500
SEED = 2
HEAP_GOAL = 128 * 1024
WALL = 120.0


def kb(n):
    return "n/a" if n is None else "%.1f KB" % (n / 1024)


def hello(port):
    end = time.monotonic() + WALL
    while True:
        try:
            with DeviceLink(port, timeout=20.0) as link:
                return link.hello()
        except Exception:
            if time.monotonic() > end:
                raise
            time.sleep(0.5)


def update_after(board, since):
    return board.wait_event(lambda e: e.get("ev") == "update", timeout=WALL, since=since)


def idle(board, until):
    """Wait until emulated time `until` (s): the panel's BUSY over."""
    while board.time() < until + 0.05:
        time.sleep(0.1)


def open_menu(board, after=None):
    """Press C at home (after the panel went idle from `after`, an update
    event); (emulated s from the press to the menu's update command, the
    update of going home with A)."""
    if after is not None:
        idle(board, after["until"] * 1e-9)
    since = board.event_count()
    t = board.press("C")
    shown = update_after(board, since)
    idle(board, shown["until"] * 1e-9)
    since = board.event_count()
    board.press("A")
    return shown["t"] * 1e-9 - t, update_after(board, since)


def power_on(board, out):
    """Start the board; its boot figures into `out` (the home screen's
    update time, heap in use and free after boot); the update event."""
    board.start()
    first = update_after(board, 0)
    out["boot_update"] = first["t"] * 1e-9
    boot = hello(board.port)
    out["boot_used"], out["boot_free"] = boot["heap_used"], boot["heap_free"]
    return first


def measure(base, presses=PRESSES, seed=SEED):
    board = EmuBoard("s1", base + "/s1", seed=7, firmware="stock")
    out = {}
    try:
        first = power_on(board, out)
        idle(board, first["until"] * 1e-9)
        # C opens the main menu (menus.py loaded), A goes home (and, with
        # the free heap under app.RELEASE_BELOW, drops it), C again
        out["menu_open"], home = open_menu(board)
        out["menu_again"], _ = open_menu(board, home)
        wall = time.monotonic()
        out["resets"] = random_walk(board, presses, seed)
        out["walk_wall"] = time.monotonic() - wall
        time.sleep(1.0)
        crashes = board.read_file("crash.log")
        out["crashes"] = 0 if crashes is None else crashes.count(b"--- crash")
        end = hello(board.port)
        out["end_used"], out["end_low"] = end["heap_used"], end["heap_low"]
    finally:
        board.close()
    return out


def rows(m, presses):
    return [
        ("stock.heap_used_boot", "stock image: heap in use after boot", kb(m["boot_used"]),
         "<= %d KB" % (HEAP_GOAL // 1024)),
        ("stock.boot_to_update", "stock image: power-on to the home screen's update", "%.2f s" % m["boot_update"], ""),
        ("stock.menu_open", "stock image: C to the main menu's update command, first / next open",
         "%.0f / %.0f ms" % (m["menu_open"] * 1e3, m["menu_again"] * 1e3), ""),
        ("stock.walk_resets", "stock image: resets in a %d-press random walk" % presses,
         "%d (%d in crash.log)" % (m["resets"], m["crashes"]), "0"),
        ("stock.walk_heap_low", "stock image: lowest free heap over the walk", kb(m["end_low"]), ""),
        ("stock.walk_heap_used", "stock image: heap in use after the walk", kb(m["end_used"]), ""),
        ("stock.walk_wall", "stock image: wall time of the walk", "%.0f s" % m["walk_wall"], ""),
    ]


def run(presses=PRESSES, seed=SEED):
    """The rows, or (None, why) when the stock image cannot run here."""
    why = unavailable("stock")
    if why:
        return None, why
    with tempfile.TemporaryDirectory(prefix="deckahedron-bench-stock-") as base:
        return rows(measure(base, presses, seed), presses), None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=PRESSES, help="presses in the random walk")
    parser.add_argument("--seed", type=int, default=SEED, help="the walk's seed")
    args = parser.parse_args(argv)
    table_rows, why = run(args.presses, args.seed)
    if why:
        print("stock image bench skipped: %s" % why)
        return 0
    for name, label, value, goal in table_rows:
        print("%s: %s%s" % (name, value, "  (goal %s)" % goal if goal else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

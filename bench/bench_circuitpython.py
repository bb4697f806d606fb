"""CircuitPython's figures on the emulated Pico + Pico-ePaper-2.9: the game
through code.py on CircuitPython 10.2.1 (board pico-epaper29-cp), beside
the MicroPython Pico's (bench/bench_pico.py runs this in `make bench`).

    python bench/bench_circuitpython.py [--presses 20]

Heap in use and free after boot, after the presses, after a 200-command
link session and after a 100-press random walk of every button (its crashes
counted from crash.log) (the game's .mpy
files are in CircuitPython's heap, as on the stock MicroPython route),
power-on to the home screen's update, and a press's edge to its update
command (B flips, A goes home, alternately; each waited on until the panel
is idle again, as a player reads the card). Emulated RP2040 time, 125 MHz.
"""

import argparse
import statistics
import sys
import tempfile

from bench_pico import session_commands
from bench_stock import hello, idle, kb, power_on, update_after  # the stock bench's waits: the same board, another runtime
from host_tools.link import DeviceError, DeviceLink
from host_tools.sim.circuitpython import UNLOGGED, read_settled
from host_tools.sim.emulated import EmuBoard, random_walk, unavailable

BOARD = "pico-epaper29-cp"
PRESSES = 20
SESSION = 200  # rules commands over the link, as bench_pico's session
WALK = 100  # random presses of every button (menus, odds, gear, mini-games), as the stock bench's walk


def crashes(board):
    """Crashes so far: crash.log's entries, and those with no room left to
    be logged (code.py says them on the console)."""
    log = read_settled(board.fs_path, "deckahedron/crash.log")
    return (0 if log is None else log.count(b"--- crash")) + board.console_text().count(UNLOGGED)


def measure(base, presses=PRESSES, session=SESSION, walk=WALK):
    board = EmuBoard("c1", base + "/c1", seed=7, board=BOARD, safe_mode_window=True)  # boot timed as a power-on
    out = {"press": []}
    try:
        last = power_on(board, out)
        for i in range(presses):
            idle(board, last["until"] * 1e-9)
            since = board.event_count()
            t = board.press("B" if i % 2 == 0 else "A")
            last = update_after(board, since)
            out["press"].append(last["t"] * 1e-9 - t)
        end = hello(board.port)
        out["phases"] = [crashes(board)]
        out["end_used"], out["end_free"], out["end_low"] = end["heap_used"], end["heap_free"], end["heap_low"]
        out["session"] = session
        if session:
            try:
                with DeviceLink(board.port, timeout=30.0) as link:
                    t0 = board.time()
                    session_commands(link, session)
                    out["session_emu"] = board.time() - t0
                    info = link.hello()
                out["session_used"], out["session_low"] = info["heap_used"], info["heap_low"]
            except DeviceError as e:  # the open heap defect: logged, and the board restarts into its save
                out["session_error"] = e.message if "MemoryError" not in e.message else "MemoryError"
                hello(board.port)
        out["phases"].append(crashes(board))
        out["walk"] = walk
        if walk:
            random_walk(board, walk, seed=2)
            info = hello(board.port)
            out["walk_used"], out["walk_low"] = info["heap_used"], info["heap_low"]
        out["phases"].append(crashes(board))
        out["violations"] = len(board.violations())
    finally:
        board.close()
    return out


def rows(m, presses):
    p = sorted(m["press"])
    by = m["phases"]
    return [
        ("cp.heap_boot", "CircuitPython Pico: heap in use / free after boot",
         "%s / %s" % (kb(m["boot_used"]), kb(m["boot_free"])), ""),
        ("cp.boot_to_update", "CircuitPython Pico: power-on to the home screen's update", "%.2f s" % m["boot_update"],
         ""),
        ("cp.edge_to_update", "CircuitPython Pico: press edge to its update command, median / max of %d" % presses,
         "%.0f / %.0f ms" % (statistics.median(p) * 1e3, p[-1] * 1e3) if p else "n/a", ""),
        ("cp.heap_end", "CircuitPython Pico: heap in use / free / lowest free after the presses",
         "%s / %s / %s" % (kb(m["end_used"]), kb(m["end_free"]), kb(m["end_low"])), ""),
        ("cp.session_heap", "CircuitPython Pico: heap in use / lowest free after a %d-command link session" % m["session"],
         "stopped by the board's %s (it restarted into its save)" % m["session_error"] if m.get("session_error") else
         "%s / %s" % (kb(m.get("session_used")), kb(m.get("session_low"))) if m["session"] else "n/a", ""),
        ("cp.walk_heap", "CircuitPython Pico: heap in use / lowest free after a %d-press random walk" % m["walk"],
         "%s / %s" % (kb(m.get("walk_used")), kb(m.get("walk_low"))) if m["walk"] else "n/a", ""),
        ("cp.crashes", "CircuitPython Pico: crashes (crash.log's, and any with no room to be logged) in the presses "
         "+ the session + the walk / panel violations",
         "%d + %d + %d / %d" % (by[0], by[1] - by[0], by[2] - by[1], m["violations"]), "0 + 0 + 0 / 0"),
    ]


def run(presses=PRESSES, session=SESSION, walk=WALK):
    """The rows, or (None, why) when the CircuitPython image cannot run here."""
    why = unavailable("circuitpython")
    if why:
        return None, why
    with tempfile.TemporaryDirectory(prefix="deckahedron-bench-cp-") as base:
        return rows(measure(base, presses, session, walk), presses), None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=PRESSES, help="presses timed one by one")
    parser.add_argument("--session", type=int, default=SESSION, help="rules commands over the link (0: none)")
    parser.add_argument("--walk", type=int, default=WALK, help="random presses of every button (0: none)")
    args = parser.parse_args(argv)
    table_rows, why = run(args.presses, args.session, args.walk)
    if why:
        print("CircuitPython bench skipped: %s" % why)
        return 0
    for name, label, value, goal in table_rows:
        print("%s: %s%s  (%s)" % (name, value, "  (goal %s)" % goal if goal else "", label))
    return 0


if __name__ == "__main__":
    sys.exit(main())

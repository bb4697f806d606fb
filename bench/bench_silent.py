"""The table with one silent board (issue 25): how long the others wait.

    python bench/bench_silent.py [--boards 4] [--rounds 10]

A hub seats BOARDS simulated boards (the real firmware in the MicroPython
unix port) with the console and the page's bridge, as `deckahedron table`
runs them. Each round is what a GM's action costs: a flip on a sound board
(`flip Bo str` at the console), the page's screen reads after it
(Bridge.read_screens(force=True)), and a button flip pressed from the
console (`press Cy B`, `press Cy A`: each waits for the press's event).
Measured with every board answering, then with the first board stopped
(SIGSTOP: it reads nothing, as a board at its REPL), then how long that
board takes to be found silent and, once it runs again (SIGCONT), to be
back. Prints ``silent_KEY: value unit`` lines.
"""

import argparse
import io
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from host_tools.console.core import TableConsole, make_console  # noqa: E402
from host_tools.sim.unixport import SimTable  # noqa: E402
from host_tools.table.hub import TableHub  # noqa: E402
from host_tools.web.bridge import Bridge  # noqa: E402

BOARDS = 4
ROUNDS = 10
BOOT = 30.0  # seconds for every board to answer its first hello
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


def _ms(fn):
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def _join(hub, names, boards):
    until = time.monotonic() + BOOT
    for name, b in zip(names, boards):
        while True:
            try:
                hub.join(name, b.port)
                break
            except Exception:
                if time.monotonic() > until:
                    raise
                time.sleep(0.2)


def _rounds(hub, console, bridge, rounds):
    flips, reads, presses = [], [], []
    for _ in range(rounds):
        hub.poll(0)
        flips.append(_ms(lambda: console.onecmd("flip Bo str")))
        reads.append(_ms(lambda: bridge.read_screens(force=True)))
        for button in "BA":  # a flip on Cy's buttons and its end, each press's event read by the hub
            presses.append(_ms(lambda: console.onecmd("press Cy %s" % button)))
    return flips, reads, presses


def measure(boards=BOARDS, rounds=ROUNDS):
    """{key: (value, unit)}: the round's parts with every board answering
    and with one silent (p50 and max, ms), the seconds to find it silent
    and the seconds to take it back once it answers."""
    out = {}
    with tempfile.TemporaryDirectory() as base:
        with SimTable(boards, os.path.join(base, "sim"), seed=1) as sims:
            hub = TableHub(os.path.join(base, "session.db"))
            silent = sims.boards[0]
            try:
                _join(hub, NAMES[:boards], sims.boards)
                console = TableConsole(hub, make_console(file=io.StringIO()), base)
                bridge = Bridge(console)
                out.update(_figures("all", *_rounds(hub, console, bridge, rounds)))
                os.kill(silent.pid, signal.SIGSTOP)
                out["silent_found_s"] = ("%.1f" % (_ms(lambda: bridge.read_screens(force=True)) / 1000), "s")
                out.update(_figures("one_silent", *_rounds(hub, console, bridge, rounds)))
                os.kill(silent.pid, signal.SIGCONT)
                t0 = time.monotonic()
                while not hub.player(NAMES[0]).online and time.monotonic() - t0 < 30:
                    hub.poll(0)
                    time.sleep(0.05)
                out["silent_back_s"] = ("%.1f" % (time.monotonic() - t0), "s")
            finally:
                os.kill(silent.pid, signal.SIGCONT)
                hub.close()
    return out


def _figures(label, flips, reads, presses):
    return {"silent_%s_press_p50" % label: ("%.0f" % statistics.median(presses), "ms"),
            "silent_%s_press_max" % label: ("%.0f" % max(presses), "ms"),
            "silent_%s_flip_p50" % label: ("%.0f" % statistics.median(flips), "ms"),
            "silent_%s_flip_max" % label: ("%.0f" % max(flips), "ms"),
            "silent_%s_screens_p50" % label: ("%.0f" % statistics.median(reads), "ms"),
            "silent_%s_screens_max" % label: ("%.0f" % max(reads), "ms")}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=BOARDS)
    ap.add_argument("--rounds", type=int, default=ROUNDS)
    args = ap.parse_args(argv)
    try:
        figures = measure(args.boards, args.rounds)
    except Exception as e:
        print("error: %s" % e)
        return 1
    for key, (value, unit) in figures.items():
        print("%s: %s %s" % (key, value, unit))
    return 0


if __name__ == "__main__":
    sys.exit(main())

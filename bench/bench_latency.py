"""Host round trips to simulated boards (the real firmware in the MicroPython
unix port, host_tools/sim/unixport.py), as the table hub makes them.

    python bench/bench_latency.py [--boards 8,16] [--rounds 50]

Every board gets its own DeviceLink; the boards are asked in turn, round
after round: a ``ping``, then a flip (``flip``, a ``choose`` when it ties,
``end_flip``: each one saved to the board's flash before its reply leaves).
After each round the whole table is swept once for button events the way the
hub's console does while it waits for the GM (``poll(0)`` on every link):
the sweep is what a GM's typed command waits behind.
Prints ``latency_BOARDS_KEY_p50/p99: value ms`` lines. Figures, not
assertions: the exit status is 1 only when the bench could not run.
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from host_tools.link import DeviceLink, LinkError  # noqa: E402
from host_tools.sim.unixport import SimTable  # noqa: E402

BOARDS = (8, 16)
ROUNDS = 50
BOOT = 30.0  # seconds for every board of a table to answer its first hello


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * q))]


def connect(port, until):
    """A DeviceLink to a board that is still booting: hello until it answers."""
    while True:
        try:
            link = DeviceLink(port, timeout=2.0)
        except LinkError:
            if time.monotonic() > until:
                raise
            time.sleep(0.1)
            continue
        try:
            link.hello()
            return link
        except LinkError:
            link.close()
            if time.monotonic() > until:
                raise
            time.sleep(0.1)


def measure(boards, rounds=ROUNDS):
    """{"ping": (p50, p99), "flip": (p50, p99), "sweep": (p50, p99)} in
    milliseconds for a table of ``boards`` simulated boards."""
    times = {"ping": [], "flip": [], "sweep": []}
    with tempfile.TemporaryDirectory() as base:
        with SimTable(boards, base, seed=1) as sims:
            links = []
            try:
                until = time.monotonic() + BOOT
                for b in sims.boards:
                    links.append(connect(b.port, until))
                for _ in range(rounds):
                    for link in links:
                        t0 = time.perf_counter()
                        link.request("ping")
                        times["ping"].append((time.perf_counter() - t0) * 1000)
                        t0 = time.perf_counter()
                        r = link.request("flip", attr="str")
                        if r.get("phase") == "choose":
                            link.request("choose", card=r["tied"][0])
                        link.request("end_flip")
                        times["flip"].append((time.perf_counter() - t0) * 1000)
                    t0 = time.perf_counter()
                    for link in links:
                        link.poll(0)
                    times["sweep"].append((time.perf_counter() - t0) * 1000)
            finally:
                for link in links:
                    link.close()
    return {key: (percentile(xs, 0.5), percentile(xs, 0.99)) for key, xs in times.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default=",".join(str(n) for n in BOARDS),
                        help="table sizes, comma separated (default %(default)s)")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args(argv)
    try:
        sizes = [int(n) for n in args.boards.split(",")]
    except ValueError:
        parser.error("--boards takes numbers separated by commas, e.g. 8,16")
    for n in sizes:
        try:
            figs = measure(n, args.rounds)
        except (LinkError, OSError, ValueError) as e:
            print("error: %d boards: %s" % (n, e))
            return 1
        for key, (p50, p99) in figs.items():
            print("latency_%d_%s_p50: %.1f ms" % (n, key, p50))
            print("latency_%d_%s_p99: %.1f ms" % (n, key, p99))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

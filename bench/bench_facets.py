"""Facets rules benchmark: runs unchanged on CPython and MicroPython.

    python bench/bench_facets.py [N]
    micropython [-X heapsize=NNNN] bench/bench_facets.py [N]

Prints ``name: value unit`` lines: the heap the Facets modules take once
imported (MicroPython), the time of a command (a check, a task attempt, a
paired attack, a refused command), of the text form both ways, and of the
exact odds for a plain and a long case (the Odds screen's work).
"""

import gc
import sys

try:
    from time import ticks_diff, ticks_us  # MicroPython

    def now():
        return ticks_us()

    def since(t0):
        return ticks_diff(ticks_us(), t0)

except ImportError:
    from time import perf_counter_ns  # CPython

    def now():
        return perf_counter_ns() // 1000

    def since(t0):
        return perf_counter_ns() // 1000 - t0


def _root():
    f = globals().get("__file__", "")
    i = f.rfind("/")
    return (f[:i] if i >= 0 else ".") + "/.."


def heap_used():
    gc.collect()
    try:
        return gc.mem_alloc()
    except AttributeError:
        return None


def per_call(n, fn):
    t0 = now()
    for _ in range(n):
        fn()
    return since(t0) / n


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    sys.path.insert(0, _root())
    before = heap_used()
    from shared_rules.errors import RulesError
    from shared_rules.facets.game import Game

    after = heap_used()
    if before is not None:
        print("heap facets module: %d bytes" % (after - before))
    g = Game.new(seed=1)
    print("roll: %.0f us" % per_call(n, lambda: g.do("roll", {"attr": "F", "tn": 8})))

    def task():
        if g.s.task is None or g.task_state() != "open":
            g.s.task = None
            g.do("task_start", {"check": "[Finesse 8 - 3/9 - 30s]"})
        g.do("task_roll", {})

    print("task attempt: %.0f us" % per_call(n, task))
    print("paired attack: %.0f us" % per_call(n, lambda: g.do("attack", {"attr": "S", "tn": 8, "weapon": "light",
                                                                          "double": True})))

    def refused():
        try:
            g.do("roll", {"attr": "F", "tn": 0})
        except RulesError:
            pass

    print("refused command: %.0f us" % per_call(n, refused))
    text = g.dump()
    print("dump: %.0f us" % per_call(n, g.dump))
    print("load: %.0f us" % per_call(n, lambda: Game.load(text)))
    before = heap_used()
    g.odds_query({"die": 8, "tn": 8})
    after = heap_used()
    if before is not None:
        print("heap odds module: %d bytes" % (after - before))
    print("odds d8 TN 8: %.0f us" % per_call(max(1, n // 10), lambda: g.odds_query({"die": 8, "tn": 8})))
    print("odds d4 TN 99 explode 3: %.0f us" % per_call(
        max(1, n // 20), lambda: g.odds_query({"die": 4, "tn": 99, "bonus": -50, "explode": 3})))
    print("heap after: %s bytes" % heap_used())


main()

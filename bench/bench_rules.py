"""Portable rules benchmark: runs unchanged on CPython and MicroPython.

    python bench/bench_rules.py MODE N [--lib DIR]
    micropython [-X heapsize=NNNN] bench/bench_rules.py MODE N [--lib DIR]

MODE is ``shuffle`` (N shuffles of the 20-card deck), ``flip`` (N flips, each
Game.flip + Game.end_flip) or ``session`` (one random session of N commands,
legal and illegal, with the invariants checked). ``--lib DIR`` puts DIR ahead
of the repo root on sys.path (e.g. a folder of .mpy files from mpy-cross).
Figures are printed as ``name: value unit`` lines; a session that completes
prints ``session ok``. bench/run.py runs this under each runtime.
"""

import gc
import sys

try:
    from time import ticks_diff, ticks_us  # MicroPython

    def now():
        return ticks_us()

    def elapsed_us(t0, t1):
        return ticks_diff(t1, t0)

except ImportError:
    from time import perf_counter_ns  # CPython

    def now():
        return perf_counter_ns()

    def elapsed_us(t0, t1):
        return (t1 - t0) / 1000


def _repo_root():
    f = globals().get("__file__", "")
    i = f.rfind("/")
    return (f[:i] if i >= 0 else ".") + "/.."


def fail(msg):
    print("bench error: " + msg)
    sys.exit(2)


def engine_import(what):
    """Import shared_rules.<what>; the game engine may not exist yet."""
    try:
        if what == "game":
            from shared_rules.deck.game import Game

            return Game
        from shared_rules.deck.walk import random_walk

        return random_walk
    except ImportError as e:
        fail("cannot import shared_rules.%s (the game engine): %s: %s" % (what, type(e).__name__, e))


def median(values):
    values = sorted(values)
    n = len(values)
    mid = n // 2
    return values[mid] if n % 2 else (values[mid - 1] + values[mid]) / 2


def bench_shuffle(n):
    from shared_rules.deck.cards import DECK_IDS
    from shared_rules.prng import Rng

    rng = Rng(1)
    deck = list(DECK_IDS)
    times = []
    for _ in range(n):
        t0 = now()
        rng.shuffle(deck)
        times.append(elapsed_us(t0, now()))
    print("shuffle20: %.1f us" % median(times))


def bench_flip(n):
    """One flip as a device makes it: Game.do flip (+ choose on a tie that
    matters) + end_flip, each atomic with its state snapshot."""
    Game = engine_import("game")
    suits = ("anvil", "blade", "crown", "dragon")
    nets = (0, 1, -1, 2, -2)
    game = Game.new(seed=1)
    times = []
    for i in range(n):
        t0 = now()
        r = game.do("flip", {"suit": suits[i % 4], "net": nets[i % 5]})
        if r["phase"] == "choose":
            game.do("choose", {"card": r["tied"][0]})
        game.do("end_flip")
        times.append(elapsed_us(t0, now()))
    print("flip: %.1f us" % median(times))


def bench_session(n):
    """A random session of n commands, every invariant checked."""
    random_walk = engine_import("walk")
    t0 = now()
    applied = random_walk(1, n, check=True)
    print("session_time: %.1f ms" % (elapsed_us(t0, now()) / 1000))
    print("session_commands: %d applied of %d" % (applied, n))
    print("session ok")


MODES = {"shuffle": bench_shuffle, "flip": bench_flip, "session": bench_session}


def main(argv):
    args = list(argv)
    lib = None
    if "--lib" in args:
        i = args.index("--lib")
        if i + 1 >= len(args):
            fail("--lib needs a folder")
        lib = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2 or args[0] not in MODES:
        fail("usage: bench_rules.py shuffle|flip|session N [--lib DIR]")
    try:
        n = int(args[1])
    except ValueError:
        n = 0
    if n <= 0:
        fail("N must be a whole number above 0, not %r" % args[1])
    sys.path.insert(0, _repo_root())
    if lib:
        sys.path.insert(0, lib)
    print("runtime: %s %s" % (sys.implementation.name, ".".join(str(x) for x in sys.implementation.version[:3])))
    gc.collect()
    MODES[args[0]](n)
    try:
        gc.collect()
        print("heap_in_use: %d bytes" % gc.mem_alloc())  # MicroPython only
    except AttributeError:
        pass


main(sys.argv[1:])

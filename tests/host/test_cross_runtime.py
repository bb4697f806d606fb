"""The portable PRNG and shuffle give the same sequences on CPython and MicroPython,
and the shuffle is unbiased."""

import contextlib
import io
import subprocess

import pytest

from shared_rules.errors import RulesError
from shared_rules.prng import Rng
from tests.host.chisquare import p_value
from tests.host.test_micropython_suite import ROOT, find_tool

# Run unchanged by both runtimes; prints one line per figure.
SCRIPT = """
from shared_rules.deck.cards import DECK_IDS
from shared_rules.prng import Rng

SEEDS = (0, 1, 42, 2**31 - 1, 2**64 + 5, 0xfedcba98765432100123456789abcdef, 2**130 + 3)
BOUNDS = (1, 2, 3, 4, 5, 6, 7, 10, 13, 20, 35, 52, 100, 1000, 65537,
          2**20 + 1, 2**30 + 3, 2**31 - 1, 2**31 + 11, 2**32 - 5)

for seed in SEEDS:
    rng = Rng(seed)
    print(seed, "next32", " ".join(str(rng.next32()) for _ in range(50)))
    print(seed, "below", " ".join(str(rng.below(n)) for n in BOUNDS))
    deck = list(DECK_IDS)
    rng.shuffle(deck)
    print(seed, "deck", " ".join(deck))
    big = list(range(35))
    rng.shuffle(big)
    print(seed, "list35", " ".join(str(x) for x in big))
    print(seed, "choice", rng.choice(DECK_IDS), rng.state_hex())
"""


def run_cpython():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(SCRIPT, "<cross-runtime>", "exec"), {"__name__": "cross_runtime"})
    return out.getvalue().splitlines()


def run_micropython():
    prelude = "import sys\nsys.path.insert(0, %r)\n" % str(ROOT)
    proc = subprocess.run(
        [find_tool("micropython"), "-c", prelude + SCRIPT],
        cwd=str(ROOT), capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, "MicroPython failed:\n" + proc.stdout + proc.stderr
    return proc.stdout.splitlines()


def test_same_sequences_on_cpython_and_micropython():
    cpython = run_cpython()
    assert len(cpython) == 7 * 5
    assert run_micropython() == cpython


def test_shuffle_is_unbiased():
    rng = Rng(20240601)
    counts = {}
    for _ in range(60000):
        items = [0, 1, 2, 3]
        rng.shuffle(items)
        key = tuple(items)
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 24, "some orders of 4 items never appear: %r" % sorted(counts)
    p = p_value(list(counts.values()))
    assert p > 0.001, "shuffle looks biased: chi-square p = %g, counts %r" % (p, counts)


def test_below_rejects_empty_ranges():
    rng = Rng(7)
    before = rng.state_hex()
    for n in (0, -1, -(2**40)):
        with pytest.raises(RulesError) as info:
            rng.below(n)
        assert info.value.code == "bad_range"
    assert rng.state_hex() == before, "a refused below() must not advance the generator"

"""The same seed gives the same Facets dice, saves and odds on CPython and MicroPython."""

import contextlib
import io
import subprocess

from tests.host.test_micropython_suite import ROOT, find_tool

# Run unchanged by both runtimes: a game per seed, every kind of roll, its
# dice and digest after each command, and a few exact odds.
SCRIPT = """
from shared_rules.facets.game import Game
from shared_rules.facets.odds import band_fractions

OPS = (("roll", {"attr": "F", "tn": 8}), ("roll", {"attr": "S", "tn": 6, "mode": "pressure"}),
       ("roll", {"attr": "W", "tn": 9, "explode": 6}), ("initiative", {"kind": "social"}),
       ("attack", {"attr": "S", "tn": 7, "weapon": "light", "double": True}),
       ("defend", {"attr": "F", "weapon": "heavy"}),
       ("task_start", {"check": "[Finesse 8 - 2/5 - 30s]"}), ("task_roll", {}), ("task_roll", {}))
for seed in (0, 1, 42, 2**31 - 1, 2**64 + 5):
    g = Game.new(seed=seed, attrs={"F": 4, "S": 20, "W": 6})
    for op, args in OPS:
        r = g.do(op, args)
        rolls = r.get("rolls") or ([r["roll"]] if "roll" in r else [])
        print(seed, op, " ".join("/".join(str(f) for f in x["faces"]) for x in rolls), g.digest())
    print(seed, "save", g.dump().replace("\\n", "|"))
for die in (4, 6, 8, 10, 12, 20):
    print(die, band_fractions(die, 13, 1, "normal", die))
"""


def test_same_dice_on_cpython_and_micropython():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(SCRIPT, "<facets-cross-runtime>", "exec"), {"__name__": "facets_cross_runtime"})
    cpython = out.getvalue().splitlines()
    assert len(cpython) == 5 * 10 + 6
    prelude = "import sys\nsys.path.insert(0, %r)\n" % str(ROOT)
    proc = subprocess.run([find_tool("micropython"), "-c", prelude + SCRIPT], cwd=str(ROOT),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, "MicroPython failed:\n" + proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == cpython

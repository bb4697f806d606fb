"""SAVE 2d6: the same seed and commands give the same dice and the same save,
byte for byte, on CPython and MicroPython."""

import contextlib
import io
import subprocess

from tests.host.test_micropython_suite import ROOT, find_tool

SCRIPT = """
from shared_rules.save2d6.game import Game

for seed in (0, 1, 2**31 - 1, 2**64 + 5):
    g = Game.new(seed=seed, pursuit="see the sea", history=["a storm"])
    dice = []
    for i in range(60):
        r = g.do("roll", {"preferred": i % 2 == 0, "expertise": i % 3 == 0, "injury": i % 5 == 0})
        if r["result"] == "pending":
            r = g.do("assist" if i % 4 else "decline", {"result": "mixed"} if i % 4 else {})
        dice.append("%d%d%s" % (r["dice"][0], r["dice"][1], r["result"][0]))
        if g.s.health == "down":
            g.do("rest", {})
    g.do("set_clocks", {"clocks": [["Doom", "setback", 6, 2]]})
    print(seed, " ".join(dice))
    print(seed, g.digest(), g.dump().replace("\\n", "|"))
"""


def run_cpython():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(SCRIPT, "<save-cross-runtime>", "exec"), {"__name__": "save_cross_runtime"})
    return out.getvalue().splitlines()


def run_micropython():
    prelude = "import sys\nsys.path.insert(0, %r)\n" % str(ROOT)
    proc = subprocess.run([find_tool("micropython"), "-c", prelude + SCRIPT], cwd=str(ROOT),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, "MicroPython failed:\n" + proc.stdout + proc.stderr
    return proc.stdout.splitlines()


def test_same_dice_and_save_on_both_runtimes():
    cpython = run_cpython()
    assert len(cpython) == 8
    assert run_micropython() == cpython

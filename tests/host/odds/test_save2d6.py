"""SAVE 2d6 odds: `deckahedron odds --system save` is exact, the device's
formula (shared_rules.save2d6.game.odds, the Odds screen) gives the same figures,
and the device's own seeded rolls agree with them (chi-square, p > 0.001)."""

import itertools
import json
from fractions import Fraction

import pytest

from host_tools.cli import main
from host_tools.odds.save2d6 import exact
from shared_rules.save2d6.game import HEALTH, RESULTS, Game, odds_for, pass_faces
from tests.host.chisquare import p_value

P_MIN = 0.001
SEEDS = (11, 12, 13, 14)
ROLLS_PER_SEED = 50_000  # 200,000 rolls per case
# One case per size of the pass set (1 to 5 faces), covering each rule.
CASES = (
    ({}, "hurt"),  # a hero who is Down cannot roll; Hurt has the same pass set
    ({}, "strong"),
    ({"preferred": True}, "fair"),
    ({"preferred": True, "expertise": True}, "strong"),
    ({"preferred": True, "expertise": True, "assisted": True}, "strong"),
)


def run_cli(capsys, *argv):
    try:
        code = main(["odds", "--system", "save"] + list(argv))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def test_json_is_exact_and_reduced(capsys):
    code, out, err = run_cli(capsys, "--preferred", "--json")
    assert code == 0 and err == ""
    assert json.loads(out) == {"system": "save", "pass_faces": [3, 5, 6],
                               "results": {"complete": "1/4", "mixed": "1/2", "failure": "1/4"}}
    code, out, _ = run_cli(capsys, "--health", "down", "--json")
    assert json.loads(out)["results"] == {"complete": "1/36", "mixed": "5/18", "failure": "25/36"}


def test_every_combination_matches_the_device_formula(capsys):
    for pref, exp, ast in itertools.product((False, True), repeat=3):
        for health in HEALTH:
            argv = [f for f, on in (("--preferred", pref), ("--expertise", exp), ("--assisted", ast)) if on]
            code, out, _ = run_cli(capsys, *(argv + ["--health", health, "--json"]))
            got = json.loads(out)
            assert code == 0 and got == odds_for(pref, exp, ast, health)
            assert sum(Fraction(v) for v in got["results"].values()) == 1


def test_table_for_people(capsys):
    code, out, _ = run_cli(capsys, "--expertise", "--health", "shaken")
    assert code == 0
    assert "pass 4, 6; fail 1, 2, 3, 5" in out
    assert "complete success" in out and "1/9" in out and "11.11" in out
    assert "nick of time" in out
    said = " ".join(out.split())  # rich wraps the caption
    assert "both dice pass: complete success, one: mixed result, none: complete failure" in said


def test_options_of_another_system_are_refused(capsys):
    code, out, err = run_cli(capsys, "--suit", "anvil")
    assert code == 2 and out == "" and err == "deckahedron odds: only the Deckahedron takes --suit, not --system save\n"
    try:
        code = main(["odds", "--preferred"])
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err == "deckahedron odds: only --system save takes --preferred\n"
    code, out, err = run_cli(capsys, "--health", "fine")
    assert code == 2 and out == "" and err.startswith("deckahedron odds: ") and err.count("\n") == 1


def device_rolls(flags, health, seed, n):
    """Results of n rolls made by Game itself; a roll set aside for an
    assist is declined (read as rolled), as a lone hero would."""
    g = Game.new(seed=seed, health=health)
    counts = {"complete": 0, "mixed": 0, "failure": 0}
    pairs = [0] * 36
    args = dict(flags)
    for _ in range(n):
        r = g.do("roll", args)
        if r["result"] == "pending":
            r = g.do("decline", {})
        counts[r["result"]] += 1
        pairs[(r["dice"][0] - 1) * 6 + r["dice"][1] - 1] += 1
    return counts, pairs


@pytest.mark.slow  # about 25 s on CPython 3.11
def test_device_rolls_agree_with_the_odds():
    all_pairs = [0] * 36
    for i, (flags, health) in enumerate(CASES):
        faces = pass_faces(flags.get("preferred", False), flags.get("expertise", False),
                           flags.get("assisted", False), health)
        want = exact(faces)
        counts = {"complete": 0, "mixed": 0, "failure": 0}
        for seed in SEEDS:  # other seeds for each case: the samples are independent
            c, pairs = device_rolls(flags, health, 100 * i + seed, ROLLS_PER_SEED)
            for k in c:
                counts[k] += c[k]
            all_pairs = [a + b for a, b in zip(all_pairs, pairs)]
        total = sum(counts.values())
        assert total == len(SEEDS) * ROLLS_PER_SEED >= 200_000
        observed = [counts[k] for k in RESULTS]
        expected = [float(want[k] * total) for k in RESULTS]
        p = p_value(observed, expected)
        assert p > P_MIN, "faces %s: observed %r, expected %r, p = %g" % (faces, observed, expected, p)
    p = p_value(all_pairs)
    assert p > P_MIN, "the 36 rolls of two dice are not equally likely: %r, p = %g" % (all_pairs, p)

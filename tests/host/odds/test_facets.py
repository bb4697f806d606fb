"""`deckahedron odds --system facets` and the device's figures agree, exactly.

The host (host_tools/odds/facets.py, fractions.Fraction over P(total = t))
and the device (shared_rules/facets/odds.py, integers times N**t) compute
the bands by two recurrences; they must give the same reduced fractions.
"""

import json
from fractions import Fraction

import pytest

from host_tools.odds import facets as odds_facets
from host_tools.cli import main
from shared_rules.facets.odds import band_fractions


def run_cli(capsys, *argv):
    try:
        code = main(["odds", "--system", "facets"] + list(argv))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def test_host_and_device_agree_on_a_grid():
    for die in (4, 6, 8, 10, 12, 20):
        for explode in sorted({die, die - 1, die // 2 + 1}):
            for tn in (1, 4, 8, 12, 17, 25, 40):
                for bonus in (-3, 0, 2, 7):
                    for mode in ("normal", "pressure", "calm"):
                        host = odds_facets.exact(die, tn, bonus, explode, mode)
                        for band, (n, d) in band_fractions(die, tn, bonus, mode, explode):
                            assert host[band] == Fraction(n, d), (die, explode, tn, bonus, mode, band)


def test_json_shape_from_the_issue(capsys):
    code, out, err = run_cli(capsys, "--die", "d8", "--tn", "8", "--json")
    assert code == 0 and err == ""
    got = json.loads(out)
    assert got == {"system": "facets", "bands": {"advantage": "1/16", "success": "1/16", "cost": "5/8",
                                                 "fail": "1/4", "fail_cost": "0/1"}}


def test_json_reduced_and_summing_to_one(capsys):
    code, out, _ = run_cli(capsys, "--die", "d12", "--tn", "15", "--bonus", "3", "--pressure", "--json")
    bands = json.loads(out)["bands"]
    fractions = [Fraction(v) for v in bands.values()]
    assert sum(fractions) == 1
    for text, f in zip(bands.values(), fractions):
        assert text == "%d/%d" % (f.numerator, f.denominator)
    # no explosion: 1..12, margin t - 12: only a 12 succeeds, nothing reaches advantage
    assert bands["advantage"] == "0/1" and bands["success"] == "1/12" and bands["fail_cost"] == "1/12"  # a 1


def test_calm_json(capsys):
    code, out, _ = run_cli(capsys, "--die", "d10", "--tn", "5", "--calm", "--json")
    assert json.loads(out)["bands"]["success"] == "1/1"


def test_table_a_person_reads(capsys):
    code, out, err = run_cli(capsys, "--die", "d6", "--tn", "9", "--bonus", "2")
    assert code == 0 and err == ""
    for word in ("Facets: d6 exploding on 6 against TN 9", "success with a cost", "2/3", "66.7", "failure with a cost"):
        assert word in out
    said = " ".join(out.split())  # rich wraps the caption
    assert "margin = total + bonus - TN; a margin of 5 or more is an advantage, and every further 5 one more" in said


@pytest.mark.parametrize("argv, message", [
    (["--tn", "8"], "needs --die and --tn"),
    (["--die", "d7", "--tn", "8"], "--die is d4, d6, d8, d10, d12 or d20"),
    (["--die", "d8", "--tn", "0"], "--tn must be a whole number from 1 to 99"),
    (["--die", "d8", "--tn", "8", "--bonus", "x"], "--bonus must be a whole number"),
    (["--die", "d8", "--tn", "8", "--explode", "3"], "--explode must be a whole number from 5 to 8"),
    (["--die", "d8", "--tn", "8", "--calm", "--pressure"], "not allowed with"),
    (["--die", "d8", "--tn", "8", "--net", "1"], "only the Deckahedron takes --net"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("deckahedron odds: ") and message in err


def test_facets_options_refused_for_the_deckahedron(capsys):
    try:
        code = main(["odds", "--die", "d8"])
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    assert code == 2 and "only --system facets takes --die" in err

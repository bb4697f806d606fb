"""`deckahedron odds` (host_tools/commands/odds.py) through host_tools.cli.main."""

import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest

from host_tools.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def run_cli(capsys, *argv):
    """(exit code, stdout, stderr); argparse errors exit via SystemExit."""
    try:
        code = main(["odds"] + list(argv))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def test_json_fresh_deck_shape_and_values(capsys):
    """Reference §6 table for a fresh deck: 20 rows, suit-major, exact fractions."""
    code, out, err = run_cli(capsys, "--json")
    assert code == 0 and err == ""
    rows = json.loads(out)
    assert [(r["suit"], r["net"]) for r in rows] == [
        (s, n) for s in ("anvil", "blade", "crown", "dragon") for n in (-2, -1, 0, 1, 2)]
    for r in rows:
        assert set(r) == {"suit", "net", "cards_flipped", "levels", "xp"}
        assert set(r["levels"]) == {"1", "2", "3", "4"}
        assert r["cards_flipped"] == 1 + abs(r["net"])
        assert sum(Fraction(v) for v in r["levels"].values()) == 1
    by = {(r["suit"], r["net"]): r for r in rows}
    success = lambda r: sum(Fraction(r["levels"][lv]) for lv in "234")
    assert success(by["anvil", -2]) == Fraction(11, 57)
    assert success(by["blade", 2]) == Fraction(113, 114)
    assert success(by["dragon", 2]) == 1
    assert by["anvil", 0]["levels"] == {"1": "2/5", "2": "1/5", "3": "3/10", "4": "1/10"}
    assert by["anvil", -2]["levels"]["4"] == "0/1"
    assert by["crown", 0]["xp"] == "1/4"


def test_json_single_cell_and_cards(capsys):
    """--suit, --net and --cards (spaces around commas tolerated); MD *A Wound Card*."""
    code, out, err = run_cli(capsys, "--suit", "anvil", "--net", "+1", "--cards", "pw1 , 11", "--json")
    assert code == 0 and err == ""
    assert json.loads(out) == [{"suit": "anvil", "net": 1, "cards_flipped": 2,
                                "levels": {"1": "1/2", "2": "0/1", "3": "0/1", "4": "1/2"}, "xp": "0/1"}]


def test_suit_only_and_net_only(capsys):
    code, out, _ = run_cli(capsys, "--suit", "crown", "--json")
    assert code == 0 and [(r["suit"], r["net"]) for r in json.loads(out)] == [("crown", n) for n in range(-2, 3)]
    code, out, _ = run_cli(capsys, "--net", "-1", "--json")
    assert code == 0 and [(r["suit"], r["net"]) for r in json.loads(out)] == [
        (s, -1) for s in ("anvil", "blade", "crown", "dragon")]


def test_net_beyond_two_flips_three(capsys):
    """MD *Multiple Advantages*: at most 3 cards, the extra advantage is ignored."""
    code, out, err = run_cli(capsys, "--net", "4")
    assert code == 0 and err == ""
    assert "net +4 flips 3 cards: advantage beyond 2 is ignored (MD, Multiple Advantages)" in out
    code, out, err = run_cli(capsys, "--net", "-3", "--suit", "blade")
    assert code == 0 and "net -3 flips 3 cards" in out and "disadvantage beyond 2 is ignored" in out
    code, out, _ = run_cli(capsys, "--net", "4", "--suit", "anvil", "--json")
    row = json.loads(out)[0]
    assert row["net"] == 4 and row["cards_flipped"] == 3
    code, out2, _ = run_cli(capsys, "--net", "2", "--suit", "anvil", "--json")
    assert row["levels"] == json.loads(out2)[0]["levels"]


def test_human_table(capsys):
    """Percentages with 2 decimals (reference §6 rounding), all the columns."""
    code, out, err = run_cli(capsys)
    assert code == 0 and err == ""
    for head in ("suit", "net", "cards", "MISS", "PARTIAL", "SUCCESS", "TRIUMPH", "PARTIAL+", "XP"):
        assert head in out
    assert not set(out) & set("\u2717\u2705\u2714")  # words, not glyphs a terminal may lack
    assert "PARTIAL+ = PARTIAL or better" in out
    anvil_m2 = [line for line in out.splitlines() if "Anvil" in line and "-2" in line][0]
    for pct in ("80.70", "14.39", "4.91", "0.00", "19.30", "35.09"):
        assert pct in anvil_m2
    assert "Dragon" in out and "100.00" in out
    assert "wound" not in out  # no wound card in a fresh deck


def test_human_table_mentions_wounds(capsys):
    code, out, err = run_cli(capsys, "--cards", "1,2,3,pw2", "--suit", "dragon")
    assert code == 0 and err == ""
    assert "pw2" in out and "stops the flip" in out


@pytest.mark.parametrize("argv, words", [
    (["--suit", "shield"], "invalid choice"),
    (["--cards", "1,2,99"], "'99'"),
    (["--cards", "1,2,b7"], "'b7'"),
    (["--net", "9"], "-6 to 6"),
    (["--net", "two"], "whole number"),
    (["--net", "1.5"], "whole number"),
    (["--cards", "1,2,1"], "twice"),
    (["--cards", "1,2", "--net", "-2"], "only 2"),
    (["--cards", "1,2", "--suit", "anvil"], "only 2"),
    (["--cards", ""], "empty"),
    (["--cards", "1,,2"], "empty id"),
    (["--net"], "expected one argument"),
])
def test_bad_input_exits_2(capsys, argv, words):
    """Design §7: bad input at the CLI gets a clear one-line error and nothing else."""
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("deckahedron odds: ") and err.endswith("\n") and err.count("\n") == 1
    assert words in err


def test_subprocess_json():
    """`python -m host_tools.cli odds --json` as a user runs it."""
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, "-m", "host_tools.cli", "odds", "--json"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    assert len(rows) == 20
    assert rows[0] == {"suit": "anvil", "net": -2, "cards_flipped": 3,
                       "levels": {"1": "46/57", "2": "41/285", "3": "14/285", "4": "0/1"}, "xp": "20/57"}
    p = subprocess.run([sys.executable, "-m", "host_tools.cli", "odds", "--suit", "x"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == "" and p.stderr.startswith("deckahedron odds: ")

"""Exact Facets band odds (shared_rules.facets.odds) on both runtimes.

The closed recurrence is checked against a plain walk over every chain of
exploding rolls that can end inside a band's window of totals (a finite set:
each roll adds at least 1), and against figures worked by hand.
"""

from shared_rules.errors import RulesError
from shared_rules.facets.game import band_of
from shared_rules.facets.odds import BANDS, band_fractions, odds
from tests.rules.support import raises


def _add(a, b):
    return (a[0] * b[1] + b[0] * a[1], a[1] * b[1])


def _same(a, b):
    return a[0] * b[1] == b[0] * a[1]


def walk(die, tn, bonus, explode, pressure=False):
    """{band: (num, den)} by walking every chain of rolls whose total stays
    below the advantage threshold; what is left over is advantage."""
    out = {}
    for b in BANDS:
        out[b] = (0, 1)
    cap = tn - bonus + 5  # a total reaching this is an advantage whatever follows

    def step(total, den):
        for face in range(1, die + 1):
            t = total + face
            if t >= cap:
                continue
            if face >= explode and not pressure:
                step(t, den * die)
            else:
                b = band_of(t + bonus - tn)
                out[b] = _add(out[b], (1, den * die))

    step(0, 1)
    rest = (1, 1)
    for b in BANDS[1:]:
        rest = _add(rest, (-out[b][0], out[b][1]))
    out["advantage"] = rest
    return out


def test_recurrence_agrees_with_walking_every_chain():
    # "Rolled dice explode ... is rolled again and the result is added."
    for die, tn, bonus, explode in ((4, 8, 0, 4), (4, 14, 1, 3), (6, 9, -2, 6), (6, 13, 0, 5),
                                    (8, 8, 0, 8), (8, 15, 2, 7), (10, 12, 0, 10), (4, 20, 0, 4)):
        got = dict(band_fractions(die, tn, bonus, "normal", explode))
        want = walk(die, tn, bonus, explode)
        for b in BANDS:
            assert _same(got[b], want[b]), (die, tn, bonus, explode, b, got[b], want[b])


def test_pressure_is_a_plain_die():
    # "Rolls made under pressure don't explode."
    got = dict(band_fractions(8, 8, 0, "pressure"))
    want = walk(8, 8, 0, 8, pressure=True)
    for b in BANDS:
        assert _same(got[b], want[b])
    assert got["success"] == (1, 8) and got["advantage"] == (0, 1)


def test_worked_by_hand_d8_tn8():
    # 8 always explodes, so a total of exactly 8 cannot happen: success is
    # 8 then 1..4 (1/16), advantage 8 then 5..8 (1/16), cost 3..7, fail 1..2.
    got = odds(8, 8)
    assert got["bands"] == {"advantage": "1/16", "success": "1/16", "cost": "5/8", "fail": "1/4",
                            "fail_cost": "0/1"}
    assert got["percent"]["cost"] == "62.5" and got["met"] == "12.5"  # 1/16 + 1/16


def test_calm_is_certain():
    # "taking half the die's highest result rather than rolling (i.e., 3 on a d6 ...)"
    got = odds(6, 3, mode="calm")["bands"]
    assert got["success"] == "1/1" and got["cost"] == "0/1"
    assert odds(10, 14, mode="calm")["bands"]["fail"] == "1/1"  # 5 - 14 = -9


def test_bands_sum_to_one_and_are_reduced():
    for die in (4, 6, 8, 10, 12, 20):
        for tn in (1, 5, 8, 13, 21, 30):
            total = (0, 1)
            for name, (n, d) in band_fractions(die, tn, 1):
                assert n >= 0 and d > 0
                a, b = n, d
                while b:
                    a, b = b, a % b
                assert a == 1 or n == 0, (die, tn, name, n, d)
                total = _add(total, (n, d))
            assert _same(total, (1, 1))


def test_bad_mode_refused():
    assert raises(RulesError, odds, 8, 8, 0, "sleepy").code == "bad_args"

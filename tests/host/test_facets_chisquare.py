"""The device's own Facets rolls agree with the exact band odds.

Each case rolls 200,000 seeded checks with the engine's code
(shared_rules.facets.game.roll_faces and make_roll, what Game's roll op
runs) and compares the bands seen with shared_rules.facets.odds by a
chi-square goodness-of-fit test at p > 0.001. A band of probability 0 must
never be seen; bands expected fewer than 5 times are pooled with the
neighbour (scipy's test needs expected counts of 5 or more).
"""

from fractions import Fraction

import pytest

from shared_rules.facets.game import BANDS, make_roll, roll_faces
from shared_rules.facets.odds import band_fractions
from shared_rules.prng import Rng
from tests.host.chisquare import p_value

ROLLS = 200_000
P_MIN = 0.001
CASES = (  # die, tn, bonus, explode, mode, seed
    (4, 8, 0, 4, "normal", 1),
    (6, 9, 2, 6, "normal", 2),
    (8, 8, 0, 8, "normal", 3),
    (10, 14, 0, 9, "normal", 4),
    (12, 15, 3, 12, "pressure", 5),
    (20, 12, 0, 20, "normal", 6),
    (6, 20, 0, 5, "normal", 7),
)

pytestmark = pytest.mark.slow  # about 10 s on CPython 3.11


def observe(die, tn, bonus, explode, mode, seed):
    rng = Rng(seed)
    seen = {}
    for b in BANDS:
        seen[b] = 0
    for _ in range(ROLLS):
        r = make_roll("F", die, explode, mode, bonus, tn, roll_faces(rng, die, explode, mode))
        seen[r["band"]] += 1
    return seen


@pytest.mark.parametrize("die, tn, bonus, explode, mode, seed", CASES)
def test_rolls_match_exact_bands(die, tn, bonus, explode, mode, seed):
    seen = observe(die, tn, bonus, explode, mode, seed)
    assert sum(seen.values()) == ROLLS
    observed, expected = [], []
    carry_o, carry_e = 0, 0.0
    for band, (n, d) in band_fractions(die, tn, bonus, mode, explode):
        if n == 0:
            assert seen[band] == 0, "%s has probability 0 but came up %d times" % (band, seen[band])
            continue
        carry_o += seen[band]
        carry_e += float(Fraction(n, d) * ROLLS)
        if carry_e >= 5:
            observed.append(carry_o)
            expected.append(carry_e)
            carry_o, carry_e = 0, 0.0
    if carry_e:
        observed[-1] += carry_o
        expected[-1] += carry_e
    assert len(observed) >= 2
    p = p_value(observed, expected)
    assert p > P_MIN, "die d%d tn %d: observed %s, expected %s, p = %g" % (die, tn, observed, expected, p)

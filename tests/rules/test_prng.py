"""The portable PRNG and shuffle (design §3). The cross-runtime proof is in
tests/host/test_cross_runtime.py; these hold on whichever runtime runs them."""

from shared_rules.errors import RulesError
from shared_rules.prng import Rng
from tests.rules.support import raises

# xoshiro128** seeded through splitmix32: pinned so any change to the
# generator (which would change every saved game's future) is caught.
PINNED_SEED_42 = [1, 9, 2, 13, 8, 11, 17, 10, 7, 3, 5, 6, 15, 12, 18, 19, 16, 14, 0, 4]


def test_shuffle_is_pinned():
    r = Rng(42)
    d = list(range(20))
    r.shuffle(d)
    assert d == PINNED_SEED_42


def test_same_seed_same_sequence_other_seed_other():
    a, b, c = Rng(7), Rng(7), Rng(8)
    sa = [a.next32() for _ in range(20)]
    assert sa == [b.next32() for _ in range(20)]
    assert sa != [c.next32() for _ in range(20)]


def test_below_stays_in_range_and_hits_every_value():
    r = Rng(3)
    seen = [0] * 7
    for _ in range(700):
        v = r.below(7)
        assert 0 <= v < 7
        seen[v] += 1
    assert min(seen) > 50
    assert raises(RulesError, r.below, 0).code == "bad_range"
    assert raises(RulesError, r.below, 2 ** 32 + 1).code == "bad_range"
    assert 0 <= r.below(2 ** 32) < 2 ** 32


def test_shuffle_is_a_permutation():
    r = Rng(11)
    for n in (0, 1, 2, 20, 35):
        items = list(range(n))
        r.shuffle(items)
        assert sorted(items) == list(range(n))


def test_state_round_trip_and_bad_state():
    r = Rng(99)
    r.next32()
    h = r.state_hex()
    q = Rng(0)
    q.set_state_hex(h)
    assert q.next32() == r.next32()
    for bad in ("", "0" * 32, "zz" * 16, 5):
        assert raises(RulesError, q.set_state_hex, bad).code == "bad_save"
    assert raises(RulesError, Rng, -1).code == "bad_seed"


def test_big_seeds_are_folded_not_truncated():
    assert Rng(2 ** 64 + 5).state_hex() != Rng(5).state_hex()

"""shared_rules.deck.odds against an independent brute force (CPython only).

The brute force walks every ordered k-tuple of distinct pile positions with
itertools.permutations and sums fractions.Fraction, applying the rules in its
own code (not flips.py): 1 + |net| cards capped at 3 (MD *Advantage*,
*Multiple Advantages*), a wound card stops the flip and counts (MD *A Wound
Card*), best/worst level, XP if any tied resolving card shows XP (MD
*Advantage*, tie; reference §6).
"""

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from shared_rules.deck import odds
from shared_rules.deck.cards import ALL_IDS, CARDS, DECK_IDS, SUITS
from shared_rules.errors import RulesError

NETS = range(-3, 4)


def brute_force(pile_ids, suit, net):
    """{"levels": [Fraction]*4, "xp": Fraction} by plain enumeration."""
    si = SUITS.index(suit)
    k = min(1 + abs(net), 3)
    cards = [CARDS[c] for c in pile_ids]
    counts = [0, 0, 0, 0]
    xp = 0
    total = 0
    for perm in itertools.permutations(range(len(cards)), k):
        shown = []
        for pos in perm:
            shown.append(cards[pos])
            if cards[pos].kind == "wound":
                break
        lvls = [c.levels[si] for c in shown]
        level = max(lvls) if net > 0 else min(lvls) if net < 0 else lvls[0]
        counts[level - 1] += 1
        if any(c.xp for c in shown if c.levels[si] == level):
            xp += 1
        total += 1
    return {"levels": [Fraction(n, total) for n in counts], "xp": Fraction(xp, total)}


def check_pile(pile):
    for suit in SUITS:
        for net in NETS:
            if len(pile) < min(1 + abs(net), 3):
                with pytest.raises(RulesError) as e:
                    odds.flip_odds(pile, suit, net)
                assert e.value.code == "short_pile"
                continue
            want = brute_force(pile, suit, net)
            got = odds.flip_odds(pile, suit, net)
            assert got["cards_flipped"] == min(1 + abs(net), 3)
            assert [Fraction(got["levels"][lv]) for lv in "1234"] == want["levels"], (pile, suit, net)
            assert Fraction(got["xp"]) == want["xp"], (pile, suit, net)
            # strings are reduced, as str(Fraction) writes them (plus '/1' for integers)
            for lv in "1234":
                f = Fraction(got["levels"][lv])
                assert got["levels"][lv] == "%d/%d" % (f.numerator, f.denominator)
            pairs = odds.flip_fractions(pile, suit, net)
            assert [Fraction(a, b) for a, b in pairs["levels"]] == want["levels"]
            assert Fraction(*pairs["xp"]) == want["xp"]


def test_fresh_deck_matches_brute_force():
    """Reference §6 method: ordered enumeration of a fresh 20-card deck."""
    check_pile(list(DECK_IDS))


def test_deck_with_print_supply_matches_brute_force():
    """Deck + PRINT blessings and both wounds (reference §5)."""
    check_pile(list(DECK_IDS) + ["pb1", "pb2", "pb5", "pw1", "pw2"])


def test_deck_with_web_supply_matches_brute_force():
    """Deck + WEB blessings and the ✗✗✗✗ wound w1 (reference §5)."""
    check_pile(["b1", "b4", "w1"] + list(DECK_IDS)[5:])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(ALL_IDS), unique=True, min_size=1, max_size=12), st.randoms(use_true_random=False))
def test_random_small_piles_match_brute_force(pile, rnd):
    """Any subset of the 35 card ids, in any order: the odds depend on contents only."""
    check_pile(pile)
    shuffled = list(pile)
    rnd.shuffle(shuffled)
    for suit in SUITS:
        net = rnd.choice([-2, 0, 1]) if len(pile) >= 3 else 0
        assert odds.flip_odds(shuffled, suit, net) == odds.flip_odds(pile, suit, net)


def test_reference_success_percentages():
    """Reference §6 success column, two decimals, through the brute force too."""
    deck = list(DECK_IDS)
    table = {("anvil", -2): "19.30", ("blade", -1): "55.26", ("crown", 1): "96.84", ("dragon", -2): "71.58"}
    for (suit, net), pct in table.items():
        f = sum(brute_force(deck, suit, net)["levels"][1:])
        assert "%.2f" % (float(f) * 100) == pct
        assert odds.percent_str(*odds.success(odds.flip_odds(deck, suit, net))) == pct

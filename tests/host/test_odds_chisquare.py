"""A flip made by the engine itself agrees with these odds.

Seeded trials use the engine's own PRNG and shuffle (shared_rules.prng.Rng,
Fisher-Yates) and the engine's own resolution (flips.stop_index,
flips.resolve). Each trial shuffles a fresh copy of the pile and takes its
top three cards (index 0 is the top): net 0 flips the first, net ±1 the first
two, net ±2 the first three, so one trial serves every suit/net cell. The
observed resolving levels of each cell are compared with
shared_rules.deck.odds.flip_odds by a chi-square goodness-of-fit test.

Counting happens per distinct top-three (at most 20*19*18 of them), and each
distinct triple is resolved once: the same result as resolving every trial,
at a fraction of the cost. The run takes a few seconds (CPython 3.11).
"""

from fractions import Fraction

import pytest

from shared_rules.deck import odds
from shared_rules.deck.cards import CARDS, DECK_IDS, SUITS
from shared_rules.deck.flips import cards_for, resolve, stop_index
from shared_rules.prng import Rng
from tests.host.chisquare import p_value

SEEDS = (1, 2, 3, 4)
TRIALS_PER_SEED = 50_000  # 200,000 flips per suit/net cell
NETS = (-2, -1, 0, 1, 2)
P_MIN = 0.001

pytestmark = pytest.mark.slow  # about 11 s on CPython 3.11


def top_three_counts(pile_ids, seeds, trials_per_seed):
    """{(card, card, card): count} of the top three cards after each shuffle."""
    pile = [CARDS[c] for c in pile_ids]
    counts = {}
    get = counts.get
    for seed in seeds:
        rng = Rng(seed)
        shuffle = rng.shuffle
        for _ in range(trials_per_seed):
            cards = list(pile)  # a fresh copy every trial
            shuffle(cards)
            key = (cards[0], cards[1], cards[2])
            counts[key] = get(key, 0) + 1
    return counts


def observe(counts, suit, net):
    """(observed counts of levels 1..4, XP count, trials) for one cell."""
    k = cards_for(net)
    levels = [0, 0, 0, 0]
    xp = 0
    for triple, n in counts.items():
        cards = list(triple[:k])
        flipped = cards[:stop_index(cards)]
        level, tied = resolve(flipped, suit, net)
        levels[level - 1] += n
        if any(flipped[i].xp for i in tied):
            xp += n
    return levels, xp, sum(counts.values())


def goodness_of_fit(observed, probs, trials):
    """p-value of a chi-square test; categories with expected 0 are dropped
    after checking that nothing was observed there."""
    obs, exp = [], []
    for o, p in zip(observed, probs):
        if p == 0:
            assert o == 0, "observed %d flips in a category of probability 0" % o
            continue
        obs.append(o)
        exp.append(float(p) * trials)
    if len(obs) < 2:
        assert obs == [trials]
        return 1.0
    assert min(exp) >= 5, "expected counts too small for a chi-square test"
    return p_value(obs, exp)


@pytest.fixture(scope="module")
def fresh_deck_counts():
    return top_three_counts(list(DECK_IDS), SEEDS, TRIALS_PER_SEED)


def test_engine_flips_agree_with_exact_odds(fresh_deck_counts):
    """Reference §6 (fresh deck), MD *Advantage / Disadvantage*: 20 cells, 200,000 flips each."""
    assert sum(fresh_deck_counts.values()) == len(SEEDS) * TRIALS_PER_SEED
    for suit in SUITS:
        for net in NETS:
            levels, xp, trials = observe(fresh_deck_counts, suit, net)
            exact = odds.flip_odds(list(DECK_IDS), suit, net)
            probs = [Fraction(exact["levels"][lv]) for lv in "1234"]
            p = goodness_of_fit(levels, probs, trials)
            assert p > P_MIN, (suit, net, levels, p)
            pxp = Fraction(exact["xp"])
            p = goodness_of_fit([xp, trials - xp], [pxp, 1 - pxp], trials)
            assert p > P_MIN, (suit, net, "xp", xp, p)


def test_the_test_has_power(fresh_deck_counts):
    """The same data reject a wrong model: Anvil +1 flips against the Anvil 0 odds."""
    levels, _, trials = observe(fresh_deck_counts, "anvil", 1)
    wrong = odds.flip_odds(list(DECK_IDS), "anvil", 0)
    p = goodness_of_fit(levels, [Fraction(wrong["levels"][lv]) for lv in "1234"], trials)
    assert p < 1e-12


def test_engine_flips_with_wounds_and_blessings():
    """Reference §5 supply cards in the pile, MD *A Wound Card* (stops the flip):
    Anvil +2 and Crown -2 on the deck + pw1, pw2, pb1, pb5."""
    pile = list(DECK_IDS) + ["pw1", "pw2", "pb1", "pb5"]
    counts = top_three_counts(pile, (7, 8), 100_000)
    for suit, net in (("anvil", 2), ("crown", -2)):
        levels, xp, trials = observe(counts, suit, net)
        exact = odds.flip_odds(pile, suit, net)
        p = goodness_of_fit(levels, [Fraction(exact["levels"][lv]) for lv in "1234"], trials)
        assert p > P_MIN, (suit, net, levels, p)
        pxp = Fraction(exact["xp"])
        assert goodness_of_fit([xp, trials - xp], [pxp, 1 - pxp], trials) > P_MIN
    # the stop matters here: without it Anvil +2 would resolve ✗ far less often
    no_stop = odds.flip_odds(pile, "anvil", 2, stops_on_wound=False)
    levels, _, trials = observe(counts, "anvil", 2)
    assert goodness_of_fit(levels, [Fraction(no_stop["levels"][lv]) for lv in "1234"], trials) < 1e-6

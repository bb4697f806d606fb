"""Exact flip odds (shared_rules.deck.odds): portable, runs under pytest and MicroPython.

Plain test_* functions with assert; no pytest import.
"""

from shared_rules.deck import odds
from shared_rules.deck.cards import DECK_IDS, SUITS
from shared_rules.errors import RulesError
from tests.rules.support import raises

DECK = list(DECK_IDS)
NETS = (-3, -2, -1, 0, 1, 2, 3)
MIRROR = {"anvil": "dragon", "dragon": "anvil", "blade": "crown", "crown": "blade"}


def _levels(r):
    return [r["levels"][k] for k in ("1", "2", "3", "4")]


def _success(pile, suit, net):
    return odds.fraction_str(*odds.success(odds.flip_odds(pile, suit, net)))


def _sum(fracs):
    num, den = 0, 1
    for f in fracs:
        a, b = odds.parse_fraction(f)
        num, den = odds.reduce(num * b + a * den, den * b)
    return odds.fraction_str(num, den)


def test_fraction_helper():
    """Own rational helper (MicroPython has no `fractions`): reduced, '0/1' and '1/1' at the extremes."""
    assert odds.gcd(12, 18) == 6 and odds.gcd(0, 5) == 5 and odds.gcd(-4, 6) == 2
    assert odds.fraction_str(6840, 6840) == "1/1"
    assert odds.fraction_str(0, 6840) == "0/1"
    assert odds.fraction_str(1320, 6840) == "11/57"
    assert odds.reduce(3, -6) == (-1, 2)
    assert odds.parse_fraction("14/285") == (14, 285)
    assert odds.percent_str(11, 57) == "19.30"
    assert odds.percent_str(1, 1) == "100.00"
    assert odds.percent_str(0, 1) == "0.00"
    assert odds.percent_str(1, 200) == "0.50"  # half rounds up, exactly
    assert raises(RulesError, odds.parse_fraction, "1:2").code == "bad_fraction"


def test_success_fresh_deck_reference_table():
    """Reference §6 'success' column (fresh 20-card deck, any check counts); MD *Advantage / Disadvantage*."""
    expected = (
        ("anvil", -2, "11/57"), ("anvil", -1, "33/95"), ("anvil", 0, "3/5"),
        ("anvil", 1, "81/95"), ("anvil", 2, "271/285"),
        ("blade", -2, "91/228"), ("blade", -1, "21/38"), ("blade", 0, "3/4"),
        ("blade", 1, "18/19"), ("blade", 2, "113/114"),
        ("crown", -2, "28/57"), ("crown", -1, "12/19"), ("crown", 0, "4/5"),
        ("crown", 1, "92/95"), ("crown", 2, "284/285"),
        ("dragon", -2, "68/95"), ("dragon", -1, "153/190"), ("dragon", 0, "9/10"),
        ("dragon", 1, "189/190"), ("dragon", 2, "1/1"),
    )
    for suit, net, want in expected:
        assert _success(DECK, suit, net) == want, (suit, net)


def test_levels_fresh_deck_reference_table():
    """Reference §6 level columns (✗ ✅ ✔✔ ✔✔✔, 2-decimal percentages there) as exact fractions."""
    assert _levels(odds.flip_odds(DECK, "anvil", -2)) == ["46/57", "41/285", "14/285", "0/1"]  # 80.70 14.39 4.91 0
    assert _levels(odds.flip_odds(DECK, "anvil", 2)) == ["14/285", "41/285", "149/285", "27/95"]  # 4.91 14.39 52.28 28.42
    assert _levels(odds.flip_odds(DECK, "blade", 1)) == ["1/19", "9/38", "13/38", "7/19"]  # 5.26 23.68 34.21 36.84
    assert _levels(odds.flip_odds(DECK, "dragon", 2)) == ["0/1", "14/285", "41/285", "46/57"]  # 0 4.91 14.39 80.70
    # the percentages of the reference, rounded as the reference rounds them
    r = odds.flip_odds(DECK, "crown", -2)
    pct = [odds.percent_str(*odds.parse_fraction(f)) for f in _levels(r)]
    assert pct == ["50.88", "34.65", "13.60", "0.88"]


def test_single_card_levels_fresh_deck():
    """Reference §2 per-suit composition (x=[8,4,6,2] ...): at net 0 one card is flipped."""
    comp = {"anvil": (8, 4, 6, 2), "blade": (5, 6, 5, 4), "crown": (4, 5, 6, 5), "dragon": (2, 6, 4, 8)}
    for suit in SUITS:
        r = odds.flip_odds(DECK, suit, 0)
        assert r["cards_flipped"] == 1
        assert _levels(r) == [odds.fraction_str(n, 20) for n in comp[suit]], suit
        assert r["xp"] == "1/4"  # 5 XP cards of 20 (ids 8, 9, 15, 16, 17)


def test_xp_fresh_deck_reference_table():
    """Reference §6 'XP resolves' column: XP counts when any tied resolving card shows XP (MD *Advantage*, tie)."""
    assert odds.flip_odds(DECK, "anvil", -2)["xp"] == "20/57"  # 35.09
    assert odds.flip_odds(DECK, "anvil", 2)["xp"] == "199/570"  # 34.91
    assert odds.flip_odds(DECK, "blade", -1)["xp"] == "2/5"  # 40.00
    assert odds.flip_odds(DECK, "dragon", 1)["xp"] == "1/5"  # 20.00
    assert odds.flip_odds(DECK, "dragon", 2)["xp"] == "217/1140"  # 19.04


def test_cards_flipped_and_cap():
    """MD *Advantage* (1 + |net| cards) and *Multiple Advantages* (at most 3 cards)."""
    for net, k in ((-6, 3), (-3, 3), (-2, 3), (-1, 2), (0, 1), (1, 2), (2, 3), (4, 3), (6, 3)):
        r = odds.flip_odds(DECK, "blade", net)
        assert r["cards_flipped"] == k and r["net"] == net and r["suit"] == "blade"
    assert odds.flip_odds(DECK, "crown", 5) == dict(odds.flip_odds(DECK, "crown", 2), net=5)


def test_mirror_symmetry():
    """Reference §2: Dragon is Anvil reversed and Crown is Blade reversed, so
    P(Anvil at L, net n) = P(Dragon at 5-L, net -n); same for Blade/Crown."""
    for suit in SUITS:
        for net in NETS:
            a = _levels(odds.flip_odds(DECK, suit, net))
            b = _levels(odds.flip_odds(DECK, MIRROR[suit], -net))
            assert a == b[::-1], (suit, net)


def test_probabilities_sum_to_one():
    """Every ordered k-tuple resolves at exactly one level (uniform-shuffle model)."""
    piles = (DECK, DECK + ["pw1", "pw2", "pb1", "pb5"], ["pw1"], ["w1", "b3", "17"])
    for pile in piles:
        for r in odds.odds_table(pile, nets=(0,) if len(pile) < 3 else NETS):
            assert _sum(_levels(r)) == "1/1", r
            a, b = odds.parse_fraction(r["xp"])
            assert 0 <= a <= b


def test_counts_are_ordered_tuples():
    """flip_counts counts the N!/(N-k)! equally likely ordered k-tuples."""
    c = odds.flip_counts(DECK, "anvil", -2)
    assert c["total"] == 20 * 19 * 18 and sum(c["levels"]) == c["total"]
    assert c["levels"][3] == 0
    f = odds.flip_fractions(DECK, "anvil", -2)
    assert f["levels"] == [(46, 57), (41, 285), (14, 285), (0, 1)] and f["xp"] == (20, 57)


def test_one_wound_card_pile():
    """Reference §5 pw1 (✗ ✗ ✗ ✅): a 1-card pile flips that card and nothing else."""
    r = odds.flip_odds(["pw1"], "anvil", 0)
    assert _levels(r) == ["1/1", "0/1", "0/1", "0/1"] and r["xp"] == "0/1"
    assert _levels(odds.flip_odds(["pw1"], "dragon", 0)) == ["0/1", "1/1", "0/1", "0/1"]
    assert raises(RulesError, odds.flip_odds, ["pw1"], "anvil", 1).code == "short_pile"


def test_wound_stops_flip_two_cards():
    """MD *A Wound Card*: it stops the flip the moment it shows and counts among
    the flipped cards. Pile [pw1, 11] at net +1, hand-computed over 2 orders:
    pw1 first -> only pw1 (✗); 11 first -> 11 then pw1, best is 11 (✔✔✔)."""
    r = odds.flip_odds(["pw1", "11"], "anvil", 1)
    assert _levels(r) == ["1/2", "0/1", "0/1", "1/2"] and r["xp"] == "0/1"
    # with disadvantage the wound's ✗ is the worst either way
    assert _levels(odds.flip_odds(["pw1", "11"], "anvil", -1)) == ["1/1", "0/1", "0/1", "0/1"]
    # Dragon: pw1 shows ✅; 11 first -> best of 4 and 2 is 4
    assert _levels(odds.flip_odds(["11", "pw1"], "dragon", 1)) == ["0/1", "1/2", "0/1", "1/2"]
    assert _levels(odds.flip_odds(["11", "pw1"], "dragon", -1)) == ["0/1", "1/1", "0/1", "0/1"]
    # without the stop rule (an engine switch) 11 is always flipped
    assert _levels(odds.flip_odds(["pw1", "11"], "anvil", 1, stops_on_wound=False)) == ["0/1", "0/1", "0/1", "1/1"]


def test_wound_stops_flip_with_xp_tie():
    """MD *A Wound Card* + *Advantage* tie rule. Pile [pw1, 8, 11], Anvil net +2
    (6 orders, hand-computed): pw1 first (2 orders) -> ✗; 8,pw1 -> ✗ tied with
    XP card 8; 8,11,pw1 / 11,pw1 / 11,8,pw1 -> ✔✔✔ (no XP). Crown: pw1 ✗,
    11 ✔✔✔, 8 ✔✔✔ with XP."""
    r = odds.flip_odds(["pw1", "8", "11"], "anvil", 2)
    assert _levels(r) == ["1/2", "0/1", "0/1", "1/2"] and r["xp"] == "1/6"
    r = odds.flip_odds(["pw1", "8", "11"], "crown", 2)
    # pw1 first (2/6) -> ✗; otherwise ✔✔✔, with XP card 8 among the tied cards except in 11,pw1
    assert _levels(r) == ["1/3", "0/1", "0/1", "2/3"] and r["xp"] == "1/2"


def test_wound_in_full_deck():
    """Reference §5 wound cards shuffled into the deck: the stop lowers advantage
    and cannot make disadvantage better (pw1/pw2 are ✗ in Anvil)."""
    plain = odds.flip_counts(DECK, "anvil", 2)
    wounded = odds.flip_counts(DECK + ["pw1", "pw2"], "anvil", 2)
    # P(✗) rises: compare a/b with c/d by cross-multiplying
    assert wounded["levels"][0] * plain["total"] > plain["levels"][0] * wounded["total"]
    # web wound w1 is ✗ in every suit: at disadvantage a wound is exactly an extra ✗ card
    a = odds.flip_odds(DECK + ["w1"], "dragon", -2)
    assert _sum(_levels(a)) == "1/1"


def test_blessings():
    """Reference §5 PRINT blessings (pb1 4344, pb5 4444): cards like any other in a flip."""
    assert _levels(odds.flip_odds(["pb5", "pb6"], "anvil", -1)) == ["0/1", "0/1", "0/1", "1/1"]
    assert _levels(odds.flip_odds(["1", "pb1"], "anvil", 1)) == ["0/1", "0/1", "0/1", "1/1"]
    assert _levels(odds.flip_odds(["1", "pb1"], "blade", 1)) == ["0/1", "0/1", "1/1", "0/1"]
    assert _levels(odds.flip_odds(["1", "pb1"], "anvil", -1)) == ["1/1", "0/1", "0/1", "0/1"]
    assert _levels(odds.flip_odds(["1", "pb1"], "anvil", 0)) == ["1/2", "0/1", "0/1", "1/2"]
    # deck + pb1..pb6, Anvil net 0: 8,4,6,2 plus blessings' 0,0,2,4 over 26 cards
    pile = DECK + ["pb1", "pb2", "pb3", "pb4", "pb5", "pb6"]
    r = odds.flip_odds(pile, "anvil", 0)
    assert _levels(r) == ["4/13", "2/13", "4/13", "3/13"] and r["xp"] == "5/26"
    # blessings help: success at Anvil -2 rises above the fresh 11/57
    a, b = odds.success(odds.flip_odds(pile, "anvil", -2))
    assert a * 57 > 11 * b


def test_pile_order_does_not_matter():
    """Reference §6 method (uniform shuffle): the odds depend on the pile's contents only."""
    pile = ["17", "pw2", "3", "pb4", "9"]
    rev = pile[::-1]
    for suit in SUITS:
        for net in (-2, 0, 1):
            assert odds.flip_odds(pile, suit, net) == odds.flip_odds(rev, suit, net)


def test_odds_table_order():
    """odds_table: suits in rank order (reference §1), nets -2..2, suit-major; built in a fixed order."""
    t = odds.odds_table(DECK)
    assert len(t) == 20
    i = 0
    for suit in SUITS:
        for net in (-2, -1, 0, 1, 2):
            assert t[i]["suit"] == suit and t[i]["net"] == net
            assert t[i] == odds.flip_odds(DECK, suit, net)
            i += 1
    t = odds.odds_table(DECK, suits=["crown"], nets=[3, -1])
    assert [(r["suit"], r["net"], r["cards_flipped"]) for r in t] == [("crown", 3, 3), ("crown", -1, 2)]


def test_errors():
    """Bad input raises RulesError with a code and changes nothing (design §7)."""
    assert raises(RulesError, odds.flip_odds, DECK, "shield", 0).code == "bad_suit"
    assert raises(RulesError, odds.flip_odds, DECK, "anvil", 7).code == "bad_net"
    assert raises(RulesError, odds.flip_odds, DECK, "anvil", True).code == "bad_net"
    assert raises(RulesError, odds.flip_odds, DECK, "anvil", "1").code == "bad_net"
    assert raises(RulesError, odds.flip_odds, ["1", "21"], "anvil", 0).code == "bad_card"
    assert raises(RulesError, odds.flip_odds, ["1", 2], "anvil", 0).code == "bad_card"
    assert raises(RulesError, odds.flip_odds, ["1", "pb1", "1"], "anvil", 0).code == "bad_pile"
    assert raises(RulesError, odds.flip_odds, "12", "anvil", 0).code == "bad_pile"
    assert raises(RulesError, odds.flip_odds, [], "anvil", 0).code == "empty_pile"
    e = raises(RulesError, odds.flip_odds, ["1", "2"], "anvil", -2)
    assert e.code == "short_pile" and "3 cards" in str(e) and "only 2" in str(e)
    assert raises(RulesError, odds.odds_table, ["1", "2"]).code == "short_pile"
    assert raises(RulesError, odds.odds_table, DECK, suits=["anvil", "x"]).code == "bad_suit"
    assert raises(RulesError, odds.odds_table, DECK, nets=[0, -9]).code == "bad_net"
    pile = ["1", "2"]
    raises(RulesError, odds.flip_odds, pile, "anvil", 2)
    assert pile == ["1", "2"]

"""Combat, the Four Ds, in every edition.

Numerals used (triangle d4 / square d6; 0 = blank): 1 = 0/2, 2 = 1/1,
3 = 2/6, 5 = 4/0, 6 = 0/3, 11 = 4/6. Stamina-symbol cards: 11-20.
"""

from shared_rules.deck import cards as C
from tests.rules.support import do, refused, stacked

NON_STAMINA = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
STAMINA = ["11", "12", "13", "14", "15", "16", "17", "18", "19", "20"]


def test_reveal_d4_skips_a_blank_triangle():
    """MD *Denominate / Reveal*: "1d4" reads the triangle; a card with no
    number is ignored and the next card used. Revealed cards go to the
    discard pile."""
    g = stacked(["1", "2"])
    r = do(g, "reveal", kind="d4")
    assert r["power"] == 1 and r["cards"] == ["1", "2"] and g.s.discard[-2:] == ["1", "2"]


def test_reveal_d6_reads_the_square_one_to_six():
    """MD *Denominate / Reveal*: the guide's "1d5" reads the square, which
    holds 1-6 (reference §3)."""
    g = stacked(["5", "3"])
    assert do(g, "reveal", kind="d6")["power"] == 6


def test_reveal_d10_adds_both_and_counts_blank_as_zero():
    """MD *Denominate / Reveal*: "1d10" adds triangle and square; a blank
    counts as zero; a blessing (no numerals) reads 0 under MD's wording."""
    g = stacked(["5"])
    assert do(g, "reveal", kind="d10")["power"] == 4
    g = stacked(["11"])
    assert do(g, "reveal", kind="d10")["power"] == 10
    g = stacked(["pb1"])
    assert do(g, "reveal", kind="d10")["power"] == 0


def test_reveal_uses_the_larger_of_deck_and_exhaustion():
    """MD *Denominate / Reveal*: the top card of the Deckahedron or the
    Exhaustion pile, whichever is larger."""
    g = stacked(["2", "3", "4", "5", "6", "7"], exhaustion=STAMINA + ["8", "9"], rest_to="discard")
    r = do(g, "reveal", kind="d10")
    assert r["pile"] == "exhaustion" and len(g.s.exhaustion) == 11 and len(g.s.draw) == 6
    assert g.s.discard[-1] == r["cards"][0] and C.CARDS[r["cards"][0]].id in STAMINA + ["8", "9"]
    g = stacked(["2", "3", "4", "5", "6", "7"], exhaustion=STAMINA[:6], rest_to="discard")
    assert do(g, "reveal", kind="d10")["pile"] == "deck"


def test_reveal_rejects_unknown_dice():
    refused(stacked(), "reveal", "bad_reveal", kind="d8")


def test_md_stamina_loss_reveals_until_n_symbols_face_down():
    """MD *Losing or Expending Stamina*: reveal until exhaustion symbols equal
    the attack power; all revealed cards go face-down to Exhaustion."""
    g = stacked(["2", "11", "3", "12", "13", "4"])
    r = do(g, "damage", power=3)
    assert r["cards_lost"] == 5
    assert g.s.exhaustion == [["2", False], ["11", False], ["3", False], ["12", False], ["13", False]]
    assert g.s.draw[0] == "4" and g.s.exh_tokens == 0


def test_md_stamina_loss_reshuffles_a_short_deck():
    """MD *Losing or Expending Stamina*: without enough cards you must
    reshuffle the discard pile in and continue."""
    g = stacked(["2", "3"], rest_to="discard")
    do(g, "lose_stamina", points=1)
    ids = [e[0] for e in g.s.exhaustion]
    assert ids[:2] == ["2", "3"] and C.CARDS[ids[-1]].stamina
    assert sum(1 for cid in ids if C.CARDS[cid].stamina) == 1


def test_optional_reshuffle_before_losing_stamina():
    """MD: you may reshuffle the discard pile in before moving cards."""
    g = stacked(["11"], discard=["12", "13"])
    do(g, "damage", power=1, reshuffle_first=True)
    assert g.s.discard == [] and len(g.s.exhaustion) >= 1


def test_one_wound_absorbs_all_attack_power():
    """MD *Deduct / Reduce*: a single Wound absorbs the entire attack power;
    *Taking Wounds*: a random wound card goes into the discard pile."""
    g = stacked()
    r = do(g, "damage", power=9, wounds=1)
    assert r["stamina"] == 0 and g.s.exhaustion == [] and g.s.wound_tokens == 1
    assert g.s.discard[-1] in ("pw1", "pw2") and len(g.s.supply) == 7


def test_wound_cannot_be_combined_in_md():
    refused(stacked(campaign="9h"), "damage", "bad_reduce", power=9, wounds=1, harm=1)


def test_third_wound_incapacitates():
    """MD *Taking Wounds*: with 2 Wounds already, the character is
    incapacitated (no third token, no card)."""
    g = stacked(wound_tokens=2)
    do(g, "take_wound")
    assert g.s.incapacitated and g.s.wound_tokens == 2 and len(g.s.supply) == 8


def test_no_harm_in_the_one_shot():
    """MD *Combat in the 9-hour and 30-hour Campaigns*: the Harm rules are
    for the longer formats only."""
    refused(stacked(campaign="oneshot"), "damage", "no_harm", power=6, harm=1)


def test_harm_takes_exactly_three_attack_power():
    """MD *Second Phase*: 7 attack power = 2 Harm and 1 exhaustion symbol;
    *Third Phase*: exactly 3-to-1, no Harm at 2; each Harm loses the top card
    to Exhaustion."""
    g = stacked(["2", "3", "11"], campaign="9h")
    r = do(g, "damage", power=7, harm=2)
    assert r["stamina"] == 1 and g.s.harm == 2
    assert [e[0] for e in g.s.exhaustion] == ["2", "3", "11"]
    refused(stacked(campaign="9h"), "damage", "bad_reduce", power=2, harm=1)
    refused(stacked(campaign="9h"), "damage", "bad_reduce", power=5, harm=2)


def test_third_harm_becomes_a_wound_in_md():
    """MD leaves "already 2 Harm" unfinished ("You may"); the engine follows
    DW's longer-campaign rule: take a Wound instead."""
    g = stacked(campaign="30h", harm=2)
    do(g, "take_harm")
    assert g.s.harm == 2 and g.s.wound_tokens == 1 and not g.s.incapacitated


def test_absorbed_points_become_exhaustion_tokens():
    """MD *Deduct / Reduce*: cards like Good Cardio absorb attack power with
    Exhaustion tokens placed on them."""
    g = stacked(["11"])
    r = do(g, "damage", power=2, absorb=1)
    assert g.s.exh_tokens == 1 and r["stamina"] == 1 and len(g.s.exhaustion) == 1
    refused(stacked(), "damage", "bad_reduce", power=2, absorb=3)


def test_bust_on_three():
    """MD *Incapacitation / Bust-on-3*: 3 or fewer cards in the Deckahedron
    even after the chance to reshuffle."""
    exh = [cid for cid in C.DECK_IDS if cid not in ("2", "12", "3", "4", "5")]
    g = stacked(["2", "12", "3", "4", "5"], exhaustion=exh)
    do(g, "damage", power=1)
    assert g.s.incapacitated == "bust on 3" and len(g.s.draw) == 3


def test_bust_check_comes_after_the_reshuffle():
    g = stacked(["2", "12", "3", "4", "5"], discard=["6", "7"], exhaustion=[c for c in C.DECK_IDS if c not in ("2", "12", "3", "4", "5", "6", "7")])
    do(g, "damage", power=1)
    assert not g.s.incapacitated and len(g.s.draw) == 5


def test_incapacitated_character_can_take_no_further_actions():
    """MD *Distribute / Reap*: once incapacitated the character can take no
    further actions; resting is refused too."""
    g = stacked(incapacitated="bust on 3")
    refused(g, "flip", "incapacitated", suit="anvil")
    refused(g, "damage", "incapacitated", power=1)
    refused(g, "rest", "incapacitated")
    refused(g, "minigame_start", "incapacitated", kind="pick_locks")


def test_v093_loses_the_top_card_and_a_token_per_point():
    """0.93 l.154-157: per Stamina point, the top card goes face-down to the
    Exhaustion pile with an Exhaustion token."""
    g = stacked(["2", "3", "11"], edition="v093")
    r = do(g, "damage", power=2)
    assert r["cards_lost"] == 2 and [e[0] for e in g.s.exhaustion] == ["2", "3"] and g.s.exh_tokens == 2


def test_v093_any_attack_power_for_one_wound_and_no_harm():
    """0.93 l.147-148: attack power becomes Exhaustion tokens or one Wound."""
    g = stacked(edition="v093", campaign="30h")
    do(g, "damage", power=8, wounds=1)
    assert g.s.wound_tokens == 1 and g.s.exhaustion == []
    refused(g, "damage", "no_harm", power=3, harm=1)


def test_ten_exhausted_cards_incapacitate_in_v093_and_lucky():
    """0.93 l.160 / DW l.333: once the Exhaustion pile grows to 10 cards."""
    for ed in ("v093", "dw-lucky"):
        g = stacked(exhaustion=NON_STAMINA[:8], edition=ed)
        do(g, "damage", power=5)
        assert g.s.incapacitated == "10 cards exhausted" and len(g.s.exhaustion) == 10, ed


def test_heroic_mode_exhausts_stamina_cards_face_up():
    """DW *STAMINA - HEROIC MODE*: reveal to the next Stamina card, put it
    face-up in Exhaustion with a token; the other revealed cards go to the
    discard pile."""
    g = stacked(["2", "3", "12", "4", "13"], edition="dw-heroic")
    do(g, "damage", power=2)
    assert g.s.exhaustion == [["12", True], ["13", True]] and g.s.exh_tokens == 2
    assert g.s.discard[-3:] == ["2", "3", "4"]


def test_heroic_mode_incapacitates_when_no_stamina_is_left():
    """DW: no Stamina cards in the deck or discard pile: incapacitated."""
    g = stacked(exhaustion=["^" + c for c in STAMINA[:9]], edition="dw-heroic")
    do(g, "damage", power=1)
    assert g.s.incapacitated == "no Stamina left" and len(g.s.exhaustion) == 10


def test_dw_wounds_take_exactly_six_and_cost_a_card():
    """DW *SECOND PHASE: TRADING ATTACK POWER FOR WOUNDS*: exactly 6 attack
    power per Wound, not at 5; *FOURTH PHASE: RECEIVING WOUNDS*: lose a card
    to Exhaustion, a Wound token and a wound card."""
    g = stacked(["2", "3", "4"], edition="dw-lucky", campaign="9h")
    r = do(g, "damage", power=7, wounds=1)
    assert r["stamina"] == 1 and g.s.wound_tokens == 1
    assert [e[0] for e in g.s.exhaustion] == ["2", "3"] and g.s.exh_tokens == 1
    refused(stacked(edition="dw-lucky", campaign="9h"), "damage", "bad_reduce", power=5, wounds=1)


def test_dw_one_shot_has_no_wounds_and_a_third_harm_incapacitates():
    """DW: wound rules are for longer campaigns; in a one-shot a third Harm
    incapacitates (l.341-355), in a longer one it becomes a Wound."""
    g = stacked(edition="dw-lucky", campaign="oneshot", harm=2)
    refused(g, "take_wound", "no_wounds")
    do(g, "take_harm")
    assert g.s.incapacitated == "a third Harm"
    g = stacked(edition="dw-lucky", campaign="9h", harm=2)
    do(g, "take_harm")
    assert g.s.wound_tokens == 1 and not g.s.incapacitated


def test_damage_arguments_are_checked():
    g = stacked()
    refused(g, "damage", "bad_number", power=-1)
    refused(g, "damage", "bad_number", power=61)
    refused(g, "damage", "bad_number", power="7")
    refused(g, "lose_stamina", "bad_number", points=0)

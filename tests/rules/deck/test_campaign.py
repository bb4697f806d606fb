"""Green rings: MD's 30-hour envelopes, DW's level cards; DW's Speed /
Wealth / Pack and UNENCUMBERED."""

from shared_rules.deck.game import Game
from tests.rules.support import do, refused, stacked


def test_enveloped_moves_need_their_rings():
    """MD *Green rings*: "When you Study Under a Master, you will only be able
    to choose the enveloped cards if you can arrange your current move cards
    to form the number of rings shown on the envelope"; "If you can arrange
    them to show 2 rings, you may remove a card from either envelope"."""
    g = stacked(campaign="30h", xp=6)
    refused(g, "study", "sealed", move="Fury")
    do(g, "set_move", name="Pick Pockets")  # a new move card: a chance
    refused(g, "open_envelope", "few_rings", move="Fury")
    do(g, "set_rings", rings=1)
    refused(g, "open_envelope", "few_rings", move="Goreography")  # two-ring envelope
    do(g, "open_envelope", move="Fury")
    refused(g, "open_envelope", "unsealed", move="Fury")
    refused(g, "open_envelope", "bad_move", move="Parley")
    refused(g, "open_envelope", "no_new_card", move="Slide")  # one card per new move card
    do(g, "study", move="Fury")
    assert g.s.moves["Fury"] == 0
    do(g, "set_rings", rings=2)
    do(g, "open_envelope", move="Goreography")  # studying Fury was a new card
    do(g, "study", move="Parley")  # in no envelope
    h = Game.load(g.dump())
    assert h.s.unsealed == ["Fury", "Goreography"] and h.s.rings == 2 and h.dump() == g.dump()


def test_envelopes_only_in_the_30_hour_campaign():
    """MD: "If you are playing the One-Shot Campaign or 9-hour Campaign, you
    can skip this section"."""
    g = stacked(campaign="9h", xp=2)
    refused(g, "open_envelope", "no_rings", move="Fury")
    do(g, "study", move="Fury")


def test_dw_level_card_once_per_session_with_more_rings():
    """DW *LEVEL CARDS AND GREEN RINGS*: "Once per session, if you have more
    green rings than level cards, you can take one new level card"."""
    g = stacked(edition="dw-lucky")
    refused(g, "take_level_card", "few_rings", name="Veteran")
    do(g, "set_rings", rings=2)
    do(g, "take_level_card", name="Veteran")
    refused(g, "take_level_card", "once_per_session", name="Hero")
    do(g, "new_session")
    refused(g, "take_level_card", "dup_level", name="Veteran")
    do(g, "take_level_card", name="Hero")
    do(g, "new_session")
    refused(g, "take_level_card", "few_rings", name="Legend")  # 2 rings, 2 cards
    assert Game.load(g.dump()).s.level_cards == ["Veteran", "Hero"]
    refused(stacked(), "take_level_card", "no_rings", name="Veteran")  # MD has envelopes
    refused(stacked(edition="v093"), "set_rings", "no_rings", rings=1)


def test_dw_speed_is_what_pack_wealth_and_items_leave():
    """DW *SPEED/WEALTH/PACK*: "You have 6 tokens that can be allocated
    between 3 slots on your character sheet (Speed, Pack, Wealth) and Item
    cards"; "When your speed goes below 4, you may not perform any
    UNENCUMBERED moves"."""
    from shared_rules.deck.gear import speed

    g = stacked(["4", "5"], edition="dw-lucky")
    assert speed(g) == 6
    do(g, "flip", suit="crown", unencumbered=True)
    do(g, "end_flip")
    do(g, "pack_gain", regular=1)
    do(g, "wealth_gain", change=1)
    do(g, "gear_add", name="Sword", kind="weapon")
    assert speed(g) == 3
    refused(g, "flip", "encumbered", suit="crown", unencumbered=True)
    refused(g, "gear_add", "too_heavy", name="Plate", kind="armour", slots="www", weight=4)
    refused(g, "wealth_gain", "no_wealth", change=-2)
    do(g, "gear_drop", name="Sword")
    do(g, "flip", suit="crown", unencumbered=True)
    assert Game.load(g.dump()).s.wealth == 1


def test_unencumbered_is_a_dw_tag():
    g = stacked(["4"])
    refused(g, "flip", "no_speed", suit="crown", unencumbered=True)
    refused(g, "wealth_gain", "no_speed", change=1)

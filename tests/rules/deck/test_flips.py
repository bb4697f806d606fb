"""Flipping, advantage, ties, XP, blessings, wounds, GM points, flashbacks.

Card levels used below (anvil blade crown dragon): 1 = 1111 crit-fail,
2 = 1232, 3 = 1434, 4 = 2234, 5 = 2323, 8 = 1141 XP, 9 = 2212 XP,
10 = 3122, 11 = 4444 crit-success, 13 = 3344, 14 = 3434, 17 = 4112 XP,
18 = 3434, pb5 = 4444 blessing, pw1 = 1112 wound.
"""

from tests.rules.support import do, refused, stacked


def test_single_flip_reads_the_suit():
    """MD *Flipping*: flip the top card and read the chosen suit."""
    g = stacked(["4"])
    r = do(g, "flip", suit="crown")
    assert r["cards"] == ["4"] and r["level"] == 3 and r["resolving"] == "4"
    do(g, "end_flip")
    assert g.s.discard[-1] == "4" and "4" not in g.s.draw


def test_attribute_uses_the_sheet_suit():
    """MD *Flipping*: the attribute's suit on the character sheet."""
    g = stacked(["4"])
    do(g, "set_attr", attr="str", suit="dragon")
    r = do(g, "flip", attr="str")
    assert r["suit"] == "dragon" and r["level"] == 4


def test_advantage_takes_the_best_of_two():
    """MD *Advantage*: flip two, resolve with the best."""
    g = stacked(["2", "3"])
    r = do(g, "flip", suit="blade", net=1)
    assert r["cards"] == ["2", "3"] and r["level"] == 4 and r["resolving"] == "3"


def test_disadvantage_takes_the_worst():
    """MD *Disadvantage*: use the worst result."""
    g = stacked(["2", "3"])
    r = do(g, "flip", suit="blade", net=-1)
    assert r["level"] == 2 and r["resolving"] == "2"


def test_net_advantage_sums_and_caps_at_three_cards():
    """MD *Multiple Advantages / Disadvantages*: net = advantages minus
    disadvantages; never more than 3 cards, even at -3."""
    for net, n in ((2, 3), (3, 3), (-3, 3), (6, 3), (-2, 3), (0, 1), (-1, 2)):
        g = stacked(["2", "3", "4", "5"])
        r = do(g, "flip", suit="anvil", net=net)
        assert len(r["cards"]) == n, (net, r)


def test_complete_flip_rule():
    """MD *Complete Flip Rule*: flip every instructed card, even after a
    ✔✔✔ on the first."""
    g = stacked(["11", "2", "3"])
    r = do(g, "flip", suit="dragon", net=2)
    assert r["cards"] == ["11", "2", "3"]


def test_move_level_adds_advantage():
    """MD *Move Levels*: expert +1, master +2, novice -1, wild -2."""
    g = stacked(["2", "3", "4"])
    do(g, "set_move", name="Pick Pockets", level="master")
    r = do(g, "flip", suit="anvil", move="Pick Pockets")
    assert r["net"] == 2 and len(r["cards"]) == 3
    do(g, "end_flip")
    do(g, "set_move", name="Pick Pockets", level="wild")
    r = do(g, "flip", suit="anvil", net=1, move="Pick Pockets")
    assert r["net"] == -1 and len(r["cards"]) == 2


def test_tie_that_matters_waits_for_the_player():
    """MD *Advantage*: on a tie the player chooses the resolving card; the
    choice matters here because card 8 carries XP and card 1 does not."""
    g = stacked(["1", "8"])
    r = do(g, "flip", suit="anvil", net=1)
    assert r["phase"] == "choose" and sorted(r["tied"]) == ["1", "8"] and r["resolving"] is None
    refused(g, "end_flip", "choose_first")
    refused(g, "choose", "bad_choice", card="11")
    r = do(g, "choose", card="8")
    assert r["resolving"] == "8"
    e = do(g, "end_flip")
    assert e["xp"] == 1 and g.s.xp == 1


def test_tie_that_does_not_matter_resolves_at_once():
    """Two tied plain cards: nothing to choose, the API still names both."""
    g = stacked(["14", "18"])
    r = do(g, "flip", suit="blade", net=1)
    assert r["phase"] == "open" and sorted(r["tied"]) == ["14", "18"]


def test_tie_between_different_blessings_lets_the_player_choose():
    """MD *Advantage*: "If it's a tie, you may choose whichever card to be the
    card that resolves the flip". A copper (pb1 = 4344) and a gold (pb5 =
    4444) blessing both show ✔✔✔ for Crown: the one chosen goes back to the
    supply, so the choice matters."""
    g = stacked(["pb1", "pb5"])
    r = do(g, "flip", suit="crown", net=1)
    assert r["phase"] == "choose" and sorted(r["tied"]) == ["pb1", "pb5"]
    refused(g, "end_flip", "choose_first")
    do(g, "choose", card="pb5")
    do(g, "end_flip")
    assert "pb5" in g.s.supply and "pb1" in g.s.discard and "pb1" not in g.s.supply


def test_tie_between_identical_blessings_resolves_at_once():
    """pb1 and pb3 are the same copper printing (4344): nothing to choose."""
    g = stacked(["pb1", "pb3"])
    r = do(g, "flip", suit="crown", net=1)
    assert r["phase"] == "open" and sorted(r["tied"]) == ["pb1", "pb3"]


def test_tie_between_blessings_without_return_resolves_at_once():
    """DW has no return rule (l.956-960): both blessings go to the discard
    pile whichever resolves, so the tie has no consequence."""
    g = stacked(["pb1", "pb5"], edition="dw-lucky")
    r = do(g, "flip", suit="crown", net=1)
    assert r["phase"] == "open"
    do(g, "end_flip")
    assert "pb1" in g.s.discard and "pb5" in g.s.discard


def test_xp_only_from_the_resolving_card():
    """MD *XP cards*: take XP only when the XP card resolves the flip."""
    g = stacked(["8", "3"])  # 8 has XP but blade ✗; 3 resolves with ✔✔✔
    do(g, "flip", suit="blade", net=1)
    assert do(g, "end_flip")["xp"] == 0 and g.s.xp == 0
    g = stacked(["8", "3"])
    do(g, "flip", suit="blade", net=-1)  # worst: 8 resolves
    assert do(g, "end_flip")["xp"] == 1 and g.s.xp == 1


def test_player_vs_player_gives_no_xp():
    """MD *Player vs Player*: XP cards do not generate XP."""
    g = stacked(["9"])
    do(g, "flip", suit="anvil", pvp=True)
    assert do(g, "end_flip")["xp"] == 0 and g.s.xp == 0


def test_single_check_gives_the_gm_a_shadow_point():
    """MD *Interpreting the result of a flip*, GM note: a single ✅ gives the
    GM a Shadow point; ✔✔ and ✔✔✔ give none."""
    g = stacked(["4"])
    do(g, "flip", suit="anvil")  # card 4 anvil = ✅
    assert do(g, "end_flip")["shadow"] == 1 and g.s.shadow == 1
    g = stacked(["13"])
    do(g, "flip", suit="anvil")
    assert do(g, "end_flip")["shadow"] == 0


def test_fast_move_miss_gives_two_shadow_points():
    """MD *Exceptions on ✅ and ✗ flips*: a ✗ on a FAST move gives the GM 2
    Shadow points instead of a move; a normal ✗ gives none."""
    g = stacked(["2"])
    do(g, "flip", suit="anvil", fast=True)
    assert do(g, "end_flip")["shadow"] == 2
    g = stacked(["2"])
    do(g, "flip", suit="anvil")
    assert do(g, "end_flip")["shadow"] == 0


def test_resolving_blessing_returns_to_the_supply():
    """MD *Blessing cards*: a blessing that resolves a flip goes back to the
    supply; one that does not stays in the discard pile."""
    g = stacked(["pb5"])
    assert "pb5" not in g.s.supply
    do(g, "flip", suit="anvil")
    do(g, "end_flip")
    assert "pb5" in g.s.supply and "pb5" not in g.s.discard
    g = stacked(["pb2", "2"])  # pb2 anvil ✔✔ vs card 2 ✗: worst resolves
    do(g, "flip", suit="anvil", net=-1)
    do(g, "end_flip")
    assert "pb2" in g.s.discard and "pb2" not in g.s.supply


def test_take_blessing_draws_one_at_random_into_discard():
    """MD *Blessing cards*: draw one at random from the supply into the
    discard pile."""
    g = stacked()
    r = do(g, "take_blessing")
    assert r["card"].startswith("pb") and g.s.discard[-1] == r["card"] and r["card"] not in g.s.supply


def test_wound_card_stops_the_flip_and_costs_stamina():
    """MD *A Wound Card*: stop flipping at once (overriding the Complete
    Flip Rule) and lose one Stamina point; the wound card counts."""
    g = stacked(["2", "pw1", "3", "11", "4"])
    r = do(g, "flip", suit="anvil", net=2)
    assert r["cards"] == ["2", "pw1"]  # card 3 was never flipped
    # losing 1 Stamina (MD): reveal to the next exhaustion symbol, card 11
    assert [e[0] for e in g.s.exhaustion] == ["3", "11"]
    assert all(not e[1] for e in g.s.exhaustion)


def test_wound_card_as_first_card_resolves_alone():
    """MD *A Wound Card*: "resolve the move with only the card(s) you flipped"."""
    g = stacked(["pw1", "2", "3"])
    r = do(g, "flip", suit="dragon", net=2)
    assert r["cards"] == ["pw1"] and r["level"] == 2


def test_mandatory_reshuffle_at_five_cards():
    """MD *Reshuffling*: with 5 or fewer cards in the Deckahedron the discard
    pile must be shuffled back in."""
    g = stacked(["2", "3", "4", "5", "6", "7"], rest_to="discard")
    assert len(g.s.draw) == 6
    do(g, "flip", suit="anvil")
    r = do(g, "end_flip")
    assert len(g.s.draw) == 20 and g.s.discard == []
    assert "reshuffle 5 or fewer cards" in r["events"]


def test_no_reshuffle_above_five():
    g = stacked(["2", "3", "4", "5", "6", "7", "8"], rest_to="discard")
    do(g, "flip", suit="anvil")
    do(g, "end_flip")
    assert len(g.s.draw) == 6 and len(g.s.discard) == 14


def test_optional_reshuffle_but_not_during_a_flip():
    """MD *Reshuffling*: "At any time other than during a flip"."""
    g = stacked(["2", "3"], discard=["4", "5"])
    do(g, "flip", suit="anvil")
    refused(g, "reshuffle", "flip_open")
    do(g, "end_flip")
    do(g, "reshuffle")
    assert g.s.discard == [] and len(g.s.draw) == 20


def test_one_flip_at_a_time():
    g = stacked()
    do(g, "flip", suit="anvil")
    refused(g, "flip", "flip_open", suit="anvil")


def test_critical_success_levels_up_a_move():
    """MD *Critical Success*: spend XP 1-for-1 to go up levels in the move
    just resolved."""
    g = stacked(["11"], xp=3)
    do(g, "set_move", name="Defy Danger", level="base")
    do(g, "flip", suit="crown", move="Defy Danger")
    out = do(g, "end_flip", crit="levelup", levels=2)
    assert g.s.moves["Defy Danger"] == 2 and g.s.xp == 1 and out["crit"] == "levelup"


def test_critical_success_levels_up_only_the_move_just_resolved():
    """MD *Critical Success*: "Spend XP 1-for-1 to go up levels in the move
    that was just resolved": naming another move on the sheet is refused."""
    g = stacked(["11"], xp=3)
    do(g, "set_move", name="Defy Danger", level="base")
    do(g, "set_move", name="Parley", level="base")
    do(g, "flip", suit="crown", move="Defy Danger")
    refused(g, "end_flip", "bad_move", crit="levelup", move="Parley")
    do(g, "end_flip", crit="levelup", move="Defy Danger")
    assert g.s.moves == {"Defy Danger": 1, "Parley": 0} and g.s.xp == 2


def test_critical_success_on_a_flip_without_a_move_names_it():
    """A flip made by suit alone does not say which move it was: the player
    names the move at end_flip (docs/rules.md)."""
    g = stacked(["11"], xp=3)
    do(g, "set_move", name="Parley", level="base")
    do(g, "flip", suit="crown")
    refused(g, "end_flip", "bad_move", crit="levelup")
    do(g, "end_flip", crit="levelup", move="Parley")
    assert g.s.moves["Parley"] == 1


def test_critical_success_can_take_a_blessing():
    """MD *Critical Success*: or take a Blessing into the discard pile."""
    g = stacked(["11"])
    do(g, "flip", suit="crown")
    out = do(g, "end_flip", crit="blessing")
    assert out["blessing"].startswith("pb") and g.s.discard[-2:] == [out["blessing"], "11"]
    assert out["blessing"] not in g.s.supply and len(g.s.supply) == 7


def test_critical_choice_needs_the_critical_card():
    g = stacked(["4"], xp=3)
    do(g, "flip", suit="crown")
    refused(g, "end_flip", "no_crit", crit="blessing")


def test_critical_in_pvp_cannot_level_up():
    """MD *Player vs Player*: a critical success cannot level up a move."""
    g = stacked(["11"], xp=3)
    do(g, "set_move", name="Parley", level="base")
    do(g, "flip", suit="crown", move="Parley", pvp=True)
    refused(g, "end_flip", "pvp", crit="levelup")
    do(g, "end_flip", crit="blessing")


def test_wild_move_graduates_only_to_novice():
    """MD *Decreased Move Levels*: a critical success on a wild move lets
    the player pay 1 XP to graduate to novice."""
    g = stacked(["11", "2", "3"], xp=5)
    do(g, "set_move", name="Goreography", level="wild")
    do(g, "flip", suit="dragon", net=2, move="Goreography")  # net 0 after -2
    refused(g, "end_flip", "max_level", crit="levelup", levels=2)
    do(g, "end_flip", crit="levelup", levels=1)
    assert g.s.moves["Goreography"] == -1 and g.s.xp == 4


def test_flashback_reflips_with_the_same_advantage():
    """MD *Do a Flashback*: spend 1 XP; the original flip is ignored and a
    new flip is made with the same advantage."""
    g = stacked(["2", "5", "3", "4"], xp=1)
    do(g, "flip", suit="blade", net=1)
    r = do(g, "flashback")
    assert r["cards"] == ["3", "4"] and r["flashback"] and g.s.xp == 0
    assert g.s.discard[-2:] == ["2", "5"]


def test_flashback_bumps_one_step_per_xp():
    """MD *Do a Flashback*: each extra XP raises ✗ → ✅ → ✔✔ → ✔✔✔."""
    g = stacked(["4", "2"], xp=4)
    do(g, "flip", suit="anvil")
    r = do(g, "flashback")
    assert r["level"] == 1
    assert do(g, "bump")["level"] == 2
    assert do(g, "bump")["level"] == 3
    assert do(g, "bump")["level"] == 4
    refused(g, "bump", "max_level")
    assert g.s.xp == 0
    assert do(g, "end_flip")["level"] == 4


def test_flashback_xp_card_counts_after_bumping():
    """MD *Do a Flashback*: an XP on the new card is taken only after the
    bumps are paid for, so it cannot pay for them."""
    g = stacked(["4", "9"], xp=1)
    do(g, "flip", suit="crown")
    do(g, "flashback")  # new card 9: crown ✗ with XP
    refused(g, "bump", "no_xp")
    out = do(g, "end_flip")
    assert out["xp"] == 1 and g.s.xp == 1


def test_bump_only_after_a_flashback():
    g = stacked(["2"], xp=3)
    do(g, "flip", suit="anvil")
    refused(g, "bump", "no_bump")


def test_flashback_costs_xp():
    g = stacked(["2"])
    do(g, "flip", suit="anvil")
    refused(g, "flashback", "no_xp")


def test_teamwork_supporter_flips_one_anvil():
    """MD *Teamwork Flips*: supporters flip one Anvil, may not Do a
    Flashback, and get XP only if their card resolves the flip."""
    g = stacked(["17", "2"], xp=2)
    r = do(g, "flip", team="support")
    assert r["suit"] == "anvil" and r["cards"] == ["17"] and r["level"] == 4
    refused(g, "flashback", "no_flashback")
    out = do(g, "end_flip", resolved=False)
    assert out["xp"] == 0 and g.s.xp == 2 and g.s.discard[-1] == "17"


def test_teamwork_supporter_card_that_resolves_gives_xp():
    g = stacked(["17"])
    do(g, "flip", team="support")
    assert do(g, "end_flip", resolved=True)["xp"] == 1


def test_supporter_cannot_flip_another_suit():
    g = stacked()
    refused(g, "flip", "bad_team", team="support", suit="dragon")
    refused(g, "flip", "bad_team", team="support", net=1)


def test_teamwork_best_picks_the_best_card():
    """MD *Teamwork Flips*: the players choose the best result."""
    from shared_rules.deck.teamwork import best

    lead = {"player": "ann", "card": "2", "level": 2}
    helpers = [{"player": "bo", "card": "17", "level": 4}, {"player": "cy", "card": "13", "level": 3}]
    r = best([lead] + helpers)
    assert r["level"] == 4 and [t["player"] for t in r["tied"]] == ["bo"]
    r = best([lead, {"player": "bo", "card": "4", "level": 2}])
    assert len(r["tied"]) == 2


def test_only_a_team_flip_can_be_resolved_elsewhere():
    g = stacked()
    do(g, "flip", suit="anvil")
    refused(g, "end_flip", "bad_team", resolved=False)


def test_bonus_move_advantage_in_deckahedron_world():
    """DW *CRITICAL SUCCESS*: spend 1 green token to make another move now
    with an advantage card."""
    g = stacked(["11", "2", "3"], edition="dw-lucky", xp=1)
    do(g, "flip", suit="crown")
    refused(g, "end_flip", "bad_crit", crit="blessing")
    do(g, "end_flip", crit="bonus_move")
    r = do(g, "flip", suit="crown")
    assert r["net"] == 1 and len(r["cards"]) == 2 and g.s.xp == 0


def test_empty_or_short_deck_cannot_flip():
    """A flip needs its cards; the engine says so instead of inventing any."""
    g = stacked([], rest_to="discard")
    g.s.discard = []
    g.s.exhaustion = [[cid, False] for cid in ["%d" % i for i in range(1, 21)]]
    g.s.check()
    refused(g, "flip", "empty_deck", suit="anvil")

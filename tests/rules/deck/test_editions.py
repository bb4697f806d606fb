"""Editions as data: every row of the reference's §7 table is a switch here
or a rule the seed editions share, and a test pins it for every edition."""

from shared_rules.deck.editions import EDITION_KEYS, edition
from shared_rules.errors import RulesError
from tests.rules.support import do, raises, refused, stacked

# §7 row -> (switch names, tests that check the behaviour).
SECTION7 = {
    1: ((), ("test_flips.test_mandatory_reshuffle_at_five_cards", "test_editions.test_shared_rules_hold_in_every_edition")),
    2: (("max_cards",), ("test_flips.test_net_advantage_sums_and_caps_at_three_cards",)),
    3: ((), ("test_flips.test_tie_that_matters_waits_for_the_player", "test_editions.test_shared_rules_hold_in_every_edition")),
    4: (("incapacitation", "bust_at", "wounds_to_incapacitate"), ("test_combat.test_bust_on_three", "test_combat.test_ten_exhausted_cards_incapacitate_in_v093_and_lucky", "test_combat.test_heroic_mode_incapacitates_when_no_stamina_is_left", "test_combat.test_third_wound_incapacitates")),
    5: (("stamina_loss",), ("test_combat.test_md_stamina_loss_reveals_until_n_symbols_face_down", "test_combat.test_v093_loses_the_top_card_and_a_token_per_point", "test_combat.test_heroic_mode_exhausts_stamina_cards_face_up")),
    6: (("harm_rate", "harm_campaigns", "third_harm"), ("test_combat.test_harm_takes_exactly_three_attack_power", "test_combat.test_third_harm_becomes_a_wound_in_md", "test_combat.test_dw_one_shot_has_no_wounds_and_a_third_harm_incapacitates", "test_combat.test_v093_any_attack_power_for_one_wound_and_no_harm")),
    7: (("wound_rate", "wound_campaigns"), ("test_combat.test_one_wound_absorbs_all_attack_power", "test_combat.test_dw_wounds_take_exactly_six_and_cost_a_card")),
    8: (("wound_card_stops_flip",), ("test_flips.test_wound_card_stops_the_flip_and_costs_stamina", "test_editions.test_shared_rules_hold_in_every_edition")),
    9: (("wound_costs_card",), ("test_combat.test_one_wound_absorbs_all_attack_power", "test_combat.test_dw_wounds_take_exactly_six_and_cost_a_card")),
    10: (("blessing_returns",), ("test_flips.test_resolving_blessing_returns_to_the_supply", "test_editions.test_dw_blessings_stay")),
    11: (("teamwork_suit",), ("test_flips.test_teamwork_supporter_flips_one_anvil",)),
    12: (("flashback_max_level",), ("test_flips.test_flashback_bumps_one_step_per_xp", "test_editions.test_dw_flashback_bumps_to_double_check")),
    13: (("crit_options",), ("test_flips.test_critical_success_levels_up_a_move", "test_flips.test_critical_success_can_take_a_blessing", "test_flips.test_bonus_move_advantage_in_deckahedron_world")),
    14: ((), ("test_advancement.test_move_levels_map_to_advantage", "test_flips.test_move_level_adds_advantage")),
    15: (("single_check_points", "gm_points"), ("test_flips.test_single_check_gives_the_gm_a_shadow_point", "test_editions.test_dw_counts_bad_bank_points")),
    16: (("fast_miss_points",), ("test_flips.test_fast_move_miss_gives_two_shadow_points",)),
    17: (("breather_blind_facedown", "breather_max"), ("test_recovery.test_breather_takes_face_down_cards_blind", "test_recovery.test_dw_breather_may_choose_any_card")),
    18: (("rest_blame_step",), ("test_recovery.test_rest_keeps_cards_for_harm_and_wounds", "test_recovery.test_dw_rest_has_no_blame_step")),
    19: (("seek_help_wounds", "hearth_returns_wound_tokens"), ("test_recovery.test_seek_help_md", "test_recovery.test_dw_seek_help_returns_one_wound_each")),
    20: (("pursuit_table",), ("test_advancement.test_pursuit_flip_from_the_sheet",)),
    21: (("corner_games",), ("test_advancement.test_pick_locks_draws_three_and_needs_a_line",)),
    22: ((), ("test_flips.test_xp_only_from_the_resolving_card", "test_flips.test_player_vs_player_gives_no_xp")),
}


def test_every_section7_row_has_a_switch_or_a_test():
    assert sorted(SECTION7) == list(range(1, 23))
    for row in SECTION7:
        switches, tests = SECTION7[row]
        for key in switches:
            for ed in EDITION_KEYS:
                assert key in edition(ed), (row, key, ed)
        for name in tests:
            modname, fn = name.split(".")
            mod = __import__("tests.rules.deck." + modname, None, None, [fn])
            assert callable(getattr(mod, fn, None)), (row, name)


def test_editions_differ_where_the_texts_differ():
    """Reference §7 rows 4, 5, 7, 10, 13, 15, 19 per seed."""
    md, v093, lucky, heroic = (edition(k) for k in EDITION_KEYS)
    assert (md["incapacitation"], v093["incapacitation"], lucky["incapacitation"], heroic["incapacitation"]) == ("bust3", "exhaust10", "exhaust10", "no_stamina")
    assert (md["stamina_loss"], v093["stamina_loss"], lucky["stamina_loss"], heroic["stamina_loss"]) == ("reveal", "top", "top", "heroic")
    assert (md["wound_rate"], v093["wound_rate"], lucky["wound_rate"]) == (0, 0, 6)
    assert md["blessing_returns"] and v093["blessing_returns"] and not lucky["blessing_returns"]
    assert md["crit_options"] == ("levelup", "blessing") and lucky["crit_options"] == ("levelup", "bonus_move")
    assert md["gm_points"] == "Shadow" and lucky["gm_points"] == "Bad Bank"
    assert lucky["suit_names"] == ("Anchor", "Bulb", "Crescent", "Dart")
    assert md["seek_help_wounds"] == "all_wound_cards" and lucky["seek_help_wounds"] == "one_wound_each"


def test_shared_rules_hold_in_every_edition():
    """Rows 1, 2, 3, 8: reshuffle at 5, 1 + |net| cards up to 3, the player's
    choice on a tie, a wound card stops the flip -- the same in all seeds."""
    for ed in EDITION_KEYS:
        g = stacked(["1", "8", "2", "3", "4", "5"], rest_to="discard", edition=ed, campaign="9h")
        r = do(g, "flip", suit="anvil", net=1)
        assert r["phase"] == "choose", ed
        do(g, "choose", card="8")
        do(g, "end_flip")
        assert len(g.s.draw) > 5 and g.s.xp == 1, ed
        g = stacked(["2", "pw1", "3"], edition=ed)
        assert do(g, "flip", suit="anvil", net=-2)["cards"] == ["2", "pw1"], ed


def test_dw_blessings_stay():
    """DW l.956-960: no rule returns a blessing to the supply."""
    g = stacked(["pb5"], edition="dw-lucky")
    do(g, "flip", suit="anvil")
    do(g, "end_flip")
    assert g.s.discard[-1] == "pb5" and "pb5" not in g.s.supply


def test_dw_flashback_bumps_to_double_check():
    """DW *DO A FLASHBACK*: each token bumps X -> ✓ -> ✓✓."""
    g = stacked(["4", "2"], edition="dw-lucky", xp=4)
    do(g, "flip", suit="anvil")
    do(g, "flashback")
    do(g, "bump")
    do(g, "bump")
    refused(g, "bump", "max_level")


def test_dw_counts_bad_bank_points():
    """DW l.211: a single ✓ adds 1 to the Bad Bank."""
    g = stacked(["4"], edition="dw-heroic")
    do(g, "flip", suit="anvil")
    r = do(g, "end_flip")
    assert r["shadow"] == 1 and "Bad Bank +1" in r["events"]


def test_switching_edition_between_scenes():
    g = stacked()
    do(g, "set_edition", edition_key="dw-lucky", campaign="30h")
    assert g.s.edition == "dw-lucky" and g.s.campaign == "30h"
    refused(g, "set_edition", "bad_edition", edition_key="d20")
    refused(g, "set_edition", "bad_campaign", campaign="forever")
    assert raises(RulesError, edition, "5e").code == "bad_edition"


def test_edition_labels_fit_a_device_line():
    """The device lists editions by their label with a marker for the
    current one on a 24-character line; the labels stay distinct."""
    from shared_rules.deck.editions import EDITION_KEYS, edition

    labels = [edition(k)["label"] for k in EDITION_KEYS]
    assert len(set(labels)) == len(labels)
    for s in labels:
        assert 0 < len(s) <= 22, s


def test_every_edition_sets_the_base_switches_and_no_others():
    """The other editions are changes to the base (shared_rules/
    edition_changes.py): a change naming a switch the base lacks is a typo
    no rule would ever read."""
    base = sorted(edition("md"))
    for key in EDITION_KEYS:
        assert sorted(edition(key)) == base, key
    assert edition("dw-heroic")["suit_names"] == edition("dw-lucky")["suit_names"]  # built on Lucky mode
    assert raises(RulesError, edition, "md2").code == "bad_edition"

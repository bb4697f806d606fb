"""The engine's answers the device's menus are built from (issue 10, "rules
decisions live in the rules core"): the ways to take attack power, the level
cap of a critical success. On both runtimes."""

from shared_rules.deck.advancement import level_cap
from shared_rules.deck.editions import CAMPAIGNS, EDITION_KEYS
from shared_rules.errors import RulesError
from tests.rules.support import stacked


def _accepted(edition, campaign, power, w, h):
    g = stacked(edition=edition, campaign=campaign)
    try:
        r = g.do("damage", {"power": power, "wounds": w, "harm": h})
    except RulesError:
        return None
    return r["stamina"]


def test_damage_ways_are_exactly_the_splits_damage_accepts():
    """MD *Deduct / Reduce* and *Combat in the 9-hour and 30-hour Campaigns*
    (a Wound absorbs it all, Harm takes 3 each); DW *SECOND PHASE* (a Wound
    takes exactly 6): every way offered is taken by damage(), every split
    damage() takes is offered, with the Stamina left it says."""
    for ed in EDITION_KEYS:
        for camp in CAMPAIGNS:
            assert stacked(edition=ed, campaign=camp).damage_ways(0) == [[0, 0, 0]]  # nothing to reduce
            for power in (1, 3, 6, 7, 13):
                g = stacked(edition=ed, campaign=camp)
                ways = g.damage_ways(power)
                assert ways[0] == [0, 0, power], (ed, camp, power)
                offered = {(w, h): st for w, h, st in ways}
                assert len(offered) == len(ways)
                for w in range(4):
                    for h in range(8):
                        got = _accepted(ed, camp, power, w, h)
                        if got is None:
                            assert (w, h) not in offered, (ed, camp, power, w, h)
                        else:
                            assert offered.get((w, h)) == got, (ed, camp, power, w, h)


def test_damage_ways_in_a_long_md_campaign_go_beyond_two_harm():
    g = stacked(campaign="30h")
    ways = g.damage_ways(10)
    assert [0, 3, 1] in ways and [1, 0, 0] in ways


def test_damage_ways_refuse_a_bad_power():
    g = stacked()
    for bad in (-1, 61, "3", True):
        try:
            g.damage_ways(bad)
        except RulesError as e:
            assert e.code == "bad_number"
        else:
            raise AssertionError(bad)


def test_level_cap_wild_graduates_only_to_novice():
    """MD *Critical Success* / *Move Levels*: a wild move levels up to novice."""
    assert level_cap(-2) == -1
    assert [level_cap(n) for n in (-1, 0, 1, 2)] == [2, 2, 2, 2]

"""Character sheet, XP spending, move levels, and mini-games on the device."""

from shared_rules.deck.minigames import solve
from shared_rules.deck import cards as C
from tests.rules.support import do, refused, stacked


def test_move_levels_map_to_advantage():
    """MD *Move Levels* / *Decreased Move Levels*: wild -2, novice -1,
    base 0, expert +1, master +2."""
    g = stacked()
    for name, value in (("wild", -2), ("novice", -1), ("base", 0), ("expert", 1), ("master", 2)):
        do(g, "set_move", name="Volley", level=name)
        assert g.s.moves["Volley"] == value
    refused(g, "set_move", "bad_level", name="Volley", level="legend")
    refused(g, "set_move", "bad_level", name="Volley", level=3)
    refused(g, "set_move", "bad_move", name="", level=0)
    refused(g, "set_move", "bad_move", name="x" * 33, level=0)


def test_study_under_a_master_costs_two_xp():
    """MD *Study Under a Master*: 2 XP to go up a level or take a new move."""
    g = stacked(xp=5)
    do(g, "study", move="Parley")
    assert g.s.moves["Parley"] == 0 and g.s.xp == 3
    do(g, "study", move="Parley")
    assert g.s.moves["Parley"] == 1 and g.s.xp == 1
    refused(g, "study", "no_xp", move="Parley")
    g = stacked(xp=2)
    do(g, "set_move", name="Parley", level="master")
    refused(g, "study", "max_level", move="Parley")


def test_mercy_flashback_costs_one_xp():
    """MD *Mercy Flashbacks*: one XP on top of the action's own cost."""
    g = stacked(xp=1)
    do(g, "mercy_flashback")
    assert g.s.xp == 0
    refused(g, "mercy_flashback", "no_xp")


def test_gain_xp_bounds():
    g = stacked()
    do(g, "gain_xp", n=3)
    assert g.s.xp == 3
    refused(g, "gain_xp", "bad_number", n=0)
    refused(g, "gain_xp", "bad_number", n=11)


def test_attributes_map_to_suits():
    g = stacked()
    do(g, "set_attr", attr="int", suit="dragon")
    assert g.s.attrs["int"] == "dragon"
    refused(g, "set_attr", "bad_attr", attr="cha", suit="dragon")
    refused(g, "set_attr", "bad_suit", attr="int", suit="sword")


def test_pick_locks_draws_three_and_needs_a_line():
    """MD *Pick Locks*: draw three; arrange corner to corner; exhaust a card
    to replace it with the top card; abandon = ✗."""
    g = stacked(["1", "pw1", "6", "2"])
    v = do(g, "minigame_start", kind="pick_locks")
    assert v["cards"] == ["1", "pw1", "6"] and v["solution"] is None
    refused(g, "minigame_end", "unsolved")
    refused(g, "flip", "minigame_open", suit="anvil")
    v = do(g, "minigame_exhaust", card="pw1")
    assert v["cards"] == ["1", "2", "6"] and g.s.exhaustion == [["pw1", True]]
    assert v["solution"] == solve("pick_locks", [C.CARDS[c] for c in v["cards"]])
    if v["solution"] is not None:
        r = do(g, "minigame_end")
        assert r["result"] == "success"
    else:
        r = do(g, "minigame_end", abandon=True)
    assert g.s.table == [] and g.s.minigame == ""


def test_abandoning_reads_as_a_miss():
    g = stacked(["1", "pw1", "6"])
    do(g, "minigame_start", kind="pick_locks")
    r = do(g, "minigame_end", abandon=True)
    assert "miss" in r["result"] and g.s.discard[-3:] == ["1", "pw1", "6"]


def test_fundamental_magic_draws_four():
    """MD *Fundamental Magic*: four cards forming a box."""
    g = stacked(["1", "6", "11", "16"])
    v = do(g, "minigame_start", kind="magic")
    assert len(v["cards"]) == 4 and v["solution"] is not None
    do(g, "minigame_end")


def test_minigame_commands_need_a_minigame():
    g = stacked()
    refused(g, "minigame_end", "no_minigame")
    refused(g, "minigame_exhaust", "no_minigame", card="1")
    refused(g, "minigame_start", "bad_minigame", kind="chess")


def test_pursuit_flip_from_the_sheet():
    """MD *The Pursuit Mini-game*: Str + Dex - encumbrance picks the flip."""
    g = stacked()
    do(g, "set_attr", attr="str", suit="crown")
    do(g, "set_attr", attr="dex", suit="blade")
    r = g.pursuit(2)
    assert r["value"] == 3 and r["suit"] == "crown" and r["net"] == 0

"""Save, load, digest and the conservation invariant (design §4)."""

from shared_rules.errors import RulesError
from shared_rules.deck.game import Game
from shared_rules.deck.state import PlayerState
from shared_rules.deck.table import held_supply_cards
from tests.rules.support import do, raises, refused, stacked


def _busy_game():
    g = stacked(["11", "2", "3"], exhaustion=["^12", "4"], campaign="9h", xp=3, harm=1, wound_tokens=1, exh_tokens=2)
    do(g, "set_move", name="Defy Danger", level="expert")
    do(g, "flip", suit="dragon", net=1, move="Defy Danger")
    return g


def test_round_trip_is_exact_even_mid_flip():
    g = _busy_game()
    text = g.dump()
    h = Game.load(text)
    assert h.dump() == text and h.digest() == g.digest()
    assert h.s.flip["move"] == "Defy Danger" and h.s.table == g.s.table
    assert h.s.exhaustion == [["12", True], ["4", False]]


def test_loaded_game_continues_identically():
    """The PRNG state is saved, so a restored device shuffles the same way."""
    g = _busy_game()
    h = Game.load(g.dump())
    for x in (g, h):
        do(x, "choose", card="11")
        do(x, "end_flip", crit="blessing")
        do(x, "reshuffle")
    assert g.dump() == h.dump()


def test_digest_changes_with_the_state():
    g = stacked()
    d0 = g.digest()
    do(g, "reshuffle")
    assert g.digest() != d0 and len(d0) == 16


def test_save_is_line_based_in_a_fixed_order():
    lines = stacked(pack=0).dump().split("\n")  # the optional lines (pack ...) each say something
    keys = [row.split(" ")[0] for row in lines if row]
    assert keys == ["deckahedron-state", "edition", "campaign", "supply_set", "rng", "draw", "discard",
                    "exhaustion", "table", "supply", "elsewhere", "tokens", "xp", "shadow", "attrs", "moves",
                    "incapacitated", "flip", "minigame", "bonus", "count", "game", "check"]


def _without_game_line(text):
    """The text form a save made before game ids has: no game line."""
    lines = [row for row in text.split("\n") if row and not row.startswith("game ") and not row.startswith("check ")]
    return _resign("\n".join(lines) + "\ncheck x\n")


def test_a_game_keeps_its_id_through_commands_and_saves():
    """The game id is the lineage the table checks: made at a new character,
    kept by every command and by a backup's round trip."""
    g = Game.new(seed=5)
    gid = g.s.game
    assert len(gid) == 8 and gid != Game.new(seed=6).s.game and gid == Game.new(seed=5).s.game
    do(g, "reshuffle")
    do(g, "flip", suit="crown", net=1)
    h = Game.load(g.dump())
    assert h.s.game == gid and h.dump() == g.dump() and h.summary()["game"] == gid
    assert h.summary()["count"] == g.s.count == 2


def test_a_save_older_than_game_ids_loads_and_keeps_its_digest():
    g = Game.new(seed=5)
    do(g, "reshuffle")
    old = _without_game_line(g.dump())
    assert "\ngame " not in old
    h = Game.load(old)
    assert h.s.game == "" and h.dump() == old  # dumped as it was: the same digest
    do(h, "reshuffle")
    assert "\ngame " not in h.dump() and h.s.count == 2


def test_a_bad_game_id_is_refused():
    text = Game.new(seed=5).dump()
    gid = Game.new(seed=5).s.game
    for bad in ("game", "game " + "a" * 17, "game a-b", "game \u00e9t\u00e9"):
        e = raises(RulesError, Game.load, _resign(text.replace("game " + gid, bad)))
        assert e.code == "bad_save", bad


def test_damaged_saves_are_refused():
    text = _busy_game().dump()
    for bad in (text[:-20], text.replace("xp 3", "xp 4"), "", "hello\n", text.replace("\n", "\r\n")):
        e = raises(RulesError, Game.load, bad)
        assert e.code == "bad_save"


def _resign(text):
    from shared_rules.atomic import text_digest

    body = text[:text.rfind("check ")]
    return body + "check " + text_digest(body) + "\n"


def test_consistent_but_invalid_saves_are_refused():
    """A save whose check value is right but whose content breaks the rules
    (a duplicated card, an unknown id, a bad number) is still refused."""
    text = stacked().dump()
    lines = text.split("\n")
    draw = [row for row in lines if row.startswith("draw ")][0]
    for replacement in (draw + " 3", draw.replace(" 3", " 99"), draw.replace(" 3", ""), "draw"):
        bad = _resign(text.replace(draw, replacement))
        e = raises(RulesError, Game.load, bad)
        assert e.code == "bad_save", replacement
    for old, new in (("xp 0", "xp -1"), ("edition md", "edition d20"), ("attrs crown", "attrs sword"),
                     ("bonus 0", "bonus 5"), ("flip -", "flip [1]"), ("moves []", "moves {")):
        e = raises(RulesError, Game.load, _resign(text.replace(old, new)))
        assert e.code == "bad_save", new


def test_conservation_names_the_problem():
    """Design §4: every card is in exactly one place."""
    s = stacked().s
    assert s.conservation_error() is None
    s.discard.append(s.draw[0])
    assert "in 2 places" in s.conservation_error()
    s.discard.pop()
    s.supply.remove("pb1")
    assert "pb1 is in 0 places" in s.conservation_error()


def test_unknown_commands_and_arguments_change_nothing():
    g = stacked()
    refused(g, "teleport", "bad_op")
    refused(g, "flip", "bad_args", suit="anvil", colour="red")
    refused(g, "flip", "bad_net", suit="anvil", net=7)
    refused(g, "flip", "bad_net", suit="anvil", net="1")
    refused(g, "flip", "bad_suit", suit="sword")
    refused(g, "flip", "bad_suit")
    refused(g, "choose", "no_flip", card="1")
    refused(g, "end_flip", "no_flip")
    refused(g, "flip", "bad_attr", attr="luck")
    refused(g, "flip", "bad_move", suit="anvil", move="Unknown Move")
    refused(g, "flip", "bad_args", suit="anvil", fast="yes")


def test_refused_command_mid_flip_keeps_the_flip():
    g = stacked(["1", "8"])
    do(g, "flip", suit="anvil", net=1)
    refused(g, "choose", "bad_choice", card="3")
    refused(g, "damage", "flip_open", power=2)
    refused(g, "rest", "flip_open")
    assert g.s.flip["phase"] == "choose"


def test_new_game_arguments_are_checked():
    raises(RulesError, Game.new, 1, "d20")
    raises(RulesError, Game.new, 1, "md", "forever")
    raises(RulesError, Game.new, 1, "md", "oneshot", "gold")
    raises(RulesError, Game.new, -5)


def test_state_defaults_are_sane():
    s = PlayerState()
    assert s.edition == "md" and s.table == [] and s.flip is None


def test_supply_shared_at_the_table():
    """Design §4/§5: at a table the supply is shared; cards another player
    holds are 'elsewhere' and cannot be drawn, and every card is still in
    exactly one place on this device."""
    g = stacked()
    do(g, "supply_sync", elsewhere=["pb1", "pb2", "pb3", "pb4", "pb5"])
    assert g.s.supply == ["pb6", "pw1", "pw2"] and g.s.conservation_error() is None
    assert do(g, "take_blessing")["card"] == "pb6"
    refused(g, "take_blessing", "supply_empty")
    refused(g, "supply_sync", "conflict", elsewhere=["pb6"])  # this player holds it
    refused(g, "supply_sync", "bad_card", elsewhere=["b1"])  # another supply set
    refused(g, "supply_sync", "bad_args", elsewhere="pb1")
    do(g, "supply_sync", elsewhere=[])
    assert sorted(g.s.supply) == ["pb1", "pb2", "pb3", "pb4", "pb5", "pw1", "pw2"]
    assert held_supply_cards(g) == ["pb6"]
    assert Game.load(g.dump()).dump() == g.dump()

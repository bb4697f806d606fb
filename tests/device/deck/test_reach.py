"""Issue 10, "reachable from the buttons": FAST and player-vs-player flips,
the pursuit, the player's own choice of cards in a Breather, a Rest and Seek
Help, Study taking a new move card, every Harm/Wound split. On both
runtimes, through the buttons."""

from shared_rules.deck.game import Game
from tests.device.support import choose, make_app, press, with_game
from tests.rules.support import stacked


def test_fast_flip_from_the_device_gives_the_gm_two_shadow_on_a_miss():
    """MD *FAST moves*: a ✗ on a FAST move gives the GM 2 Shadow points."""
    app = with_game(make_app(), stacked(["9"]))  # card 9: Crown ✗, no critical
    v = choose(app, "Special flips", "FAST flip")
    assert v["screen"] == "flip" and app.game.s.flip["fast"] and v["note"] == "FAST move: GM +2 Shadow"
    press(app, "A")
    assert app.game.s.shadow == 2


def test_flip_against_a_player_is_marked_pvp():
    """MD *Player vs Player*: no XP from a flip against another player."""
    app = with_game(make_app(), stacked(["4"]))  # card 4 carries XP
    choose(app, "Special flips", "Flip vs a player")
    assert app.game.s.flip["pvp"]
    press(app, "A")
    assert app.game.s.xp == 0


def _pursuit_app():
    g = stacked(["4", "9", "13", "2", "3", "5", "6", "7", "8"])
    g.s.attrs.update({"str": "blade", "dex": "crown"})  # ranks 2 + 3
    return with_game(make_app(), g)


def _row(app, label):
    """Choose the row called ``label`` in the open menu."""
    v = app.ui.view()
    for _ in range(len(v["items"])):
        if v["items"][v["selected"]] == label:
            return press(app, "B")
        v = press(app, "DOWN")
    raise AssertionError("no row %r in %r" % (label, v["items"]))


def test_pursuit_as_a_device_minigame():
    """MD *The Pursuit Mini-game*: Str + Dex - encumbrance picks the flip
    (5 - 1 Pack card = 4: Dragons); best 3 of 5; help from round 2, each
    attribute once, never the last round. The rounds are in the save."""
    app = _pursuit_app()
    app.game.s.pack = 1  # the encumbrance is what the sheet carries
    v = choose(app, "Mini-games", "Pursuit")
    assert v["title"] == "Pursuit: you 0, them 0" and v["items"][0] == "Round 1: Dragon +0"
    v = press(app, "B")
    assert v["screen"] == "flip" and app.game.s.flip["suit"] == "dragon"
    v = press(app, "A")  # done: who won the round? (the result suggests it)
    assert v["title"] == "Round 1: who won it?" and v["items"] == ["I got away", "They gained"]
    assert v["selected"] == (0 if app.ui.last["level"] >= 3 else 1)
    v = _row(app, "I got away")
    assert v["title"] == "Pursuit: you 1, them 0"
    kept = Game.load(app.game.dump())  # the save: a restart keeps the round
    assert len(kept.s.pursuit) == 1 and kept.s.pursuit[0][0]
    v = press(app, "B", "A")  # round 2: helpers may join
    assert "I got away (INT helped)" in v["items"] and "They gained (DEX helped)" in v["items"]
    v = _row(app, "They gained (DEX helped)")
    assert v["title"] == "Pursuit: you 1, them 1"
    v = press(app, "B", "A")
    assert "I got away (DEX helped)" not in v["items"] and "I got away (INT helped)" in v["items"]
    _row(app, "I got away")
    press(app, "B", "A")
    v = _row(app, "I got away")
    assert v["screen"] == "message" and v["title"] == "Pursuit over" and v["lines"] == ["You got away!"]
    assert app.game.s.pursuit is None
    assert press(app, "A")["screen"] == "home"


def test_pursuers_two_in_a_row_may_make_a_move():
    app = _pursuit_app()
    choose(app, "Mini-games", "Pursuit")
    press(app, "B", "A")  # round 1: flip, done
    _row(app, "They gained")
    press(app, "B", "A")
    v = _row(app, "They gained")
    assert v["title"] == "Two in a row"
    v = press(app, "A")
    assert v["title"] == "Pursuit: you 0, them 2"
    press(app, "DOWN", "B")  # give up
    assert app.game.s.pursuit is None


def test_rest_and_seek_help_let_the_player_choose_what_stays():
    """MD *Resting*: keep as many Exhaustion cards as Harm + Wound tokens;
    the player chooses which."""
    app = with_game(make_app(), stacked(exhaustion=["^2", "^11", "^3"], harm=1, campaign="9h"))
    v = choose(app, "Hurt", "Rest")
    assert v["title"] == "Rest: keep 1 card" and v["items"][-1] == "Keep these 0, go"
    v = press(app, "DOWN", "DOWN", "DOWN", "B")
    assert v["title"] == "Choose more"
    v = press(app, "A", "UP", "UP", "B", "DOWN", "B")  # 11 marked, then a second: refused
    assert v["title"] == "That is all"
    press(app, "A", "DOWN", "B")
    assert [e[0] for e in app.game.s.exhaustion] == ["11"] and app.game.s.harm == 0
    app = with_game(make_app(), stacked(exhaustion=["^11", "^5"], wound_tokens=1))
    v = choose(app, "Hurt", "Seek Help", "Seek Help")
    assert v["title"] == "Seek Help: keep 1 card"
    press(app, "DOWN", "B", "DOWN", "B")  # keep 5
    assert [e[0] for e in app.game.s.exhaustion] == ["5"]


def test_study_takes_a_new_move_card_by_name():
    """MD *Study Under a Master*: 2 XP for a level, or a new move card."""
    app = with_game(make_app(), stacked(xp=2))
    v = choose(app, "XP & cards", "Study", "A new move card")
    assert v["screen"] == "entry" and v["letter"] == "A"
    v = press(app, "UP", "B")  # the letters wrap round: "'"
    assert v["text"] == "'"
    v = press(app, "A", "DOWN", "DOWN", "DOWN", "B", "UP", "UP", "B")  # rub out; C, then a
    assert v["text"] == "Ca"
    v = press(app, "C")
    assert app.game.s.moves == {"Ca": 0} and app.game.s.xp == 0


def test_damage_offers_every_split_the_edition_allows():
    """MD 30-hour campaign: Harm 3 each, as many as fit; a Wound takes it all."""
    app = with_game(make_app(), stacked(campaign="30h"))
    v = choose(app, "Hurt", "Take damage")
    v = press(app, *(["UP"] * 9 + ["B"]))  # 10
    assert v["items"] == ["All as Stamina (10)", "1 Harm + 7 Stamina", "2 Harm + 4 Stamina", "3 Harm + 1 Stamina",
                          "One Wound takes it all"]
    press(app, "DOWN", "DOWN", "DOWN", "B")
    assert app.game.s.harm == 3 or app.game.s.wound_tokens == 1  # the third Harm is a Wound in MD


def test_damage_in_deckahedron_world_combines_wounds_and_harm():
    """DW *SECOND PHASE*: a Wound takes exactly 6, Harm 3."""
    app = with_game(make_app(), stacked(edition="dw-lucky", campaign="9h"))
    choose(app, "Hurt", "Take damage")
    v = press(app, *(["UP"] * 9 + ["B"]))
    assert "1 Wound + 1 Harm + 1 Stamina" in v["items"] and "3 Harm + 1 Stamina" in v["items"]


def test_damage_lets_the_armour_take_the_wound():
    """MD *Armour*: the reduce step may put a Wound on the armour's empty
    Harm-or-Wound slot instead of the body; the menu offers it beside the
    body's own splits."""
    g = stacked(campaign="30h")
    g.do("gear_add", {"name": "Mail", "kind": "armour"})
    app = with_game(make_app(), g)
    choose(app, "Hurt", "Take damage")
    v = press(app, *(["UP"] * 9 + ["B"]))  # 10
    assert "One Wound takes it all" in v["items"] and "One Wound takes it all (armour)" in v["items"]
    assert "armour 1 Harm + 7 Stamina" in v["items"] and "1 Harm + armour 1 Harm + 4 Stamina" in v["items"]
    assert max(len(row) for row in v["items"]) <= 36  # none cut off on the panel
    _row(app, "One Wound takes it all (armour)")
    assert app.game.s.wound_tokens == 0 and app.game.s.harm == 0  # the body took nothing
    assert [item for item in app.game.s.gear if item[0] == "Mail"][0][3] != "-"  # the slot is filled

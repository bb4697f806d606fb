"""Issue 10, "a device UI a player learns in a minute": the grouped menu, the
help screens, the editions, the hints, and the states said plainly. On both
runtimes, through the buttons."""

from tests.device.support import choose, make_app, press, request, with_game
from tests.rules.support import stacked


def test_sheet_and_last_flip_within_three_presses():
    """Issue 10: the character sheet and the last flip within 3 presses of home."""
    app = with_game(make_app(), stacked(["4", "9"]))
    press(app, "B", "A")
    v = press(app, "C", "B")  # Menu > Last flip
    assert v["screen"] == "flip" and v["cards"] == ["4"] and v["hint"] == "any button: back"
    assert press(app, "A")["screen"] == "home"
    v = press(app, "C", "DOWN", "B")  # Menu > Character sheet
    assert v["screen"] == "sheet"


def test_menu_is_grouped_a_few_items_a_level():
    app = with_game(make_app(), stacked())
    v = press(app, "C")
    assert v["items"][:2] == ["Last flip", "Character sheet"] and len(v["items"]) <= 8


def test_no_last_flip_yet_says_so():
    app = with_game(make_app(), stacked())
    v = press(app, "C", "B")
    assert v["screen"] == "message" and v["title"] == "No flip yet"


def test_help_explains_the_footer():
    app = with_game(make_app(), stacked())
    v = choose(app, "Help & settings", "The footer")
    text = " ".join(v["lines"])
    for word in ("Deck", "Disc", "Exh", "XP", "Harm", "Wound"):
        assert word in text, word


def test_home_says_up_down_set_advantage_and_that_it_stays_set():
    app = with_game(make_app(), stacked(["9", "13", "4"]))
    v = app.ui.view()
    assert "UP/DN adv" in v["hint"] and "note" not in v
    v = press(app, "UP", "B", "A")  # +1 flip, done
    assert v["screen"] == "home" and v["net"] == 1 and v["note"] == "+1 kept from the last flip"
    v = press(app, "DOWN", "UP")  # set again by hand: no longer "kept"
    assert v["net"] == 1 and v["note"] == "+1 kept from the last flip"
    v = press(app, "DOWN")
    assert v["net"] == 0 and "note" not in v


def test_editions_whole_names_current_marked_change_confirmed():
    app = with_game(make_app(), stacked())
    v = choose(app, "Help & settings", "Edition")
    assert v["items"][0] == "* 1kFA Player's Guide (markdown)"
    assert v["items"][2] == "  Deckahedron World, Lucky mode"
    v = press(app, "DOWN", "DOWN", "B")
    assert v["title"] == "Switch rules mid-game?" and v["items"] == ["No, keep 1kFA", "Yes: DW Lucky"]
    press(app, "B")  # no
    assert app.game.s.edition == "md"
    choose(app, "Help & settings", "Edition")
    press(app, "DOWN", "DOWN", "B", "DOWN", "B")
    assert app.game.s.edition == "dw-lucky"
    v = choose(app, "Help & settings", "Edition")
    assert v["items"][2].startswith("* Deckahedron")
    press(app, "B")  # the current one: nothing to confirm, nothing changes
    assert app.game.s.edition == "dw-lucky"


def test_three_card_flip_keeps_its_hint():
    app = with_game(make_app(), stacked(["3", "14", "7"]))
    v = press(app, "UP", "UP", "B")
    assert len(v["cards"]) == 3 and v["hint"] == "A done  B again  C more" and v["note"]


def test_pick_locks_says_solved_and_hints_picking():
    app = with_game(make_app(), stacked(["4", "9", "14"]))
    v = choose(app, "Mini-games", "Pick Locks")
    assert v["screen"] == "minigame" and v["solvable"] and v["hint"].startswith("UP/DN card")


def test_knocked_out_by_the_gms_damage_is_said_plainly():
    """A flip the host resolved stays on screen; the GM's damage then knocks
    the character out: the screen says KNOCKED OUT, not the old result."""
    app = with_game(make_app(), stacked(["4", "9"], wound_tokens=2))
    ok, _ = request(app, 1, "flip", suit="crown")
    ok, _ = request(app, 2, "end_flip")
    assert ok and app.ui.view()["screen"] == "flip"
    ok, r = request(app, 3, "damage", power=2, wounds=1)
    assert ok and app.game.s.incapacitated
    v = app.ui.view()
    assert v["screen"] == "message" and v["title"] == "KNOCKED OUT"
    v = press(app, "C", "B")  # the old result is still the last flip
    assert v["screen"] == "flip" and v["cards"] == ["4"]


def test_a_level_up_after_a_critical_success_is_confirmed():
    """MD *Critical Success*: XP spent to level up the move just resolved."""
    g = stacked(["11", "2"], xp=2)
    g.s.moves = {"Sneak": 0}
    app = with_game(make_app(), g)
    app.ui.move = "Sneak"
    v = press(app, "B", "A")
    assert v["title"] == "Critical success!"
    v = press(app, "B")  # Level up a move: the move just resolved
    assert v["screen"] == "number" and v["title"] == "Levels up: Sneak"
    v = press(app, "UP", "B")
    assert v["screen"] == "message" and v["title"] == "Levelled up" and v["lines"] == ["Sneak is now +2."]
    assert app.game.s.moves["Sneak"] == 2 and app.game.s.xp == 0

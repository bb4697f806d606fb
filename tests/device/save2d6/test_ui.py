"""SAVE 2d6 on the device (firmware/save2d6/ui.py, draw.py), with the
buttons and from the host, on both runtimes. Every screen reached is drawn
where the runtime has the renderer (MicroPython's framebuf)."""

from tests.device.support import make_app, press, request
from tests.device.walker import draw, walk
from tests.rules.save2d6.test_game import next_dice


def save_app(seed=3, **options):
    app = make_app()
    app.new_game(seed, system="save", options=options or None)
    app.commit()
    return app


def shown(app, *buttons):
    v = press(app, *buttons)
    draw(v)
    return v


def test_home_shows_the_pass_set_before_the_roll():
    # seed: "Announce which numbers will succeed and which will fail before
    # the player rolls the dice."
    app = save_app()
    assert app.ui.SYSTEM == "save"
    v = shown(app)
    assert v["screen"] == "save_home" and v["faces"] == [3, 6] and v["odds"] == ["11%", "44%", "44%"]
    v = shown(app, "A")  # Preferred marked
    assert v["faces"] == [3, 5, 6] and v["switches"][0][1] is True
    v = shown(app, "DOWN", "A")  # Expertise marked
    assert v["faces"] == [3, 4, 5, 6] and v["selected"] == 1
    assert v["status"]["footer"] == "Strong  Destiny ready"


def test_a_roll_shows_both_dice_the_pass_set_and_the_word():
    app = save_app()
    press(app, "A", "DOWN", "DOWN", "DOWN", "A")  # preferred, injury
    next_dice(app.game, 5, 4)
    v = shown(app, "B")
    assert v["screen"] == "save_roll" and v["dice"] == [5, 4] and v["passes"] == [True, False]
    assert v["words"] == "MIXED" and v["note"] == "-1 health: now Fair" and app.game.s.health == "fair"
    # The switches were for that action: home starts plain again.
    v = shown(app, "A")
    assert v["screen"] == "save_home" and v["faces"] == [3, 6] and v["switches"][0][1] is False
    next_dice(app.game, 6, 6)
    v = shown(app, "B")
    assert v["words"] == "COMPLETE"
    v = shown(app, "B")  # B on a roll: roll again
    assert v["screen"] == "save_roll" and app.game.s.rolls == 3


def test_a_two_waits_for_an_assist_from_the_host():
    # seed: "the hero who started the current action sets aside their dice"
    app = save_app()
    next_dice(app.game, 2, 6)
    v = shown(app, "B")
    assert v["result"] == "pending" and v["words"] == "A TWO!"
    v = shown(app, "A")  # waiting: said, the roll stays
    assert v["screen"] == "message" and v["title"] == "Waiting for an assist"
    v = shown(app, "A")
    assert v["screen"] == "save_roll" and v["result"] == "pending"
    ok, r = request(app, 1, "assist", result="complete")
    assert ok and r["result"] == "complete" and r["system"] == "save"
    v = shown(app)
    assert v["words"] == "COMPLETE" and v["faces"] == [2, 3, 6] and v["passes"] == [True, True]
    # resolved as rolled with B
    next_dice(app.game, 2, 3)
    shown(app, "A", "B")
    v = shown(app, "B")
    assert v["words"] == "MIXED" and app.game.s.roll["result"] == "mixed"


def test_a_roll_the_host_makes_is_shown():
    app = save_app()
    ok, r = request(app, 1, "roll", preferred=True)
    assert ok and r["dice"]
    v = shown(app)
    assert v["screen"] == "save_roll" and v["dice"] == r["dice"]
    ok, r = request(app, 2, "set_clocks", clocks=[{"name": "Ritual", "segments": 6, "filled": 2},
                                                  {"name": "Doom", "kind": "setback", "segments": 4, "filled": 4}])
    assert ok
    ok, r = request(app, 3, "state")
    assert ok


def test_destiny_from_the_menu_turns_the_roll():
    # Example of Play: a five and a two, mixed; destiny converts it.
    app = save_app(history=["fought off a wraith"])
    press(app, "A")  # preferred
    next_dice(app.game, 5, 2)
    press(app, "B", "B")  # rolled, the two set aside, resolved as rolled
    assert app.game.s.roll["result"] == "mixed"
    items = shown(app, "C")["items"]
    press(app, *(["DOWN"] * items.index("Use destiny")), "B")
    v = shown(app, "B")  # Complete success: last roll
    assert v["title"] == "Because of..." and v["items"][1] == "1 fought off a wraith"
    v = shown(app, "DOWN", "B")
    assert v["screen"] == "save_roll" and v["words"] == "COMPLETE" and v["note"] == "destiny: complete success"
    assert app.game.s.destiny == "spent"
    v = shown(app, "A", "C", *(["DOWN"] * items.index("Use destiny")), "B")
    assert v["title"] == "Destiny spent"
    # "Exercised my pursuit" gives it back
    press(app, "A")
    v = shown(app, "C", *(["DOWN"] * items.index("Exercised my pursuit")), "B")
    assert v["title"] == "Destiny ready" and app.game.s.destiny == "ready"


def test_odds_clocks_and_hero_screens():
    app = save_app(health="shaken")
    app.game.do("set_clocks", {"clocks": [["Ritual", "progress", 6, 2], ["Doom", "setback", 4, 1]]})
    items = shown(app, "C")["items"]
    v = shown(app, *(["DOWN"] * items.index("Odds of this roll")), "B")
    assert v["screen"] == "save_odds" and v["faces"] == [6]
    assert v["rows"] == [["COMPLETE", "1/36", "3%"], ["MIXED", "5/18", "28%"], ["FAILURE", "25/36", "69%"]]
    assert app.game.odds_query({"health": "shaken"})["results"]["mixed"] == "5/18"
    shown(app, "A")
    v = shown(app, "C", *(["DOWN"] * items.index("Clocks (2)")), "B")
    assert v["screen"] == "save_clocks" and v["clocks"] == [["Ritual", "progress", 6, 2], ["Doom", "setback", 4, 1]]
    shown(app, "A")
    v = shown(app, "C", "DOWN", "B")
    assert v["screen"] == "save_hero" and v["health"] == "shaken" and v["ladder"][2] == "shaken"


def test_down_cannot_roll():
    # seed: "When they're Down ... they cannot affect the story."
    app = save_app(health="down")
    v = shown(app, "B")
    assert v["screen"] == "message" and v["title"] == "Not now"
    assert app.game.s.rolls == 0


def test_the_save_survives_a_restart():
    app = save_app(pursuit="see the sea")
    next_dice(app.game, 2, 5)
    press(app, "B")
    from tests.device.support import FakeBoard

    again = make_app(FakeBoard(app.board.flash_dir))
    assert again.game.SYSTEM == "save" and again.game.dump() == app.game.dump()
    v = shown(again)
    assert v["screen"] == "save_roll" and v["result"] == "pending"


def _root_save():
    app = save_app(history=["a storm"])
    next_dice(app.game, 4, 6)
    app.game.do("roll", {"injury": True})
    app.game.do("set_clocks", {"clocks": [["Ritual", "progress", 6, 2]]})
    app.ui.reset()
    return app, ["C"]


def test_every_menu_row():
    chosen, screens = walk(_root_save)
    titles = set(t for t, _ in chosen)
    for t in ("Menu", "Destiny: which benefit?", "Because of...", "Special roll", "Health: Fair",
              "Set health (* = now)", "End of session", "Help & settings"):
        assert t in titles, (t, sorted(titles))
    for s in ("save_home", "save_roll", "save_hero", "save_clocks", "save_odds", "message", "entry"):
        assert s in screens, (s, screens)


def test_save_screens_are_drawn_by_draw_save():
    """Each SAVE view is drawn by draw_save (not the renderer's "Unknown
    screen"), and a passing die is inverted. Needs framebuf: MicroPython."""
    try:
        import framebuf  # noqa: F401
    except ImportError:
        return
    from render import Renderer

    app = save_app()
    next_dice(app.game, 6, 1)
    views = [press(app), press(app, "B")]
    r = Renderer()
    unknown = bytes(r.render({"screen": "message", "title": "Unknown screen",
                              "lines": ["no screen called", "save_home"], "hint": ""}))
    for v in views:
        got = bytes(r.render(v))
        assert got != unknown and sum(got) > 0
    # the roll: die 1 (a six, passes) is inverted, die 2 (a one) is an outline
    r.render(views[1])
    fb = r.fb
    assert fb.pixel(4 + 5, 2 + 5) == 1 and fb.pixel(62 + 5, 2 + 5) == 0


def test_the_name_is_spelled_with_the_buttons_and_kept():
    app = save_app()
    items = shown(app, "C")["items"]
    v = shown(app, *(["DOWN"] * items.index("Name")), "B")
    assert v["screen"] == "entry" and v["title"] == "Your name"
    v = shown(app, "DOWN", "B", "B", "C")  # B, then b
    assert v["screen"] == "save_home" and app.name == "Bb"
    from tests.device.support import FakeBoard

    again = make_app(FakeBoard(app.board.flash_dir))
    assert again.name == "Bb" and again.ui.status()["name"] == "Bb"

"""The Facets device screens (firmware/facets/ui.py), on both runtimes.

Buttons do what the hints say; every menu row, picker and flow is chosen
with the buttons (a walker follows each path a few levels deep on a fresh
device) and every screen reached is drawn where the runtime has the
renderer (MicroPython's framebuf).
"""

import json
import sys

if "firmware" not in sys.path:
    sys.path.append("firmware")

from shared_rules.facets.game import ATTRS, Game  # noqa: E402
from shared_rules.prng import Rng  # noqa: E402
from tests.device.support import make_app, request  # noqa: E402
from tests.device.walker import first_time, renderer  # noqa: E402

MAX_DEPTH = 4
def facets_app(game=None):
    """A device (the real App on a fake board) playing Facets."""
    app = make_app()
    app.game = game if game is not None else Game.new(seed=3)
    app.fit_ui()
    app.ui.reset()
    app.save()
    return app


class Scripted(Rng):
    def __init__(self, faces):
        Rng.__init__(self, 1)
        self.faces = list(faces)

    def below(self, n):
        return (self.faces.pop(0) if self.faces else 1) - 1


def draw(view):
    """Draw the view like the panel would (MicroPython only: framebuf), a
    Facets screen also straight through its draw module."""
    r = renderer()
    if r is not None and first_time(view):
        r.render(view)
        if view["screen"].startswith("facets_"):
            # straight, not through render's guard, so a drawing error fails here
            from facets import draw as draw_facets

            r.fb.fill(0)
            draw_facets.draw(r, view)


def ui_for(app=None):
    app = app or facets_app()
    assert app.ui.SYSTEM == "facets"
    return app.ui, app


def press(u, *buttons):
    """Buttons through the device's Ui, each committed (saved, events out)
    and drawn; the screen last shown."""
    screen = None
    app = u.app
    for b in buttons:
        app.ui.press(b)
        app.commit()
        view = app.ui.view()  # the app's Ui: a new character of another system brings its own
        screen = view["screen"]
        draw(view)
    return screen


def test_home_buttons_set_the_check():
    u, app = ui_for()
    v = u.view()
    assert v["screen"] == "facets_home" and v["attr"] == "F" and v["tn"] == 8 and v["die"] == 8
    seen = []
    for _ in range(9):
        seen.append(u.view()["attr"])
        press(u, "A")
    assert sorted(seen) == sorted(ATTRS) and u.view()["attr"] == "F"
    press(u, "UP", "UP", "DOWN")
    assert u.view()["tn"] == 9
    assert app.game.s.count == 0  # setting up a check changes nothing in the game


def test_roll_shows_the_chain_and_the_word():
    u, app = ui_for()
    app.game.s.rng = Scripted([8, 8, 3, 2])
    assert press(u, "B") == "facets_roll"
    v = u.view()
    assert v["rolls"][0]["faces"] == [8, 8, 3] and v["word"] == "ADVANTAGE x2"
    assert press(u, "B") == "facets_roll"  # B: the same roll again
    assert u.view()["rolls"][0]["faces"] == [2] and u.view()["word"] == "FAILURE"
    assert "effort +1" in u.view()["notes"]
    assert press(u, "A") == "facets_home"
    press(u, "C", "B")  # Last roll
    assert u.view()["screen"] == "facets_roll" and u.view()["rolls"][0]["faces"] == [2]


def test_extended_task_tracked_until_impossible():
    u, app = ui_for()
    app.game.s.rng = Scripted([1, 1, 1, 1])
    # Menu > Extended task: successes 2, attempts 5, 30 seconds
    press(u, "C", "DOWN", "DOWN", "DOWN", "B", "B", "B", "DOWN", "DOWN", "B")
    v = u.view()
    assert v["screen"] == "facets_home" and v["task"]["text"] == "[Finesse 8 - 2/5 - 30s]"
    assert v["task"]["marks"] == "....."
    for _ in range(4):
        press(u, "B", "A")
    v = u.view()
    assert v["task"]["state"] == "impossible" and v["task"]["marks"] == "XXXX."
    press(u, "B")  # B closes a finished task
    assert "task" not in u.view() and app.game.s.task is None


def test_taken_out_asks_for_the_consequence_first():
    u, app = ui_for()
    app.game.do("damage", {"track": "health", "amount": 10})
    v = u.view()
    assert v["screen"] == "menu" and v["title"].startswith("Taken out!")
    press(u, "A")  # no way back
    assert u.view()["title"].startswith("Taken out!")
    press(u, "B", "B", "B")  # take it: Endurance (the default, first), die two steps down
    assert app.game.s.ladders["health"] == [1, ["step"], ["E"]] and app.game.s.out == ""
    assert u.view()["screen"] == "facets_home"
    assert u.status()["footer"] == "H0/10 C10/10 E0 T0 HURT"


def test_odds_screen_shows_the_exact_figures():
    u, app = ui_for()
    press(u, "UP", "UP", "UP", "UP", "C", "DOWN", "DOWN", "B")
    v = u.view()
    assert v["screen"] == "facets_odds"
    o = app.game.odds_query({"attr": "F", "tn": 12})
    assert [row[1] for row in v["rows"]] == [o["bands"][b] for b in ("advantage", "success", "cost", "fail", "fail_cost")]
    assert v["rows"][3] == ["fail", "5/8", "62.5"]


def test_sheet_sets_a_die():
    u, app = ui_for()
    press(u, "C")
    for _ in range(6):
        press(u, "DOWN")
    press(u, "B", "DOWN", "B")  # Character sheet, Finesse, set die
    assert u.view()["screen"] == "menu"
    press(u, "DOWN", "DOWN", "DOWN", "B")  # d10
    assert app.game.s.attrs["F"] == 10


def test_attack_two_light_weapons():
    u, app = ui_for()
    app.game.s.rng = Scripted([6, 2, 3])
    press(u, "C", "DOWN", "DOWN", "DOWN", "DOWN", "B", "DOWN", "DOWN", "B", "B", "DOWN", "B")
    v = u.view()
    assert v["screen"] == "facets_roll" and len(v["rolls"]) == 2 and v["rolls"][0]["die"] == 6
    assert app.game.s.last["kind"] == "attack"


def _screen_kind(v):
    return v["screen"]


def _walk(make, prefix, depth, seen, reached=None):
    """Choose every row of the screen reached by ``prefix`` on a fresh
    device, and follow what opens, ``depth`` levels more; ``seen`` counts
    the screens by kind, ``reached`` (a list) gets each (buttons, view,
    app)."""
    u, app = make()
    press(u, *prefix)
    v = app.ui.view()
    kind = v["screen"]
    seen[kind] = seen.get(kind, 0) + 1
    if reached is not None:
        reached.append((prefix, v, app))
    if depth == 0:
        return
    if kind == "menu":
        for i in range(len(v["items"])):
            _walk(make, prefix + ["DOWN"] * i + ["B"], depth - 1, seen, reached)
    elif kind in ("number", "entry"):
        _walk(make, prefix + (["B", "C"] if kind == "entry" else ["B"]), depth - 1, seen, reached)


def _busy_game():
    g = Game.new(seed=5, positioning=True)
    g.do("trait_add", {"name": "swift", "attr": "F", "bonus": 2})
    g.do("effort", {"delta": 3})
    g.s.ladders["health"] = [1, ["step"], ["E"]]
    return g


def test_every_menu_path_works():
    seen = {}
    _walk(lambda: ui_for(facets_app(_busy_game())), ["C"], MAX_DEPTH, seen)
    for kind in ("menu", "number", "facets_roll", "facets_sheet", "facets_odds", "message", "facets_home"):
        assert kind in seen, (kind, seen)


CONSEQUENCE_MENUS = ("Taken out! (", "Penalty on (", "Also on (", "Crippled, or death?", "Which penalty?")


def test_taken_out_paths_and_no_game_menu():
    """Taken out of Health or Cool at each rung: every row of the consequence's
    menus works, only those menus show until one is taken (A and C lead
    nowhere else), and every path ends at home with the character no longer
    out; taking it moves the track one rung down, and only Health's last
    rungs can kill. A Facets device with no game: C opens the "No game" menu,
    and each of its rows works."""
    for track in ("health", "cool"):
        for level in (0, 1, 2, 3):
            def make(track=track, level=level):
                g = _busy_game()
                kinds = ["step", "cost", "effort"][:level]
                g.s.ladders[track] = [level, kinds, ["E", "S"][:min(level, 2)] if track == "health" else ["C", "P"][:min(level, 2)]]
                g.s.points[track] = 0
                g.s.out = track
                return ui_for(facets_app(g))
            case = (track, level)
            u, app = make()
            for b in ("C", "A"):
                press(u, b)
                assert u.view()["title"] == "Taken out! (%s 0)" % track, case
            seen, reached = {}, []
            _walk(make, [], 4, seen, reached)
            assert sorted(seen) == ["facets_home", "menu"], (case, seen)  # no refusal ("Not now") on any path
            for buttons, v, app in reached:
                s = app.game.s
                if v["screen"] == "menu":
                    assert [t for t in CONSEQUENCE_MENUS if v["title"].startswith(t)], (case, buttons, v["title"])
                    assert s.out == track and s.ladders[track][0] == level, (case, buttons)
                    continue
                assert s.out == "" and s.ladders[track][0] >= level, (case, buttons)
                if buttons[0] == "B" and not s.dead:  # Take it
                    assert s.ladders[track][0] == min(level + 1, 3), (case, buttons, s.ladders[track])
            homes = [app for buttons, v, app in reached if v["screen"] == "facets_home"]
            assert homes, case
            assert any(app.game.s.dead for app in homes) == (track == "health" and level >= 2), case

    def no_game():
        app = facets_app()
        app.game = None
        app.ui.reset()
        return ui_for(app)

    u, app = no_game()
    assert u.view()["screen"] == "facets_home" and u.view()["hint"] == "C menu: New character"
    press(u, "C")
    v = u.view()
    assert v["title"] == "No game" and v["items"] == ["New character", "Help"]
    seen, reached = {}, []
    _walk(no_game, ["C"], 4, seen, reached)
    # a new character of each system, and the help pages
    assert set(seen) == {"menu", "facets_home", "home", "save_home", "message"}, seen
    made = []
    for buttons, v, app in reached:
        assert v.get("title") != "Not now", (buttons, v)
        if app.game is not None:
            assert app.ui.SYSTEM == app.game.SYSTEM and v["screen"].endswith("home"), (buttons, v["screen"])
            made.append(app.game.SYSTEM)
    assert sorted(made) == ["deck", "facets", "save"], made


def test_new_character_chooses_facets_and_back():
    app = make_app()  # a Deckahedron device
    u = app.ui
    v = u.view()
    press(u, "C")
    rows = u.view()["items"]
    press(u, *(["DOWN"] * rows.index("Help & settings")), "B")
    press(u, *(["DOWN"] * u.view()["items"].index("New character")), "B", "DOWN", "B")
    v = u.view()
    assert v["title"] == "New character: system" and "  Facets" in v["items"]
    press(u, *(["DOWN"] * v["items"].index("  Facets")), "B")
    assert app.game.SYSTEM == "facets" and app.ui.SYSTEM == "facets"
    u = app.ui
    assert u.view()["screen"] == "facets_home"
    ok, hello = request(app, 1, "hello")
    assert ok and hello["system"] == "facets"
    # Menu > New character > yes > Deckahedron: back to the cards
    press(u, "C", *(["UP"] + ["B"]))
    press(u, "DOWN", "B")
    assert u.view()["items"][1] == "* Facets"
    press(u, "B")
    assert app.game.SYSTEM == "deck" and app.ui.SYSTEM == "deck"


def test_name_and_host_commands():
    u, app = ui_for()
    press(u, "C", *(["UP"] * 2), "B")  # Name
    assert u.view()["screen"] == "entry"
    press(u, "B", "DOWN", "B", "C")  # "Ab"
    assert app.name == "Ab"
    ok, r = request(app, 1, "roll", attr="wit", tn=9)
    assert ok and r["system"] == "facets" and r["roll"]["attr"] == "W"
    ok, r = request(app, 2, "odds", die=8, tn=8)
    assert ok and r["bands"]["cost"] == "5/8"
    ok, r = request(app, 3, "state")
    text = r["data"]
    for i in range(1, r["parts"]):
        text += request(app, 3 + i, "state", part=i)[1]["data"]
    state = json.loads(text)
    assert ok and state["system"] == "facets" and state["count"] == 1
    ok, r = request(app, 40, "flip", suit="crown")  # a Deckahedron command: not this system's
    assert not ok and r["code"] == "bad_op"


def test_a_roll_the_host_made_shows_until_a_press():
    u, app = ui_for()
    app.game.s.rng = Scripted([5, 2])
    ok, r = request(app, 1, "attack", attr="F", tn=4, weapon="light", double=True)  # two d6: a hit, a hit at a cost
    assert ok and r["damage"] == 2
    v = u.view()
    assert v["screen"] == "facets_roll" and v["word"] == "2 DAMAGE" and [x["faces"] for x in v["rolls"]] == [[5], [2]]
    press(u, "A")
    assert u.view()["screen"] == "facets_home"
    ok, r = request(app, 2, "roll", attr="F", tn=0)  # refused: nothing new to show
    assert not ok and u.view()["screen"] == "facets_home"
    request(app, 3, "roll", attr="F", tn=8)
    u.view()  # drawn
    request(app, 4, "initiative", kind="social")
    assert u.view()["kind"] == "initiative"  # the newest of the host's rolls
    press(u, "A")
    assert u.view()["screen"] == "facets_home"


def test_last_roll_after_a_restart():
    app = facets_app()
    app.game.s.rng = Scripted([3])
    press(app.ui, "B", "A")
    again = make_app(app.board)  # the same flash: the save is read back
    assert again.ui.SYSTEM == "facets" and again.ui.view()["screen"] == "facets_home"
    press(again.ui, "C", "B")  # Last roll
    v = again.ui.view()
    assert v["screen"] == "facets_roll" and v["rolls"][0]["faces"] == [3] and v["word"] == "SUCCESS, COST"

"""The GM's asked flip on the device (op ask, issue 27): every path of the
ask screen (firmware/deck/ask.py), on CPython and under MicroPython."""

from tests.device.support import make_app, press, request, with_game
from tests.rules.support import stacked

ASK = {"ask": 12, "from": "GM", "attr": "dex", "net": 1, "reason": "climb the wall"}


def _events(app):
    return [f[2] for f in app.board.frames("E")]


def test_an_ask_shows_who_asks_what_and_why_with_its_buttons():
    app = with_game(make_app(), stacked(["4", "9"]))
    ok, r = request(app, 1, "ask", **ASK)
    assert ok and r == {"shown": 12}
    v = app.ui.view()
    assert v["screen"] == "message" and v["title"] == "Flip asked" and v["hint"] == "B flip  C decline"
    assert v["lines"][:3] == ["GM asks you to flip", "DEX +1", "climb the wall"]
    ok, r = request(app, 2, "ask", **ASK)  # a retried ask: the same screen, not a second one
    assert ok and len(app.ui.stack) == 1
    for b in ("A", "UP", "DOWN"):  # not an answer: the request stays
        assert press(app, b)["title"] == "Flip asked"


def test_b_flips_as_asked_and_the_flips_events_carry_the_ask():
    app = with_game(make_app(), stacked(["4", "9"]))
    app.game.s.attrs["dex"] = "crown"
    request(app, 1, "ask", **ASK)
    v = press(app, "B")
    assert v["screen"] == "flip" and v["suit"] == "crown" and v["net"] == 1 and app.ui.attr == "dex"
    press(app, "A")  # done
    flips = [e for e in _events(app) if e["op"] in ("flip", "end_flip")]
    assert [(e["op"], e.get("ask")) for e in flips] == [("flip", 12), ("end_flip", 12)]
    press(app, "B", "A")  # the next flip is the player's own
    assert "ask" not in _events(app)[-1] and app.asked is None


def test_c_declines_and_the_gm_hears_of_it():
    app = with_game(make_app(), stacked(["4", "9"]))
    count = app.game.s.count
    request(app, 1, "ask", **ASK)
    v = press(app, "C")
    assert v["screen"] == "home" and app.game.s.count == count
    e = _events(app)[-1]
    assert (e["op"], e["ask"], e["why"]) == ("decline", 12, "declined") and e["digest"] == app.game.digest()


def test_a_flip_the_rules_refuse_is_said_on_the_panel_and_to_the_gm():
    app = with_game(make_app(), stacked(["4", "9"]))
    request(app, 1, "ask", **ASK)
    app.game.s.incapacitated = "bust on 3"  # knocked out after the ask arrived: the rules refuse the flip
    v = press(app, "B")
    assert v["title"] == "Not now" and app.asked is None
    e = _events(app)[-1]
    assert (e["op"], e["ask"], e["why"]) == ("decline", 12, "refused")


def test_an_ask_is_refused_while_the_player_is_busy_or_out():
    app = with_game(make_app(), stacked(["4", "9"]))
    press(app, "C")  # the menu
    ok, r = request(app, 1, "ask", **ASK)
    assert not ok and r["code"] == "busy" and "menu" in r["message"]
    app.ui.home()
    press(app, "B")  # an open flip
    ok, r = request(app, 2, "ask", **ASK)
    assert not ok and r["code"] == "busy"
    out = with_game(make_app(), stacked(incapacitated="bust on 3"))
    ok, r = request(out, 3, "ask", **ASK)
    assert not ok and r["code"] == "out" and "knocked out" in r["message"]


def test_a_malformed_ask_is_refused_and_shows_nothing():
    app = make_app()
    for bad in ({"attr": "dex"}, dict(ASK, attr="cha"), dict(ASK, net=4), dict(ASK, net=True),
                dict(ASK, reason="x" * 61), dict(ASK, ask=0), dict(ASK, **{"from": ""})):
        ok, r = request(app, 1, "ask", **bad)
        assert not ok and r["code"] == "bad_args", bad
    assert app.ui.stack == []


def test_another_system_says_it_takes_no_asked_flips():
    for system in ("facets", "save"):
        app = make_app()
        assert request(app, 1, "new_game", confirm=True, system=system, seed=3)[0]
        ok, r = request(app, 2, "ask", **ASK)
        assert not ok and r["code"] == "not_for_system", system

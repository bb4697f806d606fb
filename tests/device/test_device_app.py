"""The device app: buttons, screens, saving, and the link endpoint.

Runs on CPython and under MicroPython (tests/mp_runner.py) with a fake board.
"""

from shared_rules import protocol as P
from shared_rules.deck.game import Game
from tests.device.support import FakeBoard, choose, fetch_parts, kept, make_app, press, request, saved_text, with_game
from tests.rules.support import stacked


def test_first_boot_deals_a_new_deck_and_saves_it():
    app = make_app()
    assert app.game is not None and len(app.game.s.draw) == 20
    again = make_app(FakeBoard(app.board.flash_dir))
    assert again.game.dump() == app.game.dump()


def test_home_buttons_set_attribute_and_advantage():
    app = make_app()
    v = press(app, "A")
    assert v["screen"] == "home" and v["attr"] == "dex"
    v = press(app, "UP", "UP", "UP", "UP")
    assert v["net"] == 3  # clamped
    v = press(app, "DOWN", "DOWN", "DOWN", "DOWN", "DOWN", "DOWN", "DOWN")
    assert v["net"] == -3
    assert "B flip" in v["hint"] and v["status"]["draw"] == 20


def test_flip_with_one_press_and_done():
    """MD *Flipping*: one press of B flips for the chosen attribute."""
    app = with_game(make_app(), stacked(["4", "9"]))
    app.game.s.attrs["str"] = "crown"
    v = press(app, "UP", "B")  # Str (Crown) with advantage
    assert v["screen"] == "flip" and v["cards"] == ["4", "9"] and v["suit"] == "crown"
    assert v["resolving"] == 0 and v["words"] == "SUCCESS"
    v = press(app, "A")
    assert v["screen"] == "home" and app.game.s.flip is None and app.game.s.discard[-2:] == ["4", "9"]


def test_button_flip_becomes_an_event_for_the_host():
    """Design §5: a flip made with the buttons is an event with a sequence
    number, kept until the host acknowledges it."""
    app = with_game(make_app(), stacked(["4"]))
    press(app, "B", "A")
    events = app.board.frames("E")
    assert [e[1] for e in events] == [1, 2]  # the flip, then its end
    end = events[-1][2]
    assert end["op"] == "end_flip" and end["flip"]["cards"] == ["4"] and end["digest"] == app.game.digest()
    assert app.link.events_kept() == 2
    app.link.feed(P.ack(1).encode(), app.handle)
    assert [e[0] for e in kept(app.link)] == [2]


def test_tie_choice_with_up_down_and_b():
    """MD *Advantage*: on a tie the player picks (here XP vs no XP)."""
    app = with_game(make_app(), stacked(["1", "8"]))
    app.game.s.attrs["str"] = "anvil"
    v = press(app, "UP", "B")
    assert v["phase"] == "choose" and v["words"] == "CHOOSE A CARD" and v["selected"] == 0
    v = press(app, "DOWN")
    assert v["selected"] == 1
    v = press(app, "B")
    assert v["phase"] == "open" and v["resolving"] == 1
    press(app, "A")
    assert app.game.s.xp == 1


def test_b_again_flips_again():
    app = with_game(make_app(), stacked(["4", "5", "6"]))
    press(app, "B")
    v = press(app, "B")
    assert v["screen"] == "flip" and v["cards"] == ["5"]


def test_critical_success_asks_before_ending():
    """MD *Critical Success*: level up, or take a Blessing."""
    app = with_game(make_app(), stacked(["11", "2"]))
    v = press(app, "B", "A")
    assert v["screen"] == "menu" and v["title"] == "Critical success!"
    assert v["items"][:2] == ["Level up a move", "Take a Blessing"]
    v = press(app, "DOWN", "B")  # the blessing taken is confirmed on screen (issue 10)
    taken = app.game.s.discard[-2]
    assert taken.startswith("pb") and v["screen"] == "message" and v["title"] == "Blessing taken"
    assert ("card %s " % taken) in v["lines"][0]
    assert press(app, "A")["screen"] == "home"


def test_flashback_from_the_flip_menu():
    app = with_game(make_app(), stacked(["2", "3"], xp=1))
    app.game.s.attrs["str"] = "anvil"
    press(app, "B", "C")
    v = press(app, "B")  # first item: Flashback
    assert v["screen"] == "flip" and v["cards"] == ["3"] and v["flashback"] and app.game.s.xp == 0


def test_damage_flow_from_the_menu():
    """MD *The Four Ds*: enter the attack power, choose how to take it."""
    app = with_game(make_app(), stacked(["2", "11", "3", "12"]))
    v = choose(app, "Hurt", "Take damage")
    assert v["screen"] == "number" and v["title"] == "Attack power"
    v = press(app, "UP", "B")  # 2
    assert v["screen"] == "menu" and v["items"][0] == "All as Stamina (2)"
    assert "One Wound takes it all" in v["items"]
    press(app, "B")
    assert [e[0] for e in app.game.s.exhaustion] == ["2", "11", "3", "12"]


def test_reveal_then_take_it():
    app = with_game(make_app(), stacked(["5"], campaign="9h"))
    v = choose(app, "Hurt", "Reveal", "1d10")
    assert v["screen"] == "menu" and v["title"].startswith("Revealed 4")
    assert "1 Harm + 1 Stamina" in v["items"]


def test_breather_and_rest_flows():
    """MD *Taking a Breather*, *Resting*: the player picks what comes back
    and what stays (issue 10: not the device's "worst")."""
    app = with_game(make_app(), stacked(exhaustion=["2", "^11", "3"], exh_tokens=1, harm=1, campaign="9h"))
    v = choose(app, "Hurt", "Take a Breather")
    assert v["title"] == "Breather: regain up to 4"
    assert v["items"] == ["[ ] Exhaustion token", "[ ] face-down, taken blind", "[ ] 11  VVV VVV VVV VVV",
                          "[ ] face-down, taken blind", "Regain 0 Stamina"]
    v = press(app, "B", "DOWN", "DOWN", "B", "DOWN", "B")  # the token, card 11, one face-down blind
    assert v["items"][-1] == "Regain 3 Stamina"
    press(app, "DOWN", "B")
    assert app.game.s.exh_tokens == 0 and len(app.game.s.exhaustion) == 1 and "11" in app.game.s.discard
    v = choose(app, "Hurt", "Rest")  # 1 Harm, 1 Exhaustion card: nothing to choose
    assert v["title"] == "Rest" and v["items"][0] == "Go ahead"
    press(app, "B")
    assert len(app.game.s.exhaustion) == 1 and app.game.s.harm == 0


def test_refusals_show_the_reason_and_change_nothing():
    app = with_game(make_app(), stacked(incapacitated="bust on 3"))
    before = app.game.dump()
    v = press(app, "B")
    assert v["screen"] == "message" and "incapacitated" in " ".join(v["lines"])
    assert app.game.dump() == before
    v = press(app, "A")  # knocked out is said plainly, not a home screen with a tag
    assert v["screen"] == "message" and v["title"] == "KNOCKED OUT" and "bust on 3" in v["lines"][0]
    assert press(app, "C")["title"] == "Menu"


def test_minigame_screen():
    """MD *Pick Locks*: exhaust a card to replace it; give up = ✗."""
    app = with_game(make_app(), stacked(["1", "pw1", "6", "2"]))
    app.ui.push(__import__("menu_widgets").Menu(app.ui, "x", [("go", lambda: app.ui.run("minigame_start", {"kind": "pick_locks"}))]))
    v = press(app, "B")
    assert v["screen"] == "minigame" and not v["solvable"]
    v = press(app, "DOWN", "C")
    assert v["cards"] == ["1", "2", "6"]
    v = press(app, "A", "DOWN", "B")
    assert v["screen"] == "home" and app.game.s.minigame == ""


def test_sheet_changes_attribute_suits():
    app = make_app()
    app.game.s.attrs["str"] = "crown"
    app.ui.push(__import__("deck.sheet", None, None, ["Sheet"]).Sheet(app.ui))
    v = press(app, "B")
    assert app.game.s.attrs["str"] == "dragon" and v["screen"] == "sheet"


def test_damaged_save_is_reported_and_kept():
    """Issue: a corrupt save is reported on screen, never silently replaced."""
    board = FakeBoard()
    with open(board.flash_dir + "/deck.sav", "w") as f:
        f.write("deckahedron-state 1\nthis is not a save\n")
    app = make_app(board)
    assert app.game is None and app.problem == "damaged"
    v = app.ui.view()
    assert v["screen"] == "message" and v["title"] == "Save damaged"
    with open(board.flash_dir + "/deck.bad") as f:
        assert "this is not a save" in f.read()
    ok, result = request(app, 3, "hello")
    assert ok and result["problem"] == "damaged"
    ok, err = request(app, 4, "flip", suit="anvil")
    assert not ok and err["code"] == "no_game"
    ok, err = request(app, 5, "new_game")
    assert not ok and err["code"] == "confirm"
    ok, result = request(app, 6, "new_game", confirm=True, seed=3)
    assert ok and app.game is not None and app.problem == ""


def test_leftover_temp_file_is_recovered():
    """Design §3: on FAT a power cut can leave only the temporary file."""
    app = make_app()
    text = saved_text(app)
    board = FakeBoard()
    with open(board.flash_dir + "/deck.tmp", "w") as f:
        f.write(text)
    again = make_app(board)
    assert again.game.dump() == app.game.dump()
    assert again.ui.view()["title"] == "Save recovered"


def test_torn_temp_file_next_to_a_good_save_is_ignored():
    app = make_app()
    with open(app.board.flash_dir + "/deck.tmp", "w") as f:
        f.write(saved_text(app)[:100])
    again = make_app(FakeBoard(app.board.flash_dir))
    assert again.game.dump() == app.game.dump() and again.problem == ""


def test_requests_are_saved_before_the_reply_and_never_applied_twice():
    """Design §5: a retried request id returns the remembered reply."""
    app = with_game(make_app(), stacked(["4", "5"]))
    ok, r1 = request(app, 10, "flip", suit="crown")
    assert ok and r1["cards"] == ["4"]
    saved = make_app(FakeBoard(app.board.flash_dir))  # what a power cut now leaves
    assert saved.game.s.table == ["4"]
    ok, r2 = request(app, 10, "flip", suit="crown")
    assert r2 == r1 and app.game.s.table == ["4"]
    ok, r3 = request(saved, 10, "flip", suit="crown")  # retried after the restart
    assert r3 == r1 and saved.game.s.table == ["4"]


def test_bad_frames_get_clear_errors():
    app = make_app()
    for line, code in ((b"Q 1 flip {} 00000000\n", "bad_crc"), (b"Q " + b"x" * 600 + b"\n", "too_long"),
                       (P.request(2, "teleport", {}).encode(), "bad_op"),
                       (P.request(3, "flip", {"suit": "sword"}).encode(), "bad_suit"),
                       (P.request(4, "press", {"button": "Z"}).encode(), "bad_args")):
        n = len(app.board.sent)
        app.link.feed(line, app.handle)
        app.commit()
        f = P.decode(app.board.sent[n])
        assert f[0] == "R" and not f[2][0] and f[2][1]["code"] == code, (line[:20], f)
    app.link.feed(b"MicroPython v1.23 banner\n", app.handle)
    assert app.link.noise == 1


def test_unacknowledged_events_survive_a_restart_and_replay_after_hello():
    app = with_game(make_app(), stacked(["4"]))
    press(app, "B", "A")
    again = make_app(FakeBoard(app.board.flash_dir))
    ok, hello = request(again, 20, "hello")
    assert hello["events"] == 2
    replayed = [f[1] for f in again.board.frames("E")]
    assert replayed == [1, 2]


def test_backup_and_restore_in_parts():
    """The host keeps a backup and restores it onto a replacement device."""
    app = with_game(make_app(), stacked(["4"], xp=3))
    text, r = fetch_parts(app, 30, "backup")
    assert text == app.game.dump() and r["digest"] == app.game.digest()
    other = make_app(seed=99)
    chunks = P.chunks(text)
    for j in range(len(chunks)):
        ok, r = request(other, 50 + j, "restore", part=j, parts=len(chunks), data=chunks[j], digest=app.game.digest())
        assert ok
    assert r["restored"] and other.game.dump() == app.game.dump()
    for j in range(len(chunks)):
        ok, err = request(other, 90 + j, "restore", part=j, parts=len(chunks), data=chunks[j], digest="0" * 16)
    assert not ok and err["code"] == "bad_restore" and other.game.dump() == app.game.dump()


def test_state_comes_in_parts_and_names_the_player():
    import json

    app = make_app()
    ok, r = request(app, 5, "set_name", name="Ann")
    assert ok
    ok, err = request(app, 6, "set_name", name="x" * 40)
    assert not ok
    text, r = fetch_parts(app, 7, "state")
    state = json.loads(text)
    assert state["name"] == "Ann" and state["draw"] == 20 and state["digest"] == app.game.digest()


def test_game_loads_what_the_device_saved():
    app = make_app()
    text = saved_text(app)
    cut = text.find("\nname ")
    assert Game.load(text[:cut + 1]).dump() == app.game.dump()


def test_a_flip_the_host_resolved_stays_on_screen_until_a_press():
    app = with_game(make_app(), stacked(["4", "5"]))
    request(app, 1, "flip", suit="crown")
    request(app, 2, "end_flip")
    v = app.ui.view()
    assert v["screen"] == "flip" and v["cards"] == ["4"] and v["words"] == "SUCCESS"
    v = press(app, "B")  # B still flips at once
    assert v["screen"] == "flip" and v["cards"] == ["5"] and app.ui.result is None


class _Frame:
    """A renderer that draws nothing (App.show needs MicroPython's framebuf)."""

    buf = bytearray(4736)
    error = None  # render.Renderer's: a screen it could not draw

    def render(self, view):
        pass


class _Watching(FakeBoard):
    """Notes, at each show, how many saves and sent lines came before it."""

    def show(self, buf, mode):
        self.shown.append((self.app.storage.saves, len(self.sent)))


def test_a_press_is_on_the_panel_before_its_save_and_its_event():
    """A press's screen goes out first; its digest, event line and save
    follow while the panel refreshes, and the event still only after the
    save (design §5): the host never hears of a state the flash lacks."""
    board = _Watching()
    app = with_game(make_app(board), stacked(["4", "5"]))
    board.app, app.renderer = app, _Frame()
    saves, sent = app.storage.saves, len(board.sent)
    board.pressed = ["B"]
    app.poll(0)
    assert board.shown == [(saves, sent)]  # nothing saved or sent when the frame went
    assert app.storage.saves == saves + 1 and "table 4" in saved_text(app)
    (_, seq, event), = board.frames("E")
    assert event["op"] == "flip" and event["digest"] == event["result"]["digest"] == app.game.digest()


def test_presses_in_one_poll_each_get_the_digest_of_their_own_state():
    app = with_game(make_app(), stacked(["4", "5"]))
    app.renderer = _Frame()
    app.board.pressed = ["B", "A"]  # the flip and its end, read together
    app.poll(0)
    flip, end = [f[2] for f in app.board.frames("E")]
    alone = with_game(make_app(), stacked(["4", "5"]))
    press(alone, "B")
    assert flip["op"] == "flip" and flip["digest"] == alone.game.digest()
    assert end["op"] == "end_flip" and end["digest"] == app.game.digest() != flip["digest"]
    assert app.game.s.discard[-1:] == ["4"] and "discard 4" in saved_text(app)


def test_a_host_reply_does_not_wait_for_a_press_on_the_panel():
    board = _Watching()
    app = with_game(make_app(board), stacked(["4", "5"]))
    board.app, app.renderer = app, _Frame()
    board.inbox = P.request(3, "ping", {}).encode()
    board.pressed = ["B"]
    app.poll(0)
    assert board.shown[0][1] >= 1 and P.decode(board.sent[0])[:2] == ("R", 3)  # the reply went before the frame


def test_a_done_command_is_never_reported_as_failed():
    """If a command's full result cannot fit a frame, the reply still says ok
    with the new digest: the device acted, so the host must not retry it as
    a failure."""
    from endpoint import Endpoint

    sent = []
    ep = Endpoint(sent.append)
    big = {"digest": "abc", "blob": "x" * 600}
    ep.feed(P.request(9, "flip", {}).encode(), lambda op, args: (True, True, big))
    ep.flush_reply()
    kind, rid, (ok, value) = P.decode(sent[-1])
    assert ok and value == {"digest": "abc", "truncated": True}


def test_idle_power_off_with_the_state_saved_and_wake_on_a_button():
    """Issue: power off after a period of no input, state already saved;
    the watchdog is fed every loop."""
    class SleepyBoard(FakeBoard):
        can_sleep = True

        def __init__(self):
            FakeBoard.__init__(self)
            self.offs = 0
            self.feeds = 0
            self.saved_at_off = None

        def power_off(self):
            self.offs += 1
            with open(self.flash_dir + "/deck.sav") as f:
                self.saved_at_off = f.read()

        def feed(self):
            self.feeds += 1

    board = SleepyBoard()
    app = with_game(make_app(board), stacked(["4"]))
    app.ui.press("B")  # a flip in progress, not yet saved
    app.need_save = True
    app.IDLE_OFF_MS = 0
    app.last_input -= 10
    app.show = lambda: None  # no renderer on CPython
    app.refresh.since_full = 1  # a fast update on the panel, no clean refresh due
    app.poll(0)
    assert board.offs == 1 and board.feeds == 1
    assert "table 4" in board.saved_at_off  # the flip was saved before the power went
    assert app.ui.view()["screen"] == "flip" and app.refresh.since_full == 1  # the panel kept its image


def test_a_failing_panel_does_not_stop_the_game():
    class DeadPanel(FakeBoard):
        def show(self, buf, mode):
            raise RuntimeError("SSD1680 stayed busy for 10000 ms during full update")

    app = make_app(DeadPanel())

    app.renderer = _Frame()
    app.show()
    ok, hello = request(app, 1, "hello")
    assert ok and "stayed busy" in hello["panel_error"]
    ok, r = request(app, 2, "flip", suit="crown")
    assert ok and r["cards"]


def test_new_game_names_its_system_and_refuses_an_unknown_one():
    """docs/systems.md: a system is chosen per device at a new character;
    the Deckahedron is the default; a bad choice changes nothing."""
    app = make_app()
    before = app.game.dump()
    ok, r = request(app, 1, "new_game", confirm=True, system="tarot")
    assert not ok and r["code"] == "bad_system" and "deck" in r["message"]
    ok, r = request(app, 2, "new_game", confirm=True, system="deck", colour="red")
    assert not ok and r["code"] == "bad_args"
    assert app.game.dump() == before
    ok, r = request(app, 3, "new_game", confirm=True, system="deck", seed=5, edition="v093")
    assert ok and app.game.s.edition == "v093"
    ok, hello = request(app, 4, "hello")
    assert ok and hello["system"] == "deck" and hello["edition"] == "v093"


def test_new_character_from_the_menu_asks_which_system():
    app = make_app()
    v = press(app, "C")
    rows = v["items"]
    press(app, *(["DOWN"] * rows.index("Help & settings")), "B")
    v = app.ui.view()
    press(app, *(["DOWN"] * v["items"].index("New character")), "B")
    v = press(app, "DOWN", "B")  # "Yes, new character"
    assert v["title"] == "New character: system" and v["items"][0] == "* Deckahedron"
    old = app.game.s.game
    v = press(app, "B")
    assert v["screen"] == "home" and app.game.s.game != old and app.ui.SYSTEM == "deck"


def test_a_screen_of_a_system_the_device_lacks_is_said_not_drawn():
    """A view of a system screen the firmware has no drawing for is named
    on a message, never a crash (render._system_screen). The renderer needs
    framebuf: this runs under MicroPython."""
    try:
        import framebuf  # noqa: F401
    except ImportError:
        return
    from render import Renderer

    said = Renderer()
    for screen in ("tarot_roll", "deck_home", "_x"):
        got = bytes(Renderer().render({"screen": screen, "hint": "A back"}))
        want = bytes(said.render({"screen": "message", "title": "Unknown screen",
                                  "lines": ["no screen called", screen], "hint": "A back"}))
        assert got == want, screen


def test_hello_and_state_carry_the_battery_and_usb_power():
    """Issue 27, 'Battery, seen by the GM': the level the board gauges, in
    millivolts, and whether a cable powers it; None where it cannot tell."""
    import json

    app = make_app()
    ok, hello = request(app, 1, "hello")
    assert ok and hello["battery_mv"] == 3900 and hello["usb"] is None  # FakeBoard: 3.9 V, no VBUS sense
    app.board.battery = lambda: 0.02  # nothing on the sense: no cell, not an empty one
    app.board.usb_powered = lambda: True
    state = json.loads(fetch_parts(app, 2, "state")[0])
    assert state["battery_mv"] is None and state["usb"] is True


def test_state_says_the_attribute_the_home_screen_has_selected():
    """Issue 27: `flip Ann` with no attribute flips the one her device shows."""
    import json

    app = make_app()
    press(app, "A")  # Str -> Dex
    state = json.loads(fetch_parts(app, 1, "state")[0])
    assert state["selected"] == "dex"


class _FailingRenderer:
    """A renderer whose drawing failed, as render.Renderer leaves it."""

    error = None

    def render(self, view):
        self.error = "MemoryError: memory allocation failed, allocating 1280 bytes"


def test_a_screen_that_fails_to_draw_is_said_in_crash_log():
    """The renderer draws "Screen error" instead of crashing; the app puts
    the error in crash.log, which the host reads (deckahedron do crashlog),
    once."""
    from saves import read_crashes

    app = make_app()
    app.renderer = _FailingRenderer()
    app.render()
    assert "screen home: MemoryError: memory allocation failed" in read_crashes(app.board.flash_dir)
    assert app.renderer.error is None
    app.render()
    assert read_crashes(app.board.flash_dir).count("--- crash") == 2


def test_crash_log_appends_its_entries_and_keeps_the_newest_within_its_cap():
    """Entries are appended in order (no copy of the log in a heap that has
    just run out) until the cap, then the oldest whole entries go."""
    import saves

    folder = make_app().board.flash_dir
    for i in range(60):
        saves.log_crash(folder, "entry %d %s" % (i, "x" * 100))
        if i == 5:
            assert saves.read_crashes(folder).count("--- crash") == 6
    text = saves.read_crashes(folder)
    assert len(text.encode()) <= saves.MAX_CRASH and text.startswith("--- crash\n")
    numbers = [int(line.split()[1]) for line in text.splitlines() if line.startswith("entry")]
    assert numbers == list(range(numbers[0], 60)) and numbers[0] > 0


def test_the_renderer_keeps_the_error_of_a_screen_it_could_not_draw():
    from tests.device.walker import renderer

    r = renderer()
    if r is None:  # CPython: no framebuf
        return
    import render

    def boom(r, view):
        raise MemoryError("memory allocation failed, allocating 1280 bytes")

    kept = render._SCREENS["home"]
    render._SCREENS["home"] = boom
    try:
        r.render({"screen": "home", "hint": ""})
    finally:
        render._SCREENS["home"] = kept
    assert r.error == "MemoryError: memory allocation failed, allocating 1280 bytes", r.error
    r.error = None
    r.render({"screen": "message", "title": "Hello", "lines": [], "hint": ""})
    assert r.error is None

"""Sleeping between presses (issue 12), the app's side: when it sleeps, that
the press that woke the board is the press that acts, that the panel is not
cleaned for a wake, and the low-battery warning. Portable: CPython and the
MicroPython unix port (micropython tests/mp_runner.py test_sleep)."""

from tests.device.support import IDLE_CLEAN_MS, FakeBoard, make_app, saved_text
from app import _ticks  # noqa: E402 -- support puts firmware/ on the path


class SleepyBoard(FakeBoard):
    """A board that sleeps after `after` ms with no input (None: the app's
    idle power-off); power_off() records the save at that moment and wakes
    with the presses in `wake` (they stay for buttons(), as a real board's
    debouncer keeps them)."""

    def __init__(self, after=0, volts=3.9):
        FakeBoard.__init__(self)
        self.after = after
        self.volts = volts
        self.wake = []
        self.offs = 0
        self.saved_at_off = []
        self.charge_at_off = None  # volts after the next power_off (a charger plugged in)

    can_sleep = True
    pausing = False  # idle() sets it: the pause counts only then, not while a loaded machine is slow

    def sleep_after_ms(self):
        if self.after is None or self.pausing:
            return self.after
        return 10 ** 9

    def battery(self):
        return self.volts

    def power_off(self):
        self.offs += 1
        with open(self.flash_dir + "/deck.sav") as f:
            self.saved_at_off.append(f.read())
        self.pressed += self.wake
        self.wake = []
        if self.charge_at_off is not None:
            self.volts = self.charge_at_off


def app_on(board):
    app = make_app(board)
    shows = []
    # no renderer here: the view and the update the policy picks for it
    app.show = lambda: (shows.append(dict(app.ui.view(), mode=app.refresh.mode(app.ui.view().get("screen"), _ticks()))),
                        setattr(app, "dirty", False))
    app.shows = shows
    app.poll(0)  # the home screen
    del shows[:]
    return app


def idle(app, ms=1000):
    """A pause of ms after the last input (past the board's 100 ms, short of
    the app's idle power-off), then a pass of the loop."""
    app.board.pausing = True
    try:
        app.last_input -= ms
        app.poll(0)
    finally:
        app.board.pausing = False


def test_no_host_sleeps_after_the_boards_pause_and_the_waking_press_flips():
    board = SleepyBoard(after=100)
    app = app_on(board)
    board.pausing = True
    assert app.sleep_after_ms() == 100
    board.pausing = False
    count = app.game.s.count
    board.wake = ["B"]
    idle(app)
    assert board.offs == 1 and app.shows == []  # nothing drawn to go to sleep
    app.poll(0)  # the wake press, reported by buttons()
    assert app.game.s.count == count + 1 and app.game.s.flip is not None  # it flipped
    assert [(v["screen"], v["mode"]) for v in app.shows] == [("flip", "fast")]  # a wake is no reason to clean


def test_the_flip_is_saved_before_the_board_sleeps():
    board = SleepyBoard(after=100)
    app = app_on(board)
    board.pressed = ["B"]
    app.poll(0)
    idle(app)
    assert board.offs == 1 and board.saved_at_off[0] == saved_text(app)
    assert app.game.s.flip is not None and "flip" in saved_text(app)


def test_with_a_host_the_app_keeps_its_long_idle_power_off():
    board = SleepyBoard(after=None)
    app = app_on(board)
    assert app.sleep_after_ms() == app.IDLE_OFF_MS
    idle(app)
    assert board.offs == 0
    app.last_input -= app.IDLE_OFF_MS
    app.poll(0)
    assert board.offs == 1


def test_a_low_battery_is_said_once_then_play_goes_on():
    board = SleepyBoard(after=100, volts=3.42)
    app = app_on(board)
    idle(app)
    assert [v.get("title") for v in app.shows] == ["Battery low"] and board.offs == 1
    assert "3.42 V" in app.shows[0]["lines"][0]
    board.pressed = ["A"]  # dismisses the notice
    app.poll(0)
    idle(app)
    assert board.offs == 2 and [v.get("title") for v in app.shows] == ["Battery low", None]
    count = app.game.s.count
    board.wake = ["B"]
    idle(app)
    app.poll(0)
    assert app.game.s.count == count + 1  # no second notice: the press flipped


def test_an_empty_battery_stops_play_until_it_is_charged():
    board = SleepyBoard(after=100, volts=3.2)
    app = app_on(board)
    count = app.game.s.count
    board.wake = ["B"]
    board.charge_at_off = None
    # the board wakes once to look again, the cell still empty, then is charged
    calls = []
    real = board.power_off

    def power_off():
        real()
        calls.append(board.volts)
        if len(calls) == 2:
            board.volts = 3.9

    board.power_off = power_off
    idle(app)
    assert [v.get("title") for v in app.shows] == ["Battery empty"]
    assert len(calls) == 2 and app.game.s.count == count  # the wake press did not play
    assert saved_text(app) == board.saved_at_off[0]
    app.poll(0)
    assert app.ui.view()["screen"] == "home" and app.shows[-1]["screen"] == "home"


def test_a_reading_no_cell_could_give_is_no_battery_not_an_empty_one():
    """A board on another supply with nothing on its battery sense reads
    ~0 V: play goes on, no warning."""
    board = SleepyBoard(after=100, volts=0.02)
    app = app_on(board)
    board.wake = ["B"]
    count = app.game.s.count
    idle(app)
    app.poll(0)
    assert app.shows and all(v.get("title") is None for v in app.shows) and app.game.s.count == count + 1


class OffBoard(SleepyBoard):
    """A board whose sleep loses the RAM (a Badger switched off, a MagTag):
    power_off() ends the app's life; the next press boots a new App on the
    same flash with board.woke = "button"."""

    def sleep_loses_ram(self):
        return True


def test_a_sleep_without_ram_keeps_the_home_screens_choices_for_the_press_that_boots():
    board = OffBoard(after=100)
    app = app_on(board)
    board.pressed = ["A", "UP", "UP"]  # attribute dex, advantage +2
    for _ in range(3):
        app.poll(0)
    assert (app.ui.attr, app.ui.net) == ("dex", 2)
    idle(app)
    assert board.offs == 1
    again = OffBoard(after=100)
    again.flash_dir = board.flash_dir
    again.woke = "button"
    again.pressed = ["B"]
    app2 = app_on(again)
    assert (app2.ui.attr, app2.ui.net) == ("dex", 2)
    assert app2.game.s.flip is not None and app2.ui.flipped_with == 2  # the B flipped with +2


def test_a_kept_resting_state_that_is_damaged_is_ignored():
    board = OffBoard(after=100)
    with open(board.flash_dir + "/rest.json", "w") as f:
        f.write('{"attr": 7, "net": "x"')
    board.woke = "button"
    app = app_on(board)
    assert (app.ui.attr, app.ui.net) == ("str", 0)
    with open(board.flash_dir + "/rest.json", "w") as f:
        f.write('{"attr": 7, "net": "x"}')  # wrong types
    app = app_on(board)
    assert (app.ui.attr, app.ui.net) == ("str", 0)


def test_a_kept_resting_state_of_another_system_is_not_applied():
    """rest.json names the system whose Ui kept it: after a new character
    of another system, a Deckahedron's fields are not set on its screens,
    and the other way round."""
    board = OffBoard(after=100)
    with open(board.flash_dir + "/rest.json", "w") as f:
        f.write('{"system": "facets", "attr": "dex", "net": 2}')
    board.woke = "button"
    app = app_on(board)
    assert (app.ui.attr, app.ui.net) == ("str", 0)
    with open(board.flash_dir + "/rest.json", "w") as f:
        f.write('{"system": "deck", "attr": "dex", "net": 2}')
    app = app_on(board)
    assert (app.ui.attr, app.ui.net) == ("dex", 2)


def test_a_menu_is_given_time_then_closed_before_a_sleep_without_ram():
    board = OffBoard(after=100)
    app = app_on(board)
    board.pressed = ["C"]
    app.poll(0)
    board.pausing = True
    assert app.ui.stack and app.sleep_after_ms() == app.MENU_IDLE_MS
    board.pausing = False
    idle(app)  # 1 s: still in the menu
    assert board.offs == 0
    idle(app, app.MENU_IDLE_MS)
    assert board.offs == 1 and not app.ui.stack
    assert app.shows[-1]["screen"] == "home"  # redrawn: the panel shows what the next press acts on
    keeps = SleepyBoard(after=100)  # RAM kept: the menu stays, the short pause holds
    app = app_on(keeps)
    keeps.pressed = ["C"]
    app.poll(0)
    keeps.pausing = True
    assert app.sleep_after_ms() == 100


def pause(app, ms):
    """A pause of ms with the board awake (a host attached: no sleep) and
    its panel untouched: the fake clock is the last update's time moved
    back, then a pass of the loop."""
    app.refresh.shown -= ms
    app.last_input -= ms
    app.poll(0)


def test_awake_a_panel_left_on_fast_updates_is_cleaned_while_nobody_waits():
    """Issue 29: the flip is drawn fast; once the panel has sat
    _IDLE_CLEAN_MS on it, the same screen is drawn again with a full
    refresh, counted as a clean one; the next flip is fast again."""
    board = SleepyBoard(after=None)
    app = app_on(board)
    board.pressed = ["B"]
    app.poll(0)
    assert [(v["screen"], v["mode"]) for v in app.shows] == [("flip", "fast")]
    pause(app, IDLE_CLEAN_MS - 1000)
    assert len(app.shows) == 1  # not yet
    pause(app, 1000)
    assert [(v["screen"], v["mode"]) for v in app.shows] == [("flip", "fast"), ("flip", "full")]
    assert app.shows[1] == dict(app.shows[0], mode="full")  # the same screen
    assert app.refresh.counts["clean"] == 1 and board.offs == 0
    pause(app, 10 * IDLE_CLEAN_MS)  # clean now: nothing more
    board.pressed = ["A"]
    app.poll(0)
    assert [v["mode"] for v in app.shows] == ["fast", "full", "fast"] and app.refresh.counts["clean"] == 1


def test_asleep_on_the_battery_the_clock_does_not_count_the_sleep():
    """A board that sleeps between presses: its clock stops (a DORMANT
    RP2040) or dies with the RAM, so the wake is no reason to clean; the
    press that wakes it is drawn fast."""
    board = SleepyBoard(after=100)
    app = app_on(board)
    board.pressed = ["B"]
    app.poll(0)
    board.wake = ["A"]
    idle(app)  # asleep after 100 ms with no input: the clock moved on 1 s, not the sleep's length
    app.poll(0)
    assert [v["mode"] for v in app.shows] == ["fast", "fast"] and app.refresh.counts["clean"] == 0

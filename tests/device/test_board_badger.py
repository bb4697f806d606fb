"""The Badger 2040 / 2040 W board module (firmware/boards/badger2040.py)
against a fake of Pimoroni's badger2040 module (tests/fakes/badger2040.py)
that records every update and refuses one started while the panel is still
refreshing, on a simulated clock. Portable: CPython and the MicroPython unix
port (micropython tests/mp_runner.py test_board_badger).
"""

from tests.device import support
from tests.fakes import FakeSerial, faked, flip_with_buttons, first_difference, pattern_frame, press, set_pixel

A, B, C, UP, DOWN = 12, 13, 14, 15, 11


def make(fx, wireless=False, **kw):
    fx.badger2040.configure(wireless=wireless, **kw)
    from boards.badger2040 import Badger2040Board, Badger2040WBoard

    cls = Badger2040WBoard if wireless else Badger2040Board
    board = cls(support.fresh_dir(), clock=fx.clock, serial=FakeSerial(fx.clock))
    return board, fx.badger2040.sim


def kinds(sim):
    return [(u["kind"], u["speed"]) for u in sim.updates]


def poll_buttons(board, fx, until, step=2):
    out = []
    while fx.clock.now < until:
        out += board.buttons()
        fx.clock.advance(step)
    return out + board.buttons()


@faked
def test_a_fast_update_is_exactly_one_update_at_fast_speed(fx):
    board, sim = make(fx)
    bd = fx.badger2040
    board.show(pattern_frame(1), "full")
    frame = pattern_frame(2)
    assert board.show(frame, "fast") == "fast"
    assert kinds(sim) == [("update", bd.UPDATE_NORMAL), ("update", bd.UPDATE_FAST)]
    assert first_difference(sim.glass, frame) is None


@faked
def test_the_image_on_the_panel_is_our_frame_pixel_for_pixel(fx):
    """Orientation and ink: the 1BitY buffer the panel gets shows our
    landscape frame, 1 = black, corners included."""
    board, sim = make(fx)
    frame = bytearray(4736)
    for x, y in ((0, 0), (295, 0), (0, 127), (295, 127), (7, 8), (8, 7), (150, 64)):
        set_pixel(frame, x, y)
    board.show(frame, "full")
    assert first_difference(sim.glass, frame) is None
    assert sim.updates[0]["region"] is None
    frame = pattern_frame(3)
    board.show(frame, "full")
    assert first_difference(sim.glass, frame) is None


@faked
def test_full_refreshes_follow_the_policy(fx):
    """The app's RefreshPolicy picks the modes; the board turns each into one
    update at its speed: full at power-on and every FULL_EVERY, fast between."""
    from refresh import RefreshPolicy

    board, sim = make(fx)
    bd = fx.badger2040
    policy = RefreshPolicy(board.can_partial)
    for i in range(RefreshPolicy.FULL_EVERY + 2):
        board.show(pattern_frame(i), policy.mode("flip"))
    speeds = [u["speed"] for u in sim.updates]
    assert speeds == [bd.UPDATE_NORMAL] + [bd.UPDATE_FAST] * RefreshPolicy.FULL_EVERY + [bd.UPDATE_NORMAL]
    assert len(sim.speed_changes) == 3  # set only when it changes


@faked
def test_partial_sends_only_the_changed_area_with_rows_in_eights(fx):
    board, sim = make(fx)
    bd = fx.badger2040
    frame = pattern_frame(4)
    board.show(frame, "full")
    menu = bytearray(frame)
    for x, y in ((100, 50), (120, 53)):
        set_pixel(menu, x, y, 1 - ((menu[y * 37 + (x >> 3)] >> (7 - (x & 7))) & 1))
    assert board.show(menu, "partial") == "partial"
    last = sim.updates[-1]
    assert last["kind"] == "partial" and last["speed"] == bd.UPDATE_TURBO
    assert last["region"] == (100, 48, 21, 8)
    assert first_difference(sim.glass, menu) is None


@faked
def test_partial_with_nothing_changed_sends_nothing_and_a_big_one_goes_fast(fx):
    board, sim = make(fx)
    frame = pattern_frame(5)
    board.show(frame, "full")
    assert board.show(frame, "partial") == "skipped"
    assert len(sim.updates) == 1
    other = pattern_frame(6)
    assert board.show(other, "partial") == "fast"
    assert kinds(sim)[-1] == ("update", fx.badger2040.UPDATE_FAST)
    assert first_difference(sim.glass, other) is None


@faked
def test_partial_falls_back_to_fast_where_the_board_cannot(fx):
    board, sim = make(fx)
    board.can_partial = False
    frame = pattern_frame(7)
    board.show(frame, "full")
    set_pixel(frame, 10, 10, 1)
    set_pixel(frame, 11, 10, 0)
    set_pixel(frame, 12, 10, 1)
    assert board.show(frame, "partial") == "fast"
    assert [u["kind"] for u in sim.updates] == ["update", "update"]


@faked
def test_an_update_asked_for_while_the_panel_is_busy_waits_bounded(fx):
    board, sim = make(fx)
    t0 = fx.clock.now
    board.show(pattern_frame(1), "full")
    assert fx.clock.now - t0 < 100  # non-blocking: the refresh runs on
    assert board.busy()
    board.show(pattern_frame(2), "fast")  # the fake raises if this overlapped
    t1, t2 = sim.updates[0]["t"], sim.updates[1]["t"]
    assert t2 - t1 >= board.UPDATE_MS[0]  # never sooner than the panel allows
    assert fx.clock.now - t0 <= board.BUSY_TIMEOUT_MS + 100


@faked
def test_a_stuck_busy_line_is_a_clear_error_not_a_hang(fx):
    from boards.badger2040 import PanelTimeout

    board, sim = make(fx)
    board.show(pattern_frame(1), "full")
    sim.hang = True
    t0 = fx.clock.now
    try:
        board.show(pattern_frame(2), "fast")
    except PanelTimeout as e:
        assert "busy" in str(e) and str(board.BUSY_TIMEOUT_MS) in str(e)
    else:
        raise AssertionError("no PanelTimeout")
    assert fx.clock.now - t0 <= board.BUSY_TIMEOUT_MS + board.POLL_MS
    assert len(sim.updates) == 1


@faked
def test_old_firmware_without_set_blocking_still_never_overlaps(fx):
    board, sim = make(fx, old_firmware=True)
    assert board.blocking
    t0 = fx.clock.now
    board.show(pattern_frame(1), "full")
    assert fx.clock.now - t0 >= 4700  # Pimoroni's update() blocks and pads
    board.show(pattern_frame(2), "fast")
    assert kinds(sim) == [("update", 0), ("update", 2)] and sim.updates[1]["blocking"] is True


@faked
def test_a_bouncing_press_is_one_press_and_two_presses_are_two(fx):
    board, sim = make(fx)
    m = fx.machine
    press(m, B, 100, hold=150, bounce=(1, 3, 4, 6))
    release = press(m, A, 400, hold=100, bounce=(2, 5)) + 0
    m.schedule(A, [(release + 1, 1), (release + 3, 0)])  # release bounce
    assert poll_buttons(board, fx, 700) == ["B", "A"]
    press(m, C, 800, hold=90)
    press(m, C, 1000, hold=90)
    assert poll_buttons(board, fx, 1300) == ["C", "C"]


@faked
def test_buttons_seen_while_waiting_for_the_panel_are_kept(fx):
    board, sim = make(fx)
    board.show(pattern_frame(1), "full")
    press(fx.machine, UP, fx.clock.now + 1000, hold=80)
    board.show(pattern_frame(2), "fast")  # waits ~4.7 s, sampling buttons
    assert board.buttons() == ["UP"]


@faked
def test_the_press_that_woke_the_board_is_not_a_command(fx):
    fx.machine.set_input(B, 1)  # still held at boot
    board, sim = make(fx, wake_buttons=(B,))
    assert board.woke == "button"
    fx.clock.advance(50)
    assert board.buttons() == []
    fx.machine.set_input(B, 0)
    fx.clock.advance(50)
    assert board.buttons() == []


@faked
def test_watchdog_is_fed_through_long_waits(fx):
    board, sim = make(fx)
    wdt = board.start_watchdog(20000)
    assert wdt.timeout == 8388  # the RP2040's longest
    board.show(pattern_frame(1), "full")
    board.feed()
    board.show(pattern_frame(2), "fast")  # a 4.7 s wait
    board.feed()
    assert len(wdt.feeds) > 100 and wdt.max_gap() <= 100
    wdt.check()


@faked
def test_power_off_on_battery_cuts_the_power_after_the_state_is_saved(fx):
    from app import App

    board, sim = make(fx, on_battery=True)
    app = App(board, "dev1", 7)
    app.boot()  # a new game: saved
    import os

    saved = os.stat(board.flash_dir + "/deck.sav")[6]
    assert saved > 0
    try:
        board.power_off()
    except fx.badger2040.PowerCut:
        pass
    else:
        raise AssertionError("the board stayed on")
    assert sim.halts and sim.power_cuts == 1
    assert os.stat(board.flash_dir + "/deck.sav")[6] == saved


@faked
def test_power_off_on_usb_waits_for_a_button_feeding_the_watchdog(fx):
    board, sim = make(fx)
    wdt = board.start_watchdog(1000)
    t0 = fx.clock.now
    press(fx.machine, C, t0 + 20000, hold=200)
    board.power_off()
    assert fx.clock.now - t0 >= 20000 and fx.clock.now - t0 < 20100
    assert sim.halts  # ENABLE_3V3 went low, as halt() does
    assert fx.machine.pin_state(10).latch == 1  # latched on again
    wdt.check()
    assert board.woke == "button"
    fx.clock.advance(50)
    assert board.buttons() == []  # the wake press is not a command


@faked
def test_power_off_ends_on_serial_input(fx):
    board, sim = make(fx)
    board.serial.inbox = b"Q 1 ping {} 0000\n"
    board.power_off()
    assert board.serial_read(20) == b"Q 1 ping {} 0000\n"


@faked
def test_2040w_wakes_on_its_rtc_alarm(fx):
    board, sim = make(fx, wireless=True)
    assert board.name == "badger2040w" and board.battery() is None
    t0 = fx.clock.now
    assert board.set_wake_alarm(30)
    assert fx.badger2040.rtc.calls[-1][0] == "set_alarm"
    board.power_off()
    assert 29000 <= fx.clock.now - t0 <= 31100
    assert board.woke == "rtc" and not board.alarm_set
    assert fx.machine.Pin(8).value() == 0  # flag cleared: the next power_off really waits


@faked
def test_2040_has_no_rtc_alarm(fx):
    board, sim = make(fx)
    assert not hasattr(board, "set_wake_alarm")


@faked
def test_battery_volts_from_the_reference_and_the_divider(fx):
    board, sim = make(fx)
    m = fx.machine
    m.set_adc(28, 24626)  # 1.24 V reference read with vdd = 3.3 V
    m.set_adc(29, 25817)  # VBAT / 3
    v = board.battery()
    assert abs(v - 25817 * 3 * (1.24 * 65535 / 24626) / 65535) < 1e-9
    assert 3.85 < v < 3.95
    assert m.pin_state(27).latch == 0  # the reference is switched off again
    m.set_adc(28, 0)
    assert board.battery() is None


@faked
def test_detection_names_the_variant(fx):
    from boards.badger2040 import detect

    fx.badger2040.configure(wireless=False)
    assert detect() == "badger2040"
    fx.badger2040.sim.wireless = True
    assert detect() == "badger2040w"


@faked
def test_bad_frames_and_modes_are_clear_errors(fx):
    board, sim = make(fx)
    for args in ((bytearray(10), "full"), (pattern_frame(1), "slow")):
        try:
            board.show(*args)
        except ValueError:
            pass
        else:
            raise AssertionError("accepted %r" % (args[1],))
    assert sim.updates == []


@faked
def test_the_app_flips_by_buttons_end_to_end(fx):
    """App.boot(), then B (flip) and A (done) on the buttons: the panel saw
    one full refresh at boot and one fast update per screen change."""
    board, sim = make(fx)
    app = flip_with_buttons(fx, board, B, A)
    bd = fx.badger2040
    assert kinds(sim) == [("update", bd.UPDATE_NORMAL), ("update", bd.UPDATE_FAST), ("update", bd.UPDATE_FAST)]
    assert app.refresh.counts == {"full": 1, "fast": 2, "partial": 0}
    assert first_difference(sim.glass, app.renderer.buf) is None
    events = [support.P.decode(line) for line in board.serial.sent]
    assert [e[2]["op"] for e in events if e[0] == "E"] == ["flip", "end_flip"]

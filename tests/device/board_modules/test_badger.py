"""The Badger 2040 / 2040 W board module and the project's UC8151 driver,
against a fake machine (Pin/SPI/I2C/ADC/WDT on a simulated clock), a fake
UC8151 panel on SPI0 (tests/fakes/uc8151_panel.py: decodes every command,
keeps the RAM and the glass, holds BUSY low for a realistic time per
update, refuses anything sent while busy or asleep) and, for the 2040 W, a
fake PCF85063A RTC on I2C0. Portable: CPython and the MicroPython unix port
(micropython tests/mp_runner.py board_modules/test_badger).
"""

from tests.device import support
from tests.fakes import (FakeSerial, faked, first_difference, flip_with_buttons, panel_timeout, pattern_frame,
                         poll_buttons, press, set_pixel, settle)

BTN = {"A": 12, "B": 13, "C": 14, "UP": 15, "DOWN": 11}
LATCH = 10

# Pimoroni's "fast" and "turbo" waveforms (pimoroni-pico drivers/uc8151):
# per group, the level byte for a pixel going white, 4 frame counts, repeat.
TURBO_WW = (0x54, 1, 1, 2, 0, 1, 0x60, 2, 2, 0, 0, 2, 0xA8, 2, 2, 3, 0, 2)
TURBO_WB = (0xA8, 1, 1, 2, 0, 1, 0x60, 2, 2, 0, 0, 2, 0x54, 2, 2, 3, 0, 2)


class PowerCut(Exception):
    """ENABLE_3V3 went low on battery: the board is off."""


def make(fx, wireless=False, on_battery=False):
    panel = fx.uc8151()
    rtc = fx.rtc() if wireless else None
    from boards.badger2040 import Badger2040Board
    from boards.badger2040w import Badger2040WBoard

    cls = Badger2040WBoard if wireless else Badger2040Board
    board = cls(support.fresh_dir(), clock=fx.clock, serial=FakeSerial(fx.clock))
    if on_battery:
        def latch(level):
            if level == 0 and not any(fx.machine.pin_state(g).level() for g in BTN.values()):
                raise PowerCut()
        fx.machine.on_write(LATCH, latch)
    board.rtc = rtc
    return board, panel


def flipped(frame, x, y):
    f = bytearray(frame)
    set_pixel(f, x, y, 1 - ((f[y * 37 + (x >> 3)] >> (7 - (x & 7))) & 1))
    return f


@faked
def test_pins_spi_latch_and_pull_downs_are_the_badgers(fx):
    board, panel = make(fx)
    m = fx.machine
    spi = m.bus(0)["spi"]
    assert spi.pins == (18, 19, 16) and spi.polarity == 0 and spi.phase == 0
    assert m.pin_state(4).function == "sio"  # SPI0's default MISO (the W's I2C SDA) left alone
    assert m.pin_state(LATCH).writes[0][1] == 1 and m.pin_state(LATCH).latch == 1
    for gpio in BTN.values():
        assert m.pin_state(gpio).pull == m.Pin.PULL_DOWN
    assert m.pin_state(26).pull == m.Pin.PULL_UP  # BUSY: low = busy
    assert m.pin_state(17).latch == 1 and m.pin_state(21).latch == 1
    assert board.can_partial is True and board.woke is None


@faked
def test_2040w_pins_led_rtc_bus_and_alarm(fx):
    board, panel = make(fx, wireless=True)
    m = fx.machine
    assert m.bus(0)["spi"].pins == (18, 19, 16)  # MISO on GP16, so GP4 stays the I2C's SDA
    assert (board.i2c.id, board.i2c.sda, board.i2c.scl) == (0, 4, 5)
    assert m.pin_state(8).pull == m.Pin.PULL_DOWN  # the RTC alarm, high = alarm
    board.show(pattern_frame(1), "full")
    assert m.pin_state(22).latch == 1 and m.pin_state(25).mode != m.Pin.OUT  # GP25 is the Wi-Fi chip's
    assert m.pin_state(LATCH).writes[0][1] == 1


@faked
def test_the_pins_come_from_the_registry(fx):
    """The module keeps no pin of its own: moved in the registry entry
    boards.spec() gives, they move on the board."""
    import boards

    entry = boards.spec("badger2040")
    pins = dict(entry["pins"])
    pins["led"], pins["power_latch"] = 7, 9
    pins["buttons"] = [["A", 2], ["B", 3], ["C", 4], ["UP", 5], ["DOWN", 6]]
    moved = dict(entry)
    moved["pins"] = pins
    saved = list(boards._cache)
    boards._cache[0], boards._cache[1] = "badger2040", moved
    try:
        panel = fx.uc8151()
        from boards.badger2040 import Badger2040Board

        board = Badger2040Board(support.fresh_dir(), clock=fx.clock, serial=FakeSerial(fx.clock))
    finally:
        boards._cache[0], boards._cache[1] = saved
    m = fx.machine
    assert m.pin_state(9).writes[0][1] == 1 and m.pin_state(LATCH).writes == []
    assert m.pin_state(2).pull == m.Pin.PULL_DOWN and m.pin_state(BTN["A"]).pull != m.Pin.PULL_DOWN
    press(m, 2, fx.clock.now + 10, hold=100)
    assert poll_buttons(board, fx, fx.clock.now + 300) == ["A"]
    board.show(pattern_frame(1), "full")
    assert m.pin_state(7).latch == 1 and m.pin_state(25).latch != 1 and panel.errors == []


@faked
def test_a_full_update_is_the_otp_waveform_and_shows_our_frame(fx):
    board, panel = make(fx)
    frame = pattern_frame(1)
    assert board.show(frame, "full") == "full"
    assert panel.kinds() == ["full"] and panel.errors == []
    assert panel.psr == 0x97 and panel.cdi == 0x9C and panel.pll == 0x3A
    assert first_difference(panel.landscape(), frame) is None


@faked
def test_orientation_and_ink_of_single_pixels(fx):
    """Pimoroni's rotation 0: landscape (x, y) is gate x, source y (RAM byte
    x * 16 + y // 8, bit 7 - y % 8); ink is RAM 0."""
    board, panel = make(fx)
    for x, y in ((0, 0), (295, 0), (0, 127), (295, 127), (9, 70), (8, 7), (7, 8)):
        frame = bytearray(4736)
        set_pixel(frame, x, y)
        settle(board, fx, 5000)
        board.show(frame, "full")
        row = panel.ram[x * 16:(x + 1) * 16]
        assert row[y >> 3] == 0xFF ^ (0x80 >> (y & 7)), (x, y)
        assert len([b for b in row if b == 0xFF]) == 15, (x, y)
        assert first_difference(panel.landscape(), frame) is None, (x, y)


def test_each_canvas_byte_has_its_ram_byte_in_the_drivers_table():
    """The driver's 256-byte table, a constant kept in flash: a canvas
    column byte (top row in bit 0, 1 = black) becomes the RAM byte with its
    top row in bit 7 and 1 = white."""
    from drivers.uc8151 import REV

    assert len(REV) == 256
    for v in range(256):
        want = 0xFF
        for k in range(8):
            if v & (1 << k):
                want ^= 0x80 >> k
        assert REV[v] == want, v


@faked
def test_a_fast_update_loads_pimoronis_turbo_waveform_and_is_exact(fx):
    board, panel = make(fx)
    board.show(pattern_frame(1), "full")
    settle(board, fx, 5000)
    frame = pattern_frame(2)
    assert board.show(frame, "fast") == "fast"
    assert panel.kinds() == ["full", "fast"] and panel.psr == 0xB7
    assert panel.luts[0x21][:18] == bytes(TURBO_WW) and panel.luts[0x21][18:] == bytes(24)
    assert panel.updates[1]["frames"] == 26 and panel.updates[1]["ms"] == 260  # at 100 Hz
    assert first_difference(panel.landscape(), frame) is None


@faked
def test_a_partial_update_sends_only_the_changed_box(fx):
    board, panel = make(fx)
    frame = pattern_frame(4)
    board.show(frame, "full")
    settle(board, fx, 5000)
    menu = flipped(flipped(frame, 100, 50), 120, 3)
    assert board.show(menu, "partial") == "partial"
    last = panel.updates[-1]
    assert last["kind"] == "partial" and last["window"] == (96, 127, 0, 55)  # gates (whole spans of 8), then sources
    assert panel.luts[0x23][:18] == bytes(TURBO_WB) and last["ms"] == 260
    assert first_difference(panel.landscape(), menu) is None
    dtm2 = [c for t, c in panel.commands].count(0x13)
    assert dtm2 == 2 and panel.errors == []


@faked
def test_each_partial_box_is_exactly_the_changed_gates_and_bands(fx):
    """The driver keeps only a CRC of each span of 8 gates and of each band
    of the glass (no second frame): changes at the panel's edges, on both
    sides of a chunk boundary (the RAM bytes are made 37 gates at a time,
    a span runs across), and one pixel alone each give the smallest window
    of whole spans and bands holding them, and the glass ends as the frame."""
    board, panel = make(fx)
    frame = pattern_frame(7)
    board.show(frame, "full")
    settle(board, fx, 5000)
    for pixels in ([(0, 0)], [(295, 127)], [(36, 8), (37, 15)], [(73, 64), (74, 64), (111, 71)],
                   [(150, 40)], [(259, 0), (258, 127)]):
        for x, y in pixels:
            frame = flipped(frame, x, y)
        assert board.show(frame, "partial") == "partial", pixels
        xs, ys = [p[0] for p in pixels], [p[1] for p in pixels]
        window = (min(xs) // 8 * 8, max(xs) // 8 * 8 + 7, min(ys) // 8 * 8, max(ys) // 8 * 8 + 7)
        assert panel.updates[-1]["window"] == window, pixels
        assert first_difference(panel.landscape(), frame) is None, pixels
        settle(board, fx, 1000)
    assert panel.errors == []


@faked
def test_partial_with_nothing_changed_sends_nothing_and_a_big_one_goes_fast(fx):
    board, panel = make(fx)
    frame = pattern_frame(5)
    assert board.show(frame, "partial") == "fast"  # the glass is unknown at first
    settle(board, fx, 2000)
    sent = len(fx.machine.bus(0)["log"])
    assert board.show(frame, "partial") == "skipped"
    assert len(fx.machine.bus(0)["log"]) == sent and len(panel.updates) == 1
    other = pattern_frame(6)
    assert board.show(other, "partial") == "fast"
    assert panel.kinds() == ["fast", "fast"]
    assert first_difference(panel.landscape(), other) is None


@faked
def test_the_refresh_policy_picks_full_fast_and_partial(fx):
    from refresh import RefreshPolicy

    board, panel = make(fx)
    policy = RefreshPolicy(board.can_partial)
    frame = pattern_frame(7)
    for i in range(RefreshPolicy.FULL_EVERY + 2):
        frame = flipped(frame, 10 + i, 20)
        board.show(frame, policy.mode("flip" if i % 2 == 0 else "menu", 0))
    assert panel.kinds() == ["full"] + ["partial", "fast"] * (RefreshPolicy.FULL_EVERY // 2) + ["full"]
    assert first_difference(panel.landscape(), frame) is None and panel.errors == []


@faked
def test_the_panel_sleeps_between_updates_and_wakes_by_reset(fx):
    board, panel = make(fx)
    board.show(pattern_frame(1), "full")
    assert not panel.asleep and fx.machine.pin_state(25).latch == 1  # the LED while it refreshes
    settle(board, fx, 4600)  # the main loop notices the end of the refresh
    assert panel.asleep and panel.sleeps == 1 and not panel.power
    assert fx.machine.pin_state(25).latch == 0
    resets = panel.resets
    board.show(pattern_frame(2), "fast")  # the fake refuses anything sent asleep
    assert panel.resets == resets + 1
    settle(board, fx, 1000)
    assert not panel.asleep and panel.power  # kept ready after a register waveform
    board.epd.finish()  # the board sleeps: the panel powers off and sleeps first
    assert panel.asleep and panel.sleeps == 2 and not panel.power


@faked
def test_after_a_fast_update_the_panel_stays_ready_and_the_next_goes_at_once(fx):
    """Powered, its waveform loaded: the next fast or partial update is the
    RAM write and DRF (no reset, setup or PON); READY_MS with no update
    puts it to sleep."""
    board, panel = make(fx)
    board.show(pattern_frame(1), "full")
    settle(board, fx, 5000)
    board.show(pattern_frame(2), "fast")
    settle(board, fx, 1000)
    resets, t0 = panel.resets, fx.clock.now
    frame = pattern_frame(3)
    assert board.show(frame, "fast") == "fast"
    assert panel.resets == resets and panel.updates[-1]["t"] - t0 < 20
    assert first_difference(panel.landscape(), frame) is None
    settle(board, fx, board.epd.READY_MS - 500)
    assert not panel.asleep
    settle(board, fx, 1000)
    assert panel.asleep and not panel.power
    frame = pattern_frame(4)
    board.show(frame, "fast")  # from deep sleep again: a reset first
    assert panel.resets == resets + 1 and first_difference(panel.landscape(), frame) is None


@faked
def test_no_command_while_busy_an_update_waits_bounded(fx):
    board, panel = make(fx)
    t0 = fx.clock.now
    board.show(pattern_frame(1), "full")
    assert fx.clock.now - t0 < 200  # the refresh runs on; show() returned
    board.show(pattern_frame(2), "fast")  # the fake raises on bytes sent while busy
    t1, t2 = panel.updates[0]["t"], panel.updates[1]["t"]
    assert t2 - t1 >= panel.FULL_MS
    assert fx.clock.now - t0 <= board.epd.TIMEOUT_MS["full update"] + 500
    for t, c in panel.commands:
        assert not (t1 < t < t1 + panel.FULL_MS), "command 0x%02x at %d, mid-refresh" % (c, t)
    assert panel.errors == []


@faked
def test_the_fake_refuses_a_command_while_busy(fx):
    """The strictness the tests above rely on."""
    import uc8151_panel

    board, panel = make(fx)
    board.show(pattern_frame(1), "full")
    try:
        board.epd.command(0x12)
    except uc8151_panel.PanelError as e:
        assert "BUSY is low" in str(e)
    else:
        raise AssertionError("the fake took a command mid-refresh")
    assert len(panel.errors) == 1


@faked
def test_busy_stuck_is_a_clear_error_within_the_timeout(fx):
    board, panel = make(fx)
    panel.stuck = True
    t0 = fx.clock.now
    assert str(panel_timeout(board.show, pattern_frame(1), "full")) == "UC8151 stayed busy for 1000 ms during reset"
    assert fx.clock.now - t0 <= 1000 + 50 and panel.updates == []


@faked
def test_busy_stuck_after_a_refresh_times_out_from_its_start(fx):
    board, panel = make(fx)
    panel.stick_on_update = True
    board.show(pattern_frame(1), "full")
    started = board.epd.started
    assert "during full update" in str(panel_timeout(board.show, pattern_frame(2), "fast"))
    assert fx.clock.now - started <= board.epd.TIMEOUT_MS["full update"] + 10
    assert len(panel.updates) == 1 and board.epd.known is False


@faked
def test_a_bouncing_press_is_one_press_and_two_presses_are_two(fx):
    board, panel = make(fx)
    m = fx.machine
    press(m, BTN["B"], 100, hold=150, bounce=(1, 3, 4, 6))
    press(m, BTN["A"], 400, hold=100)
    m.schedule(BTN["A"], [(501, 1), (503, 0)])  # release bounce
    assert poll_buttons(board, fx, 700) == ["B", "A"]
    press(m, BTN["C"], 800, hold=90)
    press(m, BTN["C"], 1000, hold=90)
    press(m, BTN["DOWN"], 1200, hold=90)
    assert poll_buttons(board, fx, 1500) == ["C", "C", "DOWN"]


@faked
def test_the_press_that_powered_the_board_up_acts_once(fx):
    fx.machine.set_input(BTN["B"], 1)  # still held at boot
    board, panel = make(fx)
    assert board.woke == "button"
    fx.clock.advance(50)
    assert board.buttons() == ["B"]
    fx.machine.set_input(BTN["B"], 0)
    fx.clock.advance(50)
    assert board.buttons() == []  # its release is no second press


@faked
def test_a_press_let_go_before_the_module_started_acts_from_mains_latch(fx):
    """main.py reads every GPIO right after taking the latch (Pimoroni's
    pressed_to_wake); the board module starts later, the button already up."""
    import power_on

    fx.machine.set_input(BTN["UP"], 1)
    levels = power_on._hold(LATCH)
    fx.machine.set_input(BTN["UP"], 0)
    board, panel = make(fx)
    assert board.woke is None and levels >> BTN["UP"] & 1
    board.woken_by(levels)
    board.woken_by(levels)  # told twice: still one press
    assert board.woke == "button" and board.buttons() == ["UP"]


@faked
def test_the_sleep_setting_picks_off_or_dormant_and_refuses_anything_else(fx):
    board, panel = make(fx)
    assert board.sleep_mode == "off"
    assert board.set_sleep("dormant") and board.sleep_mode == "dormant"
    assert not board.set_sleep("hibernate") and board.sleep_mode == "dormant"


@faked
def test_dormant_with_no_host_keeps_the_power_and_the_waking_press_acts(fx):
    board, panel = make(fx, on_battery=True)
    board.set_sleep("dormant")
    fx.machine.set_usb_host(False)
    assert board.sleep_after_ms() == board.SLEEP_AFTER_MS
    wdt = board.start_watchdog(1000)
    board.show(pattern_frame(1), "fast")
    t0 = fx.clock.now
    press(fx.machine, BTN["C"], t0 + 90000, hold=40)  # a tap, shorter than a debounce
    board.power_off()  # on battery: no PowerCut, the latch stays high
    assert board.woke == "button" and board.dormancies == 1 and fx.clock.now - t0 >= 90000
    assert fx.machine.SLEEPS == [("dormant", BTN["C"])] and panel.asleep
    assert fx.machine.pin_state(LATCH).latch == 1
    wdt.check()  # its counter stood still while the crystal was stopped
    assert board.buttons() == ["C"]
    fx.clock.advance(200)
    assert board.buttons() == []
    assert all(fx.machine.mem32[fx.machine.DORMANT_WAKE_INTE0 + 4 * i] == 0 for i in range(4))


@faked
def test_buttons_seen_while_waiting_for_the_panel_are_kept_and_the_watchdog_fed(fx):
    board, panel = make(fx)
    wdt = board.start_watchdog(1000)
    board.show(pattern_frame(1), "full")
    press(fx.machine, BTN["UP"], fx.clock.now + 1000, hold=80)
    board.feed()
    board.show(pattern_frame(2), "fast")  # waits ~4.5 s, sampling buttons
    board.feed()
    assert board.buttons() == ["UP"]
    assert wdt.max_gap() <= 100
    wdt.check()


@faked
def test_power_off_on_battery_lets_the_panel_sleep_then_drops_the_latch(fx):
    from app import App

    board, panel = make(fx, on_battery=True)
    app = App(board, "dev1", 7)
    try:
        import framebuf  # noqa: F401
    except ImportError:
        from tests.fakes import StubRenderer

        app.renderer = StubRenderer()
    app.boot()  # a new game: saved
    app.poll()  # the home screen: a full refresh starts
    assert panel.kinds() == ["full"] and panel.busy()
    import os

    saved = os.stat(board.flash_dir + "/deck.sav")[6]
    try:
        board.power_off()
    except PowerCut:
        pass
    else:
        raise AssertionError("the board stayed on")
    assert panel.asleep and panel.errors == []  # the refresh finished first
    assert fx.machine.pin_state(LATCH).latch == 0 and fx.machine.pin_state(25).latch == 0
    assert os.stat(board.flash_dir + "/deck.sav")[6] == saved


@faked
def test_power_off_on_usb_waits_for_a_button_feeding_the_watchdog(fx):
    board, panel = make(fx)
    wdt = board.start_watchdog(1000)
    t0 = fx.clock.now
    press(fx.machine, BTN["C"], t0 + 20000, hold=200)
    board.power_off()
    assert 20000 <= fx.clock.now - t0 < 20100
    assert (t0 + 50, 0) in fx.machine.pin_state(LATCH).writes  # the latch was dropped
    assert fx.machine.pin_state(LATCH).latch == 1  # and taken again
    wdt.check()
    assert board.woke == "button"
    assert board.buttons() == ["C"]  # the wake press acts
    fx.clock.advance(300)
    assert board.buttons() == []


@faked
def test_power_off_ends_on_serial_input(fx):
    board, panel = make(fx)
    board.serial.inbox = b"Q 1 ping {} 0000\n"
    board.power_off()
    assert board.woke == "serial"
    assert board.serial_read(20) == b"Q 1 ping {} 0000\n"


@faked
def test_2040w_wakes_on_its_rtc_alarm(fx):
    board, panel = make(fx, wireless=True)
    assert board.name == "badger2040w" and board.battery() is None
    assert fx.machine.pin_state(22).mode == fx.machine.Pin.OUT  # its LED
    t0 = fx.clock.now
    assert board.set_wake_alarm(30) is True
    regs = board.rtc.regs
    assert regs[0x0B:0x0E] == bytes((0x30, 0x00, 0x12)) and regs[0x01] & 0x80  # 12:00:30
    board.power_off()
    assert 29000 <= fx.clock.now - t0 <= 31100
    assert board.woke == "rtc" and not board.alarm_set
    assert regs[0x01] & 0xC0 == 0 and regs[0x0B:0x10] == b"\x80" * 5
    assert fx.machine.Pin(8).value() == 0  # cleared: the next power_off really waits


@faked
def test_2040w_alarm_fields_wrap_and_bad_delays_are_refused(fx):
    board, panel = make(fx, wireless=True)
    board.rtc.i2c_write(0x04, b"\x59\x59\x12")  # 12:59:59
    board.set_wake_alarm(3)
    assert board.rtc.regs[0x0B:0x0E] == bytes((0x02, 0x00, 0x13))  # 13:00:02
    try:
        board.set_wake_alarm(86400)
    except ValueError:
        pass
    else:
        raise AssertionError("a day ahead was accepted")


@faked
def test_2040w_powered_up_by_its_alarm_says_so_and_clears_it(fx):
    import pcf85063a

    rtc = pcf85063a.FakePCF85063A()
    rtc.regs[0x01] = 0xC0  # the alarm fired and holds GPIO8 high
    fx.uc8151()
    from boards.badger2040w import Badger2040WBoard

    board = Badger2040WBoard(support.fresh_dir(), clock=fx.clock, serial=FakeSerial(fx.clock))
    assert board.woke == "rtc" and rtc.regs[0x01] & 0xC0 == 0
    assert fx.machine.Pin(8).value() == 0


@faked
def test_2040_has_no_rtc_alarm(fx):
    board, panel = make(fx)
    assert not hasattr(board, "set_wake_alarm")


@faked
def test_battery_volts_from_the_reference_and_the_divider(fx):
    board, panel = make(fx)
    m = fx.machine
    m.set_adc(28, 24626)  # the 1.24 V reference read with vdd = 3.3 V
    m.set_adc(29, 25817)  # VBAT / 3
    v = board.battery()
    assert abs(v - 25817 * 3 * (1.24 * 65535 / 24626) / 65535) < 1e-9
    assert 3.85 < v < 3.95
    levels = [lv for t, lv in m.pin_state(27).writes]
    assert levels[-2:] == [1, 0]  # the reference on for the reading, then off again
    m.set_adc(28, 0)
    assert board.battery() is None


@faked
def test_bad_frames_and_modes_are_clear_errors(fx):
    board, panel = make(fx)
    for args in ((bytearray(10), "full"), (pattern_frame(1), "slow")):
        try:
            board.show(*args)
        except ValueError:
            pass
        else:
            raise AssertionError("accepted %r" % (args[1],))
    assert panel.updates == [] and fx.machine.bus(0)["log"] == []


@faked
def test_the_app_flips_by_buttons_end_to_end(fx):
    """App.boot(), then B (flip) and A (done) on the buttons: the panel saw
    one full refresh at boot and one fast update per screen change, and
    shows the app's last frame pixel for pixel."""
    board, panel = make(fx)
    app = flip_with_buttons(fx, board, BTN["B"], BTN["A"])
    assert panel.kinds() == ["full", "fast", "fast"] and panel.errors == []
    assert app.refresh.counts == {"full": 1, "fast": 2, "partial": 0, "clean": 0}
    assert first_difference(panel.landscape(), app.renderer.frame_bytes()) is None
    events = [support.P.decode(line) for line in board.serial.sent]
    assert [e[2]["op"] for e in events if e[0] == "E"] == ["flip", "end_flip"]
    settle(board, fx, board.epd.READY_MS + 1000)  # kept ready for the next press, then asleep
    assert panel.asleep


@faked
def test_the_app_menu_moves_by_partial_updates(fx):
    """C opens the main menu, DOWN moves its cursor: the policy asks for
    partial updates; with the real renderer (MicroPython) the cursor move
    refreshes only a window of the panel; the glass always equals the frame."""
    from app import App

    board, panel = make(fx)
    app = App(board, "dev1", 7)
    try:
        import framebuf  # noqa: F401
        real = True
    except ImportError:
        from tests.fakes import StubRenderer

        app.renderer = StubRenderer()
        real = False
    app.boot()
    for button, screen in (("C", "menu"), ("DOWN", "menu"), ("DOWN", "menu")):
        press(fx.machine, BTN[button], fx.clock.now + 30, hold=120)
        for _ in range(20):
            app.poll()
        assert app.ui.view()["screen"] == screen
        assert first_difference(panel.landscape(), app.renderer.frame_bytes()) is None, button
    assert app.refresh.counts["partial"] == 3 and panel.errors == []
    if real:
        last = panel.updates[-1]
        assert last["kind"] == "partial" and last["window"][3] - last["window"][2] < 64
    settle(board, fx, board.epd.READY_MS + 1000)
    assert panel.asleep


@faked
def test_2040w_without_an_answering_rtc_plays_on_without_the_alarm(fx):
    fx.uc8151()  # and no RTC on the I2C bus
    from boards.badger2040w import Badger2040WBoard

    board = Badger2040WBoard(support.fresh_dir(), clock=fx.clock, serial=FakeSerial(fx.clock))
    assert board.has_rtc is False and board.set_wake_alarm(30) is False
    t0 = fx.clock.now
    press(fx.machine, BTN["A"], t0 + 40000, hold=200)
    board.power_off()
    assert board.woke == "button" and fx.clock.now - t0 >= 40000


@faked
def test_the_fake_refuses_what_the_panel_would_get_wrong(fx):
    """A refresh without power on, a waveform that needs the old data, a
    reset pulse too short: each refused and recorded."""
    import uc8151_panel

    board, panel = make(fx)
    epd = board.epd

    def refused(action, words):
        try:
            action()
        except uc8151_panel.PanelError as e:
            assert words in str(e), str(e)
        else:
            raise AssertionError("the fake accepted it: " + words)

    epd.reset()
    epd.command(0x00, b"\x97")
    refused(lambda: epd.command(0x12), "PON first")
    epd.reset()
    epd.command(0x00, b"\xb7")
    for reg in (0x20, 0x21, 0x22, 0x23, 0x24):
        epd.command(reg, bytes(44 if reg == 0x20 else 42))
    epd.command(0x22, b"\x01" + bytes(41))  # "black to white" differs from "white to white"
    epd.command(0x04)
    fx.clock.advance(100)
    epd.command(0x13, bytes(4736))
    refused(lambda: epd.command(0x12), "old data")
    fx.clock.advance(100)
    epd.rst.value(0)
    refused(lambda: epd.rst.value(1), "reset pulse of 0 ms")
    assert len(panel.errors) == 3 and panel.updates == []

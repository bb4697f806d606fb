"""The Raspberry Pi Pico + Waveshare Pico-ePaper-2.9 board module and the
project's SSD1680 driver, against a fake machine (Pin/SPI/ADC/WDT/
lightsleep on a simulated clock) and a fake SSD1680 panel on its SPI bus
that decodes every command, keeps the controller's RAM, drives BUSY for a
realistic time per update and refuses anything sent while it is busy or
asleep. Portable: CPython and the MicroPython unix port
(micropython tests/mp_runner.py board_modules/test_pico).
"""

from tests.device import support
from tests.fakes import (FakeSerial, faked, first_difference, flip_with_buttons, panel_timeout, pattern_frame,
                         poll_buttons, press, set_pixel, settle)

BTN = {"A": 2, "B": 3, "C": 4, "UP": 5, "DOWN": 6}


def make(fx, **kw):
    panel = fx.panel()
    from boards.pico_epaper29 import PicoEpaper29Board

    board = PicoEpaper29Board(support.fresh_dir(), clock=fx.clock, serial=FakeSerial(fx.clock), **kw)
    return board, panel


@faked
def test_the_panel_pins_and_spi_are_the_waveshare_modules(fx):
    board, panel = make(fx)
    m = fx.machine
    spi = m.bus(1)["spi"]
    assert spi.pins[:2] == (10, 11) and spi.polarity == 0 and spi.phase == 0
    assert m.pin_state(8).function == "sio"  # DC set up after SPI1 took GP8 as MISO
    assert m.pin_state(9).latch == 1 and m.pin_state(12).latch == 1
    for name, gpio in BTN.items():
        assert m.pin_state(gpio).pull == m.Pin.PULL_UP
    from boards import pico_epaper29

    used = set(pico_epaper29.PANEL_PINS.values())
    assert not used & set(g for _, g in pico_epaper29.BUTTON_PINS)
    assert len(pico_epaper29.BUTTON_PINS) >= 3


@faked
def test_the_panel_bus_is_timed_from_the_clock_a_lightsleep_leaves(fx):
    """rp2 MicroPython boots with clk_peri at 48 MHz and a lightsleep brings
    it back at clk_sys (125 MHz) without telling the SPI (micropython#13677):
    a bus divided for 48 MHz ran at 2.6 times its rate after the first sleep
    (31 MHz; the SSD1680 takes 20, the emulated panel refuses it). Both
    boards move clk_peri to clk_sys before they make their bus."""
    from boards.badger2040 import Badger2040Board

    m = fx.machine
    for made in (lambda: make(fx)[0], lambda: Badger2040Board(support.fresh_dir(), clock=fx.clock,
                                                             serial=FakeSerial(fx.clock))):
        m.freq(125000000)  # as MicroPython boots: clk_peri on the USB PLL
        assert m.peri_freq() == 48000000
        board = made()
        spi = board.epd.spi
        assert spi.divided_from == m.freq() == 125000000, "the SPI divider must be worked out from clk_sys"


@faked
def test_the_fake_bus_enforces_the_gp8_order(fx):
    """Why the order matters: a DC pin made before SPI(1) loses GP8 to the
    SPI's default MISO, and its writes no longer reach the panel."""
    m = fx.machine
    dc = m.Pin(8, m.Pin.OUT, value=0)
    m.SPI(1, baudrate=4000000, sck=m.Pin(10), mosi=m.Pin(11))
    dc.value(1)
    assert m.pin_state(8).ignored_writes == 1 and m.pin_state(8).level() == 0


@faked
def test_a_full_update_shows_our_frame_pixel_for_pixel(fx):
    board, panel = make(fx)
    frame = pattern_frame(1)
    assert board.show(frame, "full") == "full"
    assert [u["kind"] for u in panel.updates] == ["full"]
    assert first_difference(panel.landscape(), frame) is None


@faked
def test_orientation_and_ink_of_single_pixels(fx):
    """Landscape (x, y) lands on gate x, source 127 - y; ink is RAM 0."""
    board, panel = make(fx)
    for x, y in ((0, 0), (295, 0), (0, 127), (295, 127), (9, 70)):
        frame = bytearray(4736)
        set_pixel(frame, x, y)
        settle(board, fx, panel.FULL_MS + 500)
        board.show(frame, "full")
        src = 127 - y
        row = panel.glass[x * 16:(x + 1) * 16]
        assert row[src >> 3] == 0xFF ^ (0x80 >> (src & 7)), (x, y)
        assert first_difference(panel.landscape(), frame) is None


@faked
def test_a_fast_update_is_exactly_one_fast_update_and_exact(fx):
    """The fast waveform only moves pixels whose old (0x26) and new (0x24)
    bits differ: the driver must give it what the glass shows."""
    board, panel = make(fx)
    board.show(pattern_frame(1), "full")
    settle(board, fx, panel.FULL_MS + 500)
    frame = pattern_frame(2)
    assert board.show(frame, "fast") == "fast"
    assert [u["kind"] for u in panel.updates] == ["full", "fast"]
    assert first_difference(panel.landscape(), frame) is None
    settle(board, fx, 1000)
    frame3 = bytearray(frame)
    set_pixel(frame3, 100, 100, 0)
    set_pixel(frame3, 101, 100, 1)
    board.show(frame3, "partial")  # no partial window on this board: a fast update
    assert [u["kind"] for u in panel.updates] == ["full", "fast", "fast"]
    assert first_difference(panel.landscape(), frame3) is None
    assert board.can_partial is False


@faked
def test_the_panel_sleeps_between_updates_and_wakes_by_reset(fx):
    board, panel = make(fx)
    board.show(pattern_frame(1), "full")
    assert not panel.asleep
    settle(board, fx, panel.FULL_MS + 500)  # the main loop notices the end of the refresh
    assert panel.asleep and panel.sleeps == 1
    resets = panel.resets
    board.show(pattern_frame(2), "fast")  # the fake refuses anything sent asleep
    assert panel.resets == resets + 1
    settle(board, fx, 1000)
    assert not panel.asleep  # kept ready after a fast update
    board.epd.finish()  # the board sleeps: the panel powers off and sleeps first
    assert panel.asleep and panel.sleeps == 2 and not board.epd.powered


@faked
def test_after_a_fast_update_the_panel_stays_ready_and_the_next_goes_at_once(fx):
    """A fast update leaves the controller powered with its waveform
    loaded: the next one is the RAM write and 0x20 (no reset, no power
    on). READY_MS with no update powers it off and puts it to sleep."""
    board, panel = make(fx)
    board.show(pattern_frame(1), "full")
    settle(board, fx, panel.FULL_MS + 500)
    board.show(pattern_frame(2), "fast")
    settle(board, fx, 1000)
    resets, t0 = panel.resets, fx.clock.now
    board.epd.wake()  # a press: nothing to do, the panel is ready
    frame = pattern_frame(3)
    board.show(frame, "fast")
    assert panel.resets == resets and panel.updates[-1]["t"] - t0 < 20
    assert first_difference(panel.landscape(), frame) is None
    settle(board, fx, board.epd.READY_MS - 500)
    assert not panel.asleep
    settle(board, fx, 1000)
    assert panel.asleep and not board.epd.powered
    frame = pattern_frame(4)
    board.show(frame, "fast")  # from deep sleep again: a reset first
    assert panel.resets == resets + 1 and first_difference(panel.landscape(), frame) is None


@faked
def test_a_press_wakes_the_panel_so_its_power_on_runs_while_the_press_is_worked_out(fx):
    """At a button's edge the driver resets the panel, loads the fast
    waveform and switches the analog power on (BUSY ~0.1 s): the firmware's
    work on the press then runs during that wait, and show() sends only the
    frame, so the update command comes that much sooner. Exact as ever."""
    board, panel = make(fx)
    board.show(pattern_frame(1), "full")
    settle(board, fx, panel.FULL_MS + 500)
    assert panel.asleep
    timings = []
    for woken in (False, True):
        t0 = fx.clock.now
        if woken:
            board.epd.wake()
        fx.clock.advance(60)  # the press's work
        frame = pattern_frame(2 + woken)
        board.show(frame, "fast")
        timings.append(panel.updates[-1]["t"] - t0)
        assert panel.updates[-1]["kind"] == "fast" and first_difference(panel.landscape(), frame) is None
        settle(board, fx, 1000)
        board.epd.finish()  # the board sleeps between the presses
        assert panel.asleep
    assert timings[1] <= timings[0] - 50, timings  # 60 ms of work hidden under the power-on


@faked
def test_a_woken_panel_with_no_update_sleeps_again_and_a_full_update_starts_from_a_reset(fx):
    board, panel = make(fx)
    board.epd.wake()
    assert not panel.asleep
    board.epd.finish()  # the board sleeps before any update came: so does the panel
    assert panel.asleep and panel.updates == []
    board.epd.wake()
    resets = panel.resets
    board.show(pattern_frame(4), "full")  # from a reset, as a full update always starts
    assert panel.resets == resets + 1 and panel.updates[-1]["kind"] == "full"
    assert first_difference(panel.landscape(), pattern_frame(4)) is None
    board.epd.wake()  # while the full refresh runs: nothing to do, show() waits as before
    settle(board, fx, panel.FULL_MS + 500)
    assert panel.asleep


@faked
def test_an_update_asked_for_while_the_panel_is_busy_waits_bounded(fx):
    board, panel = make(fx)
    t0 = fx.clock.now
    board.show(pattern_frame(1), "full")
    assert fx.clock.now - t0 < 200  # the refresh runs on; show() returned
    board.show(pattern_frame(2), "fast")  # the fake raises on bytes sent while busy
    t1, t2 = panel.updates[0]["t"], panel.updates[1]["t"]
    assert t2 - t1 >= panel.FULL_MS
    assert fx.clock.now - t0 <= board.epd.TIMEOUT_MS["full update"] + 500


@faked
def test_busy_stuck_is_a_clear_error_within_the_timeout(fx):
    board, panel = make(fx)
    panel.stuck = True
    t0 = fx.clock.now
    assert str(panel_timeout(board.show, pattern_frame(1), "full")) == "SSD1680 stayed busy for 1000 ms during reset"
    assert fx.clock.now - t0 <= 1000 + 50


@faked
def test_busy_stuck_after_a_refresh_times_out_from_its_start(fx):
    board, panel = make(fx)
    panel.stick_on_update = True
    board.show(pattern_frame(1), "full")
    started = board.epd.started
    assert "during full update" in str(panel_timeout(board.show, pattern_frame(2), "fast"))
    assert fx.clock.now - started <= board.epd.TIMEOUT_MS["full update"] + 10
    assert len(panel.updates) == 1


@faked
def test_show_leaves_the_frame_as_drawn_and_the_glass_shows_it(fx):
    """show() flips the frame's bits in place for the panel (its 1 is white)
    and flips them back once the update has started, or has failed: the
    canvas the renderer draws on is never left negative (a host's screen
    request reads it)."""
    from drivers.panel import PanelTimeout

    board, panel = make(fx)
    canvas = board.surface
    if canvas is None:  # CPython: no framebuf; a landscape frame is converted into a buffer of the driver's
        frame = pattern_frame(3)
        before = bytes(frame)
        board.show(frame, "full")
        board.epd.finish()
        assert bytes(frame) == before and panel.landscape() == before
        return
    for mode, words in (("full", "Deckahedron"), ("fast", "TRIUMPH")):
        canvas.fill(0)
        canvas.fill_rect(10, 3, 50, 20, 1)
        canvas.text(words, 70, 50, 1)
        drawn = bytes(canvas.buf)
        board.show(canvas, mode)
        assert bytes(canvas.buf) == drawn
        board.epd.finish()
        assert panel.landscape() == bytes(canvas.to_bytes())
    panel.stick_on_update = True
    board.show(canvas, "full")
    canvas.fill_rect(100, 60, 8, 8, 1)
    drawn = bytes(canvas.buf)
    try:
        board.show(canvas, "fast")
    except PanelTimeout:
        pass
    else:
        raise AssertionError("no PanelTimeout")
    assert bytes(canvas.buf) == drawn


@faked
def test_a_bouncing_press_is_one_press_and_two_presses_are_two(fx):
    board, panel = make(fx)
    m = fx.machine
    press(m, BTN["B"], 100, hold=150, bounce=(1, 2, 4, 7), active=0)
    press(m, BTN["A"], 400, hold=100, active=0)
    m.schedule(BTN["A"], [(501, 0), (503, 1)])  # release bounce
    assert poll_buttons(board, fx, 700) == ["B", "A"]
    press(m, BTN["C"], 800, hold=90, active=0)
    press(m, BTN["C"], 1000, hold=90, active=0)
    assert poll_buttons(board, fx, 1300) == ["C", "C"]


def fire_edge(m, pin):
    """The pin interrupt the board registered, as the chip raises it."""
    handler, trigger = m.pin_state(pin).irq
    assert trigger == m.Pin.IRQ_FALLING  # buttons to GND: a press falls
    handler(None)


@faked
def test_a_tap_while_the_firmware_is_busy_is_still_a_press(fx):
    """A 100 ms tap that starts and ends during a save or a render is never
    seen as a level by the polling loop; the pin interrupt keeps it, so a
    player's press is never lost. Bounce edges are not presses."""
    board, panel = make(fx)
    m = fx.machine
    assert poll_buttons(board, fx, 50) == []
    fx.clock.advance(200)  # busy: B goes down and up again unseen
    fire_edge(m, BTN["B"])
    fx.clock.advance(100)
    assert board.buttons() == ["B"]
    assert poll_buttons(board, fx, fx.clock.now + 100) == []  # once only
    # a press the loop saw, with a bounce edge just after it: one press
    press(m, BTN["A"], fx.clock.now + 10, hold=80, active=0)
    fx.clock.advance(12)
    got = board.buttons()
    fire_edge(m, BTN["A"])  # contact bounce, 2 ms after the change
    assert got + poll_buttons(board, fx, fx.clock.now + 200) == ["A"]


@faked
def test_three_buttons_are_enough(fx):
    board, panel = make(fx, buttons=(("A", 2), ("B", 3), ("C", 4)))
    press(fx.machine, 4, 50, hold=80, active=0)
    assert poll_buttons(board, fx, 300) == ["C"]


@faked
def test_battery_volts_from_vsys_through_the_divider(fx):
    board, panel = make(fx)
    fx.machine.set_adc(29, 24000)
    assert abs(board.battery() - 24000 / 65535 * 3.3 * 3.0) < 1e-9
    from boards.pico_epaper29 import PicoEpaper29Board

    class NoBattery(PicoEpaper29Board):
        BATTERY = None

    other = NoBattery(support.fresh_dir(), clock=fx.clock, serial=FakeSerial(fx.clock))
    assert other.battery() is None


@faked
def test_vsys_is_read_with_gpio25_high_so_a_pico_w_reads_it_too(fx):
    """Pico W: GPIO29 is shared with the wireless chip, which lets go of it
    (and lets VSYS/3 through) while its chip select, GPIO25, is high."""
    m = fx.machine
    seen = []
    import machine

    real = machine.ADC.read_u16

    def read_u16(adc):
        seen.append(m.pin_state(25).latch)
        return real(adc)

    machine.ADC.read_u16 = read_u16
    board, panel = make(fx)
    m.set_adc(29, 24000)
    assert m.pin_state(25).latch == 0
    board.battery()
    assert seen == [1] * board.BATTERY_SAMPLES and m.pin_state(25).latch == 0


@faked
def test_watchdog_fed_while_waiting_for_the_panel(fx):
    board, panel = make(fx)
    wdt = board.start_watchdog(500)
    board.show(pattern_frame(1), "full")
    board.feed()
    board.show(pattern_frame(2), "fast")  # waits ~3 s
    board.feed()
    assert wdt.max_gap() <= 100
    wdt.check()


@faked
def test_with_a_host_power_off_sleeps_in_slices_until_a_button_and_the_press_acts(fx):
    board, panel = make(fx)
    assert board.host_attached() and board.sleep_after_ms() is None  # the app's long idle power-off
    wdt = board.start_watchdog(1000)
    board.show(pattern_frame(1), "full")
    t0 = fx.clock.now
    press(fx.machine, BTN["A"], t0 + 60000, hold=300, active=0)
    board.power_off()
    assert fx.clock.now - t0 >= 60000 and board.woke == "button"
    assert panel.asleep  # the refresh finished and the panel sleeps
    sleeps = fx.machine.SLEEPS
    assert sleeps and all(kind == "light" and ms == board.SLEEP_SLICE_MS for kind, ms in sleeps)
    wdt.check()
    assert board.buttons() == ["A"]  # the press that woke the board acts, once
    fx.clock.advance(400)
    assert board.buttons() == []


@faked
def test_with_no_host_it_goes_dormant_and_a_tap_shorter_than_the_wake_acts(fx):
    board, panel = make(fx)
    fx.machine.set_usb_host(False)  # no frames: the bus is suspended
    assert not board.host_attached() and board.sleep_after_ms() == board.SLEEP_AFTER_MS
    wdt = board.start_watchdog(1000)
    board.show(pattern_frame(1), "fast")
    t0 = fx.clock.now
    press(fx.machine, BTN["B"], t0 + 600000 - 5000, hold=15, active=0)
    board.power_off()
    assert board.woke == "button" and board.dormancies == 1 and board.sleeps == 0
    assert fx.machine.SLEEPS == [("dormant", BTN["B"])] and panel.asleep
    wdt.check()  # the watchdog's tick stops with the crystal
    fx.clock.advance(20)  # released already: only the latched edge tells
    assert board.buttons() == ["B"]
    fx.clock.advance(200)
    assert board.buttons() == []
    m = fx.machine
    assert all(m.mem32[m.DORMANT_WAKE_INTE0 + 4 * i] == 0 for i in range(4))  # nothing left armed


@faked
def test_the_pin_interrupt_does_not_eat_the_edge_that_says_which_button_woke_it(fx):
    """rp2's GPIO interrupt acknowledges every edge it sees as soon as
    lightsleep() turns interrupts back on, before dormant() reads the
    DORMANT_WAKE_INTS registers: the buttons' pin interrupts are held off
    while the chip sleeps (and given back after), or the waking press is
    lost (the emulated Pico showed it)."""
    board, panel = make(fx)
    m = fx.machine
    fx.machine.set_usb_host(False)
    inte = m.mem32[m.PROC0_INTE0]
    assert inte >> 4 * BTN["B"] & 0xF == 4  # catch_edges: B's falling edge
    press(m, BTN["B"], fx.clock.now + 3000, hold=3, active=0)  # shorter than the crystal's start
    board.power_off()
    assert board.woke == "button" and m.SLEEPS == [("dormant", BTN["B"])]
    assert board.buttons() == ["B"]
    assert m.mem32[m.PROC0_INTE0] == inte and m.mem32[m.INTR0] & 0x44444444 == 0


@faked
def test_on_usb_power_with_no_host_sending_frames_it_waits_awake_and_the_press_acts(fx):
    """A cable but no frames (a laptop asleep, a charger): no DORMANT, which
    stops the USB clock, so a host that resumes or enumerates finds the
    board answering; a press still acts."""
    board, panel = make(fx)
    fx.machine.set_usb_host(False)
    fx.machine.set_input(24, 1)  # VBUS: the Pico's GP24
    assert board.usb_powered() and not board.host_attached()
    board.show(pattern_frame(1), "fast")
    press(fx.machine, BTN["B"], fx.clock.now + 5000, hold=100, active=0)
    board.power_off()
    assert board.woke == "button" and board.dormancies == 0 and fx.machine.SLEEPS == []
    assert board.buttons() == ["B"]


@faked
def test_on_battery_a_cable_plugged_in_wakes_it_from_dormant_and_it_stays_awake(fx):
    board, panel = make(fx)
    m = fx.machine
    m.set_usb_host(False)
    assert not board.usb_powered()
    board.show(pattern_frame(1), "fast")
    t0 = fx.clock.now
    m.schedule(24, [(t0 + 60000, 1)])  # the cable, a minute on
    press(m, BTN["A"], t0 + 70000, hold=100, active=0)
    board.power_off()
    assert m.SLEEPS == [("dormant", 24)] and board.dormancies == 1  # no second DORMANT on USB power
    assert board.woke == "button" and fx.clock.now >= t0 + 70000
    assert board.buttons() == ["A"]


@faked
def test_with_no_host_sending_frames_nothing_is_written_to_the_port(fx):
    """rp2's CDC keeps the port marked open after its host was unplugged or
    went to sleep, and a write then waits 500 ms for it, each time (the
    emulated Pico showed it: 0.5 s more per press asleep on the battery).
    The app keeps its events for the host's next hello."""
    board, panel = make(fx)
    board.serial_write("E 1 {}\n")
    assert board.serial.sent == ["E 1 {}\n"]
    fx.machine.set_usb_host(False)
    board.serial_write("E 2 {}\n")
    assert board.serial.sent == ["E 1 {}\n"] and board.serial.dropped == 1
    fx.machine.set_usb_host(True)
    board.serial_write("E 3 {}\n")
    assert board.serial.sent[-1] == "E 3 {}\n"


@faked
def test_a_press_during_the_last_update_skips_the_sleep(fx):
    board, panel = make(fx)
    fx.machine.set_usb_host(False)
    board.show(pattern_frame(1), "full")  # ~3 s
    press(fx.machine, BTN["C"], fx.clock.now + 500, hold=100, active=0)
    board.power_off()
    assert board.woke == "button" and board.dormancies == 0 and fx.machine.SLEEPS == []
    assert board.buttons() == ["C"]


@faked
def test_bad_frames_and_modes_are_clear_errors(fx):
    board, panel = make(fx)
    for args in ((bytearray(100), "full"), (pattern_frame(1), "slow")):
        try:
            board.show(*args)
        except ValueError:
            pass
        else:
            raise AssertionError("accepted %r" % (args,))
    assert panel.updates == []


@faked
def test_serial_goes_through_and_the_read_paces_the_loop(fx):
    board, panel = make(fx)
    board.serial.inbox = b"abc"
    assert board.serial_read(20) == b"abc"
    t0 = fx.clock.now
    assert board.serial_read(20) == b""
    assert fx.clock.now - t0 == 20
    board.serial_write("E 1 {} 0000\n")
    assert board.serial.sent == ["E 1 {} 0000\n"]
    assert isinstance(board.entropy(), int)


class _Poll:
    def __init__(self, script):
        self.script = script

    def register(self, obj, flags):
        pass

    def poll(self, timeout=-1):
        return self.script.pop(0) if self.script else []


class _Select:
    POLLIN = 1
    POLLOUT = 4

    def __init__(self, ins, outs):
        self.polls = [_Poll(ins), _Poll(outs)]

    def poll(self):
        return self.polls.pop(0)


class _Stream:
    def __init__(self, data=b""):
        self.data = bytearray(data)
        self.written = []

    def read(self, n):
        out = bytes(self.data[:n])
        self.data = self.data[n:]
        return out

    def write(self, b):
        self.written.append(bytes(b))


def test_usb_serial_reads_while_readable_and_drops_when_not_writable():
    from boards.usbserial import UsbSerial

    sin, sout = _Stream(b"Q 1 hello {}\n"), _Stream()
    ready = [(sin, 1)]
    sel = _Select([ready] * 6 + [[]], [[(sout, 4)], []])
    s = UsbSerial(sin, sout, sel)
    assert s.read(20) == b"Q 1 he"  # one byte per poll that says readable
    assert s.write("R 1 ok\n") is True and sout.written == [b"R 1 ok\n"]
    assert s.write("R 2 ok\n") is False and s.dropped == 1
    assert s.read(20) == b""


def test_usb_serial_reads_into_a_shared_buffer_and_hands_out_a_copy():
    """A Badger shares one scratch buffer between its serial reads and its
    panel's RAM bytes (boards/badger2040.py): what read() returns must not
    change when the panel then writes over the buffer, and a read stops at
    MAX_READ however large the buffer."""
    from boards.usbserial import UsbSerial

    shared = bytearray(UsbSerial.MAX_READ + 80)
    sin = _Stream(b"x" * (UsbSerial.MAX_READ + 40))
    sel = _Select([[(sin, 1)]] * (UsbSerial.MAX_READ + 50), [[]])
    s = UsbSerial(sin, _Stream(), sel, acc=shared)
    got = s.read(20)
    assert len(got) == UsbSerial.MAX_READ and shared[:4] == b"xxxx"
    shared[:] = bytes(len(shared))  # the panel's turn
    assert got == b"x" * UsbSerial.MAX_READ


@faked
def test_the_app_flips_by_buttons_end_to_end(fx):
    """App.boot(), then B (flip) and A (done) on the buttons: the panel saw
    one full refresh at boot and one fast update per screen change."""
    board, panel = make(fx)
    app = flip_with_buttons(fx, board, BTN["B"], BTN["A"], active=0)
    assert [u["kind"] for u in panel.updates] == ["full", "fast", "fast"]
    assert app.refresh.counts == {"full": 1, "fast": 2, "partial": 0, "clean": 0}
    assert first_difference(panel.landscape(), app.renderer.frame_bytes()) is None
    settle(board, fx, board.epd.READY_MS + 1000)  # kept ready for the next press, then powered off
    assert panel.asleep


@faked
def test_a_and_c_held_at_power_on_keep_the_app_from_starting(fx):
    """The way in for mpremote on a board whose app does not answer:
    main.py starts no app while A and C are both held."""
    import power_on

    board, _ = make(fx)
    assert not power_on._escape_held(board)
    fx.machine.set_input(BTN["A"], 0)  # pressed: pulled to GND
    assert not power_on._escape_held(board)
    fx.machine.set_input(BTN["C"], 0)
    assert power_on._escape_held(board) and board.held("C") and not board.held("B")


@faked
def test_a_firmware_error_in_play_mode_goes_to_the_crash_log_and_resets_the_board(fx):
    """Not to the USB serial (the protocol's), and not to the REPL: the
    traceback is appended to crash.log and machine.reset() restarts the board
    into its save. Here the save fails: a folder appeared where it writes."""
    import os

    import app as A
    import start
    from shared_rules import protocol as P

    board, _ = make(fx)
    serial = board.serial

    def read(timeout_ms):
        if not serial.sent:
            os.mkdir(board.flash_dir + "/deck.tmp")
            serial.sent.append("")
            return P.request(3, "flip", {"suit": "crown"}).encode()
        return b""

    serial.read = read
    show = A.App.show
    A.App.show = lambda self: None  # drawing is not what this test is about
    try:
        start._play(board, "dev1", 7)
    except fx.machine.MachineReset as e:
        assert "machine.reset()" in str(e)
    else:
        raise AssertionError("the board did not reset")
    finally:
        A.App.show = show
    import saves

    log = saves.read_crashes(board.flash_dir)
    assert "Traceback" in log and "in save" in log, log
    assert not [line for line in serial.sent if "Traceback" in line or "Error" in line]


@faked
def test_the_repl_op_stops_the_watchdog_before_leaving_the_app(fx):
    """rp2's machine.WDT cannot be stopped from Python and would reset the
    board under mpremote: leaving for the REPL clears the watchdog's enable
    bit (RP2040 WATCHDOG CTRL, through its atomic clear alias)."""
    import app as A
    import start
    from shared_rules import protocol as P

    class Mem32:  # records writes; reads: a USB host attached
        def __init__(self):
            self.writes = {}

        def __getitem__(self, addr):
            return fx.machine.SIE_CONNECTED if addr == fx.machine.USB_SIE_STATUS else 0

        def __setitem__(self, addr, value):
            self.writes[addr] = value

    fx.machine.mem32 = mem = Mem32()
    board, _ = make(fx)
    board.serial.inbox = P.request(8, "repl", {"confirm": True}).encode()
    show = A.App.show
    A.App.show = lambda self: None
    try:
        start._play(board, "dev1", 7)  # returns: the REPL is next
    finally:
        A.App.show = show
    assert mem.writes == {0x40058000 + 0x3000: 1 << 30} and board.wdt is None
    kind, rid, (ok, r) = P.decode(board.serial.sent[-1])
    assert rid == 8 and ok and r == {"repl": True}


@faked
def test_the_app_on_a_pico_with_no_host_sleeps_dormant_and_the_waking_b_flips(fx):
    """Issue 12, the whole path on the fakes: the app boots, draws home,
    sleeps (no host: DORMANT) 100 ms after its last input; a tap on B a
    minute later wakes the board and flips, the flip drawn fast, and the
    board sleeps again until the next press."""
    import app as A

    saved = A.ticks_ms, A.ticks_diff
    A.ticks_ms, A.ticks_diff = fx.clock.ticks_ms, fx.clock.ticks_diff  # the app's idle time on the simulated clock
    try:
        _app_sleeps_and_wakes(fx, A.App)
    finally:
        A.ticks_ms, A.ticks_diff = saved


def _app_sleeps_and_wakes(fx, App):
    board, panel = make(fx)
    fx.machine.set_usb_host(False)
    fx.machine.set_adc(29, 27000)  # VSYS 4.1 V: a charged cell
    app = App(board, "dev1", 7)
    try:
        import framebuf  # noqa: F401
    except ImportError:
        from tests.fakes import StubRenderer

        app.renderer = StubRenderer()
    app.boot()
    app.poll()  # the home screen: a full refresh starts
    count = app.game.s.count
    t0 = fx.clock.now
    press(fx.machine, BTN["B"], t0 + 60000, hold=20, active=0)
    press(fx.machine, BTN["A"], t0 + 120000, hold=20, active=0)
    while (app.game.s.count == count or len(fx.machine.SLEEPS) < 2) and fx.clock.now < t0 + 130000:
        app.poll()  # a poll flips and draws it; 100 ms after the press the board sleeps until A
    assert app.game.s.count == count + 1 and app.game.s.flip is not None
    assert [s for s in fx.machine.SLEEPS] == [("dormant", BTN["B"]), ("dormant", BTN["A"])]
    assert board.buttons() == ["A"]  # the next press, waiting to act
    assert [u["kind"] for u in panel.updates] == ["full", "fast"]  # no clean refresh for the wake

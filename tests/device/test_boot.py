"""Choosing the board at boot: the config line wins, else detection."""

from tests.device import support  # puts firmware/ on the path
from tests import fakes
import power_on  # noqa: E402


def test_config_names_the_board():
    path = support.fresh_dir() + "/deckahedron.cfg"
    with open(path, "w") as f:
        f.write("# written by deckahedron flash\nboard=pico-epaper29\n")
    assert power_on.configured(path) == "pico-epaper29"
    assert power_on.configured(path + ".missing") is None


def test_detection_on_this_runtime():
    """Not an rp2: the unix port is the simulator."""
    assert power_on.detect() == "sim"


RP2 = "Raspberry Pi Pico with RP2040"  # sys.implementation._machine of the base image


@fakes.faked
def test_the_probe_sees_the_pico_epapers_ssd1680(fx):
    """No config on an RP2040: the SSD1680 drives its BUSY (GP13) low when
    idle, which a pull-up cannot lift; the Badger's pins are left alone."""
    import machine

    machine.set_input(13, 0)
    assert power_on._probe(RP2) == "pico-epaper29"
    assert machine.pin_state(21).writes == []


@fakes.faked
def test_the_probe_sees_the_badgers_uc8151(fx):
    """GP13 is the Badger's button B (to 3V3): a pull-up reads it high; the
    UC8151, its RST held high, drives BUSY_N (GP26) high against a pull-down
    once out of reset; no RTC answers on I2C0: the Badger 2040."""
    import machine

    reads = [0]

    def ready(now):
        reads[0] += 1
        return reads[0] > 3  # busy for a few reads after reset

    machine.drive(26, ready)
    assert power_on._probe(RP2) == "badger2040"
    assert machine.pin_state(21).level() == 1


@fakes.faked
def test_the_probe_tells_the_badger_2040_w_by_its_rtc_or_its_build(fx):
    import machine

    machine.set_input(26, 1)
    assert power_on._probe("Raspberry Pi Pico W with RP2040") == "badger2040w"
    machine.attach_i2c(0, 0x51, fx.rtc())
    assert power_on._probe(RP2) == "badger2040w"


@fakes.faked
def test_the_probe_defaults_to_the_pico_when_it_sees_neither_panel(fx):
    """Nothing drives GP13 or GP26 (no panel answers): the Pico +
    Pico-ePaper-2.9, as before the probe, and GP21 is an input again."""
    import machine

    assert power_on._probe(RP2) == "pico-epaper29"
    assert machine.pin_state(21).mode == machine.Pin.IN


def test_the_probes_pins_are_the_registrys():
    import json

    with open("firmware/boards/boards.json") as f:
        boards = json.load(f)["boards"]
    pico, badger = boards["pico-epaper29"]["pins"], boards["badger2040"]["pins"]
    rtc = boards["badger2040w"]["pins"]["rtc"]
    assert power_on.PROBE_PINS == (pico["panel"]["busy"], badger["panel"]["rst"], badger["panel"]["busy"],
                                (rtc["i2c"], rtc["sda"], rtc["scl"], 0x51))
    assert badger["panel"]["rst"] not in [b[1] for b in pico["buttons"]] + list(pico["panel"].values())
    assert badger["panel"]["busy"] not in [b[1] for b in pico["buttons"]] + list(pico["panel"].values())
    assert pico["panel"]["busy"] in [b[1] for b in badger["buttons"]] and badger["buttons_pressed"] == 1


@fakes.faked
def test_a_hold_line_drives_the_power_latch_high_first(fx):
    """A Badger on battery powers off when its button is released unless
    the latch pin is high: main.py drives it from the config's hold= line
    before reading the registry or importing the app."""
    import machine

    power_on._hold("10")
    assert machine.pin_state(10).level() == 1
    power_on._hold(None)  # boards without a latch
    power_on._hold("GP10")  # not a pin number: ignored, no crash


def test_the_config_gives_every_key_line():
    path = support.fresh_dir() + "/deckahedron.cfg"
    with open(path, "w") as f:
        f.write("hold=10\nboard=badger2040\nseed=7\n")
    cfg = power_on.config(path)
    assert cfg["hold"] == "10" and cfg["board"] == "badger2040" and cfg["seed"] == "7"


def test_unknown_board_is_a_clear_error():
    try:
        power_on.make_board("abacus")
    except SystemExit as e:
        assert "unknown board 'abacus'" in str(e) and "sim" in str(e)
    else:
        raise AssertionError("no error")


def test_every_board_in_the_registry_has_its_module_and_class():
    """boards/boards.json names a module and class for each board: the
    file exists and defines the class (read as text: the other boards'
    modules import their platforms' APIs)."""
    import json

    with open("firmware/boards/boards.json") as f:
        boards = json.load(f)["boards"]
    assert "sim" in boards and "pico-epaper29" in boards
    for name in boards:
        entry = spec_of(name)
        with open("firmware/" + entry["module"].replace(".", "/") + ".py") as f:
            text = f.read()
        assert ("class %s(" % entry["class"]) in text or ("class %s:" % entry["class"]) in text, name


def spec_of(name):
    from boards import spec

    return spec(name)


def test_the_device_keeps_only_its_own_boards_pins_and_module():
    """The host's facts (power figures and their sources) are not kept in RAM."""
    entry = spec_of("pico-epaper29")
    assert sorted(entry) == ["class", "module", "panel", "pins", "runtime"]
    assert entry["pins"]["panel"]["busy"] == 13 and entry["pins"]["buttons"][1] == ["B", 3]


def _run_main(micropython, start_module, argv):
    """firmware/entry/main.py run as a module (not __main__), then its _start(argv),
    with these stand-ins for MicroPython's micropython module and for
    power_on.py."""
    import sys

    saved = dict((k, sys.modules.get(k)) for k in ("micropython", "start"))
    sys.modules["micropython"], sys.modules["start"] = micropython, start_module
    try:
        with open("firmware/entry/main.py") as f:
            g = {"__name__": "main_under_test", "__file__": "firmware/entry/main.py"}
            exec(f.read(), g)
        micropython.imported = True
        g["_start"](argv)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


def test_main_turns_ctrl_c_off_first_and_boots_on_after_a_keyboard_interrupt():
    """A 0x03 on the USB port before Ctrl-C is off (MicroPython turns it on
    for every script) raises KeyboardInterrupt into main.py: it is caught,
    Ctrl-C goes off again and the imports go on (tests/emu/test_boot_bytes.py
    does it with bytes on the emulated Pico's port)."""
    calls, ran = [], []

    class Micropython:
        imported = False

        def kbd_intr(self, char):
            calls.append((self.imported, char))
            if len(calls) == 1:
                raise KeyboardInterrupt()  # one pending from before

    class Start:
        imports = 0

        @property
        def main(self):
            Start.imports += 1
            if Start.imports == 1:
                raise KeyboardInterrupt()  # one raised in the middle of the imports
            return ran.append

    _run_main(Micropython(), Start(), ["--board", "sim"])
    # off from the first line (the interrupt pending then is caught), off
    # again after the one in the imports; the board then starts
    assert calls == [(False, -1), (False, -1), (True, -1)]
    assert ran == [["--board", "sim"]] and Start.imports == 2

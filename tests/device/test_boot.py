"""Choosing the board at boot: the config line wins, else detection."""

from tests.device import support  # puts firmware/ on the path
from tests import fakes
import start  # noqa: E402


def test_config_names_the_board():
    path = support.fresh_dir() + "/deckahedron.cfg"
    with open(path, "w") as f:
        f.write("# written by deckahedron flash\nboard=pico-epaper29\n")
    assert start.configured(path) == "pico-epaper29"
    assert start.configured(path + ".missing") is None


def test_detection_on_this_runtime():
    """Not an rp2: the unix port is the simulator."""
    assert start.detect() == "sim"


@fakes.faked
def test_a_hold_line_drives_the_power_latch_high_first(fx):
    """A Badger on battery powers off when its button is released unless
    the latch pin is high: main.py drives it from the config's hold= line
    before reading the registry or importing the app."""
    import machine

    start._hold("10")
    assert machine.pin_state(10).level() == 1
    start._hold(None)  # boards without a latch
    start._hold("GP10")  # not a pin number: ignored, no crash


def test_the_config_gives_every_key_line():
    path = support.fresh_dir() + "/deckahedron.cfg"
    with open(path, "w") as f:
        f.write("hold=10\nboard=badger2040\nseed=7\n")
    cfg = start.config(path)
    assert cfg["hold"] == "10" and cfg["board"] == "badger2040" and cfg["seed"] == "7"


def test_unknown_board_is_a_clear_error():
    try:
        start.make_board("abacus")
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

"""Choosing the board at boot: the config line wins, else detection."""

from tests.device import support  # noqa: F401 -- puts firmware/ on the path
import main  # noqa: E402


def test_config_names_the_board():
    path = support.fresh_dir() + "/deckahedron.cfg"
    with open(path, "w") as f:
        f.write("# written by deckahedron flash\nboard=pico-epaper29\n")
    assert main.configured(path) == "pico-epaper29"
    assert main.configured(path + ".missing") is None


def test_detection_on_this_runtime():
    """No badger2040 module and not an rp2: the unix port is the simulator."""
    assert main.detect() == "sim"


def test_unknown_board_is_a_clear_error():
    try:
        main.make_board("abacus")
    except SystemExit as e:
        assert "unknown board 'abacus'" in str(e) and "sim" in str(e)
    else:
        raise AssertionError("no error")


def test_every_named_board_has_a_module():
    import os

    for name in main.BOARDS:
        modname = main.BOARDS[name][0]
        os.stat("firmware/" + modname.replace(".", "/") + ".py")

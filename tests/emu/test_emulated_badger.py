"""The same base image on an emulated Pimoroni Badger 2040: our UC8151
driver on its panel (modelled as strictly as tests/fakes/uc8151_panel.py),
buttons to 3V3 with pull-downs, the power latch on ENABLE_3V3 and the
battery read against the board's voltage reference, all from the board
registry. One board is booted for the module; the tests run in order on it.
The Badger 2040 W: test_emulated_badger_w.py.
"""

import pytest

from host_tools.sim.emulated import board_pins
from tests.emu.conftest import booted, hello, is_update, press_and_wait, same_as_twin, settle_flash, twin_of

BOARD = "badger2040"
LATCH = board_pins(BOARD)["latch"]


@pytest.fixture(scope="module")
def badger(emulator, tmp_path_factory):
    yield from booted(tmp_path_factory.mktemp("emu"), BOARD)


@pytest.fixture(scope="module")
def twin(badger, tmp_path_factory):
    yield from twin_of(badger, tmp_path_factory.mktemp("twin"))


def test_the_badger_boots_the_game_to_its_home_screen(badger, twin):
    info = hello(badger)
    assert (info["board"], info["device"], info["platform"]) == (BOARD, badger.device_id, "rp2")
    # issue 27: VBAT read against the reference, as the GM sees it
    assert abs(info["battery_mv"] - badger.battery_volts * 1000) <= 40
    panel = badger.panel()
    assert panel["full"] == 1, "power-on draws the home screen with one full update: %s" % panel["updates"]
    assert any(panel["image"]), "the glass is blank after boot"
    same_as_twin(badger, twin, "the home screen")


def test_the_power_latch_goes_high_before_the_panel_and_stays_high(badger):
    """On battery the Badger runs only while ENABLE_3V3 is high: main.py
    drives it from the config's hold= line before anything slow."""
    assert LATCH is not None
    events = badger.events_since(0)
    latch = [e for e in events if e.get("ev") == "latch" and e["level"] is not None]
    first_update = next(e for e in events if is_update(e))
    assert latch and latch[0]["level"] == 1, "the latch was never driven high: %s" % latch
    assert latch[0]["t"] < first_update["t"]
    assert all(e["level"] == 1 for e in latch), "the latch dropped while playing: %s" % latch


def test_a_flip_by_the_badgers_buttons_shows_on_the_panel(badger, twin):
    before = hello(badger)
    home = badger.panel_image()
    press_and_wait(badger, "B")
    twin.request("press", button="B")
    assert badger.panel_image() != home, "B flips: the panel must change"
    after = same_as_twin(badger, twin, "after B (flip)")
    assert (after["count"], after["events"]) == (before["count"] + 1, before["events"] + 1)
    press_and_wait(badger, "A")
    twin.request("press", button="A")
    after = same_as_twin(badger, twin, "after A (end the flip)")
    assert after["count"] == before["count"] + 2


def test_a_save_survives_a_reset(badger):
    settle_flash(badger)
    before = hello(badger)
    badger.reset()
    badger.wait_event(is_update, timeout=90.0)
    after = hello(badger)
    assert (after["digest"], after["count"], after["events"]) == (before["digest"], before["count"],
                                                                    before["events"])


def test_the_press_that_powers_a_switched_off_badger_up_is_the_press_that_acts(badger, twin):
    """Issue 12, sleep=off: on battery the board is off between presses; a
    press held 0.4 s powers it up, main.py reads the buttons as it takes
    the latch, and that B flips, drawn with a fast update (the panel kept
    the last screen: no clean refresh for a wake)."""
    settle_flash(badger)
    before = hello(badger)
    badger.stop()
    badger.start(wake=("B", 400))
    first = badger.wait_event(is_update, timeout=90.0)
    latch = next(e for e in badger.events_since(0) if e.get("ev") == "latch" and e["level"] == 1)
    assert latch["t"] < 400e6, "the latch must be taken while the button still holds the power on"
    after = hello(badger)
    assert after["count"] == before["count"] + 1, "the wake press did not act"
    assert first["kind"] == "fast"
    twin.request("press", button="B")
    same_as_twin(badger, twin, "after the B that powered the board up")


def test_the_panel_never_got_a_command_it_would_refuse(badger):
    """Nothing while BUSY, in deep sleep or in reset; no unknown commands,
    wrong data lengths, refreshes without power or RAM writes outside the
    window (the checks of tests/fakes/uc8151_panel.py), over every run of
    this module."""
    panel = badger.panel()
    assert panel["full"] + panel["fast"] + panel["partial"] >= 1
    assert badger.violations() == []


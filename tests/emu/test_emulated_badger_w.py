"""The Badger 2040 W on the same base image: no battery sense, and its
PCF85063A RTC on I2C is not modelled, so nothing answers at its address; the
board module must play on without the wake alarm. A module of its own, so
the 2040's board is closed before this one boots.
"""

import pytest

from tests.emu.conftest import booted, hello, press_and_wait, same_as_twin, twin_of


@pytest.fixture(scope="module")
def badger_w(emulator, tmp_path_factory):
    yield from booted(tmp_path_factory.mktemp("emu"), "badger2040w")


@pytest.fixture(scope="module")
def twin(badger_w, tmp_path_factory):
    yield from twin_of(badger_w, tmp_path_factory.mktemp("twin"))


def test_the_badger_w_plays_without_its_rtc_answering(badger_w, twin):
    """The same home screen as the unix-port renderer, with no battery
    gauge, and a flip by its buttons."""
    assert hello(badger_w)["board"] == "badger2040w"
    same_as_twin(badger_w, twin, "the 2040 W's home screen")
    press_and_wait(badger_w, "B")
    twin.request("press", button="B")
    assert same_as_twin(badger_w, twin, "the 2040 W after B (flip)")["count"] == 1
    assert badger_w.violations() == []

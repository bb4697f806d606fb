"""The stock route on the emulated Pico: the official MicroPython v1.28.0
image for the Pico (no ROMFS), the device code as the .mpy files
`deckahedron flash --port` copies onto its littlefs (issue 24).

Everything a hobbyist with only that UF2 relies on: the flasher installs
the game on a board that holds nothing of it, the game boots and plays, and
a random walk over all five buttons (menus, odds, gear, mini-games, other
systems) never runs out of memory. Here the code's bytecode is in the heap,
so these figures are the ones that can break (make bench prints them
beside the ROMFS ones).
"""

import os
import subprocess
import sys
import time

import pytest

from host_tools.sim.emulated import EmuBoard, random_walk, unavailable
from host_tools.link import DeviceLink
from tests.emu.conftest import BOOT_WALL, booted, is_update

WALK_PRESSES = 120  # make bench walks 500 (docs/benchmarks.md)
# Today's figure after boot with ~3 KB of room: a guard against growth (the
# goal, 128 KB, is met: docs/rp2040.md, "The stock route").
BOOT_HEAP_GUARD = 130 * 1024  # 126.9 KB (129,920 B) on 2026-11-28 (14:05)


@pytest.fixture(scope="module")
def stock(tmp_path_factory):
    why = unavailable("stock")
    if why:
        pytest.skip("no emulated stock Pico: " + why)
    yield from booted(tmp_path_factory.mktemp("stock"), name="s1", seed=11, firmware="stock")


def _hello(port):
    with DeviceLink(port, timeout=30.0) as link:
        return link.hello()


def test_the_stock_image_boots_the_game_from_mpy_files(stock):
    info = _hello(stock.port)
    assert info["board"] == "pico-epaper29"
    assert info["heap_used"] <= BOOT_HEAP_GUARD, info["heap_used"]
    assert stock.read_file("start.mpy") is not None  # the code came from littlefs, as .mpy
    assert stock.violations() == []


@pytest.mark.slow
def test_a_random_walk_of_every_button_never_runs_out_of_memory(stock):
    resets = random_walk(stock, WALK_PRESSES, seed=2)
    time.sleep(1.0)
    crashes = stock.read_file("crash.log")
    assert crashes is None, crashes.decode("utf-8", "replace")[-800:]
    assert resets == 0
    info = _hello(stock.port)  # still playing, and answering the link
    assert info["heap_free"] > 16 * 1024


@pytest.mark.slow
def test_deckahedron_flash_installs_the_game_on_a_board_fresh_from_the_official_uf2(tmp_path):
    why = unavailable("stock")
    if why:
        pytest.skip("no emulated stock Pico: " + why)
    board = EmuBoard("f1", str(tmp_path / "f1"), seed=5, firmware="stock", bare=True)
    try:
        board.start()
        board.wait_event(lambda e: e.get("ev") == "cdc", timeout=BOOT_WALL)
        assert board.read_file("start.mpy") is None  # nothing of the game yet: the REPL
        since = board.event_count()
        done = subprocess.run(
            [sys.executable, "-m", "host_tools.cli", "flash", "--board", "pico-epaper29", "--port", board.port],
            capture_output=True, text=True, timeout=900, env=dict(os.environ, PYTHONPATH=os.getcwd()))
        assert done.returncode == 0, done.stdout[-1500:] + done.stderr[-1500:]
        assert ".mpy" in done.stdout  # the plan said how the code goes on
        board.wait_event(is_update, timeout=BOOT_WALL, since=since)  # reset by the flasher: the home screen
        info = _hello(board.port)
        assert info["board"] == "pico-epaper29"
        assert board.read_file("deckahedron.cfg") == b"board=pico-epaper29\n"
    finally:
        board.close()

"""The emulated Pico (host_tools/emuboards.py): MicroPython's rp2 image with
the current device code in rp2040js.

These tests need three things not kept in the repository: the RP2040 base
image and bootrom in the cache folder (docs/rp2040.md), and Node.js with
rp2040js (`make setup`). Without them every test here SKIPS with the
reason; with them they run.
"""

import os
import shutil
import time

import pytest

from host_tools import rp2040
from host_tools.emuboards import EmuBoard, EmuError, find_node
from host_tools.link import DeviceLink
from host_tools.simboards import SimBoard
from tests.host.conftest import wait_hello

BOOT_WALL = 90.0  # wall seconds an emulated board may take to show its home screen
PRESS_WALL = 60.0  # ... to answer a button with a panel update


def missing():
    """Why the emulated Pico cannot run here, or None."""
    try:
        rp2040.base_image_path()
        rp2040.bootrom_path()
        find_node()
    except (rp2040.ImageError, EmuError) as e:
        return str(e)
    return None


@pytest.fixture(scope="session")
def emulator():
    why = missing()
    if why:
        pytest.skip("no emulated Pico: " + why)


def is_update(e):
    return e.get("ev") == "update"


def boot(board):
    """Start the board and wait for the home screen's panel update; the
    update event."""
    since = board.event_count() if board.is_alive() else 0
    board.start()
    return board.wait_event(is_update, timeout=BOOT_WALL, since=since)


def press_and_wait(board, button):
    """Press a button; (the emulated press time, the update event it caused)."""
    since = board.event_count()
    t = board.press(button)
    return t, board.wait_event(is_update, timeout=PRESS_WALL, since=since)


def press_and_settle(board, button, quiet=4.0):
    """Press a button and wait for the panel update it causes, or for
    `quiet` emulated seconds without one (a press that changes nothing on
    the screen); the update event or None."""
    since = board.event_count()
    t = board.press(button)
    end = time.monotonic() + PRESS_WALL
    while time.monotonic() < end:
        for e in board.events_since(since):
            if is_update(e):
                return e
        if board.time() > t + quiet:
            return None
        time.sleep(0.1)
    raise AssertionError("%s: no panel update and no quiet after pressing %s" % (board.name, button))


def settle_flash(board, quiet=0.5, timeout=60.0):
    """Wait until the flash has had no erase or program for `quiet` emulated
    seconds (a save finished); the flash counters then."""
    end = time.monotonic() + timeout
    last = board.flash_ops()
    since = board.time()
    while time.monotonic() < end:
        time.sleep(0.2)
        now = board.flash_ops()
        if now["ops"] != last["ops"]:
            last, since = now, board.time()
        elif board.time() - since >= quiet:
            return now
    raise AssertionError("the flash never went quiet: a save that does not end")


def hello(board):
    return wait_hello(board.port, timeout=BOOT_WALL)


@pytest.fixture(scope="module")
def pico(emulator, tmp_path_factory):
    """One emulated Pico for a module, booted to its home screen (seed 7)."""
    base = tmp_path_factory.mktemp("emu")
    board = EmuBoard("p1", str(base / "p1"), seed=7)
    try:
        boot(board)
        yield board
    finally:
        board.close()
        log = base / "p1.log"
        if log.exists() and log.stat().st_size:
            print(log.read_text()[-2000:])


@pytest.fixture(scope="module")
def twin(pico, tmp_path_factory):
    """The unix-port sim board with the emulated board's seed and id: the
    same commands must bring both to the same state and the same pixels."""
    board = SimBoard("p1", str(tmp_path_factory.mktemp("twin") / "p1"), seed=pico.seed)
    try:
        board.start()
        wait_hello(board.port)
        with DeviceLink(board.port, timeout=5.0) as link:
            yield link
    finally:
        board.close()


def copy_flash(board, dest):
    shutil.copyfile(board.fs_path, dest)


def put_flash(board, src):
    os.makedirs(board.flash_dir, exist_ok=True)
    shutil.copyfile(src, board.fs_path)

"""The emulated Pico (host_tools/sim/emulated.py): MicroPython's rp2 image with
the current device code in rp2040js.

These tests need three things not kept in the repository: the RP2040 base
image and bootrom in the cache folder (docs/rp2040.md), and Node.js with
rp2040js (`make setup`). Without them every test here SKIPS with the
reason; with them they run.
"""

import base64
import importlib.util
import os
import shutil
import time
from pathlib import Path

import pytest

from host_tools import firmware_importable
from host_tools.flashing import rp2040
from host_tools.sim.emulated import EmuBoard, unavailable
from host_tools.link import DeviceLink
from host_tools.sim.unixport import SimBoard
from tests.host.conftest import wait_hello

firmware_importable()
import layout  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BOOT_WALL = 90.0  # wall seconds an emulated board may take to show its home screen
PRESS_WALL = 60.0  # ... to answer a button with a panel update
WATCHDOG_S = 8.4  # rp2's longest watchdog timeout (the app asks for 8 s), in emulated s


@pytest.fixture(scope="session")
def emulator():
    why = unavailable()
    if why:
        pytest.skip("no emulated Pico: " + why)


@pytest.fixture(scope="session")
def circuitpython():
    """CircuitPython's image for the Pico (the cache folder or
    DECKAHEDRON_CIRCUITPY_DIR), the bootrom, Node with rp2040js and pyfatfs."""
    why = unavailable("circuitpython")
    if why is None and importlib.util.find_spec("pyfatfs") is None:
        why = "pyfatfs is not installed (`make setup`)"
    if why:
        pytest.skip("no emulated Pico on CircuitPython: " + why)


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


STALE_NAMES = 0.05  # names added since the base image was built: a few cost a little heap


def unfrozen_names():
    """(the device code's names the base image lacks, every name, None or
    one line saying they are more than STALE_NAMES of them: the image lags
    the code, which costs heap, never correctness)."""
    from host_tools.flashing import rp2040

    flash = rp2040.uf2_to_flash(rp2040.base_image_path().read_bytes())
    names = rp2040.device_names()  # compiles every device module: once
    checked = rp2040.checkable_names(names)
    missing = rp2040.unfrozen_names(flash, names)
    why = None
    if len(missing) > STALE_NAMES * len(checked):
        why = ("stale names: the base image %s lacks %d of the device code's %d names (%s, ...), which costs "
               "heap, never correctness; rebuild it with `make base-image`"
               % (rp2040.base_image_path(), len(missing), len(checked), ", ".join(missing[:3])))
    return missing, names, why


def hello(board):
    return wait_hello(board.port, timeout=BOOT_WALL)


@pytest.fixture(scope="module")
def pico(emulator, tmp_path_factory):
    """One emulated Pico for a module, booted to its home screen (seed 7)."""
    yield from booted(tmp_path_factory.mktemp("emu"))


CP_BOARD = "pico-epaper29-cp"  # CircuitPython 10.2.1's image for the Pico, the game on its CIRCUITPY drive


@pytest.fixture(scope="module")
def cp(circuitpython, tmp_path_factory):
    """One emulated CircuitPython Pico for a module, booted to its home screen (seed 7)."""
    yield from booted(tmp_path_factory.mktemp("cp"), board=CP_BOARD)


@pytest.fixture(scope="module")
def cp_twin(cp, tmp_path_factory):
    yield from twin_of(cp, tmp_path_factory.mktemp("twin"))


def kept(emu):
    """Yield the emulated board; then close it and print the end of its
    emulator log (what a failing test wants to see)."""
    try:
        yield emu
    finally:
        emu.close()
        log = os.path.join(os.path.dirname(emu.flash_dir), emu.name + ".log")
        if os.path.exists(log) and os.path.getsize(log):
            with open(log) as f:
                print(f.read()[-2000:])


def booted(base, board="pico-epaper29", name="p1", seed=7, **options):
    """One emulated board (EmuBoard's options: firmware="stock" ...) under
    `base`, booted to its home screen; closed (its log printed) when the
    generator ends."""
    emu = EmuBoard(name, str(base / name), seed=seed, board=board, **options)
    for emu in kept(emu):
        boot(emu)
        yield emu


def twin_of(emu, base):
    """A link to the unix-port sim board with the emulated board's seed and
    id: the same commands must bring both to the same state and the same
    pixels."""
    board = SimBoard(emu.name, str(base / emu.name), seed=emu.seed)
    try:
        board.start()
        wait_hello(board.port)
        with DeviceLink(board.port, timeout=5.0) as link:
            yield link
    finally:
        board.close()


@pytest.fixture(scope="module")
def twin(pico, tmp_path_factory):
    yield from twin_of(pico, tmp_path_factory.mktemp("twin"))


def copy_flash(board, dest):
    shutil.copyfile(board.fs_path, dest)


def put_flash(board, src):
    os.makedirs(board.flash_dir, exist_ok=True)
    shutil.copyfile(src, board.fs_path)


def flash_after(board, pre, log, k):
    """The board's filesystem flash (its fs_path file) as the first k
    operations of `log` (flash_ops' log, taken from a state whose flash was
    `pre`, a file) leave it: what a power cut right after operation k
    leaves, since nothing after it reaches the chip."""
    image = bytearray(Path(pre).read_bytes())
    start = board.fs_start - rp2040.FLASH_BASE
    for _, kind, offset, size, *page in log[:k]:
        at = offset - start  # in the filesystem's file
        data = b"\xff" * size if kind == "e" else base64.b64decode(page[0])
        lo, hi = max(at, 0), min(at + size, len(image))  # what lies outside it no save writes
        if lo < hi:
            image[lo:hi] = data[lo - at:hi - at]
    return bytes(image)


BATTERY = layout.BATTERY  # x, y, w, h of the battery gauge


def battery_box(image, clear=False):
    """The battery gauge's pixels of a 296-wide MONO_HLSB image (cleared
    when `clear`): the emulated boards sense a battery, the sim board none."""
    x0, y0, w, h = BATTERY
    out = bytearray(image)
    seen = 0
    for y in range(y0, y0 + h):
        for x in range(x0, x0 + w):
            i, bit = y * 37 + x // 8, 0x80 >> (x % 8)
            seen += bool(out[i] & bit)
            if clear:
                out[i] &= ~bit
    return bytes(out) if clear else seen


def same_as_twin(board, twin, what):
    """The emulated board's digest and glass equal the unix-port board's
    digest and frame (the unix-port renderer's image), pixel for pixel but
    for the battery gauge, which only an emulated board with a battery
    sense draws."""
    info = hello(board)
    assert info["digest"] == twin.hello()["digest"], "%s: the two runtimes disagree on the state" % what
    glass, frame = board.panel_image(), twin.fetch_screen()
    if board.pins["battery"]:
        assert battery_box(glass), "%s: the board senses its battery but draws no gauge" % what
    else:
        assert not battery_box(glass), "%s: a gauge drawn with no battery sense" % what
    assert not battery_box(frame)
    glass = battery_box(glass, clear=True)
    if glass != frame:
        diff = sum(bin(a ^ b).count("1") for a, b in zip(glass, frame))
        raise AssertionError("%s: the emulated panel differs from the unix-port renderer in %d pixels"
                             % (what, diff))
    return info

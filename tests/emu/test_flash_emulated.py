"""`deckahedron flash --port` onto a running emulated Pico, as a user runs it.

The board plays a few flips (a save with a known digest), then the real CLI
updates it with device code that differs from what it runs: a copy of this
checkout whose firmware reports another version in `hello`. The board must
come back in play mode by itself (mpremote's reset is a watchdog reset),
run the new code, keep the save, and hold the new ROMFS image in its flash.
A dry run first must change nothing.
"""

import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

import pytest

from host_tools.sim.emulated import EmuBoard
from host_tools.link import DeviceLink
from tests.emu.conftest import BOOT_WALL, boot, is_update, press_and_wait, settle_flash

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOARD = "pico-epaper29"
MARK = "0.1.0+flashtest"
FLASH_WALL = 600  # a busy 2-core machine; the deploy took 38-85 s there
KEPT = ("main.py", "deckahedron.cfg", "deck.sav")


def new_code_tree(dest):
    """A copy of the checkout whose firmware says it is version MARK."""
    skip = shutil.ignore_patterns("node_modules", "__pycache__", ".venv", ".git", "build", ".pytest_cache")
    for part in ("host_tools", "firmware", "shared_rules"):
        shutil.copytree(os.path.join(ROOT, part), os.path.join(dest, part), ignore=skip)
    app = os.path.join(dest, "firmware", "app.py")
    with open(app) as f:
        text = f.read()
    assert re.search(r'^FIRMWARE = "[^"]*"$', text, re.M), "firmware/app.py no longer names its version"
    with open(app, "w") as f:
        f.write(re.sub(r'^FIRMWARE = "[^"]*"$', 'FIRMWARE = "%s"' % MARK, text, flags=re.M))
    return dest


def deckahedron(tree, *args, timeout=FLASH_WALL):
    env = dict(os.environ, PYTHONPATH=str(tree))
    return subprocess.run([sys.executable, "-m", "host_tools.cli"] + list(args), cwd=str(tree), env=env,
                          capture_output=True, text=True, timeout=timeout)


def hello(board):
    # A loaded machine runs the emulator far slower than a Pico: allow it time to answer.
    with DeviceLink(board.port, timeout=10.0, retries=3) as link:
        return link.hello()


def played(info):
    return {k: info[k] for k in ("digest", "count", "events")}


def back_in_play(board, since):
    """Wait for the reset the flasher ends with and the home screen after it."""
    board.wait_event(lambda e: e.get("ev") == "reset", timeout=BOOT_WALL, since=since)
    board.wait_event(is_update, timeout=BOOT_WALL, since=since)


def littlefs_files(board):
    return {name: board.read_file(name) for name in KEPT}


def romfs_bytes(board):
    with open(board.romfs_path, "rb") as f:
        return f.read()


@pytest.fixture(scope="module")
def flashed(emulator, tmp_path_factory):
    """Boot, play, dry-run, flash; what each step saw."""
    base = tmp_path_factory.mktemp("emuflash")
    tree = new_code_tree(str(base / "tree"))
    board = EmuBoard("f1", str(base / "f1"), seed=11, board=BOARD)
    seen = {}
    try:
        boot(board)
        for button in ("B", "A", "B", "A"):
            press_and_wait(board, button)
        settle_flash(board)
        seen["before"] = hello(board)
        seen["fs_before"] = littlefs_files(board)
        seen["rom_before"] = romfs_bytes(board)

        since = board.event_count()
        seen["dry"] = deckahedron(tree, "flash", "--board", BOARD, "--port", board.port, "--dry-run")
        back_in_play(board, since)
        seen["after_dry"] = hello(board)
        settle_flash(board)
        seen["fs_dry"] = littlefs_files(board)
        seen["rom_dry"] = romfs_bytes(board)

        since = board.event_count()
        wall, emu = time.monotonic(), board.time()
        seen["flash"] = deckahedron(tree, "flash", "--board", BOARD, "--port", board.port)
        seen["wall"], seen["emu"] = time.monotonic() - wall, board.time() - emu
        print("deckahedron flash onto the emulated Pico: %.1f s wall, %.1f s emulated"
              % (seen["wall"], seen["emu"]))
        back_in_play(board, since)
        seen["after"] = hello(board)
        settle_flash(board)
        seen["fs_after"] = littlefs_files(board)
        seen["rom_after"] = romfs_bytes(board)
        seen["violations"] = board.violations()
        yield seen
    finally:
        board.close()
        log = base / "f1.log"
        if log.exists() and log.stat().st_size:
            print(log.read_text()[-2000:])


def test_a_dry_run_changes_nothing_and_the_game_goes_on(flashed):
    dry = flashed["dry"]
    assert dry.returncode == 0, dry.stdout + dry.stderr
    assert "dry run: nothing on the board was changed" in dry.stdout
    assert "romfs deploy" in dry.stdout and "keep          deck.sav" in dry.stdout
    assert flashed["fs_dry"] == flashed["fs_before"]
    assert flashed["rom_dry"] == flashed["rom_before"]
    after = flashed["after_dry"]
    assert played(after) == played(flashed["before"])
    assert after["firmware"] == flashed["before"]["firmware"] != MARK


def test_flash_updates_the_running_board_and_it_plays_on_by_itself(flashed):
    run = flashed["flash"]
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert "ROMFS deploy, verified" in run.stdout and "the saved game is kept" in run.stdout
    # hello answers after the reset the flasher ends with: play mode, no one restarted the board.
    assert flashed["after"]["firmware"] == MARK, "the board still runs the old code"


def test_flash_keeps_the_players_save(flashed):
    assert flashed["before"]["count"] >= 4
    assert played(flashed["after"]) == played(flashed["before"])
    assert flashed["fs_after"]["deck.sav"] is not None


def test_the_rom_partition_holds_the_new_image(flashed, tmp_path):
    tree = new_code_tree(str(tmp_path / "tree"))
    env = dict(os.environ, PYTHONPATH=tree)
    code = ("import sys; from host_tools.flashing import rp2040; "
            "sys.stdout.buffer.write(rp2040.build_romfs(%r))" % BOARD)
    image = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, timeout=300,
                           check=True).stdout
    rom = flashed["rom_after"]
    assert rom != flashed["rom_before"]
    assert rom[:len(image)] == image, "the ROMFS partition does not hold the image built from the new code"
    assert hashlib.sha256(image).hexdigest() != hashlib.sha256(flashed["rom_before"][:len(image)]).hexdigest()


def test_the_panel_took_no_command_it_would_refuse_through_the_flash(flashed):
    assert flashed["violations"] == []


def test_flashing_a_port_where_nothing_answers_says_so_in_one_line(tmp_path):
    # Nothing answers, so the probe waits out its whole timeout: 3 s here
    # instead of a board's 60 (running.PROBE_TIMEOUT).
    master, slave = os.openpty()
    try:
        port = os.ttyname(slave)
        started = time.monotonic()
        run = deckahedron(ROOT, "flash", "--board", BOARD, "--port", port, "--probe-timeout", "3", timeout=300)
        took = time.monotonic() - started
    finally:
        os.close(master)
        os.close(slave)
    assert run.returncode != 0
    assert "Traceback" not in run.stderr + run.stdout
    said = [ln for ln in run.stderr.splitlines() if ln.strip()]
    assert len(said) == 1 and port in said[0], run.stderr
    assert "did not answer within 3 s" in said[0] and took < 30, (took, said)

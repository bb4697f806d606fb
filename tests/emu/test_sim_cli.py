"""`deckahedron sim --board pico-epaper29` (or badger2040): emulated boards
behind ptys that `deckahedron do` and `screen` talk to as to /dev/ttyACM0;
without the base image, one clear line and a non-zero exit."""

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from tests.emu.conftest import BOOT_WALL
from tests.host.conftest import wait_hello


def hello_on(port):
    return wait_hello(port, timeout=BOOT_WALL)

ROOT = Path(__file__).resolve().parents[2]


def cli(*args):
    return [sys.executable, "-m", "host_tools.cli"] + list(args)


def test_without_the_base_image_sim_says_where_it_belongs_and_fails(tmp_path):
    env = dict(os.environ, DECKAHEDRON_RP2040_DIR=str(tmp_path / "empty"))
    proc = subprocess.run(cli("sim", "--board", "pico-epaper29", "--dir", str(tmp_path / "boards")),
                          cwd=str(ROOT), env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 3 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "base image" in lines[0] and str(tmp_path / "empty") in lines[0], proc.stderr


def test_an_unknown_emulated_board_is_refused(tmp_path):
    proc = subprocess.run(cli("sim", "--board", "etch-a-sketch", "--dir", str(tmp_path)), cwd=str(ROOT),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "etch-a-sketch" in proc.stderr and "pico-epaper29" in proc.stderr


@pytest.mark.parametrize("board", ["pico-epaper29", "badger2040"])
def test_sim_runs_emulated_boards_that_do_and_screen_talk_to(emulator, tmp_path, board):
    proc = subprocess.Popen(cli("sim", "--board", board, "--boards", "1", "--seed", "3",
                                "--dir", str(tmp_path)),
                            cwd=str(ROOT), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out = b""
        end = time.monotonic() + BOOT_WALL
        while b"\n" not in out and time.monotonic() < end and proc.poll() is None:
            if select.select([proc.stdout], [], [], 0.1)[0]:
                out += os.read(proc.stdout.fileno(), 4096)
        name, port = out.decode().split()
        assert name == "p1"
        assert hello_on(port)["board"] == board
        done = subprocess.run(cli("do", "--port", port, "--timeout", "10", "flip", "suit=anvil"), cwd=str(ROOT),
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert '"level"' in done.stdout
        assert hello_on(port)["count"] == 1
        png = tmp_path / "screen.png"
        shot = subprocess.run(cli("screen", "--port", port, "--png", str(png), "--scale", "1", "--timeout", "10"),
                              cwd=str(ROOT), capture_output=True, text=True, timeout=120)
        assert shot.returncode == 0, shot.stderr
        with Image.open(png) as image:
            assert image.size == (296, 128) and image.convert("L").getextrema() == (0, 255), "a blank screen"
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        assert proc.returncode == 0, proc.stderr.read()
        assert (tmp_path / "p1" / "littlefs.img").exists(), "the board's flash stays in --dir"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)

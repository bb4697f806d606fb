"""A 0x03 (Ctrl-C) byte on the USB port at any moment of the boot must not
stop the board at the REPL: main.py turns Ctrl-C off first thing (a host
that sends Ctrl-C on connect, mpremote's own Ctrl-C and Ctrl-D, noise at
plug-in). Each case boots the emulated Pico afresh with the bytes written
at emulated times from power-on to the home screen (~0.4 s; the port is up
at ~0.02 s, and bytes written before wait for it, as a host's do); the
board must show its home screen and answer the link. Until main.py did
this, a 0x03 before ~0.33 s left the board at `>>>`.
"""

import time

import pytest

from tests.emu.conftest import BOOT_WALL, hello, kept

CTRL_C = b"\x03"
# mpremote's connect (pyboard.py's enter_raw_repl): Ctrl-C twice, Ctrl-A, Ctrl-D
MPREMOTE = ((0.0, b"\r\x03\x03"), (0.01, b"\r\x01"), (0.02, b"\x04"))

CASES = {
    "0x03 before the port is up": [(0.0, CTRL_C)],
    "0x03 at 0.05 s": [(0.05, CTRL_C)],
    "0x03 at 0.1 s": [(0.1, CTRL_C)],
    "0x03 at 0.155 s": [(0.155, CTRL_C)],
    "0x03 at 0.2 s": [(0.2, CTRL_C)],
    "0x03 at 0.255 s": [(0.255, CTRL_C)],
    "0x03 at 0.3 s": [(0.3, CTRL_C)],
    "0x03 at 0.35 s": [(0.35, CTRL_C)],
    "a burst: 0x03 every 10 ms, 0 to 0.5 s": [(i * 0.01, CTRL_C * 4) for i in range(51)],
    "mpremote's connect at 0.1 s": [(0.1 + dt, data) for dt, data in MPREMOTE],
    "mpremote's connect at 0.25 s": [(0.25 + dt, data) for dt, data in MPREMOTE],
}


@pytest.fixture(scope="module")
def board(emulator, tmp_path_factory):
    from host_tools.sim.emulated import EmuBoard

    yield from kept(EmuBoard("p1", str(tmp_path_factory.mktemp("emu") / "p1"), seed=7))


@pytest.mark.parametrize("case", list(CASES))
def test_bytes_during_boot_never_stop_the_board(board, case):
    board.stop()
    board.start()
    for t, data in CASES[case]:
        board.send_at(data, t)
    update = board.wait_event(lambda e: e.get("ev") == "update", timeout=BOOT_WALL)
    assert update["t"] * 1e-9 < 2.0, "%s: the home screen came late (%.2f s)" % (case, update["t"] * 1e-9)
    last = max(t for t, _ in CASES[case])
    end = time.monotonic() + BOOT_WALL
    while board.time() < last + 0.05 and time.monotonic() < end:  # every byte has reached the board
        time.sleep(0.05)
    # A newline ends the line the bytes began (the device takes it for noise), so the first hello is
    # read, not left to its timeout; at the REPL it would only print a prompt
    board.send_at(b"\n")
    info = hello(board)  # the game answers the link: not at the REPL
    assert info["board"] == "pico-epaper29", case


def test_a_and_c_held_at_power_on_leave_the_repl_to_mpremote(board):
    """The way in when no game answers the link's repl op: A and C held at
    power-on (power_on._escape_held); Ctrl-C off from main.py's first line
    does not keep mpremote out."""
    import os
    import subprocess
    import sys

    board.stop()
    board.start()
    board.hold("A")
    board.hold("C")
    end = time.monotonic() + BOOT_WALL
    while board.time() < 1.0 and time.monotonic() < end:  # past the boot: power_on.py saw them held
        time.sleep(0.05)
    board.release("A")
    board.release("C")
    assert not [e for e in board.events_since(0) if e.get("ev") == "update"], "the game started"
    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    out = subprocess.run([mpremote, "connect", board.port, "exec", "print(6 * 7)"], capture_output=True,
                         text=True, timeout=BOOT_WALL)
    assert out.returncode == 0 and "42" in out.stdout, out.stdout + out.stderr
    board.stop()

"""A power cut during a save, modelled at the flash chip: the emulated flash
stops taking erases and programs after the k-th of those a button press's
save makes, the board is powered up again, and the game must load as the
state the host last saw or that plus the press: never lost, never doubled.
The flash a cut leaves is rebuilt from the save's logged operations
(conftest.flash_after); the emulated cut itself (cut_power) is exercised
by test_power_cut_cp.py's last test and test_a_cut_leaves_the_flash_its_log_rebuilds.
"""

from pathlib import Path

import pytest

from host_tools.sim.emulated import EmuBoard
from tests.emu.conftest import boot, copy_flash, flash_after, hello, press_and_wait, put_flash, settle_flash

CUT_POINTS = 4  # points of one save cut in a test run (spread over it, first and last included)


def state(info):
    return info["digest"], info["count"], info["events"]


@pytest.fixture(scope="module")
def save_run(emulator, tmp_path_factory):
    """A board with a known state on its flash (pre.img), and what one press
    of B does from there: the state after it and how many flash operations
    its save takes."""
    base = tmp_path_factory.mktemp("cut")
    board = EmuBoard("p1", str(base / "p1"), seed=7)
    pre = str(base / "pre.img")
    try:
        boot(board)
        settle_flash(board)
        before = state(hello(board))
        settle_flash(board)
        board.stop()
        copy_flash(board, pre)
        boot(board)
        ops = settle_flash(board)["ops"]
        board.flash_ops(log=True)  # the log from here on: the save's operations
        press_and_wait(board, "B")
        save_ops = settle_flash(board)["ops"] - ops
        log = board.flash_ops(log=True)["log"]
        after = state(hello(board))
        yield {"board": board, "pre": pre, "before": before, "after": after, "ops": save_ops, "log": log}
    finally:
        board.close()


def test_a_press_saves_through_several_flash_operations(save_run):
    before, after = save_run["before"], save_run["after"]
    assert after[1] == before[1] + 1 and after[0] != before[0]
    assert save_run["ops"] >= 2, "a save is at least an erase and a program: %d" % save_run["ops"]


def cut_points(n, k=CUT_POINTS):
    """k points among 1..n-1 (after the first operation .. before the
    last), evenly spread, the first and the last included."""
    if n <= k + 1:
        return list(range(1, n))
    return sorted({1 + round(i * (n - 2) / (k - 1)) for i in range(k)})


def cut_each(save_run, points=None):
    """Power cut after each of `points` (else cut_points()) flash operations
    of the press's save: the board powered up on the flash the save's first
    k operations made of the flash before it (flash_after), each time:
    {operation: the press kept}; fails when the game loads as neither the
    state before the press nor that plus the press."""
    board, before, after, log = save_run["board"], save_run["before"], save_run["after"], save_run["log"]
    seen = {}
    for k in points or cut_points(save_run["ops"]):
        assert k <= len(log), "the save took fewer than %d flash operations" % k
        board.stop()
        Path(board.fs_path).write_bytes(flash_after(board, save_run["pre"], log, k))
        boot(board)
        got = state(hello(board))
        assert got in (before, after), (
            "power cut after flash operation %d of %d: the game loaded %s, expected the state the host "
            "last saw %s or that plus the press %s" % (k, save_run["ops"], got, before, after))
        seen[k] = got == after
    return seen


def test_a_power_cut_anywhere_in_a_save_loses_nothing_and_doubles_nothing(save_run):
    seen = cut_each(save_run)
    assert save_run["board"].violations() == []
    print("cut points (op: kept the press):", seen)


def cut_by_the_chip(save_run, k, settle):
    """cut_each's premise, checked against the emulated chip: the same press
    from the flash before the save (`settle(board)` waits until the board
    has stopped writing), the power cut right after operation k of its save
    (nothing after it reaches the chip), leaves the flash flash_after()
    builds from the logged save. The board stays off until restart()."""
    board, log = save_run["board"], save_run["log"]
    board.stop()
    put_flash(board, save_run["pre"])
    boot(board)
    settle(board)
    assert board.cut_power(after_ops=k, then=lambda: board.press("B")), "the save took fewer than %d operations" % k
    got = Path(board.fs_path).read_bytes()
    want = flash_after(board, save_run["pre"], log, k)
    differ = [i for i in range(0, len(want), 4096) if got[i:i + 4096] != want[i:i + 4096]]
    assert not differ, "after operation %d of %d the flash differs in sectors %s" % (k, len(log), differ[:8])


def test_a_cut_leaves_the_flash_its_log_rebuilds(save_run):
    """cut_by_the_chip after a middle operation of the save; the game then
    loads as the state before the press or after it."""
    board = save_run["board"]
    cut_by_the_chip(save_run, (len(save_run["log"]) + 1) // 2, settle_flash)
    board.restart()
    board.wait_event(lambda e: e.get("ev") == "update", timeout=90)
    assert state(hello(board)) in (save_run["before"], save_run["after"])

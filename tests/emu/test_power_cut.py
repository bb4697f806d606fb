"""A power cut during a save, modelled at the flash chip: the emulated flash
stops taking erases and programs after the k-th of those a button press's
save makes, the board is powered up again, and the game must load as the
state the host last saw or that plus the press: never lost, never doubled.
"""

import pytest

from host_tools.sim.emulated import EmuBoard
from tests.emu.conftest import boot, copy_flash, hello, press_and_wait, put_flash, settle_flash

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
        press_and_wait(board, "B")
        save_ops = settle_flash(board)["ops"] - ops
        after = state(hello(board))
        yield {"board": board, "pre": pre, "before": before, "after": after, "ops": save_ops}
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


def cut_each(save_run, settle, wall=90, points=None):
    """Power cut after each of `points` (else cut_points()) flash operations
    of the press's save, from the flash before it, the board powered up again each time:
    {operation: the press kept}; fails when the game loads as neither the
    state before the press nor that plus the press. `settle(board)` waits
    until the board has stopped writing its flash."""
    board, before, after = save_run["board"], save_run["before"], save_run["after"]
    seen = {}
    for k in points or cut_points(save_run["ops"]):
        board.stop()
        put_flash(board, save_run["pre"])
        boot(board)
        settle(board)
        assert board.cut_power(after_ops=k, then=lambda: board.press("B")), (
            "the save took fewer than %d flash operations" % k)
        board.restart()
        board.wait_event(lambda e: e.get("ev") == "update", timeout=wall)
        got = state(hello(board))
        assert got in (before, after), (
            "power cut after flash operation %d of %d: the game loaded %s, expected the state the host "
            "last saw %s or that plus the press %s" % (k, save_run["ops"], got, before, after))
        seen[k] = got == after
    return seen


def test_a_power_cut_anywhere_in_a_save_loses_nothing_and_doubles_nothing(save_run):
    seen = cut_each(save_run, settle_flash)
    assert save_run["board"].violations() == []
    print("cut points (op: kept the press):", seen)

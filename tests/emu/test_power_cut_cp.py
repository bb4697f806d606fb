"""A power cut during a save on CircuitPython's Pico (issue 28): the same
cuts as test_power_cut.py's, in the flash operations CircuitPython makes when
it writes the game's save onto CIRCUITPY's FAT (from its cache, in the
background), and the same promise: the game loads as the state the host last
saw or that plus the press, never lost, never doubled, and the drive stays
readable."""

import pytest

from host_tools.sim.circuitpython import DamagedDrive
from host_tools.sim.emulated import EmuBoard
from tests.emu.conftest import boot, copy_flash, hello, press_and_wait
from tests.emu.test_emulated_pico_cp import BOARD, on_the_drive
from tests.emu.test_power_cut import cut_each, state


def quiet(board, wall=60.0):
    """The flash counters once CircuitPython has written nothing for an
    emulated second (its cache flushed)."""
    import time

    end = time.monotonic() + wall
    last, since = board.flash_ops(), board.time()
    while time.monotonic() < end:
        time.sleep(0.3)
        now = board.flash_ops()
        if now["ops"] != last["ops"]:
            last, since = now, board.time()
        elif board.time() - since >= 1.0:
            return now
    raise AssertionError("CircuitPython never stopped writing its flash")


@pytest.fixture(scope="module")
def save_run(circuitpython, tmp_path_factory):
    base = tmp_path_factory.mktemp("cpcut")
    board = EmuBoard("c1", str(base / "c1"), seed=7, board=BOARD)
    pre = str(base / "pre.img")
    try:
        boot(board)
        before = state(hello(board))
        on_the_drive(board, before[1])
        quiet(board)
        board.stop()
        copy_flash(board, pre)
        boot(board)
        ops = quiet(board)["ops"]
        press_and_wait(board, "B")
        after = state(hello(board))
        on_the_drive(board, after[1])
        save_ops = quiet(board)["ops"] - ops
        yield {"board": board, "pre": pre, "before": before, "after": after, "ops": save_ops}
    finally:
        board.close()


# A defect found here (2026-11-28), open: CircuitPython writes CIRCUITPY from its cache a 4 KiB
# sector at a time, erase then program, in an order of its own. A cut between the erase and the
# program of the FAT's sector leaves the whole drive unreadable (pyfatfs: a FREE_CLUSTER mark in a
# cluster chain; the emulated board cannot even be laid out again), code.py with it. Whether a run's
# four cut points land there depends on the flush's order: one run passed all four, the next failed at
# the first. The game's own tmp-then-rename cannot help below the filesystem (design §3).
CUT_LOSES_THE_DRIVE = pytest.mark.xfail(
    strict=False, raises=DamagedDrive,
    reason="defect: a power cut between CircuitPython's erase and program of CIRCUITPY's FAT sector loses the drive")


@pytest.mark.slow  # each cut boots CircuitPython again: about 20 s of wall time a cut
@CUT_LOSES_THE_DRIVE
def test_a_power_cut_anywhere_in_a_circuitpython_save_loses_nothing(save_run):
    assert save_run["ops"] >= 2, "a save is at least an erase and a program: %d" % save_run["ops"]
    seen = cut_each(save_run, quiet, wall=120)
    print("CircuitPython cut points (op: kept the press) of %d:" % save_run["ops"], seen)

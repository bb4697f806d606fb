"""A power cut during a save on CircuitPython's Pico (issue 28): the same
cuts as test_power_cut.py's, in the flash operations CircuitPython makes when
it writes the game's save onto CIRCUITPY's FAT (from its cache, in the
background), and the same promise: the game loads as the state the host last
saw or that plus the press, never lost, never doubled, and the drive stays
readable."""

import pytest

from host_tools.sim.emulated import EmuBoard
from tests.emu.conftest import boot, copy_flash, hello, press_and_wait, put_flash
from tests.emu.test_emulated_pico_cp import BOARD, on_the_drive
from tests.emu.test_power_cut import cut_points, state


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


@pytest.mark.slow  # each cut boots CircuitPython again: about 20 s of wall time a cut
def test_a_power_cut_anywhere_in_a_circuitpython_save_loses_nothing(save_run):
    board, before, after = save_run["board"], save_run["before"], save_run["after"]
    assert save_run["ops"] >= 2, "a save is at least an erase and a program: %d" % save_run["ops"]
    seen = {}
    for k in cut_points(save_run["ops"]):
        board.stop()
        put_flash(board, save_run["pre"])
        boot(board)
        quiet(board)
        assert board.cut_power(after_ops=k, then=lambda: board.press("B")), (
            "the save took fewer than %d flash operations" % k)
        board.restart()
        board.wait_event(lambda e: e.get("ev") == "update", timeout=120)
        got = state(hello(board))
        assert got in (before, after), (
            "power cut after flash operation %d of %d: the game loaded %s, expected the state the host "
            "last saw %s or that plus the press %s" % (k, save_run["ops"], got, before, after))
        seen[k] = got == after
    print("CircuitPython cut points (op: kept the press) of %d:" % save_run["ops"], seen)

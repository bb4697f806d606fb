"""A power cut during a save on CircuitPython's Pico (issue 28): the same
cuts as test_power_cut.py's, in the flash operations CircuitPython makes when
it writes the game's save onto CIRCUITPY's FAT (from its cache, in the
background), and the same promise: the game loads as the state the host last
saw or that plus the press, never lost, never doubled, and the drive stays
readable."""

from pathlib import Path

import pytest

from host_tools.sim.circuitpython import FS_OFFSET, flash_sectors
from host_tools.sim.emulated import EmuBoard
from tests.emu.conftest import boot, copy_flash, hello, press_and_wait
from tests.emu.test_emulated_pico_cp import BOARD, on_the_drive
from tests.emu.test_power_cut import cut_by_the_chip, cut_each, state


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
        board.flash_ops(log=True)  # the log from here on: the save's operations
        press_and_wait(board, "B")
        after = state(hello(board))
        on_the_drive(board, after[1])
        done = quiet(board)
        log = board.flash_ops(log=True)["log"]
        yield {"board": board, "pre": pre, "before": before, "after": after, "ops": done["ops"] - ops, "log": log}
    finally:
        board.close()


# A defect found here (2026-11-28) and mended: CircuitPython writes CIRCUITPY from its cache a
# 4 KiB sector at a time, erase then program. The save then went to deck.tmp and was renamed over
# deck.sav, which rewrote the FAT's first sector (the drive's boot sector with it) three times a
# save: a cut between that erase and its program lost the whole drive, code.py with it. A save now
# rewrites one of two fixed slots in place (firmware/boards/fat_slots.py): no file is made, removed
# or grown, so the FAT is never written, and the slot not written keeps the save before.
ROOT = Path(__file__).resolve().parents[2]
FAT_SECTORS = 3  # the drive's boot sector, FATs and root folder lie in its first 3 flash sectors


def erased_sectors(save_run):
    """The flash sectors (4 KiB, from the drive's start) the save erased."""
    return sorted({(entry[2] - FS_OFFSET) // 4096 for entry in save_run["log"] if entry[1] == "e"})


def test_a_save_never_rewrites_the_drives_fat_or_root_folder(save_run):
    sectors = erased_sectors(save_run)
    assert sectors and min(sectors) >= FAT_SECTORS, (
        "a save erased flash sectors %s: the first %d hold CIRCUITPY's boot sector, FAT and root folder"
        % (sectors, FAT_SECTORS))


def test_the_two_save_slots_share_no_flash_sector_with_each_other_or_their_folder(save_run, monkeypatch):
    """What a slot's save may rewrite (its folder's entries, the bytes before
    its guard) lies in flash sectors of its own: a cut there cannot reach the
    other slot, the game's folder or the FAT."""
    monkeypatch.syspath_prepend(str(ROOT / "firmware"))
    from boards.fat_slots import DIRS, GUARD, SLOT

    fs = save_run["board"].fs_path
    own = [set(flash_sectors(fs, "deckahedron/" + d)) | set(flash_sectors(fs, "deckahedron/%s/deck.sav" % d,
                                                                          SLOT - GUARD)) for d in DIRS]
    others = set(flash_sectors(fs, "deckahedron")) | set(range(FAT_SECTORS))
    print("flash sectors: slots %s, folder and FAT %s" % (own, others))
    assert not own[0] & own[1] and not (own[0] | own[1]) & others, (own, others)


@pytest.mark.slow  # each cut boots CircuitPython again: about 10 s of wall time a cut
def test_a_power_cut_anywhere_in_a_circuitpython_save_loses_nothing(save_run):
    """Cut right after each erase (its sector blank: the worst a cut can leave)
    and after the save's last operation but one; then the worst cut made by
    the emulated chip, and the next press saved after it."""
    assert save_run["ops"] >= 2, "a save is at least an erase and a program: %d" % save_run["ops"]
    erases = [i + 1 for i, entry in enumerate(save_run["log"]) if entry[1] == "e"]
    assert len(save_run["log"]) == save_run["ops"] and erases, save_run["log"][:4]
    seen = cut_each(save_run, points=sorted(set(erases + [save_run["ops"] - 1])))
    print("CircuitPython cut points (op: kept the press) of %d:" % save_run["ops"], seen)
    # after the worst cut (the slot's sector blank, its folder's entries with it) the game saves on:
    # the next press is on the drive and survives a reset
    board = save_run["board"]
    cut_by_the_chip(save_run, erases[0], quiet)  # and the flash is what cut_each's rebuilt one assumed
    board.restart()
    board.wait_event(lambda e: e.get("ev") == "update", timeout=120)
    press_and_wait(board, "B")
    later = state(hello(board))
    assert later[1] == save_run["before"][1] + 1, (later, save_run["before"])
    on_the_drive(board, later[1])
    quiet(board)
    board.reset()
    board.wait_event(lambda e: e.get("ev") == "update", timeout=120)
    assert state(hello(board)) == later

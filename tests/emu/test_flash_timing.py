"""The emulated flash chip's erase and program times (host_tools/sim/emu/flash.mjs,
flash_timing=True): the chip reads BUSY for its typical time after each
operation, and the firmware's save waits it out as on a board, so the
benchmarks that turn it on give a board's save times (docs/benchmarks.md).
"""

from host_tools.sim.emulated import EmuBoard
from host_tools.link import DeviceLink
from tests.emu.conftest import BOOT_WALL, boot, press_and_wait, settle_flash

SECTOR_ERASE_MS = 45  # W25Q16JV, typical


def test_a_save_waits_for_the_chips_erases_and_programs(emulator, tmp_path):
    board = EmuBoard("p1", str(tmp_path / "p1"), seed=7, flash_timing=True)
    try:
        boot(board)
        before = settle_flash(board)
        press_and_wait(board, "B")
        after = settle_flash(board)
        with DeviceLink(board.port, timeout=BOOT_WALL) as link:
            stats = link.request("stats")
    finally:
        board.close()
    busy_ms = (after["busy_ns"] - before["busy_ns"]) / 1e6
    erases = after["erases"] - before["erases"]
    assert erases >= 1 and busy_ms >= erases * SECTOR_ERASE_MS, (erases, busy_ms)
    # the chip's busy time is inside the save the firmware timed (its stats)
    assert stats["save_us"] / 1000 >= busy_ms, (stats, busy_ms)

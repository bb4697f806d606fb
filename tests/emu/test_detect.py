"""A board with no deckahedron.cfg (a plain install, a deleted config)
tells which board it is by its panel's wiring (power_on.detect): the
emulated Pico + Pico-ePaper-2.9 and the emulated Badger 2040 boot to their
home screens as themselves. (The emulator has no model of the Badger 2040
W's RTC, the probe's sign of a W: an emulated W without a config plays
as a Badger 2040.)"""

import pytest

from host_tools.sim import emulated as emuboards
from tests.emu.conftest import boot, hello


class NoConfigBoard(emuboards.EmuBoard):
    """An emulated board whose littlefs has main.py but no deckahedron.cfg."""

    def _prepare_flash(self):
        emuboards.EmuBoard._prepare_flash(self)
        fs = emuboards._mounted(self.fs_path)
        try:
            fs.remove("deckahedron.cfg")
        except FileNotFoundError:
            return
        with open(self.fs_path, "wb") as f:
            f.write(fs.context.buffer)


@pytest.mark.parametrize("board", ["pico-epaper29", "badger2040"])
def test_a_board_without_a_config_detects_itself(emulator, tmp_path, board):
    emu = NoConfigBoard("p1", str(tmp_path / "p1"), board=board)
    try:
        boot(emu)
        assert emu.read_file("deckahedron.cfg") is None
        info = hello(emu)
        assert info["board"] == board
        assert emu.violations() == []
    finally:
        emu.close()

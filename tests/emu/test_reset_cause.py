"""What the emulated chip says of its last reset (host_tools/sim/emu/reset.mjs):
CHIP_RESET reads HAD_POR alone after a power-on, HAD_PSM_RESTART alone after
the debugger's rescue reset the CircuitPython boards start from (no
one-second safe-mode wait: a real power-on only where asked,
EmuBoard(safe_mode_window=True), as the boot-time bench does)."""

import json
import subprocess

import pytest

from host_tools.sim.emulated import EMU_DIR, EmuBoard, EmuError, find_node

HAD_POR, HAD_PSM_RESTART = 1 << 8, 1 << 20
PROBE = """
import { reportResetCause } from './reset.mjs';
const out = {};
for (const cause of ['power-on', 'rescue', 'cold']) {
  const block = { readUint32: (offset) => 0xffffffff };  // rp2040js's unimplemented block
  try {
    reportResetCause({ peripherals: { 0x40064: block } }, cause);
    out[cause] = [block.readUint32(0x0), block.readUint32(0x4), block.readUint32(0x8)];
  } catch (e) { out[cause] = String(e.message); }
}
console.log(JSON.stringify(out));
"""


def test_the_chip_reports_a_power_on_or_a_rescue_reset_and_nothing_else_changes():
    try:
        node = find_node()
    except EmuError as e:
        pytest.skip(str(e))
    out = json.loads(subprocess.run([node, "--input-type=module", "-e", PROBE], cwd=EMU_DIR, check=True,
                                    capture_output=True, text=True, timeout=30).stdout)
    assert out["power-on"] == [0xFFFFFFFF, 0xFFFFFFFF, HAD_POR]
    assert out["rescue"] == [0xFFFFFFFF, 0xFFFFFFFF, HAD_PSM_RESTART]
    assert "no reset cause cold" in out["cold"]


def test_only_circuitpython_boards_start_from_a_rescue_reset_unless_a_power_on_is_asked(tmp_path):
    cause = {(board, window): EmuBoard("x", str(tmp_path / "x"), board=board, safe_mode_window=window).reset_cause
             for board in ("pico-epaper29", "pico-epaper29-cp") for window in (False, True)}
    assert cause == {("pico-epaper29", False): "power-on", ("pico-epaper29", True): "power-on",
                     ("pico-epaper29-cp", False): "rescue", ("pico-epaper29-cp", True): "power-on"}

"""Device code compiles with mpy-cross, as it must for a board: this catches
CPython-only syntax in shared_rules/ and firmware/."""

import subprocess

import pytest

from host_tools.flashing.rp2040 import MPY_ARCH
from tests.host.test_micropython_suite import ROOT, find_tool

DEVICE_FILES = sorted(
    [p.relative_to(ROOT).as_posix() for p in (ROOT / "shared_rules").rglob("*.py")]
    + [p.relative_to(ROOT).as_posix() for p in (ROOT / "firmware").rglob("*.py")]
)


def test_there_is_device_code():
    assert any(f.startswith("shared_rules/") for f in DEVICE_FILES)


@pytest.mark.parametrize("path", DEVICE_FILES)
def test_compiles_for_boards(path, tmp_path):
    out = tmp_path / "out.mpy"
    proc = subprocess.run(  # for the RP2040, as the ROMFS build does: viper code needs an arch
        [find_tool("mpy-cross"), MPY_ARCH, "-o", str(out), path],
        cwd=str(ROOT), capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0 and out.exists(), "mpy-cross rejects %s:\n%s%s" % (path, proc.stdout, proc.stderr)

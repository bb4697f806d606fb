"""ruff (pyproject.toml's [tool.ruff]) finds no unused import, dead variable
or undefined name in the project's code: on the board an undefined name is
a crash when its line first runs."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed: `make setup` installs the dev extras")
    done = subprocess.run([ruff, "check", "--no-cache", "host_tools", "firmware", "shared_rules", "tests", "bench"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]

"""The portable suites (tests/rules/ and tests/device/) under the MicroPython unix port.

One test per test_*.py module of tests/rules/ (and its folder per system) and
tests/device/, each running
``micropython tests/mp_runner.py <module>`` from the repo root, so a failure
names the module and shows the runner's output.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "tests" / "rules"
DEVICE = ROOT / "tests" / "device"
TIMEOUT = 600  # seconds per module


def find_tool(name):
    """A command installed by `make setup` into the venv (beside this Python), or on PATH."""
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    found = shutil.which(name)
    if found:
        return found
    pytest.fail("`%s` is not installed: run `make setup` (it installs the dev extra into .venv)" % name, pytrace=False)


# named under tests/ (rules/deck/test_cards), as the runner takes them
MODULES = sorted(p.relative_to(ROOT / "tests").with_suffix("").as_posix()
                 for p in list(RULES.rglob("test_*.py")) + list(DEVICE.rglob("test_*.py")))


@pytest.mark.parametrize("module", MODULES or ["<none>"])
def test_rules_module_under_micropython(module):
    assert MODULES, "no tests/rules/test_*.py found: the portable rules suite is empty"
    micropython = find_tool("micropython")
    cmd = [micropython, "tests/mp_runner.py", module]
    try:
        proc = subprocess.run(cmd, cwd=str(ROOT), capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as e:
        out = e.stdout or b""
        out = out.decode(errors="replace") if isinstance(out, bytes) else out
        pytest.fail("%s timed out after %d s under MicroPython; output so far:\n%s" % (module, TIMEOUT, out), pytrace=False)
    output = proc.stdout + proc.stderr
    lines = proc.stdout.strip().splitlines()
    summary = lines[-1] if lines else ""
    if proc.returncode != 0 or not summary.endswith(" 0 failed"):
        pytest.fail(
            "%s under MicroPython: exit %d, %s\n%s" % (module, proc.returncode, summary or "no summary line", output),
            pytrace=False,
        )

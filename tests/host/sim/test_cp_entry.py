"""CircuitPython's entry point (firmware/entry/code.py) on CPython: what it
writes to crash.log when the game stops."""

import importlib.util
from pathlib import Path

import pytest

from tests.device import support  # noqa: F401 - firmware/ on the import path

ROOT = Path(__file__).resolve().parents[3]


def _entry():
    spec = importlib.util.spec_from_file_location("cp_entry_code", ROOT / "firmware" / "entry" / "code.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_error_inside_a_request_is_logged_as_itself(tmp_path):
    """A request's error is answered first and raised again wrapped in the
    app's Crash: the log says what it was (a MemoryError, with its words),
    as a MicroPython board's does (start._crashed), not "Crash"."""
    from app import Crash

    class Board:
        flash_dir = str(tmp_path)

    with pytest.raises(MemoryError):
        _entry()._crashed(Board(), None, Crash(MemoryError("memory allocation failed, allocating 456 bytes")))
    log = (tmp_path / "crash.log").read_text()
    assert "MemoryError: memory allocation failed, allocating 456 bytes" in log
    assert "Crash" not in log

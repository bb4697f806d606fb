"""Host side of the Deckahedron handheld: the `deckahedron` command."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


FIRMWARE = os.path.join(ROOT, "firmware")
# The MicroPython entry script the simulated and emulated boards run (a
# board runs it from its root: host_tools/flashing/files.py maps it there).
FIRMWARE_MAIN = os.path.join(FIRMWARE, "entry", "main.py")


def firmware_importable():
    """Let the host import the device's modules as the device does
    (``import render``, ``from boards.magtag import ...``), from any working
    folder (the installed command is not run from the checkout): firmware/
    goes first on sys.path, the one way the host and the tests load them, so
    each loads once. The root (shared_rules) goes at the end, so it never
    shadows an installed module. No firmware module is named like a standard
    library one (tests/host/test_firmware_imports.py)."""
    if FIRMWARE not in sys.path:
        sys.path.insert(0, FIRMWARE)
    if ROOT not in sys.path:
        sys.path.append(ROOT)


def system_module(layer, key):
    """The module of system ``key`` in host layer ``layer`` (odds, console,
    screens): host_tools/<layer>/<its folder>.py (shared_rules.systems
    names each key's folder), imported on first use."""
    import importlib

    from shared_rules import systems

    return importlib.import_module("host_tools.%s.%s" % (layer, systems.folder(key)))

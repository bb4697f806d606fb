"""Host side of the Deckahedron handheld: the `deckahedron` command."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def firmware_importable():
    """Let the host import the device's own drawing modules as
    ``firmware.font8``, ``firmware.glyphs``... from any working folder (the
    installed command is not run from the checkout). The checkout's root goes
    at the end of sys.path, so it never shadows an installed module."""
    if ROOT not in sys.path:
        sys.path.append(ROOT)


def system_module(layer, key):
    """The module of system ``key`` in host layer ``layer`` (odds, console,
    screens): host_tools/<layer>/<its folder>.py (shared_rules.systems
    names each key's folder), imported on first use."""
    import importlib

    from shared_rules import systems

    return importlib.import_module("host_tools.%s.%s" % (layer, systems.folder(key)))

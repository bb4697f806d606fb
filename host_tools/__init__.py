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


# A system's folder in every host layer is its key, but SAVE's: `save` on the
# wire and in saves, `save2d6` for folders (design §2).
FOLDERS = {"save": "save2d6"}


def system_module(layer, key):
    """The module of system ``key`` in host layer ``layer`` (odds, console,
    screens): host_tools/<layer>/<its folder>.py, imported on first use."""
    import importlib

    return importlib.import_module("host_tools.%s.%s" % (layer, FOLDERS.get(key, key)))

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

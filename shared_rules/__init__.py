"""Rules core of the Deckahedron handheld: pure Python for CPython and MicroPython.

Import the module you need (``shared_rules.game``, ``shared_rules.odds`` ...);
this package file loads nothing so a board pays only for what it uses.
"""

VERSION = "0.1.0"

"""Rules core of the Deckahedron handheld: pure Python for CPython and MicroPython.

Import the module you need (``shared_rules.deck.game``, ``shared_rules.deck.odds`` ...);
this package file loads nothing so a board pays only for what it uses.
"""

VERSION = "0.1.0"

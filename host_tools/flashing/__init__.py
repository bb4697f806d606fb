"""Putting the game on a board: the logic behind `deckahedron flash` and
`deckahedron image` (host_tools/commands/flash.py).

    files.py    which repo files a board runs, and where they land
    image.py    the full UF2 of an RP2040 board: base image + ROMFS of the
                device code + a fresh littlefs with main.py and deckahedron.cfg
    bootsel.py  a board in BOOTSEL mode: the RPI-RP2 drive, or picotool
    running.py  a running MicroPython board: out of the game (the link's
                `repl` op), then one chained mpremote session (romfs deploy,
                or cp of .mpy files; main.py, deckahedron.cfg; verify; reset)
    magtag.py   the MagTag's CIRCUITPY drive and circup

Every failure is a FlashError whose message says what to do, in one line.
"""


class FlashError(Exception):
    """Something the person at the laptop can act on: the message says what."""


class NoBoard(FlashError):
    pass


class PortBusy(FlashError):
    pass


class WrongFirmware(FlashError):
    pass

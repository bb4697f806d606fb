"""Device entry point (MicroPython): on a board it sits at the flash root
and runs at power-on; in the simulator:

    micropython firmware/main.py --board sim --dir FLASHDIR --id NAME [--seed N]

It only finds the code and hands over to start.py (the config, the board,
play mode): MicroPython compiles this file into RAM at every boot, while
start.py is compiled with the rest of the device code (in ROMFS on an
RP2040 board, where bytecode stays in flash). CircuitPython boards start
from code.py instead.
"""

import sys


def _paths():
    # The simulator runs firmware/main.py from the repo: shared_rules is one
    # folder up. On a board everything sits at the flash root.
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    if here not in sys.path:
        sys.path.insert(0, here)
    sys.path.append(here + "/..")


_paths()
from start import main  # noqa: E402

if __name__ == "__main__":
    main(sys.argv[1:])

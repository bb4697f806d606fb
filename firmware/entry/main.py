"""Device entry point (MicroPython): on a board it sits at the flash root
and runs at power-on; in the simulator:

    micropython firmware/entry/main.py --board sim --dir FLASHDIR --id NAME [--seed N]

It only finds the code and hands over to start.py (power_on.py: the config, the board,
play mode): MicroPython compiles this file into RAM at every boot, while
start.py is compiled with the rest of the device code (in ROMFS on an
RP2040 board, where bytecode stays in flash). CircuitPython boards start
from code.py instead.

Ctrl-C goes off first (_ctrl_c_off): a 0x03 byte on the USB port during
boot (a host that sends Ctrl-C on connect, noise at plug-in) must not stop
the board at the REPL. The ways to the REPL are start.py's: the link's
``repl`` op (``deckahedron flash --port``) and A and C held at power-on.
"""

import sys


def _ctrl_c_off():
    # MicroPython raises a pending KeyboardInterrupt at a jump: the `if`
    # inside the try raises one that came before kbd_intr(-1), and the loop
    # turns Ctrl-C off again. No jump comes before this in the module.
    while True:
        try:
            import micropython

            micropython.kbd_intr(-1)
            if micropython:
                return
        except ImportError:  # CPython: nothing to turn off
            return
        except KeyboardInterrupt:
            pass


def _paths():
    # The simulator runs firmware/entry/main.py from the repo: the device code
    # is one folder up, shared_rules two. On a board all sits at the flash root.
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    if here.endswith("entry"):
        here += "/.."
    if here not in sys.path:
        sys.path.insert(0, here)
    sys.path.append(here + "/..")


def _start(argv):
    while True:
        try:
            _paths()
            from start import main

            break
        except KeyboardInterrupt:
            _ctrl_c_off()  # one that came before Ctrl-C was off: import again
    # Not caught from here on: start._play goes on after one itself, and one
    # after the app left for the REPL (the link's repl op) belongs to mpremote.
    main(argv)


_ctrl_c_off()
if __name__ == "__main__":
    _start(sys.argv[1:])

"""Device entry point (MicroPython). On a board: copied to the flash root
with the firmware and shared_rules, runs at power-on. In the simulator:

    micropython firmware/main.py --board sim --dir FLASHDIR --id NAME [--seed N]

The board is the one named in deckahedron.cfg (one line, ``board=NAME``,
written by ``deckahedron flash``), else the one detected (see detect()).
CircuitPython boards start from code.py instead.
"""

import sys

CONFIG = "deckahedron.cfg"
# Which module and class run each board: boards/boards.json, the registry
# the host reads too (boards.spec). CircuitPython boards start from code.py.


def _args(argv):
    out = {"board": None, "dir": None, "id": None, "seed": None}
    i = 0
    while i < len(argv):
        key = argv[i][2:] if argv[i].startswith("--") else None
        if key not in out or i + 1 >= len(argv):
            raise SystemExit("usage: main.py [--board NAME] [--dir FLASHDIR] [--id NAME] [--seed N]")
        out[key] = argv[i + 1]
        i += 2
    return out


def _paths():
    # The simulator runs firmware/main.py from the repo: shared_rules is one
    # folder up. On a board everything sits at the flash root.
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    if here not in sys.path:
        sys.path.insert(0, here)
    sys.path.append(here + "/..")


def configured(path=CONFIG):
    """The board named in the config file, or None."""
    try:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.startswith("board="):
                    return line[6:].strip() or None
    except OSError:
        pass
    return None


def detect():
    """The board this firmware runs on, from what the platform offers."""
    if sys.implementation.name == "circuitpython":
        return "magtag"
    try:
        import badger2040  # noqa: F401 -- Pimoroni's firmware for the Badger
    except ImportError:
        pass
    else:
        try:
            import network  # noqa: F401 -- only the 2040 W has Wi-Fi
            return "badger2040w"
        except ImportError:
            return "badger2040"
    if sys.platform == "rp2":
        return "pico-epaper29"
    return "sim"


def make_board(name, flash_dir=None):
    from boards import spec

    try:
        entry = spec(name)
    except ValueError as e:
        raise SystemExit(str(e))
    cls = entry["class"]
    board_cls = getattr(__import__(entry["module"], None, None, [cls]), cls)
    if name == "sim":
        return board_cls(flash_dir or "flash")
    return board_cls() if flash_dir is None else board_cls(flash_dir)


def _device_id(board, given):
    if given:
        return given
    try:
        import machine
        import binascii
        return binascii.hexlify(machine.unique_id()).decode()
    except (ImportError, AttributeError):
        return board.name


def main(argv):
    _paths()
    args = _args(argv)
    name = args["board"] or configured() or detect()
    board = make_board(name, args["dir"])
    from app import App

    seed = int(args["seed"]) if args["seed"] is not None else None
    App(board, _device_id(board, args["id"]), seed).run()


if __name__ == "__main__":
    main(sys.argv[1:])

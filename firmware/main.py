"""Device entry point (MicroPython). On a board: copied to the flash root
with the firmware and shared_rules, runs at power-on. In the simulator:

    micropython firmware/main.py --board sim --dir FLASHDIR --id NAME [--seed N]

The board is the one named in deckahedron.cfg (``board=NAME``, written by
``deckahedron flash``), else the one detected (see detect()); the file may
also give ``seed=N`` and ``id=NAME`` (the emulated Pico's host writes them),
which the command line overrides.
CircuitPython boards start from code.py instead.
"""

import sys

CONFIG = "deckahedron.cfg"
# board name -> (module, class)
BOARDS = {
    "sim": ("boards.sim", "Board"),
    "badger2040": ("boards.badger2040", "Badger2040Board"),
    "badger2040w": ("boards.badger2040", "Badger2040WBoard"),
    "pico-epaper29": ("boards.pico_epaper29", "PicoEpaper29Board"),
    "magtag": ("boards.magtag", "MagTagBoard"),  # CircuitPython: code.py builds it
}


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


def config(path=CONFIG):
    """The config file's ``key=value`` lines as a dict ({} without one):
    board, and on an emulated or test board seed and id."""
    out = {}
    try:
        with open(path) as f:
            for line in f:
                key, eq, value = line.strip().partition("=")
                if eq and value.strip():
                    out[key.strip()] = value.strip()
    except OSError:
        pass
    return out


def configured(path=CONFIG):
    """The board named in the config file, or None."""
    return config(path).get("board")


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
    if name not in BOARDS:
        raise SystemExit("unknown board %r: known boards are %s" % (name, ", ".join(sorted(BOARDS))))
    modname, cls = BOARDS[name]
    mod = __import__(modname, None, None, [cls])
    board_cls = getattr(mod, cls)
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
    cfg = config()
    for key in ("board", "seed", "id"):
        if args[key] is None:
            args[key] = cfg.get(key)
    name = args["board"] or detect()
    board = make_board(name, args["dir"])
    from app import App

    seed = int(args["seed"]) if args["seed"] is not None else None
    App(board, _device_id(board, args["id"]), seed).run()


if __name__ == "__main__":
    main(sys.argv[1:])

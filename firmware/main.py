"""Device entry point (MicroPython). On a board: copied to the flash root
with the firmware and shared_rules, runs at power-on. In the simulator:

    micropython firmware/main.py --board sim --dir FLASHDIR --id NAME [--seed N]
"""

import sys


def _args(argv):
    out = {"board": None, "dir": None, "id": None, "seed": None}
    i = 0
    while i < len(argv):
        key = argv[i][2:] if argv[i].startswith("--") else None
        if key not in out or i + 1 >= len(argv):
            raise SystemExit("usage: main.py --board sim --dir FLASHDIR --id NAME [--seed N]")
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


def main(argv):
    _paths()
    args = _args(argv)
    board_name = args["board"] or "sim"
    if board_name != "sim":
        raise SystemExit("unknown board %r (this build knows: sim)" % board_name)
    from boards.sim import Board

    board = Board(args["dir"] or "flash")
    from app import App

    seed = int(args["seed"]) if args["seed"] is not None else None
    App(board, args["id"] or "sim", seed).run()


if __name__ == "__main__":
    main(sys.argv[1:])

"""`deckahedron sim`: a table of simulated boards, until interrupted.

    deckahedron sim --boards N [--seed S] [--dir D] [--board pico-epaper29|badger2040|badger2040w]

Starts N (1..16) boards p1..pN, each the real firmware in the MicroPython
unix port behind its own pseudo-terminal (or, with --board, MicroPython's
rp2 image running the current device code on an emulated board in rp2040js:
host_tools/sim/emulated.py), prints one line per board
``NAME PORT`` (then flushes, so a script can read the ports), and runs until
Ctrl-C, SIGTERM or SIGHUP, restarting any board whose process dies (a note
on stderr says so). Flash folders live under D (kept) or a new temporary
folder (removed on exit); each board's stderr goes to D/NAME.log.

Exit codes: 0 after an interrupt, 2 bad arguments, 3 the boards cannot start
(no firmware, no MicroPython; for an emulated board no base image, bootrom
or Node.js).
"""

import argparse
import os
import shutil
import sys
import tempfile

from host_tools.flashing import rp2040
from host_tools.cli import reporter, whole
from host_tools.sim.emulated import EmuError, EmuTableBoards, emulated_boards
from host_tools.flashing.rp2040 import ImageError
from host_tools.sim.unixport import MAX_BOARDS, SimError, SimTable, register, run_until_signalled, unregister

PROG = "deckahedron sim"
EXIT_USAGE = 2
EXIT_CANNOT_START = 3


_complain, _fail = reporter(PROG, EXIT_USAGE)


def _board_count(text):
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("must be a whole number from 1 to %d, not %r" % (MAX_BOARDS, text))
    if not 1 <= n <= MAX_BOARDS:
        raise argparse.ArgumentTypeError("must be from 1 to %d, not %d" % (MAX_BOARDS, n))
    return n


def add_arguments(parser):
    parser.add_argument("--boards", type=_board_count, default=1, metavar="N",
                        help="how many boards, 1..%d (default 1)" % MAX_BOARDS)
    parser.add_argument("--seed", type=whole(0, 10 ** 9, "7"), default=None, metavar="S",
                        help="board pK shuffles with seed S*100+K (default: each board picks its own)")
    parser.add_argument("--dir", default=None, metavar="D",
                        help="folder for the boards' flash folders and logs (kept; default: a temporary "
                             "folder removed on exit)")
    parser.add_argument("--board", default=None, metavar="NAME",
                        help="emulate this RP2040 board running the real rp2 image (%s) instead of "
                             "the unix-port sim board" % ", ".join(emulated_boards()))
    parser.error = _fail


def _emulated(board):
    """The board factory for --board (None: the unix-port sim board). The
    base image and the bootrom are checked here, before any board starts."""
    if board is None:
        return None
    if board not in emulated_boards():
        raise EmuError("no emulated board %r: emulated boards are %s" % (board, ", ".join(emulated_boards())))
    rp2040.base_image_path()
    rp2040.bootrom_path()
    return EmuTableBoards(board)


def run(args):
    temp = args.dir is None
    base = tempfile.mkdtemp(prefix="deckahedron-sim-") if temp else os.path.abspath(args.dir)
    try:
        if not temp:
            try:
                os.makedirs(base, exist_ok=True)
            except OSError as e:
                _complain("cannot use --dir %s: %s" % (args.dir, e.strerror or e))
                return EXIT_USAGE

        def on_restart(board, code, gave_up=False):
            if gave_up:
                _complain("%s keeps dying (last exit %s): not restarting it; see %s" % (board.name, code, board.log_path))
            else:
                _complain("%s exited (%s) and was restarted on %s" % (board.name, code, board.port))

        try:
            make_board = _emulated(args.board)
            table = SimTable(args.boards, base, seed=args.seed, auto_restart=True, on_restart=on_restart,
                             make_board=make_board)
            table.start()
        except (SimError, ImageError, EmuError) as e:
            _complain(str(e))
            return EXIT_CANNOT_START
        for b in table.boards:
            sys.stdout.write("%s %s\n" % (b.name, b.port))
        sys.stdout.flush()
        record = register(table.boards)  # so `deckahedron table` finds them
        try:
            run_until_signalled(table)
        finally:
            unregister(record)
        return 0
    finally:
        if temp:
            shutil.rmtree(base, ignore_errors=True)

"""`deckahedron flash`: put the device code on a board.

    deckahedron flash --board badger2040|badger2040w|pico-epaper29 --port P
                      [--wipe [--yes]] [--no-compile] [--no-reset] [--dry-run]
    deckahedron flash --board magtag [--drive PATH] [--wipe [--yes]] [--dry-run]

MicroPython boards go through mpremote on the serial port P; the MagTag
(CircuitPython) through its CIRCUITPY drive (found by itself when one is
mounted). Only files that differ are copied; each is read back and checked
(size and sha256). The player's save (deck.sav) stays unless --wipe. --dry-run
reads the board and prints the plan, changing nothing.

Exit codes: 0 flashed (or planned), 1 the flash failed (the message says what
to do), 2 bad usage.
"""

import sys

from host_tools import flash as F
from host_tools.cli import reporter

PROG = "deckahedron flash"
EXIT_OK = 0
EXIT_FLASH = 1
EXIT_USAGE = 2

_complain, _fail = reporter(PROG, EXIT_USAGE)


def add_arguments(parser):
    parser.add_argument("--board", required=True, choices=sorted(F.BOARDS), metavar="BOARD",
                        help="badger2040, badger2040w, pico-epaper29 or magtag")
    parser.add_argument("--port", metavar="P",
                        help="the MicroPython board's serial port (/dev/ttyACM0, COM3; "
                             "`python -m mpremote connect list` shows them)")
    parser.add_argument("--drive", metavar="PATH",
                        help="the MagTag's mounted CIRCUITPY drive (default: find it)")
    parser.add_argument("--wipe", action="store_true",
                        help="also delete the player's saved game (deck.sav, deck.tmp, deck.bad)")
    parser.add_argument("--yes", "-y", action="store_true", help="do not ask before --wipe deletes the save")
    parser.add_argument("--no-compile", action="store_true", help="copy .py sources, no .mpy")
    parser.add_argument("--no-reset", action="store_true", help="leave the board at its REPL afterwards")
    parser.add_argument("--dry-run", action="store_true",
                        help="read the board and print what would be copied, skipped and deleted; change nothing")
    parser.error = _fail


def open_board(args):
    """The BoardFS for the arguments (the tests replace this function)."""
    spec = F.BOARDS[args.board]
    if spec.runtime == "micropython":
        return F.MpremoteFS(args.port)
    if args.drive:
        return F.DriveFS(args.drive)
    found = F.find_circuitpy()
    if not found:
        raise F.NoBoard("no CIRCUITPY drive is mounted: plug in the MagTag (wait for the drive to appear) "
                        "or give it with --drive PATH")
    if len(found) > 1:
        raise F.NoBoard("more than one CIRCUITPY drive is mounted (%s): say which with --drive PATH"
                        % ", ".join(found))
    return F.DriveFS(found[0])


def _check_usage(args):
    spec = F.BOARDS[args.board]
    if spec.runtime == "micropython" and args.drive:
        _fail("--drive is for the MagTag; --board %s is flashed over --port" % args.board)
    if spec.runtime == "micropython" and not args.port:
        _fail("--port is required for --board %s: the board's USB serial port, e.g. /dev/ttyACM0 or COM3 "
              "(`python -m mpremote connect list` shows them)" % args.board)
    if spec.runtime == "circuitpython" and args.port:
        _fail("the MagTag is flashed through its CIRCUITPY drive, not a serial port: drop --port "
              "(give --drive PATH if it is not found by itself)")
    if args.wipe and not args.yes and not args.dry_run and not _interactive():
        _fail("--wipe deletes the player's saved game (deck.sav): add --yes to confirm when nobody can be asked")


def _interactive():
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def _ask_wipe(paths):
    sys.stdout.write("--wipe deletes the saved game on the board (%s): the player's character, deck and XP.\n"
                     % ", ".join(paths))
    sys.stdout.write("Type yes to delete it: ")
    sys.stdout.flush()
    try:
        answer = sys.stdin.readline()
    except (OSError, ValueError):
        return False
    return answer.strip().lower() in ("yes", "y")


def _reporter():
    try:
        from rich.console import Console

        console = Console()
        if console.is_terminal:
            return F.RichReporter(console)
    except ImportError:
        pass
    return F.LineReporter(sys.stdout)


def print_plan(result, where):
    info = result.info
    out = sys.stdout
    mpy = ", .mpy v%d.%d" % F.split_mpy(info["mpy"])[:2] if info.get("mpy") else ""
    out.write("plan for %s on %s (%s%s)\n" % (result.board, where, F.describe(info), mpy))
    for n in result.notices:
        out.write("note: %s\n" % n)
    for line in F.plan_table(result.steps):
        out.write("  " + line + "\n")
    n, size = F.summary(result.steps)
    free = info.get("free")
    out.write("%d to copy (%d bytes), %d skipped (same), %d to delete%s\n"
              % (n["copy"], size, n["skip"], n["delete"], "; %d bytes free" % free if free is not None else ""))


def run(args):
    _check_usage(args)
    try:
        fs = open_board(args)
        where = fs.label
        if args.dry_run:
            result = F.flash(args.board, fs, wipe=args.wipe, compile=not args.no_compile, dry_run=True)
            print_plan(result, where)
            if result.space_error:
                _complain(str(result.space_error))
                return EXIT_FLASH
            sys.stdout.write("dry run: nothing on the board was changed\n")
            return EXIT_OK
        confirm = None if args.yes else _ask_wipe
        result = F.flash(args.board, fs, wipe=args.wipe, compile=not args.no_compile, reset=not args.no_reset,
                         reporter=_reporter(), confirm_wipe=confirm)
    except F.FlashError as e:
        _complain(str(e))
        return EXIT_FLASH
    n, size = F.summary(result.steps)
    kept = "" if args.wipe else "; the saved game is kept"
    if n["copy"] == 0 and n["delete"] == 0:
        sys.stdout.write("flashed %s on %s: already up to date (%d files the same)%s\n"
                         % (args.board, where, n["skip"], kept))
    else:
        sys.stdout.write("flashed %s on %s: %d copied and verified (%d bytes), %d skipped (same), %d deleted%s\n"
                         % (args.board, where, n["copy"], size, n["skip"], n["delete"], kept))
    if F.BOARDS[args.board].runtime == "micropython" and args.no_reset:
        sys.stdout.write("the board waits at its REPL: press reset (or `python -m mpremote connect %s reset`) "
                         "to start the new firmware\n" % where)
    return EXIT_OK

"""`deckahedron flash` and `deckahedron image`: put the game on a board.

    deckahedron image --board pico-epaper29|badger2040|badger2040w [--sleep MODE] [--out FILE]
    deckahedron image --base-names FILE
    deckahedron flash --board NAME [--port P | --drive PATH] [--sleep MODE] [--wipe --yes] [--dry-run]
                      [--probe-timeout S]

An RP2040 board in BOOTSEL mode (its RPI-RP2 drive mounted, or picotool
installed) gets the whole image: base + ROMFS of the current code + a fresh
filesystem with main.py and deckahedron.cfg (a first install: no saved
game). A running board (--port, or the one board found by its USB id) gets
the current device code through one mpremote session and keeps its save
unless --wipe --yes, and the sleep mode its deckahedron.cfg names unless
--sleep says another (the Badger: off or dormant). The MagTag goes through
its CIRCUITPY drive.

With --dry-run and no board found, the plan for a board of that kind: the
files, where each lands, and the image a board in BOOTSEL mode would get.

Exit codes: 0 done (or planned), 1 the flash failed (the message says what
to do), 2 bad usage or no base image to build from.
"""

import argparse
import sys

from host_tools import boards as registry
from host_tools.flashing import card_faces, rp2040
from host_tools.cli import reporter
from host_tools.flashing import FlashError, NoBoard, bootsel, files, image, magtag, running

PROG = "deckahedron flash"
EXIT_OK, EXIT_FLASH, EXIT_USAGE = 0, 1, 2

_complain, _fail = reporter(PROG, EXIT_USAGE)


def _boards():
    return sorted(registry.real_boards())


def add_arguments(parser):
    parser.add_argument("--board", required=True, choices=_boards(), metavar="BOARD", help=", ".join(_boards()))
    parser.add_argument("--port", metavar="P", help="a running board's serial port (/dev/ttyACM0, COM3); default: "
                        "the RPI-RP2 drive of a board in BOOTSEL mode, else the one board found by its USB id")
    parser.add_argument("--drive", metavar="PATH", help="the mounted RPI-RP2 or CIRCUITPY drive (default: find it)")
    parser.add_argument("--wipe", action="store_true", help="also delete the saved game (deck.sav, deck.tmp, deck.bad)")
    parser.add_argument("--yes", "-y", action="store_true", help="confirm --wipe")
    parser.add_argument("--dry-run", action="store_true", help="show the plan; change nothing on the board")
    parser.add_argument("--probe-timeout", type=_seconds, default=running.PROBE_TIMEOUT, metavar="S",
                        help="a running board: seconds it has to answer the first question (default %(default)g)")
    _add_sleep(parser)
    parser.error = _fail


def _seconds(text):
    try:
        value = float(text)
    except ValueError:
        value = 0
    if not 0 < value < 86400:
        raise argparse.ArgumentTypeError("%r is not a number of seconds above 0 (and below a day)" % text)
    return value


def _add_sleep(parser):
    modes = sorted(set(m for b in registry.real_boards() for m in files.sleep_settings(b)))
    parser.add_argument("--sleep", metavar="MODE", help="how the board sleeps between presses, written into its "
                        "deckahedron.cfg (Badger: %s; default: what the board has, else off)" % " or ".join(modes))


def _sleep(board, mode, fail):
    """--sleep checked against the board's modes: {"sleep": MODE} or None."""
    if mode is None:
        return None
    known = files.sleep_settings(board)
    if mode not in known:
        fail("--sleep %s: the %s %s" % (mode, board, "sleeps " + " or ".join(sorted(known)) if known else
                                         "has one way to sleep between presses; --sleep is for %s" % ", ".join(
                                             sorted(b for b in registry.real_boards() if files.sleep_settings(b)))))
    return {"sleep": mode}


class Progress:
    """A rich bar on a terminal, plain lines elsewhere (CI, logs)."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stdout
        self.bar = None
        try:
            from rich.console import Console

            console = Console(file=self.stream)
            if console.is_terminal:
                from rich.progress import BarColumn, DownloadColumn, Progress as Bar, TextColumn

                self.console = console
                self.bar = Bar(TextColumn("{task.description}"), BarColumn(), DownloadColumn(), console=console,
                               transient=True)
        except ImportError:
            pass
        self.task = None

    def close(self):
        if self.bar is not None and self.task is not None:
            self.bar.stop()
            self.task = None

    def note(self, text):
        self.stream.write(text + "\n")
        self.stream.flush()

    def bytes(self, what, done, total):
        if self.bar is None:
            if done == total:
                self.note("%s: %d bytes" % (what, total))
            return
        if self.task is None:
            self.bar.start()
            self.task = self.bar.add_task(what, total=total)
        self.bar.update(self.task, completed=done)
        if done >= total:
            self.bar.stop()
            self.task = None


def _rp2040_ports():
    """Serial ports of running RP2040 boards (MicroPython's USB id)."""
    try:
        from serial.tools import list_ports
    except ImportError:
        return []
    ids = registry.usb_ids("micropython")
    return sorted(p.device for p in list_ports.comports() if (p.vid, p.pid) in ids)


def _check_usage(args):
    entry = registry.board(args.board)
    _sleep(args.board, args.sleep, _fail)
    if args.wipe and not args.yes and not args.dry_run:
        _fail("--wipe deletes the player's saved game (deck.sav): add --yes to confirm")
    if entry["runtime"] == "circuitpython" and args.port:
        _fail("the %s runs CircuitPython: it is flashed through its CIRCUITPY drive, not a serial port: drop "
              "--port (give --drive PATH if it is not found by itself)" % entry.get("short", args.board))
    if args.port and args.drive:
        _fail("give --port (a running board) or --drive (a board in BOOTSEL mode), not both")
    return entry


FRESH = ("a first install: no saved game; a save that was on the board is gone. Updates of a running board "
         "with --port keep it")


def _flash_bootsel(args, drive, out):
    """The full image onto a board in BOOTSEL mode (drive, or picotool when drive is None)."""
    data = image.build(args.board, settings=_sleep(args.board, args.sleep, _fail))
    out.note("image for %s: %d bytes of UF2 (base %s + ROMFS of the current code + a fresh filesystem with main.py "
             "and deckahedron.cfg)" % (args.board, len(data), rp2040.MICROPYTHON_VERSION))
    where = drive or "picotool"
    if args.dry_run:
        out.note("plan: write %s onto %s; the board restarts into the game on a fresh filesystem (%s)"
                 % (image.image_name(args.board), where, FRESH))
        out.note("dry run: nothing on the board was changed")
        return EXIT_OK
    if drive:
        bootsel.copy_to_drive(data, drive, image.image_name(args.board),
                              lambda done, total: out.bytes("writing " + drive, done, total))
    else:
        path = image.write(args.board, settings=_sleep(args.board, args.sleep, _fail))
        out.note("loading %s with picotool" % path)
        bootsel.load_with_picotool(path)
    out.note("flashed %s through %s: the board restarts into the game on a fresh filesystem (%s)"
             % (args.board, where, FRESH))
    return EXIT_OK


def _flash_running(args, port, out):
    plan = running.flash(args.board, port, wipe=args.wipe, dry_run=args.dry_run, progress=out.note,
                         progress_bytes=out.bytes, sleep=args.sleep, probe_timeout=args.probe_timeout)
    info = plan.info
    head = "plan for %s on %s (MicroPython %s, %s)" % (
        args.board, port, info.get("version"),
        "ROMFS partition of %d KiB" % (info["romfs"] // 1024) if info.get("romfs") else "no ROMFS partition")
    if args.dry_run:
        out.note(head)
        for n in plan.notes[1:]:
            out.note("note: " + n)
        for line in plan.lines():
            out.note("  " + line)
        out.note("dry run: nothing on the board was changed")
        return EXIT_OK
    for n in plan.notes[1:]:
        out.note("note: " + n)
    kept = "the saved game is kept" if plan.kept else ("the saved game was deleted (--wipe)" if args.wipe
                                                       else "no saved game on the board")
    out.note("flashed %s on %s (%s, verified); %s" % (args.board, port, "ROMFS deploy" if plan.method == "romfs"
                                                       else "files on the filesystem", kept))
    return EXIT_OK


def _offline_plan(args, entry, out):
    """--dry-run with no board attached: what a board of this kind would get."""
    out.note("no %s attached: the plan for one, as it would go (dry run: nothing is changed)" % args.board)
    if entry["runtime"] == "circuitpython":
        out.note("its CIRCUITPY drive gets (modules compiled to .mpy for CircuitPython 9 and later, as .py for "
                 "older ones; the saved game kept unless --wipe --yes):")
        for s in files.device_files(args.board):
            out.note("  CIRCUITPY/%-28s <- firmware/%s" % (s.board_path, s.board_path))
        for module, package in sorted((entry.get("libraries") or {}).items()):
            out.note("  CIRCUITPY/lib/%-24s <- the PyPI package %s" % (module + ".py", package))
        out.note("  CIRCUITPY/%-28s <- the board's settings" % files.CONFIG)
        return EXIT_OK
    name = image.image_name(args.board)
    try:
        rp2040.base_image_path(args.board)
    except rp2040.ImageError:
        size = "not built here: the base image is not in the cache (make base-image, docs/rp2040.md)"
    else:
        size = "%d bytes" % len(image.build(args.board, settings=_sleep(args.board, args.sleep, _fail)))
    out.note("in BOOTSEL mode (%s): %s (%s) is written onto its RPI-RP2 drive, or loaded with picotool; it "
             "restarts into the game (%s):" % (entry.get("bootsel", "BOOTSEL"), name, size, FRESH))
    out.note("  0x%08X  base image, MicroPython %s (%s in the cache)"
             % (rp2040.FLASH_BASE, rp2040.MICROPYTHON_VERSION, rp2040.BASE_IMAGE))
    out.note("  0x%08X  ROMFS partition, mounted at %s:" % (rp2040.ROMFS_START, rp2040.ROMFS_MOUNT))
    for path, local in rp2040.device_sources(args.board):
        out.note("              %s/%-28s <- firmware/%s" % (rp2040.ROMFS_MOUNT, rp2040.mpy_path(path), path))
    out.note("              %s/%-28s <- drawn by host_tools/card_faces.py"
             % (rp2040.ROMFS_MOUNT, rp2040.mpy_path(card_faces.MODULE)))
    out.note("  0x%08X  a fresh filesystem: /main.py <- firmware/main.py, /%s <- the board's settings"
             % (rp2040.FS_START, files.CONFIG))
    out.note("running (--port P): the same ROMFS deployed through mpremote, or the modules as .mpy files on its "
             "filesystem when its MicroPython has no ROMFS partition; main.py and %s updated; the saved game "
             "kept unless --wipe --yes" % files.CONFIG)
    return EXIT_OK


def _flash_magtag(args, out):
    drive = args.drive
    if not drive:
        found = magtag.find_drives()
        if not found and args.dry_run:
            return _offline_plan(args, registry.board(args.board), out)
        if not found:
            raise NoBoard("no CIRCUITPY drive is mounted: plug in the %s (wait for the drive to appear) or give "
                          "it with --drive PATH" % registry.board(args.board).get("short", args.board))
        if len(found) > 1:
            raise NoBoard("more than one CIRCUITPY drive is mounted (%s): say which with --drive PATH"
                          % ", ".join(found))
        drive = found[0]
    plan = magtag.flash(drive, wipe=args.wipe, dry_run=args.dry_run,
                        progress=lambda path, n: out.note("copied %s (%d bytes)" % (path, n)), board=args.board)
    if args.dry_run:
        out.note("plan for %s on %s (CircuitPython %s)" % (args.board, drive, plan.info["version"]))
        for line in plan.lines():
            out.note("  " + line)
        for n in plan.notes:
            out.note("note: " + n)
        out.note("dry run: nothing on the board was changed")
        return EXIT_OK
    for n in plan.notes:
        out.note("note: " + n)
    out.note("flashed %s on %s: %d copied and verified, %d the same; %s" % (
        args.board, drive, len(plan.copies), len(plan.same), "the saved game is kept" if plan.kept else "no saved game kept"))
    return EXIT_OK


def run(args):
    entry = _check_usage(args)
    out = Progress()
    try:
        if entry["runtime"] == "circuitpython":
            return _flash_magtag(args, out)
        if args.port:
            return _flash_running(args, args.port, out)
        if args.drive:
            if not bootsel.is_rp2040_drive(args.drive):
                raise NoBoard("%s is not an RPI-RP2 drive (no INFO_UF2.TXT from the RP2040 bootrom): hold BOOTSEL "
                              "while plugging the board in" % args.drive)
            return _flash_bootsel(args, args.drive, out)
        drives = bootsel.find_drives()
        if len(drives) > 1:
            raise NoBoard("more than one RPI-RP2 drive is mounted (%s): say which with --drive PATH"
                          % ", ".join(drives))
        if drives:
            return _flash_bootsel(args, drives[0], out)
        ports = _rp2040_ports()
        if len(ports) == 1:
            return _flash_running(args, ports[0], out)
        if len(ports) > 1:
            raise NoBoard("more than one board is plugged in (%s): say which with --port" % ", ".join(ports))
        if bootsel.picotool():
            return _flash_bootsel(args, None, out)
        if args.dry_run:
            return _offline_plan(args, entry, out)
        raise NoBoard("no board found: plug it in while holding BOOTSEL (%s) for a first install, or give a running "
                      "board's --port" % entry.get("bootsel", "BOOTSEL"))
    except rp2040.ImageError as e:
        _complain(str(e))
        return EXIT_USAGE
    except FlashError as e:
        _complain(str(e))
        return EXIT_FLASH
    finally:
        out.close()


# -- deckahedron image ------------------------------------------------------

def add_image_arguments(parser):
    rp2 = rp2040.image_boards()
    parser.add_argument("--board", choices=rp2, metavar="BOARD", help=", ".join(rp2))
    parser.add_argument("--out", metavar="FILE",
                        help="where to write the UF2 (default build/images/deckahedron-BOARD.uf2)")
    parser.add_argument("--base-names", metavar="FILE",
                        help="instead, write the .mpy of the device code's names and strings that the base image freezes "
                             "(docs/rp2040.md, 'The base image')")
    _add_sleep(parser)
    parser.error = reporter("deckahedron image", EXIT_USAGE)[1]


def run_image(args):
    complain, fail = reporter("deckahedron image", EXIT_USAGE)
    if args.base_names:
        if args.board or args.out or args.sleep:
            fail("--base-names writes one file for every RP2040 board's code: leave out --board, --out and --sleep")
        return _base_names(args.base_names, complain)
    if not args.board:
        fail("say which board: --board " + "|".join(rp2040.image_boards()))
    settings = _sleep(args.board, args.sleep, fail)
    try:
        path = image.write(args.board, args.out, settings=settings)
    except rp2040.ImageError as e:
        complain(str(e))
        return EXIT_USAGE
    except FlashError as e:
        complain(str(e))
        return EXIT_FLASH
    sys.stdout.write("%s (%d bytes): hold BOOTSEL while plugging the board in (%s), then drag it onto the RPI-RP2 "
                     "drive\n" % (path, path.stat().st_size, registry.board(args.board)["bootsel"]))
    return EXIT_OK


def _base_names(path, complain):
    try:
        names = rp2040.device_names()
        data = rp2040.names_mpy(names)
    except rp2040.ImageError as e:
        complain(str(e))
        return EXIT_FLASH
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as e:
        complain("cannot write %s: %s" % (path, e.strerror or e))
        return EXIT_USAGE
    sys.stdout.write("%s: %d names and strings; freeze it into the base image (docs/rp2040.md, 'The base image')\n"
                     % (path, len(names)))
    return EXIT_OK

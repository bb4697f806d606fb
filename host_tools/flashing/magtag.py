"""The CircuitPython boards (the MagTag; the Pico + Pico-ePaper-2.9 on
CircuitPython, pico-epaper29-cp): the game goes onto the CIRCUITPY drive as
compiled modules (.mpy in CircuitPython's flavour, host_tools/flashing/
mpy.py: a board that deep-sleeps between presses starts over at every
press, and compiling .py source then would cost ~1 s each time) beside
code.py and boot.py; as .py on a CircuitPython older than 9.0. Files that
are already the same are skipped, every copy is read back, the save stays
unless wipe. Adafruit libraries from the bundle go on with circup (the
registry's "circup" list; the game needs none today). A board whose
registry entry has "libraries" ({module: PyPI package}: the Pico's
adafruit_ssd1680) gets each module's file from that package as installed
beside this tool (the dev extra has it), compiled into lib/ as CircuitPython
users put the bundle's libraries: the same bytes every flash, no network.
"""

import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from host_tools import boards as registry
from host_tools.flashing import FlashError, NoBoard, WrongFirmware, files, mpy
from host_tools.flashing.messages import Messages

CIRCUITPYTHON = ("install CircuitPython for the MagTag first: https://circuitpython.org/board/"
                 "adafruit_magtag_2.9_grayscale/ (double-press reset to get the MAGTAGBOOT drive and copy the "
                 ".uf2 onto it)")


def read_only_message(path):
    return ("the CIRCUITPY drive at %s is read-only to this computer: the MagTag's boot.py gives the drive to the "
            "game so it can save. Hold button A (the leftmost) while pressing reset and keep holding a second (the "
            "red LED blinks twice, the panel says USB drive mode), then flash again; afterwards press reset without "
            "A to play" % path)


def find_drives(candidates=None):
    """Mounted CIRCUITPY folders (with a boot_out.txt)."""
    if candidates is None:
        user = os.environ.get("USER") or os.environ.get("USERNAME") or ""
        candidates = []
        for pattern in ("/media/%s/CIRCUITPY*" % user, "/run/media/%s/CIRCUITPY*" % user, "/media/CIRCUITPY*",
                        "/Volumes/CIRCUITPY*"):
            candidates += glob.glob(pattern)
        try:
            with open("/proc/mounts") as f:
                for line in f:
                    parts = line.split()
                    if len(parts) > 1 and os.path.basename(parts[1]).startswith("CIRCUITPY"):
                        candidates.append(parts[1].replace("\\040", " "))
        except OSError:
            pass
    out = []
    for c in candidates:
        if os.path.isfile(os.path.join(c, "boot_out.txt")) and \
                os.path.realpath(c) not in [os.path.realpath(o) for o in out]:
            out.append(c)
    return out


# what a board's boot_out.txt names (its machine or Board ID), lower case
DRIVE_NAMES = {"magtag": "magtag", "pico-epaper29-cp": "raspberry_pi_pico"}


def check_drive(drive, board="magtag"):
    """{"version", "machine", "writable"} of a board's CIRCUITPY drive, or a plain error."""
    drive = Path(drive)
    if not drive.is_dir():
        raise NoBoard("%s is not a folder: give the MagTag's mounted CIRCUITPY drive with --drive" % drive)
    boot_out = drive / "boot_out.txt"
    if not boot_out.is_file():
        raise WrongFirmware("%s has no boot_out.txt, so it is not a CircuitPython drive; %s" % (drive, CIRCUITPYTHON))
    lines = boot_out.read_text(encoding="utf-8", errors="replace").splitlines()
    m = re.match(r"Adafruit CircuitPython (\S+) on [^;]*;\s*(.*)", lines[0] if lines else "")
    if not m:
        raise WrongFirmware("%s does not run CircuitPython (its boot_out.txt says: %s); %s"
                            % (drive, (lines or ["nothing"])[0][:80], CIRCUITPYTHON))
    board_id = "".join(ln[9:].strip() for ln in lines[1:] if ln.startswith("Board ID:"))
    said = (m.group(2) + " " + board_id).lower()
    if DRIVE_NAMES.get(board, board) not in said and not (board != "magtag" and "raspberry pi pico" in said):
        raise WrongFirmware("%s is not a %s's drive (its boot_out.txt says: %s); plug in the board or give "
                            "its CIRCUITPY drive with --drive" % (drive, registry.board(board).get("short", board),
                                                                  m.group(2).strip() or "no board name"))
    return {"version": m.group(1), "machine": m.group(2).strip(), "writable": os.access(str(drive), os.W_OK)}


class Plan:
    def __init__(self, drive, copies, same, deletes, kept, info):
        self.drive = drive
        self.copies = copies  # {path: bytes}
        self.same = same
        self.deletes = deletes
        self.kept = kept
        self.info = info
        self.notes = []
        self.method = "drive"

    def lines(self):
        out = ["delete        %s" % p for p in self.deletes]
        out += ["copy          %s (%d bytes)" % (p, len(d)) for p, d in sorted(self.copies.items())]
        out += ["same          %s" % p for p in self.same]
        out += ["keep          %s (the saved game)" % p for p in self.kept]
        out.append("verify        every copy read back")
        return out


def board_files(version, root=files.ROOT, board="magtag"):
    """{board path: bytes} of the game for `board` running CircuitPython
    `version`: the modules compiled, or as source where it cannot load
    them; code.py, boot.py and the registry as they are; the registry's
    libraries in lib/."""
    compiled = mpy.circuitpython_loads(version)
    out = {}
    taken = Messages()
    for s in files.device_files(board, root):
        if compiled and s.board_path.endswith(".py") and not s.entry:
            out[s.board_path[:-3] + ".mpy"] = mpy.for_circuitpython(mpy.compile_module(
                s.local, s.board_path, opt=mpy.FILE_ROUTE_OPT, messages=taken))
        else:
            out[s.board_path] = s.local.read_bytes()
    taken.put(out)
    for module, package in sorted((registry.board(board).get("libraries") or {}).items()):
        local = library_file(module, package)
        path = "lib/%s.py" % module
        if compiled:
            out[path[:-3] + ".mpy"] = mpy.for_circuitpython(mpy.compile_module(local, path))
        else:
            out[path] = local.read_bytes()
    return out


def library_file(module, package):
    """The installed source file of an Adafruit library module (one .py
    file), or FlashError saying which package to install."""
    import importlib.util

    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        raise FlashError("the board needs Adafruit's %s library, which this tool copies from the PyPI package "
                         "%s: `pip install %s` (or `pip install '.[dev]'`)" % (module, package, package))
    return Path(spec.origin)


def _other_form(path):
    """The module's other form: CircuitPython imports X.py before X.mpy,
    so an old X.py beside a new X.mpy would win."""
    if path.endswith(".mpy"):
        return path[:-4] + ".py"
    return path[:-3] + ".mpy" if path.endswith(".py") else None


def _waits_at_a_wake(version):
    """CircuitPython 10.3 and later wait for safe mode after a deep-sleep
    wake too (supervisor/shared/safe_mode.c), unless settings.toml says 0."""
    return (mpy.circuitpython_version(version) or (0,)) >= (10, 3)


def _settings(drive):
    try:
        return (Path(drive) / "settings.toml").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def make_plan(drive, wipe=False, root=files.ROOT, board="magtag"):
    info = check_drive(drive, board)
    drive = Path(drive)
    copies, same = {}, []
    wanted = board_files(info["version"], root, board)
    for path, data in sorted(wanted.items()):
        target = drive.joinpath(*path.split("/"))
        if target.is_file() and target.read_bytes() == data:
            same.append(path)
        else:
            copies[path] = data
    stale = sorted(o for o in (_other_form(p) for p in wanted)
                   if o and o not in wanted and drive.joinpath(*o.split("/")).is_file())
    saves = [p for p in files.CIRCUITPY_SAVES if (drive / p).exists()]
    plan = Plan(drive, copies, same, stale + (saves if wipe else []), [] if wipe else saves, info)
    if not mpy.circuitpython_loads(info["version"]):
        plan.notes.append("CircuitPython %s cannot load the game's compiled modules, so they go on as source, which "
                          "the MagTag compiles at every wake (slower, more battery): CircuitPython 9 or later loads "
                          "them" % info["version"])
    if board == "magtag" and _waits_at_a_wake(info["version"]) and "CIRCUITPY_SAFE_MODE_DELAY" not in _settings(drive):
        plan.notes.append("CircuitPython %s waits a second for safe mode at every wake from deep sleep (earlier "
                          "versions skip it at a wake): add the line CIRCUITPY_SAFE_MODE_DELAY = 0 to settings.toml "
                          "on the drive to save that second's battery at every press (hardware/magtag.md)"
                          % info["version"])
    config = files.config_text(board).encode()
    if not ((drive / files.CONFIG).is_file() and (drive / files.CONFIG).read_bytes() == config):
        copies[files.CONFIG] = config
    return plan


def execute(plan, progress=None):
    if not plan.info["writable"]:
        raise FlashError(read_only_message(plan.drive))
    try:
        for p in plan.deletes:
            (plan.drive / p).unlink()
        for path, data in sorted(plan.copies.items()):
            target = plan.drive.joinpath(*path.split("/"))
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            if progress:
                progress(path, len(data))
    except OSError as e:
        if e.errno == 28:
            raise FlashError("the CIRCUITPY drive filled up: delete files you no longer need from it, or run with "
                             "--wipe --yes")
        if e.errno in (13, 1, 30):
            raise FlashError(read_only_message(plan.drive))
        raise FlashError("cannot write on %s: %s" % (plan.drive, e.strerror or e))
    bad = [p for p, d in plan.copies.items()
           if hashlib.sha256(plan.drive.joinpath(*p.split("/")).read_bytes()).digest() != hashlib.sha256(d).digest()]
    if bad:
        raise FlashError("verification failed on %s (%s): try another USB cable or port and flash again"
                         % (plan.drive, ", ".join(sorted(bad)[:4])))


def circup_command():
    found = shutil.which("circup")
    if found:
        return [found]
    import importlib.util

    return [sys.executable, "-m", "circup"] if importlib.util.find_spec("circup") else None


def install_libraries(drive, version, runner=None, command=None, board="magtag"):
    """Install the registry's circup list onto the drive; a note for the log."""
    libs = registry.board(board).get("circup") or []
    if not libs:
        return "the %s code needs no Adafruit library from the bundle: nothing for circup to install" % (
            registry.board(board).get("short", board))
    command = command if command is not None else circup_command()
    if not command:
        return ("circup is not installed, so these Adafruit libraries were not installed: %s. `pip install circup`, "
                "then `circup --path %s install %s`" % (", ".join(libs), drive, " ".join(libs)))
    proc = (runner or (lambda a, t: subprocess.run(a, capture_output=True, text=True, timeout=t)))(
        list(command) + ["--path", str(drive), "install"] + libs, 600)
    if proc.returncode != 0:
        raise FlashError("circup could not install %s: %s" % (", ".join(libs), " ".join(
            ((proc.stdout or "") + (proc.stderr or "")).split())[-300:] or "no output"))
    return "installed with circup: %s" % ", ".join(libs)


def flash(drive, wipe=False, dry_run=False, progress=None, circup_runner=None, circup=None, board="magtag"):
    plan = make_plan(drive, wipe, board=board)
    if dry_run:
        if not plan.info["writable"]:
            plan.notes.append(read_only_message(drive))
        return plan
    execute(plan, progress)
    plan.notes.append(install_libraries(drive, plan.info["version"], circup_runner, circup, board))
    if plan.copies:
        plan.notes.append("CircuitPython restarts code.py by itself after the copy; press reset (without holding "
                          "button A) so the new boot.py runs and the game can save")
    return plan

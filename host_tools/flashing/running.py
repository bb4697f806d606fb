"""Update a running MicroPython board over USB serial, with mpremote.

1. Leave the game: the link's ``repl`` op (confirm=true) answers, then the
   firmware stops and leaves the board at its REPL (in play mode it ignores
   Ctrl-C, which is how mpremote would otherwise get in). A board that does
   not answer is already at its REPL, or runs no game.
2. ``probe()``: one ``mpremote exec`` that reports what the board runs (for
   the plain errors: not MicroPython, not an RP2040), whether its base has a
   ROMFS partition and how big, which of our files are on its filesystem.
3. ``make_plan()``: ``romfs`` when the board has a ROMFS partition (the
   device code as one ROMFS image, deployed whole), else ``files`` (a stock
   MicroPython: the modules as .mpy on littlefs, as .py where the board
   cannot load this mpy-cross's .mpy). Either way main.py and
   deckahedron.cfg go onto the filesystem; our module files that would
   shadow the ROMFS ones (the filesystem comes first on sys.path) are
   deleted; the save (deck.sav, deck.tmp, deck.bad) stays unless wipe.
4. ``execute()``: ONE chained mpremote session: exec (deletes) + romfs deploy
   + cp (mpremote skips files whose sha256 is already the same) + exec (read
   back sizes and sha256, the ROMFS region's sha256) + reset. The read-back
   is compared with what was sent.
"""

import hashlib
import json
import os
import posixpath
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from host_tools.flashing import FlashError, NoBoard, PortBusy, WrongFirmware, files, mpy, rp2040
from host_tools.flashing.messages import PATH as MESSAGES
from host_tools.flashing.messages import Messages

PROBE = r'''
import sys, os
try:
    import json
except ImportError:
    import ujson as json
r = {"impl": sys.implementation.name, "version": ".".join(str(v) for v in sys.implementation.version[:3]),
     "mpy": getattr(sys.implementation, "_mpy", None), "platform": sys.platform,
     "machine": getattr(sys.implementation, "_machine", ""), "romfs": 0}
try:
    import vfs
    if vfs.rom_ioctl(1) > 0:
        d = vfs.rom_ioctl(2, 0)
        r["romfs"] = len(memoryview(d))
except Exception:
    pass
try:
    s = os.statvfs(%(root)r)
    r["free"] = s[0] * s[3]
except Exception:
    r["free"] = None
f = {}
for p in %(paths)r:
    try:
        f[p] = os.stat(%(root)r + p)[6]
    except OSError:
        pass
r["files"] = f
try:
    with open(%(root)r + %(config)r) as c:
        r["cfg"] = c.read(1024)
except Exception:
    r["cfg"] = None
r["dirs"] = []
for p in %(dirs)r:
    try:
        if os.stat(%(root)r + p)[0] & 0x4000:
            r["dirs"].append(p)
    except OSError:
        pass
print("@@DECK " + json.dumps(r))
'''

DELETE = r'''
import os
for p in %(paths)r:
    try:
        os.remove(%(root)r + p)
    except OSError:
        pass
for p in %(dirs)r:
    try:
        os.rmdir(%(root)r + p)
    except OSError:
        pass
'''

VERIFY = r'''
import os, hashlib, binascii
b = bytearray(512)
for p in %(paths)r:
    try:
        n = os.stat(%(root)r + p)[6]
    except OSError:
        print("@@F - - " + p)
        continue
    d = hashlib.sha256()
    with open(%(root)r + p, "rb") as f:
        while True:
            k = f.readinto(b)
            if not k:
                break
            d.update(memoryview(b)[:k])
    print("@@F %%d %%s %%s" %% (n, binascii.hexlify(d.digest()).decode(), p))
for p in %(dirs)r:
    try:
        os.stat(%(root)r + p)
        print("@@D " + p)
    except OSError:
        pass
if %(romfs)d:
    import vfs
    print("@@ROM " + binascii.hexlify(hashlib.sha256(memoryview(vfs.rom_ioctl(2, 0))[:%(romfs)d]).digest()).decode())
'''


def _run(argv, timeout, on_output=None):
    """Run mpremote; on_output(text) sees its stdout as it comes (mpremote
    reports `romfs deploy` progress as "\\rWriting at offset N")."""
    import codecs
    import threading

    # Bytes, decoded here: text mode would turn mpremote's "\r" progress into lines.
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    decode = codecs.getincrementaldecoder("utf-8")("replace").decode
    err = []
    reader = threading.Thread(target=lambda: err.append(proc.stderr.read().decode("utf-8", "replace")), daemon=True)
    reader.start()
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    out = []
    try:
        while True:
            raw = proc.stdout.read1(256)
            if not raw:
                break
            chunk = decode(raw)
            out.append(chunk)
            if on_output:
                on_output(chunk)
        proc.wait()
        reader.join()
    finally:
        expired = not timer.is_alive() and proc.returncode is not None and proc.returncode < 0
        timer.cancel()
    if expired:
        raise subprocess.TimeoutExpired(argv, timeout)
    return subprocess.CompletedProcess(argv, proc.returncode, "".join(out), "".join(err))


def busy_message(port):
    return ("the port %s is busy or the board does not answer: close Thonny, `deckahedron table` or any other "
            "program using it (or unplug and replug the board), then flash again" % port)


class Mpremote:
    """Runs ``python -m mpremote connect PORT ...``; runner(argv, timeout)
    returns a CompletedProcess (the tests record the chained command)."""

    def __init__(self, port, runner=None, python=None, root="/"):
        self.port = port
        self.root = root  # the board's filesystem root in the snippets (the tests use a folder)
        self.runner = runner or _run
        self.python = python or sys.executable

    def argv(self, commands):
        out = [self.python, "-m", "mpremote", "connect", self.port]
        for i, cmd in enumerate(commands):
            out += (["+"] if i else []) + list(cmd)
        return out

    def __call__(self, commands, timeout, what, on_output=None):
        if self.port.startswith("/dev/") and not os.path.exists(self.port):
            raise NoBoard("there is no board at %s: check the USB cable (a charge-only cable has no data lines), "
                          "or list the ports with `python -m mpremote connect list`; a board in BOOTSEL mode has "
                          "no port: run without --port" % self.port)
        try:
            if on_output and self.runner is _run:
                proc = _run(self.argv(commands), timeout, on_output)
            else:
                proc = self.runner(self.argv(commands), timeout)
        except subprocess.TimeoutExpired:
            raise FlashError("the board at %s did not answer within %d s while %s: unplug and replug it, then "
                             "flash again" % (self.port, timeout, what))
        if proc.returncode != 0:
            self.fail((proc.stdout or "") + "\n" + (proc.stderr or ""), what)
        return proc.stdout or ""

    def fail(self, out, what):
        low = out.lower()
        lines = [ln.strip() for ln in out.strip().splitlines() if ln.strip()]
        said = lines[-1] if lines else "no output"
        if "no module named mpremote" in low:
            raise FlashError("mpremote is not installed for %s (make setup installs it)" % self.python)
        if any(k in low for k in ("failed to access", "could not enter raw repl", "resource busy",
                                  "could not exclusively lock", "in use by another")):
            raise PortBusy(busy_message(self.port) + " (mpremote said: %s)" % said)
        if "no device found" in low or "no device with serial" in low:
            raise NoBoard("there is no board at %s (mpremote said: %s)" % (self.port, said))
        if "romfs is not enabled" in low or "partition not found" in low:
            raise WrongFirmware("the board's MicroPython has no ROMFS partition: put the game's image on it "
                                "once (hold BOOTSEL while plugging it in, then `deckahedron flash` without --port)")
        if "too big for the target partition" in low:
            raise FlashError("the device code does not fit the board's ROMFS partition (%s)" % said)
        if "enospc" in low or "no space left" in low or re.search(r"errno 28\b|oserror: 28\b", low):
            raise FlashError("the board's filesystem filled up while %s: run with --wipe --yes (which also "
                             "deletes the saved game), or delete files you no longer need from the board" % what)
        raise FlashError("mpremote failed while %s: %s" % (what, said))


def leave_game(port, link=None):
    """Ask the firmware to leave the game for the REPL (the link's `repl`
    op); a note for the log. A board that does not answer is already at its
    REPL or runs no game: mpremote then gets in as usual."""
    from host_tools.link import DeviceError, DeviceLink, LinkError

    make = link or (lambda: DeviceLink(port, timeout=1.0, retries=1, reconnect_timeout=1.0))
    try:
        with make() as conn:
            conn.call("repl", {"confirm": True})
        return "the game on %s left for the REPL" % port
    except DeviceError as e:
        return "the firmware on %s did not leave for the REPL (%s); mpremote interrupts it" % (port, e)
    except (LinkError, OSError) as e:
        if "busy" in str(e).lower() or "lock" in str(e).lower():
            raise PortBusy(busy_message(port))
        return "no game answered on %s; mpremote gets in directly" % port


# Seconds a board has to answer the probe, mpremote's first session: a busy
# board or a slow hub is still answering well within it; a port where nothing
# answers waits it out (`flash --probe-timeout S`; the tests set it short).
PROBE_TIMEOUT = 60.0


def probe(mp, board, then_reset=False, timeout=PROBE_TIMEOUT):
    """What the board runs and holds: {"impl", "version", "mpy", "platform",
    "romfs": partition bytes (0: none), "free", "files": {path: size}};
    then_reset restarts the game afterwards (a dry run); timeout: seconds
    for the whole mpremote session."""
    paths = sorted(set(_installed_paths(board)) | set(files.SAVE_FILES) | {files.CONFIG})
    snippet = PROBE % {"paths": paths, "dirs": package_dirs(board), "root": mp.root, "config": files.CONFIG}
    out = mp([["exec", snippet]] + ([["reset"]] if then_reset else []), timeout, "asking the board what it runs")
    for line in out.splitlines():
        if line.startswith("@@DECK "):
            try:
                return json.loads(line[7:])
            except ValueError:
                break
    raise WrongFirmware("the board at %s did not answer like MicroPython (it said: %s); put the game's image on "
                        "it: hold BOOTSEL while plugging it in, then run `deckahedron flash` without --port"
                        % (mp.port, " ".join(out.split())[:200] or "nothing"))


# Left by the flasher before this one (it listed what it had copied), and the
# systems' screens from before they had a folder each: ours, and no longer read.
LEGACY = ("deckahedron.manifest",) + tuple(m + ext for m in ("ui", "menus", "gear_menus", "card_art", "facets_ui",
                                                              "draw_facets", "save_ui", "draw_save")
                                           for ext in (".py", ".mpy"))


def package_dirs(board):
    """Our package folders (boards, drivers, shared_rules), deepest first.
    On the filesystem, even empty, one hides its namesake in /rom: the
    filesystem comes first on sys.path and MicroPython imports a folder
    without __init__ as a package."""
    dirs = set()
    for s in files.device_files(board):
        d = posixpath.dirname(s.board_path)
        while d:
            dirs.add(d)
            d = posixpath.dirname(d)
    return sorted(dirs, key=lambda d: (-d.count("/"), d))


def _installed_paths(board):
    """Every path our device code may have on a filesystem: each module as
    .py and as .mpy (an earlier install of either kind)."""
    out = list(LEGACY) + [MESSAGES]
    for s in files.device_files(board):
        out.append(s.board_path)
        if s.board_path.endswith(".py") and not s.entry:
            out.append(s.board_path[:-3] + ".mpy")
    return out


def check_firmware(board, info):
    what = "%s %s" % (info.get("impl"), info.get("version"))
    if info.get("impl") != "micropython":
        raise WrongFirmware("the board runs %s, not MicroPython: put the game's image on it (hold BOOTSEL while "
                            "plugging it in, then `deckahedron flash --board %s` without --port)" % (what, board))
    if info.get("platform") != "rp2":
        raise WrongFirmware("the board runs MicroPython for %s, not for an RP2040 (rp2): is this the %s?"
                            % (info.get("platform") or "another chip", board))


class Plan:
    """What execute() does: method "romfs" or "files"; copies {board path:
    bytes} for the filesystem; deletes (board paths); the ROMFS image."""

    def __init__(self, board, method, copies, deletes, romfs=None, notes=(), kept=(), rmdirs=()):
        self.board = board
        self.method = method
        self.copies = copies
        self.deletes = deletes
        self.rmdirs = list(rmdirs)  # our package folders, which must not stay beside ROMFS
        self.romfs = romfs
        self.notes = list(notes)
        self.kept = list(kept)

    def lines(self):
        out = []
        if self.romfs is not None:
            out.append("romfs deploy  %d bytes of device code (%d files) into the ROMFS partition"
                       % (len(self.romfs), len([p for p in files.device_files(self.board) if not p.entry])))
        for p in sorted(self.deletes):
            out.append("delete        %s" % p)
        for p in self.rmdirs:
            out.append("remove folder %s (it would hide the code in ROMFS)" % p)
        for p in sorted(self.copies):
            out.append("copy          %s (%d bytes; skipped by mpremote if the same)" % (p, len(self.copies[p])))
        for p in self.kept:
            out.append("keep          %s (the saved game)" % p)
        out.append("verify        sizes and sha256 read back%s" % (", and the ROMFS region" if self.romfs else ""))
        out.append("reset")
        return out


def make_plan(board, info, wipe=False, romfs_builder=None, sleep=None):
    """sleep: the sleep mode to write into deckahedron.cfg; None keeps the
    one the board's config already names (a player's choice survives an
    update)."""
    check_firmware(board, info)
    sources = files.device_files(board)
    on_board = info.get("files") or {}
    settings, notes = files.player_settings(board, info.get("cfg"))
    if sleep is not None:
        settings["sleep"] = sleep
    elif settings.get("sleep"):
        notes.append("kept sleep=%s from the board's deckahedron.cfg" % settings["sleep"])
    cfg = files.config_text(board, settings=settings).encode()
    copies = {"main.py": [s for s in sources if s.board_path == "main.py"][0].local.read_bytes(),
              files.CONFIG: cfg}
    code = [s for s in sources if not s.entry]
    if info.get("romfs"):
        romfs = (romfs_builder or rp2040.build_romfs)(board)
        if len(romfs) > info["romfs"]:
            raise FlashError("the device code is %d bytes as ROMFS; the board's partition holds %d (an older "
                             "base image): put the current image on it in BOOTSEL mode (deckahedron flash "
                             "--board %s --drive ...; a first install: back up the save first)"
                             % (len(romfs), info["romfs"], board))
        # Our modules on the filesystem come before /rom on sys.path: they go.
        deletes = [p for p in _installed_paths(board) if p in on_board and p not in copies]
        rmdirs = [d for d in package_dirs(board) if d in (info.get("dirs") or ())]
        method = "romfs"
    else:
        romfs = None
        rmdirs = []
        method = "files"
        version = mpy.version(info.get("mpy"))
        use_mpy = version is not None and version[0] == mpy.MPY_CROSS_EMITS[0]
        notes.append("the board's MicroPython has no ROMFS partition: the modules go onto its filesystem as %s "
                     "(they take more RAM; the game's image puts them in ROMFS: hold BOOTSEL while plugging the "
                     "board in, then `deckahedron flash` without --port)" % (".mpy" if use_mpy else ".py"))
        taken = Messages()
        for s in code:
            if use_mpy and s.board_path.endswith(".py"):
                copies[s.board_path[:-3] + ".mpy"] = mpy.compile_module(s.local, s.board_path, arch=rp2040.MPY_ARCH,
                                                                       opt=mpy.FILE_ROUTE_OPT, messages=taken)
            else:
                copies[s.board_path] = s.local.read_bytes()
        taken.put(copies)
        # A module.py beside our module.mpy (or the other way round) is ours from an earlier install.
        deletes = [p for p in _installed_paths(board) if p in on_board and p not in copies]
    saves = [p for p in files.SAVE_FILES if p in on_board]
    if wipe:
        deletes += saves
        kept = []
    else:
        kept = saves
    return Plan(board, method, copies, sorted(deletes), romfs, notes, kept, rmdirs)


def execute(plan, mp, progress=None, progress_bytes=None):
    """One chained mpremote session carrying out the plan; FlashError when
    the read-back differs from what was sent. progress_bytes(what, done,
    total) follows the ROMFS deploy."""
    say = progress or (lambda text: None)
    with tempfile.TemporaryDirectory(prefix="deckahedron-flash-") as stage:
        stage = Path(stage)
        commands = []
        if plan.deletes or plan.rmdirs:
            commands.append(["exec", DELETE % {"paths": plan.deletes, "dirs": plan.rmdirs, "root": mp.root}])
        if plan.romfs is not None:
            img = stage / "device.romfs"
            img.write_bytes(plan.romfs)
            commands.append(["romfs", "deploy", str(img)])
        fs = stage / "fs"
        for path, data in plan.copies.items():
            dest = fs.joinpath(*path.split("/"))
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
        commands.append(["cp", "-r"] + sorted(str(p) for p in fs.iterdir()) + [":"])
        commands.append(["exec", VERIFY % {"paths": sorted(plan.copies), "root": mp.root, "dirs": plan.rmdirs,
                                           "romfs": len(plan.romfs) if plan.romfs is not None else 0}])
        commands.append(["reset"])
        size = sum(len(d) for d in plan.copies.values()) + len(plan.romfs or b"")
        say("one mpremote session: %s" % " + ".join(c[0] + (" " + c[1] if c[0] == "romfs" else "")
                                                     for c in commands))
        on_output = None
        if progress_bytes and plan.romfs is not None:
            total = len(plan.romfs)

            def on_output(text):
                for m in re.finditer(r"Writing at offset (\d+)", text):
                    progress_bytes("ROMFS deploy", min(int(m.group(1)) + 4096, total), total)

        out = mp(commands, 120 + size // 500, "flashing", on_output)
    check_readback(plan, out)
    return out


def check_readback(plan, out):
    got = {}
    rom = None
    left = []
    for line in out.splitlines():
        if line.startswith("@@D "):
            left.append(line[4:].strip())
        if line.startswith("@@F "):
            parts = line.split(" ", 3)
            if len(parts) == 4:
                got[parts[3]] = (parts[1], parts[2])
        elif line.startswith("@@ROM "):
            rom = line[6:].strip()
    bad = []
    for path, data in sorted(plan.copies.items()):
        want = (str(len(data)), hashlib.sha256(data).hexdigest())
        if got.get(path) != want:
            have = got.get(path)
            bad.append("%s (sent %s bytes, the board has %s)" % (
                path, want[0], "nothing" if not have or have[0] == "-" else "%s bytes, another sha256" % have[0]))
    if plan.romfs is not None and rom != hashlib.sha256(plan.romfs).hexdigest():
        bad.append("the ROMFS partition (%s)" % ("not read back" if rom is None else "another sha256"))
    if bad:
        raise FlashError("verification failed: %s; try another USB cable or port and flash again"
                         % "; ".join(bad[:4]))
    if left:
        raise FlashError("the folder %s on the board's filesystem holds files that are not the game's, and it "
                         "hides the game's code in ROMFS: move them away (mpremote fs ls :%s) and flash again"
                         % (left[0], left[0]))


def flash(board, port, wipe=False, dry_run=False, runner=None, link=None, progress=None, romfs_builder=None,
          root="/", progress_bytes=None, sleep=None, probe_timeout=PROBE_TIMEOUT):
    """Update the running board at `port`; the Plan carried out. dry_run
    reads the board and plans, changing nothing on it (the game is left for
    the probe and restarted after it). sleep: see make_plan; probe_timeout:
    seconds the board has to answer the probe."""
    say = progress or (lambda text: None)
    notes = [leave_game(port, link)]
    say(notes[-1])
    mp = Mpremote(port, runner, root=root)
    info = probe(mp, board, then_reset=dry_run, timeout=probe_timeout)
    plan = make_plan(board, info, wipe, romfs_builder, sleep=sleep)
    plan.notes = notes + plan.notes
    plan.info = info
    if dry_run:
        return plan
    execute(plan, mp, say, progress_bytes)
    return plan


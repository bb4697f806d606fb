"""`deckahedron flash` and `deckahedron image` (host_tools/flashing).

* the image: a synthetic base image in a temporary cache dir (so the test
  runs where the real base is absent) + the ROMFS of the current code + a
  littlefs that littlefs-python mounts with MicroPython's rp2 parameters;
* a board in BOOTSEL mode: a folder standing in for the RPI-RP2 drive;
* a running board: a fake mpremote that records the chained command and
  carries it out on a folder standing in for the board's filesystem, its
  `exec` snippets run by the real MicroPython unix port;
* the MagTag: a folder standing in for its CIRCUITPY drive.
"""

import ast
import hashlib
import json
import shlex
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from host_tools import boards as registry, cli
from host_tools.flashing import FlashError, PortBusy, WrongFirmware, bootsel, card_faces, files, image, magtag, rp2040, running
from tests.host.test_micropython_suite import ROOT, find_tool

RP2040_BOARDS = ("pico-epaper29", "badger2040", "badger2040w")
BOOT_OUT = ("Adafruit CircuitPython 9.1.1 on 2024-07-22; Adafruit MagTag with ESP32S2\n"
            "Board ID:adafruit_magtag_2.9_grayscale\n")


# -- the image ---------------------------------------------------------------

@pytest.fixture
def base_cache(tmp_path, monkeypatch):
    """A synthetic base image that passes rp2040.check_base_image: MicroPython
    v1.28.0's marks and the ROMFS partition tag, well below the partition."""
    code = b"MicroPython v1.28.0 synthetic" + struct.pack("<II", rp2040.ROMFS_START, rp2040.ROMFS_BYTES)
    code += bytes(range(256)) * 40
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / rp2040.BASE_IMAGE).write_bytes(rp2040.flash_to_uf2({rp2040.FLASH_BASE: code}))
    monkeypatch.setenv("DECKAHEDRON_RP2040_DIR", str(cache))
    return code


def parse_romfs(data):
    """{path: bytes} of a ROMFS image (the format mpremote.romfs writes;
    padding records skipped, as MicroPython's extmod/vfs_rom.c does)."""
    assert data[:3] == b"\xd2\xcd\x31", "no ROMFS header"
    uint = rp2040.read_uint
    size, i = uint(data, 3)
    out = {}

    def walk(buf, prefix):
        i = 0
        while i < len(buf):
            kind, i = uint(buf, i)
            n, i = uint(buf, i)
            payload, i = buf[i:i + n], i + n
            if kind in (4, 5):
                ln, j = uint(payload, 0)
                name = payload[j:j + ln].decode()
                rest = payload[j + ln:]
                if kind == 4:
                    walk(rest, prefix + name + "/")
                else:
                    k, j = uint(rest, 0)
                    m, j = uint(rest, j)
                    while k == 1:  # a padding record (rp2040.build_romfs aligns the faces)
                        k, j = uint(rest, j + m)
                        m, j = uint(rest, j)
                    assert k == 2, "only verbatim file data is expected"
                    out[prefix + name] = rest[j:j + m]

    walk(data[i:i + size], "")
    return out


def mount(region):
    import littlefs

    fs = littlefs.LittleFS(block_size=image.FS_BLOCK, block_count=image.FS_BLOCKS, mount=False, **image.LFS)
    fs.context.buffer[:] = region
    fs.mount()
    return fs


@pytest.mark.parametrize("board", RP2040_BOARDS)
def test_the_image_is_base_romfs_and_a_fresh_littlefs(base_cache, board):
    uf2 = image.build(board)
    assert len(uf2) % 512 == 0
    for off in range(0, len(uf2), 512):
        flags, addr, size, _, _, family = struct.unpack("<6I", uf2[off + 8:off + 32])
        assert flags & rp2040.UF2_FLAG_FAMILY and family == rp2040.UF2_FAMILY_RP2040
    flat = rp2040.image_bytes(rp2040.uf2_to_flash(uf2))
    assert len(flat) == rp2040.FLASH_BYTES
    assert flat[:len(base_cache)] == base_cache
    rom = parse_romfs(flat[rp2040.ROMFS_START - rp2040.FLASH_BASE:rp2040.FS_START - rp2040.FLASH_BASE])
    code = [s for s in files.device_files(board) if not s.entry]
    assert sorted(rom) == sorted([s.board_path[:-3] + ".mpy" if s.board_path.endswith(".py") else s.board_path
                                  for s in code] + [card_faces.MODULE[:-3] + ".mpy"])  # made at build time
    assert rom["boards/boards.json"] == (ROOT / "firmware/boards/boards.json").read_bytes()
    assert all(v[:1] == b"M" for k, v in rom.items() if k.endswith(".mpy"))  # compiled, not copied
    fs = mount(flat[rp2040.FS_START - rp2040.FLASH_BASE:])
    assert sorted(fs.listdir("/")) == ["deckahedron.cfg", "main.py"]  # no save: a first install
    assert fs.open("deckahedron.cfg").read() == files.config_text(board)
    assert fs.open("deckahedron.cfg").read().endswith("board=%s\n" % board)
    assert fs.open("main.py", "rb").read() == (ROOT / "firmware/entry/main.py").read_bytes()


def test_the_littlefs_takes_a_save_like_the_board(base_cache):
    """Written with the board's geometry it has room and stays mountable after writes."""
    region = image.littlefs_image({"main.py": b"x", "deckahedron.cfg": b"board=pico-epaper29\n"})
    assert len(region) == rp2040.FS_BYTES
    fs = mount(region)
    with fs.open("deck.sav", "wb") as f:
        f.write(b"s" * 20000)
    assert fs.stat("deck.sav").size == 20000


def test_make_image_writes_the_uf2(base_cache, tmp_path, capsys):
    out = tmp_path / "img.uf2"
    assert cli.main(["image", "--board", "pico-epaper29", "--out", str(out)]) == 0
    flat = rp2040.image_bytes(rp2040.uf2_to_flash(out.read_bytes()))
    assert mount(flat[rp2040.FS_START - rp2040.FLASH_BASE:]).open("deckahedron.cfg").read() == "board=pico-epaper29\n"
    assert "RPI-RP2" in capsys.readouterr().out


def test_no_base_image_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DECKAHEDRON_RP2040_DIR", str(tmp_path / "empty"))
    assert cli.main(["image", "--board", "badger2040"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "docs/rp2040.md" in err and rp2040.BASE_IMAGE in err


def test_a_stock_image_without_romfs_is_refused(tmp_path, monkeypatch, capsys):
    cache = tmp_path / "c"
    cache.mkdir()
    (cache / rp2040.BASE_IMAGE).write_bytes(rp2040.flash_to_uf2({rp2040.FLASH_BASE: b"MicroPython v1.28.0" * 50}))
    monkeypatch.setenv("DECKAHEDRON_RP2040_DIR", str(cache))
    assert cli.main(["image", "--board", "pico-epaper29", "--out", str(tmp_path / "o.uf2")]) == 2
    assert "no ROMFS partition" in capsys.readouterr().err
    assert not (tmp_path / "o.uf2").exists()


def test_code_too_big_for_the_partition_is_refused(base_cache):
    with pytest.raises(rp2040.ImageError, match="partition holds"):
        image.build("pico-epaper29", romfs=b"\xd2\xcd\x31" + bytes(rp2040.ROMFS_BYTES))


# -- BOOTSEL ---------------------------------------------------------------

@pytest.fixture
def rpi_rp2(tmp_path):
    drive = tmp_path / "RPI-RP2"
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_text("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n")
    return drive


def test_bootsel_drive_gets_the_whole_image(base_cache, rpi_rp2, capsys):
    assert cli.main(["flash", "--board", "badger2040", "--drive", str(rpi_rp2)]) == 0
    flat = rp2040.image_bytes(rp2040.uf2_to_flash((rpi_rp2 / "deckahedron-badger2040.uf2").read_bytes()))
    assert flat[:len(base_cache)] == base_cache
    # the Badger's power latch (GPIO10) is held from main.py's first line
    assert mount(flat[rp2040.FS_START - rp2040.FLASH_BASE:]).open("deckahedron.cfg").read() == \
        "hold=10\nboard=badger2040\n"
    assert "no saved game" in capsys.readouterr().out


def test_bootsel_dry_run_writes_nothing(base_cache, rpi_rp2, capsys):
    assert cli.main(["flash", "--board", "pico-epaper29", "--drive", str(rpi_rp2), "--dry-run"]) == 0
    assert sorted(p.name for p in rpi_rp2.iterdir()) == ["INFO_UF2.TXT"]
    assert "nothing on the board was changed" in capsys.readouterr().out


def test_finding_the_rpi_rp2_drive(tmp_path, rpi_rp2):
    other = tmp_path / "USB"
    other.mkdir()
    (other / "INFO_UF2.TXT").write_text("Board-ID: SAMD21\n")
    assert bootsel.find_drives([str(other), str(rpi_rp2), str(rpi_rp2)]) == [str(rpi_rp2)]


def test_a_folder_that_is_not_rpi_rp2_is_refused(base_cache, tmp_path, capsys):
    assert cli.main(["flash", "--board", "pico-epaper29", "--drive", str(tmp_path)]) == 1
    assert "not an RPI-RP2 drive" in capsys.readouterr().err


def test_picotool_errors_are_plain():
    def runner(argv, timeout):
        return subprocess.CompletedProcess(argv, 251, "", "No accessible RP-series devices in BOOTSEL mode were found.")

    with pytest.raises(FlashError, match="no board in BOOTSEL mode"):
        bootsel.load_with_picotool("x.uf2", runner)


# -- a running board: a fake mpremote on a folder, snippets on the unix port --

class FakeBoard:
    """mpremote and the board behind it: argv in, CompletedProcess out.
    `exec` runs under the MicroPython unix port with the folder as the
    board's root; `cp -r` and `romfs deploy` act on the folder and on a
    ROMFS partition; each call's argv is recorded."""

    def __init__(self, root, romfs=0, busy=False, garble=()):
        self.root = Path(root)
        self.garble = garble  # paths written wrong, and a ROMFS written wrong when "rom" is among them
        self.romfs_size = romfs
        self.romfs = b""
        self.busy = busy
        self.calls = []
        self.micropython = find_tool("micropython")

    def __call__(self, argv, timeout):
        self.calls.append(argv)
        assert argv[1:5] == ["-m", "mpremote", "connect", "FAKEPORT"]
        if self.busy:
            return subprocess.CompletedProcess(argv, 1, "", "mpremote: failed to access FAKEPORT (it may be in "
                                                            "use by another program)")
        out = []
        cmds, cur = [], []
        for a in argv[5:]:
            if a == "+":
                cmds.append(cur)
                cur = []
            else:
                cur.append(a)
        cmds.append(cur)
        for cmd in cmds:
            if cmd[0] == "exec":
                code = cmd[1].replace('"platform": sys.platform', '"platform": "rp2"')  # a Pico, as far as we say
                if self.romfs_size:  # the unix port has no vfs.rom_ioctl: stand in for it
                    code = code.replace("import vfs\n    if vfs.rom_ioctl(1) > 0:", "if 1:").replace(
                        "d = vfs.rom_ioctl(2, 0)\n        r[\"romfs\"] = len(memoryview(d))",
                        "r[\"romfs\"] = %d" % self.romfs_size)
                    code = code.replace("    import vfs\n", "").replace(
                        "memoryview(vfs.rom_ioctl(2, 0))", "open(%r, 'rb').read()" % str(self.root.parent / "rom"))
                proc = subprocess.run([self.micropython, "-c", code], capture_output=True, text=True, timeout=60)
                assert proc.returncode == 0, proc.stderr
                out.append(proc.stdout)
            elif cmd[0] == "romfs":
                assert cmd[1] == "deploy" and self.romfs_size, cmd
                self.romfs = Path(cmd[2]).read_bytes()
                if "rom" in self.garble:
                    self.romfs = self.romfs[:-1] + b"?"
                (self.root.parent / "rom").write_bytes(self.romfs + bytes(self.romfs_size - len(self.romfs)))
            elif cmd[0] == "cp":
                assert cmd[1] == "-r" and cmd[-1] == ":"
                for src in cmd[2:-1]:
                    src = Path(src)
                    if src.is_dir():
                        shutil.copytree(src, self.root / src.name, dirs_exist_ok=True)
                    else:
                        shutil.copyfile(src, self.root / src.name)
                for path in self.garble:
                    if (self.root / path).is_file():
                        (self.root / path).write_bytes(b"garbled")
            elif cmd[0] != "reset":
                raise AssertionError("unexpected mpremote command %r" % cmd)
        return subprocess.CompletedProcess(argv, 0, "".join(out), "")

    def commands(self, call=-1):
        """The mpremote commands of one call, by name."""
        names, start = [], True
        for a in self.calls[call][5:]:
            if start:
                names.append(a if a != "romfs" else "romfs")
            start = a == "+"
        return names


class FakeLink:
    def __init__(self, answer=True):
        self.sent = []
        self.answer = answer

    def __call__(self):
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def call(self, op, args):
        from host_tools.link import LinkError

        self.sent.append((op, args))
        if not self.answer:
            raise LinkError("no answer")
        return {"ok": True}


def small_romfs(board):
    return rp2040.build_romfs(board)


@pytest.fixture
def board_fs(tmp_path):
    root = tmp_path / "flash"
    root.mkdir()
    return root


def flash_running(fake, board="pico-epaper29", **kw):
    link = kw.pop("link", FakeLink())
    return running.flash(board, "FAKEPORT", runner=fake, link=link, root=str(fake.root) + "/", **kw), link


def test_romfs_board_one_chained_session_keeps_the_save(board_fs):
    (board_fs / "deck.sav").write_bytes(b"the save")
    (board_fs / "app.mpy").write_bytes(b"an old install that would shadow /rom")
    (board_fs / "deckahedron.manifest").write_text("# the old flasher's list\n")
    fake = FakeBoard(board_fs, romfs=rp2040.ROMFS_BYTES)
    plan, link = flash_running(fake)
    assert link.sent == [("repl", {"confirm": True})]  # out of the game first
    assert len(fake.calls) == 2  # the probe, then ONE session for the whole flash
    assert fake.commands() == ["exec", "romfs", "cp", "exec", "reset"]
    assert plan.method == "romfs" and plan.deletes == ["app.mpy", "deckahedron.manifest"]
    assert plan.kept == ["deck.sav"]
    assert parse_romfs(fake.romfs)["boards/boards.json"] == (ROOT / "firmware/boards/boards.json").read_bytes()
    assert sorted(p.name for p in board_fs.iterdir()) == ["deck.sav", "deckahedron.cfg", "main.py"]
    assert (board_fs / "deck.sav").read_bytes() == b"the save"
    assert (board_fs / "deckahedron.cfg").read_text() == "board=pico-epaper29\n"


def test_a_running_badger_gets_the_hold_line_too(board_fs):
    (board_fs / "deck.sav").write_bytes(b"the save")
    fake = FakeBoard(board_fs, romfs=rp2040.ROMFS_BYTES)
    flash_running(fake, board="badger2040w")
    assert (board_fs / "deckahedron.cfg").read_text() == "hold=10\nboard=badger2040w\n"
    assert (board_fs / "deck.sav").read_bytes() == b"the save"


@pytest.mark.parametrize("board", sorted(registry.real_boards()))
def test_the_config_holds_the_registrys_power_latch_and_names_the_board(board):
    latch = registry.board(board)["pins"].get("power_latch")
    lines = files.config_text(board).splitlines()
    assert lines[-1] == "board=" + board
    assert lines[:-1] == ([] if latch is None else ["hold=%d" % latch])
    assert ("hold=10" in lines) == board.startswith("badger")


def test_the_hold_pin_is_read_from_the_registry_not_a_constant(tmp_path):
    root = tmp_path / "repo"
    (root / "firmware" / "boards").mkdir(parents=True)
    data = json.loads((ROOT / "firmware/boards/boards.json").read_text())
    data["boards"]["badger2040"]["pins"]["power_latch"] = 7
    del data["boards"]["badger2040w"]["pins"]["power_latch"]
    (root / "firmware/boards/boards.json").write_text(json.dumps(data))
    assert files.config_text("badger2040", root) == "hold=7\nboard=badger2040\n"
    assert files.config_text("badger2040w", root) == "board=badger2040w\n"
    with pytest.raises(KeyError):
        files.config_text("badger2041", root)


def test_an_update_keeps_the_players_sleep_mode(board_fs):
    """hardware/badger2040.md: a player who chose sleep=dormant keeps it
    when the game is updated (the flasher writes the config afresh)."""
    (board_fs / "deckahedron.cfg").write_text("hold=10\nboard=badger2040\nsleep=dormant\nseed=3\n")
    fake = FakeBoard(board_fs, romfs=rp2040.ROMFS_BYTES)
    plan, _ = flash_running(fake, board="badger2040")
    assert (board_fs / "deckahedron.cfg").read_text() == "hold=10\nboard=badger2040\nsleep=dormant\n"
    assert "kept sleep=dormant from the board's deckahedron.cfg" in plan.notes


def test_sleep_given_to_the_flasher_wins_over_the_boards(board_fs):
    (board_fs / "deckahedron.cfg").write_text("hold=10\nboard=badger2040\nsleep=dormant\n")
    fake = FakeBoard(board_fs, romfs=rp2040.ROMFS_BYTES)
    flash_running(fake, board="badger2040", sleep="off")
    assert (board_fs / "deckahedron.cfg").read_text() == "hold=10\nboard=badger2040\nsleep=off\n"


@pytest.mark.parametrize("board,line,words", [
    ("badger2040", "sleep=deep", "does not know (dormant, off)"),
    ("pico-epaper29", "sleep=off", "has one way to sleep"),
])
def test_a_sleep_mode_the_board_lacks_is_dropped_with_a_note(board_fs, board, line, words):
    (board_fs / "deckahedron.cfg").write_text("board=%s\n%s\n" % (board, line))
    fake = FakeBoard(board_fs, romfs=rp2040.ROMFS_BYTES)
    plan, _ = flash_running(fake, board=board)
    assert (board_fs / "deckahedron.cfg").read_text() == files.config_text(board)
    assert any(words in n for n in plan.notes)


def test_the_probe_waits_as_long_as_the_caller_says_60_s_by_default(board_fs):
    timeouts = []

    class Timed(FakeBoard):
        def __call__(self, argv, timeout):
            timeouts.append(timeout)
            return FakeBoard.__call__(self, argv, timeout)

    fake = Timed(board_fs, romfs=rp2040.ROMFS_BYTES)
    flash_running(fake, dry_run=True)  # a dry run: the probe alone
    flash_running(fake, dry_run=True, probe_timeout=2.5)
    assert timeouts == [60, 2.5] and running.PROBE_TIMEOUT == 60


@pytest.mark.parametrize("text", ["0", "-1", "soon", "nan", "inf"])
def test_a_probe_timeout_that_is_no_time_is_one_line_and_exit_2(text, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["flash", "--board", "pico-epaper29", "--port", "/dev/ttyX", "--probe-timeout", text])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "seconds above 0" in err and err.count("\n") == 1


def test_the_config_refuses_a_sleep_mode_the_board_lacks():
    assert files.config_text("badger2040w", settings={"sleep": "dormant"}) == \
        "hold=10\nboard=badger2040w\nsleep=dormant\n"
    with pytest.raises(FlashError, match="no sleep mode 'deep'"):
        files.config_text("badger2040", settings={"sleep": "deep"})


@pytest.mark.parametrize("argv,words", [
    (["flash", "--board", "pico-epaper29", "--sleep", "off", "--port", "/dev/ttyX"], "one way to sleep"),
    (["flash", "--board", "badger2040", "--sleep", "deep", "--port", "/dev/ttyX"], "sleeps dormant or off"),
    (["image", "--board", "badger2040w", "--sleep", "nap"], "sleeps dormant or off"),
])
def test_a_bad_sleep_argument_is_one_line_and_exit_2(argv, words, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and words in err and err.count("\n") == 1


def test_the_image_carries_the_sleep_mode(base_cache, tmp_path):
    out = tmp_path / "img.uf2"
    assert cli.main(["image", "--board", "badger2040", "--sleep", "dormant", "--out", str(out)]) == 0
    flat = rp2040.image_bytes(rp2040.uf2_to_flash(out.read_bytes()))
    assert mount(flat[rp2040.FS_START - rp2040.FLASH_BASE:]).open("deckahedron.cfg").read() == \
        "hold=10\nboard=badger2040\nsleep=dormant\n"


def test_wipe_deletes_the_save(board_fs):
    (board_fs / "deck.sav").write_bytes(b"the save")
    (board_fs / "deck.tmp").write_bytes(b"half a save")
    fake = FakeBoard(board_fs, romfs=rp2040.ROMFS_BYTES)
    plan, _ = flash_running(fake, wipe=True)
    assert sorted(plan.deletes) == ["deck.sav", "deck.tmp"]
    assert not (board_fs / "deck.sav").exists() and not (board_fs / "deck.tmp").exists()


def test_stock_micropython_gets_mpy_files_that_the_unix_port_imports(board_fs):
    (board_fs / "deck").mkdir()
    (board_fs / "deck" / "ui.py").write_text("raise RuntimeError('a stale .py that would shadow ui.mpy')\n")
    (board_fs / "menus.mpy").write_bytes(b"an earlier install's module, before deck/ held it")
    fake = FakeBoard(board_fs, romfs=0)
    plan, _ = flash_running(fake)
    assert plan.method == "files" and "deck/ui.py" in plan.deletes and "menus.mpy" in plan.deletes
    assert fake.commands() == ["exec", "cp", "exec", "reset"]
    assert (board_fs / "shared_rules" / "deck" / "cards.mpy").is_file() and not (board_fs / "deck" / "ui.py").exists()
    proc = subprocess.run([fake.micropython, "-c", "import sys; sys.path.insert(0, %r); "
                           "from shared_rules.deck import cards; import boards; print(boards.spec('pico-epaper29')['class'])"
                           % str(board_fs)], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "PicoEpaper29Board", proc.stderr


def test_dry_run_changes_nothing_and_restarts_the_game(board_fs, capsys):
    (board_fs / "deck.sav").write_bytes(b"the save")
    fake = FakeBoard(board_fs, romfs=rp2040.ROMFS_BYTES)
    plan, _ = flash_running(fake, dry_run=True)
    assert len(fake.calls) == 1 and fake.commands() == ["exec", "reset"]
    assert sorted(p.name for p in board_fs.iterdir()) == ["deck.sav"]
    assert any("romfs deploy" in ln for ln in plan.lines()) and any("keep" in ln for ln in plan.lines())


def test_a_board_that_does_not_answer_the_link_is_still_flashed(board_fs):
    fake = FakeBoard(board_fs, romfs=rp2040.ROMFS_BYTES)
    plan, _ = flash_running(fake, link=FakeLink(answer=False))
    assert "mpremote gets in directly" in plan.notes[0]


def test_a_bad_readback_fails_the_flash(board_fs):
    fake = FakeBoard(board_fs, romfs=rp2040.ROMFS_BYTES, garble=("main.py", "rom"))
    with pytest.raises(FlashError, match="verification failed: main.py .*the ROMFS partition"):
        flash_running(fake)


@pytest.mark.parametrize("info, words", [
    ({"impl": "circuitpython", "version": "9.1.1"}, "not MicroPython"),
    ({"impl": "micropython", "version": "1.28.0", "platform": "esp32"}, "not for an RP2040"),
])
def test_wrong_firmware_messages(info, words):
    with pytest.raises(WrongFirmware, match=words):
        running.make_plan("pico-epaper29", info)


@pytest.mark.parametrize("said, kind, words", [
    ("mpremote: failed to access FAKEPORT (it may be in use by another program)", PortBusy, "busy"),
    ("mpremote: ROMFS is not enabled on this device", WrongFirmware, "no ROMFS partition"),
    ("ROMFS image is too big for the target partition", FlashError, "does not fit"),
    ("mpremote: no device found", FlashError, "no board at"),
])
def test_mpremote_errors_become_one_plain_line(said, kind, words):
    mp = running.Mpremote("FAKEPORT", lambda a, t: subprocess.CompletedProcess(a, 1, "", said))
    with pytest.raises(kind, match=words) as e:
        mp([["reset"]], 10, "resetting")
    assert "\n" not in str(e.value)


def test_missing_port_is_no_board(capsys):
    assert cli.main(["flash", "--board", "pico-epaper29", "--port", "/dev/ttyNOSUCH0"]) == 1
    err = capsys.readouterr().err
    assert "there is no board at /dev/ttyNOSUCH0" in err and err.count("\n") == 1


def test_wipe_needs_yes(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["flash", "--board", "pico-epaper29", "--port", "/dev/ttyX", "--wipe"])
    assert e.value.code == 2 and "--yes" in capsys.readouterr().err


def test_the_chained_command_line_is_one_mpremote_process(board_fs):
    fake = FakeBoard(board_fs, romfs=rp2040.ROMFS_BYTES)
    flash_running(fake)
    line = shlex.join(fake.calls[-1][2:9])
    assert line.startswith("mpremote connect FAKEPORT romfs deploy")
    i = fake.calls[-1].index("romfs")
    assert fake.calls[-1][i:i + 2] == ["romfs", "deploy"] and fake.calls[-1][i + 2].endswith(".romfs")


# -- the MagTag --------------------------------------------------------------

@pytest.fixture
def drive(tmp_path):
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text(BOOT_OUT)
    return d


SAVED = ("deckahedron/deck.sav", "deckahedron/slot.pad", "deckahedron/s0/deck.sav", "deckahedron/s1/deck.sav")


def test_magtag_gets_compiled_modules_skips_the_same_keeps_the_save(drive):
    for p in SAVED:  # the save in its slots and one from before slots (boards/fat_slots.py)
        (drive / p).parent.mkdir(parents=True, exist_ok=True)
        (drive / p).write_bytes(b"save")
    (drive / "app.py").write_text("# an install from before: CircuitPython would import it before app.mpy")
    plan = magtag.flash(drive)
    assert (drive / "code.py").read_bytes() == (ROOT / "firmware/entry/code.py").read_bytes()
    assert (drive / "boot.py").is_file() and (drive / "boards" / "boards.json").is_file()
    assert (drive / "boards" / "magtag.mpy").read_bytes()[:2] == b"C\x06"  # CircuitPython's flavour of mpy v6
    assert not (drive / "app.py").exists() and "app.py" in plan.deletes
    assert not [p for p in drive.rglob("*.py") if p.name not in ("code.py", "boot.py")]
    assert plan.kept == list(SAVED) and all((drive / p).read_bytes() == b"save" for p in SAVED)
    assert "keep          deckahedron/s0/deck.sav (the saved game)" in plan.lines()
    assert (drive / "shared_rules" / "messages.txt").is_file()  # the errors' sentences (flashing/messages.py)
    again = magtag.flash(drive)
    assert again.copies == {} and len(again.same) == len(files.device_files("magtag")) + 1
    assert magtag.flash(drive, wipe=True).deletes == list(SAVED) and not any((drive / p).exists() for p in SAVED)


def test_the_flashers_save_paths_on_circuitpy_are_the_boards(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "firmware"))
    import saves
    from boards import fat_slots
    from boards.circuitpython import CircuitPythonBoard

    names = (saves.SAVE, saves.TMP, saves.BAD, fat_slots.PAD) + tuple(d + "/" + saves.SAVE for d in fat_slots.DIRS)
    assert sorted(files.CIRCUITPY_SAVES) == sorted(CircuitPythonBoard.FLASH_DIR.strip("/") + "/" + n for n in names)


def test_magtag_on_circuitpython_8_gets_source_and_a_note(drive):
    (drive / "boot_out.txt").write_text(BOOT_OUT.replace("9.1.1", "8.2.10"))
    (drive / "app.mpy").write_bytes(b"C\x06 from a CircuitPython 9 install")
    plan = magtag.flash(drive)
    assert (drive / "app.py").read_bytes() == (ROOT / "firmware/app.py").read_bytes()
    assert not list(drive.rglob("*.mpy"))
    assert any("cannot load the game's compiled modules" in n for n in plan.notes)


def test_the_magtags_modules_are_micropythons_bytecode_with_circuitpythons_mark(drive, tmp_path):
    """Everything but the first byte is what MicroPython's mpy-cross writes
    (host_tools/flashing/mpy.py says why CircuitPython then loads it); with
    the mark put back, the MicroPython unix port imports them and plays."""
    magtag.flash(drive)
    back = tmp_path / "mp"
    for f in drive.rglob("*.mpy"):
        data = f.read_bytes()
        assert data[0:1] == b"C" and data[3] == 31  # 31-bit small ints, as on the ESP32-S2
        dest = back / f.relative_to(drive)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(b"M" + data[1:])
    (back / "shared_rules" / "__init__.py").write_text("")
    script = ("import sys\nsys.path[:0] = [%r]\nfrom shared_rules.deck.game import Game\ng = Game.new(seed=3)\n"
              "r = g.do('flip', {'attr': 'str'})\nassert r['cards']\nimport shared_rules.deck.game as m\nprint(m.__file__)\n"
              % str(back))
    proc = subprocess.run([find_tool("micropython"), "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().endswith("game.mpy")


@pytest.mark.parametrize("version,waits", [("9.2.1", False), ("10.2.1", False), ("10.3.0-alpha.4", True)])
def test_a_circuitpython_that_waits_for_safe_mode_at_a_wake_gets_a_note(drive, version, waits):
    (drive / "boot_out.txt").write_text(BOOT_OUT.replace("9.1.1", version))
    said = lambda plan: any("CIRCUITPY_SAFE_MODE_DELAY = 0" in n for n in plan.notes)  # noqa: E731
    assert said(magtag.make_plan(drive)) == waits
    (drive / "settings.toml").write_text('CIRCUITPY_WIFI_SSID = "x"\nCIRCUITPY_SAFE_MODE_DELAY = 0\n')
    assert not said(magtag.make_plan(drive))


def test_magtag_wrong_drive(tmp_path, drive):
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 9.1.1 on 2024-07-22; Adafruit Feather M4\n")
    with pytest.raises(WrongFirmware, match="not a MagTag"):
        magtag.flash(drive)
    with pytest.raises(WrongFirmware, match="no boot_out.txt"):
        magtag.flash(tmp_path)


def test_magtag_read_only_drive_is_refused_before_copying(drive, monkeypatch):
    monkeypatch.setattr(magtag.os, "access", lambda p, m: False)
    with pytest.raises(FlashError, match="Hold button A"):
        magtag.flash(drive)
    assert not (drive / "code.py").exists()


def test_magtag_cli_dry_run(drive, capsys):
    assert cli.main(["flash", "--board", "magtag", "--drive", str(drive), "--dry-run"]) == 0
    assert "copy          code.py" in capsys.readouterr().out and not (drive / "code.py").exists()


# -- which files -------------------------------------------------------------

def _imports(path):
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(node.module + "." + a.name for a in node.names)
    return names


@pytest.mark.parametrize("board", sorted(registry.real_boards()))
def test_device_files_hold_everything_the_board_can_import(board):
    """Every module of ours that the board's files import (lazily too) is among them."""
    have = set(s.board_path for s in files.device_files(board))
    for s in files.device_files(board):
        if not s.board_path.endswith(".py"):
            continue
        for name in _imports(s.local):
            parts = name.split(".")
            base = ROOT if parts[0] == "shared_rules" else ROOT / "firmware"
            mod = "/".join(parts) + ".py"
            if (base / mod).is_file() and mod != "shared_rules/deck/walk.py":
                assert mod in have, "%s imports %s, which %s does not get" % (s.board_path, mod, board)
    assert "boards/boards.json" in have and "shared_rules/deck/walk.py" not in have
    assert not [p for p in have if p.endswith("/words.py")]  # the host's words; a board has results.py


def test_the_registry_boards_have_guides_and_usb_ids():
    for name, entry in registry.real_boards().items():
        assert (ROOT / entry["guide"]).is_file(), name
        assert all(len(u.split(":")) == 2 for u in entry["usb"]), name
        assert entry["runtime"] in ("micropython", "circuitpython")


def test_hash_helper_agrees_with_hashlib():
    assert hashlib.sha256(b"x").hexdigest() == running.hashlib.sha256(b"x").hexdigest()


def test_the_mpremote_runner_streams_progress_and_times_out():
    import sys

    seen = []
    script = ("import sys\nfor o in (0, 4096):\n"
              "    sys.stdout.write('\\rWriting at offset %d' % o); sys.stdout.flush()\n")
    proc = running._run([sys.executable, "-c", script], 30, seen.append)
    assert proc.returncode == 0 and "".join(seen) == proc.stdout == "\rWriting at offset 0\rWriting at offset 4096"
    with pytest.raises(subprocess.TimeoutExpired):
        running._run([sys.executable, "-c", "import time; time.sleep(30)"], 0.5)


def test_romfs_deploy_progress_reaches_the_whole_image(board_fs):
    plan = running.make_plan("pico-epaper29", {"impl": "micropython", "version": "1.28.0", "platform": "rp2",
                                               "romfs": rp2040.ROMFS_BYTES, "files": {}})

    class Chatty(running.Mpremote):
        """Says what mpremote's romfs deploy says while it writes, then answers as the board."""

        def __call__(self, commands, timeout, what, on_output=None):
            for offset in range(0, len(plan.romfs), 4096):
                on_output("\rWriting at offset %d" % offset)
            return running.Mpremote.__call__(self, commands, timeout, what)

    marks = []
    mp = Chatty("FAKEPORT", FakeBoard(board_fs, romfs=rp2040.ROMFS_BYTES), root=str(board_fs) + "/")
    running.execute(plan, mp, progress_bytes=lambda what, done, total: marks.append((done, total)))
    assert marks[-1] == (len(plan.romfs), len(plan.romfs))
    assert [d for d, _ in marks] == sorted(d for d, _ in marks)


def test_from_a_files_install_to_romfs_no_folder_is_left_to_hide_rom(board_fs):
    """An empty boards/ on the filesystem would be imported instead of
    /rom/boards (MicroPython imports a folder as a package, and the
    filesystem comes first on sys.path)."""
    flash_running(FakeBoard(board_fs, romfs=0))
    assert (board_fs / "boards" / "boards.json").is_file() and (board_fs / "shared_rules").is_dir()
    plan, _ = flash_running(FakeBoard(board_fs, romfs=rp2040.ROMFS_BYTES))
    assert set(plan.rmdirs) == {"boards", "deck", "drivers", "facets", "save2d6", "shared_rules", "shared_rules/deck",
                                "shared_rules/facets", "shared_rules/save2d6"}
    assert sorted(p.name for p in board_fs.iterdir()) == ["deckahedron.cfg", "main.py"]


def test_a_foreign_file_in_our_folder_is_a_plain_error(board_fs):
    (board_fs / "boards").mkdir()
    (board_fs / "boards" / "mine.py").write_text("X = 1\n")
    with pytest.raises(FlashError, match="the folder boards .* hides the game's code in ROMFS"):
        flash_running(FakeBoard(board_fs, romfs=rp2040.ROMFS_BYTES))
    assert (board_fs / "boards" / "mine.py").is_file()


def test_a_board_whose_romfs_partition_is_too_small_is_told_to_take_the_image(board_fs):
    # A board on the base image of the older flash map (256 KiB of ROMFS)
    # once the device code outgrows it: nothing is written.
    (board_fs / "deck.sav").write_bytes(b"the save")
    before = sorted(p.name for p in board_fs.iterdir())
    with pytest.raises(FlashError, match="partition holds 4096 .*BOOTSEL mode .*--board pico-epaper29"):
        flash_running(FakeBoard(board_fs, romfs=4096))
    assert sorted(p.name for p in board_fs.iterdir()) == before


def _no_board_attached(monkeypatch):
    from host_tools.commands import flash as flash_cmd

    monkeypatch.setattr(bootsel, "find_drives", lambda *a: [])
    monkeypatch.setattr(bootsel, "picotool", lambda *a: None)
    monkeypatch.setattr(flash_cmd, "_rp2040_ports", lambda: [])
    monkeypatch.setattr(magtag, "find_drives", lambda *a: [])

    def no_base(board=None):
        raise rp2040.ImageError("no base image")

    monkeypatch.setattr(rp2040, "base_image_path", no_base)


def test_a_dry_run_with_no_board_shows_the_plan_for_the_named_board(monkeypatch, capsys):
    _no_board_attached(monkeypatch)
    assert cli.main(["flash", "--board", "pico-epaper29", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("no pico-epaper29 attached: the plan for one")
    assert "deckahedron-pico-epaper29.uf2 (not built here: the base image is not in the cache" in out
    for line in ("  0x%08X  ROMFS partition, mounted at /rom:" % rp2040.ROMFS_START,
                 "/rom/app.mpy                      <- firmware/app.py",
                 "/rom/boards/pico_epaper29.mpy     <- firmware/boards/pico_epaper29.py",
                 "/rom/card_faces.mpy               <- drawn by host_tools/card_faces.py",
                 "  0x%08X  a fresh filesystem: /main.py <- firmware/main.py" % rp2040.FS_START,
                 "running (--port P)"):
        assert line in out
    assert "badger" not in out  # the named board's files only
    assert cli.main(["flash", "--board", "magtag", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "CIRCUITPY/code.py" in out and "CIRCUITPY/boards/magtag.py" in out and "drivers/" not in out
    assert cli.main(["flash", "--board", "pico-epaper29-cp", "--dry-run"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "CIRCUITPY/lib/adafruit_ssd1680.py <- the PyPI package adafruit-circuitpython-ssd1680" in said


def test_without_dry_run_no_board_is_still_an_error(monkeypatch, capsys):
    _no_board_attached(monkeypatch)
    assert cli.main(["flash", "--board", "pico-epaper29"]) == 1
    assert "no board found" in capsys.readouterr().err

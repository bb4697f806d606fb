"""The RP2040 base image checks and UF2 handling (host_tools/flashing/rp2040.py):
a wrong image is refused with a sentence that says what is wrong, before
anything is written to a board or booted in the emulator."""

import struct

import pytest

from host_tools.flashing import rp2040 as R


def fake_base(version=b"MicroPython v1.28.0 on 2026-01-01", romfs=(R.ROMFS_START, R.ROMFS_BYTES), size=4096):
    body = bytearray(size)
    body[100:100 + len(version)] = version
    if romfs:
        tag = struct.pack("<II", *romfs)
        body[400:400 + len(tag)] = tag
    return {R.FLASH_BASE: bytes(body)}


def test_uf2_round_trip_keeps_every_byte_at_its_address():
    chunks = {R.FLASH_BASE: bytes(range(256)) * 3, R.ROMFS_START: b"\xd2\xcd\x31" + b"x" * 300}
    back = R.uf2_to_flash(R.flash_to_uf2(chunks))
    assert R.image_bytes(back)[:768] == chunks[R.FLASH_BASE]
    flat = R.image_bytes(back)
    assert flat[R.ROMFS_START - R.FLASH_BASE:][:303] == chunks[R.ROMFS_START]


def test_uf2_blocks_name_the_rp2040_family():
    data = R.flash_to_uf2({R.FLASH_BASE: b"\0" * 600})
    assert len(data) == 3 * 512
    for off in range(0, len(data), 512):
        flags, family = struct.unpack_from("<I", data, off + 8)[0], struct.unpack_from("<I", data, off + 28)[0]
        assert flags & R.UF2_FLAG_FAMILY and family == R.UF2_FAMILY_RP2040


def test_not_a_uf2_is_refused_in_words():
    with pytest.raises(R.ImageError, match="not a UF2"):
        R.uf2_to_flash(b"\0" * 511)
    with pytest.raises(R.ImageError, match="no UF2 magic"):
        R.uf2_to_flash(b"\0" * 512)


def test_a_uf2_for_another_chip_is_refused():
    data = bytearray(R.flash_to_uf2({R.FLASH_BASE: b"\0" * 16}))
    struct.pack_into("<I", data, 28, 0xADA52840)  # nRF52840
    with pytest.raises(R.ImageError, match="another chip"):
        R.uf2_to_flash(bytes(data))


def test_the_base_image_check_accepts_ours():
    R.check_base_image(fake_base())


@pytest.mark.parametrize("kwargs, words", [
    ({"romfs": None}, "no ROMFS partition"),
    ({"romfs": (R.ROMFS_START, 128 * 1024)}, "no ROMFS partition"),
    ({"romfs": (0x10060000, 256 * 1024)}, "flash map before 2026-11-27; build the Deckahedron base"),
    ({"version": b"MicroPython v1.27.0"}, "not MicroPython v1.28.0"),
    ({"size": R.ROMFS_START - R.FLASH_BASE + 4}, "runs into the ROMFS partition"),
])
def test_the_base_image_check_says_what_is_wrong(kwargs, words):
    with pytest.raises(R.ImageError, match=words):
        R.check_base_image(fake_base(**kwargs))


def test_the_stock_image_check_takes_the_official_map_and_refuses_ours():
    stock = fake_base(romfs=None)
    R.check_stock_image(stock)
    with pytest.raises(R.ImageError, match="no ROMFS partition"):
        R.check_base_image(stock)
    with pytest.raises(R.ImageError, match="the Deckahedron base image"):
        R.check_stock_image(fake_base())
    big = {R.FLASH_BASE: stock[R.FLASH_BASE] + bytes(R.STOCK_FS_START - R.FLASH_BASE)}
    with pytest.raises(R.ImageError, match="runs into the stock littlefs at 0x100a0000"):
        R.check_stock_image(big)
    assert R.STOCK_FS_START == 0x100A0000 and R.STOCK_FS_BYTES == 1408 * 1024  # ports/rp2's default


def test_the_official_image_in_the_cache_is_the_stock_map():
    path = R.cache_dir() / R.STOCK_IMAGE
    if not path.is_file():
        pytest.skip("no official MicroPython image in %s" % R.cache_dir())
    assert R.stock_image_path() == path
    with pytest.raises(R.ImageError, match="no ROMFS partition"):
        R.check_base_image(R.uf2_to_flash(path.read_bytes()))


def test_a_missing_base_image_names_the_folder_and_the_doc(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKAHEDRON_RP2040_DIR", str(tmp_path))
    with pytest.raises(R.ImageError) as e:
        R.base_image_path()
    assert str(tmp_path) in str(e.value) and "docs/rp2040.md" in str(e.value)
    with pytest.raises(R.ImageError, match="bootrom"):
        R.bootrom_path()


def test_the_device_code_fits_the_romfs_partition_and_leaves_entry_files_out():
    image = R.build_romfs("pico-epaper29")
    assert image[:3] == b"\xd2\xcd\x31"  # mpremote's ROMFS header
    assert len(image) <= R.ROMFS_BYTES
    from tests.host.flashing.test_flash import parse_romfs

    names = set(parse_romfs(image))  # names, not bytes: the registry's text may mention main.py
    assert "app.mpy" in names and "boards/pico_epaper29.mpy" in names and "boards/boards.json" in names
    assert not names & {"main.py", "main.mpy"}


def test_the_same_code_gives_the_same_romfs_bytes():
    # A deploy can be skipped, and an image checked, only if building is reproducible.
    assert R.build_romfs("pico-epaper29") == R.build_romfs("pico-epaper29")


# -- the device code's names, frozen into the base image ----------------------

def compile_mpy(tmp_path, source, name="m.py"):
    from host_tools.flashing import mpy

    src = tmp_path / name
    src.write_text(source)
    return mpy.compile_module(src, name, arch=R.MPY_ARCH)


def test_mpy_names_are_what_a_module_interns_when_it_loads(tmp_path):
    data = compile_mpy(tmp_path, "def reshuffle_when_exhausted(deck):\n"
                                 "    deck.append('wound')\n    return 'a much longer sentence'\n")
    names = R.mpy_names(data)
    assert "reshuffle_when_exhausted" in names and "deck" in names and "wound" in names
    assert "append" not in names  # the firmware's own name: static, no slot at load
    assert "a much longer sentence" not in names  # over 10 bytes: a str object, not a name


def test_mpy_strings_are_the_str_constants_tuples_included(tmp_path):
    data = compile_mpy(tmp_path, "X = ('ab', ('nested words here', b'raw bytes too', 3, None), 2.5)\n"
                                 "def f():\n    return 'a much longer sentence', 12345678901234567890\n")
    strings = R.mpy_strings(data)
    assert {"ab", "nested words here", "a much longer sentence"} <= set(strings)
    assert "raw bytes too" not in strings  # bytes stay bytes


def test_mpy_tables_refuse_what_is_not_an_mpy_of_format_6():
    for bad in (b"M\x05\x02\x1f\x00\x00", b"def f(): pass\n"):
        with pytest.raises(R.ImageError, match="format 6"):
            R.mpy_names(bad)
        with pytest.raises(R.ImageError, match="format 6"):
            R.mpy_strings(bad)


def test_the_names_mpy_makes_every_device_name_and_string_static():
    # The base image freezes it: a name or string it lacks costs heap on
    # every board (docs/rp2040.md, "The base image").
    device = R.device_names()
    assert {"flip", "reshuffle", "kbd_intr", "%-8s %5.1f%%"} <= set(device)
    assert " vs %d: %s" not in device  # Facets' words.py: the host's phrasing is not on a board
    assert any(len(n) > 40 for n in device)  # the long messages, not only names
    assert set(device) <= set(R.mpy_names(R.names_mpy(device)))
    assert all(len(n.encode()) <= R.NAME_MAX_BYTES for n in device)  # a longer one cannot be a name


def test_the_names_mpy_is_an_mpy_that_mpy_cross_tools_read(tmp_path):
    # The splice must leave a well-formed file: MicroPython's unix port
    # imports it (an empty module) and its names are then interned.
    odd = ["ok", "pass", "a b", "x'y\"z", "é", "line\nbreak", "%d %s of %d: " * 5]
    data = R.names_mpy(odd)
    assert R.mpy_names(data)[-len(odd):] == odd
    (tmp_path / "_deckahedron_names.mpy").write_bytes(data)
    import subprocess

    from host_tools.sim.unixport import find_micropython

    out = subprocess.run([find_micropython(), "-c", "import sys; sys.path.insert(0, %r); import _deckahedron_names; "
                          "print('ok')" % str(tmp_path)], capture_output=True, text=True, timeout=30)
    assert out.stdout.strip() == "ok", out.stderr


def test_base_names_cli_writes_the_module_and_says_how_many(tmp_path, capsys):
    from host_tools import cli

    out = tmp_path / R.NAMES_MODULE
    assert cli.main(["image", "--base-names", str(out)]) == 0
    said = capsys.readouterr().out
    assert str(out) in said and "docs/rp2040.md" in said
    assert out.read_bytes() == R.names_mpy()
    assert "%d names and strings" % len(R.device_names()) in said


@pytest.mark.parametrize("argv, words", [
    (["image"], "say which board: --board"),
    (["image", "--base-names", "/proc/no/such/dir/names.py"], "cannot write /proc/no/such/dir/names.py"),
    (["image", "--base-names", "n.mpy", "--board", "badger2040"], "leave out --board, --out and --sleep"),
])
def test_base_names_cli_mistakes_are_one_line_and_exit_2(argv, words, capsys):
    from host_tools import cli

    try:
        code = cli.main(argv)
    except SystemExit as e:  # usage mistakes leave through argparse's way out
        code = e.code
    err = capsys.readouterr().err
    assert code == 2
    assert words in err and err.count("\n") == 1


def test_unfrozen_names_are_those_the_image_lacks():
    names = ["reshuffle_deck", "exhaustion", "flip"]
    base = fake_base()
    body = bytearray(base[R.FLASH_BASE])
    body[1000:1000 + 27] = b"\0reshuffle_deck\0exhaustionX"  # no terminator: not the C string
    assert R.unfrozen_names({R.FLASH_BASE: bytes(body)}, names) == ["exhaustion"]
    body[1026] = 0
    assert R.unfrozen_names({R.FLASH_BASE: bytes(body)}, names) == []  # flip: too short to tell


def test_an_emulated_boards_littlefs_of_the_older_flash_map_keeps_its_save(tmp_path):
    # Board folders made before the map changed (1408 KiB of littlefs) hold
    # a player's save: `deckahedron sim --dir` must not lose it.
    from host_tools.sim import emulated as emuboards

    old = emuboards._littlefs(1408 * 1024 // emuboards.LFS_BLOCK)
    old.format()
    old.mount()
    with old.open("deck.sav", "wb") as f:
        f.write(b"the save")
    old.makedirs("logs", exist_ok=True)
    with old.open("logs/crash.txt", "wb") as f:
        f.write(b"a crash")
    with old.open("main.py", "wb") as f:
        f.write(b"old main")
    path = tmp_path / "littlefs.img"
    path.write_bytes(bytes(old.context.buffer))
    emuboards.prepare_littlefs(str(path), {"main.py": b"new main"})
    assert path.stat().st_size == R.FS_BYTES
    assert emuboards.read_littlefs(str(path), "deck.sav") == b"the save"
    assert emuboards.read_littlefs(str(path), "logs/crash.txt") == b"a crash"
    assert emuboards.read_littlefs(str(path), "main.py") == b"new main"


def test_the_romfs_writer_is_mpremotes_layout_when_nothing_needs_padding(tmp_path):
    """build_romfs writes the image itself (to pad the card faces onto a word
    boundary); with no padding it is byte for byte what `mpremote romfs
    build` makes of the same files, directories included."""
    import contextlib
    import io

    from mpremote.romfs import make_romfs

    files = {"app.mpy": b"M\x06app", "boards/__init__.mpy": b"M\x06b" * 50, "boards/boards.json": b"{}",
             "drivers/ink.mpy": bytes(range(256)) * 3, "main.mpy": b"M\x06main", "z.txt": b"z"}
    for path, data in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)
    with contextlib.redirect_stdout(io.StringIO()):
        theirs = bytes(make_romfs(str(tmp_path), mpy_cross=False))
    assert R._romfs(files, {}) == theirs
    from tests.host.flashing.test_flash import parse_romfs

    for pad in (2, 3, 4, 5):  # and with padding records, it reads back as the same files
        assert parse_romfs(R._romfs(files, {"drivers/ink.mpy": pad}, pad)) == files

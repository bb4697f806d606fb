"""The emulated Pico's CIRCUITPY drive (host_tools/sim/circuitpython.py): a
damaged FAT image (a board folder left by a run killed mid-write) is said in
one line with what to do, where pyfatfs raised a traceback from the layer
step."""

import struct

import pytest

from host_tools.flashing import rp2040
from host_tools.sim import circuitpython as C
from host_tools.sim.emulated import EmuBoard

pytest.importorskip("pyfatfs")


def free_mark_in_chain(path):
    """Write FREE_CLUSTER (0) into the FAT12 chain's second link, in both FATs:
    a file of several clusters then ends in a free cluster."""
    data = bytearray(path.read_bytes())
    sector, reserved, fats = struct.unpack_from("<H", data, 11)[0], struct.unpack_from("<H", data, 14)[0], data[16]
    fat_sectors = struct.unpack_from("<H", data, 22)[0]
    for k in range(fats):
        off = (reserved + k * fat_sectors) * sector + 3 * 3 // 2  # cluster 3: the high 12 bits of the word
        word = struct.unpack_from("<H", data, off)[0]
        struct.pack_into("<H", data, off, word & 0x000F)
    path.write_bytes(bytes(data))


@pytest.fixture
def damaged(tmp_path):
    img = tmp_path / "circuitpy.img"
    C.make_fat(img)
    C.put_files(img, {"code.py": b"x" * 3000})
    free_mark_in_chain(img)
    return img


def says_what_to_do(e, img):
    message = str(e)
    assert "\n" not in message
    assert message.startswith("%s, the board's CIRCUITPY drive, is damaged (" % img)
    assert message.endswith("delete it (the board's saved game goes with it) and start the board again on a "
                            "fresh drive")
    return message


def test_a_damaged_fat_chain_is_said_in_one_line_with_what_to_do(damaged):
    for step in (lambda: C.read_file(damaged, "code.py"), lambda: C.put_files(damaged, {"code.py": b"y" * 3000})):
        with pytest.raises(C.DamagedDrive) as e:
            step()
        assert "FREE_CLUSTER mark found in FAT cluster chain" in says_what_to_do(e.value, damaged)
    assert C.read_file(damaged, "absent.py") is None  # the damage is in one file's chain; the rest still reads


def test_an_image_that_is_no_fat_at_all_is_said_the_same_way(tmp_path):
    junk = tmp_path / "circuitpy.img"
    junk.write_bytes(b"\xff" * C.FS_BYTES)
    with pytest.raises(C.DamagedDrive) as e:
        C.put_files(junk, {"code.py": b""})
    says_what_to_do(e.value, junk)


def test_the_emulated_board_s_layer_step_refuses_a_damaged_drive_as_an_image_error(tmp_path, damaged, monkeypatch):
    monkeypatch.setattr(C, "game_files", lambda board: {"code.py": b"y" * 3000})
    board = EmuBoard("p1", str(tmp_path / "p1"), seed=1, board="pico-epaper29-cp")
    (tmp_path / "p1").mkdir(exist_ok=True)
    damaged.rename(board.fs_path)
    with pytest.raises(rp2040.ImageError) as e:  # what `deckahedron sim` says in one line
        board._prepare_flash()
    says_what_to_do(e.value, board.fs_path)


def test_files_laid_again_onto_a_drive_replace_the_old_ones_and_keep_the_rest(tmp_path):
    """A board's files laid again (a changed checkout, `deckahedron sim --dir`
    reused): a file shorter or longer than before replaces it, and the save
    beside it stays. pyfatfs overwriting in place with a shorter file broke
    the whole image (a free cluster left in the chain)."""
    path = str(tmp_path / "circuitpy.img")
    C.make_fat(path)
    C.put_files(path, {"code.py": b"a" * 5000, "lib/x.py": b"x" * 3000, "deckahedron/deck.sav": b"s" * 2000})
    assert C.put_files(path, {"code.py": b"b" * 900})
    assert C.read_file(path, "code.py") == b"b" * 900
    assert C.put_files(path, {"code.py": b"c" * 9000})
    assert not C.put_files(path, {"code.py": b"c" * 9000}), "an unchanged file is not written again"
    assert C.read_file(path, "code.py") == b"c" * 9000
    assert C.read_file(path, "lib/x.py") == b"x" * 3000
    assert C.read_file(path, "deckahedron/deck.sav") == b"s" * 2000

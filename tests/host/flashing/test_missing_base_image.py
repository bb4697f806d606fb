"""Without the base image, `deckahedron image` (and a BOOTSEL flash, which
builds the same image) says in one line both ways to a board's game: the
release's UF2 or a base image built with `make base-image`, or the official
MicroPython UF2 with the game installed as files over the port."""

import pytest

from host_tools import cli
from host_tools.flashing import rp2040


def routes_in(text, board):
    return all(words in text for words in (
        "deckahedron-%s.uf2" % board, "latest release", "make base-image",
        "official MicroPython %s UF2" % rp2040.MICROPYTHON_VERSION,
        "deckahedron flash --board %s --port PORT" % board))


@pytest.mark.parametrize("board", rp2040.image_boards())
def test_make_image_without_the_base_image_offers_both_routes_in_one_line(board, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DECKAHEDRON_RP2040_DIR", str(tmp_path / "empty"))
    assert cli.main(["image", "--board", board]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and rp2040.BASE_IMAGE in err and str(tmp_path / "empty") in err
    assert routes_in(err, board), err


def test_the_base_image_path_says_the_routes_for_the_board_asked(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKAHEDRON_RP2040_DIR", str(tmp_path))
    with pytest.raises(rp2040.ImageError) as e:
        rp2040.base_image_path("pico-epaper29")
    assert routes_in(str(e.value), "pico-epaper29")
    with pytest.raises(rp2040.ImageError) as e:
        rp2040.base_image_path()  # no board: a placeholder
    assert routes_in(str(e.value), "BOARD")

"""The cards' faces made at build time (host_tools/flashing/card_faces.py) for the
RP2040 boards' ROMFS: drawn by the renderer they go with, the same pixels as
a card drawn piece by piece, and in every image the boards get."""

import subprocess

import pytest

import layout as L
import host_tools.screens.mp_render as S
from host_tools.flashing import card_faces, rp2040
from shared_rules.deck.cards import ALL_IDS, CARDS, SUITS
from shared_rules.deck.editions import EDITION_KEYS
from tests.host.flashing.test_flash import parse_romfs
from tests.host.test_micropython_suite import ROOT, find_tool

FACE = L.FACE_BYTES


def test_a_card_from_its_face_is_the_card_drawn_piece_by_piece():
    """Every card in every flip slot, every suit chosen or none, resolving
    or under the cursor, over paper and over ink, under every edition's
    symbols, and every screen of host_tools/screens/mp_render.py: the same bytes."""
    proc = subprocess.run([find_tool("micropython"), "host_tools/screens/mp_render.py", "--faces"], cwd=str(ROOT),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    cases = len(EDITION_KEYS) * len(ALL_IDS) * len(L.FLIP_SLOTS[3]) * (1 + len(SUITS)) * 3 * 2
    assert proc.stdout.strip().splitlines()[-1] == "faces ok %d" % (cases + len(S.VIEWS)), proc.stdout


@pytest.fixture(scope="module")
def faces():
    return card_faces.face_bytes()


def test_two_cards_share_a_face_only_when_they_print_the_same(faces):
    assert len(faces) == FACE * len(ALL_IDS)
    face = {cid: faces[i * FACE:(i + 1) * FACE] for i, cid in enumerate(ALL_IDS)}
    for a in ALL_IDS:
        for b in ALL_IDS:
            same = CARDS[a][2:] == CARDS[b][2:]  # all but the id and the kind (a blessing twice: pb1, pb3)
            assert (face[a] == face[b]) == same, (a, b)


def test_the_module_a_board_gets_holds_those_faces(faces):
    space = {}
    exec(card_faces.module_source(faces), space)
    assert space["FACES"] == faces


@pytest.mark.parametrize("board", rp2040.image_boards())
def test_every_rp2040_image_has_the_faces_of_this_renderer_on_a_word_boundary(board, faces):
    """drivers/ink.py ORs a face onto the frame a word at a time only where
    its bytes lie on a word boundary in flash (4x quicker): build_romfs puts
    them there, whatever the files before them weigh."""
    image = rp2040.build_romfs(board)
    names = parse_romfs(image)
    assert faces in names[card_faces.MODULE[:-3] + ".mpy"]
    at = image.find(faces)
    assert image.find(faces, at + 1) < 0
    assert (rp2040.ROMFS_START + at) % 4 == 0


def test_the_faces_go_on_a_word_boundary_whatever_comes_before_them(faces, monkeypatch):
    """An edit to a module before card_faces.mpy moves the faces: at every
    shift (mod 4) they still land on a word boundary, and the ROMFS reads
    back as the files it was made of (padding records are skipped)."""
    files = dict((rp2040.mpy_path(p), d) for p, d in rp2040.compiled_sources("pico-epaper29"))
    for extra in range(4):
        shifted = dict(files, **{"app.mpy": files["app.mpy"] + bytes(extra)})
        monkeypatch.setattr(rp2040, "compiled_sources", lambda board: list(shifted.items()))
        image = rp2040.build_romfs("pico-epaper29")
        assert parse_romfs(image) == shifted
        assert (rp2040.ROMFS_START + image.find(faces)) % 4 == 0, extra


def test_without_the_unix_port_the_image_build_says_so(monkeypatch):
    def missing():
        raise card_faces.SimError("the MicroPython unix port is not installed: run `make setup`")

    monkeypatch.setattr(card_faces, "find_micropython", missing)
    with pytest.raises(rp2040.ImageError, match="card faces are drawn by the MicroPython unix port.*make setup"):
        rp2040.build_romfs("pico-epaper29")

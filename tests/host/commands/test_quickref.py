"""`deckahedron quickref` (host_tools/commands/quickref.py): the printable sheet."""

import os
import re
import time

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from shared_rules.deck.results import NOTES, WORDS

from host_tools.commands import quickref as Q
from host_tools.cli import main
from shared_rules.deck.editions import edition


def run_cli(capsys, *argv):
    try:
        code = main(["quickref"] + list(argv))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def sheet():
    return Q.render(["badger2040", "magtag"], "md")


def texts(pg):
    return [t for t, _x, _y, _s in pg.placed]


def test_pdf_is_one_page_at_the_paper_size(tmp_path, capsys):
    out = tmp_path / "qr.pdf"
    code, stdout, err = run_cli(capsys, "--out", str(out))
    assert code == 0 and err == "" and stdout.strip() == str(out)
    data = out.read_bytes()
    assert data.startswith(b"%PDF-")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == 1 and b"/Count 1" in data
    box = [float(v) for v in re.search(rb"/MediaBox\s*\[\s*([\d. ]+)\]", data).group(1).split()]
    assert abs(box[2] - 595.3) < 1.5 and abs(box[3] - 841.9) < 1.5  # A4 in points
    assert not list(tmp_path.glob(".*part"))


@pytest.fixture(scope="module")
def pdf_sheet():
    """The PDF `deckahedron quickref --out X.pdf` writes, its creation date fixed."""
    return Q.render_pdf(Q._boards(None, None), "md", when=time.gmtime(315532800))


def test_the_pdf_is_text_a_reader_selects_and_searches(pdf_sheet):
    """Every word of the sheet is text in the PDF (no bitmap of it): the
    result words, their meanings, the footer, the advantage rule; the title
    in the metadata and on the page; the same bytes every time."""
    doc = pdfium.PdfDocument(pdf_sheet)
    try:
        assert len(doc) == 1
        assert doc.get_metadata_dict()["Title"] == "Deckahedron quick reference"
        assert doc.get_metadata_dict()["CreationDate"] == "D:19800101000000Z"
        text = " ".join(doc[0].get_textpage().get_text_range().split())
    finally:
        doc.close()
    assert text.startswith("DECKAHEDRON QUICK REFERENCE")
    for level, word in WORDS.items():
        assert word in text and NOTES[level] in text
    for item in dict(Q.help_pages())["The footer"]:
        assert item in text
    assert " ".join(Q.wrap(Q.advantage_rule(edition("md")), 31)) in text
    assert b"/XObject" not in pdf_sheet  # no image: the device's marks, suits and screens are vectors
    assert Q.render_pdf(Q._boards(None, None), "md", when=time.gmtime(315532800)) == pdf_sheet


def _ink_rows(img):
    """(first, last) row with ink of a page image, as fractions of its height."""
    box = ImageChops.invert(img.convert("L")).getbbox()
    return box[1] / img.height, box[3] / img.height


def test_the_page_is_filled(pdf_sheet, sheet):
    """The sheet reaches down to its bottom margin (the room left over goes
    between the sections), in the PDF and the bitmap alike."""
    doc = pdfium.PdfDocument(pdf_sheet)
    try:
        drawn = doc[0].render(scale=150 / 72.0).to_pil()
    finally:
        doc.close()
    for img in (drawn, Q.render(Q._boards(None, None), "md").image):
        top, bottom = _ink_rows(img)
        assert top < 0.05 and bottom > 0.93, (top, bottom)


@pytest.mark.parametrize("paper,dpi,size", [("a4", "150", (1240, 1754)), ("letter", "150", (1275, 1650)),
                                            ("letter", "300", (2550, 3300))])
def test_png_has_the_paper_size_in_pixels(tmp_path, capsys, paper, dpi, size):
    out = tmp_path / "qr.png"
    code, _, err = run_cli(capsys, "--out", str(out), "--paper", paper, "--dpi", dpi)
    assert code == 0 and err == ""
    with Image.open(out) as img:
        assert img.size == size and img.mode == "1"
        assert img.info.get("dpi") and round(img.info["dpi"][0]) == int(dpi)


def test_sheet_holds_the_devices_result_words_and_footer(sheet):
    """The words are the firmware's (through replies), the footer items the
    device's own Help page, each drawn whole on some line."""
    placed = texts(sheet)
    for level, word in WORDS.items():
        assert word in placed
        assert any(NOTES[level] in t or t in NOTES[level] for t in placed)
    footer = dict(Q.help_pages())["The footer"]
    assert footer[0].startswith("Deck:") and any(i.startswith("H, W:") for i in footer)
    joined = " ".join(placed)
    for item in footer:
        for word in item.split():
            assert word in joined
    for key in ("Deck:", "Disc:", "Exh:", "XP:", "H, W:"):
        assert any(t.startswith(key) for t in placed)


def test_the_sheet_follows_the_firmware_words(monkeypatch):
    """Change the device's word: the sheet says the new one (no copy here)."""
    monkeypatch.setitem(WORDS, 4, "GLORY")
    placed = texts(Q.render(["badger2040"], "md"))
    assert "GLORY" in placed and "TRIUMPH" not in placed


def test_drawn_pixels_are_the_words_at_their_places(sheet):
    """Each result word's box on the page holds exactly that word in the
    device font (a fresh rendering of it), and not another word."""
    boxes = dict((t, (x, y, s)) for t, x, y, s in sheet.placed)
    for word in WORDS.values():
        x, y, s = boxes[word]
        alone = Q.Page((len(word) * 8 * s, 8 * s), 1)
        alone.text(word, 0, 0, s)
        crop = sheet.image.crop((x, y, x + alone.image.width, y + alone.image.height))
        assert ImageChops.difference(crop.convert("L"), alone.image.convert("L")).getbbox() is None, word
        assert alone.image.getbbox() is not None  # ink was drawn at all
    x, y, s = boxes["MISS"]
    other = Q.Page((4 * 8 * s, 8 * s), 1)
    other.text("MASS", 0, 0, s)
    crop = sheet.image.crop((x, y, x + other.image.width, y + other.image.height))
    assert ImageChops.difference(crop.convert("L"), other.image.convert("L")).getbbox() is not None


def test_the_devices_screens_are_on_the_page(sheet):
    """The home and flip screens the device renderer drew are pasted whole,
    at an integer scale (crisp pixels), where the sheet says."""
    shots = Q.screens("md")
    assert len(sheet.pictures) == 2
    for (x, y, s), name in zip(sheet.pictures, ("home", "flip_advantage")):
        img = shots[name]
        assert s == 2 and img.getbbox() is not None
        big = img.resize((img.width * s, img.height * s), Image.NEAREST)
        crop = sheet.image.crop((x, y, x + big.width, y + big.height))
        assert ImageChops.difference(crop.convert("L"), big.convert("L")).getbbox() is None, name
    x, y, s = sheet.pictures[0]
    other = shots["flip_advantage"].resize((296 * s, 128 * s), Image.NEAREST)
    crop = sheet.image.crop((x, y, x + other.width, y + other.height))
    assert ImageChops.difference(crop.convert("L"), other.convert("L")).getbbox() is not None


def test_300_dpi_doubles_every_pixel():
    """At 300 dpi the page is the 150-dpi page with each pixel a 2x2 block."""
    lo = Q.render(["magtag"], "md", "a4", 150).image
    hi = Q.render(["magtag"], "md", "a4", 300).image
    up = lo.resize((lo.width * 2, lo.height * 2), Image.NEAREST)
    w, h = min(up.width, hi.width), min(up.height, hi.height)
    assert ImageChops.difference(up.crop((0, 0, w, h)).convert("L"), hi.crop((0, 0, w, h)).convert("L")).getbbox() is None


def test_a_board_without_up_down_says_how_to_press_them():
    from host_tools import boards as B

    names, notes = Q.board_buttons(B.board("magtag"))
    assert names == ["A", "B", "C", "D"] and notes == ["D: tap = DOWN, hold 0.6s = UP"]
    assert Q.board_buttons(B.board("badger2040")) == (["A", "B", "C", "UP", "DOWN"], [])


def test_no_text_runs_off_the_page_or_into_another():
    """With every board of the registry, each line of text stays on the page and no two
    lines share a pixel: a board's name wider than its column ran into the next board's."""
    pg = Q.render(Q._boards(None, None), "md")
    boxes = [(t, x, y, x + len(t) * 8 * s, y + 8 * s) for t, x, y, s in pg.placed]
    width, height = pg.image.size
    for t, x0, y0, x1, y1 in boxes:
        assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height, t
    for i, (t, x0, y0, x1, y1) in enumerate(boxes):
        for u, a0, b0, a1, b1 in boxes[i + 1:]:
            assert x1 <= a0 or a1 <= x0 or y1 <= b0 or b1 <= y0, (t, u)


def test_two_keys_on_one_device_line_are_two_items():
    """The panel's "B: flip  C: menu" is two items on the sheet, each with its key first."""
    buttons = dict(Q.help_pages())["Buttons at home"]
    assert "B: flip" in buttons and "C: menu" in buttons


def test_one_board_only(tmp_path, capsys, monkeypatch):
    seen = []
    real = Q.render
    monkeypatch.setattr(Q, "render", lambda names, *a: seen.append(names) or real(names, *a))
    code, _, err = run_cli(capsys, "--out", str(tmp_path / "q.png"), "--board", "magtag")
    assert code == 0 and seen == [["magtag"]]
    code, _, err = run_cli(capsys, "--out", str(tmp_path / "q.png"))
    assert "sim" not in seen[1] and {"badger2040", "pico-epaper29", "magtag"} <= set(seen[1])


@pytest.mark.parametrize("args,says", [
    (["--board", "nosuch"], "unknown board 'nosuch'"),
    (["--edition", "d&d"], "unknown edition 'd&d'"),
    (["--paper", "a3"], "unknown paper 'a3'"),
    (["--dpi", "96"], "dpi '96'"),
])
def test_bad_arguments_one_line_exit_2(tmp_path, capsys, args, says):
    out = tmp_path / "q.pdf"
    code, stdout, err = run_cli(capsys, "--out", str(out), *args)
    assert code == 2 and stdout == ""
    assert err.count("\n") == 1 and says in err and "Traceback" not in err
    assert not out.exists() and os.listdir(tmp_path) == []


def test_unknown_extension_and_unwritable_out(tmp_path, capsys):
    code, _, err = run_cli(capsys, "--out", str(tmp_path / "q.jpg"))
    assert code == 2 and err.count("\n") == 1 and ".pdf or .png" in err
    code, _, err = run_cli(capsys, "--out", str(tmp_path / "missing" / "q.pdf"))
    assert code == 2 and err.count("\n") == 1 and "cannot write" in err
    code, _, err = run_cli(capsys, "--out", str(tmp_path) + "/")
    assert code == 2 and err.count("\n") == 1
    (tmp_path / "dir.png").mkdir()
    code, _, err = run_cli(capsys, "--out", str(tmp_path / "dir.png"))
    assert code == 2 and err.count("\n") == 1 and "folder" in err
    assert sorted(os.listdir(tmp_path)) == ["dir.png"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_read_only_folder(tmp_path, capsys):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        code, _, err = run_cli(capsys, "--out", str(ro / "q.pdf"))
    finally:
        ro.chmod(0o700)
    assert code == 2 and err.count("\n") == 1 and "cannot write" in err


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def test_docs_picture_is_the_current_sheet():
    """docs/quickref.png is what `deckahedron quickref --out docs/quickref.png`
    draws now (regenerate it with that command when the device's words change)."""
    fresh = Q.render(Q._boards(None, None), "md").image
    with Image.open(os.path.join(ROOT, "docs", "quickref.png")) as doc:
        assert doc.size == fresh.size
        assert ImageChops.difference(doc.convert("L"), fresh.convert("L")).getbbox() is None


@pytest.mark.parametrize("guide", ["README.md", "hardware/README.md", "hardware/badger2040.md",
                                   "hardware/magtag.md", "hardware/pico-epaper29.md"])
def test_readme_and_guides_say_how_to_print_it(guide):
    with open(os.path.join(ROOT, guide), encoding="utf-8") as f:
        text = f.read()
    assert "deckahedron quickref" in text and "quickref.png)" in text


def test_the_installed_command_works_from_any_folder(tmp_path):
    """A GM runs `deckahedron quickref` from wherever they are, not from the
    checkout: the device's font and glyphs are found all the same."""
    import subprocess
    import sys

    exe = os.path.join(os.path.dirname(sys.executable), "deckahedron")
    if not os.path.exists(exe):
        pytest.skip("the deckahedron command is not installed beside this Python (make setup)")
    out = tmp_path / "sheet.png"
    proc = subprocess.run([exe, "quickref", "--out", str(out)], cwd=str(tmp_path), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert Image.open(out).size == (1240, 1754)

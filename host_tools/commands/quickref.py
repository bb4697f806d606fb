"""`deckahedron quickref`: a one-page player reference to print (PDF or PNG).

Everything on the sheet is the device's own: its screens (the real firmware
plays the scenes of host_tools.screens.core, the device renderer draws them),
its 8x8 font and result marks drawn by its own routines (font8, glyphs) on
a Pillow page, the Help pages read from firmware/deck/ui.py, the result words
from shared_rules/deck/results.py, the buttons from the board registry. Only the advantage rule is said here, in our own words after
seed 001's *Advantage*, with the edition's card limit.

The page is laid out in 150-dpi units and filled to its bottom margin (the
room left over goes between the sections). A PNG is a 1-bit bitmap in the
device font; at 300 dpi every coordinate and every glyph scale doubles, so
the pixels stay whole. A PDF (reportlab) holds the same layout as vectors:
its words as text a reader selects and searches (Helvetica), the device's
marks, suit symbols and screens as filled squares, crisp at any zoom; its
title in its metadata, its dates SOURCE_DATE_EPOCH's when that is set.
"""

import os
import re
import sys
import textwrap

from host_tools import firmware_importable
from host_tools import boards as B
from host_tools.cli import reporter
from shared_rules.deck.editions import DEFAULT_EDITION, EDITION_KEYS, edition
from shared_rules.deck.results import NOTES, WORDS

firmware_importable()  # the device font and glyphs

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # millimetres
DPIS = (150, 300)
FORMATS = {".pdf": "PDF", ".png": "PNG"}
MARGIN = 60
GAP = 30
LINE = 22  # body text: the 8x8 font at 2x, on a 22-pixel line


def page_size(paper, dpi):
    w, h = PAPERS[paper]
    return int(round(w / 25.4 * dpi)), int(round(h / 25.4 * dpi))


class Page:
    """A white 1-bit page with the two drawing calls the device's glyph
    routines use (MONO_HLSB blit with key 0, fill_rect), in 150-dpi units
    times ``k``. ``placed`` lists every line of text: (text, x, y, scale)
    in page pixels; ``pictures`` the screens."""

    def __init__(self, size, k):
        from PIL import Image, ImageDraw

        self.image = Image.new("1", size, 1)
        self.draw = ImageDraw.Draw(self.image)
        self.k = k
        self.placed = []
        self.pictures = []  # (x, y, scale) of each screen, in page pixels

    # the FrameBuffer calls of firmware/glyphs.py and font8.py (page pixels)
    def fill_rect(self, x, y, w, h, c):
        if w > 0 and h > 0:
            self.draw.rectangle((x, y, x + w - 1, y + h - 1), fill=0 if c else 1)

    def blit(self, src, x, y, key=-1, palette=None):
        # glyphs and font8 blit ink only (key 0, no palette): paper is left as it is
        rows, w, h = src[0], src[1], src[2]
        stride = (w + 7) // 8
        for r in range(h):
            for col in range(w):
                if rows[r * stride + (col >> 3)] & (0x80 >> (col & 7)):
                    self.image.putpixel((x + col, y + r), 0)

    # drawing in 150-dpi units
    def text(self, s, x, y, scale=2):
        """The device font at ``scale`` (times k); returns the width in units."""
        import font8
        import glyphs

        k = self.k
        px, py, sc = x * k, y * k, scale * k
        for i, ch in enumerate(s):
            if ch != " ":
                glyphs.blit(self, font8.bitmap(font8.index(ch)), px + i * font8.ADVANCE * sc, py, 1, sc)
        self.placed.append((s, px, py, sc))
        return len(s) * font8.ADVANCE * scale

    def marks(self, level, x, y, scale=3):
        import glyphs

        glyphs.level_marks(self, level, x * self.k, y * self.k, 1, scale * self.k)
        return glyphs.level_width(level, scale)

    def glyph(self, suit, x, y, scale=2):
        """A suit's symbol, as on the cards."""
        import glyphs

        glyphs.blit(self, glyphs.suit_bitmap(suit), x * self.k, y * self.k, 1, scale * self.k)

    def rect(self, x, y, w, h, t=2, fill=False):
        k = self.k
        if fill:
            self.fill_rect(x * k, y * k, w * k, h * k, 1)
            return
        for box in ((x, y, w, t), (x, y + h - t, w, t), (x, y, t, h), (x + w - t, y, t, h)):
            self.fill_rect(box[0] * k, box[1] * k, box[2] * k, box[3] * k, 1)

    def picture(self, img, x, y, scale):
        """A device screen (a Pillow "1" image) at an integer scale, framed."""
        from PIL import Image

        k = self.k
        big = img.resize((img.width * scale * k, img.height * scale * k), Image.NEAREST)
        self.image.paste(big, (x * k, y * k))
        self.pictures.append((x * k, y * k, scale * k))
        self.rect(x - 3, y - 3, img.width * scale + 6, img.height * scale + 6, 2)
        return img.height * scale


class PdfPage:
    """The same drawing calls onto one PDF page (reportlab), in 150-dpi
    units: the words as text, every bitmap (font8 aside) as runs of filled
    squares. ``finish()`` gives the file's bytes."""

    k = 1
    UNIT = 72.0 / 150  # points per 150-dpi unit

    def __init__(self, paper, title, subject, when=None):
        import io

        from reportlab.pdfgen import canvas

        w, h = PAPERS[paper]
        self.height = h / 25.4 * 150
        self.buf = io.BytesIO()
        # invariant: no time-dependent ID or comments, so a date fixed by the
        # caller (or SOURCE_DATE_EPOCH, which reportlab reads) makes the same bytes
        self.canvas = canvas.Canvas(self.buf, pagesize=(w / 25.4 * 72, h / 25.4 * 72),
                                    invariant=when is not None or bool(os.environ.get("SOURCE_DATE_EPOCH")))
        if when is not None:
            stamp = "D:%04d%02d%02d%02d%02d%02dZ" % tuple(when[:6])
            self.canvas.setDateFormatter(lambda *_: stamp)
        self.canvas.setTitle(title)
        self.canvas.setSubject(subject)
        self.canvas.setAuthor("Deckahedron")
        self.canvas.setCreator("deckahedron quickref")
        self.placed = []
        self.pictures = []

    def fill_rect(self, x, y, w, h, c):
        if w > 0 and h > 0 and c:
            u = self.UNIT
            self.canvas.rect(x * u, (self.height - y - h) * u, w * u, h * u, stroke=0, fill=1)

    def _runs(self, rows, w, h, x, y, scale, ink):
        """Each row's runs of ink as one filled rectangle."""
        for r in range(h):
            col = 0
            while col < w:
                if ink(rows, r, col):
                    start = col
                    while col < w and ink(rows, r, col):
                        col += 1
                    self.fill_rect(x + start * scale, y + r * scale, (col - start) * scale, scale, 1)
                col += 1

    def blit(self, src, x, y, key=-1, palette=None):
        rows, w, h = src[0], src[1], src[2]
        stride = (w + 7) // 8
        self._runs(rows, w, h, x, y, 1, lambda b, r, c: b[r * stride + (c >> 3)] & (0x80 >> (c & 7)))

    def text(self, s, x, y, scale=2):
        """Helvetica in the device font's box: cap height 7 of its 8 rows,
        narrowed to the box's width when it would overrun it."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        import font8

        font = "Helvetica-Bold" if scale >= 3 else "Helvetica"
        box = len(s) * font8.ADVANCE * scale
        size = 7 * scale / 0.718  # Helvetica's cap height is 0.718 em
        wide = stringWidth(s, font, size)
        if wide > box:
            size *= box / wide
        u = self.UNIT
        self.canvas.setFont(font, size * u)
        self.canvas.drawString(x * u, (self.height - y - 7 * scale) * u, s)
        self.placed.append((s, x, y, scale))
        return box

    marks = Page.marks
    glyph = Page.glyph
    rect = Page.rect

    def picture(self, img, x, y, scale):
        """A device screen as runs of filled squares, framed."""
        px = img.load()
        self._runs(None, img.width, img.height, x, y, scale, lambda _b, r, c: not px[c, r])
        self.pictures.append((x, y, scale))
        self.rect(x - 3, y - 3, img.width * scale + 6, img.height * scale + 6, 2)
        return img.height * scale

    def finish(self):
        self.canvas.showPage()
        self.canvas.save()
        return self.buf.getvalue()


class Measure:
    """A page that draws nothing: how far down the layout reaches."""

    k = 1
    placed = pictures = ()

    def text(self, s, x, y, scale=2):
        import font8

        return len(s) * font8.ADVANCE * scale

    def marks(self, level, x, y, scale=3):
        import glyphs

        return glyphs.level_width(level, scale)

    def glyph(self, *_):
        pass

    def rect(self, *_, **__):
        pass

    def picture(self, img, x, y, scale):
        return img.height * scale


def wrap(text, width):
    """Greedy lines of whole words (the device's _wrap, done by the stdlib)."""
    return textwrap.wrap(" ".join(text.split()), width, break_long_words=False, break_on_hyphens=False)


# ------------------------------------------------------------ the device's words

def help_pages():
    """[(title, [item, ...])] of the device's Help menu, made by the
    firmware's own help_menu(): an item is one "KEY: meaning", its
    continuation lines joined (a line with no colon goes on the one before)."""
    from deck import menus  # firmware/deck/menus.py, firmware/ on the path (firmware_importable)

    class Collect:
        def __init__(self):
            self.stack, self.pages = [], []

        def push(self, screen):
            self.stack.append(screen)

        def notice(self, title, lines):
            self.pages.append((title, list(lines)))

    u = Collect()
    menus.help_menu(u)
    for _label, action in u.stack[-1].items:
        action()
    out = []
    for title, lines in u.pages:
        items = []
        for line in lines:
            if items and ":" not in line:
                items[-1] += " " + line
            else:
                # the panel puts two short keys on a line ("B: flip  C: menu"): one item each
                items.extend(re.split(r"\s{2,}(?=[A-Z/]+: )", line))
        out.append((title, items))
    return out


def result_words():
    """[(level, WORD, meaning)] best first, as the device shows them."""
    return [(lv, WORDS[lv], NOTES[lv]) for lv in (4, 3, 2, 1)]


def advantage_rule(ed):
    """Seed 001 *Advantage* and *Multiple Advantages*, in our words."""
    most = ed["max_cards"]
    return ("Net advantage = advantages minus disadvantages. Flip 1 card plus 1 for each point of net "
            "advantage or disadvantage, %d cards at most. With advantage the best result resolves the "
            "flip, with disadvantage the worst; a tie that matters is yours to pick." % most)


def screens(edition_key):
    """{name: Pillow image} of the home and flip screens the sheet shows."""
    from host_tools.screens import core as S
    from host_tools.screens import deck

    want = ("home", "flip_advantage")
    views = [(n, v) for n, v in deck.views() if n in want]
    for _, v in views:
        v["status"]["edition"] = edition_key
    bufs = S.render_views(views)
    return dict((n, S.to_image(bufs[n])) for n in want)


def board_buttons(entry):
    """(names, notes): a board's buttons in the registry's order, and how
    to press the game's UP and DOWN on a board without them (read from its
    module, e.g. the MagTag's D: tap and hold)."""
    import importlib

    names = [b[0] for b in entry["pins"]["buttons"]]
    notes = []
    if "UP" not in names:
        mod = importlib.import_module("firmware." + entry["module"])
        held = getattr(mod, entry["class"]).LONG_MS / 1000.0
        extra = [n for n in names if n not in ("A", "B", "C")]
        notes.append("%s: tap = DOWN, hold %gs = UP" % ("/".join(extra), held))
    return names, notes


# ------------------------------------------------------------ the sheet

TITLE = "Deckahedron quick reference"
SECTION_GAPS = 3  # between the four sections: the room left over goes there


def render(board_names, edition_key, paper="a4", dpi=150):
    """The sheet as a bitmap Page (its ``image`` the 1-bit page)."""
    k = dpi // 150
    return _sheet(lambda: Page(page_size(paper, dpi), k), board_names, edition_key, paper)


def render_pdf(board_names, edition_key, paper="a4", when=None):
    """The sheet as a PDF's bytes; ``when`` (a time.struct_time in UTC) its
    creation date, which makes the same bytes every time."""
    ed = edition(edition_key)
    return _sheet(lambda: PdfPage(paper, TITLE, "%s (edition %s)" % (ed["name"], edition_key), when),
                  board_names, edition_key, paper).finish()


def _sheet(new_page, board_names, edition_key, paper):
    """The layout measured once, then drawn with the room left over shared
    between the sections, so the page is filled to its bottom margin."""
    shots, pages = screens(edition_key), dict(help_pages())
    H = page_size(paper, 150)[1]
    bottom = _lay_out(Measure(), board_names, edition_key, paper, shots, pages, GAP)
    gap = GAP + max(0, H - MARGIN - bottom) // SECTION_GAPS
    pg = new_page()
    _lay_out(pg, board_names, edition_key, paper, shots, pages, gap)
    return pg


def _lay_out(pg, board_names, edition_key, paper, shots, pages, gap):
    """Draw the sheet on ``pg`` (150-dpi units); the bottom of what it drew."""
    from host_tools.screens.core import WIDTH

    ed = edition(edition_key)
    W, H = page_size(paper, 150)
    right = W - MARGIN
    y = MARGIN
    pg.text(TITLE.upper(), MARGIN, y, 4)
    y += 40
    pg.text("%s (edition %s)" % (ed["name"], edition_key), MARGIN, y, 2)
    y += 36

    def column(x, y, width, heading, items, bullet=""):
        pg.text(heading, x, y, 3)
        y += 32
        for item in items:
            for j, line in enumerate(wrap(item, width // 16 - len(bullet))):
                pg.text((bullet if j == 0 else " " * len(bullet)) + line, x, y, 2)
                y += LINE
            y += 4
        return y

    # the home screen and its buttons
    tx = MARGIN + WIDTH * 2 + GAP
    pg.text("THE HOME SCREEN", MARGIN, y, 3)
    top = y + 36
    bottom = top + pg.picture(shots["home"], MARGIN + 3, top, 2)
    bottom = max(bottom, column(tx, top - 36, right - tx, "BUTTONS", pages["Buttons at home"]))
    y = bottom + gap

    # a flip, and the advantage rule
    pg.text("A FLIP WITH ADVANTAGE", MARGIN, y, 3)
    top = y + 36
    bottom = top + pg.picture(shots["flip_advantage"], MARGIN + 3, top, 2)
    bottom = max(bottom, column(tx, top - 36, right - tx, "ADVANTAGE", [advantage_rule(ed)]))
    y = bottom + gap

    # result words (marks, word, meaning) beside the footer and the menus
    half = (right - MARGIN - GAP) // 2
    pg.text("RESULTS", MARGIN, y, 3)
    ry = y + 36
    for level, word, note in result_words():
        pg.marks(level, MARGIN, ry + 2, 3)
        pg.text(word, MARGIN + 100, ry, 3)
        ry += 28
        for line in wrap(note, (half - 100) // 16):
            pg.text(line, MARGIN + 100, ry, 2)
            ry += LINE
        ry += 10
    pg.text("SUITS", MARGIN, ry + 4, 3)  # the edition's names under the device's symbols
    ry += 40
    for j, suit in enumerate(ed["suit_names"]):
        sx, sy = MARGIN + (j % 2) * (half // 2), ry + (j // 2) * 34
        pg.glyph(suit, sx, sy, 2)
        pg.text(suit, sx + 36, sy + 6, 2)
    ry += 70
    fx = MARGIN + half + GAP
    fy = column(fx, y, right - fx, "THE FOOTER", pages["The footer"])
    fy = column(fx, fy + 8, right - fx, "MENUS", [" ".join(pages["Menus"])])
    y = max(ry, fy) + gap

    # the boards: buttons in the registry's order, letters under the panel,
    # UP and DOWN beside it
    pg.text("THE BOARDS", MARGIN, y, 3)
    y += 36
    registry = B.load()
    n = len(board_names)
    cell = (right - MARGIN - GAP * (n - 1)) // n
    for i, name in enumerate(board_names):
        entry = registry[name]
        names, notes = board_buttons(entry)
        x = MARGIN + i * (cell + GAP)
        bw = min(cell, 270)
        pg.rect(x, y, bw, 150, 3)
        side = [b for b in names if b in ("UP", "DOWN")]
        row = [b for b in names if b not in side]
        panel_w = bw - (70 if side else 24)
        pg.rect(x + 12, y + 12, panel_w, 80, 2)
        pg.text("panel", x + 12 + panel_w // 2 - 40, y + 44, 2)
        step = panel_w // len(row)
        for j, b in enumerate(row):
            cx = x + 12 + step * j + step // 2
            pg.rect(cx - 14, y + 102, 28, 28, 2)
            pg.text(b, cx - 8 * len(b) + 1, y + 108, 2)
        for j, b in enumerate(side):
            bx = x + bw - 52
            by = y + 20 + j * 40
            pg.rect(bx, by, 40, 28, 2)
            pg.text(b[:2] if b == "UP" else "DN", bx + 4, by + 6, 2)
        cy = y + 160
        label = textwrap.wrap(entry.get("short", entry["title"]), cell // 16, break_long_words=False)  # and at hyphens
        for line in label + [w for note in notes for w in wrap(note, cell // 16)]:
            pg.text(line, x, cy, 2)
            cy += LINE
    y = cy + 8
    if y > H - MARGIN // 2:
        raise ValueError("the sheet does not fit on one %s page (%d of %d pixels)" % (paper, y, H))
    return y


# ------------------------------------------------------------ the command

def add_arguments(p):
    p.add_argument("--out", required=True, metavar="FILE",
                   help="where to write the sheet: FILE.pdf or FILE.png (by the extension)")
    p.add_argument("--board", action="append", metavar="NAME",
                   help="only this board's buttons (repeatable); default every board of firmware/boards/boards.json")
    p.add_argument("--edition", default=DEFAULT_EDITION, metavar="KEY",
                   help="rules edition: %s (default %s)" % (", ".join(EDITION_KEYS), DEFAULT_EDITION))
    p.add_argument("--paper", default="a4", metavar="SIZE", help="a4 (default) or letter")
    p.add_argument("--dpi", default="150", metavar="N", help="a PNG's resolution: 150 (default) or 300 (a PDF is "
                   "vectors)")


def _boards(wanted, fail):
    with_buttons = [n for n, e in B.real_boards().items() if e.get("pins", {}).get("buttons")]
    if not wanted:
        return with_buttons
    out = []
    for name in wanted:
        if name not in with_buttons:
            fail("unknown board %r: choose from %s" % (name, ", ".join(sorted(with_buttons))))
        if name not in out:
            out.append(name)
    return out


def run(args):
    _complain, fail = reporter("deckahedron quickref")
    out = args.out
    fmt = FORMATS.get(os.path.splitext(out)[1].lower())
    if fmt is None:
        fail("cannot tell the format of %r: name it .pdf or .png" % out)
    if args.edition not in EDITION_KEYS:
        fail("unknown edition %r: choose %s" % (args.edition, ", ".join(EDITION_KEYS)))
    if args.paper not in PAPERS:
        fail("unknown paper %r: choose a4 or letter" % args.paper)
    if args.dpi not in [str(d) for d in DPIS]:
        fail("dpi %r: choose 150 or 300" % args.dpi)
    names = _boards(args.board, fail)
    folder = os.path.dirname(os.path.abspath(out))
    if os.path.isdir(out) or not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        fail("cannot write %s: %s" % (out, "it is a folder" if os.path.isdir(out) else
                                      "no writable folder %s" % folder))
    dpi = int(args.dpi)
    try:
        if fmt == "PDF":  # vectors: --dpi is the PNG's
            data = render_pdf(names, args.edition, args.paper)
        else:
            pg = render(names, args.edition, args.paper, dpi)
    except (RuntimeError, ValueError, OSError) as e:
        _complain(e)
        return 1
    tmp = os.path.join(folder, ".%s.part" % os.path.basename(out))
    try:  # a finished file or none: written beside, then moved in place
        if fmt == "PDF":
            with open(tmp, "wb") as f:
                f.write(data)
        else:
            pg.image.save(tmp, fmt, dpi=(dpi, dpi))
        os.replace(tmp, out)
    except OSError as e:
        if os.path.exists(tmp):
            os.remove(tmp)
        fail("cannot write %s: %s" % (out, e.strerror or e))
    print(out)
    return 0


if __name__ == "__main__":
    from host_tools.cli import main

    sys.exit(main(["quickref"] + sys.argv[1:]))

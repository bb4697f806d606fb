"""Screens for the 296 x 128 1-bit e-ink panel, drawn from VIEW dicts.

Runs on the device: MicroPython draws with ``framebuf``; CircuitPython, which
has none, draws the same pixels on a surface.Surface over a displayio.Bitmap.
Every position comes from layout.py, every small picture from glyphs.py and
every letter from font8.py (the project's own font, so both runtimes draw
identical text).

    r = Renderer()              # or Renderer(buf) to draw into a driver's buffer
    r.render(view)              # clears, draws the whole screen, returns r.buf
    r.buf                       # bytearray(4736), MONO_HLSB, bit 1 = black ink

    r = Renderer(fb=surface)    # draw on any FrameBuffer-like object instead
    r.render(view)              # (then r.buf is that object)
    r.frame_bytes()             # the screen as the 4736-byte MONO_HLSB buffer (a view)
    r.frame_bytes(0, 225)       # its first 225 bytes: a CircuitPython surface exports those alone

``render`` never raises on bad data: unknown screens, missing keys and wrong
types draw a message screen (or defaults), and long strings are clipped.
The VIEW dict keys are listed in docs/screens/README.md.
"""

try:
    import framebuf
except ImportError:  # CircuitPython, CPython: give the Renderer a Surface
    framebuf = None

import font8 as F
import glyphs as G
import layout as L

from shared_rules.deck.cards import ALL_IDS, CARDS, SUITS
from shared_rules.deck.editions import DEFAULT_EDITION, EDITION_KEYS, edition
from shared_rules.systems import KEYS, folder



STATUS_COUNTS = "Deck%d Disc%d Exh%d XP%d H%d W%d"  # the status line's counts (_status)


def _int(v, default=0):
    if isinstance(v, int):
        return v + 0  # a bool as 0 or 1 (one call less: each costs a Pico ~25 us)
    try:
        return int(v)
    except (TypeError, ValueError, OverflowError):
        return default


def _str(v, n=None):
    """v as one line of text (None -> ""), at most n characters."""
    if v is None:
        return ""
    if not isinstance(v, str):
        try:
            v = str(v)
        except Exception:
            return "?"
    if "\n" in v:
        v = v.replace("\n", " ")
    if n is not None and len(v) > n:
        v = v[:n]
    return v


def _clip(s, width, scale=1):
    """s clipped to the whole characters that fit in width pixels."""
    n = width // (L.FONT * scale)
    if n <= 0:
        return ""
    return s if len(s) <= n else s[:n]


def _dict(v):
    return v if isinstance(v, dict) else {}


def _list(v):
    return v if isinstance(v, (list, tuple)) else []


def _signed(n):
    return "+%d" % n if n >= 0 else "%d" % n


def _wrap(s, n, lines):
    """Up to `lines` lines of at most n characters, broken at spaces. Each
    line is joined once (a board pays ~0.1 ms for every new str)."""
    out = []
    cur = []
    size = -1  # the length of cur joined
    for w in s.split(" "):
        if not w:
            continue
        if len(w) > n:
            w = w[:n]
        if cur and size + 1 + len(w) > n:
            out.append(" ".join(cur))
            if len(out) == lines:
                return out
            cur, size = [], -1
        cur.append(w)
        size += 1 + len(w)
    if cur and len(out) < lines:
        out.append(" ".join(cur))
    return out


_COLUMNS = None  # see _columns()


def _columns():
    """font8's glyphs as 8 blit palettes, one per glyph column: palette x
    maps a character code (0-127) to column x of its glyph as a byte (bit r
    = row r: MONO_VLSB). Made once: the font seen as one 8-pixel-wide
    MONO_HLSB image (glyph under glyph) blitted into MONO_VLSB puts each
    glyph's columns at its 8 bytes; they are then spread by code."""
    global _COLUMNS
    n = len(F.FONT)
    cols = bytearray(n)
    framebuf.FrameBuffer(cols, 8, n, framebuf.MONO_VLSB).blit((F.FONT, 8, n, framebuf.MONO_HLSB), 0, 0)
    table = bytearray(8 * 128)
    for code in range(128):
        k = code - F.FIRST
        if k < 0 or k >= F.COUNT:
            k = F.COUNT
        for x in range(8):
            table[x * 128 + code] = cols[k * 8 + x]
    mv = memoryview(table)
    _COLUMNS = tuple((mv[x * 128:x * 128 + 128], 128, 1, framebuf.GS8) for x in range(8))
    return _COLUMNS


if framebuf is not None:

    class Canvas(framebuf.FrameBuffer):
        """The panel's FrameBuffer with text in the project's font: every
        ``fb.text`` (here and in glyphs.py) draws font8 glyphs, as the
        CircuitPython Surface does, instead of MicroPython's built-in font.

        ``fmt``: MONO_HLSB (our frame layout), or MONO_VLSB for a panel that
        takes column bytes: a board gives the Renderer such a canvas
        (``Renderer(fb=canvas)``) so that showing a frame needs no per-pixel
        conversion. Every primitive draws the same pixels in either layout."""

        def __init__(self, buf, fmt=framebuf.MONO_HLSB):
            super().__init__(buf, L.WIDTH, L.HEIGHT, fmt)
            self.buf = buf
            self.format = fmt
            # drivers/ink.py, set by a board whose panel takes MONO_VLSB and
            # whose runtime compiles viper: text and bitmaps in native code
            self.ink = None

        def fill(self, c):
            """framebuf's fill sets pixel by pixel (~1.7 ms on a Pico); the
            same bytes as one memset, the buffer seen as 8-bit pixels (MONO
            formats, c 0 or 1)."""
            framebuf.FrameBuffer(self.buf, L.BUF_SIZE, 1, framebuf.GS8).fill(0xFF if c else 0)

        def text(self, s, x, y, c=1):
            """font8's text with no Python per character: the line is made
            as a MONO_VLSB image (8 column bytes a character) by 8 blits of
            the character codes, seen as a column of 8-bit pixels, through
            the font's column palettes; then that image is blitted once."""
            if self.ink is not None:
                self.ink.text(self.buf, s, x, y, c, 1)
                return
            n = len(s)
            codes = s.encode()
            if len(codes) != n or n <= 2:
                # not ASCII: font8 draws a box a character; one or two
                # characters: a blit each is cheaper than the 9 blits below
                F.text(self, s, x, y, c)
                return
            if not n:
                return
            pal = _COLUMNS or _columns()
            strip = bytearray(n << 3)
            line = framebuf.FrameBuffer(strip, 8, n, framebuf.GS8)  # pixel (x, i) = column x of character i
            src = (codes, 1, n, framebuf.GS8)
            for k in range(8):
                line.blit(src, k, 0, -1, pal[k])
            if c:
                self.blit((strip, n << 3, 8, framebuf.MONO_VLSB), x, y, 0)
            else:
                self.blit((strip, n << 3, 8, framebuf.MONO_VLSB), x, y, 1, F._INVERT)  # ink -> 0, paper -> 1 = key

        def to_bytes(self, start=0, end=None):
            """The picture as our MONO_HLSB frame (bit 1 = ink), or a view
            of its bytes start:end."""
            out = self.buf
            if self.format != framebuf.MONO_HLSB:
                out = bytearray(L.BUF_SIZE)
                framebuf.FrameBuffer(out, L.WIDTH, L.HEIGHT, framebuf.MONO_HLSB).blit(self, 0, 0)
            return memoryview(out)[start:end]


_ART = None  # see _art()


def _art():
    """card_art, imported on first use: a board that blits prebuilt faces
    never needs it (see render_card)."""
    global _ART
    if _ART is None:
        from deck import card_art

        _ART = card_art
    return _ART


class Renderer:
    WIDTH = L.WIDTH
    HEIGHT = L.HEIGHT
    error = None  # the last screen that failed to draw ("Screen error"), until the app logged it

    def __init__(self, buf=None, fb=None):
        """``buf``: the MONO_HLSB bytearray to draw into (made if None).
        ``fb``: a FrameBuffer-like drawing target to use instead (a
        surface.Surface on CircuitPython); ``self.buf`` is then that object."""
        if fb is not None:
            self.buf = fb
            self.fb = fb
        else:
            if framebuf is None:
                raise ImportError("no framebuf on this runtime: give the Renderer a surface.Surface (fb=...)")
            if buf is None:
                buf = bytearray(L.BUF_SIZE)
            if len(buf) < L.BUF_SIZE:
                raise ValueError("frame buffer needs %d bytes, got %d" % (L.BUF_SIZE, len(buf)))
            self.buf = buf
            self.fb = Canvas(buf)
        self.edition = edition(DEFAULT_EDITION)
        self._geom = (0, None)  # (size, positions): see _geometry()
        # text(s, x, y, c=1): the canvas's own, bound once (a method that
        # passed it on cost a board a call a line)
        self.text = self.fb.text
        self._symbols = self._symbols_of = None  # see symbols()
        self.faces = None  # see _face()
        self.printed = None  # the suit symbols printed on the faces, with them

    def frame_bytes(self, start=0, end=None):
        """The screen as a MONO_HLSB buffer (bit 1 = ink), or its bytes
        start:end, whatever it was drawn on: a view of the buffer itself, or
        the surface's export of those bytes alone."""
        if self.fb is self.buf:
            return self.fb.to_bytes(start, end)
        return memoryview(self.buf)[start:end]

    # ------------------------------------------------------------ text

    def text_big(self, s, x, y, scale, c=1):
        """Text in the project's font (font8.py), each pixel drawn as a
        scale x scale block (scale 3 = 24 px tall cells). Returns the width
        drawn."""
        scale = _int(scale, 1)
        if scale <= 1:
            self.fb.text(s, x, y, c)
            return len(s) * L.FONT
        fb = self.fb
        step = L.FONT * scale
        ink = getattr(fb, "ink", None)
        if ink is not None:
            ink.text(fb.buf, s, x, y, c, scale)
            return len(s) * step
        x0 = x
        for ch in s:
            if ch != " " and x < L.WIDTH and x + step > 0:
                G.blit(fb, F.bitmap(F.index(ch)), x, y, c, scale)  # the 8x8 glyph, scaled
            x += step
        return x - x0

    def _text_fit(self, s, x, y, w, scales=(2, 1), c=1):
        """Draw s at the biggest scale in scales whose width fits w (clipping
        at the last one). Returns (scale, width)."""
        for sc in scales:
            if len(s) * L.FONT * sc <= w:
                return sc, self.text_big(s, x, y, sc, c)
        sc = scales[-1]
        s = _clip(s, w, sc)
        return sc, self.text_big(s, x, y, sc, c)

    def _text_narrow(self, s, x, y, w, c=1):
        """1x text, squeezed to 7 px a character, or the mini font, to fit w."""
        if len(s) * L.FONT <= w:
            self.text(s, x, y, c)
        elif len(s) * 7 <= w:
            for ch in s:
                self.text(ch, x - 1, y, c)
                x += 7
        else:
            n = (w + 1) // L.MINI_ADV
            G.mini_text(self.fb, s[:n], x, y + 1, c)

    def _tag(self, s, x, y, c=1):
        """Inverted 1x text tag (a 9 px tall box). Returns its width."""
        w = len(s) * L.FONT + 2
        self.fb.fill_rect(x, y, w, 9, c)
        self.text(s, x + 1, y + 1, 1 - c)
        return w

    # ------------------------------------------------------------ names

    def _suit_index(self, suit):
        try:
            return SUITS.index(suit)
        except ValueError:
            return -1

    def suit_name(self, suit):
        k = self._suit_index(suit)
        if k < 0:
            return _str(suit, 8)
        return self.edition["suit_names"][k]

    def suit_symbol(self, suit):
        """The symbol bitmap for a suit key under the current edition."""
        k = self._suit_index(suit)
        if k < 0:
            return None
        return self.symbols()[k]

    def symbols(self, ed=None):
        """The four suits' symbol bitmaps under the current edition (or
        edition ``ed``), by rank as SUITS, found once per edition: every
        card face draws all four."""
        if ed is not None:
            names = ed["suit_names"]
            return tuple(G.suit_bitmap(names[k]) or G.suit_bitmap(SUITS[k]) for k in range(4))
        ed = self.edition
        if self._symbols_of is not ed:
            self._symbols = self.symbols(ed)
            self._symbols_of = ed
        return self._symbols

    # ------------------------------------------------------------ cards

    def _frame(self, x, y, w, h, t):
        """A card frame t pixels thick with rounded corners."""
        fb = self.fb
        for i in range(t):
            fb.rect(x + i, y + i, w - 2 * i, h - 2 * i, 1)
        pixel = fb.pixel
        x1, y1 = x + w - 1, y + h - 1
        for px, py, dx, dy in ((x, y, 1, 1), (x1, y, -1, 1), (x, y1, 1, -1), (x1, y1, -1, -1)):
            pixel(px, py, 0)
            if t > 1:
                pixel(px + dx, py, 0)
                pixel(px, py + dy, 0)
            pixel(px + dx * t, py + dy * t, 1)

    def _geometry(self, w, h):
        """Card-face positions for a w x h card, from layout.py, made once
        per size as one bytes (tuples of tuples kept ~0.4 KB of a board's
        heap): at 8k suit k's box (x, y, w, h), symbol (x, y) and marks
        (centre x, top); at 32 + 2k corner label k; at 40 the triangle
        numeral, 42 the square one, 44 the centre."""
        key = w * 1000 + h
        if self._geom[0] != key:
            out = []
            for k in range(4):
                sname = SUITS[k]
                box = L.edge_box(sname, w, h)
                sym, marks = L.edge_parts(sname, w, h)
                out += [box[0], box[1], box[2], box[3], sym[0], sym[1], marks[0], marks[1]]
            lw, lh = (14, 10) if w >= L.FULL_FACE_MIN and h >= L.FULL_FACE_MIN else (7, 5)  # 2x labels on full faces
            for k in range(4):
                out += L.corner_label(k, w, h, lw, lh)
            tri, sq = L.numerals(w, h)
            self._geom = (key, bytes(out + list(tri) + list(sq) + list(L.centre(w, h))))
        return self._geom[1]

    def render_card(self, cid, x, y, w, h, suit=None, resolving=False, highlight=False, clear=True):
        """One card face in the box (x, y, w, h), faithful to the printed
        card: suit symbols at their edges (Dragon top, Crown left, Blade
        right, Anvil bottom) each with its result marks, the centre circle
        (diamond on Stamina cards) with the XP star / critical rings /
        blessing or wound mark, the triangle and square numerals, and the
        four zodiac corners. ``suit``: the chosen suit, whose edge box is
        inverted. ``resolving``: 3-pixel frame. ``highlight``: the cursor,
        a dotted inner frame. ``clear``: paper the box first (not needed
        on a screen just cleared; ~0.7 ms a card on a Pico).

        With native ink and the faces made at build time (card_faces, see
        card_art.printed_face), a full-size face is one blit of its printed
        parts, the default edition's suit symbols among them: only the
        chosen suit's edge, and another edition's symbols, are drawn
        (~1.1 ms a card on a Pico instead of ~3.6: the face's blit goes a
        word at a time, its bytes aligned in ROMFS by host_tools/rp2040.py)."""
        fb = self.fb
        w = _int(w, L.CARD_W)
        h = _int(h, L.CARD_H)
        if w < 8 or h < 8:
            return
        if clear:
            fb.fill_rect(x, y, w, h, 0)
        card = CARDS.get(_str(cid)) if cid is not None else None
        face = self._face(card) if w == L.CARD_W and h == L.CARD_H else None
        if face is not None:
            fb.ink.blit(fb.buf, face, w, (h + 7) >> 3, x, y, 1, 1)
            if resolving:
                self._frame(x, y, w, h, 3)
        else:
            self._frame(x, y, w, h, 3 if resolving else 1)
        if highlight and not resolving:
            for i in range(x + 2, x + w - 2, 2):
                fb.pixel(i, y + 2, 1)
                fb.pixel(i, y + h - 3, 1)
            for j in range(y + 2, y + h - 2, 2):
                fb.pixel(x + 2, j, 1)
                fb.pixel(x + w - 3, j, 1)
        if card is None:
            s = _clip(_str(cid), w - 8)
            self.text("?", x + w // 2 - 4, y + h // 2 - 8, 1)
            self.text(s, x + (w - len(s) * 8) // 2, y + h // 2 + 2, 1)
            return
        g = self._geometry(w, h)
        symbols = self.symbols()
        for k in range(4):
            e = 8 * k
            c = 1
            if SUITS[k] == suit:
                fb.fill_rect(x + g[e], y + g[e + 1], g[e + 2], g[e + 3], 1)
                c = 0
            elif face is not None:
                printed = self.printed[k]
                if symbols[k] is printed:
                    continue  # on the face already
                fb.fill_rect(x + g[e + 4], y + g[e + 5], printed[0], printed[1], 0)  # the face's one out
            G.blit(fb, symbols[k], x + g[e + 4], y + g[e + 5], c)
            if face is None or not c:
                self._marks(card.levels[k], x + g[e + 6], y + g[e + 7], c)
        if face is None:
            _art().printed(self, card, x, y, w, h)

    def _marks(self, level, cx, y, c):
        """A suit's result marks, centred on cx."""
        bm = G.level_bitmap(level)
        if bm is not None:
            G.blit(self.fb, bm, cx - bm[0] // 2, y, c)
        else:
            G.level_marks(self.fb, level, cx - G.level_width(level) // 2, y, c)

    def _face(self, card):
        """card's face from card_faces (a memoryview of the board's ROMFS),
        or None: no card, no native ink, or no faces (a desktop run, a
        board without them)."""
        if card is None or getattr(self.fb, "ink", None) is None:
            return None
        n = L.FACE_BYTES
        faces = self.faces
        if faces is None:
            try:
                from card_faces import FACES as faces
            except ImportError:
                faces = b""
            faces = memoryview(faces) if len(faces) == n * len(ALL_IDS) else b""
            self.faces = faces
        if not faces:
            return None
        if self.printed is None:
            self.printed = self.symbols(edition(DEFAULT_EDITION))  # the suit symbols on the faces
        i = ALL_IDS.index(card.id) * n
        return faces[i:i + n]

    def _corner_card(self, cid, x, y, w, h, selected):
        """A mini-game card: the four zodiac corners big (inverted 1x
        labels), diagonals towards the centre, the card id in the middle."""
        fb = self.fb
        fb.fill_rect(x, y, w, h, 0)
        self._frame(x, y, w, h, 3 if selected else 1)
        card = CARDS.get(_str(cid))
        corners = card.corners if card is not None else ("?", "?", "?", "?")
        lw, lh, adv = L.MINI_LABEL
        big = w >= 2 * lw + 8  # 2x letters when two labels fit across, else 1x
        if not big:
            lw, lh = 18, 10
        i = 4 if w >= 2 * lw + 8 else 2
        cx, cy = x + w // 2, y + h // 2
        pos = ((x + i, y + i), (x + w - i - lw, y + i), (x + w - i - lw, y + h - i - lh), (x + i, y + h - i - lh))
        for k in range(4):
            px, py = pos[k]
            fb.fill_rect(px, py, lw, lh, 1)
            lab = _art().zodiac_label(corners[k])
            if big:
                for j in range(len(lab[:2])):
                    self.text_big(lab[j], px + j * adv, py + 2, 2, 0)
            else:
                self.text(lab, px + 1, py + 1, 0)
        fb.line(x + i + lw, y + i + lh, cx - 8, cy - 6, 1)
        fb.line(x + w - i - lw - 1, y + i + lh, cx + 8, cy - 6, 1)
        fb.line(x + w - i - lw - 1, y + h - i - lh - 1, cx + 8, cy + 6, 1)
        fb.line(x + i + lw, y + h - i - lh - 1, cx - 8, cy + 6, 1)
        s = _str(cid, 4)
        self.text(s, cx - len(s) * 4, cy - 4, 1)

    # ------------------------------------------------------------ screens

    def render(self, view):
        """Clear the buffer and draw the whole screen for a VIEW dict."""
        fb = self.fb
        fb.fill(0)
        try:
            if not isinstance(view, dict):
                self._message("No screen", ["the view is not a dict:", _str(type(view).__name__, 30)], "")
                return self.buf
            status = view.get("status")
            ed = _dict(status).get("edition")
            self.edition = edition(ed if ed in EDITION_KEYS else DEFAULT_EDITION)
            screen = view.get("screen")
            if screen == "message":
                self._message(view.get("title"), view.get("lines"), view.get("hint"))
                return self.buf
            draw = _SCREENS.get(screen) if isinstance(screen, str) else None
            if draw is None and screen in MENU_SCREENS:
                draw = getattr(__import__("menu_screens"), screen)
            if draw is None and isinstance(screen, str) and "_" in screen:
                draw = _system_screen(screen)
            if draw is None:
                self._message("Unknown screen", ["no screen called", _str(screen, 36)], view.get("hint"))
                return self.buf
            draw(self, view)
            if screen != "flip":
                self._hint(view.get("hint"))
            self._status(status)
        except Exception as e:  # never let a bad view crash the device
            fb.fill(0)
            self._message("Screen error", [_str(type(e).__name__, 36), _str(e, 36)], "")
            self.error = "%s: %s" % (type(e).__name__, e)  # the app logs it (crash.log)
        return self.buf

    def _hint(self, hint, y=L.HINT_Y):
        s = _str(hint, L.CHARS_PER_LINE)
        if s:
            self.text(s, 0, y, 1)

    def _status(self, st):
        fb = self.fb
        st = _dict(st)
        fb.hline(0, L.STATUS_RULE_Y, L.WIDTH, 1)
        s = st.get("footer")  # another system's own counts (see _system_screen)
        if isinstance(s, str):
            s = _str(s, 32)
        else:
            keys = ("draw", "discard", "exhaustion", "xp", "harm", "wounds")
            try:  # the counts as the Ui gives them: six _int calls cost a Pico ~0.45 ms
                s = STATUS_COUNTS % tuple(map(st.get, keys))
            except (TypeError, ValueError, OverflowError):  # a bad view (NaN...): what _int makes of each
                s = STATUS_COUNTS % tuple(_int(st.get(k)) for k in keys)
            if len(s) > 32:
                s = s[:32]
        self.text(s, L.STATUS_TEXT_X, L.STATUS_Y, 1)
        right = L.WIDTH
        volts = st.get("battery")
        if volts is not None:
            bx, by, bw, bh = L.BATTERY
            G.battery(fb, bx, by, volts, L.BATTERY_VOLTS[0], L.BATTERY_VOLTS[1])
            right = bx - 3
        if st.get("incapacitated"):
            tx, ty, tw, th = L.INCAP_TAG
            tx = right - tw
            fb.fill_rect(tx, ty, tw, th, 1)
            G.incap_mark(fb, tx + 2, ty + 1, 0)
            self.text("INCAP", tx + 10, ty + 1, 0)
            right = tx - 3
        name = _str(st.get("name"))
        left = L.STATUS_TEXT_X + len(s) * L.FONT + L.FONT
        room = (right - left) // L.FONT
        if name and room >= 3:
            if len(name) > room:
                name = name[:room]
            self.text(name, right - len(name) * L.FONT, L.STATUS_Y, 1)

    def _message(self, title, lines, hint):
        fb = self.fb
        tx, ty, ts = L.MESSAGE_TITLE
        self._text_fit(_str(title, 60), tx, ty, L.WIDTH - tx, (ts, 1))
        fb.hline(0, L.MESSAGE_RULE_Y, L.WIDTH, 1)
        y = L.MESSAGE_LINE_Y
        for line in _list(lines)[:L.MESSAGE_LINES]:
            self.text(_str(line, L.CHARS_PER_LINE - 1), 4, y, 1)
            y += L.MESSAGE_LINE_H
        s = _str(hint, L.CHARS_PER_LINE)
        if s:
            fb.hline(0, L.STATUS_RULE_Y, L.WIDTH, 1)
            self.text(s, 0, L.MESSAGE_HINT_Y, 1)

    def _title_bar(self, title, right=""):
        fb = self.fb
        x, y, w, h = L.TITLE_BAR
        fb.fill_rect(x, y, w, h, 1)
        right = _str(right, 18)
        rw = len(right) * L.FONT
        self.text(_clip(_str(title, 40), w - 4 - (rw + 8 if rw else 0)), x + 2, y + 2, 0)
        if rw:
            self.text(right, x + w - 2 - rw, y + 2, 0)

    # home -------------------------------------------------------------------

    def _home(self, v):
        fb = self.fb
        st = _dict(v.get("status"))
        ed_label = self.edition["label"]
        if ed_label:
            self.text(ed_label, L.HOME_EDITION_RIGHT - len(ed_label) * L.FONT, L.HOME_NAME[1], 1)
        self.text(_clip(_str(st.get("name"), 24), 190), L.HOME_NAME[0], L.HOME_NAME[1], 1)
        ax, ay, asc = L.HOME_ATTR
        self.text_big(_str(v.get("attr"), 3).upper(), ax, ay, asc)
        suit = v.get("suit")
        sx, sy, ssc = L.HOME_SUIT_SYM
        bm = self.suit_symbol(suit)
        if bm is not None:
            G.blit(fb, bm, sx, sy, 1, ssc)
        nx, ny, nsc = L.HOME_SUIT_NAME
        self._text_fit(self.suit_name(suit), nx, ny, L.HOME_NET_BOX[0] - nx - 4, (nsc, 1))
        mx, my = L.HOME_MOVE
        room = L.HOME_NET_BOX[0] - mx - 4
        move = _str(v.get("move"), 40)
        if move:
            self._text_fit(move, mx, my, room, (2, 1))
        incap = st.get("incapacitated")
        note = _str(v.get("note"), 36)
        if note and not incap:
            self.text(note, mx, L.HOME_NOTE_Y, 1)
        if incap:
            y = my + 16
            w = self._tag("INCAPACITATED", mx, y)
            if isinstance(incap, str):
                self.text(_clip(incap, L.WIDTH - mx - w - 4), mx + w + 4, y + 1, 1)
        # net box
        bx, by, bw, bh = L.HOME_NET_BOX
        fb.rect(bx, by, bw, bh, 1)
        net = _int(v.get("net"))
        ns = _signed(net)
        sc = L.HOME_NET_SCALE
        while sc > 2 and len(ns) * L.FONT * sc > bw - 4:
            sc -= 1
        self.text_big(ns, bx + (bw - len(ns) * L.FONT * sc) // 2, by + 6, sc)
        n = 1 + (net if net > 0 else -net)
        mc = self.edition["max_cards"]
        if n > mc:
            n = mc
        line1 = "%d CARD%s" % (n, "" if n == 1 else "S")
        line2 = "keep best" if net > 0 else ("keep worst" if net < 0 else "")
        self.text(line1, bx + (bw - len(line1) * 8) // 2, by + bh - 24, 1)
        if line2:
            self.text(line2, bx + (bw - len(line2) * 8) // 2, by + bh - 12, 1)

    # flip -------------------------------------------------------------------

    def _flip(self, v):
        fb = self.fb
        cards = _list(v.get("cards"))[:3]
        n = len(cards)
        suit = v.get("suit")
        resolving = v.get("resolving")
        resolving = _int(resolving, -1) if resolving is not None else -1
        selected = v.get("selected")
        selected = _int(selected, -1) if selected is not None else -1
        tied = [_int(t, -1) for t in _list(v.get("tied"))]
        ntied = 0  # "TIE" only when two or more of the shown cards tie
        for i in range(n):
            if i in tied:
                ntied += 1
        if n:
            slots = L.FLIP_SLOTS[n]
            for i in range(n):
                slot = slots[i]
                self.render_card(cards[i], slot[0], slot[1], slot[2], slot[3], suit, i == resolving, i == selected, False)
                mx, my, mw, mh = L.resolve_bar(slot)
                if i == resolving:
                    G.resolve_bar(fb, mx, my, mw, mh)
                if ntied > 1 and i in tied:
                    G.tie_mark(fb, mx, my, mw, mh, i == resolving)
                if i == selected and i != resolving:
                    G.cursor_mark(fb, mx + mw // 2, my, mh)
            side = L.FLIP_SIDE[n]
        else:
            side = L.FLIP_SIDE[1]
            self.text("no cards", 4, 36, 1)
        hint = _str(v.get("hint"), 60)
        note = _str(v.get("note"), 60)
        self._flip_side(v, side, suit, hint if note else "")
        wx, wy, ww, wh = L.FLIP_WORDS
        used = self._words(_str(v.get("words"), 60), wx, wy, ww)
        if note and hint and side[2] < 100:
            # no room beside the cards: the buttons go right of the words,
            # one per line ("A done", "B again", "C more")
            parts = [p for p in hint.split("  ") if p]
            n = 0
            for p in parts:
                n = max(n, len(p))
            if len(parts) * 8 <= wh and used + 8 + n * L.FONT <= ww:
                for k in range(len(parts)):
                    self.text(parts[k], L.WIDTH - n * L.FONT, wy + k * 8, 1)
            else:
                note = note + "  " + hint
        nx, ny, nw, nh = L.FLIP_NOTE
        s = note or hint
        if s:
            self.text(_clip(s, nw), nx, ny, 1)

    def _flip_side(self, v, side, suit, hint):
        """Right of the cards: the suit (symbol and name), the net advantage,
        the resolving level's marks at 2x, FLASHBACK, and the hint when the
        note has taken the hint's row."""
        fb = self.fb
        x, y, w, h = side
        bm = self.suit_symbol(suit)
        if bm is not None:
            G.blit(fb, bm, x, y + 2, 1, 2)
        name = self.suit_name(suit).upper()
        net = _int(v.get("net"))
        level = _int(v.get("level"))
        lw = G.level_width(level, 2) if 1 <= level <= 4 else 0
        my = y + 46
        if w >= 100:
            self._text_fit(name, x + 30, y + 8, w - 30, (2, 1))
            if net:
                s = "net %+d, %s of %d" % (net, "best" if net > 0 else "worst", min(1 + abs(net), self.edition["max_cards"]))
            else:
                s = "net +0"
            if len(s) * L.FONT > w:
                s = s[4:].replace(",", "")
            self.text(_clip(s, w), x, y + 33, 1)
            hy = y + 62
            if v.get("flashback"):
                if lw + 8 + 74 <= w:
                    self._tag("FLASHBACK", x + lw + 8, my + 3)
                else:
                    self._tag("FLASHBACK", x, hy)
                    hy += 10
            if hint:
                for line in _wrap(hint, w // L.FONT, (y + h - hy) // 9):
                    self.text(line, x, hy, 1)
                    hy += 9
        else:
            self.text(_signed(net), x + 28, y + 11, 1)
            self._text_narrow(name, x, y + 32, w)
            my = y + 44
            if v.get("flashback"):
                self._tag("FB", x, my + 18)
        if lw:
            G.level_marks(fb, level, x, my, 1, 2)

    def _words(self, s, x, y, w):
        """The result words, big: all at 3x when they fit, else the main part
        (before ' + ', or the first word) at 3x and the rest beside it at 2x,
        or at 1x on up to three lines."""
        s = s.strip()
        if not s:
            return 0
        sc = L.WORDS_SCALE
        cw = L.FONT * sc
        if len(s) * cw <= w:
            return self.text_big(s, x, y, sc)
        k = s.find(" + ")
        if k > 0:
            main, rest = s[:k], s[k + 1:]
        else:
            k = s.find(" ")
            main, rest = (s[:k], s[k + 1:]) if k > 0 else (s, "")
        main = main[:w // cw]
        used = self.text_big(main, x, y, sc) + 4
        rest = rest.strip()
        if rest.startswith("+ "):
            rest = "+" + rest[2:]
        room = w - used
        if not rest or room < L.FONT:
            return used
        if len(rest) * L.FONT * 2 <= room:
            return used + self.text_big(rest, x + used, y + 4, 2)
        if len(rest) * 14 <= room + 2:  # 2x squeezed to 14 px a character
            for ch in rest:
                self.text_big(ch, x + used - 1, y + 4, 2)
                used += 14
            return used
        lines = _wrap(rest, room // L.FONT, 3)
        yy = y + (3 - len(lines)) * 4
        for line in lines:
            self.text(line, x + used, yy, 1)
            yy += 8
        return w


def system_module(key, name):
    """Module ``name`` of system ``key``'s folder (facets/ui.py for
    ("facets", "ui")), imported on first use: a board pays heap only for the
    system it plays. The folder is the one shared_rules.systems names for
    the key, as for its rules (SAVE's: save2d6)."""
    return __import__(folder(key) + "." + name, None, None, (name,))


def _system_screen(screen):
    """The drawing of another system's screen: "facets_roll" is drawn by
    facets/draw.py's draw(renderer, view). None for an unknown one."""
    key = screen[:screen.find("_")]
    if key not in KEYS or key == "deck":
        return None
    try:
        return system_module(key, "draw").draw
    except (ImportError, AttributeError):
        return None


_SCREENS = {
    "home": Renderer._home,
    "flip": Renderer._flip,
}
# The screens of the menus' flows, drawn by menu_screens.py: loaded when one
# is first drawn and dropped at the home screen with the menus
# (app.RELEASABLE), so the home screen's code is all a board keeps.
MENU_SCREENS = ("menu", "number", "minigame", "entry", "sheet")

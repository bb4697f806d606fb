"""Where everything goes on the screen: the ONE source of positions and sizes.

Plain data (and a few pure functions over plain numbers): no framebuf, no
hardware, so the MicroPython renderer (render.py), a later CircuitPython
displayio renderer and the host tests (tests/host/test_screens.py, CPython)
all read this same file.

Panel: 296 x 128 pixels, 1 bit per pixel. The frame buffer is a
``bytearray(296 * 128 // 8)`` (4736 bytes) in MONO_HLSB order: row after
row, 37 bytes per row, the most significant bit of a byte is the leftmost
pixel. Bit value 1 = BLACK ink, 0 = WHITE paper. A board driver whose panel
wants the opposite inverts the bytes when it sends them.

Rectangles are ``(x, y, w, h)`` in pixels, origin top left. Text uses the
project's 8 x 8 font, font8.py (FONT pixels a character; capitals use rows
0..6 and columns 1..5 of the cell) scaled by whole numbers, or the 3 x 5
mini font of glyphs.py.

Common rows of every screen with a status line::

    y   0 .. 108   the screen's own content
    y 110 .. 117   HINT_Y: the button hint (1x text); the flip screen puts
                   its note here instead when it has one
    y 118          STATUS_RULE_Y: a 1-pixel rule across the panel
    y 120 .. 127   STATUS_Y: the status line (1x text)

The status line, left to right::

    Deck14 Disc4 Exh2 XP3 H1 W0       ...name   [skull INCAP] [battery]

    Deck cards in the draw pile    Disc cards in the discard pile
    Exh  cards in the Exhaustion pile (Stamina lost)
    XP   experience                H  Harm tokens     W  Wound tokens
    (no Shadow: the GM's points, and an "S" reads as Stamina)
    skull + INCAP (inverted) when the player is incapacitated; the battery
    (15 x 7, four bars from BATTERY_VOLTS[0] to [1]) when the board reports
    a voltage. The player's name is right-aligned in what room is left.
"""

WIDTH = 296
HEIGHT = 128
BUF_SIZE = WIDTH * HEIGHT // 8  # 4736 bytes, MONO_HLSB
BLACK = 1  # ink
WHITE = 0  # paper

FONT = 8  # font8.py cell, pixels
CHARS_PER_LINE = WIDTH // FONT  # 37 at 1x
MINI_ADV = 4  # mini font advance (3 x 5 glyphs)

# ---------------------------------------------------------------- common rows
HINT_Y = 110
STATUS_RULE_Y = 118
STATUS_Y = 120
STATUS_TEXT_X = 1
BATTERY = (280, 120, 15, 7)  # x, y, w, h (body 13 + nub 2)
BATTERY_VOLTS = (3.3, 4.1)  # empty .. full; a board may override these
INCAP_TAG = (226, 119, 51, 9)  # skull + "INCAP", inverted, right-aligned left of the battery

# ---------------------------------------------------------------- flip screen
# Cards are square faces, CARD_W x CARD_H, in a row along the top; a side
# panel to their right names the suit, the net advantage and the result
# marks; under each card a marker row (resolving bar, TIE, cursor); under
# that the result words in big text across the whole width; then the note
# (or the hint) and the status line.
CARD_W = 80
CARD_H = 80
CARD_GAP = 4
FLIP_CARD_Y = 0
FLIP_SLOTS = {
    1: ((0, 0, 80, 80),),
    2: ((0, 0, 80, 80), (84, 0, 80, 80)),
    3: ((0, 0, 80, 80), (84, 0, 80, 80), (168, 0, 80, 80)),
}
# The side panel right of the cards, per card count.
FLIP_SIDE = {
    1: (86, 0, 210, 80),
    2: (170, 0, 126, 80),
    3: (251, 0, 45, 80),
}
FLIP_MARK_Y = 80  # marker row directly under the cards
FLIP_MARK_H = 5
FLIP_WORDS = (0, 86, 296, 24)  # the result words: main word at 3x (24 px)
WORDS_SCALE = 3  # the main result word; the rest of the words at 2x or 1x
FLIP_NOTE = (0, HINT_Y, 296, 8)


def resolve_bar(slot):
    """The resolving marker's rectangle under a card slot: a solid bar the
    width of the card (only the resolving card has ink in its top row)."""
    return (slot[0], FLIP_MARK_Y, slot[2], FLIP_MARK_H)


# ---------------------------------------------------------------- card face
# A card face in a w x h box (any size; the numbers below are for the 80 x
# 80 flip card). Positions are relative to the card's top left corner.
#
#      NW                      NE       zodiac corners, mini font labels
#            [ Dragon ]                 suit symbols (13 x 13) with their
#            [  marks ]                 result marks (7 x 7 each)
#     /d4\                   [d6]       triangle and square numerals
#   [Crown]     ( o )      [Blade]      centre frame: circle, or diamond on
#   [marks]                [marks]      Stamina cards; XP star inside,
#            [  marks ]                 crit rings around it
#            [ Anvil  ]
#      SW                      SE
#
# The chosen suit's edge box is inverted (white on black). The frame is 1
# pixel, 3 pixels on the resolving card (so content starts CARD_INSET in).
CARD_INSET = 3
SUIT_SYM = 13  # suit symbol size
EDGE_BOX_LONG = 27  # edge box size along its edge (top/bottom)
EDGE_BOX_SHORT = 23  # edge box size across its edge
SIDE_BOX_W = 25  # left/right boxes are 25 wide, 23 tall
CENTRE_R = 9  # centre circle radius (diamond: CENTRE_R + 1; crit rings out to CENTRE_R + 5)
FULL_FACE_MIN = 76  # smaller faces leave the numerals out
FACE_BYTES = CARD_W * ((CARD_H + 7) // 8)  # a prebuilt face (card_faces): MONO_VLSB, band by band
EDGE_ORDER = ("dragon", "crown", "blade", "anvil")  # top, left, right, bottom


def edge_box(suit, w=CARD_W, h=CARD_H):
    """(dx, dy, bw, bh) of a suit's edge box: Dragon top, Crown left, Blade
    right, Anvil bottom. The symbol and its marks sit inside; the chosen
    suit's box is inverted. None for an unknown suit."""
    cx, cy = w // 2, h // 2
    i = CARD_INSET
    if suit == "dragon":
        return (cx - 13, i, EDGE_BOX_LONG, EDGE_BOX_SHORT)
    if suit == "anvil":
        return (cx - 13, h - i - EDGE_BOX_SHORT, EDGE_BOX_LONG, EDGE_BOX_SHORT)
    if suit == "crown":
        return (i, cy - 9, SIDE_BOX_W, EDGE_BOX_SHORT)
    if suit == "blade":
        return (w - i - SIDE_BOX_W, cy - 9, SIDE_BOX_W, EDGE_BOX_SHORT)
    return None


def edge_parts(suit, w=CARD_W, h=CARD_H):
    """((sx, sy), (mcx, my)): the suit symbol's top left corner and the
    result marks' centre x and top y, relative to the card. The symbol sits
    at the card's edge and its marks towards the centre (above the symbol
    on the bottom edge)."""
    bx, by, bw, bh = edge_box(suit, w, h)
    mid = bx + bw // 2
    if suit == "anvil":
        return (mid - 6, by + 9), (mid, by + 1)
    return (mid - 6, by + 1), (mid, by + 15)


def centre(w=CARD_W, h=CARD_H):
    return (w // 2, h // 2)


def corner_label(k, w=CARD_W, h=CARD_H, lw=7, lh=5):
    """Top left of corner label k (0 NW, 1 NE, 2 SE, 3 SW) of size lw x lh."""
    i = CARD_INSET + 1
    if k == 0:
        return (i, i)
    if k == 1:
        return (w - i - lw, i)
    if k == 2:
        return (w - i - lw, h - i - lh)
    return (i, h - i - lh)


def numerals(w=CARD_W, h=CARD_H):
    """Top left corners of the triangle (17 x 15) and square (13 x 13)
    numerals: inside the upper corners, between the zodiac labels, the
    edge boxes and the centre."""
    return (8, 14), (w - 8 - 13 - 2, 15)


# ---------------------------------------------------------------- home screen
HOME_NAME = (2, 2)  # player name, 1x
HOME_EDITION_RIGHT = 294  # edition label right-aligned here, 1x
HOME_ATTR = (4, 16, 4)  # "STR" at 4x: x, y, scale
HOME_SUIT_SYM = (106, 14, 3)  # suit symbol at 3x (39 px)
HOME_SUIT_NAME = (4, 56, 2)  # suit name at 2x
HOME_MOVE = (4, 78)  # move name (2x if it fits, else 1x) / incapacitated
HOME_NOTE_Y = 99  # "+1 kept from the last flip", 1x, under the move
HOME_NET_BOX = (196, 12, 98, 80)  # framed box: net at 5x, card count under it
HOME_NET_SCALE = 5

# ---------------------------------------------------------------- menu
TITLE_BAR = (0, 0, 296, 11)  # inverted bar, title at 1x (menu, sheet, minigame)
MENU_ROW_Y = 12
MENU_ROW_H = 16
MENU_ROWS = 6  # visible rows (12 .. 107)
MENU_TEXT_X = 4
MENU_SCROLL_X = 287  # scroll arrows column
MENU_CHARS_2X = 17  # longer items are squeezed (14 px a character, up to 20), then drop to 1x

# ---------------------------------------------------------------- number
NUMBER_TITLE = (4, 4, 2)  # x, y, scale
NUMBER_VALUE_Y = 32
NUMBER_SCALE = 6  # 48 px digits
NUMBER_UNIT_SCALE = 2
ENTRY_TEXT = (6, 50, 2)  # a name being spelled: x, y, scale (16 px letters)
ENTRY_CHARS = 18  # letters shown at once (the last ones), the cursor letter included

# ---------------------------------------------------------------- message
MESSAGE_TITLE = (4, 3, 2)
MESSAGE_RULE_Y = 21
MESSAGE_LINE_Y = 26
MESSAGE_LINE_H = 13
MESSAGE_LINES = 6
MESSAGE_HINT_Y = STATUS_Y  # no status line: the hint takes the bottom row

# ---------------------------------------------------------------- minigame
# Cards with big corner labels; the selected card has a bar under it.
MINI_CARD_Y = 13
MINI_CARD_H = 70
MINI_SLOTS = {
    1: ((113, 13, 70, 70),),
    2: ((76, 13, 70, 70), (150, 13, 70, 70)),
    3: ((39, 13, 70, 70), (113, 13, 70, 70), (187, 13, 70, 70)),
    4: ((2, 13, 70, 70), (76, 13, 70, 70), (150, 13, 70, 70), (224, 13, 70, 70)),
    5: ((0, 13, 56, 70), (60, 13, 56, 70), (120, 13, 56, 70), (180, 13, 56, 70), (240, 13, 56, 70)),
}
MINI_MAX_CARDS = 5
MINI_MARK_Y = 84
MINI_MARK_H = 4
MINI_INFO_Y = 94  # "solved" line
MINI_LABEL = (26, 18, 12)  # a corner label's box w, h and the 2x letters' advance (squeezed)

# ---------------------------------------------------------------- sheet
SHEET_ATTR_X = 2
SHEET_ATTR_Y = 14
SHEET_ATTR_H = 31  # one attribute per 31 px: "STR" 2x, symbol, suit name
SHEET_MOVES = (150, 13, 146, 96)  # moves list: x, y, w, h
SHEET_MOVE_H = 12  # row height, 1x text
SHEET_MOVE_ROWS = 8

"""Card data: the 20 Deckahedron cards and both sets of supply cards.

Source: ../shared/reference/deck_reference.json (1kFA by sjbrown, CC BY 3.0).
Ids: "1".."20" are the Deckahedron in PRINT order (the only order in which the
numerals and zodiac corners are bound to the right card); "pb1".."pb6" and
"pw1", "pw2" are the PRINT blessing and wound cards (the default, paired with
the seed editions); "b1".."b6" and "w1" are the WEB set.
"""

from shared_rules.errors import RulesError

SUITS = ("anvil", "blade", "crown", "dragon")  # index = rank - 1
LEVEL_MISS, LEVEL_SINGLE, LEVEL_DOUBLE, LEVEL_TRIPLE = 1, 2, 3, 4

# Corner letters -> zodiac names. Dragon (blessings) is wild except against
# goat; goat (wounds) matches nothing, not even itself.
ZODIAC = {
    "C": "cow", "H": "horse", "R": "rabbit", "T": "rat", "D": "dog",
    "M": "monkey", "G": "tiger", "S": "snake", "K": "cock", "P": "pig",
    "W": "dragon", "O": "goat",
}

# One card per line: id, kind (d = deck, b = blessing, w = wound), levels
# (anvil blade crown dragon), marks (X = XP, S = Stamina, C = critical
# success, F = critical failure, - = none), triangle and square numerals
# (0 = blank), corners NW NE SE SW, centre marker. One string keeps the
# table's bytecode small on a board's heap.
_TABLE = (
    "1 d 1111 F 02 CHRT -\n"
    "2 d 1232 - 11 HPDG -\n"
    "3 d 1434 - 26 TSMG -\n"
    "4 d 2234 - 35 DMKC -\n"
    "5 d 2323 - 40 RSKP -\n"
    "6 d 1223 - 03 HTRC -\n"
    "7 d 2123 - 16 GPDH -\n"
    "8 d 1141 X 24 SGMT -\n"
    "9 d 2212 X 32 CMKD -\n"
    "10 d 3122 - 45 SPKR -\n"
    "11 d 4444 SC 46 HTCR -\n"
    "12 d 1334 S 31 DPHG -\n"
    "13 d 3344 S 25 SGTM -\n"
    "14 d 3434 S 14 KMDC -\n"
    "15 d 1224 XS 03 SPRK -\n"
    "16 d 3212 XS 42 HCRT -\n"
    "17 d 4112 XS 30 DHPG -\n"
    "18 d 3434 S 23 STMG -\n"
    "19 d 1342 S 11 KDMC -\n"
    "20 d 3343 S 04 SRKP -\n"
    "pb1 b 4344 - 00 WWWW copper\n"
    "pb2 b 3444 - 00 WWWW copper\n"
    "pb3 b 4344 - 00 WWWW copper\n"
    "pb4 b 3444 - 00 WWWW copper\n"
    "pb5 b 4444 - 00 WWWW gold\n"
    "pb6 b 4444 - 00 WWWW gold\n"
    "pw1 w 1112 - 00 OOOO minus1\n"
    "pw2 w 1121 - 00 OOOO minus1\n"
    "b1 b 4433 - 00 WWWW return\n"
    "b2 b 4343 - 00 WWWW return\n"
    "b3 b 4334 - 00 WWWW return\n"
    "b4 b 3443 - 00 WWWW return\n"
    "b5 b 3434 - 00 WWWW return\n"
    "b6 b 3344 - 00 WWWW return\n"
    "w1 w 1111 - 00 OOOO exhaust_top\n"
)



_KINDS = {"d": "deck", "b": "blessing", "w": "wound"}

try:
    from collections import namedtuple
except ImportError:  # older MicroPython
    from ucollections import namedtuple

# One named tuple per card, of the namedtuple type itself: a subclass (for a
# method) would wrap each tuple in an instance, ~1 KB more on a board's heap
# for the 35 cards. ``levels`` are anvil, blade, crown, dragon (1-4); ``crit``
# is "success", "fail" or None; ``d4``/``d6`` are the triangle and square
# numerals (0 = blank); ``corners`` are zodiac names NW, NE, SE, SW.
Card = namedtuple("Card", ("id", "kind", "levels", "xp", "stamina", "crit", "d4", "d6", "corners", "marker"))


def level(c, suit):
    """The level (1-4) card ``c`` shows for ``suit``."""
    return c.levels[suit_index(suit)]


# Every id, in table order, written out: string literals are interned names
# that a board keeps in its flash image, where the words split from _TABLE
# would each take a heap string.
ALL_IDS = (
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20",
    "pb1", "pb2", "pb3", "pb4", "pb5", "pb6", "pw1", "pw2", "b1", "b2", "b3", "b4", "b5", "b6", "w1",
)
DECK_IDS = ALL_IDS[:20]
# (blessings, wounds) of each set: "print" pb1-pb6, pw1, pw2; "web" b1-b6, w1.
# Slices of ALL_IDS, not the ids again: on the stock image each id written
# out is a str object of its own in the heap.
SUPPLY_SETS = {
    "print": (ALL_IDS[20:26], ALL_IDS[26:28]),
    "web": (ALL_IDS[28:34], ALL_IDS[34:]),
}
DEFAULT_SUPPLY_SET = "print"
_MARKERS = ("copper", "gold", "minus1", "return", "exhaust_top")


def _parse(cid, line, shared):
    f = line.split()
    if f[0] != cid:
        raise ValueError("cards: table row %s is not %s" % (f[0], cid))
    crit = "success" if "C" in f[3] else ("fail" if "F" in f[3] else None)
    levels = shared.get(f[2])  # equal tuples are shared (digits and
    if levels is None:  # letters: the two kinds of key never clash)
        levels = shared[f[2]] = tuple(int(ch) for ch in f[2])
    corners = shared.get(f[5])
    if corners is None:
        corners = shared[f[5]] = tuple(ZODIAC[ch] for ch in f[5])
    marker = "" if f[6] == "-" else _MARKERS[_MARKERS.index(f[6])]
    return Card(cid, _KINDS[f[1]], levels, "X" in f[3], "S" in f[3], crit,
                int(f[4][0]), int(f[4][1]), corners, marker)


def _cards():
    out = {}
    shared = {}
    rows = _TABLE.split("\n")
    for i in range(len(ALL_IDS)):
        out[ALL_IDS[i]] = _parse(ALL_IDS[i], rows[i], shared)
    return out


CARDS = _cards()
# Built once: the table and its parser leave a board's heap (their function
# and constant objects, ~0.3 KB); the cards keep what they need.
del _TABLE, _parse, _cards, _KINDS, _MARKERS


def card(cid):
    """The card with this id, or a RulesError naming the valid ids."""
    c = CARDS.get(cid)
    if c is None:
        raise RulesError("bad_card", "unknown card id %r: use 1-20, pb1-pb6, pw1, pw2, b1-b6 or w1" % (cid,))
    return c


def suit_index(suit):
    try:
        return SUITS.index(suit)
    except ValueError:
        raise RulesError("bad_suit", "unknown suit %r: choose anvil, blade, crown or dragon" % (suit,))


def check_suit(suit):
    suit_index(suit)
    return suit

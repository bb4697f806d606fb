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

SUPPLY_SETS = {
    "print": (("pb1", "pb2", "pb3", "pb4", "pb5", "pb6"), ("pw1", "pw2")),
    "web": (("b1", "b2", "b3", "b4", "b5", "b6"), ("w1",)),
}
DEFAULT_SUPPLY_SET = "print"


_KINDS = {"d": "deck", "b": "blessing", "w": "wound"}

try:
    from collections import namedtuple
except ImportError:  # older MicroPython
    from ucollections import namedtuple

# A tuple per card rather than an object with its own attribute dict: half
# the heap on a board, and cards are never changed.
_CardFields = namedtuple("Card", ("id", "kind", "levels", "xp", "stamina", "crit", "d4", "d6", "corners", "marker"))


class Card(_CardFields):
    """One physical card. ``levels`` are anvil, blade, crown, dragon (1-4);
    ``crit`` is "success", "fail" or None; ``d4``/``d6`` are the triangle and
    square numerals (0 = blank); ``corners`` are zodiac names NW, NE, SE, SW."""

    __slots__ = ()

    def level(self, suit):
        return self.levels[suit_index(suit)]

    def __repr__(self):
        return "Card(%s)" % self.id


def _parse(line):
    f = line.split()
    crit = "success" if "C" in f[3] else ("fail" if "F" in f[3] else None)
    return Card(f[0], _KINDS[f[1]], tuple(int(ch) for ch in f[2]), "X" in f[3], "S" in f[3], crit,
                int(f[4][0]), int(f[4][1]), tuple(ZODIAC[ch] for ch in f[5]), "" if f[6] == "-" else f[6])


CARDS = {}
for _line in _TABLE.split("\n"):
    if _line:
        _c = _parse(_line)
        CARDS[_c.id] = _c
del _line, _c

ALL_IDS = tuple(line.split()[0] for line in _TABLE.split("\n") if line)
DECK_IDS = ALL_IDS[:20]


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

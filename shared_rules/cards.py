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

# id, kind, levels (anvil blade crown dragon), marks (X = XP, S = Stamina,
# C = critical success, F = critical failure), triangle (d4, 0 = blank),
# square (d6, 0 = blank), corners NW NE SE SW, centre marker.
_TABLE = (
    ("1", "deck", "1111", "F", 0, 2, "CHRT", ""),
    ("2", "deck", "1232", "", 1, 1, "HPDG", ""),
    ("3", "deck", "1434", "", 2, 6, "TSMG", ""),
    ("4", "deck", "2234", "", 3, 5, "DMKC", ""),
    ("5", "deck", "2323", "", 4, 0, "RSKP", ""),
    ("6", "deck", "1223", "", 0, 3, "HTRC", ""),
    ("7", "deck", "2123", "", 1, 6, "GPDH", ""),
    ("8", "deck", "1141", "X", 2, 4, "SGMT", ""),
    ("9", "deck", "2212", "X", 3, 2, "CMKD", ""),
    ("10", "deck", "3122", "", 4, 5, "SPKR", ""),
    ("11", "deck", "4444", "SC", 4, 6, "HTCR", ""),
    ("12", "deck", "1334", "S", 3, 1, "DPHG", ""),
    ("13", "deck", "3344", "S", 2, 5, "SGTM", ""),
    ("14", "deck", "3434", "S", 1, 4, "KMDC", ""),
    ("15", "deck", "1224", "XS", 0, 3, "SPRK", ""),
    ("16", "deck", "3212", "XS", 4, 2, "HCRT", ""),
    ("17", "deck", "4112", "XS", 3, 0, "DHPG", ""),
    ("18", "deck", "3434", "S", 2, 3, "STMG", ""),
    ("19", "deck", "1342", "S", 1, 1, "KDMC", ""),
    ("20", "deck", "3343", "S", 0, 4, "SRKP", ""),
    ("pb1", "blessing", "4344", "", 0, 0, "WWWW", "copper"),
    ("pb2", "blessing", "3444", "", 0, 0, "WWWW", "copper"),
    ("pb3", "blessing", "4344", "", 0, 0, "WWWW", "copper"),
    ("pb4", "blessing", "3444", "", 0, 0, "WWWW", "copper"),
    ("pb5", "blessing", "4444", "", 0, 0, "WWWW", "gold"),
    ("pb6", "blessing", "4444", "", 0, 0, "WWWW", "gold"),
    ("pw1", "wound", "1112", "", 0, 0, "OOOO", "minus1"),
    ("pw2", "wound", "1121", "", 0, 0, "OOOO", "minus1"),
    ("b1", "blessing", "4433", "", 0, 0, "WWWW", "return"),
    ("b2", "blessing", "4343", "", 0, 0, "WWWW", "return"),
    ("b3", "blessing", "4334", "", 0, 0, "WWWW", "return"),
    ("b4", "blessing", "3443", "", 0, 0, "WWWW", "return"),
    ("b5", "blessing", "3434", "", 0, 0, "WWWW", "return"),
    ("b6", "blessing", "3344", "", 0, 0, "WWWW", "return"),
    ("w1", "wound", "1111", "", 0, 0, "OOOO", "exhaust_top"),
)

SUPPLY_SETS = {
    "print": (("pb1", "pb2", "pb3", "pb4", "pb5", "pb6"), ("pw1", "pw2")),
    "web": (("b1", "b2", "b3", "b4", "b5", "b6"), ("w1",)),
}
DEFAULT_SUPPLY_SET = "print"


class Card:
    """One physical card. Immutable by convention; shared, never copied."""

    def __init__(self, row):
        cid, kind, levels, marks, d4, d6, corners, marker = row
        self.id = cid
        self.kind = kind  # "deck", "blessing" or "wound"
        self.levels = tuple(int(ch) for ch in levels)
        self.xp = "X" in marks
        self.stamina = "S" in marks
        self.crit = "success" if "C" in marks else ("fail" if "F" in marks else None)
        self.d4 = d4  # 0 means the triangle is blank
        self.d6 = d6  # 0 means the square is blank
        self.corners = tuple(ZODIAC[ch] for ch in corners)  # NW, NE, SE, SW
        self.marker = marker

    def level(self, suit):
        return self.levels[suit_index(suit)]

    def __repr__(self):
        return "Card(%s)" % self.id


CARDS = {}
for _row in _TABLE:
    CARDS[_row[0]] = Card(_row)
del _row

DECK_IDS = tuple(str(i) for i in range(1, 21))
ALL_IDS = tuple(row[0] for row in _TABLE)


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

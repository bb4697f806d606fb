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
# that a board keeps in its flash image, where the words split from the table
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


def _cards():
    """Every card by id, from the text table of card_table.py, which leaves
    the heap again with its module: on the stock image a loaded module's
    constants (the table's ~0.8 KB of text) and code stay in the heap."""
    import sys

    from shared_rules.deck import card_table

    try:
        return card_table.cards(Card, ZODIAC, ALL_IDS)
    finally:
        sys.modules.pop("shared_rules.deck.card_table", None)
        del sys.modules["shared_rules.deck"].card_table


CARDS = _cards()
del _cards


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

"""The cards as one table of text, read once: shared_rules.deck.cards
builds its Card tuples from it (cards()) and drops this module again, so
that on the stock image the table's text and its parser leave the heap
(a loaded module keeps its constants and code there).

Source: ../shared/reference/deck_reference.json (1kFA by sjbrown, CC BY 3.0).
"""

# One card per line: id, kind (d = deck, b = blessing, w = wound), levels
# (anvil blade crown dragon), marks (X = XP, S = Stamina, C = critical
# success, F = critical failure, - = none), triangle and square numerals
# (0 = blank), corners NW NE SE SW, centre marker. One string keeps the
# table's bytecode small on a board's heap.
TABLE = (
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
_MARKERS = ("copper", "gold", "minus1", "return", "exhaust_top")


def _parse(card_type, zodiac, cid, line, shared):
    f = line.split()
    if f[0] != cid:
        raise ValueError("cards: table row %s is not %s" % (f[0], cid))
    crit = "success" if "C" in f[3] else ("fail" if "F" in f[3] else None)
    levels = shared.get(f[2])  # equal tuples are shared (digits and
    if levels is None:  # letters: the two kinds of key never clash)
        levels = shared[f[2]] = tuple(int(ch) for ch in f[2])
    corners = shared.get(f[5])
    if corners is None:
        corners = shared[f[5]] = tuple(zodiac[ch] for ch in f[5])
    marker = "" if f[6] == "-" else _MARKERS[_MARKERS.index(f[6])]
    return card_type(cid, _KINDS[f[1]], levels, "X" in f[3], "S" in f[3], crit,
                int(f[4][0]), int(f[4][1]), corners, marker)


def cards(card_type, zodiac, ids):
    """{id: card} of every row, each a ``card_type`` (cards.Card), in the
    order of ``ids`` (cards.ALL_IDS); ``zodiac`` maps corner letters to
    names (cards.ZODIAC)."""
    out = {}
    shared = {}
    rows = TABLE.split("\n")
    for i in range(len(ids)):
        out[ids[i]] = _parse(card_type, zodiac, ids[i], rows[i], shared)
    return out

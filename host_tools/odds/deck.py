"""`deckahedron odds` for the Deckahedron (the default system): exact flip odds
by enumeration for any draw pile.

    deckahedron odds [--suit anvil|blade|crown|dragon] [--net N] [--cards IDS] [--json]

Without --suit and --net: every suit at nets -2..2. The numbers come from
shared_rules.deck.odds (exact fractions); the table shows them as percentages and
--json as reduced "a/b" strings.
"""

import json
import sys

from shared_rules.deck import odds
from shared_rules.deck.cards import CARDS, DECK_IDS, SUITS
from shared_rules.deck.results import WORDS
from shared_rules.errors import RulesError
from shared_rules.deck.flips import check_net

# levels 1..4 in the device's result words (a terminal may lack the edition's glyphs)
LEVEL_HEADERS = tuple(WORDS[lv] for lv in (1, 2, 3, 4))
SUCCESS_HEADER = LEVEL_HEADERS[1] + "+"  # a check: level 2 or better
OPTIONS = ("suit", "net", "cards")


class BadInput(Exception):
    pass


def add_arguments(parser):
    group = parser.add_argument_group("the Deckahedron (the default system)")
    group.add_argument("--suit", choices=SUITS, help="only this suit (default: all four)")
    group.add_argument("--net", metavar="N", help="net advantage (+) or disadvantage (-), -6..6 (default: -2..2)")
    group.add_argument("--cards", metavar="IDS",
                       help="comma-separated card ids of the draw pile: 1-20, pb1-pb6, pw1, pw2, "
                            "b1-b6, w1 (default: the 20 Deckahedron cards)")


def used(args):
    """The Deckahedron's options given on the command line (to refuse them elsewhere)."""
    return ["--" + k for k in OPTIONS if getattr(args, k, None) is not None]


def parse_net(text):
    try:
        value = int(text.strip())
    except (ValueError, AttributeError):
        raise BadInput("net advantage must be a whole number from -6 to 6, not %r" % (text,))
    return check_net(value)


def parse_cards(text):
    if text is None:
        return list(DECK_IDS)
    ids = [part.strip() for part in text.split(",")]
    if ids == [""]:
        raise BadInput("--cards is empty: the pile needs at least one card")
    for cid in ids:
        if not cid:
            raise BadInput("--cards has an empty id (two commas in a row or a comma at an end): %r" % (text,))
    return ids


def _signed(net):
    return "+%d" % net if net > 0 else "%d" % net


def _cap_note(net):
    if net > 2:
        return "net %s flips 3 cards: advantage beyond 2 is ignored (MD, Multiple Advantages)" % _signed(net)
    if net < -2:
        return "net %s flips 3 cards: disadvantage beyond 2 is ignored (MD, Multiple Disadvantages)" % _signed(net)
    return None


def compute(args):
    """(pile ids, rows) or BadInput / RulesError; prints nothing."""
    pile = parse_cards(args.cards)
    suits = [args.suit] if args.suit else list(SUITS)
    nets = [parse_net(args.net)] if args.net is not None else list(odds.DEFAULT_NETS)
    rows = odds.odds_table(pile, suits, nets)
    return pile, rows


def _json_rows(rows):
    out = []
    for r in rows:
        levels = {}
        for lv in ("1", "2", "3", "4"):
            levels[lv] = r["levels"][lv]
        out.append({"suit": r["suit"], "net": r["net"], "cards_flipped": r["cards_flipped"],
                    "levels": levels, "xp": r["xp"]})
    return out


def _pile_title(pile):
    if sorted(pile, key=str) == sorted(DECK_IDS, key=str):
        return "a fresh Deckahedron (cards 1-20)"
    return "a pile of %d card%s: %s" % (len(pile), "" if len(pile) == 1 else "s", ", ".join(pile))


def _print_table(pile, rows):
    from rich.console import Console
    from rich.table import Table

    console = Console(file=sys.stdout, highlight=False)
    table = Table(title="Exact flip odds for %s" % _pile_title(pile),
                  caption="percent; %s = %s or better; XP = a tied resolving card shows XP"
                          % (SUCCESS_HEADER, LEVEL_HEADERS[1]))
    table.add_column("suit")
    table.add_column("net", justify="right")
    table.add_column("cards", justify="right")
    for h in LEVEL_HEADERS:
        table.add_column(h, justify="right")
    table.add_column(SUCCESS_HEADER, justify="right")
    table.add_column("XP", justify="right")
    for r in rows:
        fr = [odds.parse_fraction(r["levels"][lv]) for lv in ("1", "2", "3", "4")]
        cells = [odds.percent_str(a, b) for a, b in fr]
        sa, sb = odds.success(r)
        xa, xb = odds.parse_fraction(r["xp"])
        table.add_row(r["suit"].capitalize(), _signed(r["net"]), str(r["cards_flipped"]),
                      *(cells + [odds.percent_str(sa, sb), odds.percent_str(xa, xb)]))
    console.print(table)

    notes = []
    seen = []
    for r in rows:
        note = _cap_note(r["net"])
        if note and note not in seen:
            seen.append(note)
            notes.append(note)
    wounds = [cid for cid in pile if CARDS[cid].kind == "wound"]
    if wounds:
        notes.append("wound card%s in the pile (%s): a wound card stops the flip the moment it is "
                     "flipped and counts among the cards flipped (MD, A Wound Card)"
                     % ("" if len(wounds) == 1 else "s", ", ".join(wounds)))
    blessings = [cid for cid in pile if CARDS[cid].kind == "blessing"]
    if blessings:
        notes.append("blessing card%s in the pile (%s) count like any other card"
                     % ("" if len(blessings) == 1 else "s", ", ".join(blessings)))
    notes.append("ties: when several cards show the resolving level the player may pick any of them, "
                 "so XP counts if any of them shows XP (MD, Advantage)")
    for note in notes:
        console.print(note, markup=False, soft_wrap=True)


def run(args, complain):
    try:
        pile, rows = compute(args)
    except (BadInput, RulesError) as e:
        complain(str(e))
        return 2
    if args.json:
        sys.stdout.write(json.dumps(_json_rows(rows), indent=2, ensure_ascii=False) + "\n")
    else:
        _print_table(pile, rows)
    return 0

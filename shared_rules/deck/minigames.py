"""Corner-matching mini-games (Pick Locks, Fundamental Magic) and the Pursuit.

Sources: MD *Corner-matching Mini-games*, *Pick Locks*, *Fundamental Magic*,
*The Pursuit Mini-game*; deck reference section 4 and section 7 rows 20-21.

Matching (MD *Corner-matching Mini-games*): two touching corners match when
they show the same zodiac symbol. Blessing cards show "dragon", which is
wild: it matches every symbol except "goat" (so dragon-dragon matches).
Wound cards show "goat", which matches nothing, not even another goat.

MD gives both games in one or two sentences and the illustrations are still
"TODO: illustration". The geometry below is THIS PROJECT'S READING of that
text; it is not written out in the rules.

Pick Locks (3 cards, "corner-to-corner in a line"). The cards lie on one
diagonal. The middle card touches its neighbours at two OPPOSITE corners
(NW and SE, or NE and SW, either way round). The outer cards may be turned
freely, so any one of their four corners can be the touching one. Any card
may be the middle one. This is the model behind the reference's 83.42%
figure (first three cards of a fresh deck)::

    [L]
       x            x = a touch point: L's corner = M's NW
        [M]
           x        x = M's SE = R's corner
            [R]

Fundamental Magic (4 cards, "a box shape"). Read here as a closed ring of
four cards round a square hole. Each card touches both neighbours at a
single corner point, and those two corners are the ends of the card's edge
that faces the hole. Cards may be turned (a quarter turn at a time) but not
flipped face-down, so a card's corners keep their clockwise order::

                +-----+
                | TOP |
                |     |
          +-----a-----b-----+        a = TOP's SW  touches LEFT's NE
          |LEFT |     |RIGHT|        b = TOP's SE  touches RIGHT's NW
          |     | hole|     |        c = RIGHT's SW touches BOTTOM's NE
          +-----d-----c-----+        d = BOTTOM's NW touches LEFT's SE
                |     |
                |BOTTM|
                +-----+

Walk the ring clockwise: TOP, RIGHT, BOTTOM, LEFT. TOP faces the hole with
its S edge. Its corner toward the card before it (LEFT) is SW, and toward
the card after it (RIGHT) is SE. Number the printed corners clockwise
NW, NE, SE, SW = c[0..3], and let edge k run from c[k] to c[(k+1) % 4]
(0 = N, 1 = E, 2 = S, 3 = W). Then a card that faces the hole with edge k
touches the previous card with c[(k+1) % 4] and the next card with c[k].
Check: TOP, k = 2 (S): previous SW = c[3], next SE = c[2]. RIGHT, k = 3 (W):
previous (TOP) NW = c[0], next (BOTTOM) SW = c[3]. Turning a card only
changes which printed edge is k. A face-down flip would reverse the order,
and that is not allowed. Each of the four touch points must match.

Every result is built in a fixed search order, so CPython and MicroPython
return the same arrangement. No dict or set iteration order is used.

Pursuit (MD *The Pursuit Mini-game*): ``pursuit_flip`` maps Str + Dex -
encumbrance to a suit and a net advantage. The table stops at 5, so a
higher value is read as 5 and flagged ``beyond_table``. ``Pursuit`` keeps
the best-of-5 rounds and their helpers.
"""

from shared_rules.deck.cards import CARDS, ZODIAC, Card
from shared_rules.errors import RulesError

CORNER_NAMES = ("nw", "ne", "se", "sw")  # index = position in Card.corners
EDGE_NAMES = ("n", "e", "s", "w")  # edge k runs from corner k to corner k+1
RING_POSITIONS = ("top", "right", "bottom", "left")  # clockwise
# The printed edge that must face the hole at each ring position, when the
# card is upright: top shows its S edge, right its W edge, and so on.
_HOLE_EDGE = (2, 3, 0, 1)

WILD = "dragon"
NEVER = "goat"
SYMBOLS = tuple(sorted(ZODIAC.values()))

# The middle card of a Pick Locks line: (corner toward the left card,
# corner toward the right card). Both are opposite corners, either way round.
_MIDDLE_PAIRS = ((0, 2), (1, 3), (2, 0), (3, 1))

KINDS = ("pick_locks", "magic")
CARD_COUNTS = {"pick_locks": 3, "magic": 4}


# --------------------------------------------------------------------------
# Matching


def _match(a, b):
    if a == NEVER or b == NEVER:
        return False
    return a == b or a == WILD or b == WILD


def _shown(a, b):
    """The symbol a matched touch point stands for (dragon gives way)."""
    return b if a == WILD else a


def check_symbol(sym):
    if sym not in SYMBOLS:
        raise RulesError("bad_symbol", "unknown corner symbol %r: choose one of %s" % (sym, ", ".join(SYMBOLS)))
    return sym


def corners_match(a, b):
    """True when two corner symbols match (MD *Corner-matching Mini-games*):
    equal symbols match; dragon is wild except against goat; goat never
    matches, not even goat."""
    return _match(check_symbol(a), check_symbol(b))


# --------------------------------------------------------------------------
# Card lists


def _cards(cards, n, game):
    """Cards (Card objects or ids) as a list of Card, checked."""
    if not isinstance(cards, (list, tuple)):
        raise RulesError("bad_count", "%s needs a list of %d cards, not %r" % (game, n, cards))
    if len(cards) != n:
        raise RulesError("bad_count", "%s uses exactly %d cards, not %d" % (game, n, len(cards)))
    out = []
    for c in cards:
        if isinstance(c, str):
            got = CARDS.get(c)
            if got is None:
                raise RulesError("bad_card", "unknown card id %r: use 1-20, pb1-pb6, pw1, pw2, b1-b6 or w1" % (c,))
            c = got
        elif not isinstance(c, Card):
            raise RulesError("bad_card", "%r is not a card" % (c,))
        for seen in out:
            if seen.id == c.id:
                raise RulesError("duplicate_card", "card %s appears twice; every card on the table is a different card" % c.id)
        out.append(c)
    return out


def _permutations(items):
    """All orderings of ``items``, in lexicographic order of position."""
    if len(items) <= 1:
        return [list(items)]
    out = []
    for i in range(len(items)):
        rest = list(items[:i]) + list(items[i + 1:])
        for tail in _permutations(rest):
            out.append([items[i]] + tail)
    return out


# --------------------------------------------------------------------------
# Pick Locks


def solve_pick_locks(cards):
    """An arrangement of 3 cards for Pick Locks, or None when none exists.

    Returns ``{"order": [left_id, middle_id, right_id], "touch": [[left
    corner, middle corner], [middle corner, right corner]], "symbols":
    [sym1, sym2]}``. Corner names are the printed corners "nw" "ne" "se"
    "sw". Turn each outer card so that the named corner touches the middle
    card. A symbol is the one the touch point shows (a dragon gives way to
    the other symbol).

    Search order: middle = card 0, 1, 2; the lower-indexed of the other two
    goes on the left; the middle corners are tried as (nw,se), (ne,sw),
    (se,nw), (sw,ne); the left corners and then the right corners are tried
    nw, ne, se, sw. The first hit is returned.
    """
    cs = _cards(cards, 3, "Pick Locks")
    for m in range(3):
        others = [i for i in range(3) if i != m]
        left, mid, right = cs[others[0]], cs[m], cs[others[1]]
        for mx, my in _MIDDLE_PAIRS:
            sx, sy = mid.corners[mx], mid.corners[my]
            lc = -1
            for i in range(4):
                if _match(left.corners[i], sx):
                    lc = i
                    break
            if lc < 0:
                continue
            for rc in range(4):
                if _match(sy, right.corners[rc]):
                    return {
                        "order": [left.id, mid.id, right.id],
                        "touch": [[CORNER_NAMES[lc], CORNER_NAMES[mx]], [CORNER_NAMES[my], CORNER_NAMES[rc]]],
                        "symbols": [_shown(left.corners[lc], sx), _shown(sy, right.corners[rc])],
                    }
    return None


# --------------------------------------------------------------------------
# Fundamental Magic


def _to_prev(k):
    return (k + 1) % 4


def solve_magic_box(cards):
    """An arrangement of 4 cards for Fundamental Magic, or None.

    Returns a dict:

    * ``ring``: the card ids clockwise from the top (top, right, bottom,
      left);
    * ``inward``: for each ring card, the printed edge ("n" "e" "s" "w")
      that faces the hole;
    * ``turns``: the clockwise quarter turns from upright that bring that
      edge to the hole;
    * ``touch``: for i = 0..3, ``[corner of ring[i], corner of ring[i+1]]``
      at the touch point between ring card i and the next card clockwise
      (the last pair closes the ring back to ring[0]);
    * ``symbols``: the symbol shown at each of these 4 touch points.

    Search order: card 0 is on top; the other three are tried in every
    order (lexicographic by input index); then the inward edges are tried
    k = 0..3 (n, e, s, w) for each card in ring order, with backtracking.
    The first hit is returned.
    """
    cs = _cards(cards, 4, "Fundamental Magic")
    for rest in _permutations([1, 2, 3]):
        ring = [cs[0]] + [cs[i] for i in rest]
        ks = _ring_edges(ring)
        if ks is not None:
            touch = []
            symbols = []
            for i in range(4):
                a, b = ring[i], ring[(i + 1) % 4]
                ca, cb = ks[i], _to_prev(ks[(i + 1) % 4])
                touch.append([CORNER_NAMES[ca], CORNER_NAMES[cb]])
                symbols.append(_shown(a.corners[ca], b.corners[cb]))
            return {
                "ring": [c.id for c in ring],
                "inward": [EDGE_NAMES[k] for k in ks],
                "turns": [(_HOLE_EDGE[i] - ks[i]) % 4 for i in range(4)],
                "touch": touch,
                "symbols": symbols,
            }
    return None


def _ring_edges(ring):
    """Inward edges [k0..k3] that close ``ring``, or None (backtracking)."""
    ks = [0, 0, 0, 0]

    def place(i):
        if i == 4:
            # close the ring: the last card's "next" corner meets card 0
            return _match(ring[3].corners[ks[3]], ring[0].corners[_to_prev(ks[0])])
        for k in range(4):
            if i > 0 and not _match(ring[i - 1].corners[ks[i - 1]], ring[i].corners[_to_prev(k)]):
                continue
            ks[i] = k
            if place(i + 1):
                return True
        return False

    if place(0):
        return ks
    return None


# --------------------------------------------------------------------------
# Dispatch


def solve(kind, cards):
    """Solve a corner-matching mini-game: "pick_locks" (3 cards) or "magic"
    (Fundamental Magic, 4 cards). None means the cards cannot be laid out."""
    if kind == "pick_locks":
        return solve_pick_locks(cards)
    if kind == "magic":
        return solve_magic_box(cards)
    raise RulesError("bad_minigame", "unknown mini-game %r: choose pick_locks (3 cards) or magic (4 cards)" % (kind,))


# --------------------------------------------------------------------------
# Pursuit

# (value, suit, net) rows of the MD table; values below 0 use the first row.
PURSUIT_TABLE = (
    (-1, "anvil", -2),
    (0, "anvil", -1),
    (1, "anvil", 0),
    (2, "blade", 0),
    (3, "crown", 0),
    (4, "dragon", 0),
    (5, "dragon", 1),
)
PURSUIT_TABLE_MAX = 5


def _check_int(name, v, lo, hi):
    if not isinstance(v, int) or isinstance(v, bool) or v < lo or (hi is not None and v > hi):
        if hi is None:
            raise RulesError("bad_pursuit", "%s must be a whole number of at least %d, not %r" % (name, lo, v))
        raise RulesError("bad_pursuit", "%s must be a whole number from %d to %d, not %r" % (name, lo, hi, v))
    return v


def pursuit_flip(str_rank, dex_rank, encumbrance):
    """The rabbit's Pursuit flip (MD *The Pursuit Mini-game*).

    ``str_rank`` and ``dex_rank`` are suit ranks 1..4 (anvil = 1 .. dragon =
    4). ``encumbrance`` is the number of Item and Pack cards (>= 0). Returns
    ``{"value", "suit", "net", "beyond_table"}``. The table stops at 5: a
    higher value flips as 5 (Dragons with advantage), with ``beyond_table``
    True so the GM can rule on it.
    """
    _check_int("Str rank", str_rank, 1, 4)
    _check_int("Dex rank", dex_rank, 1, 4)
    _check_int("encumbrance", encumbrance, 0, None)
    v = str_rank + dex_rank - encumbrance
    row = v if v > -1 else -1
    if row > PURSUIT_TABLE_MAX:
        row = PURSUIT_TABLE_MAX
    _, suit, net = PURSUIT_TABLE[row + 1]
    return {"value": v, "suit": suit, "net": net, "beyond_table": v > PURSUIT_TABLE_MAX}


PURSUIT_ROUNDS = 5
PURSUIT_TO_WIN = 3
HELPER_ATTRS = ("int", "str", "dex")
_ATTR_TITLE = {"int": "Int", "str": "Str", "dex": "Dex"}
# Examples of justified help, from MD (a helper must justify the attribute).
HELP_EXAMPLES = (
    ("int", ("hiding", "using words to influence a crowd")),
    ("str", ("climbing a wall", "making a great leap")),
    ("dex", ("sliding / tumbling down an embankment", "dancing across a precarious rooftop",
             "jumping from the balcony onto a waiting horse")),
)


class Pursuit:
    """Rounds of one pursuit, from the rabbit's point of view.

    MD rules: best 3 of 5 rounds, and the pursuit ends as soon as one side
    has 3. Round 1 is the rabbit alone. Rounds 2 and later may be helped by
    another PC with Int, Str or Dex, each attribute used at most once. The
    last flip (round 5) is the rabbit alone. MD says "rounds 2 through 5" can
    be helped and also that "the last flip must be made by the rabbit
    alone"; with three attributes, this reading means help in rounds 2-4 at
    most. If the pursuers win 2 flips in a row they may make a move.
    """

    def __init__(self):
        self.rounds = []  # [(won: bool, helper: str or None)]

    # -- queries
    @property
    def rabbit_wins(self):
        return len([r for r in self.rounds if r[0]])

    @property
    def pursuer_wins(self):
        return len([r for r in self.rounds if not r[0]])

    @property
    def winner(self):
        if self.rabbit_wins >= PURSUIT_TO_WIN:
            return "rabbit"
        if self.pursuer_wins >= PURSUIT_TO_WIN:
            return "pursuers"
        return None

    @property
    def next_round(self):
        """The 1-based number of the next round, or None when it is over."""
        if self.winner is not None:
            return None
        return len(self.rounds) + 1

    @property
    def pursuers_two_in_a_row(self):
        """True when the two latest rounds both went to the pursuers: they
        may now make a move (MD: volley of arrows, sounding an alarm)."""
        n = len(self.rounds)
        return n >= 2 and not self.rounds[n - 1][0] and not self.rounds[n - 2][0]

    def helpers_used(self):
        return [r[1] for r in self.rounds if r[1] is not None]

    def helpers_available(self):
        """The attributes that may help the next round, in Int, Str, Dex order
        (an empty list when the next round must be the rabbit alone)."""
        r = self.next_round
        if r is None or r == 1 or r == PURSUIT_ROUNDS:
            return []
        used = self.helpers_used()
        return [a for a in HELPER_ATTRS if a not in used]

    # -- commands
    def record_round(self, won, helper_attr=None):
        """Record the next round: ``won`` is True when the rabbit got away
        with it; ``helper_attr`` is "int", "str" or "dex" when a helper's
        flip took part. Raises RulesError (state unchanged) when not allowed."""
        if not isinstance(won, bool):
            raise RulesError("bad_pursuit", "say whether the rabbit won the round (True or False), not %r" % (won,))
        r = self.next_round
        if r is None:
            raise RulesError("pursuit_over", "the pursuit is over: the %s won" % self.winner)
        if helper_attr is not None:
            if helper_attr not in HELPER_ATTRS:
                raise RulesError("bad_helper", "a helper uses int, str or dex, not %r" % (helper_attr,))
            if r == 1:
                raise RulesError("no_help", "the rabbit flips the first round alone")
            if r == PURSUIT_ROUNDS:
                raise RulesError("no_help", "the rabbit flips the last round alone")
            if helper_attr in self.helpers_used():
                raise RulesError("helper_used", "%s has already helped in this pursuit; each attribute helps once" % _ATTR_TITLE[helper_attr])
        self.rounds.append((won, helper_attr))
        return self.winner

    # -- save / restore
    def to_list(self):
        """Plain data: ``[[1 or 0, "int"/"str"/"dex"/""], ...]`` per round."""
        return [[1 if won else 0, helper or ""] for won, helper in self.rounds]

    @classmethod
    def from_list(cls, data):
        """Rebuild from ``to_list()`` output, re-checking every rule."""
        p = cls()
        if not isinstance(data, (list, tuple)):
            raise RulesError("bad_pursuit", "saved pursuit must be a list of rounds, not %r" % (data,))
        for item in data:
            if not isinstance(item, (list, tuple)) or len(item) != 2 or item[0] not in (0, 1) \
                    or isinstance(item[0], bool) or not isinstance(item[1], str):
                raise RulesError("bad_pursuit", "bad saved pursuit round %r" % (item,))
            p.record_round(item[0] == 1, item[1] or None)
        return p


# -- the pursuit as commands on a Game (Game.do finds them here) ------------
def pursuit_view(g):
    """The running pursuit as the device and the console show it: the
    rabbit's flip (suit and net from the table, encumbrance from the Item and
    Pack cards), the rounds so far, who leads, who may help next."""
    p = Pursuit.from_list(g.s.pursuit)
    return {"flip": g.pursuit(), "rounds": p.to_list(), "rabbit": p.rabbit_wins, "pursuers": p.pursuer_wins,
            "winner": p.winner, "next_round": p.next_round, "helpers": p.helpers_available(),
            "pursuers_move": p.pursuers_two_in_a_row}


def pursuit_start(g):
    """This character is the rabbit of a pursuit (MD *The Pursuit
    Mini-game*): best 3 of 5 rounds."""
    if g.s.pursuit is not None:
        raise RulesError("pursuit_open", "a pursuit is already running: end it first")
    g.require_able("run")
    g.s.pursuit = []
    return pursuit_view(g)


def pursuit_round(g, won, helper=None):
    """Record a round: ``won`` when the rabbit's flip (or a helper's, with
    ``helper`` = int, str or dex) got away with it."""
    if g.s.pursuit is None:
        raise RulesError("no_pursuit", "no pursuit is running")
    p = Pursuit.from_list(g.s.pursuit)
    p.record_round(won, helper)
    g.s.pursuit = p.to_list()
    if p.winner:
        g.event("pursuit over: the", p.winner, "win")
    return pursuit_view(g)


def pursuit_end(g):
    """The pursuit is over (or abandoned): its record is cleared."""
    if g.s.pursuit is None:
        raise RulesError("no_pursuit", "no pursuit is running")
    view = pursuit_view(g)
    g.s.pursuit = None
    return view

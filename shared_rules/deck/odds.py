"""Exact odds of a flip, by enumeration, for any draw pile.

Model (the engine's): the pile is shuffled uniformly, then k = 1 + |net|
cards (at most 3; flips.cards_for) are flipped from the top. Every ordered
k-tuple of distinct pile positions is equally likely, so a probability is a
count of such tuples over N (N-1) ... (N-k+1). A wound card stops the flip
the moment it shows and counts among the flipped cards (flips.stop_index);
the suit resolves at the best (net > 0) or worst (net < 0) level shown
(flips.resolve); XP counts when any tied resolving card shows XP, because
the player may pick any tied card (MD *Advantage*, tie; reference §6).

Cards that look the same to one suit (same level there, same XP mark, same
kind) are grouped, and ordered tuples of groups are enumerated with their
multiplicities (falling products of group sizes). The grouped sequences
pass through flips.stop_index and flips.resolve unchanged, so the count is
exact and the semantics are the engine's own.

Portable: CPython 3.11 and MicroPython (no fractions, itertools, typing).
Results are built in a fixed order, never from dict iteration order.
Sources: MD *Advantage / Disadvantage*, *Multiple Advantages*, *A Wound
Card*; reference §6 (odds of a fresh deck).
"""

from shared_rules.deck.cards import SUITS, card, check_suit
from shared_rules.deck.flips import cards_for, check_net, resolve, stop_index
from shared_rules.errors import RulesError

LEVELS = (1, 2, 3, 4)
DEFAULT_NETS = (-2, -1, 0, 1, 2)


# --- a tiny exact rational helper (no `fractions` on MicroPython) ---------

def gcd(a, b):
    """Greatest common divisor of two ints (non-negative result)."""
    if a < 0:
        a = -a
    if b < 0:
        b = -b
    while b:
        a, b = b, a % b
    return a


def reduce(num, den):
    """(num, den) in lowest terms with den > 0; 0 is (0, 1)."""
    if den == 0:
        raise RulesError("bad_fraction", "a fraction cannot have a zero denominator")
    if den < 0:
        num, den = -num, -den
    if num == 0:
        return 0, 1
    g = gcd(num, den)
    return num // g, den // g


def fraction_str(num, den):
    """'a/b' in lowest terms: '0/1' and '1/1' at the extremes."""
    n, d = reduce(num, den)
    return "%d/%d" % (n, d)


def parse_fraction(text):
    """'a/b' -> (a, b) reduced; the inverse of fraction_str."""
    try:
        a, b = text.split("/")
        return reduce(int(a), int(b))
    except (ValueError, AttributeError):
        raise RulesError("bad_fraction", "not a fraction 'a/b': %r" % (text,))


def percent_str(num, den, places=2):
    """num/den as a percentage rounded half-up to ``places`` decimals,
    computed with integers (no float rounding surprises)."""
    scale = 10 ** places
    v = (num * 100 * scale * 2 + den) // (2 * den)
    if places == 0:
        return "%d" % v
    return "%d.%s" % (v // scale, ("%0" + str(places) + "d") % (v % scale))


# --- piles -----------------------------------------------------------------

def check_pile(pile_ids):
    """The Card objects of a pile of ids; RulesError for an unknown id, a
    duplicate, a bare string or an empty pile."""
    if isinstance(pile_ids, str) or not isinstance(pile_ids, (list, tuple)):
        raise RulesError("bad_pile", "a pile must be a list of card ids, not %r" % (pile_ids,))
    cards = []
    seen = {}
    for cid in pile_ids:
        if not isinstance(cid, str):
            raise RulesError("bad_card", "a card id must be text, not %r" % (cid,))
        c = card(cid)
        if cid in seen:
            raise RulesError("bad_pile", "card %s appears twice in the pile: every card exists once" % cid)
        seen[cid] = True
        cards.append(c)
    if not cards:
        raise RulesError("empty_pile", "the pile is empty: there is nothing to flip")
    return cards


def _groups(cards, si):
    """[(representative card, count)] for one suit index, in a fixed order.

    Two cards are interchangeable for this suit when they show the same level
    there, the same XP mark and the same kind (a wound stops the flip)."""
    found = {}
    for c in cards:
        key = (c.levels[si], 1 if c.xp else 0, c.kind)
        entry = found.get(key)
        if entry is None:
            found[key] = [c, 1]
        else:
            entry[1] += 1
    keys = list(found.keys())
    keys.sort()  # keys are distinct, so the order is fixed on every runtime
    return [(found[k][0], found[k][1]) for k in keys]


def _falling(n, k):
    p = 1
    for i in range(k):
        p *= n - i
    return p


# --- the odds --------------------------------------------------------------

def flip_counts(pile_ids, suit, net, max_cards=3, stops_on_wound=True, _cards=None):
    """Exact counts: {"suit", "net", "cards_flipped", "total", "levels", "xp"}.

    "total" is the number of equally likely ordered k-tuples, N!/(N-k)!;
    "levels" is a list of 4 ints (levels 1..4) and "xp" an int, each a count
    of those tuples; probability = count / total. ``max_cards`` and
    ``stops_on_wound`` are the edition switches (the default is every seed
    edition's rule)."""
    check_suit(suit)
    check_net(net)
    cards = check_pile(pile_ids) if _cards is None else _cards
    k = cards_for(net, max_cards)
    n = len(cards)
    if n < k:
        raise RulesError(
            "short_pile",
            "net %s flips %d cards but the pile holds only %d" % (_signed(net), k, n))
    si = SUITS.index(suit)
    groups = _groups(cards, si)
    reps = [g[0] for g in groups]
    left = [g[1] for g in groups]
    levels = [0, 0, 0, 0]
    xp = [0]
    seq = []

    def walk(weight):
        if len(seq) == k:
            flipped = seq[:stop_index(seq, stops_on_wound)]
            lv, tied = resolve(flipped, suit, net)
            levels[lv - 1] += weight
            for i in tied:
                if flipped[i].xp:
                    xp[0] += weight
                    break
            return
        for g in range(len(reps)):
            m = left[g]
            if m:
                left[g] = m - 1
                seq.append(reps[g])
                walk(weight * m)
                seq.pop()
                left[g] = m

    walk(1)
    total = _falling(n, k)
    return {"suit": suit, "net": net, "cards_flipped": k, "total": total,
            "levels": levels, "xp": xp[0]}


def flip_fractions(pile_ids, suit, net, max_cards=3, stops_on_wound=True):
    """Exact reduced (numerator, denominator) pairs for programmatic use:
    {"suit", "net", "cards_flipped", "levels": [(a, b) for levels 1..4],
    "xp": (a, b)}."""
    c = flip_counts(pile_ids, suit, net, max_cards, stops_on_wound)
    t = c["total"]
    return {"suit": suit, "net": net, "cards_flipped": c["cards_flipped"],
            "levels": [reduce(x, t) for x in c["levels"]],
            "xp": reduce(c["xp"], t)}


def _as_odds(c):
    t = c["total"]
    levels = {}
    for lv in LEVELS:
        levels[str(lv)] = fraction_str(c["levels"][lv - 1], t)
    return {"suit": c["suit"], "net": c["net"], "cards_flipped": c["cards_flipped"],
            "levels": levels, "xp": fraction_str(c["xp"], t)}


def flip_odds(pile_ids, suit, net, max_cards=3, stops_on_wound=True):
    """Exact odds as reduced 'a/b' strings:
    {"suit", "net", "cards_flipped", "levels": {"1".."4": "a/b"}, "xp": "a/b"}."""
    return _as_odds(flip_counts(pile_ids, suit, net, max_cards, stops_on_wound))


def odds_table(pile_ids, suits=None, nets=None, max_cards=3, stops_on_wound=True):
    """flip_odds for every (suit, net), suit-major: suits default to anvil,
    blade, crown, dragon and nets to -2..2; given lists keep their order."""
    suits = SUITS if suits is None else suits
    nets = DEFAULT_NETS if nets is None else nets
    for s in suits:
        check_suit(s)
    for v in nets:
        check_net(v)
    cards = check_pile(pile_ids)
    out = []
    for s in suits:
        for v in nets:
            out.append(_as_odds(flip_counts(pile_ids, s, v, max_cards, stops_on_wound, _cards=cards)))
    return out


def success(odds):
    """(a, b): the chance of any check (level 2, 3 or 4) in a flip_odds dict."""
    num, den = 0, 1
    for lv in ("2", "3", "4"):
        a, b = parse_fraction(odds["levels"][lv])
        num, den = reduce(num * b + a * den, den * b)
    return num, den


def _signed(net):
    return "+%d" % net if net > 0 else "%d" % net

"""How a flip resolves: pure functions shared by the engine and the odds.

Sources: MD *Advantage / Disadvantage*, *Complete Flip Rule*, *Multiple
Advantages / Disadvantages*, *A Wound Card*; 0.93 l.97-107.
"""

from shared_rules.deck.cards import suit_index
from shared_rules.errors import RulesError

MAX_NET = 6  # two ±2 move levels plus situational advantage; more is a typo


def check_net(net):
    if not isinstance(net, int) or isinstance(net, bool) or net < -MAX_NET or net > MAX_NET:
        raise RulesError("bad_net", "net advantage must be a whole number from -%d to %d, not %r" % (MAX_NET, MAX_NET, net))
    return net


def cards_for(net, max_cards=3):
    """1 + |net| cards, capped (stacking beyond the cap is ignored)."""
    n = 1 + (net if net >= 0 else -net)
    return n if n < max_cards else max_cards


def stop_index(cards, stops_on_wound=True):
    """How many of the instructed cards are actually flipped: a wound card
    stops the flip at once, and counts among the cards flipped."""
    if stops_on_wound:
        for i in range(len(cards)):
            if cards[i].kind == "wound":
                return i + 1
    return len(cards)


def resolve(cards, suit, net):
    """(level, tied) for flipped ``cards``: best with advantage, worst with
    disadvantage; ``tied`` lists the indexes of every card showing that level
    (any of them may resolve the flip: MD *Advantage*, tie)."""
    si = suit_index(suit)
    best = None
    for c in cards:
        lv = c.levels[si]
        if best is None or (lv > best if net > 0 else lv < best):
            best = lv
    tied = [i for i in range(len(cards)) if cards[i].levels[si] == best]
    return best, tied


def tie_matters(cards, tied, blessing_returns=True):
    """True when the player's pick among tied cards changes anything (MD
    *Advantage*: "If it's a tie, you may choose whichever card"): XP, a
    critical, which card is a wound, and, where a resolving blessing goes
    back to the supply, which blessing goes back (a copper and a gold one
    differ in every later flip; two identical printings do not)."""
    sig = None
    for i in tied:
        c = cards[i]
        s = (c.xp, c.crit, c.kind)
        if blessing_returns and c.kind == "blessing":
            s = s + (c.levels, c.marker)
        if sig is None:
            sig = s
        elif s != sig:
            return True
    return False

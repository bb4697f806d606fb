"""Advancement by green rings: MD's 30-hour envelopes, DW's level cards.

Sources: MD *30-hour Campaigns: Green rings*; DW *requirements*, *LEVEL
CARDS AND GREEN RINGS* (l.899-956). The rings are counted by arranging the
physical move cards, so the player enters the count (set_rings). Loaded
only when one of these commands runs.
"""

from shared_rules.deck.state import MAX_RINGS, check_move_name
from shared_rules.errors import RulesError

# MD *Green rings*: the moves in the envelopes, by the rings they need.
ENVELOPES = (
    (1, ("Mystic Breathwork", "Fury", "Slide", "Not On My Turf", "Void Transfusion")),
    (2, ("Goreography", "Derring-Do", "Fundamental Magic", "Breach the Dam")),
)


def _rules(g, kind):
    if g.ed["green_rings"] != kind or g.s.campaign not in g.ed["ring_campaigns"]:
        what = "envelopes of moves" if kind == "envelopes" else "level cards"
        raise RulesError("no_rings", "this edition has no %s in a %s campaign" % (what, g.s.campaign))


def envelope_of(move):
    """The rings an enveloped move needs, or 0 when it is in no envelope."""
    for rings, moves in ENVELOPES:
        if move in moves:
            return rings
    return 0


def sealed(g, move):
    """True when Study Under a Master may not take ``move`` yet: an MD
    30-hour campaign, the move in an envelope still."""
    if g.ed["green_rings"] != "envelopes" or g.s.campaign not in g.ed["ring_campaigns"]:
        return False
    return envelope_of(move) > 0 and move not in g.s.unsealed


def set_rings(g, rings):
    """How many green rings the player's move cards can be arranged to show."""
    if not isinstance(rings, int) or isinstance(rings, bool) or not 0 <= rings <= MAX_RINGS:
        raise RulesError("bad_number", "rings must be a whole number from 0 to %d" % MAX_RINGS)
    if g.ed["green_rings"] is None:
        raise RulesError("no_rings", "this edition has no green rings")
    g.s.rings = rings
    return {"rings": rings}


def open_envelope(g, move):
    """MD: "If your cards can arrange to show 1 ring, you may remove a card
    from the single green ring envelope... If you can arrange them to show 2
    rings, you may remove a card from either envelope"."""
    _rules(g, "envelopes")
    need = envelope_of(move)
    if not need:
        raise RulesError("bad_move", "%s is in no envelope" % (move,))
    if move in g.s.unsealed:
        raise RulesError("unsealed", "%s is already out of its envelope" % move)
    if g.s.rings < need:
        raise RulesError("few_rings", "%s's envelope needs %d green ring(s); your cards show %d" % (move, need, g.s.rings))
    if not g.s.envelope_due:
        raise RulesError("no_new_card", "a card comes out of an envelope when you receive a new move card")
    g.s.unsealed.append(move)
    g.s.envelope_due = 0
    return {"unsealed": list(g.s.unsealed)}


def take_level_card(g, name):
    """DW: "Once per session, if you have more green rings than level cards,
    you can take one new level card"."""
    _rules(g, "level_cards")
    s = g.s
    check_move_name(name)
    if name in s.level_cards:
        raise RulesError("dup_level", "you already have the level card %s" % name)
    if s.level_taken:
        raise RulesError("once_per_session", "a level card once per session: one was taken this session")
    if s.rings <= len(s.level_cards):
        raise RulesError("few_rings", "%d green ring(s) and %d level card(s): you need more rings than level cards" % (s.rings, len(s.level_cards)))
    s.level_cards.append(name)
    s.level_taken = 1
    return {"level_cards": list(s.level_cards)}


def new_session(g):
    """A new session begins: a level card may be taken again."""
    g.s.level_taken = 0
    return {}

"""Teamwork flips across devices (MD *Teamwork Flips*, 0.93 l.119-125).

The spotlighted player flips as usual and each supporter flips one Anvil
(Game.flip(team="support")); the table picks the best result, and only the
owner of the resolving card gets its XP (Game.end_flip(resolved=...)).
Everyone shares the consequences.
"""

from shared_rules.errors import RulesError


def best(entries):
    """Entries are dicts with at least "level" (1-4), one per flipped
    resolving card at the table. Returns {"level": best, "tied": [entries
    showing it]} -- the players choose among the tied ones."""
    if not entries:
        raise RulesError("bad_team", "a teamwork flip needs at least the lead's card")
    top = 0
    for e in entries:
        lv = e.get("level")
        if not isinstance(lv, int) or not 1 <= lv <= 4:
            raise RulesError("bad_team", "each teamwork result needs a level from 1 to 4")
        if lv > top:
            top = lv
    return {"level": top, "tied": [e for e in entries if e["level"] == top]}

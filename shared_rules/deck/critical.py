"""MD *Critical Success* and DW's: the reward for a Critical Success card,
resolved with the flip (Game.end_flip). Loaded when one is resolved: a board
keeps its code out of its heap until then."""

from shared_rules.deck.state import level_cap
from shared_rules.errors import RulesError


def critical(g, choice, move, levels, pvp, out):
    """MD *Critical Success*: spend XP 1-for-1 to level up the move just
    resolved, or take a Blessing; DW: level up, or spend 1 token for a
    bonus move with advantage. No level-up against another player."""
    s = g.s
    if choice is None:
        out["crit"] = "declined"
        return
    if choice not in g.ed["crit_options"]:
        raise RulesError("bad_crit", "a critical success offers %s here, not %r" % (" or ".join(g.ed["crit_options"]), choice))
    out["crit"] = choice
    if choice == "blessing":
        out["blessing"] = g.take_from_supply("blessing")
        if out["blessing"] is None:
            raise RulesError("supply_empty", "there is no Blessing card left in the supply")
    elif choice == "bonus_move":
        g.spend_xp(1, "a bonus move")
        s.bonus_adv = 1
        g.event("next flip gets an advantage")
    else:
        if pvp:
            raise RulesError("pvp", "a critical success against another player cannot level up a move")
        if move is None or move not in s.moves:
            raise RulesError("bad_move", "name the move on your sheet that the critical success levels up")
        if not isinstance(levels, int) or isinstance(levels, bool) or levels < 1:
            raise RulesError("bad_number", "level up by 1 or more")
        now = s.moves[move]
        top = level_cap(now)
        if now + levels > top:
            raise RulesError("max_level", "%s can go up at most %d level(s) now" % (move, top - now))
        g.spend_xp(levels, "levelling up")
        s.moves[move] = now + levels
        out["move"] = [move, s.moves[move]]
        g.event(move, "levels up")

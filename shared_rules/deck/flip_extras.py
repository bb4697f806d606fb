"""The rarer turns of a flip: Do a Flashback, bump its result, and the
choice a critical success offers (a mixin of shared_rules/deck/game.py's
Game, loaded on first use: a board that only flips pays no heap for it).

Sources: MD *Do a Flashback*, *Critical Success*, *Teamwork*; DW *CRITICAL
SUCCESS*.
"""

from shared_rules.deck.state import level_cap
from shared_rules.errors import RulesError


class FlipExtras:
    def flashback(self):
        """Spend 1 XP: the flip is ignored and flipped again with the same
        advantage (MD *Do a Flashback*). Supporters may not (*Teamwork*)."""
        s = self.s
        f = self._open_flip("flash back from")
        if f["team"] == "support":
            raise RulesError("no_flashback", "supporting players may not Do a Flashback on a teamwork flip")
        self.spend_xp(1, "Do a Flashback")
        s.discard.extend(s.table)
        s.table = []
        self.event("flashback: the flip is ignored")
        if len(s.draw) <= self.ed["mandatory_reshuffle_at"] and s.discard:
            self.shuffle_in("5 or fewer cards")
        f["flashback"] = True
        f["bumps"] = 0
        f["phase"] = ""
        return self._deal()

    def bump(self):
        """After a flashback, each extra XP raises the result one step,
        ✗ → ✅ → ✔✔ → ✔✔✔ (MD *Do a Flashback*)."""
        f = self._open_flip("bump")
        if not f["flashback"]:
            raise RulesError("no_bump", "only a flashback flip can be bumped up")
        if f["phase"] != "open":
            raise RulesError("choose_first", "choose which tied card resolves before bumping")
        if f["level"] >= self.ed["flashback_max_level"]:
            raise RulesError("max_level", "the result is already as high as a bump can raise it")
        self.spend_xp(1, "bump the result")
        f["level"] += 1
        f["bumps"] += 1
        return self.flip_view()

    def critical(self, choice, move, levels, pvp, out):
        """MD *Critical Success*: spend XP 1-for-1 to level up the move just
        resolved, or take a Blessing; DW: level up, or spend 1 token for a
        bonus move with advantage. No level-up against another player."""
        s = self.s
        if choice is None:
            out["crit"] = "declined"
            return
        if choice not in self.ed["crit_options"]:
            raise RulesError("bad_crit", "a critical success offers %s here, not %r" % (" or ".join(self.ed["crit_options"]), choice))
        out["crit"] = choice
        if choice == "blessing":
            out["blessing"] = self.take_from_supply("blessing")
            if out["blessing"] is None:
                raise RulesError("supply_empty", "there is no Blessing card left in the supply")
        elif choice == "bonus_move":
            self.spend_xp(1, "a bonus move")
            s.bonus_adv = 1
            self.event("next flip gets an advantage")
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
            self.spend_xp(levels, "levelling up")
            s.moves[move] = now + levels
            out["move"] = [move, s.moves[move]]
            self.event(move, "levels up")

"""XP, the character sheet, move levels, and mini-games (spending XP and
critical success are part of a flip: shared_rules/deck/game.py).

Sources: MD *XP cards*, *Do a Flashback*, *Mercy Flashbacks*, *Critical
Success*, *Study Under a Master*, *Move Levels*, *Increased / Decreased Move
Levels*, *Player vs Player*, *Mini-games*, *The Pursuit Mini-game*; DW
*CRITICAL SUCCESS* (l.516-533).
"""

from shared_rules.deck import cards as C
from shared_rules.deck.state import ATTRS, MAX_XP, check_move_name, level_cap, move_level
from shared_rules.errors import RulesError

MINIGAME_CARDS = {"pick_locks": 3, "magic": 4}


class Advancement:
    def _new_move_card(self):
        """MD *Green rings*: "When you receive a new move card, arrange your
        own move cards" and, with the rings, take one card out of an
        envelope: the chance lasts until the next one is used or taken."""
        if self.s.campaign in self.ed["ring_campaigns"] and self.ed["green_rings"] == "envelopes":
            self.s.envelope_due = 1

    def levelup_max(self, move):
        """The most levels a critical success can buy for ``move`` now: up
        to level_cap and the XP at hand (XP 1-for-1). A query for the UI."""
        if move not in self.s.moves:
            raise RulesError("bad_move", "no move named %r on your sheet" % (move,))
        now = self.s.moves[move]
        n = level_cap(now) - now
        return n if n < self.s.xp else self.s.xp

    def set_attr(self, attr, suit):
        """Which suit each of Str, Dex and Int flips (the character sheet)."""
        if attr not in ATTRS:
            raise RulesError("bad_attr", "attribute must be str, dex or int, not %r" % (attr,))
        self.s.attrs[attr] = C.check_suit(suit)
        return {"attrs": dict(self.s.attrs)}

    def set_move(self, name, level="base"):
        """Write a move on the sheet at a level wild..master (-2..+2); a
        move not taken starts at the lowest level its card shows."""
        check_move_name(name)
        if name not in self.s.moves and len(self.s.moves) >= 40:
            raise RulesError("too_many", "a sheet holds at most 40 moves")
        if name not in self.s.moves:
            self._new_move_card()
        self.s.moves[name] = move_level(level)
        return {"move": [name, self.s.moves[name]]}

    def study(self, move):
        """Study Under a Master: 2 XP to go up a level in a move you have, or
        take a new move card at base level."""
        s = self.s
        self.require_idle("Study Under a Master")
        check_move_name(move)
        if move in s.moves and s.moves[move] >= 2:
            raise RulesError("max_level", "%s is already at master level" % move)
        if move not in s.moves and len(s.moves) >= 40:
            raise RulesError("too_many", "a sheet holds at most 40 moves")
        if move not in s.moves and s.campaign == "30h":
            from shared_rules.deck.campaign import sealed

            if sealed(self, move):
                raise RulesError("sealed", "%s is still in its green-ring envelope: open_envelope first" % move)
        self.spend_xp(2, "Study Under a Master")
        if move not in s.moves:
            self._new_move_card()
        s.moves[move] = s.moves[move] + 1 if move in s.moves else 0
        return {"move": [move, s.moves[move]]}

    def mercy_flashback(self):
        """One XP on top of whatever the forgotten action costs."""
        self.spend_xp(1, "a Mercy Flashback")
        return {"xp": self.s.xp}

    def gain_xp(self, n=1):
        """XP from outside a flip (the Session Opener, a GM award)."""
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 10:
            raise RulesError("bad_number", "gain 1 to 10 XP at a time")
        if self.s.xp + n > MAX_XP:
            raise RulesError("bad_number", "XP cannot exceed %d" % MAX_XP)
        self.s.xp += n
        return {"xp": self.s.xp}

    # -- corner-matching mini-games (MD *Mini-games*) ---------------------
    def minigame_start(self, kind):
        """Draw 3 (Pick Locks) or 4 (Fundamental Magic) cards face-up."""
        s = self.s
        if kind not in MINIGAME_CARDS:
            raise RulesError("bad_minigame", "mini-game must be pick_locks or magic, not %r" % (kind,))
        self.require_able("play a mini-game")
        self.require_idle("start a mini-game")
        if len(s.draw) <= self.ed["mandatory_reshuffle_at"] and s.discard:
            self.shuffle_in("5 or fewer cards")
        want = MINIGAME_CARDS[kind]
        if len(s.draw) < want:
            raise RulesError("short_deck", "the mini-game needs %d cards but your Deckahedron has %d" % (want, len(s.draw)))
        for _ in range(want):
            s.table.append(s.draw.pop(0))
        s.minigame = kind
        return self.minigame_view()

    def minigame_view(self):
        from shared_rules.deck.minigames import solve

        s = self.s
        return {"kind": s.minigame, "cards": list(s.table),
                "solution": solve(s.minigame, [C.CARDS[cid] for cid in s.table])}

    def minigame_exhaust(self, card):
        """Put a card into the Exhaustion pile (Stamina lost to mental
        exhaustion) and replace it with the top card of the Deckahedron."""
        s = self.s
        if not s.minigame:
            raise RulesError("no_minigame", "no mini-game is on the table")
        if card not in s.table:
            raise RulesError("bad_card", "card %r is not on the table" % (card,))
        i = s.table.index(card)
        new = self.draw_top()
        if new is None:
            raise RulesError("empty_deck", "no card left to replace it with")
        s.exhaustion.append([card, True])
        s.table[i] = new
        self.event("exhausted", card, "for", new)
        return self.minigame_view()

    def minigame_end(self, abandon=False):
        """Finish: succeed when the cards can be arranged, or abandon (the
        result reads as a ✗). The cards go to the discard pile."""
        s = self.s
        if not s.minigame:
            raise RulesError("no_minigame", "no mini-game is on the table")
        if abandon is not True and abandon is not False:
            raise RulesError("bad_args", "abandon must be true or false")
        view = self.minigame_view()
        if not abandon and view["solution"] is None:
            raise RulesError("unsolved", "these cards cannot be arranged yet: exhaust one to replace it, or abandon")
        s.discard.extend(s.table)
        s.table = []
        s.minigame = ""
        view["result"] = "abandoned: read it as a miss" if abandon else "success"
        return view

    def pursuit(self, encumbrance=None):
        """The pursuit flip from the sheet's Str + Dex ranks (a query); the
        encumbrance is the Item and Pack cards carried unless given."""
        from shared_rules.deck.minigames import pursuit_flip

        s = self.s
        if encumbrance is None:
            from shared_rules.deck.gear import encumbrance as carried

            encumbrance = carried(s)
        return pursuit_flip(C.SUITS.index(s.attrs["str"]) + 1, C.SUITS.index(s.attrs["dex"]) + 1, encumbrance)

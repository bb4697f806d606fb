"""Recovery: Take a Breather, Rest, Seek Help (and the GM's revive).

Sources: MD *Taking a Breather*, *Resting*, *Seek Help*; DW *TAKING A
BREATHER*, *RESTING*, *SEEK HELP* (l.535-653).
"""

from shared_rules.deck import cards as C
from shared_rules.errors import RulesError


def _id_list(value, name):
    if value is None:
        return []
    if isinstance(value, str):
        value = [w for w in value.replace(",", " ").split() if w]
    if not isinstance(value, (list, tuple)):
        raise RulesError("bad_args", "%s must be a list of card ids" % name)
    out = []
    for cid in value:
        if not isinstance(cid, str):
            raise RulesError("bad_card", "card ids are text, like 12 or pb3")
        C.card(cid)
        if cid in out:
            raise RulesError("bad_card", "card %s is named twice" % cid)
        out.append(cid)
    return out


class Recovery:
    def _exh_index(self, cid):
        for i in range(len(self.s.exhaustion)):
            if self.s.exhaustion[i][0] == cid:
                return i
        raise RulesError("bad_card", "card %s is not in your Exhaustion pile" % cid)

    def breather(self, tokens=0, cards=None, facedown=0):
        """Regain up to 4 Stamina (MD *Taking a Breather*): return Exhaustion
        tokens, or move Exhaustion cards to the discard pile. Face-down cards
        may not be turned face up to choose them, so they are taken blind
        (``facedown``); DW lets the player pick any card."""
        s = self.s
        self.require_able("Take a Breather")
        self.require_idle("Take a Breather")
        picked = _id_list(cards, "cards")
        for n, name in ((tokens, "tokens"), (facedown, "facedown")):
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise RulesError("bad_number", "%s must be a whole number of 0 or more" % name)
        total = tokens + len(picked) + facedown
        cap = self.ed["breather_max"]
        if total == 0 or total > cap:
            raise RulesError("bad_breather", "a Breather regains 1 to %d Stamina, not %d" % (cap, total))
        if tokens > s.exh_tokens:
            raise RulesError("bad_breather", "you have only %d Exhaustion tokens" % s.exh_tokens)
        blind = self.ed["breather_blind_facedown"]
        for cid in picked:
            if blind and not s.exhaustion[self._exh_index(cid)][1]:
                raise RulesError("face_down", "card %s is face-down: take face-down cards blind with facedown=N" % cid)
        hidden = [i for i in range(len(s.exhaustion)) if not s.exhaustion[i][1]]
        if facedown > len(hidden):
            raise RulesError("bad_breather", "only %d face-down cards in your Exhaustion pile" % len(hidden))
        moved = []
        for cid in picked:
            moved.append(s.exhaustion.pop(self._exh_index(cid))[0])
        for _ in range(facedown):
            hidden = [i for i in range(len(s.exhaustion)) if not s.exhaustion[i][1]]
            moved.append(s.exhaustion.pop(hidden[s.rng.below(len(hidden))])[0])
        s.discard.extend(moved)
        s.exh_tokens -= tokens
        # The tokens come off Good Cardio's slots first, so it can take the
        # next blow (docs/rules.md).
        s.cardio = s.cardio - tokens if s.cardio > tokens else 0
        self.event("breather: regained", total, "Stamina")
        return {"regained": total, "cards": moved, "tokens": tokens}

    # -- queries for the device's pickers (they change nothing) -----------
    def breather_options(self):
        """What a Breather may take: ``max`` is the edition's cap ("regain up
        to 4 Stamina") within what there is to take; ``cards`` the Exhaustion
        cards the player may pick by id (all in DW, the face-up ones in MD);
        ``facedown`` how many more are taken blind; ``tokens`` the
        Exhaustion tokens."""
        s = self.s
        blind = self.ed["breather_blind_facedown"]
        cards = [e[0] for e in s.exhaustion if e[1] or not blind]
        facedown = len(s.exhaustion) - len(cards)
        have = s.exh_tokens + len(s.exhaustion)
        cap = self.ed["breather_max"]
        return {"max": cap if cap < have else have, "cards": cards, "facedown": facedown, "tokens": s.exh_tokens}

    def keep_count(self, what):
        """How many Exhaustion cards ``what`` ("rest" or "seek_help") keeps:
        the player names that many (keep=[...]) when there are more. While
        an ONGOING item's magic flows in DW, every card (no Stamina back)."""
        s = self.s
        if what not in ("rest", "seek_help"):
            raise RulesError("bad_args", "keep_count is for rest or seek_help, not %r" % (what,))
        if self._stamina_held():
            return len(s.exhaustion)
        return s.wound_tokens + (s.harm if what == "rest" else 0)

    def _stamina_held(self):
        """DW's ONGOING rule (gear.stamina_held); no gear, no question."""
        if not self.s.gear:
            return False
        from shared_rules.deck.gear import stamina_held

        return stamina_held(self)

    def _tokens_back(self, out):
        """Rest and Seek Help return every Exhaustion token (Good Cardio's
        with them), unless Stamina is held: DW l.549, "Regaining Stamina may
        be done either by taking cards from the Exhaustion pile and putting
        them into the discard pile, or by returning Exhaustion tokens"."""
        s = self.s
        if self._stamina_held():
            from shared_rules.deck.gear import flowing

            out["no_stamina"] = flowing(s)
            return
        s.exh_tokens = 0
        s.cardio = 0

    def worst_exhausted(self, count):
        """The ``count`` Exhaustion cards with the lowest results (sum of the
        four suits): the ones a player keeps out of the deck."""
        out = []
        for e in self.s.exhaustion:  # insertion sort: list.sort is not stable on MicroPython
            key = sum(C.CARDS[e[0]].levels)
            i = len(out)
            while i > 0 and sum(C.CARDS[out[i - 1]].levels) > key:
                i -= 1
            out.insert(i, e[0])
        return out[:count]

    def _keep(self, count, keep):
        """Keep ``count`` Exhaustion cards of the player's choice (or
        keep="worst"); the rest go to the discard pile. Returns the cards
        moved."""
        s = self.s
        if keep == "worst":
            keep = self.worst_exhausted(count) if len(s.exhaustion) > count else []
        keep = _id_list(keep, "keep")
        if len(s.exhaustion) <= count:
            if keep and len(keep) != len(s.exhaustion):
                raise RulesError("bad_keep", "all %d Exhaustion cards stay; name none or all" % len(s.exhaustion))
            return []
        if len(keep) != count:
            ids = ",".join(e[0] for e in s.exhaustion)
            raise RulesError("choose_keep", "choose exactly %d of your Exhaustion cards to keep (keep=...): %s" % (count, ids or "-"))
        for cid in keep:
            self._exh_index(cid)
        stay, moved = [], []
        for e in s.exhaustion:
            (stay if e[0] in keep else moved).append(e)
        s.exhaustion = stay
        s.discard.extend(e[0] for e in moved)
        return [e[0] for e in moved]

    def rest(self, keep=None, sharpen=None):
        """MD *Resting*: 1 return all Exhaustion tokens; 2-3 keep as many
        Exhaustion cards as Harm + Wound tokens, the rest to discard; 4 return
        one Harm token; 5 say whom you blame. The armour is girded (its
        tokens removed); ``sharpen`` names items Sharpen and Stitch repairs
        alongside the Rest (one Pack card each)."""
        s = self.s
        self.require_able("Rest")
        self.require_idle("Rest")
        out = {}
        if s.gear or sharpen:
            from shared_rules.deck import gear

            gear.require_idle_magic(self, "Rest")
            if sharpen:
                out["repaired"] = gear.sharpen(self, sharpen)
            gear.gird(s)
            gear.recharge(s)
        self._tokens_back(out)
        moved = self._keep(self.keep_count("rest"), keep)
        if s.harm:
            s.harm -= 1
        self.event("rested:", len(moved), "cards back")
        out["recovered"] = moved
        out["kept"] = [e[0] for e in s.exhaustion]
        if self.ed["rest_blame_step"]:
            out["say"] = "Say who you blame for your injuries."
        return out

    def seek_help(self, keep=None, hearth=False):
        """MD *Seek Help*: tokens and Harm back, keep as many Exhaustion cards
        as Wound tokens, every wound card back to the supply (not the tokens),
        and at The Hearth the Wound tokens too. DW: one Wound token and one
        wound card. Friends may carry an incapacitated character to help."""
        s = self.s
        if hearth is not True and hearth is not False:
            raise RulesError("bad_args", "hearth must be true or false")
        if hearth and not self.ed["hearth_returns_wound_tokens"]:
            raise RulesError("no_hearth", "this edition has no Hearth step")
        self.require_idle("Seek Help")
        if s.gear:
            from shared_rules.deck import gear

            gear.require_idle_magic(self, "Seek Help")
            gear.gird(s)
            gear.recharge(s)
        out = {}
        self._tokens_back(out)
        s.harm = 0
        moved = self._keep(self.keep_count("seek_help"), keep)
        returned = []
        if self.ed["seek_help_wounds"] == "all_wound_cards":
            returned = self._return_wound_cards(None)
            if hearth:
                s.wound_tokens = 0
        else:
            if s.wound_tokens:
                s.wound_tokens -= 1
            returned = self._return_wound_cards(1)
        if s.incapacitated:
            self.event("no longer incapacitated")
            s.incapacitated = ""
        out.update({"recovered": moved, "wound_cards_returned": returned, "wound_tokens": s.wound_tokens})
        if self.ed["rest_blame_step"]:
            out["say"] = "Say who you are closer to forgiving."
        return out

    def _return_wound_cards(self, limit):
        s = self.s
        out = []
        for pile in (s.discard, s.draw):
            for cid in list(pile):
                if C.CARDS[cid].kind == "wound" and (limit is None or len(out) < limit):
                    pile.remove(cid)
                    out.append(cid)
        for e in list(s.exhaustion):
            if C.CARDS[e[0]].kind == "wound" and (limit is None or len(out) < limit):
                s.exhaustion.remove(e)
                out.append(e[0])
        s.supply.extend(out)
        return out

    def revive(self):
        """The GM decides what incapacitation means and may bring the
        character back (MD *Incapacitation*)."""
        if not self.s.incapacitated:
            raise RulesError("not_incapacitated", "the character is not incapacitated")
        self.require_idle("revive")
        why = self.spent()
        if why:
            raise RulesError("still_spent", "the piles still say incapacitated (%s): recover cards first, e.g. Seek Help" % why)
        self.s.incapacitated = ""
        self.event("revived by the GM")
        return {}

"""Combat, the Four Ds: reveal attack power, reduce it, distribute the rest.

Sources: MD *Combat - Stamina and Wounds* (*Denominate / Reveal*, *Deduct /
Reduce*, *Distribute / Reap*, *Losing or Expending Stamina*, *Taking Wounds*),
MD *Combat in the 9-hour and 30-hour Campaigns* (Harm); 0.93 l.143-163;
DW *FIRST* to *FOURTH PHASE*, *STAMINA - HEROIC MODE*.
"""

from shared_rules.deck import cards as C
from shared_rules.errors import RulesError

MAX_POWER = 60  # far beyond any attack in the guides; larger is a typo


def _count(value, name, hi):
    if not isinstance(value, int) or isinstance(value, bool) or value < 0 or value > hi:
        raise RulesError("bad_number", "%s must be a whole number from 0 to %d, not %r" % (name, hi, value))
    return value


class Combat:
    def reveal(self, kind="d10", item=None):
        """Reveal attack power (MD *Denominate / Reveal*): "d4" reads the
        triangle, "d6" the square (the guide's "1d5": the square holds 1-6),
        both skipping a blank card; "d10" adds both (a blank counts 0). The
        top card of the Deckahedron or the Exhaustion pile, whichever is
        larger; revealed cards go to the discard pile. ``item`` names the
        weapon whose power gauge says the die (MD *More Power*)."""
        s = self.s
        if item is not None:
            from shared_rules.deck.gear import attack_power

            kind = attack_power(s, item)
        if kind not in ("d4", "d6", "d10"):
            raise RulesError("bad_reveal", "reveal d4, d6 or d10, not %r" % (kind,))
        self.require_idle("reveal attack power")
        if "P" in s.spot:
            # MD *Player vs Player*: "Attack power is not rolled"
            raise RulesError("pvp", "against another player attack power is not rolled: the defender says what they suffer")
        from_exh = len(s.exhaustion) > len(s.draw)
        if not s.draw and not s.exhaustion:
            raise RulesError("empty_deck", "there are no cards to reveal")
        if from_exh:
            # Face-up Exhaustion cards are known: shuffle so the reveal is
            # unpredictable, as the guide asks.
            s.rng.shuffle(s.exhaustion)
        revealed = []
        power = 0
        tries = len(s.draw) + len(s.discard) + len(s.exhaustion)
        while True:
            if tries <= 0:
                raise RulesError("no_numeral", "no card left shows a %s numeral" % kind)
            tries -= 1
            if from_exh:
                if not s.exhaustion:
                    raise RulesError("no_numeral", "no Exhaustion card shows a %s numeral" % kind)
                cid = s.exhaustion.pop()[0]
            else:
                cid = self.draw_top()
                if cid is None:
                    raise RulesError("no_numeral", "no card left shows a %s numeral" % kind)
            s.discard.append(cid)
            revealed.append(cid)
            c = C.CARDS[cid]
            value = c.d4 if kind == "d4" else (c.d6 if kind == "d6" else c.d4 + c.d6)
            if value or kind == "d10":
                power = value
                break
        self.event("attack power", power, "from", "exhaustion" if from_exh else "deck")
        return {"power": power, "cards": revealed, "pile": "exhaustion" if from_exh else "deck"}

    def damage(self, power, wounds=0, harm=0, absorb=0, reshuffle_first=False, armour_wounds=0, armour_harm=0, cardio=0):
        """Reduce and distribute attack power (the second and third D).

        ``absorb``: points taken on move or item cards as Exhaustion tokens;
        ``cardio``: points taken as Exhaustion tokens in Good Cardio's empty
        slots (one token a slot); ``wounds``: a Wound absorbs everything (MD,
        0.93) or exactly 6 (DW); ``harm``: exactly 3 attack power per Harm
        token (longer campaigns); ``armour_wounds`` / ``armour_harm`` of those
        go into empty slots of the armour cards instead of onto the body (MD
        *Armour*); the rest is lost as Stamina. ``damage_ways`` lists them."""
        s = self.s
        ed = self.ed
        _count(power, "attack power", MAX_POWER)
        _count(wounds, "wounds", 3)
        _count(harm, "harm", 20)
        _count(absorb, "absorbed points", MAX_POWER)
        _count(armour_wounds, "wounds on armour", wounds)
        _count(armour_harm, "Harm on armour", harm)
        _count(cardio, "points on Good Cardio", MAX_POWER)
        self.require_able("take damage")
        self.require_idle("take damage")
        if cardio or armour_wounds or armour_harm:
            from shared_rules.deck import gear

            if cardio > gear.cardio_free(s):
                raise RulesError("no_slot", "Good Cardio has %d empty slot(s), not %d" % (gear.cardio_free(s), cardio))
        left = power
        if wounds:
            self._wounds_allowed()
            if ed["wound_rate"] == 0:
                if wounds > 1 or harm or absorb:
                    raise RulesError("bad_reduce", "one Wound already absorbs all of the attack power")
                left = 0
            else:
                if wounds * ed["wound_rate"] > left:
                    raise RulesError("bad_reduce", "a Wound takes exactly %d attack power; %d is not enough for %d" % (ed["wound_rate"], left, wounds))
                left -= wounds * ed["wound_rate"]
        if harm:
            self._harm_allowed()
            if harm * ed["harm_rate"] > left:
                raise RulesError("bad_reduce", "Harm takes exactly %d attack power each; %d is not enough for %d Harm" % (ed["harm_rate"], left, harm))
            left -= harm * ed["harm_rate"]
        if absorb + cardio > left:
            raise RulesError("bad_reduce", "cannot absorb %d of %d attack power" % (absorb + cardio, left))
        left -= absorb + cardio
        s.exh_tokens += absorb + cardio
        s.cardio += cardio
        # Into the armour first (refused as a whole if the slots are not
        # there), then onto the body.
        for _ in range(armour_wounds):
            gear.armour_takes(self, "w")
        for _ in range(armour_harm):
            gear.armour_takes(self, "h")
        if reshuffle_first is True and left:
            self.shuffle_in("before losing Stamina")
        for _ in range(wounds - armour_wounds):
            if not s.incapacitated:
                self._wound()
        for _ in range(harm - armour_harm):
            if not s.incapacitated:
                self._harm()
        lost = 0
        if left and not s.incapacitated:
            lost = self.stamina_loss(left)
        return {"power": power, "absorbed": absorb + cardio, "wounds": wounds, "harm": harm,
                "armour": armour_wounds + armour_harm, "stamina": left, "cards_lost": lost}

    def damage_ways(self, power):
        """Every split of ``power`` that damage() takes under this edition
        and campaign (absorbing aside), as [wounds, harm, stamina] lists,
        all-Stamina first: what a player chooses from in the reduce step."""
        _count(power, "attack power", MAX_POWER)
        ed = self.ed
        camp = self.s.campaign
        rate = ed["harm_rate"] if ed["harm_rate"] and camp in ed["harm_campaigns"] else 0
        out = []
        for w in range(4 if camp in ed["wound_campaigns"] else 1):
            if w and not ed["wound_rate"]:  # one Wound absorbs it all
                if w == 1 and power:
                    out.append([1, 0, 0])
                continue
            left = power - w * ed["wound_rate"]
            if left < 0:
                break
            h = 0
            while h <= 20 and (h == 0 or rate and h * rate <= left):
                out.append([w, h, left - h * rate])
                h += 1
        return out

    def lose_stamina(self, points=1, reshuffle_first=False):
        """Lose or expend Stamina as the edition says (see stamina_loss)."""
        _count(points, "Stamina points", MAX_POWER)
        if points == 0:
            raise RulesError("bad_number", "lose at least 1 Stamina point")
        self.require_able("lose Stamina")
        self.require_idle("lose Stamina")
        if reshuffle_first is True:
            self.shuffle_in("before losing Stamina")
        return {"cards_lost": self.stamina_loss(points)}

    def stamina_loss(self, points):
        """Move cards to the Exhaustion pile for ``points`` Stamina.

        reveal (MD *Losing or Expending Stamina*): reveal until that many
        exhaustion symbols show; every revealed card goes face-down.
        top (0.93 l.154-159, DW Lucky): per point the top card face-down and
        an Exhaustion token. heroic (DW *STAMINA - HEROIC MODE*): per point
        reveal to the next Stamina card, face-up, and a token; the other
        revealed cards go to the discard pile. A short deck takes the discard
        pile back first, as all three say. Returns cards moved."""
        s = self.s
        how = self.ed["stamina_loss"]
        moved = 0
        if how == "reveal":
            found = 0
            while found < points:
                cid = self.draw_top()
                if cid is None:
                    break
                s.exhaustion.append([cid, False])
                moved += 1
                if C.CARDS[cid].stamina:
                    found += 1
        elif how == "top":
            for _ in range(points):
                cid = self.draw_top()
                if cid is None:
                    break
                s.exhaustion.append([cid, False])
                s.exh_tokens += 1
                moved += 1
                if self.ed["incapacitation"] == "exhaust10" and len(s.exhaustion) >= 10:
                    self.incapacitate("10 cards exhausted")
                    break
        else:  # heroic
            for _ in range(points):
                if not self._exhaust_next_stamina_card():
                    self.incapacitate("no Stamina left")
                    break
                s.exh_tokens += 1
                moved += 1
        self.event("lost", points, "Stamina:", moved, "cards to Exhaustion")
        return moved

    def _exhaust_next_stamina_card(self):
        s = self.s
        if not self.stamina_left():
            return False
        while True:
            cid = self.draw_top()
            if C.CARDS[cid].stamina:
                s.exhaustion.append([cid, True])
                return True
            s.discard.append(cid)

    def _lose_one_card(self):
        """"Lose a card to the Exhaustion pile as you would when you lose a
        Stamina point" (DW Harm and Wounds), with no Exhaustion token."""
        s = self.s
        if self.ed["stamina_loss"] == "heroic":
            if not self._exhaust_next_stamina_card():
                self.incapacitate("no Stamina left")
            return
        cid = self.draw_top()
        if cid is not None:
            s.exhaustion.append([cid, False])

    def _wounds_allowed(self):
        if self.s.campaign not in self.ed["wound_campaigns"]:
            raise RulesError("no_wounds", "this edition uses no Wounds in a %s campaign" % self.s.campaign)

    def _harm_allowed(self):
        if not self.ed["harm_rate"] or self.s.campaign not in self.ed["harm_campaigns"]:
            raise RulesError("no_harm", "this edition has no Harm tokens in a %s campaign" % self.s.campaign)

    def take_wound(self, armour=False):
        """Take a Wound when the rules demand one (MD *Taking Wounds*), or
        put it into an empty armour slot (MD *Armour*)."""
        self.require_able("take a Wound")
        self.require_idle("take a Wound")
        self._wounds_allowed()
        if armour is True:
            from shared_rules.deck.gear import armour_takes

            return {"card": None, "armour": armour_takes(self, "w")}
        return {"card": self._wound()}

    def _wound(self):
        s = self.s
        if s.wound_tokens >= self.ed["wounds_to_incapacitate"] - 1:
            self.incapacitate("a third Wound")
            return None
        s.wound_tokens += 1
        self.event("Wound token")
        if self.ed["wound_costs_card"]:
            self._lose_one_card()
        cid = self.take_from_supply("wound")
        if cid is None:
            self.event("no wound card left in the supply")
        return cid

    def take_harm(self, armour=False):
        """Take a Harm token (MD *Third Phase*; DW *FOURTH PHASE: HARM*), or
        put it into an empty armour slot (MD *Armour*)."""
        self.require_able("take Harm")
        self.require_idle("take Harm")
        self._harm_allowed()
        if armour is True:
            from shared_rules.deck.gear import armour_takes

            armour_takes(self, "h")
        else:
            self._harm()
        return {"harm": self.s.harm, "wound_tokens": self.s.wound_tokens}

    def _harm(self):
        s = self.s
        if s.harm >= 2:
            rule = self.ed["third_harm"]
            if rule == "by_campaign":
                rule = "incapacitate" if s.campaign == "oneshot" else "wound"
            if rule == "incapacitate":
                self.incapacitate("a third Harm")
            else:
                # MD leaves this branch unfinished ("You may"); DW's longer
                # campaigns say: take a Wound instead.
                self.event("third Harm becomes a Wound")
                self._wounds_allowed()
                self._wound()
            return
        self._lose_one_card()
        s.harm += 1
        self.event("Harm token")

    def take_blessing(self):
        """A move card says take a Blessing: a random one from the supply
        into the discard pile (MD *Blessing cards*)."""
        self.require_idle("take a Blessing")
        cid = self.take_from_supply("blessing")
        if cid is None:
            raise RulesError("supply_empty", "there is no Blessing card left in the supply")
        return {"card": cid}

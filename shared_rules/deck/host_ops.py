"""What the table's host asks of a device, seldom: the summary it reads,
the shared supply it syncs, the rules edition it switches (a mixin of
shared_rules/deck/game.py's Game, loaded on first use: a board playing
alone pays no heap for it).
"""

from shared_rules.deck import cards as C
from shared_rules.deck.editions import check_campaign, edition
from shared_rules.errors import RulesError


class HostOps:
    def set_edition(self, edition_key=None, campaign=None):
        """Switch rules text or campaign length between scenes."""
        s = self.s
        self.require_idle("change the rules edition")
        if edition_key is not None:
            self.ed = edition(edition_key)
            s.edition = edition_key
        if campaign is not None:
            s.campaign = check_campaign(campaign)
        return {"edition": s.edition, "campaign": s.campaign}

    def supply_sync(self, elsewhere=None):
        """The table's shared supply (MD *Blessing cards*: "draw one at random
        from the supply"): the host says which supply cards other players
        hold; they leave this device's supply, and the others come back."""
        s = self.s
        if not isinstance(elsewhere, (list, tuple)):
            raise RulesError("bad_args", "elsewhere must be a list of supply card ids")
        blessings, wounds = C.SUPPLY_SETS[s.supply_set]
        held = set(s.all_card_ids()) - set(s.supply) - set(s.elsewhere)
        away = []
        for cid in elsewhere:
            if cid not in blessings and cid not in wounds:
                raise RulesError("bad_card", "%r is not a card of this supply set" % (cid,))
            if cid in held:
                raise RulesError("conflict", "card %s is in this player's piles, not elsewhere" % cid)
            if cid not in away:
                away.append(cid)
        pool = s.supply + s.elsewhere
        s.elsewhere = [cid for cid in pool if cid in away]
        s.supply = [cid for cid in pool if cid not in away]
        return {"supply": list(s.supply), "elsewhere": list(s.elsewhere)}

    def held_supply_cards(self):
        """Blessing and wound cards in this player's piles (for the host)."""
        s = self.s
        return [cid for cid in s.all_card_ids() if C.CARDS[cid].kind != "deck" and cid not in s.supply and cid not in s.elsewhere]

    def summary(self):
        s = self.s
        return {
            "edition": s.edition,
            "campaign": s.campaign,
            "draw": len(s.draw),
            "discard": len(s.discard),
            "exhaustion": len(s.exhaustion),
            "exhaustion_face_up": [cid for cid, up in s.exhaustion if up],
            "table": list(s.table),
            "tokens": {"exhaustion": s.exh_tokens, "harm": s.harm, "wound": s.wound_tokens},
            "xp": s.xp,
            "shadow": s.shadow,
            "attrs": dict(s.attrs),
            "moves": dict(s.moves),
            "incapacitated": s.incapacitated,
            "flip": self.flip_view() if s.flip is not None else None,
            "minigame": s.minigame,
            "supply": list(s.supply),
            "held": self.held_supply_cards(),
            "game": s.game,
            "count": s.count,
            "gear": [list(item) for item in s.gear],
            "pack": {"regular": s.pack, "precious": s.precious},
            "cardio": s.cardio,
            "spot": s.spot,
            "rings": s.rings,
            "unsealed": list(s.unsealed),
            "level_cards": list(s.level_cards),
            "wealth": s.wealth,
            "pursuit": [list(r) for r in s.pursuit] if s.pursuit is not None else None,
        }

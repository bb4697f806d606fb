"""What the table's hub asks of a player's game between scenes: the shared
supply (which supply cards other players hold), the rules edition and
campaign length, and the spotlight moving on. Commands of Game
(Game.LAZY_COMMANDS), each given the Game first, loaded on first use."""

from shared_rules.deck import cards as C
from shared_rules.deck.editions import check_campaign, edition
from shared_rules.errors import RulesError


def spotlight(g):
    """The spotlight moves on: a new moment may have its FAST move, and
    attack power may be revealed again."""
    g.s.spot = ""
    return {}


def set_edition(g, edition_key=None, campaign=None):
    """Switch rules text or campaign length between scenes."""
    s = g.s
    g.require_idle("change the rules edition")
    if edition_key is not None:
        g.ed = edition(edition_key)
        s.edition = edition_key
    if campaign is not None:
        s.campaign = check_campaign(campaign)
    return {"edition": s.edition, "campaign": s.campaign}


def supply_sync(g, elsewhere=None):
    """The table's shared supply (MD *Blessing cards*: "draw one at random
    from the supply"): the host says which supply cards other players
    hold; they leave this device's supply, and the others come back."""
    s = g.s
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

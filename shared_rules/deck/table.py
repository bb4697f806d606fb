"""What the table's hub asks of a player's game: its summary (the link's
state op), and between scenes the shared supply (which supply cards other
players hold), the rules edition and campaign length, and the spotlight
moving on. Commands of Game (Game.LAZY_COMMANDS), each given the Game
first, loaded on first use."""

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


def held_supply_cards(g):
    """Blessing and wound cards in this player's piles (for the host)."""
    s = g.s
    return [cid for cid in s.all_card_ids() if C.CARDS[cid].kind != "deck" and cid not in s.supply and cid not in s.elsewhere]


def summary(g):
    s = g.s
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
        "flip": g.flip_view() if s.flip is not None else None,
        "minigame": s.minigame,
        "supply": list(s.supply),
        "held": held_supply_cards(g),
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

"""A new character (Game.new): the 20 cards shuffled, the supply full.
Apart from game.py because a board makes one seldom: at its first power-on
and from the menu's New character."""

from shared_rules.atomic import text_digest
from shared_rules.deck import cards as C
from shared_rules.deck.editions import check_campaign, edition
from shared_rules.deck.state import ATTRS, PlayerState
from shared_rules.errors import RulesError


def new(cls, seed, edition_key, campaign, supply_set, attrs):
    """A fresh character: the 20 cards shuffled, the supply full. Its
    game id comes from the seed (a board seeds a new character from its
    entropy, so the id is as random as the deck; a seeded test game is
    the same game on every runtime)."""
    edition(edition_key)
    check_campaign(campaign)
    if supply_set not in C.SUPPLY_SETS:
        raise RulesError("bad_supply", "supply set must be print or web")
    s = PlayerState()
    s.edition, s.campaign, s.supply_set = edition_key, campaign, supply_set
    s.rng.seed(seed)
    s.game = text_digest("game %s" % (seed,))[:8]
    s.draw = list(C.DECK_IDS)
    s.rng.shuffle(s.draw)
    blessings, wounds = C.SUPPLY_SETS[supply_set]
    s.supply = list(blessings) + list(wounds)
    s.pack = edition(edition_key)["starting_pack"]
    g = cls(s)
    if attrs:
        for a in ATTRS:
            if a in attrs:
                s.attrs[a] = C.check_suit(attrs[a])
    return g

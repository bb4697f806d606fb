"""One player's state: piles, tokens, sheet; its text form, digest and invariant.

The text form is one ``key value`` line per field in a fixed order (dict order
and json key order differ between runtimes, so nothing here relies on them),
closed by a ``check`` line over everything before it so a torn or edited save
is detected instead of half-loaded.

A game made since issue 8 also has a ``game ID`` line (just before ``check``):
the game's lineage at the table, made once at a new character and kept by
every command, backup and restore. Older saves have none and still load
(``game`` is then ""), and dump without it, so their digest is unchanged.

Issue 10's lines (gear, pack, cardio, spot, rings, unsealed, level_cards,
wealth, pursuit) follow the same rule: written only when they say
something, absent means empty, so a save from before them loads and dumps
as it was; a flip record without a magic item keeps its old length.
"""

import json

from shared_rules.atomic import text_digest
from shared_rules.deck import cards as C
from shared_rules.deck.editions import DEFAULT_EDITION
from shared_rules.errors import RulesError
from shared_rules.prng import Rng

FORMAT = "deckahedron-state 1"
ATTRS = ("str", "dex", "int")
MOVE_LEVELS = ("wild", "novice", "base", "expert", "master")  # -2 .. +2
MAX_TOKENS = 99
MAX_XP = 999

# The text form's lines, in order (PlayerState.dump; ATTRS order for attrs).
_DUMP = FORMAT + ("\nedition %s\ncampaign %s\nsupply_set %s\nrng %s\ndraw %s\ndiscard %s"
                  "\nexhaustion %s\ntable %s\nsupply %s\nelsewhere %s\ntokens %d %d %d\nxp %d"
                  "\nshadow %d\nattrs %s %s %s\nmoves %s\nincapacitated %s\nflip %s\nminigame %s"
                  "\nbonus %d\ncount %d\n%s%s")  # then the optional lines, and "game ID" when there is one
MAX_RINGS = 20
# Fields of a flip in progress, in save order.
FLIP_FIELDS = ("suit", "net", "phase", "resolving", "level", "tied", "fast",
               "pvp", "move", "team", "flashback", "bumps", "base", "item")


_EXPECTED = [None, None]  # the supply set last checked, and its cards as a set


def _expected(supply_set):
    """The ids of the deck and of ``supply_set`` as a set, made once per
    supply set (~230 bytes on a board; making it cost ~0.8 ms a command)."""
    if _EXPECTED[0] != supply_set:
        blessings, wounds = C.SUPPLY_SETS[supply_set]
        ids = set(C.DECK_IDS)
        ids.update(blessings)
        ids.update(wounds)
        _EXPECTED[0], _EXPECTED[1] = supply_set, ids
    return _EXPECTED[1]


class PlayerState:
    """Plain data. Every card of the deck and of the supply set is in exactly
    one place: a pile, the table (flipped), the supply, or ``elsewhere`` (held
    by another player at the table, as the host reports). Pile tops: draw[0] is the top of the Deckahedron; the last
    element of discard and exhaustion is their top."""

    def __init__(self):
        self.edition = DEFAULT_EDITION
        self.campaign = "oneshot"
        self.supply_set = C.DEFAULT_SUPPLY_SET
        self.rng = Rng(0)
        self.draw = []
        self.discard = []
        self.exhaustion = []  # [card id, face_up]
        self.table = []  # cards flipped (or laid out in a mini-game) right now
        self.supply = []  # blessing/wound cards this player may draw
        self.elsewhere = []  # supply cards other players at the table hold
        self.exh_tokens = 0
        self.harm = 0
        self.wound_tokens = 0
        self.xp = 0
        self.shadow = 0  # GM points this player's flips generated
        self.attrs = {"str": "crown", "dex": "blade", "int": "anvil"}
        self.moves = {}
        self.incapacitated = ""  # empty, or why
        self.flip = None  # dict of FLIP_FIELDS while a flip is in progress
        self.minigame = ""  # "pick_locks" / "magic" while one is on the table
        self.bonus_adv = 0  # DW: advantage bought with a critical success
        self.count = 0  # commands applied, for the link and the log
        self.game = ""  # the game's id (Game.new makes it); "" in a save older than game ids
        # Equipment (shared_rules/deck/gear.py): item cards as gear.FIELDS lists,
        # anonymous Pack cards (regular, precious), and how many of the
        # Exhaustion tokens sit in Good Cardio's slots.
        self.gear = []
        self.pack = 0
        self.precious = 0
        self.cardio = 0
        # This player's moment in the spotlight (MD *Moves tagged FAST*,
        # *Player vs Player*): "F" once a FAST move was flipped in it, "P"
        # while its last flip was against another player.
        self.spot = ""
        # Advancement by green rings (shared_rules/deck/campaign.py): the rings the
        # player's move cards show, the enveloped moves taken out of their
        # envelopes (MD 30-hour campaign), the level cards (DW) and whether
        # one was taken this session; DW's Wealth tokens (Pack tokens are
        # ``pack``).
        self.rings = 0
        self.unsealed = []
        self.level_cards = []
        self.level_taken = 0
        self.envelope_due = 0  # MD: a new move card lets one envelope card out
        self.wealth = 0
        self.pursuit = None  # while a pursuit runs: its rounds, [[won 1/0, helper or ""], ...]

    # -- the invariant -------------------------------------------------
    def all_card_ids(self):
        ids = list(self.draw) + list(self.discard) + [e[0] for e in self.exhaustion]
        return ids + list(self.table) + list(self.supply) + list(self.elsewhere)

    def expected_ids(self):
        blessings, wounds = C.SUPPLY_SETS[self.supply_set]
        return list(C.DECK_IDS) + list(blessings) + list(wounds)

    def conservation_error(self):
        """None when every card is in exactly one place, else what is wrong."""
        # Game.do checks after every command. The usual case is answered
        # with two sets and no lists: on a board every allocation costs.
        blessings, wounds = C.SUPPLY_SETS[self.supply_set]
        n = len(self.draw) + len(self.discard) + len(self.exhaustion) + len(self.table)
        n += len(self.supply) + len(self.elsewhere)
        if n == len(C.DECK_IDS) + len(blessings) + len(wounds):
            seen = set(self.draw)
            for pile in (self.discard, self.table, self.supply, self.elsewhere):
                seen.update(pile)
            for e in self.exhaustion:
                seen.add(e[0])
            if seen == _expected(self.supply_set):  # as many places as cards, every card seen
                return None
        ids = self.all_card_ids()
        expected = self.expected_ids()
        seen = {}
        for cid in ids:
            seen[cid] = seen.get(cid, 0) + 1
        for cid in expected:
            n = seen.pop(cid, 0)
            if n != 1:
                return "card %s is in %d places" % (cid, n)
        if seen:
            return "cards that do not belong: %s" % ",".join(sorted(seen))
        return None

    def check(self):
        err = self.conservation_error()
        if err:
            raise RulesError("conservation", "card conservation broken: " + err)
        if self.cardio > self.exh_tokens:
            raise RulesError("conservation", "token conservation broken: %d tokens on Good Cardio but %d Exhaustion tokens" % (self.cardio, self.exh_tokens))

    # -- text form -----------------------------------------------------
    def dump(self):
        # One format operation instead of a string per line: a board pays
        # for every allocation, and a press dumps the state once.
        flip = "-"
        if self.flip is not None:
            values = list(map(self.flip.get, FLIP_FIELDS))  # in C: a comprehension cost a board ~0.3 ms
            if values[-1] is None:  # no magic item: the record as before it existed
                values.pop()
            flip = json.dumps(values)
        moves = "[]"
        if self.moves:
            moves = json.dumps([[name, self.moves[name]] for name in sorted(self.moves)])
        exh = ""
        if self.exhaustion:
            exh = " ".join(["^" + cid if up else cid for cid, up in self.exhaustion])
        # Lines a save made before equipment lacks: written only when they
        # say something, so an older save dumps (and digests) as it did.
        # Made before the body, which takes them in its one format: every
        # new str costs a board a search of every interned name.
        tail = []
        if self.gear:
            tail.append("gear %s\n" % json.dumps(self.gear))
        if self.pack or self.precious:
            tail.append("pack %d %d\n" % (self.pack, self.precious))
        if self.cardio:
            tail.append("cardio %d\n" % self.cardio)
        if self.spot:
            tail.append("spot %s\n" % self.spot)
        if self.rings or self.level_taken or self.envelope_due:
            tail.append("rings %d %d %d\n" % (self.rings, self.level_taken, self.envelope_due))
        if self.unsealed:
            tail.append("unsealed %s\n" % json.dumps(self.unsealed))
        if self.level_cards:
            tail.append("level_cards %s\n" % json.dumps(self.level_cards))
        if self.wealth:
            tail.append("wealth %d\n" % self.wealth)
        if self.pursuit is not None:
            tail.append("pursuit %s\n" % json.dumps(self.pursuit))
        a = self.attrs
        body = _DUMP % (
            self.edition, self.campaign, self.supply_set, self.rng.state_hex(),
            " ".join(self.draw), " ".join(self.discard), exh, " ".join(self.table),
            " ".join(self.supply), " ".join(self.elsewhere),
            self.exh_tokens, self.harm, self.wound_tokens, self.xp, self.shadow,
            a["str"], a["dex"], a["int"], moves,
            json.dumps(self.incapacitated) if self.incapacitated else '""',
            flip, self.minigame or "-", self.bonus_adv, self.count,
            "".join(tail) if tail else "", "game %s\n" % self.game if self.game else "")
        return "%scheck %s\n" % (body, text_digest(body))

    def digest(self):
        return text_digest(self.dump())

    @classmethod
    def load(cls, text):
        """Parse a dump; any defect raises RulesError('bad_save') naming it."""
        from shared_rules.deck.load import parse

        return parse(cls, text)

def check_move_name(name):
    if not isinstance(name, str) or not (0 < len(name) <= 32):
        raise RulesError("bad_move", "a move name is 1 to 32 characters")
    for ch in name:
        if not (ch.isalpha() or ch.isdigit() or ch in " -'.!"):
            raise RulesError("bad_move", "move names use letters, digits, spaces and - ' . ! only")
    return name


def move_level(value):
    """Move level as -2..+2 from a number or a name (wild..master)."""
    if isinstance(value, str) and value in MOVE_LEVELS:
        return MOVE_LEVELS.index(value) - 2
    if isinstance(value, int) and not isinstance(value, bool) and -2 <= value <= 2:
        return value
    raise RulesError("bad_level", "move level must be wild, novice, base, expert or master (-2..2), not %r" % (value,))


def level_cap(now):
    """The highest level a critical success raises a move at level ``now``
    to: wild graduates only to novice (MD *Critical Success*)."""
    return -1 if now == -2 else 2

"""The rules engine: one player's Deckahedron and every command on it.

``Game.do(op, args)`` is the single entry for commands (buttons, the serial
link, the tests): it runs the command and, if the command raises RulesError,
puts the state back exactly as it was. Queries (``summary``, ``odds`` ...) never
change anything. The rules themselves live in mixins named for what they hold:
flipping here, combat in combat.py, recovery in recovery.py, advancement and
mini-games in advancement.py. The three mixins join Game when one of their
methods is first used (MIXINS), so a board that only flips pays no heap for
them.
"""

from shared_rules.atomic import Atomic
from shared_rules.deck import cards as C
from shared_rules.deck import flips as F
from shared_rules.deck.editions import edition
from shared_rules.deck.state import ATTRS, PlayerState
from shared_rules.errors import RulesError

TEAM_ROLES = (None, "lead", "support")


def _copy(v):
    """v with every list and dict inside it copied (strings, numbers and
    tuples are shared: nothing changes them in place). Each list of the
    state holds one kind of thing, so its first item says whether the items
    need copying too. The Rng is shared as well: Game.do keeps its words.
    A dict is copied whole (in C), then only its lists and dicts again: a
    comprehension calling _copy for every value cost a board ~1.4 ms for a
    flip's record."""
    t = type(v)
    if t is list:
        if v and type(v[0]) in (list, dict):
            x = v[0]
            if type(x) is list and not (x and type(x[0]) in (list, dict)):
                return [x[:] for x in v]  # lists of flat lists (exhaustion's pairs): no call per item
            return [_copy(x) for x in v]
        return v[:]
    if t is dict:
        out = v.copy()
        for k in out:
            x = out[k]
            if type(x) in (list, dict):
                out[k] = _copy(x)
        return out
    return v


# The fields of a PlayerState that commands change in place (lists and
# dicts; flip is a dict or None); the rest are replaced, never changed, so a
# plain copy of the field dict keeps them. FLAT_FIELDS hold only strings
# and numbers (card ids, suits, move names and levels): one copy each, in C.
# The flip's record holds one list (tied); the others hold lists
# (exhaustion's [id, face up] pairs, gear's item records, the pursuit's
# rounds) and go through _copy. tests/rules/deck/test_game.py checks all this
# against PlayerState and states of every kind.
FLAT_FIELDS = ("draw", "discard", "table", "supply", "elsewhere", "attrs", "moves", "unsealed", "level_cards")
NESTED_FIELDS = ("exhaustion", "gear", "pursuit")
MUTABLE_FIELDS = FLAT_FIELDS + NESTED_FIELDS + ("flip",)


def _snapshot(s):
    """The state's fields as they are now, for Game._restore: the field dict
    copied whole, then the mutable fields, nearly all in C (a generic deep
    copy of every field cost a board ~3.5 ms a command)."""
    fields = s.__dict__.copy()
    for k in FLAT_FIELDS:
        fields[k] = fields[k].copy()
    for k in NESTED_FIELDS:
        fields[k] = _copy(fields[k])
    flip = fields["flip"]
    if flip is not None:
        flip = fields["flip"] = flip.copy()
        flip["tied"] = flip["tied"][:]
    return fields, s.rng.s[:]


def _flag(value, name):
    if value is True or value is False:
        return value
    raise RulesError("bad_args", "%s must be true or false" % name)


# The rules a board seldom needs, in mixin classes loaded on first use:
# (module, class, its commands (Game.COMMANDS), its other methods called
# from outside the mixin: what Game, other modules and the UI call).
# Loading one copies all of its class's methods into Game (load_mixin);
# tests/rules/deck/test_game.py checks that the lists name every public
# method of its class. Each name is written once: on the stock image a name
# in a tuple is a str object of its own in the heap, each time it is written.
MIXINS = (
    ("combat", "Combat", ("reveal", "damage", "lose_stamina", "take_wound", "take_harm", "take_blessing"),
     ("damage_ways", "stamina_loss")),
    ("recovery", "Recovery", ("breather", "rest", "seek_help", "revive"),
     ("breather_options", "keep_count", "worst_exhausted")),
    ("advancement", "Advancement", ("set_attr", "set_move", "study", "mercy_flashback", "gain_xp",
                                    "minigame_start", "minigame_exhaust", "minigame_end"),
     ("levelup_max", "minigame_view", "pursuit")),
)


def load_mixin(name):
    """Loads the mixin holding method ``name`` into Game; False when no
    mixin has it."""
    for module, cls, commands, others in MIXINS:
        if name in commands or name in others:
            mixin = getattr(__import__("shared_rules.deck." + module, None, None, [cls]), cls)
            for k, v in mixin.__dict__.items():
                if k[:2] != "__" and not hasattr(Game, k):  # Game and Atomic come first, as bases would
                    setattr(Game, k, v)
            return True
    return False


def release_code():
    """The modules of the rarer commands Game loads on first use
    (LAZY_MODULES: gear, the mini-games, ...; the Critical Success reward),
    which nothing holds once their command is done: what a board whose code
    sits in the heap drops at the home screen (app.release_modules), to load
    again when next needed. The mixins stay: once loaded, their methods are
    Game's, and a flip's own rules may call them (a wound card's lost Stamina)."""
    return tuple("shared_rules.deck." + m[0] for m in Game.LAZY_MODULES) + ("shared_rules.deck.critical",)


class Game(Atomic):
    STATE = PlayerState
    SYSTEM = "deck"  # shared_rules.systems: the Deckahedron, the default
    # Commands that live in shared_rules/deck/gear.py, campaign.py and
    # minigames.py, loaded on first use: a board that never runs one pays
    # no heap for them.
    GEAR_COMMANDS = ("gear_add", "gear_drop", "item_damage", "pack_gain", "good_thing", "magic_stop",
                     "magic_capacity", "wealth_gain", "item_power", "contemplate")
    CAMPAIGN_COMMANDS = ("set_rings", "open_envelope", "take_level_card", "new_session")
    PURSUIT_COMMANDS = ("pursuit_start", "pursuit_round", "pursuit_end")
    FLASHBACK_COMMANDS = ("flashback", "bump")
    TABLE_COMMANDS = ("supply_sync", "set_edition", "spotlight")
    # (module of shared_rules/deck/, its commands)
    LAZY_MODULES = (("gear", GEAR_COMMANDS), ("campaign", CAMPAIGN_COMMANDS), ("minigames", PURSUIT_COMMANDS),
                    ("flashback", FLASHBACK_COMMANDS), ("table", TABLE_COMMANDS))
    LAZY_COMMANDS = GEAR_COMMANDS + CAMPAIGN_COMMANDS + PURSUIT_COMMANDS + FLASHBACK_COMMANDS + TABLE_COMMANDS
    # op name -> method name; everything a player or GM can do to a device.
    COMMANDS = ("flip", "choose", "end_flip", "reshuffle") + MIXINS[0][2] + MIXINS[1][2] + MIXINS[2][2] + LAZY_COMMANDS

    def __init__(self, state):
        self.s = state
        self.ed = edition(state.edition)
        self.events = []

    @classmethod
    def new(cls, seed=0, edition_key="md", campaign="oneshot", supply_set=C.DEFAULT_SUPPLY_SET, attrs=None):
        """A fresh character (creation.py: a board makes one seldom)."""
        from shared_rules.deck.creation import new

        return new(cls, seed, edition_key, campaign, supply_set, attrs)

    # -- the command entry (Atomic.do) -----------------------------------
    def command(self, op):
        """A method of Game, or for a command loaded on first use its module
        function, given this Game first."""
        fn = self.command_function(op)
        if op in self.LAZY_COMMANDS:
            return lambda **args: fn(self, **args)
        return getattr(self, op)

    def snapshot(self):
        # far cheaper than a dump, which a board would pay on every press
        return _snapshot(self.s)

    @classmethod
    def command_function(cls, op):
        """The code of command ``op``: a method of Game, or for a command
        loaded on first use the module function (its first argument the
        Game). Unknown ops are refused."""
        if op not in cls.COMMANDS:
            raise RulesError("bad_op", "unknown command %r" % (op,))
        if op not in cls.LAZY_COMMANDS:
            if op not in cls.__dict__:
                load_mixin(op)
            return getattr(cls, op)
        # Modules a board loads only when one of their commands runs.
        for module, ops in cls.LAZY_MODULES:
            if op in ops:
                return getattr(__import__("shared_rules.deck." + module, None, None, [op]), op)

    def __getattr__(self, name):
        """A mixin's method, not loaded yet (MIXINS): load it; a command
        loaded on first use (LAZY_COMMANDS): its function, given this Game."""
        if name in self.LAZY_COMMANDS:
            return self.command(name)
        if not load_mixin(name):
            raise AttributeError(name)
        return getattr(self, name)

    def _follow_up(self):
        self._settle()

    def _restore(self, before):
        Atomic._restore(self, before)
        self.ed = edition(self.s.edition)

    # -- shared helpers for the mixins -----------------------------------
    def require_idle(self, what):
        s = self.s
        if s.flip is not None:
            raise RulesError("flip_open", "finish the current flip before you %s" % what)
        if s.minigame:
            raise RulesError("minigame_open", "finish the mini-game before you %s" % what)

    def require_able(self, what):
        if self.s.incapacitated:
            raise RulesError("incapacitated", "your character is incapacitated (%s) and cannot %s" % (self.s.incapacitated, what))

    def shuffle_in(self, why):
        """Discard pile shuffled back into the Deckahedron (MD *Reshuffling*)."""
        s = self.s
        s.draw.extend(s.discard)
        s.discard = []
        s.rng.shuffle(s.draw)
        self.event("reshuffle", why)

    def draw_top(self):
        """Top card; an empty deck must take the discard pile back first."""
        s = self.s
        if not s.draw:
            if not s.discard:
                return None
            self.shuffle_in("deck ran out")
        return s.draw.pop(0)

    def incapacitate(self, why):
        if not self.s.incapacitated:
            self.s.incapacitated = why
            self.event("incapacitated", why)

    def _settle(self):
        """After every command with nothing on the table: the mandatory
        reshuffle at <= 5 cards, then the edition's incapacitation test."""
        s = self.s
        if s.flip is not None or s.minigame:
            return
        if len(s.draw) <= self.ed["mandatory_reshuffle_at"] and s.discard:
            self.shuffle_in("5 or fewer cards")
        why = self.spent()
        if why:
            self.incapacitate(why)

    def spent(self):
        """Why the edition's piles say the character is spent, or ""."""
        s = self.s
        rule = self.ed["incapacitation"]
        if rule == "bust3" and len(s.draw) <= self.ed["bust_at"]:
            return "bust on 3"
        if rule == "exhaust10" and len(s.exhaustion) >= 10:
            return "10 cards exhausted"
        if rule == "no_stamina" and not self.stamina_left():
            return "no Stamina left"
        return ""

    def stamina_left(self):
        s = self.s
        for cid in s.draw + s.discard:
            if C.CARDS[cid].stamina:
                return True
        return False

    def take_from_supply(self, kind):
        """A random card of this kind from the supply into the discard pile."""
        s = self.s
        pool = [cid for cid in s.supply if C.CARDS[cid].kind == kind]
        if not pool:
            return None
        cid = s.rng.choice(pool)
        s.supply.remove(cid)
        s.discard.append(cid)
        self.event("took", kind, cid)
        return cid

    # -- flipping ---------------------------------------------------------
    def flip(self, suit=None, net=0, attr=None, move=None, fast=False, pvp=False, team=None, item=None, unencumbered=False):
        """Flip 1 + |net| cards (at most 3) for a suit (or an attribute's suit).

        MD *Flipping*, *Advantage / Disadvantage*, *Complete Flip Rule*,
        *A Wound Card*; a supporter of a teamwork flip flips one Anvil
        (MD *Teamwork Flips*). ``item`` names the magic item of a Use a
        Magic Item flip (Int; the item must have a charge) or the shield
        that blocks (Dex, a FAST move)."""
        s = self.s
        self.require_able("flip")
        self.require_idle("flip again")
        F.check_net(net)
        fast, pvp = _flag(fast, "fast"), _flag(pvp, "pvp")
        if team not in TEAM_ROLES:
            raise RulesError("bad_team", "team must be lead or support")
        if _flag(unencumbered, "unencumbered"):
            from shared_rules.deck.gear import check_unencumbered

            check_unencumbered(self)
        if item is not None:
            from shared_rules.deck.gear import check_usable

            need = check_usable(s, item)  # Int for a magic item, Dex for a shield
            if team is not None or (attr not in (None, need)) or (suit is not None and suit != s.attrs[need]):
                raise RulesError("bad_attr", "%s flips %s" % (item, "Int" if need == "int" else "Dex"))
            attr = need
            if need == "dex":
                fast = True  # MD *Shields*: "Blocking attack power with a shield is a FAST move"
        if team == "support":
            if suit not in (None, self.ed["teamwork_suit"]) or attr is not None or move is not None or net:
                raise RulesError("bad_team", "a supporter flips exactly one %s card" % self.ed["teamwork_suit"])
            suit = self.ed["teamwork_suit"]
        elif attr is not None:
            if attr not in ATTRS:
                raise RulesError("bad_attr", "attribute must be str, dex or int, not %r" % (attr,))
            if suit is not None and suit != s.attrs[attr]:
                raise RulesError("bad_attr", "%s is %s on your sheet, not %s" % (attr, s.attrs[attr], suit))
            suit = s.attrs[attr]
        if suit is None:
            raise RulesError("bad_suit", "say which suit (or attribute) to flip")
        C.check_suit(suit)
        base = net
        if move is not None:
            if move not in s.moves:
                raise RulesError("bad_move", "no move named %r on your sheet" % (move,))
            net += s.moves[move]
        if team != "support":
            # MD *Moves tagged FAST*: "at most one FAST move during their
            # moment in the spotlight"; a move that is not FAST opens a new
            # moment (the spotlight "follows a single character's actions
            # until they trigger, then resolve a move").
            if fast:
                if "F" in s.spot:
                    raise RulesError("fast_used", "only one FAST move in a moment in the spotlight: pass the spotlight first")
                s.spot = "F" + s.spot
            else:
                s.spot = ""
            if pvp and "P" not in s.spot:
                s.spot += "P"
        if s.bonus_adv and team != "support":
            net += s.bonus_adv
            s.bonus_adv = 0
            self.event("bonus advantage used")
        if len(s.draw) <= self.ed["mandatory_reshuffle_at"] and s.discard:
            self.shuffle_in("5 or fewer cards")
        s.flip = {"suit": suit, "net": net, "phase": "", "resolving": -1, "level": 0,
                  "tied": [], "fast": fast, "pvp": pvp, "move": move, "team": team,
                  "flashback": False, "bumps": 0, "base": base, "item": item}
        return self._deal()

    def _deal(self):
        s = self.s
        f = s.flip
        want = F.cards_for(f["net"], self.ed["max_cards"])
        if not s.draw:
            raise RulesError("empty_deck", "your Deckahedron is empty: there is nothing to flip")
        if len(s.draw) < want:
            raise RulesError("short_deck", "the flip needs %d cards but your Deckahedron has %d" % (want, len(s.draw)))
        hit_wound = False
        for _ in range(want):
            cid = s.draw.pop(0)
            s.table.append(cid)
            if C.CARDS[cid].kind == "wound" and self.ed["wound_card_stops_flip"]:
                hit_wound = True
                break
        if hit_wound:
            # MD *A Wound Card*: stop flipping at once and lose one Stamina.
            self.event("wound card: flip stopped, lose 1 Stamina")
            self.stamina_loss(1)
        flipped = [C.CARDS[cid] for cid in s.table]
        level, tied = F.resolve(flipped, f["suit"], f["net"])
        f["level"] = level
        f["tied"] = tied
        if F.tie_matters(flipped, tied, self.ed["blessing_returns"]):
            f["phase"] = "choose"
            f["resolving"] = -1
        else:
            f["phase"] = "open"
            f["resolving"] = tied[0]
        return self.flip_view()

    def flip_view(self):
        f = self.s.flip
        table = self.s.table
        return {
            "cards": list(table),
            "suit": f["suit"],
            "net": f["net"],
            "level": f["level"],
            "tied": [table[i] for i in f["tied"]],
            "resolving": table[f["resolving"]] if f["resolving"] >= 0 else None,
            "phase": f["phase"],
            "flashback": f["flashback"],
        }

    def _open_flip(self, what):
        f = self.s.flip
        if f is None:
            raise RulesError("no_flip", "there is no flip to %s" % what)
        return f

    def choose(self, card):
        """Pick which tied card resolves the flip (MD *Advantage*: a tie)."""
        f = self._open_flip("choose a card for")
        if f["phase"] != "choose":
            raise RulesError("no_choice", "this flip has no tie to choose from")
        idx = [i for i in f["tied"] if self.s.table[i] == card]
        if not idx:
            raise RulesError("bad_choice", "card %r is not one of the tied cards %s" % (card, ",".join(self.s.table[i] for i in f["tied"])))
        f["resolving"] = idx[0]
        f["phase"] = "open"
        return self.flip_view()

    def spend_xp(self, n, why):
        if self.s.xp < n:
            raise RulesError("no_xp", "%s costs %d %s; you have %d" % (why, n, self.ed["xp_name"], self.s.xp))
        self.s.xp -= n

    def end_flip(self, crit=None, move=None, levels=1, resolved=True, spare=None, ongoing=False, cost=None):
        """Resolve and clear the flip: XP, GM points, critical success, the
        cards to the discard pile (a resolving blessing to the supply).

        ``resolved`` is false for a teamwork flip whose best card was another
        player's (XP only for the owner of the resolving card)."""
        s = self.s
        f = self._open_flip("end")
        if f["phase"] != "open":
            raise RulesError("choose_first", "choose which tied card resolves the flip first")
        resolved = _flag(resolved, "resolved")
        if not resolved and f["team"] is None:
            raise RulesError("bad_team", "only a teamwork flip can be resolved by another player's card")
        card = C.CARDS[s.table[f["resolving"]]]
        level = f["level"]
        out = {"level": level, "resolving": card.id, "xp": 0, "shadow": 0}
        ongoing = _flag(ongoing, "ongoing")
        if f.get("item"):
            from shared_rules.deck.gear import use_item

            use_item(self, f["item"], level, spare, ongoing, cost, out)
        elif spare is not None or ongoing or cost is not None:
            raise RulesError("no_item", "only a magic item's or a shield's flip takes spare, ongoing or cost")
        if resolved and card.crit == "success":
            # MD *Critical Success*: "go up levels in the move that was just
            # resolved"; only a flip made without naming a move lets the
            # player name it now.
            if move is not None and f["move"] is not None and move != f["move"]:
                raise RulesError("bad_move", "a critical success levels up the move just resolved (%s), not %s" % (f["move"], move))
            from shared_rules.deck.critical import critical  # loaded when a Critical Success is resolved

            critical(self, crit, move if move is not None else f["move"], levels, f["pvp"], out)
        elif crit is not None:
            raise RulesError("no_crit", "only a flip resolved by the Critical Success card offers that choice")
        if resolved:
            if card.xp and not f["pvp"]:
                s.xp += 1
                out["xp"] = 1
                self.event("xp +1")
            points = 0
            if level == C.LEVEL_SINGLE:
                points = self.ed["single_check_points"]
            elif level == C.LEVEL_MISS and f["fast"]:
                points = self.ed["fast_miss_points"]
            if points:
                s.shadow += points
                out["shadow"] = points
                self.event(self.ed["gm_points"], "+%d" % points)
        for i in range(len(s.table)):
            cid = s.table[i]
            if resolved and i == f["resolving"] and C.CARDS[cid].kind == "blessing" and self.ed["blessing_returns"]:
                s.supply.append(cid)
                self.event("blessing returns to the supply", cid)
            else:
                s.discard.append(cid)
        s.table = []
        s.flip = None
        return out

    def reshuffle(self):
        """The optional reshuffle, any time other than during a flip."""
        self.require_idle("reshuffle")
        self.shuffle_in("by choice")
        return {"draw": len(self.s.draw)}

    # -- queries (never change state) -------------------------------------
    def summary(self):
        """The state in the host's words (the link's state op; table.py)."""
        from shared_rules.deck.table import summary

        return summary(self)

    def odds_query(self, args):
        """The host's odds op and the Odds screen: {"suit", "net"}."""
        return self.odds(args.get("suit"), args.get("net", 0))

    def odds(self, suit, net=0):
        """Exact odds of the next flip from the current draw pile."""
        from shared_rules.deck.odds import flip_odds

        return flip_odds(self.s.draw, suit, net)

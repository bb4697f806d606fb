"""A seeded random walk of commands, legal and illegal, for tests and benches.

Runs under MicroPython too (where hypothesis does not exist). After every
command it checks card conservation; after every refused command that the
state is byte-for-byte what it was; now and then that save -> load gives the
same state back.
"""

from shared_rules.deck import cards as C
from shared_rules.deck.game import Game
from shared_rules.errors import RulesError
from shared_rules.prng import Rng

SUITS = C.SUITS + ("sword",)  # one bad suit now and then
MOVES = ("Defy Danger", "Mix It Up", "Pick Locks")


def random_command(g, r):
    """(op, args) drawn from everything a player or GM can send."""
    s = g.s
    if s.flip is not None:
        f = s.flip
        roll = r.below(10)
        if f["phase"] == "choose" and roll < 6:
            return "choose", {"card": s.table[f["tied"][r.below(len(f["tied"]))]]}
        if roll == 0:
            return "flashback", {}
        if roll == 1:
            return "bump", {}
        crit = (None, None, "levelup", "blessing", "bonus_move")[r.below(5)]
        args = {"crit": crit} if crit else {}
        if crit == "levelup":
            args["move"] = MOVES[r.below(3)]
        if f["team"] and r.below(2):
            args["resolved"] = False
        return "end_flip", args
    if s.minigame:
        roll = r.below(4)
        if roll == 0:
            return "minigame_exhaust", {"card": s.table[r.below(len(s.table))]}
        return "minigame_end", {"abandon": roll == 1}
    roll = r.below(100)
    if roll < 45:
        args = {"net": r.below(7) - 3}
        if r.below(4) == 0:
            args["attr"] = ("str", "dex", "int")[r.below(3)]
        else:
            args["suit"] = SUITS[r.below(len(SUITS))]
        if r.below(6) == 0:
            args["move"] = MOVES[r.below(3)]
        if r.below(8) == 0:
            args["fast"] = True
        if r.below(12) == 0:
            args["pvp"] = True
        if r.below(10) == 0:
            args = {"team": "support"}
        elif r.below(10) == 0:
            args["team"] = "lead"
        return "flip", args
    if roll < 50:
        return "reshuffle", {}
    if roll < 55:
        return "reveal", {"kind": ("d4", "d6", "d10", "d8")[r.below(4)]}
    if roll < 62:
        args = {"power": r.below(9)}
        k = r.below(5)
        if k == 0:
            args["wounds"] = 1
        elif k == 1:
            args["harm"] = r.below(3)
        elif k == 2:
            args["absorb"] = r.below(3)
        return "damage", args
    if roll < 65:
        return "lose_stamina", {"points": r.below(3)}
    if roll < 67:
        return "take_wound", {}
    if roll < 69:
        return "take_harm", {}
    if roll < 71:
        return "take_blessing", {}
    if roll < 76:
        args = {}
        k = r.below(3)
        if k == 0:
            args["tokens"] = r.below(3)
        elif k == 1:
            args["facedown"] = r.below(3)
        else:
            up = [e[0] for e in s.exhaustion if e[1]] or ["11"]
            args["cards"] = [up[r.below(len(up))]]
        return "breather", args
    if roll < 79:
        n = s.harm + s.wound_tokens
        ids = [e[0] for e in s.exhaustion]
        return "rest", {"keep": ids[:n]} if r.below(3) else {}
    if roll < 81:
        ids = [e[0] for e in s.exhaustion]
        return "seek_help", {"keep": ids[:s.wound_tokens], "hearth": r.below(3) == 0}
    if roll < 84:
        return "set_move", {"name": MOVES[r.below(3)], "level": r.below(5) - 2}
    if roll < 86:
        return "study", {"move": MOVES[r.below(3)]}
    if roll < 88:
        return "gain_xp", {"n": 1 + r.below(3)}
    if roll < 89:
        return "mercy_flashback", {}
    if roll < 91:
        return "revive", {}
    if roll < 94:
        return "minigame_start", {"kind": ("pick_locks", "magic")[r.below(2)]}
    if roll < 95:
        return "set_attr", {"attr": ("str", "dex", "int")[r.below(3)], "suit": C.SUITS[r.below(4)]}
    if roll < 96:
        return "set_edition", {"edition_key": ("md", "v093", "dw-lucky", "dw-heroic")[r.below(4)],
                               "campaign": ("oneshot", "9h", "30h")[r.below(3)]}
    if roll < 97:
        pool = ("pb1", "pb2", "pb3", "pb4", "pb5", "pb6", "pw1", "pw2")
        return "supply_sync", {"elsewhere": [pool[i] for i in range(8) if r.below(3) == 0]}
    if roll < 98:
        return "flip", {"suit": "crown", "net": 7}
    return "no_such_command", {}


def random_walk(seed, steps, check=True, edition_key="md", campaign="9h", stats=None):
    """Run ``steps`` random commands; returns how many were applied. ``stats``
    (a dict) collects op -> [applied, refused] and how often the character
    was incapacitated."""
    r = Rng(seed)
    g = Game.new(seed=seed, edition_key=edition_key, campaign=campaign)
    applied = 0
    for step in range(steps):
        op, args = random_command(g, r)
        before = g.dump() if check else None
        try:
            g.do(op, args)
            applied += 1
            ok = 0
        except RulesError:
            ok = 1
            if check and g.dump() != before:
                raise AssertionError("refused %s %r changed the state" % (op, args))
        if stats is not None:
            stats.setdefault(op, [0, 0])[ok] += 1
            if g.s.incapacitated:
                stats.setdefault("incapacitated", [0, 0])[0] += 1
        if check:
            err = g.s.conservation_error()
            if err:
                raise AssertionError("after %s %r: %s" % (op, args, err))
            if step % 50 == 0:
                text = g.dump()
                if Game.load(text).dump() != text:
                    raise AssertionError("save/load round trip differs at step %d" % step)
        if g.s.incapacitated and r.below(4) == 0:
            try:
                g.do("seek_help", {"keep": [e[0] for e in g.s.exhaustion][:g.s.wound_tokens]})
            except RulesError:
                pass
    return applied

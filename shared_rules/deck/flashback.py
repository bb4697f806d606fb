"""MD *Do a Flashback* on a board's first use of it: flash back from a flip
(1 XP, the flip ignored and flipped again) and bump its result (1 XP a
step). Commands of Game (Game.LAZY_COMMANDS), each given the Game first:
a board that never flashes back keeps their code out of its heap."""

from shared_rules.errors import RulesError


def flashback(g):
    """Spend 1 XP: the flip is ignored and flipped again with the same
    advantage (MD *Do a Flashback*). Supporters may not (*Teamwork*)."""
    s = g.s
    f = g._open_flip("flash back from")
    if f["team"] == "support":
        raise RulesError("no_flashback", "supporting players may not Do a Flashback on a teamwork flip")
    g.spend_xp(1, "Do a Flashback")
    s.discard.extend(s.table)
    s.table = []
    g.event("flashback: the flip is ignored")
    if len(s.draw) <= g.ed["mandatory_reshuffle_at"] and s.discard:
        g.shuffle_in("5 or fewer cards")
    f["flashback"] = True
    f["bumps"] = 0
    f["phase"] = ""
    return g._deal()


def bump(g):
    """After a flashback, each extra XP raises the result one step,
    ✗ → ✅ → ✔✔ → ✔✔✔ (MD *Do a Flashback*)."""
    f = g._open_flip("bump")
    if not f["flashback"]:
        raise RulesError("no_bump", "only a flashback flip can be bumped up")
    if f["phase"] != "open":
        raise RulesError("choose_first", "choose which tied card resolves before bumping")
    if f["level"] >= g.ed["flashback_max_level"]:
        raise RulesError("max_level", "the result is already as high as a bump can raise it")
    g.spend_xp(1, "bump the result")
    f["level"] += 1
    f["bumps"] += 1
    return g.flip_view()

"""Random command sessions: conservation after every step, refused commands
change nothing, save/load round trips (design §4). The same walk runs under
MicroPython, where hypothesis does not exist."""

from shared_rules.deck.walk import random_walk


def test_ten_thousand_random_commands_keep_every_invariant():
    applied = 0
    for seed, ed in ((1, "md"), (2, "v093"), (3, "dw-lucky"), (4, "dw-heroic")):
        applied += random_walk(seed, 2500, edition_key=ed, campaign="30h")
    assert applied > 4000  # the walk is not all refusals


def test_walk_reaches_the_hard_corners():
    """The walk must actually exercise incapacitation, wounds and flashbacks,
    or its passing would mean little."""
    stats = {}
    random_walk(5, 3000, stats=stats)
    for op in ("flip", "choose", "end_flip", "flashback", "damage", "take_wound", "rest", "seek_help",
               "breather", "minigame_start", "minigame_end", "reveal", "study", "revive"):
        assert stats.get(op, [0, 0])[0] > 0, (op, stats.get(op))
    assert stats["incapacitated"][0] > 0

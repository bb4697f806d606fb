"""Facets in words (describe, say, summary_problem), on both runtimes."""

from shared_rules.facets.game import Game
from shared_rules.facets.words import describe, say, summary_problem
from tests.rules.facets.test_game import game


def test_describe_says_the_sheet_in_short_lines():
    g = game([8, 8, 3])
    g.do("trait_add", {"name": "swift", "attr": "F", "bonus": 2})
    g.do("task_start", {"check": "[Finesse 8 - 2/5 - 30s]"})
    g.do("task_roll", {"trait": "swift"})
    g.s.ladders["health"] = [1, ["step"], ["E"]]
    lines = describe(g.summary())
    for line in lines:
        assert len(line) <= 40, line
    text = "\n".join(lines)
    assert "E d4*" in text and "S d8" in text  # the hurt Endurance, marked
    assert "Health 10/10  Cool 10/10" in text
    assert "Hurt: die -2 steps on E" in text
    assert "Task [Finesse 8 - 2/5 - 30s]" in text and "1/2 after 1 of 5: open" in text
    assert "F d8 8+8+3=19 +2 vs 8: ADVANTAGE x2" in text


def test_say_a_roll_with_explosions():
    g = game([8, 8, 3])
    r = g.do("roll", {"attr": "F", "tn": 8, "bonus": 2})
    assert say("roll", {"attr": "F", "tn": 8}, r) == (
        "Finesse d8 rolled 8+8+3 (exploded 2 times) +2 = 21 against TN 8: advantage x2.")
    g = game([2, 1])
    r = g.do("attack", {"attr": "S", "tn": 6, "weapon": "medium"})
    assert say("attack", {}, r) == "Strength d8 rolled 2 = 2 against TN 6: success with a cost; deals 3 damage, target gains 1 token."
    r = g.do("damage", {"track": "health", "amount": 4})
    assert say("damage", {}, r) == "damage: health -4."


def test_summary_problem_accepts_sound_and_names_defects():
    g = game([5])
    g.do("roll", {"attr": "F", "tn": 8})
    good = g.summary()
    assert summary_problem(good) == ""
    assert summary_problem(Game.new(seed=3).summary()) == ""
    bad = g.summary()
    bad["health"] = [11, 10]
    assert "health" in summary_problem(bad)
    bad = g.summary()
    bad["attrs"]["F"] = 7
    assert "attrs" in summary_problem(bad)
    bad = g.summary()
    bad["last"]["rolls"][0]["faces"] = [9]
    assert "off its die" in summary_problem(bad)
    bad = g.summary()
    bad["ladders"]["cool"]["level"] = 2
    assert "cool" in summary_problem(bad)
    assert summary_problem({"system": "save"}) == "not a Facets summary"

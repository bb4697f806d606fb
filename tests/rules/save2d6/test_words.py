"""SAVE 2d6 in words (describe, say, summary_problem), on both runtimes."""

from shared_rules.save2d6.words import describe, say, summary_problem
from tests.rules.save2d6.test_game import do, hero, next_dice


def test_summary_describe_say_and_problem():
    g = hero(pursuit="avenge the village")
    next_dice(g, 5, 2)
    r = do(g, "roll", preferred=True)
    s = g.summary()
    assert s["system"] == "save" and s["count"] == 1 and s["roll"]["result"] == "pending"
    assert summary_problem(s) == ""
    lines = describe(s)
    assert lines[0] == "Health Strong, destiny ready"
    assert "Roll 5 2 (pass 3 5 6): set aside" in lines
    for line in lines:
        assert len(line) <= 40
    assert say("roll", {"preferred": True}, r) == \
        "Rolled 5 and 2, pass 3 5 6: a two came up, the roll is set aside for an assist."
    r = do(g, "assist", result="complete")
    assert say("assist", {"result": "complete"}, r) == \
        "Rolled 5 and 2, pass 2 3 5 6: complete success (assist in the nick of time: complete)."
    s = g.summary()
    bad = dict(s)
    bad["health"] = "fine"
    assert "health" in summary_problem(bad)
    bad = dict(s)
    bad["roll"] = dict(s["roll"], result="complete", dice=[1, 1])
    assert "roll" in summary_problem(bad)
    bad = dict(s, history=["ok", 5])
    assert "history" in summary_problem(bad)
    bad = dict(s, clocks=[{"name": "X", "kind": "progress", "segments": 40, "filled": 0}])
    assert "segments" in summary_problem(bad)
    assert summary_problem({"count": 1}) != ""
    assert summary_problem([]) != ""

"""The Deckahedron in words (describe, say, changes, summary_problem), on
both runtimes: the console's line and the record's entry are one sentence."""

from shared_rules.deck.words import changes, describe, say, summary_problem
from tests.rules.support import do, stacked


def test_a_flip_and_its_end_in_one_sentence_each():
    g = stacked(["4", "8"])
    r = do(g, "flip", attr="str", net=1)
    text = say("flip", {"attr": "str", "net": 1}, r)
    assert text.startswith("flips Strength (") and " +1: 4, 8; card " in text and " resolves it: " in text
    before = g.summary()
    e = do(g, "end_flip")
    text = say("end_flip", {}, dict(e, flip=r))
    assert text.startswith("ends the flip (4, 8), resolved by %s: " % e["resolving"]), text
    assert ("+1 XP" in text) == bool(e["xp"])
    assert changes(before, g.summary()) == (["XP 0 -> 1"] if e["xp"] else [])


def test_describe_and_summary_problem():
    g = stacked(["4"])
    s = g.summary()
    assert summary_problem(s) == ""
    lines = describe(s)
    assert lines[0].endswith("oneshot campaign") and lines[2].startswith("XP 0")
    for line in lines:
        assert len(line) <= 40
    assert "edition" in summary_problem(dict(s, edition="nope"))
    assert "card id" in summary_problem(dict(s, held=["nope"]))
    assert "flip" in summary_problem(dict(s, flip={"suit": "moon"}))


def test_a_command_the_words_do_not_know_says_its_arguments_and_result():
    assert say("set_rings", {"rings": 2}, {"rings": 2, "events": ["x"]}) == "does set_rings rings=2: rings 2"

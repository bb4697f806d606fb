"""SAVE 2d6 property tests (CPython, hypothesis): over random command
sequences, good and bad, every state passes the validity check and survives
its save; a refused command changes nothing; health only moves as the rules
say."""

from hypothesis import given, settings
from hypothesis import strategies as st

from shared_rules.errors import RulesError
from shared_rules.save2d6.game import HEALTH, Game

flag = st.one_of(st.booleans(), st.sampled_from(["yes", 1, None]))
words = st.sampled_from(["complete", "mixed", "failure", "", "wish", True, False, 2])
text = st.one_of(st.text(max_size=45), st.sampled_from(["the sea", "a storm"]))
clock = st.fixed_dictionaries({"name": st.sampled_from(["Doom", "Ritual", "", "x" * 17]),
                               "kind": st.sampled_from(["progress", "setback", "other"]),
                               "segments": st.integers(0, 14), "filled": st.integers(-1, 14)})

command = st.one_of(
    st.tuples(st.just("roll"), st.fixed_dictionaries(
        {}, optional={"preferred": flag, "expertise": flag, "assisted": words, "injury": flag,
                      "assisting": flag, "pursuit": flag, "destiny": flag})),
    st.tuples(st.just("assist"), st.fixed_dictionaries({"result": words})),
    st.tuples(st.just("decline"), st.just({})),
    st.tuples(st.just("destiny"), st.fixed_dictionaries(
        {"use": st.sampled_from(["complete", "fact", "restore", "restore_other", "x"])},
        optional={"because": st.one_of(st.just("pursuit"), st.integers(-1, 3))})),
    st.tuples(st.just("pursue"), st.just({})),
    st.tuples(st.just("injure"), st.fixed_dictionaries({"levels": st.integers(0, 3)})),
    st.tuples(st.just("rest"), st.just({})),
    st.tuples(st.just("set_health"), st.fixed_dictionaries({"health": st.sampled_from(HEALTH + ("dead",))})),
    st.tuples(st.just("set_pursuit"), st.fixed_dictionaries({"text": text})),
    st.tuples(st.just("end_session"), st.fixed_dictionaries({}, optional={"item": text})),
    st.tuples(st.just("set_clocks"), st.fixed_dictionaries({"clocks": st.lists(clock, max_size=3)})),
    st.tuples(st.sampled_from(["fly", "summary"]), st.just({})),
)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2 ** 40), commands=st.lists(command, max_size=40))
def test_random_sequences_keep_the_state_valid(seed, commands):
    g = Game.new(seed=seed, history=["a storm"])
    for op, args in commands:
        before = g.dump()
        count = g.s.count
        health = HEALTH.index(g.s.health)
        try:
            r = g.do(op, args)
        except RulesError:
            assert g.dump() == before, "refused %s %r changed the state" % (op, args)
            continue
        assert g.s.count == count + 1
        g.s.check()
        text = g.dump()
        assert Game.load(text).dump() == text
        now = HEALTH.index(g.s.health)
        if op == "roll":
            # An injury lowers health by at most two levels, never raises it.
            assert health <= now <= health + 2
            if r["result"] == "complete" or not args.get("injury"):
                assert now == health
        if op in ("assist", "decline"):
            assert health <= now <= health + 2

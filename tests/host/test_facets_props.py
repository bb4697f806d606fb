"""Facets validity over random command sequences (hypothesis, host only).

After any sequence of commands, good or bad: the state passes its check,
a refused command changed nothing, the text form loads back to the same
state, and the summary is one the hub accepts.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules.errors import RulesError
from shared_rules.facets.game import ATTRS, Game
from shared_rules.facets.words import summary_problem

attr = st.sampled_from(ATTRS + ("Finesse", "x"))
small = st.integers(min_value=-3, max_value=25)
mode = st.sampled_from(("normal", "pressure", "calm", "bad"))
weapon = st.sampled_from(("light", "medium", "heavy"))
track = st.sampled_from(("health", "cool"))

COMMAND = st.one_of(
    st.tuples(st.just("roll"), st.fixed_dictionaries({"attr": attr, "tn": small, "mode": mode,
                                                      "effort": st.integers(0, 2)})),
    st.tuples(st.just("task_start"), st.fixed_dictionaries({"attr": attr, "tn": small, "need": st.integers(0, 4),
                                                            "attempts": st.integers(0, 5), "secs": st.integers(0, 60)})),
    st.tuples(st.just("task_roll"), st.fixed_dictionaries({"mode": mode})),
    st.tuples(st.just("task_end"), st.just({})),
    st.tuples(st.just("attack"), st.fixed_dictionaries({"attr": attr, "tn": small, "weapon": weapon,
                                                        "double": st.booleans(),
                                                        "kind": st.sampled_from(("physical", "social"))})),
    st.tuples(st.just("defend"), st.fixed_dictionaries({"attr": attr, "weapon": weapon})),
    st.tuples(st.just("damage"), st.fixed_dictionaries({"track": track, "amount": small, "armor": st.integers(0, 3)})),
    st.tuples(st.just("taken_out"), st.fixed_dictionaries({"how": st.sampled_from(("consequence", "deal", "resist")),
                                                           "attr": attr, "deadly": st.booleans()})),
    st.tuples(st.just("recover"), st.fixed_dictionaries({"track": track, "professional": st.booleans()})),
    st.tuples(st.just("regain"), st.fixed_dictionaries({"track": track, "hours": st.integers(0, 5),
                                                        "days": st.integers(0, 3), "resting": st.booleans()})),
    st.tuples(st.just("heal"), st.fixed_dictionaries({"track": track, "amount": small})),
    st.tuples(st.just("effort"), st.fixed_dictionaries({"delta": small})),
    st.tuples(st.just("token"), st.fixed_dictionaries({"delta": small})),
    st.tuples(st.just("set_attr"), st.fixed_dictionaries({"attr": attr, "die": st.sampled_from((4, 6, 7, 8, 12, 20))})),
    st.tuples(st.just("set_max"), st.fixed_dictionaries({"track": track, "value": small})),
    st.tuples(st.just("withdraw"), st.fixed_dictionaries({"prevented": st.booleans()})),
    st.tuples(st.just("new_scene"), st.just({})),
    st.tuples(st.just("initiative"), st.fixed_dictionaries({"kind": st.sampled_from(("physical", "social"))})),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64), commands=st.lists(COMMAND, max_size=40))
def test_any_sequence_keeps_the_state_sound(seed, commands):
    g = Game.new(seed=seed)
    applied = 0
    for op, args in commands:
        before = g.dump()
        try:
            g.do(op, dict(args))
        except RulesError:
            assert g.dump() == before, "refused %s %r changed the state" % (op, args)
            continue
        applied += 1
        g.s.check()
        assert g.s.count == applied
        text = g.dump()
        assert Game.load(text).dump() == text
        assert summary_problem(g.summary()) == ""

"""Property-based checks of the rules engine (design §4) with hypothesis.

Hypothesis picks the commands (and shrinks a failure to the shortest
sequence); the engine must keep every card in exactly one place, leave the
state untouched when it refuses a command, and save/load exactly.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules.deck import cards as C
from shared_rules.errors import RulesError
from shared_rules.deck.game import Game
from shared_rules.deck.walk import random_command
from shared_rules.prng import Rng

ids = st.sampled_from(C.ALL_IDS + ("x", ""))
small = st.integers(min_value=-3, max_value=12)
value = st.one_of(small, ids, st.booleans(), st.none(), st.lists(ids, max_size=4))

# Free-form commands: any op, any argument names and values.
free_command = st.tuples(
    st.sampled_from(Game.COMMANDS + ("bogus",)),
    st.dictionaries(st.sampled_from(("suit", "net", "attr", "card", "power", "wounds", "harm", "absorb",
                                     "kind", "keep", "cards", "tokens", "facedown", "crit", "move",
                                     "levels", "resolved", "team", "name", "level", "n", "points",
                                     "abandon", "hearth", "edition_key", "campaign", "colour")),
                    value, max_size=3),
)


def _apply(g, op, args):
    before = g.dump()
    try:
        g.do(op, args)
    except RulesError:
        assert g.dump() == before, "refused %s %r changed the state" % (op, args)
    err = g.s.conservation_error()
    assert err is None, "after %s %r: %s" % (op, args, err)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2 ** 64), edition=st.sampled_from(("md", "v093", "dw-lucky", "dw-heroic")),
       campaign=st.sampled_from(("oneshot", "9h", "30h")), commands=st.lists(free_command, max_size=40))
def test_any_command_sequence_conserves_cards(seed, edition, campaign, commands):
    g = Game.new(seed=seed, edition_key=edition, campaign=campaign)
    for op, args in commands:
        _apply(g, op, args)
    text = g.dump()
    assert Game.load(text).dump() == text


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2 ** 32), walk_seed=st.integers(min_value=0, max_value=2 ** 32),
       steps=st.integers(min_value=1, max_value=150))
def test_plausible_sessions_conserve_cards_and_replay_identically(seed, walk_seed, steps):
    """Commands a real session sends (the walk's generator); replaying the
    same commands on a restored copy gives the same state."""
    g = Game.new(seed=seed, campaign="30h")
    r = Rng(walk_seed)
    log = []
    for _ in range(steps):
        op, args = random_command(g, r)
        log.append((op, args))
        _apply(g, op, args)
    h = Game.new(seed=seed, campaign="30h")
    for op, args in log:
        try:
            h.do(op, args)
        except RulesError:
            pass
    assert h.dump() == g.dump()

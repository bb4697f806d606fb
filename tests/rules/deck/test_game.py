"""Game.do's rollback: what it keeps aside before a command."""

from shared_rules.deck.game import MUTABLE_FIELDS
from tests.rules.support import do, refused, stacked


def test_rollback_copies_every_field_commands_change_in_place():
    """Game.do copies only MUTABLE_FIELDS deeply (the others are replaced,
    never changed): a list or dict field missing from it would survive a
    refused command half-changed."""
    g = stacked(["11", "2", "3"], exhaustion=["^12", "4"], xp=3)
    do(g, "set_move", name="Defy Danger", level="expert")
    do(g, "flip", suit="dragon", net=1, move="Defy Danger")
    containers = [k for k, v in g.s.__dict__.items() if isinstance(v, (list, dict))]
    assert "flip" in containers and "exhaustion" in containers
    for k in containers:
        assert k in MUTABLE_FIELDS, k


def _containers(v, out):
    if isinstance(v, (list, dict)):
        out.append(v)
        for x in (v.values() if isinstance(v, dict) else v):
            _containers(x, out)
    return out


def test_the_rollback_shares_no_list_or_dict_with_the_state():
    """FLAT_FIELDS are copied one level deep: in states of every kind (a
    random walk of commands, gear, a pursuit) they hold no list or dict, and
    nothing the snapshot keeps is a list or dict the state still holds, so
    a refused command cannot leave it changed."""
    from shared_rules.errors import RulesError
    from shared_rules.deck.game import FLAT_FIELDS, Game, _snapshot
    from shared_rules.prng import Rng
    from shared_rules.deck.walk import random_command

    g = Game.new(seed=5, campaign="9h")
    do(g, "gear_add", name="Sword", kind="weapon")
    do(g, "pursuit_start")
    do(g, "pursuit_round", won=True)
    r = Rng(9)
    kinds = set()
    for _ in range(300):
        op, args = random_command(g, r)
        try:
            g.do(op, args)
        except RulesError:
            pass
        fields, _ = _snapshot(g.s)
        for k in FLAT_FIELDS:
            v = getattr(g.s, k)
            assert len(_containers(v, [])) == 1, (k, v)
        live = [id(c) for k in MUTABLE_FIELDS for c in _containers(getattr(g.s, k), [])]
        kept = [id(c) for k in MUTABLE_FIELDS for c in _containers(fields[k], [])]
        assert not set(live) & set(kept), op
        kinds.update(k for k in MUTABLE_FIELDS if getattr(g.s, k))
    assert {"exhaustion", "flip", "gear", "pursuit", "discard", "moves"} <= kinds, kinds


def test_a_refused_command_mid_flip_leaves_the_state_as_it_was():
    g = stacked(["11", "2", "3"], exhaustion=["^12", "4"], xp=3)
    do(g, "flip", suit="dragon", net=1)
    refused(g, "flip", suit="crown", net=0)
    refused(g, "choose", card="19")


def test_every_command_has_its_code():
    """Each op in Game.COMMANDS (what a device accepts from the host) is a
    method of Game or, for the commands loaded on first use, a function of
    the module Game.do loads for it, taking the Game first."""
    from shared_rules.deck import campaign, flashback, gear, minigames, table
    from shared_rules.errors import RulesError
    from shared_rules.deck.game import Game
    from tests.rules.support import raises

    modules = {"gear": gear, "campaign": campaign, "minigames": minigames, "flashback": flashback, "table": table}
    lazy = []
    for name, ops in Game.LAZY_MODULES:
        lazy.extend(ops)
        for op in ops:
            assert Game.command_function(op) is getattr(modules[name], op), op
    assert sorted(lazy) == sorted(Game.LAZY_COMMANDS)
    for op in Game.COMMANDS:
        fn = Game.command_function(op)
        assert callable(fn), op
        if op not in Game.LAZY_COMMANDS:
            assert fn is getattr(Game, op), op
    assert len(set(Game.COMMANDS)) == len(Game.COMMANDS)
    assert raises(RulesError, Game.command_function, "bogus").code == "bad_op"


def test_each_rules_mixin_lists_its_public_methods():
    """Game loads combat, recovery and advancement on first use of a method
    named in MIXINS: a public method missing from its list would be found
    only once another one had loaded the mixin."""
    from shared_rules.deck.game import MIXINS, Game

    for module, cls, commands, others in MIXINS:
        methods = commands + others
        mixin = getattr(__import__("shared_rules.deck." + module, None, None, [cls]), cls)
        public = sorted(k for k in mixin.__dict__ if not k.startswith("_"))
        assert public == sorted(methods), (module, public)
        g = stacked([])
        for name in methods:
            assert callable(getattr(g, name)), name
            assert callable(getattr(Game, name)), name  # loaded into the class, for every game


def test_an_unknown_attribute_of_a_game_is_still_an_attribute_error():
    g = stacked([])
    try:
        g.no_such_rule
    except AttributeError:
        return
    raise AssertionError("a game answered an attribute no mixin has")

"""Helpers for the portable rules suite (runs under pytest and MicroPython).

Tests in tests/rules/ are plain ``test_*`` functions using ``assert``: no
pytest imports, fixtures or parametrize, so tests/mp_runner.py can run the
same files under the MicroPython unix port.
"""

import json
import os


def raises(exc_type, fn, *args, **kwargs):
    """Call fn and return the exception of exc_type it raised; fail otherwise."""
    try:
        fn(*args, **kwargs)
    except exc_type as e:
        return e
    raise AssertionError("%s did not raise %s" % (getattr(fn, "__name__", fn), exc_type.__name__))


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def reference_path():
    """../shared/reference/deck_reference.json beside the checkout, or None."""
    for base in (os.getenv("DECKAHEDRON_SHARED") or "", "../shared", "../../shared"):
        if base:
            p = base + "/reference/deck_reference.json"
            if _exists(p):
                return p
    return None


def reference():
    p = reference_path()
    if p is None:
        return None
    with open(p) as f:
        return json.load(f)


def stacked(top=(), discard=(), exhaustion=(), edition="md", campaign="oneshot", supply_set="print", rest_to="draw", **tokens):
    """A game with a known deck: ``top`` are the top cards of the draw pile in
    order; ``exhaustion`` ids (prefix "^" = face up); every other deck card
    goes under them in the draw pile (or into the discard pile when
    rest_to="discard"); supply cards not placed stay in the supply. Keyword
    tokens set state fields directly (xp=3, harm=1, wound_tokens=2 ...)."""
    from shared_rules.deck.cards import DECK_IDS, SUPPLY_SETS
    from shared_rules.deck.game import Game

    g = Game.new(seed=1, edition_key=edition, campaign=campaign, supply_set=supply_set)
    s = g.s
    exh = []
    for word in exhaustion:
        up = word.startswith("^")
        exh.append([word[1:] if up else word, up])
    placed = list(top) + list(discard) + [e[0] for e in exh]
    rest = [cid for cid in DECK_IDS if cid not in placed]
    s.draw = list(top) + (rest if rest_to == "draw" else [])
    s.discard = list(discard) + (rest if rest_to == "discard" else [])
    s.exhaustion = exh
    b, w = SUPPLY_SETS[supply_set]
    s.supply = [cid for cid in list(b) + list(w) if cid not in placed]
    for k in tokens:
        setattr(s, k, tokens[k])
    s.check()
    return g


def do(g, op, **args):
    return g.do(op, args)


def refused(g, op, code=None, **args):
    """Assert the command is refused with RulesError (and ``code``) and that
    the state is exactly unchanged; returns the error."""
    from shared_rules.errors import RulesError

    before = g.dump()
    e = raises(RulesError, g.do, op, args)
    assert g.dump() == before, "refused %s changed the state" % op
    if code is not None:
        assert e.code == code, "expected %s, got %s: %s" % (code, e.code, e)
    return e

"""Property tests for the corner-matching solvers (CPython, hypothesis).

Sources: MD *Corner-matching Mini-games*, *Pick Locks*, *Fundamental Magic*;
the geometry is the one in the shared_rules.deck.minigames docstring. The brute
force searches here are written independently with itertools and physical
card rotations. They do not reuse the module's search.
"""

from itertools import combinations, permutations, product

from hypothesis import given, settings
from hypothesis import strategies as st

from shared_rules.deck import minigames as mg
from shared_rules.deck.cards import ALL_IDS, CARDS, DECK_IDS
from tests.rules.deck.test_minigames import check_magic_box, check_pick_locks


def ok(a, b):
    """MD *Corner-matching Mini-games*: goat never, dragon wild."""
    return a != "goat" and b != "goat" and (a == b or a == "dragon" or b == "dragon")


def physical(cid, turns):
    """Corners at physical NW, NE, SE, SW after ``turns`` clockwise quarter
    turns: printed corner j ends up at physical (j + turns) % 4."""
    c = CARDS[cid].corners
    return tuple(c[(p - turns) % 4] for p in range(4))


NW, NE, SE, SW = range(4)


def brute_pick_locks(ids):
    """Every order, every turn of every card, on a NW-SE diagonal: the left
    card's physical SE meets the middle's NW, the middle's SE meets the
    right card's NW. (A NE-SW diagonal is the same line turned a quarter.)"""
    for left, mid, right in permutations(ids):
        for tl, tm, tr in product(range(4), repeat=3):
            L, M, R = physical(left, tl), physical(mid, tm), physical(right, tr)
            if ok(L[SE], M[NW]) and ok(M[SE], R[NW]):
                return True
    return False


def brute_magic(ids):
    """Every ring order and every turn of every card, on the diamond of the
    docstring sketch: top.SE-right.NW, right.SW-bottom.NE, bottom.NW-left.SE,
    left.NE-top.SW."""
    for top, right, bottom, left in permutations(ids):
        for ts in product(range(4), repeat=4):
            T, R, B, L = (physical(cid, t) for cid, t in zip((top, right, bottom, left), ts))
            if ok(T[SE], R[NW]) and ok(R[SW], B[NE]) and ok(B[NW], L[SE]) and ok(L[NE], T[SW]):
                return True
    return False


def ids_strategy(n):
    return st.lists(st.sampled_from(ALL_IDS), min_size=n, max_size=n, unique=True)


@settings(max_examples=300, deadline=None)
@given(ids_strategy(3))
def test_pick_locks_matches_brute_force(ids):
    """MD *Pick Locks*: the solver finds a line iff brute force does, and its
    line passes the independent checker."""
    arr = mg.solve("pick_locks", ids)
    assert (arr is not None) == brute_pick_locks(ids)
    if arr is not None:
        check_pick_locks(ids, arr)
        assert mg.solve_pick_locks(ids) == arr  # deterministic


@settings(max_examples=150, deadline=None)
@given(ids_strategy(4))
def test_magic_box_matches_brute_force(ids):
    """MD *Fundamental Magic* (ring-of-4 reading): the solver closes a box iff
    brute force does, and its ring passes the independent checker."""
    arr = mg.solve("magic", ids)
    assert (arr is not None) == brute_magic(ids)
    if arr is not None:
        check_magic_box(ids, arr)


@settings(max_examples=100, deadline=None)
@given(ids_strategy(4), st.randoms(use_true_random=False))
def test_magic_solvability_ignores_input_order(ids, rnd):
    """MD *Fundamental Magic*: the player arranges the cards, so the order
    they are dealt in does not change whether a box exists."""
    shuffled = list(ids)
    rnd.shuffle(shuffled)
    assert (mg.solve_magic_box(ids) is None) == (mg.solve_magic_box(shuffled) is None)


def test_pick_locks_fresh_deck_figure_ordered():
    """Reference section 4: 83.42% over all 20*19*18 ordered first-three draws,
    by the independent brute force."""
    cache = {}
    hits = 0
    for draw in permutations(DECK_IDS, 3):
        key = tuple(sorted(draw))
        if key not in cache:
            cache[key] = brute_pick_locks(list(key))
        hits += cache[key]
    assert round(100 * hits / 6840, 2) == 83.42


def test_magic_fresh_deck_figure():
    """This project's figure for Fundamental Magic, ring-of-4 reading: the first
    four cards of a fresh deck close a box in 455 of the C(20,4) = 4845 sets
    (9.39%). This is a regression pin for our reading, not a published number."""
    hits = sum(1 for q in combinations(DECK_IDS, 4) if mg.solve_magic_box(list(q)) is not None)
    assert hits == 455
    assert round(100 * hits / 4845, 2) == 9.39


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from([None, "int", "str", "dex"])), max_size=6))
def test_pursuit_replay(moves):
    """MD *The Pursuit Mini-game*: whatever sequence of commands is tried,
    the accepted ones keep the rules and round-trip through to_list()."""
    p = mg.Pursuit()
    for won, helper in moves:
        before = p.to_list()
        try:
            p.record_round(won, helper)
        except mg.RulesError:
            assert p.to_list() == before
    rounds = p.rounds
    assert p.rabbit_wins <= 3 and p.pursuer_wins <= 3
    assert len(rounds) <= 5
    helpers = [h for _, h in rounds if h is not None]
    assert len(helpers) == len(set(helpers))
    if rounds:
        assert rounds[0][1] is None
    if len(rounds) == 5:
        assert rounds[4][1] is None
    for i in range(len(rounds) - 1):  # nothing recorded after a winner
        assert max(sum(1 for w, _ in rounds[: i + 1] if w), sum(1 for w, _ in rounds[: i + 1] if not w)) < 3
    assert mg.Pursuit.from_list(p.to_list()).to_list() == p.to_list()

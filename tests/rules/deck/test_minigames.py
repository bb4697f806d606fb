"""Corner-matching mini-games and the Pursuit (portable: CPython + MicroPython).

Sources: MD *Corner-matching Mini-games*, *Pick Locks*, *Fundamental Magic*,
*The Pursuit Mini-game*; deck reference section 4 (zodiac corners, Spot-It,
83.42%) and section 7 rows 20-21.
"""

from shared_rules.deck import minigames as mg
from shared_rules.deck.cards import CARDS, DECK_IDS
from shared_rules.errors import RulesError
from tests.rules.support import raises

CORNERS = ["nw", "ne", "se", "sw"]


# --------------------------------------------------------------------------
# Independent checkers (do not reuse the module's helpers)


def _ok(a, b):
    """Matching written independently: goat kills, dragon is wild."""
    if "goat" in (a, b):
        return False
    return a == b or "dragon" in (a, b)


def _sym(cid, corner):
    return CARDS[cid].corners[CORNERS.index(corner)]


def _same_ids(got, ids):
    return sorted(got) == sorted(ids) and len(set(got)) == len(got)


def check_pick_locks(ids, arr):
    """A returned Pick Locks arrangement really is a legal line."""
    assert _same_ids(arr["order"], ids), arr
    left, mid, right = arr["order"]
    (lc, m1), (m2, rc) = arr["touch"]
    for c in (lc, m1, m2, rc):
        assert c in CORNERS, arr
    # the middle card touches at opposite corners
    assert (CORNERS.index(m1) - CORNERS.index(m2)) % 4 == 2, arr
    a, b = _sym(left, lc), _sym(mid, m1)
    c, d = _sym(mid, m2), _sym(right, rc)
    assert _ok(a, b) and _ok(c, d), arr
    want = [b if a == "dragon" else a, d if c == "dragon" else c]
    assert arr["symbols"] == want, arr


# Ring position i (top, right, bottom, left): the physical corner that
# touches the next card clockwise, and the one that touches the previous
# card, read off the sketch in the module docstring (NW=0 NE=1 SE=2 SW=3).
_PHYS_NEXT = [2, 3, 0, 1]  # top: SE, right: SW, bottom: NW, left: NE
_PHYS_PREV = [3, 0, 1, 2]  # top: SW, right: NW, bottom: NE, left: SE


def check_magic_box(ids, arr):
    """A returned Fundamental Magic arrangement is a legal closed ring."""
    ring = arr["ring"]
    assert _same_ids(ring, ids), arr
    assert len(arr["touch"]) == 4 and len(arr["symbols"]) == 4, arr
    for i in range(4):
        nxt = arr["touch"][i][0]  # ring[i]'s corner toward ring[i+1]
        prv = arr["touch"][(i + 3) % 4][1]  # ring[i]'s corner toward ring[i-1]
        assert nxt in CORNERS and prv in CORNERS, arr
        # A quarter-turned card moves printed corner j to physical (j + t) % 4.
        t = arr["turns"][i]
        assert (CORNERS.index(nxt) + t) % 4 == _PHYS_NEXT[i], (i, arr)
        assert (CORNERS.index(prv) + t) % 4 == _PHYS_PREV[i], (i, arr)
        assert arr["inward"][i] == "nesw"[CORNERS.index(nxt)], arr
        a = _sym(ring[i], nxt)
        b = _sym(ring[(i + 1) % 4], arr["touch"][i][1])
        assert _ok(a, b), (i, arr)
        assert arr["symbols"][i] == (b if a == "dragon" else a), arr


def _pick_solvable(ids):
    """Brute force, by a different route: some card is the middle and some
    pair of its opposite corners matches a corner of each other card."""
    for m in range(3):
        mid = CARDS[ids[m]].corners
        o = [CARDS[ids[i]].corners for i in range(3) if i != m]
        for x in range(4):
            y = (x + 2) % 4
            if [1 for s in o[0] if _ok(s, mid[x])] and [1 for s in o[1] if _ok(s, mid[y])]:
                return True
    return False


# --------------------------------------------------------------------------
# Matching


def test_matching_rules():
    """MD *Corner-matching Mini-games*: equal symbols match; dragon is wild
    except against goat; goat matches nothing, not even goat."""
    assert mg.corners_match("cow", "cow")
    assert not mg.corners_match("cow", "horse")
    assert mg.corners_match("dragon", "cow") and mg.corners_match("pig", "dragon")
    assert mg.corners_match("dragon", "dragon")
    assert not mg.corners_match("goat", "goat")
    assert not mg.corners_match("goat", "dragon") and not mg.corners_match("dragon", "goat")
    assert not mg.corners_match("goat", "rat")
    for s in mg.SYMBOLS:
        assert mg.corners_match(s, "dragon") == (s != "goat")
        assert not mg.corners_match(s, "goat")
        for t in mg.SYMBOLS:
            assert mg.corners_match(s, t) == _ok(s, t)
            assert mg.corners_match(s, t) == mg.corners_match(t, s)
    assert raises(RulesError, mg.corners_match, "unicorn", "cow").code == "bad_symbol"


def test_supply_corners():
    """MD *Corner-matching Mini-games*: blessings show dragon, wounds goat."""
    for cid in ("pb1", "pb5", "b1", "b6"):
        assert CARDS[cid].corners == ("dragon",) * 4
    for cid in ("pw1", "pw2", "w1"):
        assert CARDS[cid].corners == ("goat",) * 4


def test_spot_it_property():
    """Reference section 4 (Spot-It): any two Deckahedron cards share exactly
    one symbol (160 pairs) or all four (30 pairs); every symbol is on 8 cards."""
    one = four = 0
    for i in range(20):
        for j in range(i + 1, 20):
            a, b = CARDS[DECK_IDS[i]].corners, CARDS[DECK_IDS[j]].corners
            shared = len([s for s in a if s in b])
            assert len(set(a)) == 4
            if shared == 1:
                one += 1
            elif shared == 4:
                four += 1
            else:
                assert False, (DECK_IDS[i], DECK_IDS[j], shared)
    assert (one, four) == (160, 30)
    counts = {}
    for cid in DECK_IDS:
        for s in CARDS[cid].corners:
            counts[s] = counts.get(s, 0) + 1
    assert len(counts) == 10
    for s in counts:
        assert counts[s] == 8, s


# --------------------------------------------------------------------------
# Pick Locks


def test_pick_locks_solvable_line():
    """MD *Pick Locks*: 1 (cow horse rabbit rat) in the middle, NE horse to
    card 2 and SW rat to card 3."""
    ids = ["1", "2", "3"]
    arr = mg.solve_pick_locks([CARDS[i] for i in ids])
    assert arr is not None
    check_pick_locks(ids, arr)
    assert arr == {"order": ["2", "1", "3"], "touch": [["nw", "ne"], ["sw", "nw"]], "symbols": ["horse", "rat"]}
    # ids work as well as Card objects, through the dispatcher too
    assert mg.solve("pick_locks", ids) == arr


def test_pick_locks_wound_in_middle_unsolvable():
    """MD *Corner-matching Mini-games*: goat matches nothing, so a wound card
    spoils a line that the same-group cards 1 and 6 would otherwise make."""
    assert mg.solve_pick_locks(["1", "6", "11"]) is not None
    assert mg.solve_pick_locks(["1", "pw1", "6"]) is None
    assert mg.solve_pick_locks(["pw2", "1", "6"]) is None
    assert mg.solve_pick_locks(["1", "6", "w1"]) is None


def test_pick_locks_unsolvable_deck_cards():
    """MD *Pick Locks*: 1, 2 and 5 share corners pairwise but never at the
    opposite corners of one card, so they make no line."""
    assert not _pick_solvable(["1", "2", "5"])
    assert mg.solve_pick_locks(["1", "2", "5"]) is None
    assert mg.solve("pick_locks", ["5", "2", "1"]) is None


def test_pick_locks_blessing_dragon_saves_it():
    """MD *Corner-matching Mini-games*: dragon is wild. 1-2-5 fails, but a
    blessing in place of 5 makes a line."""
    for bless in ("pb1", "b3"):
        ids = ["1", "2", bless]
        arr = mg.solve_pick_locks(ids)
        assert arr is not None
        check_pick_locks(ids, arr)
        assert bless in (arr["order"][0], arr["order"][2]) or arr["order"][1] == bless


def test_pick_locks_blessing_middle_always_works():
    """MD *Corner-matching Mini-games*: a blessing in the middle matches any
    two deck cards."""
    for other in ("5", "12", "20"):
        ids = ["pb2", "1", other]
        arr = mg.solve_pick_locks(ids)
        check_pick_locks(ids, arr)


def test_pick_locks_fresh_deck_figure():
    """Reference section 4 bonus figure: the first three cards of a fresh deck
    can make a Pick Locks line 83.42% of the time (unordered triples give the
    same fraction as ordered draws, since solvability ignores the order)."""
    hits = total = 0
    for i in range(20):
        for j in range(i + 1, 20):
            for k in range(j + 1, 20):
                ids = [DECK_IDS[i], DECK_IDS[j], DECK_IDS[k]]
                arr = mg.solve_pick_locks(ids)
                assert (arr is not None) == _pick_solvable(ids), ids
                total += 1
                if arr is not None:
                    hits += 1
                    check_pick_locks(ids, arr)
    assert (hits, total) == (951, 1140)
    # ordered draws: each triple comes in 6 orders, all solvable or none
    # (see test_pick_locks_order_does_not_change_solvability)
    assert (hits * 6, total * 6) == (5706, 20 * 19 * 18)
    assert round(100 * hits / total, 2) == 83.42


def test_pick_locks_order_does_not_change_solvability():
    """MD *Pick Locks*: the player arranges the cards, so the draw order of
    a triple does not matter."""
    for ids in (["1", "2", "3"], ["1", "2", "5"], ["4", "9", "pb1"], ["3", "pw1", "8"]):
        got = mg.solve_pick_locks(ids) is not None
        for p in ([ids[1], ids[0], ids[2]], [ids[2], ids[1], ids[0]], [ids[1], ids[2], ids[0]]):
            arr = mg.solve_pick_locks(p)
            assert (arr is not None) == got
            if arr is not None:
                check_pick_locks(p, arr)


# --------------------------------------------------------------------------
# Fundamental Magic


def test_magic_box_same_group():
    """MD *Fundamental Magic* (this project's ring-of-4 reading): the four
    cards of one Spot-It group (1, 6, 11, 16) close a box."""
    ids = ["1", "6", "11", "16"]
    arr = mg.solve_magic_box(ids)
    assert arr is not None
    check_magic_box(ids, arr)
    assert arr["ring"][0] == "1"
    assert mg.solve("magic", [CARDS[i] for i in ids]) == arr


def test_magic_box_wound_unsolvable():
    """MD *Corner-matching Mini-games*: a wound card (goat) touches two
    neighbours in the ring and can match neither."""
    assert mg.solve_magic_box(["1", "6", "11", "pw1"]) is None
    assert mg.solve_magic_box(["pb1", "pb2", "pb3", "w1"]) is None


def test_magic_box_blessing():
    """MD *Corner-matching Mini-games*: 1-2-3-6 cannot close a box, but a
    blessing in place of 6 can; four blessings always do."""
    assert mg.solve_magic_box(["1", "2", "3", "6"]) is None
    ids = ["1", "2", "3", "pb1"]
    arr = mg.solve_magic_box(ids)
    check_magic_box(ids, arr)
    ids = ["pb1", "pb2", "pb3", "pb5"]
    arr = mg.solve_magic_box(ids)
    check_magic_box(ids, arr)
    assert arr["symbols"] == ["dragon"] * 4
    # one blessing is not always enough: 1, 5 and 9 cannot make the chain
    assert mg.solve_magic_box(["1", "5", "9", "pb1"]) is None


def test_magic_box_geometry_fixed():
    """Module docstring geometry: the corner toward the previous card is the
    one after (clockwise) the corner toward the next card, never opposite."""
    for ids in (["1", "2", "3", "4"], ["1", "6", "11", "16"], ["2", "7", "12", "pb4"]):
        arr = mg.solve_magic_box(ids)
        assert arr is not None
        check_magic_box(ids, arr)
        for i in range(4):
            nxt = CORNERS.index(arr["touch"][i][0])
            prv = CORNERS.index(arr["touch"][(i + 3) % 4][1])
            assert prv == (nxt + 1) % 4


# --------------------------------------------------------------------------
# Dispatch errors


def test_solve_errors():
    """MD *Pick Locks* (3 cards) and *Fundamental Magic* (4 cards)."""
    assert raises(RulesError, mg.solve, "tic_tac_toe", ["1", "2", "3"]).code == "bad_minigame"
    assert raises(RulesError, mg.solve, "pick_locks", ["1", "2"]).code == "bad_count"
    assert raises(RulesError, mg.solve, "pick_locks", ["1", "2", "3", "4"]).code == "bad_count"
    assert raises(RulesError, mg.solve, "magic", ["1", "2", "3"]).code == "bad_count"
    assert raises(RulesError, mg.solve, "magic", "1234").code == "bad_count"
    assert raises(RulesError, mg.solve, "pick_locks", ["1", "2", "99"]).code == "bad_card"
    assert raises(RulesError, mg.solve, "pick_locks", ["1", "2", 3]).code == "bad_card"
    assert raises(RulesError, mg.solve, "magic", ["1", "2", "3", "1"]).code == "duplicate_card"
    e = raises(RulesError, mg.solve, "magic", ["1"])
    assert "4" in str(e)


# --------------------------------------------------------------------------
# Pursuit


def test_pursuit_table_every_row():
    """MD *The Pursuit Mini-game* table: <0 Anvils 2x disadvantage, 0 Anvils
    with disadvantage, 1 Anvils, 2 Blades, 3 Crowns, 4 Dragons, 5 Dragons
    with advantage."""
    rows = (
        ((1, 1, 9), -7, "anvil", -2),
        ((1, 1, 3), -1, "anvil", -2),
        ((1, 1, 2), 0, "anvil", -1),
        ((1, 1, 1), 1, "anvil", 0),
        ((1, 1, 0), 2, "blade", 0),
        ((2, 1, 0), 3, "crown", 0),
        ((4, 2, 2), 4, "dragon", 0),
        ((3, 2, 0), 5, "dragon", 1),
    )
    for args, v, suit, net in rows:
        got = mg.pursuit_flip(*args)
        assert got == {"value": v, "suit": suit, "net": net, "beyond_table": False}, (args, got)


def test_pursuit_beyond_table():
    """Reference section 7 row 20 / section 8 item 11: the table stops at 5;
    6..8 flip as 5 (Dragons with advantage) and say so."""
    for args, v in (((3, 3, 0), 6), ((4, 4, 1), 7), ((4, 4, 0), 8)):
        got = mg.pursuit_flip(*args)
        assert got == {"value": v, "suit": "dragon", "net": 1, "beyond_table": True}, got


def test_pursuit_flip_bad_args():
    """MD *The Pursuit Mini-game*: Str/Dex are suit ranks 1..4 and
    encumbrance counts cards (never negative)."""
    for args in ((0, 1, 0), (5, 1, 0), (1, 0, 0), (1, 5, 0), (1, 1, -1),
                 ("2", 1, 0), (1, 2.0, 0), (True, 1, 0), (1, 1, None), (1, 1, False)):
        assert raises(RulesError, mg.pursuit_flip, *args).code == "bad_pursuit", args


def test_pursuit_rabbit_wins_best_of_five():
    """MD *The Pursuit Mini-game*: best 3 of 5; it ends once a side has 3."""
    p = mg.Pursuit()
    assert p.winner is None and p.next_round == 1
    assert p.record_round(True) is None
    assert p.record_round(False, "int") is None
    assert p.record_round(True, "dex") is None
    assert p.record_round(True) == "rabbit"
    assert p.winner == "rabbit" and p.next_round is None
    e = raises(RulesError, p.record_round, False)
    assert e.code == "pursuit_over"
    assert (p.rabbit_wins, p.pursuer_wins) == (3, 1)


def test_pursuit_pursuers_win_and_two_in_a_row():
    """MD *The Pursuit Mini-game*: if the pursuers win 2 flips in a row they
    may make a move."""
    p = mg.Pursuit()
    p.record_round(False)
    assert not p.pursuers_two_in_a_row
    p.record_round(False, "str")
    assert p.pursuers_two_in_a_row
    p.record_round(True, "int")
    assert not p.pursuers_two_in_a_row
    assert p.winner is None
    p.record_round(False)
    assert not p.pursuers_two_in_a_row
    assert p.winner == "pursuers"


def test_pursuit_helper_rules():
    """MD *The Pursuit Mini-game*: round 1 and the last round are the rabbit
    alone; rounds in between may be helped by Int, Str or Dex, each once."""
    p = mg.Pursuit()
    assert p.helpers_available() == []
    assert raises(RulesError, p.record_round, True, "int").code == "no_help"
    assert p.rounds == []  # unchanged after a refused command
    p.record_round(True)
    assert p.helpers_available() == ["int", "str", "dex"]
    assert raises(RulesError, p.record_round, True, "cha").code == "bad_helper"
    assert raises(RulesError, p.record_round, 1).code == "bad_pursuit"
    p.record_round(False, "str")
    assert p.helpers_available() == ["int", "dex"]
    assert raises(RulesError, p.record_round, True, "str").code == "helper_used"
    p.record_round(False, "dex")
    p.record_round(True)  # round 4, no helper needed
    assert p.next_round == 5
    assert p.helpers_available() == []
    assert raises(RulesError, p.record_round, True, "int").code == "no_help"
    assert p.record_round(True) == "rabbit"
    assert p.helpers_used() == ["str", "dex"]


def test_pursuit_save_restore():
    """Saved game state: a pursuit round-trips through plain lists, and a
    saved list that breaks the rules is refused."""
    p = mg.Pursuit()
    p.record_round(False)
    p.record_round(True, "int")
    p.record_round(False, "dex")
    data = p.to_list()
    assert data == [[0, ""], [1, "int"], [0, "dex"]]
    q = mg.Pursuit.from_list(data)
    assert q.to_list() == data
    assert (q.rabbit_wins, q.pursuer_wins, q.next_round) == (1, 2, 4)
    assert q.helpers_available() == ["str"]
    assert mg.Pursuit.from_list([]).to_list() == []
    for bad in ([[1, "int"]], [[0, ""], [0, "int"], [0, "int"]], [[2, ""]], [[True, ""]],
                [[1]], [[1, None]], "0,1", [[1, ""]] * 4, [[1, ""], [1, ""], [0, ""], [0, ""], [0, "int"]]):
        assert isinstance(raises(RulesError, mg.Pursuit.from_list, bad), RulesError), bad


def test_pursuit_as_commands_best_three_of_five():
    """MD *The Pursuit Mini-game*: "Best 3 of 5 rounds"; round 1 and the last
    are the rabbit's alone; each of Int, Str, Dex helps at most once; the
    rabbit's flip comes from Str + Dex - encumbrance. The record survives a
    save."""
    from shared_rules.deck.game import Game
    from tests.rules.support import do, refused, stacked

    g = stacked()
    refused(g, "pursuit_round", "no_pursuit", won=True)
    v = do(g, "pursuit_start")
    assert v["next_round"] == 1 and v["helpers"] == [] and v["flip"] == g.pursuit()
    refused(g, "pursuit_start", "pursuit_open")
    refused(g, "pursuit_round", "no_help", won=True, helper="int")
    do(g, "pursuit_round", won=False)
    v = do(g, "pursuit_round", won=False, helper="str")
    assert v["pursuers_move"] and v["helpers"] == ["int", "dex"]
    refused(g, "pursuit_round", "helper_used", won=True, helper="str")
    h = Game.load(g.dump())
    assert h.s.pursuit == [[0, ""], [0, "str"]]
    do(g, "pursuit_round", won=True, helper="int")
    v = do(g, "pursuit_round", won=False)
    assert v["winner"] == "pursuers" and v["next_round"] is None
    refused(g, "pursuit_round", "pursuit_over", won=True)
    do(g, "pursuit_end")
    assert g.s.pursuit is None and "pursuit" not in g.dump()

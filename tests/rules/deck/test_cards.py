"""Card data against ../shared/reference/deck_reference.json (reference §2-§5)."""

from shared_rules.deck import cards as C
from shared_rules.errors import RulesError
from tests.rules.support import raises, reference

LETTERS = {"a": "anvil", "b": "blade", "c": "crown", "d": "dragon"}


def _check(card, ref):
    for suit in C.SUITS:
        assert C.level(card, suit) == ref["results"][suit], (card.id, suit)
    assert card.xp == bool(ref.get("xp")) and card.stamina == bool(ref.get("stamina")), card.id
    assert card.d4 == (ref.get("d4") or 0) and card.d6 == (ref.get("d6") or 0), card.id
    z = ref["zodiac"]
    assert card.corners == (z["nw"], z["ne"], z["se"], z["sw"]), card.id


def test_deck_matches_the_reference_json():
    ref = reference()
    if ref is None:
        return  # the reference travels beside the repo, not inside it
    assert [s["key"] for s in ref["suits"]] == list(C.SUITS)
    assert len(ref["cards"]) == 20
    for rc in ref["cards"]:
        c = C.card(str(rc["id"]))
        _check(c, rc)
        assert c.crit == rc["crit"], c.id
        assert c.kind == "deck"


def test_supply_cards_match_the_reference_json():
    ref = reference()
    if ref is None:
        return
    for set_name in ("print", "web"):
        ids = ref["supply_ids"][set_name]
        assert tuple(ids["blessing"]) == C.SUPPLY_SETS[set_name][0]
        assert tuple(ids["wound"]) == C.SUPPLY_SETS[set_name][1]
        for kind, key in (("blessing", "blessing_cards"), ("wound", "wound_cards")):
            for cid, rc in zip(ids[kind], ref[key][set_name]):
                c = C.card(cid)
                _check(c, rc)
                assert c.kind == kind and c.crit is None


def test_per_suit_composition():
    """Reference §2: x = [8,4,6,2], [5,6,5,4], [4,5,6,5], [2,6,4,8]."""
    want = {"anvil": [8, 4, 6, 2], "blade": [5, 6, 5, 4], "crown": [4, 5, 6, 5], "dragon": [2, 6, 4, 8]}
    for suit in C.SUITS:
        counts = [0, 0, 0, 0]
        for cid in C.DECK_IDS:
            counts[C.level(C.CARDS[cid], suit) - 1] += 1
        assert counts == want[suit], suit


def test_marks():
    """Reference §1: XP on 8, 9, 15, 16, 17; Stamina on 11-20; crit success
    11 (✔✔✔ on every edge), crit failure 1."""
    assert [c for c in C.DECK_IDS if C.CARDS[c].xp] == ["8", "9", "15", "16", "17"]
    assert [c for c in C.DECK_IDS if C.CARDS[c].stamina] == [str(i) for i in range(11, 21)]
    assert C.CARDS["11"].crit == "success" and C.CARDS["11"].levels == (4, 4, 4, 4)
    assert C.CARDS["1"].crit == "fail" and C.CARDS["1"].levels == (1, 1, 1, 1)


def test_numerals():
    """Reference §3: triangle 1-4 four cards each, square 1-6 three each,
    no card blank in both."""
    d4 = [C.CARDS[c].d4 for c in C.DECK_IDS]
    d6 = [C.CARDS[c].d6 for c in C.DECK_IDS]
    for v in range(1, 5):
        assert d4.count(v) == 4
    for v in range(1, 7):
        assert d6.count(v) == 3
    assert d4.count(0) == 4 and d6.count(0) == 2
    assert all(a or b for a, b in zip(d4, d6))


def test_supply_sets():
    """Reference §5: PRINT has 4 copper + 2 gold blessings and two wounds
    with a ✅; WEB has six two-and-two blessings and one ✗✗✗✗ wound."""
    assert [C.CARDS[c].marker for c in C.SUPPLY_SETS["print"][0]].count("gold") == 2
    assert C.CARDS["pw1"].levels == (1, 1, 1, 2) and C.CARDS["pw2"].levels == (1, 1, 2, 1)
    assert C.CARDS["w1"].levels == (1, 1, 1, 1)
    for cid in C.SUPPLY_SETS["web"][0]:
        assert sorted(C.CARDS[cid].levels) == [3, 3, 4, 4]
    assert C.DEFAULT_SUPPLY_SET == "print"


def test_unknown_ids_and_suits():
    e = raises(RulesError, C.card, "21")
    assert e.code == "bad_card" and "1-20" in str(e)
    assert raises(RulesError, C.check_suit, "Anvil").code == "bad_suit"

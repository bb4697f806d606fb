"""Take a Breather, Rest, Seek Help (MD and DW), and the GM's revive."""

from tests.rules.support import do, refused, stacked


def test_breather_regains_up_to_four():
    """MD *Taking a Breather*: regain up to 4 Stamina by returning Exhaustion
    tokens or moving Exhaustion cards to the discard pile."""
    g = stacked(exhaustion=["^11", "^12", "2", "3"], exh_tokens=3)
    r = do(g, "breather", tokens=2, cards=["11", "12"])
    assert r["regained"] == 4 and g.s.exh_tokens == 1
    assert [e[0] for e in g.s.exhaustion] == ["2", "3"] and g.s.discard[-2:] == ["11", "12"]
    refused(stacked(exh_tokens=5), "breather", "bad_breather", tokens=5)
    refused(stacked(), "breather", "bad_breather")


def test_breather_takes_face_down_cards_blind():
    """MD *Taking a Breather*: the player "may not flip them face-up if they
    are face-down", so a face-down card is taken without choosing it."""
    g = stacked(exhaustion=["2", "3", "^11"])
    refused(g, "breather", "face_down", cards=["2"])
    r = do(g, "breather", facedown=2)
    assert sorted(r["cards"]) == ["2", "3"] and g.s.exhaustion == [["11", True]]
    refused(g, "breather", "bad_breather", facedown=1)


def test_dw_breather_may_choose_any_card():
    """DW *TAKING A BREATHER*: "the player may choose any cards they want"."""
    g = stacked(exhaustion=["2", "3"], edition="dw-lucky")
    do(g, "breather", cards=["3"])
    assert g.s.exhaustion == [["2", False]]


def test_breather_refuses_cards_not_exhausted():
    refused(stacked(exhaustion=["^2"]), "breather", "bad_card", cards=["5"])
    refused(stacked(exhaustion=["^2"]), "breather", "bad_card", cards=["x9"])
    refused(stacked(exhaustion=["^2"]), "breather", "bad_card", cards=["2", "2"])


def test_rest_keeps_cards_for_harm_and_wounds():
    """MD *Resting*: 1 return all Exhaustion tokens; 2 count Harm + Wound
    tokens; 3 keep that many Exhaustion cards (player's choice), the rest to
    discard; 4 return one Harm token; 5 say whom you blame."""
    g = stacked(exhaustion=["2", "3", "11", "12"], exh_tokens=4, harm=1, wound_tokens=1, campaign="9h")
    e = refused(g, "rest", "choose_keep")
    assert "2" in str(e)
    r = do(g, "rest", keep=["3", "12"])
    assert [x[0] for x in g.s.exhaustion] == ["3", "12"] and sorted(r["recovered"]) == ["11", "2"]
    assert g.s.exh_tokens == 0 and g.s.harm == 0 and g.s.wound_tokens == 1
    assert "blame" in r["say"]


def test_rest_with_no_harm_or_wounds_recovers_everything():
    g = stacked(exhaustion=["2", "3"], exh_tokens=2)
    do(g, "rest")
    assert g.s.exhaustion == [] and g.s.exh_tokens == 0


def test_rest_keeps_all_when_the_pile_is_small():
    g = stacked(exhaustion=["2"], wound_tokens=2)
    do(g, "rest")
    assert g.s.exhaustion == [["2", False]]


def test_dw_rest_has_no_blame_step():
    """DW *RESTING*: steps 1-4 only."""
    r = do(stacked(edition="dw-lucky"), "rest")
    assert "say" not in r


def test_seek_help_md():
    """MD *Seek Help*: return Exhaustion tokens and all Harm; keep as many
    Exhaustion cards as Wound tokens; return all wound cards to the supply
    but keep the Wound tokens."""
    g = stacked(["pw1"], discard=["pw2"], exhaustion=["2", "3", "4"], exh_tokens=2, harm=2, wound_tokens=2, campaign="9h")
    r = do(g, "seek_help", keep=["2", "4"])
    assert g.s.exh_tokens == 0 and g.s.harm == 0 and g.s.wound_tokens == 2
    assert sorted(r["wound_cards_returned"]) == ["pw1", "pw2"] and "pw1" in g.s.supply and "pw2" in g.s.supply
    assert [e[0] for e in g.s.exhaustion] == ["2", "4"]


def test_seek_help_at_the_hearth_returns_wound_tokens():
    """MD *Seek Help* step 8: at The Hearth, return all Wound tokens."""
    g = stacked(wound_tokens=2)
    do(g, "seek_help", hearth=True)
    assert g.s.wound_tokens == 0


def test_dw_seek_help_returns_one_wound_each():
    """DW *SEEK HELP* step 6: one Wound token and one wound card."""
    g = stacked(["pw1"], discard=["pw2"], wound_tokens=2, edition="dw-lucky", campaign="9h")
    r = do(g, "seek_help")
    assert g.s.wound_tokens == 1 and len(r["wound_cards_returned"]) == 1
    refused(g, "seek_help", "no_hearth", hearth=True)


def test_seek_help_lifts_incapacitation():
    """Friends carry the character to external help (MD *Seek Help*)."""
    g = stacked(incapacitated="a third Wound", wound_tokens=2)
    do(g, "seek_help")
    assert g.s.incapacitated == ""


def test_gm_revive():
    """MD *Incapacitation*: what incapacitation means is up to the GM."""
    g = stacked()
    refused(g, "revive", "not_incapacitated")
    g = stacked(incapacitated="a third Wound")
    do(g, "revive")
    assert not g.s.incapacitated
    exh = [str(i) for i in range(4, 21)]
    g = stacked(["1", "2", "3"], exhaustion=exh, incapacitated="bust on 3")
    refused(g, "revive", "still_spent")


def test_rest_can_keep_the_worst_cards():
    """MD *Resting* step 3: the player chooses; "worst" keeps the cards with
    the lowest results exhausted (out of the deck)."""
    g = stacked(exhaustion=["11", "1", "13", "8"], harm=1, wound_tokens=1, campaign="9h")
    do(g, "rest", keep="worst")
    assert sorted(e[0] for e in g.s.exhaustion) == ["1", "8"]


def test_breather_options_follow_the_edition():
    """MD *Taking a Breather*: "regain up to 4 Stamina", face-down cards stay
    face-down (taken blind); DW "may choose any cards". What the picker may
    offer."""
    g = stacked(exhaustion=["^11", "12", "13"], exh_tokens=1)
    o = g.breather_options()
    assert o == {"max": 4, "cards": ["11"], "facedown": 2, "tokens": 1}
    g = stacked(exhaustion=["^11", "12"], edition="dw-lucky")
    o = g.breather_options()
    assert o["max"] == 2 and o["cards"] == ["11", "12"] and o["facedown"] == 0


def test_keep_count_for_rest_and_seek_help():
    """MD *Resting* step 2-3 (Harm + Wound tokens), *Seek Help* step 4-5
    (Wound tokens)."""
    g = stacked(harm=1, wound_tokens=1, campaign="9h")
    assert g.keep_count("rest") == 2 and g.keep_count("seek_help") == 1

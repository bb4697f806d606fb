"""Issue 10, "every player action of the rules core is reachable from the
buttons": item cards, Pack cards, magic items, shields, green rings, the
spotlight, UNENCUMBERED, Sharpen and Stitch. On both runtimes, through
the buttons (Menu > Gear & rings, Special flips, Hurt & recover)."""

from tests.device.support import choose, make_app, press, with_game
from tests.rules.support import stacked


def _type(app, text):
    """Type ``text`` (capital letters and spaces) into the open NameEntry, then done."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ -'"
    for ch in text.upper():
        k = app.ui.top().k
        for _ in range((letters.index(ch) - k) % len(letters)):
            press(app, "DOWN")
        press(app, "B")
    return press(app, "C")


def _row(app, label):
    v = app.ui.view()
    for _ in range(len(v["items"])):
        if v["items"][v["selected"]].startswith(label):
            return press(app, "B")
        v = press(app, "DOWN")
    raise AssertionError("no row %r in %r" % (label, v["items"]))


def _app(top=(), **kw):
    return with_game(make_app(), stacked(top, **kw))


def test_write_a_magic_item_use_it_ongoing_and_stop_it():
    """MD *Use a Magic Item*: an Int flip; on ✔✔ the item activates and
    loses a charge; *The ONGOING tag*: while it flows, no Rest."""
    app = _app(["10", "4", "5", "6"])  # card 10: Anvil (Int) ✔✔
    v = choose(app, "Gear & rings", "Write an item card")
    assert v["title"] == "What kind of card?"
    v = _row(app, "Magic item")
    assert v["screen"] == "entry"
    _type(app, "Orb")
    assert app.game.s.gear[0][:2] == ["Orb", "magic"] and app.game.s.gear[0][5] == 3
    v = choose(app, "Gear & rings", "Item cards (1)")
    assert v["items"] == ["Orb magic 3/3"]
    press(app, "B")
    v = _row(app, "Use it")
    assert v["screen"] == "flip" and app.game.s.flip["item"] == "Orb" and app.game.s.flip["suit"] == "anvil"
    v = press(app, "A")
    assert v["title"] == "Orb activates" and "Spend a charge, ONGOING" in v["items"]
    v = _row(app, "Spend a charge, ONGOING")
    assert v["screen"] == "message" and v["lines"][0].startswith("activates")
    orb = app.game.s.gear[0]
    assert orb[5] == 2 and orb[8] == 1
    press(app, "A")
    choose(app, "Hurt & recover", "Rest")
    v = _row(app, "Go ahead")
    assert v["title"] == "Not now" and "magical energy still flows" in " ".join(v["lines"])
    press(app, "A")
    choose(app, "Gear & rings", "Item cards", "Orb")
    _row(app, "Stop the magic")
    assert app.game.s.gear[0][8] == 0  # (a refused command restores a copy of the state)


def test_magic_item_charge_spared_by_a_move_on_the_sheet():
    """MD *Use a Magic Item*: "This loss can be avoided with moves like
    Entreat the Blood-Bound"."""
    app = _app(["10"])
    app.game.s.moves["Entreat the Blood-Bound"] = 0
    app.game.do("gear_add", {"name": "Orb", "kind": "magic"})
    choose(app, "Gear & rings", "Item cards", "Orb", "Use it")
    v = press(app, "A")
    assert "Entreat the Blood-Bound s" in " ".join(v["items"])
    _row(app, "Entreat the Blood-Bound spares it")
    assert app.game.s.gear[0][5] == 3


def test_shield_block_is_a_fast_dex_flip_and_asks_the_cost():
    """MD *Shields*: blocking is a FAST Dex flip; from effect 1, ✔✔ is
    "avoid, lose 1 Stamina or the item takes 1 damage": the player's choice."""
    app = _app(["5", "4", "6"])  # card 5: Blade (Dex) ✔✔
    choose(app, "Gear & rings", "Write an item card", "Shield")
    v = _row(app, "Harm or a Wound")
    assert v["title"] == "Its best result gives" and v["items"][0] == "avoid"
    press(app, "B")
    _type(app, "Buckler")
    assert app.game.s.gear[0][:3] == ["Buckler", "shield", "w1"]
    choose(app, "Gear & rings", "Item cards", "Buckler", "Block with it")
    f = app.game.s.flip
    assert f["fast"] and f["suit"] == "blade" and f["item"] == "Buckler"
    v = press(app, "A")
    assert v["title"] == "The block costs" and app.game.s.flip is not None  # nothing resolved yet
    v = _row(app, "1 damage on Buckler")
    assert app.game.s.flip is None and app.game.s.gear[0][4] == 1
    assert v["title"] == "Buckler" and v["lines"][0].startswith("avoid the Harm or Wound")


def test_damage_an_item_three_times_destroys_it_and_drop_asks_first():
    """MD *Item Damage*: "the third time, the item is destroyed"."""
    app = _app()
    app.game.do("gear_add", {"name": "Rope"})
    app.game.do("gear_add", {"name": "Axe", "kind": "weapon"})
    for n in (1, 2):
        choose(app, "Gear & rings", "Item cards", "Rope", "Damage it")
        assert app.game.s.gear[0][4] == n
    v = choose(app, "Gear & rings", "Item cards", "Rope", "Damage it")
    assert v["title"] == "Destroyed" and [it[0] for it in app.game.s.gear] == ["Axe"]
    press(app, "A")
    v = choose(app, "Gear & rings", "Item cards", "Axe", "Drop it")
    assert v["items"] == ["No, keep it", "Yes, drop it"]
    press(app, "B")
    assert len(app.game.s.gear) == 1
    choose(app, "Gear & rings", "Item cards", "Axe", "Drop it", "Yes")
    assert app.game.s.gear == []


def test_weapon_power_gauge_and_its_reveal():
    """MD *More Power*: the gauge goes up; the weapon says the die revealed."""
    app = _app(["13", "14"])
    app.game.do("gear_add", {"name": "Axe", "kind": "weapon"})
    choose(app, "Gear & rings", "Item cards", "Axe", "Power: d4", "d6")
    assert app.game.s.gear[0][9] == "d6"
    v = choose(app, "Gear & rings", "Item cards", "Axe", "Reveal its attack power")
    assert v["screen"] == "menu" and v["title"].startswith("Revealed ")


def test_magic_capacity_down_to_nothing_dissipates():
    app = _app()
    app.game.do("gear_add", {"name": "Orb", "kind": "magic", "capacity": 1})
    choose(app, "Gear & rings", "Item cards", "Orb", "Capacity +1")
    assert app.game.s.gear[0][6] == 2
    for _ in range(2):
        choose(app, "Gear & rings", "Item cards", "Orb", "Capacity -1")
    assert app.game.s.gear == []


def test_pack_cards_and_good_thing_i_brought():
    """MD *Good Thing I Brought...*: 1 or 2 Pack cards; kept, it becomes an Item card."""
    app = _app(pack=0)  # the 2 a new character starts with set aside
    choose(app, "Gear & rings", "Pack", "Gain a Pack card")
    choose(app, "Gear & rings", "Pack", "Gain a Pack card")
    choose(app, "Gear & rings", "Pack", "Gain a precious")
    assert (app.game.s.pack, app.game.s.precious) == (2, 1)
    v = choose(app, "Gear & rings", "Pack: 2, precious 1", "Good Thing", "2 Pack cards")
    assert v["title"] == "Back in the backpack?"
    _row(app, "Yes: name its item card")
    _type(app, "Lamp")
    assert app.game.s.pack == 0 and app.game.s.gear[0][:2] == ["Lamp", "item"]
    v = choose(app, "Gear & rings", "Pack", "Good Thing", "1 Pack card", "No")
    assert v["title"] == "Not now" and app.game.s.gear[0][0] == "Lamp"  # no regular Pack card left
    press(app, "A")
    choose(app, "Gear & rings", "Pack", "Hand a precious one back")
    assert app.game.s.precious == 0


def test_obsessive_contemplation_swaps_a_precious_pack_card():
    app = _app(precious=1)
    v = choose(app, "Gear & rings", "Pack", "Obsessive Contemplation")
    assert v["screen"] == "number" and v["value"] == 3
    press(app, "UP", "B")
    _type(app, "Idol")
    it = app.game.s.gear[0]
    assert it[:2] == ["Idol", "magic"] and it[6] == 4 and app.game.s.precious == 0


def test_sharpen_and_stitch_before_a_rest():
    """MD *Sharpen and Stitch*: a Pack card repairs one damage, with a Rest."""
    app = _app(pack=1)
    app.game.do("gear_add", {"name": "Rope"})
    app.game.do("item_damage", {"name": "Rope"})
    v = choose(app, "Hurt & recover", "Rest")
    assert v["title"].startswith("Sharpen & Stitch") and v["items"][0] == "[ ] Rope"
    press(app, "B")
    v = _row(app, "Repair 1, then rest")
    _row(app, "Go ahead")
    assert app.game.s.gear[0][4] == 0 and app.game.s.pack == 0


def test_spotlight_lets_a_fast_move_come_again():
    """MD *FAST moves*: one FAST move in a moment in the spotlight."""
    app = _app(["4", "5", "6", "7"])
    choose(app, "Special flips", "FAST flip")
    press(app, "A")
    v = choose(app, "Special flips", "FAST flip")
    assert v["title"] == "Not now"
    press(app, "A")
    v = choose(app, "Special flips", "Pass the spotlight")
    assert v["title"] == "Spotlight passed"
    press(app, "A")
    v = choose(app, "Special flips", "FAST flip")
    assert v["screen"] == "flip" and app.game.s.flip["fast"]


def test_green_rings_and_envelopes_in_a_30_hour_campaign():
    """MD *30-hour Campaigns: Green rings*: the rows come from the edition
    and campaign; a one-shot has no envelope row."""
    app = _app(campaign="30h")
    v = choose(app, "Gear & rings")
    assert "Green rings: 0" in v["items"] and "Open an envelope" in v["items"]
    assert not [r for r in v["items"] if r.startswith("Wealth") or r.startswith("Take a level card")]
    press(app, "A", "A")
    choose(app, "Gear & rings", "Green rings")
    press(app, "UP", "B")
    assert app.game.s.rings == 1
    app.game.s.envelope_due = 1
    v = choose(app, "Gear & rings", "Open an envelope")
    assert v["items"][0] == "Mystic Breathwork (1 ring)" and "Fury (1 ring)" in v["items"]
    press(app, "B")
    assert app.game.s.unsealed == ["Mystic Breathwork"]
    one_shot = _app()
    v = choose(one_shot, "Gear & rings")
    assert "Open an envelope" not in v["items"]


def test_dw_level_cards_wealth_and_unencumbered():
    """DW *LEVEL CARDS AND GREEN RINGS*, *SPEED/WEALTH/PACK*, UNENCUMBERED."""
    app = _app(["4", "5"], edition="dw-lucky")
    choose(app, "Gear & rings", "Wealth", "Gain 1")
    assert app.game.s.wealth == 1
    app.game.s.rings = 1
    choose(app, "Gear & rings", "Take a level card (0)")
    _type(app, "Brave")
    assert app.game.s.level_cards == ["Brave"]
    v = choose(app, "Gear & rings", "Take a level card (1)")
    _type(app, "Bold")
    v = app.ui.view()
    assert v["title"] == "Not now" and app.game.s.level_cards == ["Brave"]
    press(app, "A")
    choose(app, "Gear & rings", "A new session begins")
    assert app.game.s.level_taken == 0
    v = choose(app, "Special flips", "UNENCUMBERED flip")
    assert v["screen"] == "flip"
    press(app, "A")
    app.game.s.wealth = 5  # Speed 6 - 5 = 1: below 4
    v = choose(app, "Special flips", "UNENCUMBERED flip")
    assert v["title"] == "Not now" and app.game.s.flip is None


def test_armour_card_with_the_slots_drawn_on_it():
    """MD *Armour*: slots take a Harm, or a Harm or a Wound; the edition's
    starting armour is offered first (MD: one Harm/Wound slot)."""
    app = _app()
    v = choose(app, "Gear & rings", "Write an item card", "Armour")
    assert v["title"] == "Its slots take" and v["items"][0] == "Harm/Wound (start)"
    _row(app, "Harm + Harm/Wound")
    v = app.ui.view()
    assert v["screen"] == "number" and v["title"] == "It counts as" and v["value"] == 1
    press(app, "B")
    _type(app, "Mail")
    assert app.game.s.gear[0][:4] == ["Mail", "armour", "hw", "--"] and app.game.s.gear[0][7] == 1


def test_padded_armour_counts_as_two_items():
    """MD *Armour*: "Padded Armour | 2 Harm, 1 Harm/Wound | counts as 2
    items" - its weight is the pursuit's encumbrance."""
    from shared_rules.deck.gear import encumbrance

    app = _app()
    choose(app, "Gear & rings", "Write an item card", "Armour")
    _row(app, "Harm + Harm + Harm/Wound")
    press(app, "UP", "B")  # counts as 2
    _type(app, "Padded")
    item = [i for i in app.game.s.gear if i[0] == "Padded"][0]
    assert item[2] == "hhw" and item[7] == 2 and encumbrance(app.game.s) >= 2


# -- issue 27: rules the engine once did otherwise than the seed texts --------
def test_a_new_character_from_the_menus_has_two_pack_cards():
    """MD *Pack - Precious and regular*: "Your character starts off with 2
    Pack cards, enabling the move Good Thing I Brought..."."""
    app = make_app()
    v = press(app, "C")
    press(app, *(["DOWN"] * v["items"].index("Help & settings")), "B")
    press(app, *(["DOWN"] * app.ui.view()["items"].index("New character")), "B")
    old = app.game.s.game
    press(app, "DOWN", "B", "B")  # yes, a new Deckahedron character
    assert app.game.s.game != old and (app.game.s.pack, app.game.s.precious) == (2, 0)
    v = choose(app, "Gear & rings")
    assert "Pack: 2, precious 0" in v["items"]
    press(app, "A", "A")
    choose(app, "Gear & rings", "Pack: 2", "Good Thing", "2 Pack cards", "No")
    assert app.game.s.pack == 0


def test_dw_rest_with_ongoing_magic_regains_no_stamina():
    """DW l.773: while energy flows into an ONGOING item "you may not regain
    Stamina points while using the Rest or Seek Help moves": the Rest runs,
    keeps every Exhaustion card and token, and says why."""
    app = _app(["10"], exhaustion=("2", "5"), edition="dw-lucky", campaign="9h", exh_tokens=2, harm=1)
    app.game.do("gear_add", {"name": "Cloak", "kind": "magic"})
    choose(app, "Gear & rings", "Item cards", "Cloak", "Use it")
    press(app, "A")
    _row(app, "Spend a charge, ONGOING")
    press(app, "A")
    v = choose(app, "Hurt & recover", "Rest")
    assert v["items"][0] == "Go ahead"  # no cards to choose: they all stay
    v = _row(app, "Go ahead")
    assert v["title"] == "Rested" and "No Stamina back: magic flows into Cloak." in " ".join(v["lines"])
    s = app.game.s
    assert s.exh_tokens == 2 and len(s.exhaustion) == 2 and s.harm == 0


def test_a_magic_weapon_from_the_menus():
    """MD *Use a Magic Item*: a magical weapon's further cost may be "the
    weapon is damaged"; it keeps a weapon's damage, attack power and power
    gauge rows (DW l.763: it "*can* be damaged")."""
    app = _app(["4", "13"])  # card 4: Anvil (Int) a single check
    choose(app, "Gear & rings", "Write an item card")
    _row(app, "Magic weapon")
    _type(app, "Blade")
    assert app.game.s.gear[0][:2] == ["Blade", "weapon"] and app.game.s.gear[0][5:7] == [3, 3]
    v = choose(app, "Gear & rings", "Item cards (1)")
    assert v["items"] == ["Blade weapon 3/3"]
    v = press(app, "B")
    for row in ("Use it", "Capacity +1", "Damage it", "Reveal its attack power", "Power: d4"):
        assert [r for r in v["items"] if r.startswith(row)], row
    _row(app, "Use it")
    v = press(app, "A")
    assert v["title"] == "Blade activates"
    v = _row(app, "Spend a charge")
    assert "or the weapon is damaged" in " ".join(v["lines"]) and app.game.s.gear[0][5] == 2
    press(app, "A")
    choose(app, "Gear & rings", "Item cards", "Blade", "Damage it")
    assert app.game.s.gear[0][4] == 1


def test_dw_one_shot_offers_no_blood_bound_spare_and_permanent_loss_takes_a_charge():
    """DW l.817: "Entreat the Blood-Bound is not available during a One-Shot
    Campaign"; l.757: a permanent loss "loses a charge and its capacity for
    charges decreases by 1"."""
    app = _app(["10"], edition="dw-lucky")
    app.game.s.moves["Entreat the Blood-Bound"] = 0
    app.game.s.moves["Channel the Living Light"] = 0
    app.game.do("gear_add", {"name": "Orb", "kind": "magic"})
    choose(app, "Gear & rings", "Item cards", "Orb", "Use it")
    v = press(app, "A")
    rows = " ".join(v["items"])
    assert "Channel the Living Light s" in rows and "Entreat" not in rows
    _row(app, "Spend a charge")
    press(app, "A")
    v = choose(app, "Gear & rings", "Item cards", "Orb", "Capacity -1")
    assert app.game.s.gear[0][5:7] == [1, 2]

"""Equipment: armour slots, Good Cardio's slots, item damage, Pack cards,
Sharpen and Stitch, encumbrance; and reduce_ways, the reduce step's menu.

Cards: 11-20 show the Stamina symbol; 1-10 do not.
"""

from shared_rules.deck.gear import reduce_ways
from shared_rules.deck.game import Game
from tests.rules.support import do, raises, refused, stacked


def test_armour_takes_the_wound():
    """MD *Armour*: "the player may put the Harm or Wound token into an
    appropriate empty slot on their Armour card": the Wound absorbs the
    attack power, and no Wound token or wound card reaches the character."""
    g = stacked(campaign="9h")
    do(g, "gear_add", name="Leather", kind="armour")  # MD: 1 Harm/Wound slot
    out = do(g, "damage", power=7, wounds=1, armour_wounds=1)
    assert out["stamina"] == 0 and out["armour"] == 1
    assert g.s.wound_tokens == 0 and g.s.gear[0][3] == "w" and "pw1" in g.s.supply and "pw2" in g.s.supply
    refused(g, "damage", "no_slot", power=7, wounds=1, armour_wounds=1)  # the slot is full
    refused(g, "take_wound", "no_slot", armour=True)


def test_harm_only_slots_refuse_a_wound():
    """MD *Armour*: a slot receives "1 Harm token" or "1 Harm *or* Wound
    token". DW's starting Leather Armour "has 2 slots for Harm tokens and
    cannot absorb a Wound" (l.698)."""
    g = stacked(edition="dw-lucky", campaign="9h")
    do(g, "gear_add", name="Leather", kind="armour")
    assert g.s.gear[0][2] == "hh"
    refused(g, "take_wound", "no_slot", armour=True)
    do(g, "take_harm", armour=True)
    assert g.s.harm == 0 and g.s.gear[0][3] == "h-" and len(g.s.exhaustion) == 0


def test_harm_fills_harm_only_slots_first():
    """Padded Armour (MD: 2 Harm, 1 Harm/Wound): two Harm leave the slot
    that can stop a Wound open."""
    g = stacked(campaign="30h")
    do(g, "gear_add", name="Padded", kind="armour", slots="whh", weight=2)
    do(g, "damage", power=6, harm=2, armour_harm=2)
    assert g.s.gear[0][3] == "-hh" and g.s.harm == 0
    do(g, "damage", power=5, wounds=1, armour_wounds=1)
    assert g.s.gear[0][3] == "whh"


def test_rest_and_seek_help_gird_the_armour():
    """MD *Resting* / *Seek Help*: "Remove all Harm and Wound tokens from
    your armour cards"."""
    g = stacked(campaign="9h")
    do(g, "gear_add", name="Leather", kind="armour")
    do(g, "take_wound", armour=True)
    do(g, "rest")
    assert g.s.gear[0][3] == "-"
    do(g, "take_harm", armour=True)
    do(g, "seek_help")
    assert g.s.gear[0][3] == "-"


def test_armour_slots_are_checked():
    g = stacked()
    refused(g, "gear_add", "bad_item", name="Plate", kind="armour", slots="hhhh")
    refused(g, "gear_add", "bad_item", name="Plate", kind="armour", slots="x")
    refused(g, "gear_add", "bad_item", name="Rope", kind="item", slots="h")
    refused(g, "gear_add", "bad_item", name="Rope", kind="sack")
    do(g, "gear_add", name="Rope")
    refused(g, "gear_add", "dup_item", name="Rope")
    refused(g, "damage", "bad_number", power=5, wounds=0, armour_wounds=1)


def test_good_cardio_slots_take_stamina_points():
    """MD *Good Cardio*: "Instead of losing a point of Stamina, an Exhaustion
    token can be placed in the first slot... a new slot opens up for each
    level the move is increased. Only one token can be placed in a slot."""
    g = stacked(["1", "2", "3"])
    refused(g, "damage", "no_slot", power=2, cardio=1)  # no Good Cardio on the sheet
    do(g, "set_move", name="Good Cardio", level="base")
    refused(g, "damage", "no_slot", power=2, cardio=2)  # one slot at base level
    out = do(g, "damage", power=1, cardio=1)
    assert out["stamina"] == 0 and g.s.exh_tokens == 1 and g.s.cardio == 1 and not g.s.exhaustion
    refused(g, "damage", "no_slot", power=1, cardio=1)
    do(g, "set_move", name="Good Cardio", level="master")  # two levels up: three slots
    do(g, "damage", power=2, cardio=2)
    assert g.s.cardio == 3 and g.s.exh_tokens == 3
    do(g, "breather", tokens=2)
    assert g.s.cardio == 1 and g.s.exh_tokens == 1
    do(g, "rest")
    assert g.s.cardio == 0 and g.s.exh_tokens == 0


def test_item_damage_is_bust_on_three():
    """MD *Item Damage*: "The first two times an item is damaged, place a
    red card on the Item card... If an item already has 2 red cards on it,
    and it is damaged again, it is destroyed." Magic items are not."""
    g = stacked()
    do(g, "gear_add", name="Sword", kind="weapon")
    assert do(g, "item_damage", name="Sword")["damage"] == 1
    assert do(g, "item_damage", name="Sword")["damage"] == 2
    out = do(g, "item_damage", name="Sword")
    assert out["destroyed"] and g.s.gear == []
    refused(g, "item_damage", "no_item", name="Sword")
    do(g, "gear_add", name="Wand", kind="magic", capacity=3)
    refused(g, "item_damage", "magic_item", name="Wand")


def test_sharpen_and_stitch_repairs_alongside_a_rest():
    """MD *Sharpen and Stitch*: "repair damaged items by spending Pack
    cards. This move must be executed alongside the Rest move"."""
    g = stacked(pack=0)  # the 2 Pack cards a new character starts with set aside
    do(g, "gear_add", name="Sword", kind="weapon")
    do(g, "item_damage", name="Sword")
    do(g, "item_damage", name="Sword")
    refused(g, "rest", "no_pack", sharpen=["Sword"])
    do(g, "pack_gain", regular=1)
    refused(g, "rest", "no_item", sharpen=["Bow"])
    out = do(g, "rest", sharpen=["Sword"])
    assert out["repaired"] == ["Sword"] and g.s.gear[0][4] == 1 and g.s.pack == 0


def test_good_thing_i_brought_spends_pack_cards():
    """MD *Good Thing I Brought...*: 1 or 2 Pack cards; an item that can go
    back into the backpack is written on a blank card replacing them; a
    consumed one just returns them to the supply."""
    g = stacked(pack=0)  # the 2 Pack cards a new character starts with set aside
    do(g, "pack_gain", regular=2, precious=1)
    refused(g, "good_thing", "bad_pack", pack=2, precious=1)
    refused(g, "good_thing", "bad_pack", pack=0)
    out = do(g, "good_thing", pack=1, keep="Rope")
    assert out["item"][0] == "Rope" and g.s.pack == 1 and g.s.gear[0][1] == "item"
    do(g, "good_thing", pack=0, precious=1)
    assert g.s.precious == 0 and len(g.s.gear) == 1
    refused(g, "good_thing", "no_pack", pack=2)
    refused(g, "pack_gain", "no_pack", regular=-2)


def test_encumbrance_feeds_the_pursuit():
    """MD *The Pursuit Mini-game*: "Add the rabbit's Str + Dex, then
    subtract their encumbrance penalty"; Item and Pack cards count, Padded
    Armour "counts as 2 items" (*Armour*)."""
    g = stacked(pack=0)  # the 2 Pack cards a new character starts with set aside
    light = g.pursuit()
    assert light == g.pursuit(0)
    do(g, "pack_gain", regular=2)
    do(g, "gear_add", name="Padded", kind="armour", slots="whh", weight=2)
    from shared_rules.deck.gear import encumbrance

    assert encumbrance(g.s) == 4
    assert g.pursuit() == g.pursuit(4) != light


def test_equipment_survives_the_save_and_old_saves_still_load():
    g = stacked(campaign="9h", pack=0)
    old = g.dump()
    assert "gear" not in old and "pack" not in old  # nothing to say: no new lines
    assert Game.load(old).dump() == old
    do(g, "set_move", name="Good Cardio", level="base")
    do(g, "gear_add", name="Leather", kind="armour")
    do(g, "gear_add", name="Wand", kind="magic", capacity=2)
    do(g, "pack_gain", regular=1, precious=2)
    do(g, "take_wound", armour=True)
    do(g, "damage", power=1, cardio=1)
    h = Game.load(g.dump())
    assert h.dump() == g.dump() and h.s.gear == g.s.gear and (h.s.pack, h.s.precious, h.s.cardio) == (1, 2, 1)


def test_a_save_with_bad_equipment_is_refused():
    from shared_rules.errors import RulesError
    from shared_rules.deck.state import PlayerState
    from shared_rules.atomic import text_digest

    g = stacked()
    do(g, "gear_add", name="Leather", kind="armour")
    text = g.dump()
    body = text[:text.rfind("check ")].replace('"w", "-"', '"h", "w"')
    assert body != text[:text.rfind("check ")]
    e = raises(RulesError, PlayerState.load, body + "check %s\n" % text_digest(body))
    assert e.code == "bad_save"


def _ways(g, power):
    out = []
    for w in reduce_ways(g, power):
        args = dict(w)
        left = args.pop("stamina")
        out.append((args.get("wounds", 0), args.get("harm", 0), args.get("armour_wounds", 0) + args.get("armour_harm", 0), args.get("cardio", 0), left))
    return out


def test_reduce_ways_one_shot_md():
    """MD *Deduct / Reduce*: all as Stamina, or one Wound for the entire
    amount; no Harm in the One-Shot."""
    g = stacked()
    assert _ways(g, 7) == [(0, 0, 0, 0, 7), (1, 0, 0, 0, 0)]


def test_reduce_ways_longer_campaign_md_every_harm_count():
    """MD *Second Phase*: "there are 4 ways to handle an attack power of 7":
    7 Stamina, 1 Harm + 4, 2 Harm + 1, 1 Wound."""
    g = stacked(campaign="9h")
    assert _ways(g, 7) == [(0, 0, 0, 0, 7), (0, 1, 0, 0, 4), (0, 2, 0, 0, 1), (1, 0, 0, 0, 0)]
    assert (0, 3, 0, 0, 0) in _ways(g, 9)  # the third Harm, which becomes a Wound
    for args in reduce_ways(g, 7):  # each way is a damage command the engine takes
        h = Game.load(g.dump())
        args = dict(args)
        left = args.pop("stamina")
        assert h.do("damage", args)["stamina"] == left


def test_reduce_ways_dw_wounds_of_six_with_harm():
    """DW: a Wound takes exactly 6, Harm 3 (l.373-384); combinations too."""
    g = stacked(edition="dw-lucky", campaign="9h")
    ways = _ways(g, 12)
    assert (2, 0, 0, 0, 0) in ways and (1, 2, 0, 0, 0) in ways and (1, 1, 0, 0, 3) in ways
    assert (3, 0, 0, 0, 0) not in ways


def test_reduce_ways_offer_the_armour_and_good_cardio():
    g = stacked(campaign="9h")
    do(g, "gear_add", name="Leather", kind="armour")
    do(g, "set_move", name="Good Cardio", level="base")
    ways = _ways(g, 7)
    assert (1, 0, 1, 0, 0) in ways  # the armour takes the Wound
    assert (0, 1, 1, 0, 4) in ways and (0, 1, 1, 1, 3) in ways
    assert (0, 0, 0, 1, 6) in ways
    for args in reduce_ways(g, 7):
        h = Game.load(g.dump())
        args = dict(args)
        left = args.pop("stamina")
        assert h.do("damage", args)["stamina"] == left


def test_levelup_max_is_the_cap_and_the_xp():
    """MD *Critical Success* (XP 1-for-1) and *Decreased Move Levels* (wild
    graduates to novice only): what the UI may offer."""
    g = stacked(xp=1)
    do(g, "set_move", name="Parley", level="base")
    do(g, "set_move", name="Goreography", level="wild")
    assert g.levelup_max("Parley") == 1 and g.levelup_max("Goreography") == 1
    g.s.xp = 5
    assert g.levelup_max("Parley") == 2 and g.levelup_max("Goreography") == 1
    raises(Exception, g.levelup_max, "Nope")


# -- magic items (MD *Magic*) --------------------------------------------
# Card levels (anvil blade crown dragon): 1 = 1111, 4 = 2234, 5 = 2323,
# 14 = 3434; the sheet's Int flips Anvil.


def test_use_a_magic_item_flips_int_and_costs_a_charge():
    """MD *Use a Magic Item*: "the player flips Int, and on any result other
    than ✗, the item activates... Using a magic item causes it to lose a
    charge"; ✅ and ✔✔ "cause a further cost"; *Charges and Capacity*: by
    default 3 charges, and a depleted item "cannot be used"."""
    g = stacked(["14", "4", "1", "18", "13"])
    do(g, "gear_add", name="Wand", kind="magic")
    assert g.s.gear[0][5:7] == [3, 3]
    refused(g, "flip", "bad_attr", attr="dex", item="Wand")
    r = do(g, "flip", item="Wand")
    assert r["suit"] == "anvil"
    out = do(g, "end_flip")  # 14: ✔✔ on Anvil
    assert out["magic"] == "activates" and out["charges"] == 2 and out["cost"] == "choose a further cost"
    do(g, "flip", item="Wand")
    assert do(g, "end_flip")["cost"] == "the GM chooses a further cost"  # 4: ✅
    do(g, "flip", item="Wand")
    out = do(g, "end_flip")  # 1: ✗
    assert out["magic"] == "does not activate" and g.s.gear[0][5] == 1
    do(g, "flip", item="Wand")
    do(g, "end_flip")
    assert g.s.gear[0][5] == 0
    refused(g, "flip", "depleted", item="Wand")
    do(g, "rest")  # "rechargeable during Rest"
    assert g.s.gear[0][5] == 3


def test_entreat_or_channel_spares_the_charge():
    """MD *Use a Magic Item*: "This loss can be avoided with moves like
    Entreat the Blood-Bound and Channel the Living Light"."""
    g = stacked(["14"])
    do(g, "gear_add", name="Sigil", kind="magic")
    do(g, "flip", item="Sigil")
    refused(g, "end_flip", "bad_spare", spare="Channel the Living Light")  # not on the sheet
    do(g, "set_move", name="Channel the Living Light")
    out = do(g, "end_flip", spare="Channel the Living Light")
    assert out["charges"] == 3


def test_ongoing_magic_blocks_rest_and_seek_help():
    """MD *The ONGOING tag*: "If the flow of magical energy continues, they
    are not considered idle for the purposes of the Rest and Seek Help
    moves"; only items "not being used" recharge."""
    g = stacked(["14"])
    do(g, "gear_add", name="Cloak", kind="magic")
    do(g, "flip", item="Cloak")
    do(g, "end_flip", ongoing=True)
    assert g.s.gear[0][8] == 1
    refused(g, "rest", "magic_flowing")
    refused(g, "seek_help", "magic_flowing")
    assert Game.load(g.dump()).s.gear == g.s.gear
    do(g, "magic_stop", name="Cloak")
    refused(g, "magic_stop", "not_flowing", name="Cloak")
    do(g, "rest")
    assert g.s.gear[0][5] == 3


def test_magic_capacity_below_one_dissipates_the_item():
    """MD *Charges and Capacity*: "If the charge capacity decreases below 1,
    all the bonds that held the item together dissipate"."""
    g = stacked()
    do(g, "gear_add", name="Ring", kind="magic")
    out = do(g, "magic_capacity", name="Ring", change=-1)
    assert out["capacity"] == 2 and g.s.gear[0][5] == 2
    assert do(g, "magic_capacity", name="Ring", change=-2)["gone"] and g.s.gear == []
    do(g, "gear_add", name="Rope")
    refused(g, "magic_capacity", "not_magic", name="Rope", change=1)


def test_a_plain_flip_cannot_spare_a_charge():
    g = stacked(["14"])
    do(g, "flip", suit="anvil")
    refused(g, "end_flip", "no_item", ongoing=True)


def test_a_flip_saved_before_magic_items_still_loads():
    """A save with a flip in progress written before the flip record had an
    item field loads, and dumps the same."""
    from shared_rules.atomic import text_digest

    g = stacked(["14"])
    do(g, "flip", suit="anvil")
    text = g.dump()
    assert Game.load(text).dump() == text
    h = Game.load(text)
    assert h.s.flip["item"] is None
    do(h, "end_flip")
    assert text_digest(text) == g.digest()


# -- shields (MD *Shields*) ----------------------------------------------
# Dex flips Blade on the default sheet: 3 = 1434 (blade 4), 14 = 3434
# (blade 4), 4 = 2234 (blade 2), 5 = 2323 (blade 3), 2 = 1232 (blade 2),
# 1 = 1111.


def test_shield_blocks_with_dex_as_a_fast_move():
    """MD *Shields*: "they test a character's Dex"; the GM picks "3
    sequential effects" for ✔✔✔, ✔✔, ✅ from the list; "Blocking attack
    power with a shield is a FAST move, and players may not make more than
    one FAST move per turn in the spotlight"."""
    g = stacked(["3", "5", "4"])
    do(g, "gear_add", name="Buckler", kind="shield", avoids="wound", first=1)
    r = do(g, "flip", item="Buckler")
    assert r["suit"] == "blade" and g.s.flip["fast"]
    out = do(g, "end_flip")  # ✔✔✔: the first effect, avoid
    assert out["shield"] == "avoid the Harm or Wound" and "stamina_lost" not in out and g.s.gear[0][4] == 0
    refused(g, "flip", "fast_used", item="Buckler")  # one FAST move a moment
    do(g, "spotlight")
    do(g, "flip", item="Buckler")  # ✔✔: the second, a choice
    refused(g, "end_flip", "choose_cost")
    out = do(g, "end_flip", cost="damage")
    assert out["item"]["damage"] == 1 and g.s.gear[0][4] == 1
    do(g, "spotlight")
    do(g, "flip", item="Buckler")  # ✅: lose 1 Stamina
    refused(g, "end_flip", "bad_cost", cost="damage")
    out = do(g, "end_flip")
    assert out["stamina_lost"] >= 1 and g.s.gear[0][4] == 1
    g = stacked(["1"])
    do(g, "gear_add", name="Buckler", kind="shield", avoids="wound", first=1)
    do(g, "flip", item="Buckler")  # ✗
    assert do(g, "end_flip")["shield"] == "avoids nothing"


def test_a_shield_from_the_second_effect_costs_more():
    """Starting at the second effect, a ✅ is the fourth: lose 1 Stamina and
    the shield takes 1 damage."""
    g = stacked(["4"])
    do(g, "gear_add", name="Tower", kind="shield", avoids="harm", first=2)
    do(g, "flip", item="Tower")
    out = do(g, "end_flip")
    assert out["shield"] == "avoid the Harm" and out["stamina_lost"] >= 1 and out["item"]["damage"] == 1


def test_shield_cards_are_checked():
    g = stacked()
    refused(g, "gear_add", "bad_item", name="Buckler", kind="shield")
    refused(g, "gear_add", "bad_item", name="Buckler", kind="shield", avoids="fire", first=1)
    refused(g, "gear_add", "bad_item", name="Buckler", kind="shield", avoids="harm", first=3)
    refused(g, "gear_add", "bad_item", name="Rope", avoids="harm", first=1)
    do(g, "gear_add", name="Buckler", kind="shield", avoids="harm", first=2)
    assert Game.load(g.dump()).s.gear == [["Buckler", "shield", "h2", "", 0, 0, 0, 1, 0, ""]]


# -- weapon power (MD *More Power*, *Weapons*, *Obsessive Contemplation*) --
# Numerals (triangle d4 / square d6): 2 = 1/1, 3 = 2/6, 11 = 4/6.


def test_a_weapon_rolls_its_power_gauge():
    """MD *More Power*: "an armed PC will be rolling 1d4 for their attack
    power. This can be increased later on in the game via the moves Tales of
    a Weapon and Obsessive Contemplation"; *Weapons*: "Weapons have power:
    d4, d6, or d10"."""
    g = stacked(["3", "11", "2"])
    do(g, "gear_add", name="Sword", kind="weapon")
    assert g.s.gear[0][9] == "d4"
    assert do(g, "reveal", item="Sword")["power"] == 2  # card 3's triangle
    do(g, "item_power", name="Sword", power="d6")
    assert do(g, "reveal", item="Sword")["power"] == 6  # card 11's square
    refused(g, "item_power", "bad_power", name="Sword", power="d8")
    do(g, "gear_add", name="Rope")
    refused(g, "reveal", "bad_power", item="Rope")
    refused(g, "item_power", "bad_power", name="Rope", power="d6")


def test_obsessive_contemplation_turns_a_precious_pack_card_into_a_magic_item():
    """MD *Obsessive Contemplation*: "swap the Pack card with a new blank
    Magic Item card and write a description and charge capacity"."""
    g = stacked()
    refused(g, "contemplate", "no_pack", name="Locket")
    do(g, "pack_gain", precious=1)
    out = do(g, "contemplate", name="Locket", capacity=2)
    assert out["item"][1] == "magic" and out["item"][6] == 2 and g.s.precious == 0


# -- rules the engine once did otherwise than the seed texts (issue 27) --------
def test_a_new_character_starts_with_two_pack_cards():
    """MD (seed 001) *Pack - Precious and regular*: "Your character starts
    off with 2 Pack cards, enabling the move Good Thing I Brought..." (0.93,
    seed 000 l.186, the same). DW (seed 004 l.460) has Pack tokens the
    player places from the 6: a new DW character has none on Pack."""
    for key in ("md", "v093"):
        g = Game.new(seed=3, edition_key=key)
        assert (g.s.pack, g.s.precious) == (2, 0) and g.summary()["pack"] == {"regular": 2, "precious": 0}
        assert Game.load(g.dump()).s.pack == 2
        do(g, "good_thing", pack=2)  # enabled at once
        assert g.s.pack == 0
    for key in ("dw-lucky", "dw-heroic"):
        g = Game.new(seed=3, edition_key=key, campaign="9h")
        assert g.s.pack == 0
        from shared_rules.deck.gear import speed

        assert speed(g) == 6


def test_dw_ongoing_magic_rests_without_regaining_stamina():
    """DW (seed 004 l.773, *The ONGOING tag*): "While you are flowing energy
    into such an item, you may not regain Stamina points while using the
    Rest or Seek Help moves" (the moves are allowed); l.549: Stamina comes
    back as Exhaustion cards to the discard pile or Exhaustion tokens to the
    supply. The rest of each move still happens: a Harm token back, idle
    magic items recharged. (MD refuses: test_ongoing_magic_blocks_rest_and_seek_help.)"""
    g = stacked(["14", "13"], exhaustion=("2", "5"), edition="dw-lucky", campaign="9h", exh_tokens=2, harm=1)
    do(g, "gear_add", name="Cloak", kind="magic")
    do(g, "gear_add", name="Wand", kind="magic")
    do(g, "flip", item="Wand")
    do(g, "end_flip")  # 14: a charge spent
    do(g, "flip", item="Cloak")
    do(g, "end_flip", ongoing=True)  # 13: the Cloak's magic keeps flowing
    assert g.keep_count("rest") == 2 == g.keep_count("seek_help")  # every card stays (idle: 1 and 0)
    refused(g, "rest", "bad_keep", keep=["2"])
    out = do(g, "rest")
    assert out["no_stamina"] == ["Cloak"] and out["recovered"] == [] and out["kept"] == ["2", "5"]
    assert g.s.exh_tokens == 2 and g.s.harm == 0  # Step 4 still returns a Harm token
    assert g.s.gear[1][5] == 3 and g.s.gear[0][5] == 2  # the idle Wand recharges, the Cloak does not
    out = do(g, "seek_help")
    assert out["no_stamina"] == ["Cloak"] and out["recovered"] == [] and g.s.exh_tokens == 2 and g.s.harm == 0
    do(g, "magic_stop", name="Cloak")
    out = do(g, "rest")
    assert "no_stamina" not in out and g.s.exh_tokens == 0 and out["recovered"] == ["2", "5"]


def test_dw_permanent_loss_takes_a_charge_with_the_capacity():
    """DW (seed 004 l.757, *Charges and Capacity*): "Sometimes charges are
    lost *permanently*. This means it loses a charge and its capacity for
    charges decreases by 1": 2/3 becomes 1/2. l.759: a gain takes a
    black-side red card off, freeing its charge. MD (seed 001 *Charges and
    Capacity*) only marks the new capacity: 2/3 becomes 2/2."""
    for key, lost, regained in (("dw-lucky", [1, 2], [2, 3]), ("md", [2, 2], [2, 3])):
        g = stacked(["14"], edition=key)
        do(g, "gear_add", name="Ring", kind="magic")
        do(g, "flip", item="Ring")
        do(g, "end_flip")
        assert g.s.gear[0][5:7] == [2, 3]
        do(g, "magic_capacity", name="Ring", change=-1)
        assert g.s.gear[0][5:7] == lost, key
        do(g, "magic_capacity", name="Ring", change=1)
        assert g.s.gear[0][5:7] == regained, key
    g = stacked(edition="dw-heroic")
    do(g, "gear_add", name="Orb", kind="magic", capacity=2)
    g.s.gear[0][5] = 0  # depleted
    assert do(g, "magic_capacity", name="Orb", change=-1)["charges"] == 0  # no charge below none


def test_an_item_whose_charges_went_during_its_flip_does_not_activate():
    """DW (seed 004 l.757): a permanent loss takes a charge with the
    capacity, so an item can lose its last charge while its own flip is on
    the table; MD (seed 001 *Use a Magic Item*): a depleted item "cannot be
    used". Found by the magic-items property test: the flip's end spent a
    charge the item no longer had (charges -1)."""
    g = stacked(["14", "13"], edition="dw-lucky")
    do(g, "gear_add", name="Orb", kind="magic")
    do(g, "flip", item="Orb")
    do(g, "end_flip")  # 2 of 3 left
    do(g, "flip", item="Orb")
    do(g, "magic_capacity", name="Orb", change=-2)  # 0 of 1: both charges went with the capacity
    refused(g, "end_flip", "depleted", ongoing=True)
    out = do(g, "end_flip")
    assert out["magic"] == "does not activate: no charge left" and g.s.gear[0][5:7] == [0, 1]


def test_a_magic_weapon_is_a_weapon_with_charges():
    """MD (seed 001 *Use a Magic Item*): "if the magic item being used is a
    magical weapon, another choice is available: "the weapon is damaged"";
    DW (seed 004 l.761-763): "Magic items cannot be damaged. (Weapons
    granted magical effects via Tool Twisting *can* be damaged)". A magic
    weapon is a weapon card with a charge capacity: used with Int like a
    magic item, damaged like a weapon, and it rolls its attack power."""
    for key in ("md", "dw-lucky"):
        g = stacked(["4", "3", "14"], edition=key, campaign="9h")
        do(g, "gear_add", name="Blade of Echoes", kind="weapon", capacity=3)
        assert g.s.gear[0][5:7] == [3, 3] and g.s.gear[0][9] == "d4"
        do(g, "flip", item="Blade of Echoes")
        out = do(g, "end_flip")  # 4: a single check on Anvil
        assert out["magic"] == "activates" and out["charges"] == 2
        assert out["cost"] == "the GM chooses a further cost, or the weapon is damaged"
        assert do(g, "item_damage", name="Blade of Echoes")["damage"] == 1  # the cost taken
        assert do(g, "reveal", item="Blade of Echoes")["power"] == 2  # card 3's triangle
        do(g, "rest")  # "rechargeable during Rest"
        assert g.s.gear[0][5] == 3 and Game.load(g.dump()).s.gear == g.s.gear
        # a magic item is not damaged and rolls no attack power; a mundane
        # weapon holds no charge
        do(g, "gear_add", name="Wand", kind="magic")
        refused(g, "item_damage", "magic_item", name="Wand")
        refused(g, "reveal", "bad_power", item="Wand")
        do(g, "gear_add", name="Sword", kind="weapon")
        refused(g, "flip", "not_magic", item="Sword")
        refused(g, "magic_capacity", "not_magic", name="Sword", change=1)
        refused(g, "gear_add", "bad_item", name="Rope", capacity=2)


def test_dw_blood_bound_is_not_available_in_a_one_shot():
    """DW (seed 004 l.817, *Entreat the Blood-Bound*): "Entreat the
    Blood-Bound is not available during a One-Shot Campaign, because it
    requires the use of Wounds": it spares no charge there; Channel the
    Living Light still does, and the longer campaigns and MD (which has no
    such note) keep the spare."""
    from shared_rules.deck.gear import sparing_moves

    for key, campaign, spares in (("dw-lucky", "oneshot", False), ("dw-heroic", "9h", True), ("md", "oneshot", True)):
        g = stacked(["14", "13"], edition=key, campaign=campaign)
        do(g, "set_move", name="Entreat the Blood-Bound")
        do(g, "set_move", name="Channel the Living Light")
        do(g, "gear_add", name="Sigil", kind="magic")
        assert ("Entreat the Blood-Bound" in sparing_moves(g)) == spares
        do(g, "flip", item="Sigil")
        if spares:
            assert do(g, "end_flip", spare="Entreat the Blood-Bound")["charges"] == 3
        else:
            refused(g, "end_flip", "not_available", spare="Entreat the Blood-Bound")
            assert do(g, "end_flip", spare="Channel the Living Light")["charges"] == 3

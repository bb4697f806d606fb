"""Equipment: item cards, armour slots, item damage, Pack cards.

Sources: MD *Equipment*, *Pack - Precious and regular*, *Good Thing I
Brought...*, *Item Damage*, *Sharpen and Stitch*, *Armour*, *Shields*; DW
*Armour* (l.696-720). Loaded only when an equipment command runs (Game.do
finds these commands here), so a board that never uses them pays no heap.
Each command takes the Game first; Game.do makes it atomic.
"""

from shared_rules.deck.state import MAX_TOKENS, check_move_name
from shared_rules.errors import RulesError

# Fields of an item card, in save order: its name, kind (KINDS), armour
# slots ("h" takes a Harm token, "w" a Harm or a Wound), the token in each
# slot ("-" for none), damage (red cards, 0-2), magic charges and capacity,
# how many items it counts as for encumbrance (MD *Armour*: Padded Armour
# "counts as 2 items"), and 1 while magical energy flows into an ONGOING
# magic item (MD *The ONGOING tag*), and the power gauge of a weapon or
# magic item ("", "d4", "d6" or "d10": MD *More Power*).
# A weapon with a charge capacity is a magic weapon (MD *Use a Magic Item*:
# "a magical weapon"; DW l.763, l.799: one "granted magical effects via Tool
# Twisting"): used as a magic item, yet a weapon that rolls attack power and
# "can be damaged". Only a magic item or a weapon holds charges.
# A shield's slots field is what it avoids ("h" Harm, "w" Harm or Wound) and
# its first effect in SHIELD_EFFECTS (1 or 2), e.g. "w1".
FIELDS = ("name", "kind", "slots", "tokens", "damage", "charges", "capacity", "weight", "flowing", "power")
POWERS = ("d4", "d6", "d10")
KINDS = ("item", "weapon", "armour", "shield", "magic")
MAX_GEAR = 16

# MD *Use a Magic Item*: "This loss can be avoided with moves like Entreat
# the Blood-Bound and Channel the Living Light."
SPARING_MOVES = ("Entreat the Blood-Bound", "Channel the Living Light")


def find(s, name):
    for item in s.gear:
        if item[0] == name:
            return item
    raise RulesError("no_item", "no item card named %r" % (name,))


def _whole(value, name, lo, hi):
    if not isinstance(value, int) or isinstance(value, bool) or value < lo or value > hi:
        raise RulesError("bad_number", "%s must be a whole number from %d to %d, not %r" % (name, lo, hi, value))
    return value


def gear_add(g, name, kind="item", slots=None, capacity=None, weight=1, avoids=None, first=None, power=None):
    """Write a new item card. Armour gets the slots drawn on it ("h" = 1
    Harm, "w" = 1 Harm or Wound, up to 3); without slots, the edition's
    starting armour (MD: 1 Harm/Wound; DW: 2 Harm). A magic item holds up
    to ``capacity`` charges ("By default, magic items have capacity for 3
    charges") and starts full. A shield says what it ``avoids`` ("harm" or
    "wound": Harm or Wound) and its ✔✔✔ effect, the ``first`` (1) or
    second (2) of MD's list. A weapon's ``power`` is d4 unless given ("an
    armed PC will be rolling 1d4 for their attack power"); a weapon given a
    ``capacity`` is a magic weapon."""
    if power is None:
        power = "d4" if kind == "weapon" else ""
    if capacity is None:
        capacity = 3 if kind == "magic" else 0
    if (kind == "shield") != (avoids is not None and first is not None):
        raise RulesError("bad_item", "a shield, and only a shield, says what it avoids (harm or wound) and its first effect (1 or 2)")
    if kind == "shield":
        if avoids not in ("harm", "wound") or first not in (1, 2) or slots is not None:
            raise RulesError("bad_item", "a shield avoids harm or wound, starting at effect 1 or 2")
        slots = avoids[0] + str(first)  # "h1" .. "w2"
    s = g.s
    check_move_name(name)
    if kind not in KINDS:
        raise RulesError("bad_item", "an item is one of %s, not %r" % (", ".join(KINDS), kind))
    for item in s.gear:
        if item[0] == name:
            raise RulesError("dup_item", "there is already an item card named %s" % name)
    if len(s.gear) >= MAX_GEAR:
        raise RulesError("too_many", "a character carries at most %d item cards" % MAX_GEAR)
    if slots is None:
        slots = g.ed["starting_armour"] if kind == "armour" else ""
    if not isinstance(slots, str):
        raise RulesError("bad_item", "slots are written as letters: h (Harm) or w (Harm or Wound)")
    item = check_gear([name, kind, slots, "" if kind == "shield" else "-" * len(slots), 0, capacity, capacity, weight, 0, power])
    s.gear.append(item)
    check_load(g)
    return {"item": list(item)}


def gear_drop(g, name):
    """Drop an item "at any time that makes sense in the fiction" (MD
    *Equipment*); its damage cards go back to the supply with it."""
    item = find(g.s, name)
    g.s.gear.remove(item)
    return {"dropped": name}


def item_damage(g, name):
    """MD *Item Damage* (Bust-on-3): the first two times a red card on the
    item; the third destroys it (item and red cards back to the supply).
    Mundane items and magic weapons (DW l.761-763: "Magic items cannot be
    damaged. (Weapons granted magical effects via Tool Twisting *can* be
    damaged)")."""
    s = g.s
    item = find(s, name)
    if item[1] == "magic":
        raise RulesError("magic_item", "only mundane (non-magical) items and magic weapons can be damaged")
    if item[4] >= 2:
        s.gear.remove(item)
        g.event(name, "is destroyed")
        return {"item": name, "damage": 3, "destroyed": True}
    item[4] += 1
    g.event(name, "damaged", item[4])
    return {"item": name, "damage": item[4], "destroyed": False}


def pack_gain(g, regular=0, precious=0):
    """Take Pack cards (character creation gives 2; the fiction gives more);
    negative numbers hand them back to the supply."""
    s = g.s
    _whole(regular, "regular Pack cards", -MAX_TOKENS, MAX_TOKENS)
    _whole(precious, "precious Pack cards", -MAX_TOKENS, MAX_TOKENS)
    if s.pack + regular < 0 or s.precious + precious < 0:
        raise RulesError("no_pack", "you have %d regular and %d precious Pack cards" % (s.pack, s.precious))
    if s.pack + regular > MAX_TOKENS or s.precious + precious > MAX_TOKENS:
        raise RulesError("bad_number", "at most %d Pack cards of a kind" % MAX_TOKENS)
    s.pack += regular
    s.precious += precious
    check_load(g)
    return {"pack": s.pack, "precious": s.precious}


def wealth_gain(g, change):
    """DW Wealth tokens on the sheet (they weigh like Pack tokens)."""
    s = g.s
    if g.ed["speed_tokens"] is None:
        raise RulesError("no_speed", "this edition has no Speed / Wealth / Pack tokens")
    _whole(change, "Wealth change", -MAX_TOKENS, MAX_TOKENS)
    if s.wealth + change < 0:
        raise RulesError("no_wealth", "you have %d Wealth tokens" % s.wealth)
    s.wealth += change
    check_load(g)
    return {"wealth": s.wealth, "speed": speed(g)}


def speed(g):
    """DW *SPEED/WEALTH/PACK*: the 6 tokens not on Pack, Wealth or item
    cards are on Speed. None in an edition without Speed."""
    if g.ed["speed_tokens"] is None:
        return None
    s = g.s
    n = g.ed["speed_tokens"] - s.pack - s.precious - s.wealth
    for item in s.gear:
        n -= item[7]
    return n


def check_load(g):
    """DW: more tokens than the 6 cannot be placed."""
    v = speed(g)
    if v is not None and v < 0:
        raise RulesError("too_heavy", "that needs %d more token(s) than your %d: drop something first" % (-v, g.ed["speed_tokens"]))


def check_unencumbered(g):
    """DW: "When your speed goes below 4, you may not perform any
    UNENCUMBERED moves"."""
    v = speed(g)
    if v is None:
        raise RulesError("no_speed", "UNENCUMBERED is a Deckahedron World tag; this edition has no Speed")
    if v < g.ed["unencumbered_speed"]:
        raise RulesError("encumbered", "your Speed is %d: UNENCUMBERED moves need %d or more" % (v, g.ed["unencumbered_speed"]))


def good_thing(g, pack=1, precious=0, keep=None):
    """MD *Good Thing I Brought...*: spend 1 or 2 Pack cards for the item
    that solves the problem. If it can go back into the backpack, ``keep``
    names it: a blank Item card with that name replaces the Pack card(s);
    otherwise the Pack cards just return to the supply."""
    s = g.s
    _whole(pack, "regular Pack cards", 0, 2)
    _whole(precious, "precious Pack cards", 0, 2)
    if not 1 <= pack + precious <= 2:
        raise RulesError("bad_pack", "Good Thing I Brought... costs 1 or 2 Pack cards")
    if pack > s.pack or precious > s.precious:
        raise RulesError("no_pack", "you have %d regular and %d precious Pack cards" % (s.pack, s.precious))
    s.pack -= pack
    s.precious -= precious
    out = {"pack": s.pack, "precious": s.precious, "item": None}
    if keep is not None:
        out["item"] = gear_add(g, keep)["item"]
    return out


def encumbrance(s):
    """Item and Pack cards carried, each item by its weight (MD *Armour*:
    "counts as 2 items"): the penalty the pursuit subtracts."""
    n = s.pack + s.precious
    for item in s.gear:
        n += item[7]
    return n


def sharpen(g, names):
    """MD *Sharpen and Stitch*, alongside a Rest: each name spends one Pack
    card and takes one red card off that item (docs/rules.md)."""
    s = g.s
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, (list, tuple)):
        raise RulesError("bad_args", "sharpen names the items to repair")
    if len(names) > s.pack + s.precious:
        raise RulesError("no_pack", "Sharpen and Stitch costs a Pack card per repair; you have %d" % (s.pack + s.precious))
    for name in names:
        item = find(s, name)
        if not item[4]:
            raise RulesError("not_damaged", "%s has no damage to repair" % name)
        item[4] -= 1
        if s.pack:
            s.pack -= 1
        else:
            s.precious -= 1
    return list(names)


def gird(s):
    """Rest and Seek Help: "You may gird all your armour": every Harm and
    Wound token comes off the armour cards."""
    for item in s.gear:
        if item[1] == "armour":
            item[3] = "-" * len(item[2])


# -- magic items (MD *Magic*) -------------------------------------------
def charged(item):
    """A magic item, or a magic weapon (a weapon with a charge capacity)."""
    return item[1] == "magic" or item[6] > 0


def magic_item(s, name):
    item = find(s, name)
    if not charged(item):
        raise RulesError("not_magic", "%s is not a magic item" % name)
    return item


def check_usable(s, name):
    """Before an item's flip: the attribute it flips. Use a Magic Item flips
    Int, and a depleted item "cannot be used"; a shield blocks with Dex
    (MD *Shields*: "they test a character's Dex")."""
    item = find(s, name)
    if item[1] == "shield":
        return "dex"
    item = magic_item(s, name)
    if not item[5]:
        raise RulesError("depleted", "%s is depleted: no charges left until a Rest" % name)
    return "int"


def use_item(g, name, level, spare, ongoing, cost, out):
    """End of an item's flip: a shield's block or a magic item's use."""
    if find(g.s, name)[1] == "shield":
        if spare is not None or ongoing:
            raise RulesError("not_magic", "a shield spares no charge and keeps no magic flowing")
        block(g, name, level, cost, out)
    else:
        if cost is not None:
            raise RulesError("bad_cost", "only a shield's block takes a cost choice")
        activate(g, name, level, spare, ongoing, out)


# MD *Shields*: the effects a shield's ✔✔✔, ✔✔ and ✅ take, three in a row
# from this list, starting at the first or the second.
SHIELD_EFFECTS = ("avoid", "avoid, lose 1 Stamina or the item takes 1 damage",
                  "avoid, lose 1 Stamina", "avoid, lose 1 Stamina and the item takes 1 damage")


def block(g, name, level, cost, out):
    """A shield's Dex flip resolved: ✔✔✔ gives its first effect, ✔✔ the
    next, ✅ the third; ✗ avoids nothing. The Stamina and the item damage an
    effect costs are taken here; on the choice effect ``cost`` says which
    ("stamina" or "damage")."""
    item = find(g.s, name)
    avoids = "Harm or Wound" if item[2][0] == "w" else "Harm"
    if level <= 1:
        if cost is not None:
            raise RulesError("bad_cost", "a ✗ block avoids nothing and costs nothing more")
        out["shield"] = "avoids nothing"
        return
    effect = int(item[2][1]) - 1 + (4 - level)
    choice = effect == 1
    if choice and cost not in ("stamina", "damage"):
        raise RulesError("choose_cost", "choose: lose 1 Stamina (cost=stamina) or %s takes 1 damage (cost=damage)" % name)
    if not choice and cost is not None:
        raise RulesError("bad_cost", "this result leaves no cost to choose")
    out["shield"] = "avoid the " + avoids
    if effect >= 2 or cost == "stamina":
        out["stamina_lost"] = g.stamina_loss(1)
    if effect == 3 or cost == "damage":
        out["item"] = item_damage(g, name)


def sparing_moves(g):
    """The moves on the sheet that may spare a charge now. DW l.817: "Entreat
    the Blood-Bound is not available during a One-Shot Campaign, because it
    requires the use of Wounds": it spares where the campaign has Wounds."""
    s = g.s
    return [m for m in SPARING_MOVES if m in s.moves
            and (m != SPARING_MOVES[0] or s.campaign in g.ed["wound_campaigns"])]


def activate(g, name, level, spare, ongoing, out):
    """End of a Use a Magic Item flip (MD *Use a Magic Item*): on any result
    but ✗ the item activates and loses a charge, unless ``spare`` names a
    move on the sheet that avoids the loss; ✅ and ✔✔ add a further cost
    (chosen by the GM, or by the player on ✔✔); an ONGOING item keeps
    magical energy flowing until magic_stop. A magic weapon's further cost
    may be "the weapon is damaged" (item_damage)."""
    s = g.s
    item = magic_item(s, name)
    if spare is not None and spare not in sparing_moves(g):
        if spare in s.moves and spare in SPARING_MOVES:
            raise RulesError("not_available", "%s is not available during a One-Shot Campaign: it requires the use of Wounds" % spare)
        raise RulesError("bad_spare", "only %s on your sheet can spare the charge" % " or ".join(SPARING_MOVES))
    if level <= 1:
        if spare is not None or ongoing:
            raise RulesError("not_active", "on a miss the item does not activate")
        out["magic"] = "does not activate"
        return
    if spare is None and item[5] < 1:
        # Its charges went during the flip (a capacity lost, DW l.757): a depleted item "cannot
        # be used" (MD *Use a Magic Item*), so it does not activate and pays nothing.
        if ongoing:
            raise RulesError("depleted", "%s has no charge left: it cannot keep magic flowing" % name)
        out["magic"] = "does not activate: no charge left"
        g.event(name, "has no charge left: it does not activate")
        return
    if spare is None:
        item[5] -= 1
        g.event(name, "loses a charge:", item[5], "left")
    if ongoing:
        item[8] = 1
    out["magic"] = "activates"
    out["charges"] = item[5]
    if level in (2, 3):
        out["cost"] = ("the GM chooses" if level == 2 else "choose") + " a further cost"
        if item[1] == "weapon":
            out["cost"] += ", or the weapon is damaged"


def magic_stop(g, name):
    """The player declares that the flow of magical energy ceases."""
    item = magic_item(g.s, name)
    if not item[8]:
        raise RulesError("not_flowing", "no magical energy flows into %s" % name)
    item[8] = 0
    return {"item": name}


def magic_capacity(g, name, change):
    """Charge capacity gained or lost; below 1 "all the bonds that held the
    item together dissipate": the card leaves. In DW a charge goes with
    each point (l.757: "it loses a charge and its capacity for charges
    decreases by 1"; l.759: a gain takes off a black-side red card, which
    frees the charge it covered)."""
    s = g.s
    item = magic_item(s, name)
    _whole(change, "capacity change", -9, 9)
    cap = item[6] + change
    if cap < 1:
        s.gear.remove(item)
        g.event(name, "dissipates")
        return {"item": name, "capacity": 0, "gone": True}
    if cap > 9:
        raise RulesError("bad_number", "a capacity of at most 9")
    item[6] = cap
    if g.ed["capacity_moves_charges"]:
        item[5] = max(0, item[5] + change)
    if item[5] > cap:
        item[5] = cap
    return {"item": name, "capacity": cap, "charges": item[5], "gone": False}


def flowing(s):
    """Names of the items magical energy flows into (the ONGOING tag)."""
    return [item[0] for item in s.gear if item[8]]


def recharge(s):
    """Rest and Seek Help: "magic items that are not being used regain all
    charges, up to their charge capacity"."""
    for item in s.gear:
        if charged(item) and not item[8]:
            item[5] = item[6]


def require_idle_magic(g, what):
    """MD *The ONGOING tag*: while magic flows the character is "not
    considered *idle* for the purposes of the Rest and Seek Help moves":
    refused. DW runs them without Stamina (stamina_held)."""
    busy = flowing(g.s)
    if busy and g.ed["ongoing_rest"] == "refuse":
        raise RulesError("magic_flowing", "magical energy still flows into %s: stop it before you %s" % (", ".join(busy), what))


def stamina_held(g):
    """DW l.773: while flowing energy into an ONGOING item "you may not
    regain Stamina points while using the Rest or Seek Help moves"."""
    return g.ed["ongoing_rest"] == "no_stamina" and bool(flowing(g.s))


# -- the reduce step: armour slots and Good Cardio (MD *Armour*, *Good Cardio*)
GOOD_CARDIO = "Good Cardio"


def cardio_slots(s):
    """Good Cardio's slots: the first, and one more for each level the move
    went up from base (MD *Good Cardio*); none without the move."""
    if GOOD_CARDIO not in s.moves:
        return 0
    level = s.moves[GOOD_CARDIO]
    return 1 + level if level > 0 else 1


def cardio_free(s):
    return cardio_slots(s) - s.cardio


def armour_free(s):
    """(empty Harm-only slots, empty Harm-or-Wound slots) on the armour."""
    h = w = 0
    for item in s.gear:
        if item[1] == "armour":
            for i in range(len(item[2])):
                if item[3][i] == "-":
                    if item[2][i] == "h":
                        h += 1
                    else:
                        w += 1
    return h, w


def reduce_ways(game, power):
    """Every way this character can take ``power`` in the reduce step: each
    Wound / Harm / Stamina split of ``game.damage_ways`` (the edition's and
    campaign's), then the same with the armour taking as many of those
    tokens as its empty slots can ("the armour takes the Wound"), each also
    with Good Cardio's empty slots taking Stamina points. A list of
    ``damage`` argument dicts (power included), each with the Stamina it
    leaves as "stamina" (drop that key before sending)."""
    s = game.s
    hfree, wfree = armour_free(s)
    free = cardio_free(s)
    out = []
    for w, h, left in game.damage_ways(power):
        ways = [(0, 0)]
        aw = w if w < wfree else wfree
        ah = h if h < hfree + wfree - aw else hfree + wfree - aw
        if aw or ah:
            ways.append((aw, ah))
        for aw, ah in ways:
            args = {"power": power}
            for k, v in (("wounds", w), ("harm", h), ("armour_wounds", aw), ("armour_harm", ah)):
                if v:
                    args[k] = v
            args["stamina"] = left
            out.append(args)
            c = left if left < free else free
            if c > 0:
                more = dict(args)
                more["cardio"] = c
                more["stamina"] = left - c
                out.append(more)
    return out


def armour_takes(g, token):
    """Put a Harm ("h") or Wound ("w") token into an empty armour slot
    that takes it: a Harm fills a Harm-only slot before a Harm-or-Wound
    one, so the slots that can stop a Wound stay open for one."""
    s = g.s
    for want in (("h", "w") if token == "h" else ("w",)):
        for item in s.gear:
            if item[1] == "armour":
                slots, tokens = item[2], item[3]
                for i in range(len(slots)):
                    if slots[i] == want and tokens[i] == "-":
                        item[3] = tokens[:i] + token + tokens[i + 1:]
                        g.event("armour", item[0], "takes the", "Wound" if token == "w" else "Harm")
                        return item[0]
    raise RulesError("no_slot", "no armour slot is empty for a %s" % ("Wound" if token == "w" else "Harm token"))


def check_gear(item):
    """An item card as saved (FIELDS), or a RulesError saying what is
    wrong: slots only on armour, one token per slot and the right kind of
    token in it, damage 0-2, charges within capacity."""
    if not isinstance(item, list) or len(item) != len(FIELDS):
        raise RulesError("bad_item", "an item card has %d fields" % len(FIELDS))
    name, kind, slots, tokens, damage, charges, capacity, weight, flowing, power = item
    check_move_name(name)
    if kind not in KINDS:
        raise RulesError("bad_item", "an item is one of %s, not %r" % (", ".join(KINDS), kind))
    if kind == "shield":
        # A shield's slots field says what it avoids and its first effect.
        if slots not in ("h1", "h2", "w1", "w2") or tokens != "":
            raise RulesError("bad_item", "a shield avoids h (Harm) or w (Harm or Wound) from effect 1 or 2")
        slots = tokens = ""
    if not isinstance(slots, str) or len(slots) > 3 or (slots and kind != "armour"):
        raise RulesError("bad_item", "only armour has slots, at most 3")
    if not isinstance(tokens, str) or len(tokens) != len(slots):
        raise RulesError("bad_item", "one token place per armour slot")
    for i in range(len(slots)):
        if slots[i] not in "hw" or tokens[i] not in "-hw" or (tokens[i] == "w" and slots[i] != "w"):
            raise RulesError("bad_item", "a slot takes Harm (h) or Harm or Wound (w)")
    for n in (damage, charges, capacity, weight, flowing):
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise RulesError("bad_item", "item numbers are whole and 0 or more")
    if weight > 9:
        raise RulesError("bad_item", "an item counts as at most 9 items")
    if power not in ("",) + POWERS or (power and kind not in ("weapon", "magic")):
        raise RulesError("bad_item", "a weapon's or magic item's power is d4, d6 or d10")
    if flowing not in (0, 1) or (flowing and not charged(item)):
        raise RulesError("bad_item", "only a magic item has magical energy flowing into it")
    if damage > 2 or capacity > 9 or charges > capacity or (capacity and kind not in ("magic", "weapon")):
        raise RulesError("bad_item", "damage is 0-2, and only a magic item or weapon holds charges (0-9, within its capacity)")
    return item


def check_gear_list(items):
    """The item cards of a save, each checked."""
    if not isinstance(items, list) or len(items) > MAX_GEAR:
        raise RulesError("bad_item", "at most %d item cards" % MAX_GEAR)
    return [check_gear(item) for item in items]


def item_power(g, name, power):
    """A weapon's or magic item's power gauge goes up (or is set): MD *More
    Power*: "increased later on in the game via the moves Tales of a Weapon
    and Obsessive Contemplation"."""
    item = find(g.s, name)
    if item[1] not in ("weapon", "magic") or power not in POWERS:
        raise RulesError("bad_power", "a weapon or magic item has power d4, d6 or d10")
    item[9] = power
    return {"item": name, "power": power}


def contemplate(g, name, capacity=3):
    """MD *Obsessive Contemplation*: "When using a Precious Item that is just
    represented by a Pack card, swap the Pack card with a new blank Magic
    Item card and write a description and charge capacity on the new card"."""
    s = g.s
    if not s.precious:
        raise RulesError("no_pack", "Obsessive Contemplation needs a precious Pack card; you have none")
    s.precious -= 1
    out = gear_add(g, name, kind="magic", capacity=capacity)
    out["precious"] = s.precious
    return out


def attack_power(s, name):
    """The die a weapon rolls for attack power (reveal with item=NAME)."""
    item = find(s, name)
    if not item[9] or item[1] != "weapon":
        raise RulesError("bad_power", "%s has no attack power gauge" % name)
    return item[9]

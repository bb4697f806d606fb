"""The Gear & rings menus (item cards, Pack cards, Wealth, green rings)
and the choices a magic item's flip asks. Loaded by ui.py only when one of
them opens, so a board that never opens them pays no heap for them. The
rules are shared_rules/deck/gear.py and campaign.py: the rows ask the edition
and the campaign which of them exist."""

from shared_rules.deck.editions import edition
from deck.ui import finish_flip, flip_now
from menu_widgets import ROW_CHARS, Menu, NameEntry, NumberPick
from widgets import _wrap


def _reveal(u, name):
    u.load("deck.harm_menus").reveal(u, None, name)  # Hurt & recover's flows


def item_choices(u, again, crit, extra):
    """A magic item that activated: the charge is spent or spared by a move
    on the sheet that spares it, and the magic may keep flowing (ONGOING);
    the player says which (MD *Use a Magic Item*, *The ONGOING tag*).
    False when there is nothing to choose. A move the campaign makes
    unavailable (DW: Entreat the Blood-Bound in a one-shot) is not offered."""
    from shared_rules.deck.gear import charged, sparing_moves

    g = u.game
    f = g.s.flip
    if f["level"] <= 1 or not charged(_item(u, f["item"])):
        return False
    more = dict(extra or {}, _item=1)
    rows = []
    for spare in [None] + sparing_moves(g):
        for ongoing in (False, True):
            args = dict(more)
            if spare:
                args["spare"] = spare
            if ongoing:
                args["ongoing"] = True
            label = ("Spend a charge" if spare is None else spare[:24] + " spares it") + (", ONGOING" if ongoing else "")
            rows.append((label, (lambda args=args: finish_flip(u, again, crit, args))))
    u.push(Menu(u, f["item"][:16] + " activates", rows))
    return True


def _item(u, name):
    from shared_rules.deck.gear import find

    return find(u.game.s, name)


def gear_menu(u):
    """Item and Pack cards, and the edition's Wealth and green rings: the
    rows this edition and campaign have."""
    s = u.game.s
    ed = edition(s.edition)
    rows = [("Item cards (%d)" % len(s.gear), lambda: items_menu(u)),
            ("Write an item card", lambda: new_item(u)),
            ("Pack: %d, precious %d" % (s.pack, s.precious), lambda: pack_menu(u))]
    if ed["speed_tokens"] is not None:
        from shared_rules.deck.gear import speed

        rows.append(("Wealth: %d (Speed %d)" % (s.wealth, speed(u.game)), lambda: u.push(Menu(u, "Wealth tokens", [
            ("Gain 1 Wealth", lambda: u.run("wealth_gain", {"change": 1})),
            ("Spend 1 Wealth", lambda: u.run("wealth_gain", {"change": -1}))]))))
    rings = ed["green_rings"]
    if rings is not None:
        from shared_rules.deck.state import MAX_RINGS

        rows.append(("Green rings: %d" % s.rings, lambda: u.push(NumberPick(
            u, "Green rings your cards show", s.rings, 0, MAX_RINGS, lambda n: u.run("set_rings", {"rings": n})))))
    if s.campaign in ed["ring_campaigns"]:
        if rings == "envelopes":
            rows.append(("Open an envelope", lambda: envelope_menu(u)))
        elif rings == "level_cards":
            rows.append(("Take a level card (%d)" % len(s.level_cards), lambda: u.push(NameEntry(
                u, "Level card's name", lambda n: u.run("take_level_card", {"name": n})))))
            rows.append(("A new session begins", lambda: u.run("new_session", {})))
    u.push(Menu(u, "Gear & rings", rows))


def items_menu(u):
    from shared_rules.deck.gear import charged

    gear = u.game.s.gear
    if not gear:
        u.notice("No item cards", ["Write one with", "Write an item card."])
        return
    rows = []
    for it in gear:
        more = " %d/%d" % (it[5], it[6]) if charged(it) else (" " + it[3] if it[1] == "armour" else "")
        if it[4]:
            more += " dmg %d" % it[4]
        rows.append((it[0][:18] + " " + it[1] + more, (lambda n=it[0]: item_menu(u, n))))
    u.push(Menu(u, "Item cards", rows))


def item_menu(u, name):
    """What a player does with one item card; a magic weapon has the rows
    of a magic item and of a weapon."""
    from shared_rules.deck.gear import POWERS, charged

    it = _item(u, name)
    kind = it[1]
    rows = []
    if charged(it):
        rows.append(("Use it (Int flip)", lambda: flip_now(u, item=name)))
        if it[8]:
            rows.append(("Stop the magic flowing", lambda: u.run("magic_stop", {"name": name})))
        rows.append(("Capacity +1", lambda: u.run("magic_capacity", {"name": name, "change": 1})))
        rows.append(("Capacity -1", lambda: u.run("magic_capacity", {"name": name, "change": -1})))
    if kind == "shield":
        rows.append(("Block with it (Dex, FAST)", lambda: flip_now(u, item=name)))
    elif kind != "magic":
        rows.append(("Damage it (%d of 3)" % it[4], lambda: u.run("item_damage", {"name": name}, lambda r: r["destroyed"] and u.notice(
            "Destroyed", _wrap("%s and its red cards go back to the supply." % name)))))
    if kind == "weapon":
        rows.append(("Reveal its attack power", lambda: _reveal(u, name)))
    if kind in ("weapon", "magic"):
        rows.append(("Power: %s" % (it[9] or "none"), lambda: u.push(Menu(u, "Power of " + name[:14], [
            (p, (lambda p=p: u.run("item_power", {"name": name, "power": p}))) for p in POWERS]))))
    rows.append(("Drop it", lambda: u.push(Menu(u, "Drop " + name[:18] + "?", [
        ("No, keep it", lambda: None), ("Yes, drop it", lambda: u.run("gear_drop", {"name": name}))]))))
    u.push(Menu(u, name[:24], rows))


def new_item(u):
    """Write a new item card: its kind, what a shield avoids and its first
    effect (MD *Shields*), then its name."""
    from shared_rules.deck.gear import SHIELD_EFFECTS

    def named(args):
        u.push(NameEntry(u, "The card's name", lambda n: u.run("gear_add", dict(args, name=n))))

    def shield(avoids):
        u.push(Menu(u, "Its best result gives", [
            (SHIELD_EFFECTS[i][:ROW_CHARS], (lambda i=i: named({"kind": "shield", "avoids": avoids, "first": i + 1})))
            for i in (0, 1)]))

    u.push(Menu(u, "What kind of card?", [
        ("Item", lambda: named({"kind": "item"})),
        ("Weapon", lambda: named({"kind": "weapon"})),
        ("Armour", lambda: armour_slots(u, named)),
        ("Magic item (3 charges)", lambda: named({"kind": "magic"})),
        ("Magic weapon (3 charges)", lambda: named({"kind": "weapon", "capacity": 3})),
        ("Shield", lambda: u.push(Menu(u, "The shield avoids", [
            ("Harm", lambda: shield("harm")), ("Harm or a Wound", lambda: shield("wound"))])))]))


def armour_slots(u, named):
    """MD *Armour*: the slots drawn on the card, each taking a Harm token
    ("h") or a Harm or a Wound ("w"), the edition's starting armour first;
    then how many items it counts as (the pursuit's encumbrance)."""
    start = edition(u.game.s.edition)["starting_armour"]
    rows = []
    def weight(slots):  # MD's table: padded armour "counts as 2 items", full plate as 4
        u.push(NumberPick(u, "It counts as", 1, 1, 4, lambda n: named({"kind": "armour", "slots": slots,
                                                                        "weight": n}), "items"))

    for slots in [start] + [sl for sl in ("h", "hh", "w", "hw", "ww", "hhw", "www") if sl != start]:
        label = " + ".join(["Harm" if c == "h" else "Harm/Wound" for c in slots])
        rows.append((label + (" (start)" if slots == start else ""), (lambda slots=slots: weight(slots))))
    u.push(Menu(u, "Its slots take", rows))


def pack_menu(u):
    def gain(regular, precious):
        u.run("pack_gain", {"regular": regular, "precious": precious})

    u.push(Menu(u, "Pack cards", [
        ("Good Thing I Brought...", lambda: good_thing_flow(u)),
        ("Gain a Pack card", lambda: gain(1, 0)),
        ("Gain a precious one", lambda: gain(0, 1)),
        ("Hand a Pack card back", lambda: gain(-1, 0)),
        ("Hand a precious one back", lambda: gain(0, -1)),
        ("Obsessive Contemplation", lambda: u.push(NumberPick(
            u, "The magic item's capacity", 3, 1, 9, lambda cap: u.push(NameEntry(
                u, "The magic item's name", lambda n: u.run("contemplate", {"name": n, "capacity": cap}))))))]))


def good_thing_flow(u):
    """MD *Good Thing I Brought...*: 1 or 2 Pack cards; the item goes back
    in the backpack as an Item card, or is used up."""
    def cost(pack, precious):
        args = {"pack": pack, "precious": precious}
        u.push(Menu(u, "Back in the backpack?", [
            ("No, it is used up", lambda: u.run("good_thing", args)),
            ("Yes: name its item card", lambda: u.push(NameEntry(
                u, "The item's name", lambda n: u.run("good_thing", dict(args, keep=n)))))]))

    u.push(Menu(u, "It costs", [
        ("1 Pack card", lambda: cost(1, 0)), ("2 Pack cards", lambda: cost(2, 0)),
        ("1 precious", lambda: cost(0, 1)), ("1 Pack + 1 precious", lambda: cost(1, 1)),
        ("2 precious", lambda: cost(0, 2))]))


def envelope_menu(u):
    """MD *Green rings*: a move card out of an envelope the rings open."""
    from shared_rules.deck.campaign import ENVELOPES

    s = u.game.s
    rows = []
    for need, moves in ENVELOPES:
        for m in moves:
            if m not in s.unsealed:
                rows.append(("%s (%d ring%s)" % (m[:24], need, "s" if need > 1 else ""),
                             (lambda m=m: u.run("open_envelope", {"move": m}))))
    if not rows:
        u.notice("Envelopes empty", ["Every enveloped move", "card is out."])
        return
    u.push(Menu(u, "Open an envelope", rows))

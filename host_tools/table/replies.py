"""A device's replies in words, for the GM's console.

The words of a result (MISS, PARTIAL, SUCCESS, TRIUMPH and their notes) are
the device's own: shared_rules/deck/words.py says them for both, so the
console and the panel never disagree. Everything here is plain
text that may hold a device's own words; print it with markup off.
"""

from shared_rules.deck import flips as F
from shared_rules import systems
from shared_rules.deck.editions import edition

from shared_rules.deck.words import level_words


def title(word):
    return word[:1].upper() + word[1:] if isinstance(word, str) else str(word)


def rules_of(state):
    try:
        return edition((state or {}).get("edition") or "md")
    except Exception:  # an edition this host does not know: say things as md does
        return edition("md")


def cap_note(net, state=None):
    """'net 5: 3 cards, the most a flip takes' when the net asks for more
    cards than a flip turns over, else ''."""
    if not isinstance(net, int) or isinstance(net, bool):
        return ""
    most = rules_of(state)["max_cards"]
    if 1 + abs(net) > most:
        return "net %+d: %d cards, the most a flip takes" % (net, F.cards_for(net, most))
    return ""


def cards(ids):
    return ", ".join(str(c) for c in ids) if ids else "none"


def flip_view(name, view, state=None, attr=None):
    """An open flip (the reply of flip, choose, flashback, bump); ``attr``
    the attribute it was flipped for, if any."""
    lines = []
    suit = title(view.get("suit"))
    if attr:
        suit = "%s (%s)" % (title(attr), suit)
    head = "%s flips %s %+d: %s" % (name, suit, view.get("net") or 0, cards(view.get("cards", [])))
    if view.get("flashback"):
        head += " (a flashback)"
    lines.append(head)
    note = cap_note(view.get("net"), state)
    if note:
        lines.append(note)
    if view.get("phase") == "choose":
        lines.append("a tie that matters between %s: choose one (choose %s CARD)" % (cards(view.get("tied")), name))
    elif view.get("resolving") is not None:
        lines.append("card %s resolves it: %s" % (view["resolving"], level_words(view.get("level"))))
    return lines


def end_flip(name, r, state=None):
    lines = ["card %s resolves %s's flip: %s" % (r.get("resolving"), name, level_words(r.get("level")))]
    gains = []
    if r.get("xp"):
        gains.append("+%d XP" % r["xp"])
    if r.get("shadow"):
        gains.append("+%d %s for the GM" % (r["shadow"], rules_of(state)["gm_points"]))
    crit = r.get("crit")
    if crit == "declined":
        gains.append("critical success: reward declined")
    elif crit == "blessing":
        gains.append("critical success: Blessing %s from the supply" % r.get("blessing"))
    elif crit:
        gains.append("critical success: %s" % crit.replace("_", " "))
    if gains:
        lines.append(", ".join(gains))
    magic = item_words(r)
    if magic:
        lines.append(magic)
    return lines


def item_words(r):
    """A magic item's (or magic weapon's) use at the end of its flip: it
    activates or not, the charges left, the further cost."""
    if not r.get("magic"):
        return ""
    words = "the item " + r["magic"]
    if "charges" in r:
        words += " (%d charge%s left)" % (r["charges"], "" if r["charges"] == 1 else "s")
    if r.get("cost"):
        words += ": " + r["cost"]
    return words


def damage(name, r, state=None):
    taken = []
    if r.get("wounds"):
        rate = rules_of(state)["wound_rate"]
        taken.append("%d Wound%s (%s)" % (r["wounds"], "s" if r["wounds"] > 1 else "",
                                          "takes all of it" if rate == 0 else "%d each" % rate))
    if r.get("harm"):
        taken.append("%d Harm (%d each)" % (r["harm"], rules_of(state)["harm_rate"]))
    if r.get("armour"):
        taken.append("the armour takes %d of those token%s" % (r["armour"], "" if r["armour"] == 1 else "s"))
    if r.get("absorbed"):
        taken.append("%d absorbed as Exhaustion tokens" % r["absorbed"])
    left = r.get("stamina", 0)
    if left:
        taken.append("%d as Stamina: %d card%s to the Exhaustion pile" % (left, r.get("cards_lost", 0),
                                                                       "" if r.get("cards_lost") == 1 else "s"))
    elif not taken:
        taken.append("nothing")
    return ["%s takes %s attack power: %s" % (name, r.get("power"), "; ".join(taken))]


def take_wound(name, r, state=None):
    if r.get("armour"):
        return ["%s's armour (%s) takes the Wound" % (name, r["armour"])]
    card = r.get("card")
    if card:
        return ["%s takes a Wound: Wound card %s from the supply" % (name, card)]
    if (state or {}).get("incapacitated"):
        return ["%s takes a Wound" % name]  # the incapacitation is said below
    return ["%s takes a Wound token; no Wound card is left in the supply" % name]


def say(op, name, r, state=None):
    """Lines that say what one command did, from its reply."""
    if not isinstance(r, dict):
        return ["%s: %s %r" % (name, op, r)]
    system = r.get("system")
    if system in systems.KEYS and system != systems.DEFAULT:  # a result in its own system's words
        return ["%s: %s" % (name, systems.module(system, "words").say(op, {}, r))]
    if op in ("flip", "choose", "flashback", "bump"):
        return flip_view(name, r, state)
    if op == "end_flip":
        return end_flip(name, r, state)
    if op == "damage":
        return damage(name, r, state)
    if op == "take_wound":
        return take_wound(name, r, state)
    if op == "take_harm":
        return ["%s takes a Harm token: %s Harm, %s Wound tokens" % (name, r.get("harm"), r.get("wound_tokens"))]
    if op == "take_blessing":
        return ["%s takes Blessing %s from the supply" % (name, r.get("card"))]
    if op == "reveal":
        return ["attack power %s, revealed from %s's %s: %s" % (r.get("power"), name, r.get("pile"), cards(r.get("cards")))]
    if op == "lose_stamina":
        return ["%s loses Stamina: %s card%s to the Exhaustion pile" % (name, r.get("cards_lost"),
                                                                      "" if r.get("cards_lost") == 1 else "s")]
    if op == "breather":
        got = ["%d token%s" % (r.get("tokens", 0), "" if r.get("tokens") == 1 else "s")]
        if r.get("cards"):
            got.append("cards %s back to the discard pile" % cards(r["cards"]))
        return ["%s takes a Breather: %s Stamina back (%s)" % (name, r.get("regained"), ", ".join(got))]
    if op in ("rest", "seek_help"):
        what = "rests" if op == "rest" else "seeks help"
        lines = ["%s %s: cards back from Exhaustion: %s" % (name, what, cards(r.get("recovered")))]
        if "kept" in r:
            lines.append("kept in the Exhaustion pile: %s" % cards(r["kept"]))
        if r.get("wound_cards_returned"):
            lines.append("Wound cards back to the supply: %s" % cards(r["wound_cards_returned"]))
        if "wound_tokens" in r:
            lines.append("Wound tokens: %s" % r["wound_tokens"])
        if r.get("no_stamina"):
            lines.append("no Stamina regained: magic still flows into %s" % ", ".join(r["no_stamina"]))
        if r.get("say"):
            lines.append(r["say"])
        return lines
    if op == "reshuffle":
        return ["%s reshuffles: %s cards in the Deckahedron" % (name, r.get("draw"))]
    if op == "gain_xp":
        return []  # the change of XP says it
    if op == "mercy_flashback":
        return ["%s: a mercy flashback" % name]
    if op == "study":
        return ["%s studies under a master" % name]
    if op == "new_game":
        return ["%s starts a new character" % name]
    if op in ("minigame_start", "minigame_exhaust", "minigame_end"):
        return minigame(name, r)
    if op == "set_edition":
        return ["%s plays %s, a %s campaign" % (name, rules_of(r)["name"], r.get("campaign"))]
    if op == "set_name":
        return ["the device is now named %s" % r.get("name")]
    if op == "press":
        return ["%s's screen now shows: %s" % (name, r.get("screen"))]
    if op == "item_damage":
        if r.get("destroyed"):
            return ["%s's %s is destroyed (third damage)" % (name, r.get("item"))]
        return ["%s's %s is damaged: %s red card%s on it" % (name, r.get("item"), r.get("damage"), "" if r.get("damage") == 1 else "s")]
    if op == "gear_add":
        item = r.get("item") or ["?"]
        if len(item) > 6 and item[1] == "weapon" and item[6]:
            return ["%s has a new item card: %s, a magic weapon (%d charges)" % (name, item[0], item[6])]
        return ["%s has a new item card: %s" % (name, item[0])]
    if op == "spotlight":
        return ["the spotlight moves on from %s" % name]
    return plain(r)


def minigame(name, r):
    kinds = {"pick_locks": "Pick Locks", "magic": "Fundamental Magic"}
    lines = ["%s's %s: cards %s" % (name, kinds.get(r.get("kind"), r.get("kind")), cards(r.get("cards")))]
    if r.get("result"):
        lines.append(r["result"])
    elif r.get("solution") is not None:
        lines.append("they line up: end it as a success (minigame %s done)" % name)
    else:
        lines.append("they do not line up yet: swap one (minigame %s swap CARD) or give up (minigame %s abandon)"
                     % (name, name))
    return lines


def plain(r, indent=""):
    """Any reply as 'key: value' lines (nested dicts indented)."""
    lines = []
    for k in sorted(r):
        v = r[k]
        if k == "events":
            continue
        if isinstance(v, dict):
            lines.append("%s%s:" % (indent, k))
            lines += plain(v, indent + "  ")
        elif isinstance(v, (list, tuple)):
            lines.append("%s%s: %s" % (indent, k, cards(v) if v else "-"))
        else:
            lines.append("%s%s: %s" % (indent, k, "-" if v is None or v == "" else v))
    return lines


def _words(state):
    """Another system's state in its own words (the Deckahedron's: none)."""
    system = state.get("system", systems.DEFAULT)
    return systems.module(system, "words").describe(state) if system != systems.DEFAULT else []


# What a change of the state means; piles that every flip moves are left out.
def changes(name, before, after):
    """Lines about what changed in a player's state: tokens, XP, the
    supply cards held, the sheet, incapacitation."""
    if not before or not after:
        return []
    system = after.get("system", systems.DEFAULT)
    if before.get("system", systems.DEFAULT) != system:  # a new character of another system
        return ["%s now plays %s" % (name, systems.name(system))] + [
            "%s: %s" % (name, w) for w in _words(after)]
    if system != systems.DEFAULT:  # its own words: the lines that changed
        said = _words(before)
        return ["%s: %s" % (name, w) for w in _words(after) if w not in said]
    out = []
    tb, ta = before.get("tokens") or {}, after.get("tokens") or {}
    for key, label in (("exhaustion", "Exhaustion tokens"), ("harm", "Harm"), ("wound", "Wound tokens")):
        if tb.get(key) != ta.get(key):
            out.append("%s %s -> %s" % (label, tb.get(key), ta.get(key)))
    if before.get("exhaustion") != after.get("exhaustion"):
        out.append("Exhaustion pile %s -> %s cards" % (before.get("exhaustion"), after.get("exhaustion")))
    if before.get("xp") != after.get("xp"):
        out.append("XP %s -> %s" % (before.get("xp"), after.get("xp")))
    hb, ha = set(before.get("held") or []), set(after.get("held") or [])
    if ha - hb:
        out.append("now holds %s" % cards(sorted(ha - hb)))
    if hb - ha:
        out.append("gave back %s" % cards(sorted(hb - ha)))
    for key in ("attrs", "moves"):
        b, a = before.get(key) or {}, after.get(key) or {}
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                out.append("%s %s -> %s" % (k, b.get(k, "-"), a.get(k, "-")))
    lines = ["%s: %s" % (name, ", ".join(out))] if out else []
    if after.get("incapacitated") and not before.get("incapacitated"):
        lines.append("%s is now INCAPACITATED (%s)" % (name, after["incapacitated"]))
    elif before.get("incapacitated") and not after.get("incapacitated"):
        lines.append("%s is no longer incapacitated" % name)
    return lines

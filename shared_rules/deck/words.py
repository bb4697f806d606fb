"""The Deckahedron in words, for the host: a command in one sentence
(``say``: the console's line and the session record's entry), a player's
state in short lines (``describe``) and what changed in it (``changes``),
and what a sane summary is (``summary_problem``): the same doors as every
system's words.py (docs/systems.md).

The result words themselves are the device's (shared_rules/deck/results.py):
the device imports only those, never this module (heap). Portable, like the
rest of shared_rules/.
"""

from shared_rules.deck import cards as C
from shared_rules.deck import flips as F
from shared_rules.deck.editions import CAMPAIGNS, EDITION_KEYS, edition
from shared_rules.deck.results import NOTES, WORDS

SUITS = {"str": "Strength", "dex": "Dexterity", "con": "Constitution", "int": "Intelligence",
         "wis": "Wisdom", "cha": "Charisma"}
MINIGAMES = {"pick_locks": "Pick Locks", "magic": "Fundamental Magic"}


def level_words(level):
    """'SUCCESS (success with a complication)' for a level 1..4."""
    if level in WORDS:
        return "%s (%s)" % (WORDS[level], NOTES[level])
    return "no result yet (level %r)" % (level,)


def title(word):
    return word[:1].upper() + word[1:] if isinstance(word, str) else str(word)


def cards(ids):
    return ", ".join(str(c) for c in ids) if ids else "none"


def _s(n):
    return "" if n == 1 else "s"


def rules_of(state):
    """The edition a summary plays (md for one this code does not know)."""
    try:
        return edition((state or {}).get("edition") or "md")
    except Exception:
        return edition("md")


def cap_note(net, state=None):
    """'net +5: 3 cards, the most a flip takes' when the net asks for more
    cards than a flip turns over, else ''."""
    if not isinstance(net, int) or isinstance(net, bool):
        return ""
    most = rules_of(state)["max_cards"]
    if 1 + abs(net) > most:
        return "net %+d: %d cards, the most a flip takes" % (net, F.cards_for(net, most))
    return ""


def flip_words(view, state=None, attr=None, team=""):
    """An open flip: 'Strength (Anvil) +1: 3, 12; card 12 resolves it:
    SUCCESS (...)', or the tie to choose from; ``attr`` what it was flipped
    for (a suit alone says the suit), ``team`` its part in a teamwork flip."""
    suit = title(view.get("suit") or "?")
    what = "%s (%s)" % (SUITS.get(attr, title(attr)), suit) if attr else suit
    text = "%s %+d%s: %s" % (what, view.get("net") or 0, team, cards(view.get("cards")))
    if view.get("flashback"):
        text += " (a flashback)"
    note = cap_note(view.get("net"), state)
    if note:
        text += "; " + note
    if view.get("phase") == "choose":
        text += "; a tie that matters between %s: choose one" % cards(view.get("tied"))
    elif view.get("resolving") is not None:
        text += "; card %s resolves it: %s" % (view["resolving"], level_words(view.get("level")))
    return text


def end_words(r, state=None, flip=None):
    """A flip's end: the resolving card and the result, then what it
    gives (``end_gains``); ``flip`` the flip it ends (its cards), when known."""
    shown = " (%s)" % cards(flip.get("cards")) if flip and flip.get("cards") else ""
    return ", ".join(["ends the flip%s, resolved by %s: %s" % (shown, r.get("resolving"), level_words(r.get("level")))] +
                     end_gains(r, state))


def end_gains(r, state=None):
    """What a flip's end gives: XP, the GM's points, the critical success,
    a magic item's use."""
    gains = []
    if r.get("xp"):
        gains.append("+%d XP" % r["xp"])
    if r.get("shadow"):
        gains.append("%s +%d" % (rules_of(state)["gm_points"], r["shadow"]))
    crit = r.get("crit")
    if crit == "declined":
        gains.append("critical success: reward declined")
    elif crit == "blessing":
        gains.append("critical success: Blessing %s from the supply" % r.get("blessing"))
    elif crit:
        gains.append("critical success: %s" % crit.replace("_", " "))
    magic = item_words(r)
    if magic:
        gains.append(magic)
    return gains


def item_words(r):
    """A magic item's (or magic weapon's) use at the end of its flip: it
    activates or not, the charges left, the further cost."""
    if not r.get("magic"):
        return ""
    words = "the item " + r["magic"]
    if "charges" in r:
        words += " (%d charge%s left)" % (r["charges"], _s(r["charges"]))
    if r.get("cost"):
        words += ": " + r["cost"]
    return words


def _count(value):
    return len(value) if isinstance(value, list) else (value or 0)


def damage_words(r, state=None):
    rules = rules_of(state)
    taken = []
    if r.get("absorbed"):
        taken.append("%d absorbed as Exhaustion tokens" % r["absorbed"])
    wounds = _count(r.get("wounds"))
    if wounds:
        rate = rules["wound_rate"]
        taken.append("%d Wound%s (%s)" % (wounds, _s(wounds), "takes all of it" if rate == 0 else "%d each" % rate))
    if r.get("harm"):
        taken.append("%d Harm (%d each)" % (_count(r["harm"]), rules["harm_rate"]))
    if r.get("armour"):
        taken.append("the armour takes %d of those token%s" % (r["armour"], _s(r["armour"])))
    lost = r.get("cards_lost", 0)
    if r.get("stamina"):
        taken.append("%d Stamina lost: %d card%s to the Exhaustion pile" % (r["stamina"], _count(lost), _s(_count(lost))))
    return "takes %s damage: %s" % (r.get("power"), "; ".join(taken) or "nothing")


def wound_words(r, state=None):
    if r.get("armour"):
        return "takes the Wound on the armour (%s)" % r["armour"]
    if r.get("card"):
        return "takes a Wound: Wound card %s from the supply" % r["card"]
    if (state or {}).get("incapacitated"):
        return "takes a Wound"  # the incapacitation is said with what changed
    return "takes a Wound token; no Wound card is left in the supply"


def recovery_words(op, r):
    """A Rest or Seek Help: the cards back, those kept, Wounds healed, and
    an ONGOING item's magic that keeps the Stamina away (DW)."""
    said = ["cards back from Exhaustion: %s" % cards(r.get("recovered"))]
    if r.get("regained"):
        said.insert(0, "%s Stamina regained" % r["regained"])
    if "kept" in r:
        said.append("kept in the Exhaustion pile: %s" % cards(r["kept"]))
    if r.get("wound_cards_returned"):
        said.append("Wound cards back to the supply: %s" % cards(r["wound_cards_returned"]))
    if "wound_tokens" in r:
        said.append("Wound tokens: %s" % r["wound_tokens"])
    if r.get("no_stamina"):
        said.append("no Stamina regained, magic still flows into %s" % ", ".join(r["no_stamina"]))
    if r.get("say"):
        said.append(r["say"])
    return "%s: %s" % ("rests" if op == "rest" else "seeks help", "; ".join(said))


def minigame_words(r):
    text = "plays %s: cards %s" % (MINIGAMES.get(r.get("kind"), r.get("kind")), cards(r.get("cards")))
    if r.get("result"):
        return text + "; " + r["result"]
    if r.get("solution") is not None:
        return text + "; they line up: end it as a success (minigame NAME done)"
    return text + "; they do not line up yet: swap one (minigame NAME swap CARD) or give up (minigame NAME abandon)"


def gear_words(r):
    item = r.get("item") or ["?"]
    if len(item) > 6 and item[1] == "weapon" and item[6]:
        return "has a new item card: %s, a magic weapon (%d charges)" % (item[0], item[6])
    return "has a new item card: %s" % item[0]


def say(op, args, result, state=None):
    """One sentence about a command and its result: the console's line and
    the record's entry, said of the player without naming them ('takes a
    Wound ...': the console puts the name first). ``state`` (the player's
    summary, when known) says the edition's own words."""
    a = args if isinstance(args, dict) else {}
    r = result if isinstance(result, dict) else {}
    if op in ("flip", "choose", "flashback", "bump"):
        attr = (a.get("attr") or a.get("item")) if op == "flip" else None  # an item's flip names the item
        lead = {"flip": "flips", "choose": "chooses %s to resolve the tie of" % a.get("card"),
                "flashback": "spends 1 XP on a flashback: flips", "bump": "spends 1 XP to bump the result of"}[op]
        team = {"lead": " leading a teamwork flip", "support": " in support of a teamwork flip"}.get(a.get("team"), "")
        view = dict(r, suit=r.get("suit") or a.get("suit"), net=r.get("net", a.get("net")))
        return "%s %s" % (lead, flip_words(view, state, attr, team))
    if op == "end_flip":
        flip = r.get("flip") if isinstance(r.get("flip"), dict) else None
        if a.get("resolved") is False:  # a teamwork supporter or lead whose card was not the best
            return "ends a teamwork flip (%s): another player's card resolved it" % cards((flip or {}).get("cards"))
        return end_words(r, state, flip)
    if op == "decline":  # the device's answer to an ask: no rules command
        return ("declines the GM's ask" if r.get("why", a.get("why")) != "refused"
                else "could not flip as the GM asked: the rules refused it")
    if op == "damage":
        return damage_words(dict(r, power=r.get("power", a.get("power"))), state)
    if op == "take_wound":
        return wound_words(r, state)
    if op == "take_harm":
        return "takes a Harm token: %s Harm, %s Wound tokens" % (r.get("harm"), r.get("wound_tokens"))
    if op == "take_blessing":
        return "takes Blessing %s from the supply" % r.get("card")
    if op == "reveal":
        return "reveals attack power %s from the %s: %s" % (r.get("power"), r.get("pile"), cards(r.get("cards")))
    if op == "lose_stamina":
        return "loses Stamina: %s card%s to the Exhaustion pile" % (r.get("cards_lost"), _s(r.get("cards_lost")))
    if op == "breather":
        got = ["%d token%s" % (r.get("tokens", 0), _s(r.get("tokens")))]
        if r.get("cards"):
            got.append("cards %s back to the discard pile" % cards(r["cards"]))
        return "takes a Breather: %s Stamina back (%s)" % (r.get("regained", 0), ", ".join(got))
    if op in ("rest", "seek_help"):
        return recovery_words(op, r)
    if op == "reshuffle":
        return "reshuffles: %s cards in the Deckahedron" % r.get("draw")
    if op == "gain_xp":
        return "gains %s XP" % a.get("n", 1)
    if op == "set_attr":
        return "sets %s to %s" % (SUITS.get(a.get("attr"), a.get("attr")), title(a.get("suit")))
    if op == "set_move":
        return "writes the move %s at %s" % (a.get("name"), a.get("level", "base"))
    if op == "revive":
        return "is revived by the GM"
    if op == "mercy_flashback":
        return "takes a mercy flashback"
    if op == "study":
        return "studies under a master"
    if op in ("minigame_start", "minigame_exhaust", "minigame_end"):
        return minigame_words(r)
    if op == "set_edition":
        return "plays %s, a %s campaign" % (rules_of(r)["name"], r.get("campaign"))
    if op == "item_damage":
        if r.get("destroyed"):
            return "has %s destroyed (third damage)" % r.get("item")
        return "has %s damaged: %s red card%s on it" % (r.get("item"), r.get("damage"), _s(r.get("damage")))
    if op == "gear_add":
        return gear_words(r)
    if op == "spotlight":
        return "passes the spotlight on"
    if op == "supply_sync":
        return "learns which supply cards the others hold: %s" % cards(a.get("elsewhere"))
    words = "does " + op
    if a:
        words += " " + " ".join("%s=%s" % (k, a[k]) for k in sorted(a))
    shown = [k for k in sorted(r) if k not in ("events", "digest")]
    if shown:
        words += ": " + ", ".join("%s %s" % (k, cards(r[k]) if isinstance(r[k], list) else r[k]) for k in shown)
    return words


def describe(summary):
    """A player's state in short lines: edition, piles, XP, tokens, the
    supply cards held, incapacitation."""
    s = summary or {}
    tokens = s.get("tokens") or {}
    out = ["%s, %s campaign" % (rules_of(s)["label"], s.get("campaign", "oneshot")),
           "Deck %s, discard %s, exhausted %s" % (s.get("draw", "?"), s.get("discard", "?"), s.get("exhaustion", "?")),
           "XP %s  Harm %s  Wound %s  Exhaustion %s" % (s.get("xp", "?"), tokens.get("harm", "?"),
                                                      tokens.get("wound", "?"), tokens.get("exhaustion", "?"))]
    if s.get("held"):
        out.append("Holds %s" % cards(s["held"]))
    if s.get("incapacitated"):
        out.append("INCAPACITATED (%s)" % s["incapacitated"])
    return out


def changes(before, after):
    """What a command changed in a player's state, as short phrases:
    tokens, piles, XP, the supply cards held, the sheet, incapacitation
    (the piles every flip moves are left out)."""
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
    if after.get("incapacitated") and not before.get("incapacitated"):
        out.append("is now INCAPACITATED (%s)" % after["incapacitated"])
    elif before.get("incapacitated") and not after.get("incapacitated"):
        out.append("is no longer incapacitated")
    return out


# -- a summary from a device -------------------------------------------------------


def _short(value, limit=40):
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _first(*reasons):
    for r in reasons:
        if r:
            return r
    return ""


def cards_problem(what, value):
    if not isinstance(value, list):
        return "%s is not a list: %s" % (what, _short(value))
    for cid in value:
        if not isinstance(cid, str) or cid not in C.CARDS:
            return "%s has an unknown card id %s" % (what, _short(cid))
    return ""


def _unless(sound, form, what, value):
    return "" if sound else form % (what, _short(value))


def card_problem(what, value, none_ok=True):
    return _unless((value is None and none_ok) or (isinstance(value, str) and value in C.CARDS),
                   "%s is an unknown card id %s", what, value)


def level_problem(what, value, none_ok=True):
    return _unless((value is None and none_ok) or (isinstance(value, int) and not isinstance(value, bool)
                                                   and 1 <= value <= 4), "%s is not a level 1 to 4: %s", what, value)


def flip_problem(what, flip):
    if flip is None:
        return ""
    if not isinstance(flip, dict):
        return "%s is not an object: %s" % (what, _short(flip))
    suit = flip.get("suit")
    if suit is not None and suit not in C.SUITS:
        return "%s suit is unknown: %s" % (what, _short(suit))
    net = flip.get("net", 0)
    if net is not None and not (isinstance(net, int) and not isinstance(net, bool)):
        return "%s net is not a number: %s" % (what, _short(net))
    return _first(level_problem(what + " level", flip.get("level")),
                  card_problem(what + " resolving card", flip.get("resolving")),
                  cards_problem(what + " cards", flip.get("cards", [])),
                  cards_problem(what + " tied cards", flip.get("tied", []) or []))


def summary_problem(summary):
    """"" when a Deckahedron summary from a device is sound, else one line
    why (the hub checks what every system's carries: game id, count, name)."""
    s = summary
    if not isinstance(s, dict):
        return "state is not an object: %s" % _short(s)
    if s.get("edition") not in EDITION_KEYS:
        return "state's edition is unknown: %s" % _short(s.get("edition"))
    if s.get("campaign", "oneshot") not in CAMPAIGNS:
        return "state's campaign is unknown: %s" % _short(s.get("campaign"))
    for key in ("draw", "discard", "exhaustion", "xp", "shadow", "count"):
        if not _whole(s.get(key, 0)):
            return "state's %s is not a whole number: %s" % (key, _short(s.get(key)))
    tokens = s.get("tokens", {})
    if not isinstance(tokens, dict) or not all(_whole(v) for v in tokens.values()):
        return "state's tokens are not whole numbers: %s" % _short(tokens)
    for key in ("supply", "held", "table", "exhaustion_face_up", "elsewhere"):
        if key in s:
            r = cards_problem("state's " + key, s[key])
            if r:
                return r
    incapacitated = s.get("incapacitated", "") or ""
    if not isinstance(incapacitated, str):
        return "state's incapacitated is not text: %s" % _short(incapacitated)
    return flip_problem("state's flip", s.get("flip"))

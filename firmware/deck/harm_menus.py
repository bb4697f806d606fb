"""The Deckahedron's harm and recovery flows (Menu > Hurt & recover, and a
weapon's revealed power): taking damage and its Four Ds reduce step, a
Breather, Rest (with Sharpen and Stitch), Seek Help. Loaded when one is
chosen, dropped at home with the menus (app.RELEASABLE).
"""

from shared_rules.deck import cards as C
from shared_rules.deck.editions import edition

from menu_widgets import ROW_CHARS, Menu, NumberPick, Pick
from widgets import _wrap


def reveal(u, kind, item=None):
    def then(result):
        u.last_power = result["power"]
        damage_ways(u, result["power"], "Revealed %d" % result["power"])
    u.run("reveal", {"item": item} if item else {"kind": kind}, then)


def damage_flow(u):
    u.push(NumberPick(u, "Attack power", u.last_power, 0, 40, lambda n: damage_ways(u, n, "Attack power %d" % n)))


def _split_label(w, aw, h, ah, c, st, wound, harm, stamina):
    parts = []
    for n, what in ((w, "%d" + wound), (aw, "armour %d" + wound), (h, "%d" + harm), (ah, "armour %d" + harm),
                    (c, "Cardio %d")):
        if n:
            parts.append(what % n)
    return " + ".join(parts) + (" + %d" + stamina) % st


def damage_ways(u, power, title):
    """The reduce step of the Four Ds: every way the engine allows (its
    Wound / Harm / Stamina splits, the armour's empty slots taking tokens,
    Good Cardio's taking Stamina), the player's choice."""
    from shared_rules.deck.gear import reduce_ways

    u.last_power = power
    one_wound = not edition(u.game.s.edition)["wound_rate"]
    items = []
    for way in reduce_ways(u.game, power):
        args = dict(way)
        st = args.pop("stamina")
        w, h = args.get("wounds", 0), args.get("harm", 0)
        aw, ah, c = args.get("armour_wounds", 0), args.get("armour_harm", 0), args.get("cardio", 0)
        if not (w or h or c):
            label = "All as Stamina (%d)" % st
        elif w and not h and not st and one_wound:
            label = "One Wound takes it all" + (" (armour)" if aw else "")
        else:
            label = _split_label(w - aw, aw, h - ah, ah, c, st, " Wound", " Harm", " Stamina")
            if len(label) > ROW_CHARS:  # the long ones in the footer's letters (Help explains them)
                label = _split_label(w - aw, aw, h - ah, ah, c, st, "W", "H", " St")
        items.append((label, (lambda args=args: u.run("damage", args))))
    u.push(Menu(u, title + ": take it as", items))


def _exh_label(g, e):
    if not e[1]:
        return "face-down card"
    lv = C.CARDS[e[0]].levels
    return "%s  %s" % (e[0], " ".join(edition(g.s.edition)["level_ascii"][k - 1] for k in lv))


def breather_flow(u):
    """MD *Taking a Breather*: the player picks tokens and cards, up to the
    edition's maximum; face-down cards are taken blind where the edition
    says so."""
    g = u.game
    cap = edition(g.s.edition)["breather_max"]
    blind = edition(g.s.edition)["breather_blind_facedown"]
    rows = [("Exhaustion token", "t%d" % i) for i in range(g.s.exh_tokens)]
    for e in g.s.exhaustion:
        if e[1]:
            rows.append((_exh_label(g, e), "c" + e[0]))
        elif not blind:  # DW: "may choose any cards"
            rows.append((e[0] + " (face-down)", "c" + e[0]))
        else:
            rows.append(("face-down, taken blind", "f%d" % len(rows)))
    if not rows:
        u.notice("Nothing to regain", ["No Exhaustion tokens", "or cards."])
        return

    def go(keys):
        u.run("breather", {"tokens": len([k for k in keys if k[0] == "t"]),
                           "cards": [k[1:] for k in keys if k[0] == "c"],
                           "facedown": len([k for k in keys if k[0] == "f"])})

    u.push(Pick(u, "Breather: regain up to %d" % cap, rows, 1, cap, "Regain %d Stamina", go))


def _keep_then(u, title, count, run):
    """Rest and Seek Help keep ``count`` Exhaustion cards: the player picks
    them when there are more than that (MD *Resting*, *Seek Help*)."""
    g = u.game
    if len(g.s.exhaustion) <= count:
        u.push(Menu(u, title, [("Go ahead", lambda: run(None)), ("Not yet", lambda: None)]))
        return
    rows = [(_exh_label(g, e), e[0]) for e in g.s.exhaustion]
    u.push(Pick(u, "%s: keep %d card%s" % (title, count, "s" if count != 1 else ""), rows, count, count,
                "Keep these %d, go", run))


def rest_flow(u):
    """MD *Resting*, with *Sharpen and Stitch* first when an item is damaged
    and a Pack card is there to pay for its repair."""
    g = u.game
    damaged = [(it[0][:24], it[0]) for it in g.s.gear if it[4]]
    packs = g.s.pack + g.s.precious
    if damaged and packs:
        u.push(Pick(u, "Sharpen & Stitch: 1 Pack each", damaged, 0, min(packs, len(damaged)),
                    "Repair %d, then rest", lambda names: _rest(u, names)))
        return
    _rest(u, None)


def _rest(u, sharpen):
    def run(keep):
        args = {"keep": keep} if keep is not None else {}
        if sharpen:
            args["sharpen"] = sharpen
        u.run("rest", args, lambda r: _recovered(u, "Rested", r, "Rested."))

    _keep_then(u, "Rest", u.game.keep_count("rest"), run)


def _recovered(u, title, r, said):
    """Rest's and Seek Help's notice; DW (l.773): no Stamina came back while
    an ONGOING item's magic flows."""
    said = r.get("say", said)
    if r.get("no_stamina"):
        said = "No Stamina back: magic flows into %s. %s" % (", ".join(r["no_stamina"]), said)
    u.notice(title, _wrap(said))


def seek_help_flow(u):
    g = u.game

    def ask(hearth):
        def run(keep):
            args = {"hearth": True} if hearth else {}
            if keep is not None:
                args["keep"] = keep
            u.run("seek_help", args, lambda r: _recovered(u, "Helped", r, "You are looked after."))
        _keep_then(u, "Seek Help", g.keep_count("seek_help"), run)

    items = [("Seek Help", lambda: ask(False))]
    if edition(g.s.edition)["hearth_returns_wound_tokens"]:
        items.append(("Seek Help at The Hearth", lambda: ask(True)))
    items.append(("Not yet", lambda: None))
    u.push(Menu(u, "Seek Help", items))

"""The Deckahedron's main menu and the flows it opens (damage, rest,
breather, study, the sheet, pursuit and its rounds, the mini-games'
screen...): imported when the menu first opens (or a pursuit round or a
mini-game begins), so a board that boots and flips does not keep them on
its heap (ui.py holds the screens every press needs).
"""

from shared_rules.deck import cards as C
from shared_rules.deck.editions import EDITION_KEYS, CAMPAIGNS, edition
from shared_rules.deck.state import ATTRS, MOVE_LEVELS

from deck.ui import flip_now
from menu_widgets import MENU_HELP, ROW_CHARS, Menu, NameEntry, NumberPick, Pick, Shown, confirm_new, help_pages
from widgets import _wrap


class MainMenu(Menu):
    """Grouped, the most used first: the last flip and the sheet are the
    first two rows (C B, C DOWN B from home)."""

    def __init__(self, ui):
        g = ui.game
        if g is None:
            items = [("New character", lambda: confirm_new(ui)), ("Help", lambda: help_menu(ui))]
            Menu.__init__(self, ui, "No game", items)
            return
        sub = lambda title, rows: (title, lambda: ui.push(Menu(ui, title, rows())))  # noqa: E731
        items = [
            ("Last flip", lambda: show_last(ui)),
            ("Character sheet", lambda: ui.push(Sheet(ui))),
            sub("Hurt & recover", lambda: [
                ("Take damage", lambda: damage_flow(ui)),
                ("Reveal attack power", lambda: ui.push(Menu(ui, "Reveal", [
                    ("1d4 (triangle)", lambda: reveal(ui, "d4")),
                    ("1d6 (square)", lambda: reveal(ui, "d6")),
                    ("1d10 (both)", lambda: reveal(ui, "d10"))]))),
                ("Take a Breather", lambda: breather_flow(ui)),
                ("Rest", lambda: rest_flow(ui)),
                ("Seek Help", lambda: seek_help_flow(ui)),
                ("Take a Wound", lambda: ui.run("take_wound", {}))]),
            sub("Special flips", lambda: [
                ("Flip with a move", lambda: choose_move(ui)),
                ("FAST flip (miss: +%d)" % edition(g.s.edition)["fast_miss_points"], lambda: flip_now(ui, fast=True)),
                ("Flip vs a player", lambda: flip_now(ui, pvp=True)),
                ("Teamwork flip", lambda: ui.push(Menu(ui, "Teamwork", [
                    ("Lead (your attr)", lambda: flip_now(ui, "lead")),
                    ("Support (1 Anvil)", lambda: flip_now(ui, "support"))]))),
                ("Odds of next flip", lambda: _show_odds(ui, g.s.attrs[ui.attr], ui.net))] + ([
                ("UNENCUMBERED flip", lambda: flip_now(ui, unencumbered=True))]
                if edition(g.s.edition)["speed_tokens"] is not None else []) + [
                ("Pass the spotlight", lambda: ui.run("spotlight", {}, lambda r: ui.notice(
                    "Spotlight passed", ["A new moment: one FAST", "move may come again."])))]),
            sub("XP & cards", lambda: [
                ("Study Under a Master", lambda: study_flow(ui)),
                ("Mercy Flashback (1 XP)", lambda: ui.run("mercy_flashback", {})),
                ("Take a Blessing", lambda: ui.run("take_blessing", {})),
                ("Reshuffle", lambda: ui.run("reshuffle", {}))]),
            ("Gear & rings", lambda: gear_menus(ui)),
            sub("Mini-games", lambda: [
                ("Pick Locks (3)", lambda: ui.run("minigame_start", {"kind": "pick_locks"})),
                ("Fundamental Magic (4)", lambda: ui.run("minigame_start", {"kind": "magic"})),
                ("Pursuit", lambda: pursuit_flow(ui))]),
            ("Help & settings", lambda: help_menu(ui, [
                ("Edition", lambda: edition_menu(ui)),
                ("Campaign length", lambda: ui.push(Menu(ui, "Campaign", [
                    (("* " if c == g.s.campaign else "  ") + c, (lambda c=c: ui.run("set_edition", {"campaign": c})))
                    for c in CAMPAIGNS]))),
                ("New character", lambda: confirm_new(ui))])),
        ]
        Menu.__init__(self, ui, "Menu", items)


def gear_menus(u):
    from deck.gear_menus import gear_menu  # loaded when opened: most boards rarely need it

    gear_menu(u)


def show_last(u):
    if u.last is None:
        u.notice("No flip yet", ["Flip with B at home."])
    else:
        u.push(Shown(u, u.last))


def edition_menu(u):
    now = u.game.s.edition

    def ask(k):
        if k == now:
            return
        u.push(Menu(u, "Switch rules mid-game?", [
            ("No, keep " + edition(now)["label"], lambda: None),
            ("Yes: " + edition(k)["label"], lambda: u.run("set_edition", {"edition_key": k}))]))

    u.push(Menu(u, "Edition (* = now)", [
        (("* " if k == now else "  ") + edition(k)["name"], (lambda k=k: ask(k))) for k in EDITION_KEYS]))


def choose_move(u):
    moves = sorted(u.game.s.moves)
    items = [("(no move)", lambda: setattr(u, "move", None))]
    for m in moves:
        items.append(("%s %+d" % (m[:16], u.game.s.moves[m]), (lambda m=m: setattr(u, "move", m))))
    u.push(Menu(u, "Flip with which move?", items))


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


def study_flow(u):
    moves = sorted(u.game.s.moves)
    items = [(m[:20], (lambda m=m: u.run("study", {"move": m}))) for m in moves]
    items.append(("A new move card", lambda: u.push(NameEntry(u, "New move's name", lambda name: u.run("study", {"move": name})))))
    u.push(Menu(u, "Study (2 XP)", items))


def pursuit_flow(u):
    """MD *The Pursuit Mini-game*: the rabbit's flip comes from Str + Dex
    minus encumbrance (the Item and Pack cards on the sheet: the engine's
    table); best 3 of 5 rounds, kept in the save (pursuit_* commands)."""
    if u.game.s.pursuit is not None:
        u.push(PursuitMenu(u))
        return
    u.run("pursuit_start", {}, lambda r: u.push(PursuitMenu(u)))


class PursuitMenu(Menu):
    def __init__(self, ui):
        v = _pursuit(ui)
        suit, net = v["flip"]["suit"], v["flip"]["net"]
        name = suit[:1].upper() + suit[1:]
        items = [("Round %d: %s %+d" % (v["next_round"], name, net), lambda: flip_now(ui, suit=(suit, net))),
                 ("Give up the pursuit", lambda: ui.run("pursuit_end", {}))]
        Menu.__init__(self, ui, "Pursuit: you %d, them %d" % (v["rabbit"], v["pursuers"]), items)


class Sheet:
    """Str, Dex, Int suits and move levels: B changes the selected row."""

    def __init__(self, ui):
        self.ui = ui
        self.cursor = 0

    def rows(self):
        return list(ATTRS) + sorted(self.ui.game.s.moves)

    def view(self):
        g = self.ui.game
        moves = [[m, g.s.moves[m]] for m in sorted(g.s.moves)]
        return {"screen": "sheet", "attrs": dict(g.s.attrs), "moves": moves,
                "selected": self.cursor, "hint": "UP/DN row  B change  A back"}

    def press(self, b):
        rows = self.rows()
        if b == "UP":
            self.cursor = (self.cursor - 1) % len(rows)
        elif b == "DOWN":
            self.cursor = (self.cursor + 1) % len(rows)
        elif b == "A":
            self.ui.pop()
        elif b == "B":
            row = rows[self.cursor]
            g = self.ui.game
            if row in ATTRS:
                suit = C.SUITS[(C.SUITS.index(g.s.attrs[row]) + 1) % 4]
                self.ui.run("set_attr", {"attr": row, "suit": suit})
            else:
                level = (g.s.moves[row] + 3) % 5 - 2  # wild .. master, then round
                self.ui.run("set_move", {"name": row, "level": MOVE_LEVELS[level + 2]})


def _pursuit(u):
    from shared_rules.deck.minigames import pursuit_view

    return pursuit_view(u.game)


class PursuitRound(Menu):
    """After a pursuit flip: who won the round, and which attribute helped
    (each once, not in the first or last round). The result suggests it:
    the cursor starts on "got away" for a success or better."""

    def __init__(self, ui, level):
        v = _pursuit(ui)
        items = []
        for h in [None] + v["helpers"]:
            tag = "" if h is None else " (%s helped)" % h.upper()
            items.append(("I got away" + tag, (lambda h=h: self.record(True, h))))
            items.append(("They gained" + tag, (lambda h=h: self.record(False, h))))
        Menu.__init__(self, ui, "Round %d: who won it?" % v["next_round"], items)
        self.cursor = 0 if level >= 3 else 1

    def record(self, won, helper):
        u = self.ui
        args = {"won": won}
        if helper is not None:
            args["helper"] = helper
        v = u.run("pursuit_round", args)
        if v is None:
            return
        if v["winner"] is not None:
            u.run("pursuit_end", {})
            u.notice("Pursuit over", ["You got away!" if v["winner"] == "rabbit" else "They caught you."])
            return
        u.push(PursuitMenu(u))
        if v["pursuers_move"]:
            u.notice("Two in a row", ["The pursuers won two", "rounds in a row: the", "GM may make a move."])


class MiniGame:
    def __init__(self, ui):
        self.ui = ui
        self.cursor = 0

    def view(self):
        v = self.ui.game.minigame_view()
        self.cursor %= len(v["cards"])
        return {"screen": "minigame", "kind": v["kind"], "cards": v["cards"], "selected": self.cursor,
                "solvable": v["solution"] is not None,
                "hint": "UP/DN card C swap B done A quit"}

    def press(self, b):
        u = self.ui
        cards = u.game.s.table
        if b == "UP":
            self.cursor = (self.cursor - 1) % len(cards)
        elif b == "DOWN":
            self.cursor = (self.cursor + 1) % len(cards)
        elif b == "C":
            u.run("minigame_exhaust", {"card": cards[self.cursor % len(cards)]})
        elif b == "B":
            u.run("minigame_end", {}, lambda r: u.notice("Done!", ["The cards line up:", "read the move as a", "success."]))
        elif b == "A":
            u.push(Menu(u, "Give up? Reads as a miss", [
                ("Keep trying", lambda: None),
                ("Give up", lambda: u.run("minigame_end", {"abandon": True}))]))


def help_menu(u, settings=()):
    help_pages(u, "Help", (
        ("The footer", ["Deck: cards left to flip", "Disc: the discard pile", "Exh: Exhaustion cards", "XP: to spend",
                        "H, W: Harm and Wound", "tokens you carry"]),
        ("Buttons at home", ["A: next attribute", "UP/DOWN: advantage; it", "stays set after a flip", "B: flip  C: menu",
                             "After a flip: A done,", "B again, C more"]),
        MENU_HELP), settings)


def _show_odds(u, suit, net):
    from deck.flip_menus import show_odds  # loaded when asked, not with the menu

    show_odds(u, suit, net)

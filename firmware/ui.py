"""Buttons -> screens -> rules commands, for the five buttons of a Badger 2040
(A, B, C along the bottom; UP and DOWN on the side).

Home: A cycles Str/Dex/Int, UP/DOWN set the net advantage, B flips, C opens
the menu. After a flip: UP/DOWN + B pick among tied cards when the choice
matters; then A is done, B is done-and-flip-again, C offers flashback and
bumps. Every screen says its buttons in a hint line. A refused command shows
the rules' own sentence and changes nothing.

Screens are small objects on a stack; each has view() (a dict the renderer
draws, see render.py) and press(button).
"""

from shared_rules import cards as C
from shared_rules.advancement import level_cap
from shared_rules.editions import EDITION_KEYS, CAMPAIGNS, edition
from shared_rules.errors import RulesError
from shared_rules.state import ATTRS, MOVE_LEVELS

# the shared screens, named here too for gear_menus and the tests
try:
    from widgets import ROW_CHARS, Menu, Message, NameEntry, NumberPick, Pick, Shown, _wrap, confirm_new  # noqa: F401
    from widgets import MENU_HELP, help_pages
except ImportError:  # the host reads this file as firmware.ui (host_tools/replies.py)
    from firmware.widgets import ROW_CHARS, Menu, Message, NameEntry, NumberPick, Pick, Shown, _wrap, confirm_new  # noqa: F401
    from firmware.widgets import MENU_HELP, help_pages

WORDS = {1: "MISS", 2: "PARTIAL", 3: "SUCCESS", 4: "TRIUMPH"}
NOTES = {1: "GM makes a move", 2: "a little worse; GM +1 Shadow",
         3: "success with a complication", 4: "unfettered success"}
MAX_NET_UI = 3


class Ui:
    SYSTEM = "deck"

    def __init__(self, app):
        self.app = app
        self.reset()

    def reset(self):
        self.attr = "str"
        self.net = 0
        self.move = None
        self.stack = []
        self.last_power = 1
        self._base = None
        self.result = None  # a flip the host resolved, shown until a press
        self.last = None  # the last finished flip, as its screen
        self.flipped_with = 0  # the advantage the last flip used (it stays set)
        self.pursuit_flip = False  # the open flip is a pursuit round

    # -- helpers shared by the screens ----------------------------------
    @property
    def game(self):
        return self.app.game

    def status(self):
        g = self.game
        if g is None:
            return {"draw": 0, "discard": 0, "exhaustion": 0, "xp": 0, "harm": 0, "wounds": 0, "shadow": 0,
                    "incapacitated": "", "edition": "md", "battery": self.app.board.battery(), "name": self.app.name}
        s = g.s
        return {"draw": len(s.draw), "discard": len(s.discard), "exhaustion": len(s.exhaustion), "xp": s.xp,
                "harm": s.harm, "wounds": s.wound_tokens, "shadow": s.shadow, "incapacitated": s.incapacitated,
                "edition": s.edition, "battery": self.app.board.battery(), "name": self.app.name}

    def push(self, screen):
        self.stack.append(screen)

    def pop(self):
        if self.stack:
            self.stack.pop()

    def home(self):
        self.stack = []

    def notice(self, title, lines, sticky=False):
        self.push(Message(self, title, lines, sticky))

    def open_menu(self):
        self.push(MainMenu(self))

    def run(self, op, args, then=None):
        """Run a rules command for the player; on refusal show why."""
        try:
            result = self.app.command(op, args)
        except RulesError as e:
            self.notice("Not now", _wrap(e.message))
            return None
        if then is not None:
            then(result)
        return result

    def base(self):
        """The screen under any menus: the open flip or mini-game, the last
        result the host resolved, else home. Kept while it stays the same
        kind, so its cursor survives presses."""
        g = self.game
        kind = Home
        if g is not None and g.s.flip is not None:
            kind = FlipScreen
        elif g is not None and g.s.minigame:
            kind = MiniGame
        elif g is not None and g.s.incapacitated:
            if self.result is not None:
                self.last, self.result = ResultScreen(self).view(), None
                self.last["hint"] = "any button: back"
            kind = KnockedOut
        elif self.result is not None:
            kind = ResultScreen
        if not isinstance(self._base, kind):
            self._base = kind(self)
        return self._base

    def top(self):
        return self.stack[-1] if self.stack else self.base()

    def view(self):
        v = self.top().view()
        if "status" not in v and v.get("screen") != "message":
            v["status"] = self.status()
        return v

    def press(self, button):
        if self.game is None and not self.stack:
            self.push(MainMenu(self))
        self.top().press(button)
        if self.app.ui is not self:  # a new character of another system: its UI took over
            return self.app.ui.view()["screen"]
        return self.top().view()["screen"]


class Home:
    def __init__(self, ui):
        self.ui = ui

    def view(self):
        u = self.ui
        g = u.game
        suit = g.s.attrs[u.attr] if g else "anvil"
        v = {"screen": "home", "attr": u.attr, "suit": suit, "net": u.net, "move": u.move,
             "hint": "A attr B flip C menu UP/DN adv"}
        if u.net and u.flipped_with == u.net:
            v["note"] = "%+d kept from the last flip" % u.net
        return v

    def press(self, b):
        u = self.ui
        if b == "A":
            u.attr = ATTRS[(ATTRS.index(u.attr) + 1) % 3]
        elif b == "UP":
            u.net = min(MAX_NET_UI, u.net + 1)
        elif b == "DOWN":
            u.net = max(-MAX_NET_UI, u.net - 1)
        elif b == "B":
            flip_now(u)
        elif b == "C":
            u.push(MainMenu(u))


def flip_now(u, team=None, fast=False, pvp=False, suit=None, item=None, unencumbered=False):
    args = {"attr": u.attr, "net": u.net}
    if fast:
        args["fast"] = True
    if pvp:
        args["pvp"] = True
    if unencumbered:
        args["unencumbered"] = True
    if item is not None:  # the engine says the attribute: Int for magic, Dex for a shield
        args = {"net": u.net, "item": item}
    if suit is not None:  # a pursuit round: the table's suit, not an attribute
        args = {"suit": suit[0], "net": suit[1]}
    if u.move is not None and u.game is not None and u.move in u.game.s.moves:
        args["move"] = u.move
    if team == "support":
        args = {"team": "support"}
    elif team:
        args["team"] = team
    if u.run("flip", args) is not None:
        u.pursuit_flip = suit is not None
        if suit is None:
            u.flipped_with = u.net


class FlipScreen:
    def __init__(self, ui):
        self.ui = ui
        self.cursor = 0
        self.cards = None  # the flip the cursor belongs to

    def view(self):
        g = self.ui.game
        v = g.flip_view()
        f = g.s.flip
        choosing = v["phase"] == "choose"
        tied = f["tied"]
        if v["cards"] != self.cards:
            self.cards = v["cards"]  # a new flip: the cursor starts on the first tied card
            self.cursor = 0
        if choosing:
            self.cursor = self.cursor % len(tied)
        level = v["level"] if not choosing else 0
        words = WORDS[level] if level else "CHOOSE A CARD"
        note = NOTES[level] if level else "tie: UP/DN pick, B choose"
        if level == 1 and f["fast"]:
            note = "FAST move: GM +2 Shadow"
        crit = C.CARDS[v["resolving"]].crit if v["resolving"] else None
        if crit == "success":
            note = "CRITICAL: A done, then choose a reward"
        elif crit == "fail":
            note = "critical failure: GM makes a move"
        wound = [cid for cid in v["cards"] if C.CARDS[cid].kind == "wound"]
        if wound:
            note = "wound card: flip stopped, -1 Stamina"
        if v["flashback"]:
            note = "flashback" + (", bumped +%d" % f["bumps"] if f["bumps"] else "")
        return {"screen": "flip", "cards": v["cards"], "suit": v["suit"], "net": v["net"], "level": level,
                "resolving": f["resolving"] if not choosing else None, "tied": list(tied),
                "selected": tied[self.cursor] if choosing else None, "phase": v["phase"],
                "flashback": v["flashback"], "words": words, "note": note,
                "hint": "UP/DN pick  B choose" if choosing else "A done  B again  C more"}

    def press(self, b):
        u = self.ui
        g = u.game
        f = g.s.flip
        if f["phase"] == "choose":
            if b in ("UP", "DOWN"):
                self.cursor += 1 if b == "DOWN" else -1
            elif b == "B":
                tied = f["tied"]
                u.run("choose", {"card": g.s.table[tied[self.cursor % len(tied)]]})
            return
        if b in ("A", "B"):
            finish_flip(u, again=(b == "B"))
        elif b == "C":
            u.push(FlipMenu(u))


def finish_flip(u, again=False, crit=None, extra=None):
    g = u.game
    f = g.s.flip
    card = C.CARDS[g.s.table[f["resolving"]]]
    if f["team"] and extra is None:
        u.push(Menu(u, "Whose card resolved it?", [
            ("Mine", lambda: finish_flip(u, again, crit, {"resolved": True})),
            ("Another player's", lambda: finish_flip(u, again, crit, {"resolved": False}))]))
        return
    if f.get("item") and "_item" not in (extra or {}):
        from gear_menus import item_choices  # loaded when an item is used

        if item_choices(u, again, crit, extra):
            return
    resolved = extra is None or extra.get("resolved", True)
    if card.crit == "success" and resolved and crit is None:
        u.push(CritMenu(u, again, extra))
        return
    args = dict(extra or {})
    args.pop("_item", None)
    if crit and crit != "decline":
        args.update(crit)
    last = FlipScreen(u).view()
    u.home()
    try:
        r = u.app.command("end_flip", args)
    except RulesError as e:
        if e.code == "choose_cost":  # a shield's middle effect: the player's choice
            more = dict(extra or {}, _item=1)
            u.push(Menu(u, "The block costs", [
                ("1 Stamina", lambda: finish_flip(u, again, crit, dict(more, cost="stamina"))),
                ("1 damage on " + f["item"][:22], lambda: finish_flip(u, again, crit, dict(more, cost="damage")))]))
        else:
            u.notice("Not now", _wrap(e.message))
        return
    last["hint"] = "any button: back"
    u.last = last
    if r.get("blessing"):
        u.notice("Blessing taken", ["Blessing card %s is" % r["blessing"], "shuffled into your", "deck at the next", "reshuffle."])
    elif r.get("crit") == "levelup":
        u.notice("Levelled up", ["%s is now %+d." % (r["move"][0], r["move"][1])])
    if r.get("magic") or r.get("shield"):
        u.notice(f["item"][:24], _wrap("%s. %s" % (r.get("magic") or r["shield"], r.get("cost", ""))))
    if u.game.s.pursuit is not None and u.pursuit_flip:
        u.pursuit_flip = False
        u.push(PursuitRound(u, r["level"]))
    elif again:
        flip_now(u, team=f["team"])


class ResultScreen:
    """A flip resolved from the GM's console stays on the panel until the
    player presses a button; then the button does what it does at home."""

    def __init__(self, ui):
        self.ui = ui

    def view(self):
        r = self.ui.result
        level = r["level"]
        cards = r["cards"]
        return {"screen": "flip", "cards": cards, "suit": r["suit"], "net": r["net"], "level": level,
                "resolving": cards.index(r["resolving"]) if r["resolving"] in cards else None,
                "tied": [], "selected": None, "phase": "open", "flashback": False,
                "words": WORDS[level], "note": NOTES[level], "hint": "A home  B flip  C menu"}

    def press(self, b):
        u = self.ui
        v = self.view()
        v["hint"] = "any button: back"
        u.last = v
        u.result = None
        if b != "A":
            u.top().press(b)


class KnockedOut:
    """Incapacitated: said big and plainly, whatever was on the panel;
    the menu still opens (friends can carry you to Seek Help)."""

    def __init__(self, ui):
        self.ui = ui

    def view(self):
        why = self.ui.game.s.incapacitated
        lines = _wrap(why if isinstance(why, str) else "")[:2] + ["", "Friends can carry you", "to Seek Help: C menu"]
        return {"screen": "message", "title": "KNOCKED OUT", "lines": lines, "hint": "C menu"}

    def press(self, b):
        u = self.ui
        if b == "C":
            u.push(MainMenu(u))
        elif b == "B":
            flip_now(u)  # refused with the rules' own sentence


class FlipMenu(Menu):
    def __init__(self, ui):
        g = ui.game
        f = g.s.flip
        items = []
        if f["team"] != "support":
            items.append(("Flashback (1 %s)" % edition(g.s.edition)["xp_name"], lambda: ui.run("flashback", {})))
        if f["flashback"]:
            items.append(("Bump result +1 (1 XP)", lambda: ui.run("bump", {})))
        items.append(("Odds of this flip", lambda: show_odds(ui, f["suit"], f["net"])))
        Menu.__init__(self, ui, "This flip", items)


class CritMenu(Menu):
    def __init__(self, ui, again, extra):
        g = ui.game
        f = g.s.flip
        items = []
        for opt in edition(g.s.edition)["crit_options"]:
            if opt == "levelup":
                items.append(("Level up a move", lambda: self.level_up(again, extra)))
            elif opt == "blessing":
                items.append(("Take a Blessing", lambda: finish_flip(ui, again, {"crit": "blessing"}, extra)))
            else:
                items.append(("Bonus move, +1 adv (1 XP)", lambda: finish_flip(ui, again, {"crit": "bonus_move"}, extra)))
        items.append(("No thanks", lambda: finish_flip(ui, again, "decline", extra)))
        Menu.__init__(self, ui, "Critical success!", items)
        self.flip_move = f["move"]

    def level_up(self, again, extra):
        u = self.ui
        moves = sorted(u.game.s.moves)
        if not moves:
            u.notice("No moves", ["Your sheet has no moves", "to level up. Add them", "from the host or the", "sheet menu."])
            return

        def pick(name):
            now = u.game.s.moves[name]
            top = min(level_cap(now), now + u.game.s.xp) - now
            if top < 1:
                u.notice("Not now", _wrap("%s cannot go up now (XP %d)" % (name, u.game.s.xp)))
                return
            u.push(NumberPick(u, "Levels up: " + name, 1, 1, top,
                              lambda n: finish_flip(u, again, {"crit": "levelup", "move": name, "levels": n}, extra)))

        if self.flip_move in u.game.s.moves:
            pick(self.flip_move)
        else:
            u.push(Menu(u, "Which move?", [(m, (lambda m=m: pick(m))) for m in moves]))


def show_odds(u, suit, net):
    o = u.game.odds(suit, net)
    lines = []
    for lv in (4, 3, 2, 1):
        a, b = o["levels"][str(lv)].split("/")
        lines.append("%-8s %5.1f%%" % (WORDS[lv], 100.0 * int(a) / int(b)))
    a, b = o["xp"].split("/")
    lines.append("XP card    %5.1f%%" % (100.0 * int(a) / int(b)))
    # str.capitalize is missing on MicroPython
    u.notice("%s %+d: %d card%s" % (suit[:1].upper() + suit[1:], net, o["cards_flipped"], "s" if o["cards_flipped"] > 1 else ""), lines)


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
                ("Odds of next flip", lambda: show_odds(ui, g.s.attrs[ui.attr], ui.net))] + ([
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
    from gear_menus import gear_menu  # loaded when opened: most boards rarely need it

    gear_menu(u)


def show_last(u):
    if u.last is None:
        u.notice("No flip yet", ["Flip with B at home."])
    else:
        u.push(Shown(u, u.last))


def help_menu(u, settings=()):
    help_pages(u, "Help", (
        ("The footer", ["Deck: cards left to flip", "Disc: the discard pile", "Exh: Exhaustion cards", "XP: to spend",
                        "H, W: Harm and Wound", "tokens you carry"]),
        ("Buttons at home", ["A: next attribute", "UP/DOWN: advantage; it", "stays set after a flip", "B: flip  C: menu",
                             "After a flip: A done,", "B again, C more"]),
        MENU_HELP), settings)


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
    from shared_rules.gear import reduce_ways

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
        u.run("rest", args, lambda r: u.notice("Rested", _wrap(r.get("say", "Rested."))))

    _keep_then(u, "Rest", u.game.keep_count("rest"), run)


def seek_help_flow(u):
    g = u.game

    def ask(hearth):
        def run(keep):
            args = {"hearth": True} if hearth else {}
            if keep is not None:
                args["keep"] = keep
            u.run("seek_help", args, lambda r: u.notice("Helped", _wrap(r.get("say", "You are looked after."))))
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


def _pursuit(u):
    from shared_rules.minigames import pursuit_view

    return pursuit_view(u.game)


class PursuitMenu(Menu):
    def __init__(self, ui):
        v = _pursuit(ui)
        suit, net = v["flip"]["suit"], v["flip"]["net"]
        name = suit[:1].upper() + suit[1:]
        items = [("Round %d: %s %+d" % (v["next_round"], name, net), lambda: flip_now(ui, suit=(suit, net))),
                 ("Give up the pursuit", lambda: ui.run("pursuit_end", {}))]
        Menu.__init__(self, ui, "Pursuit: you %d, them %d" % (v["rabbit"], v["pursuers"]), items)


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


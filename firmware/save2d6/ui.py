"""SAVE 2d6's screens (seed 003) for the five buttons: the interface of
ui.Ui (firmware/app.py uses Ui(app), reset, view, press, notice, pop,
status) with SAVE's own screens, drawn by draw.py beside it.

Home shows which faces pass before the roll (the seed: "Announce which
numbers will succeed and which will fail before the player rolls"): UP/DOWN
pick a switch (preferred action, expertise, assisted, injury), A marks it, B
rolls, C opens the menu. A roll shows both dice, the pass set and the result
word until a button; a roll set aside for an assist in the nick of time
stays until the assist arrives from the host or the player resolves it.
"""

from shared_rules.save2d6.game import HEALTH, pass_faces, odds
from shared_rules.save2d6.results import NOTES, WORDS

from menu_widgets import MENU_HELP, Menu, NameEntry, Shown, confirm_new, help_pages
from widgets import Screens, _wrap

# (flag, label on home, what it does), in the order UP/DOWN visit them
SWITCHES = (("preferred", "Preferred (5s pass)"), ("expertise", "Expertise (4s pass)"),
            ("assisted", "Assisted (2s pass)"), ("injury", "Setback is injury"))

def cap(word):
    return word[:1].upper() + word[1:]


def percent(frac):
    a, b = frac.split("/")
    return "%d%%" % ((int(a) * 200 + int(b)) // (2 * int(b)))


class Ui(Screens):
    SYSTEM = "save"

    def main_menu(self):
        return MainMenu(self)

    def reset(self):
        self.stack = []
        self.flags = {"preferred": False, "expertise": False, "assisted": False, "injury": False}
        self.cursor = 0
        self.pursuit = False  # the next roll exercises the pursuit
        self.assisting = False  # the next roll assists another hero
        g = self.game
        self.seen = g.s.rolls if g is not None else 0  # rolls already looked at
        self._base = None

    def status(self):
        g = self.game
        st = {"battery": self.app.board.battery(), "name": self.app.name}
        if g is None:
            st["footer"] = "No hero"
            return st
        s = g.s
        st["footer"] = "%s  Destiny %s%s" % (cap(s.health), s.destiny,
                                             "  Clocks %d" % len(s.clocks) if s.clocks else "")
        return st

    def base(self):
        """A roll set aside, or one not looked at yet (made here or by the
        host), else home."""
        g = self.game
        kind = Home
        if g is not None and g.s.roll is not None and (g.s.roll["result"] == "pending" or g.s.rolls != self.seen):
            kind = RollScreen
        if not isinstance(self._base, kind):
            self._base = kind(self)
        return self._base

    # -- rolling -------------------------------------------------------------
    def faces(self):
        g = self.game
        f = self.flags
        return pass_faces(f["preferred"], f["expertise"], f["assisted"], g.s.health if g else "strong")

    def roll(self, destiny=False):
        args = dict(self.flags)
        if self.pursuit:
            args["pursuit"] = True
        if self.assisting:
            args["assisting"] = True
        if destiny:
            args["destiny"] = True
        if self.run("roll", args) is not None:
            # Switches are for one action: the next starts plain.
            self.flags = {"preferred": False, "expertise": False, "assisted": False, "injury": False}
            self.pursuit = self.assisting = False
            self.home()


class Home:
    def __init__(self, ui):
        self.ui = ui

    def view(self):
        u = self.ui
        g = u.game
        faces = u.faces()
        o = odds(faces)
        rows = []
        for key, label in SWITCHES:
            rows.append([label, u.flags[key]])
        extra = []
        if u.pursuit:
            extra.append("pursuit")
        if u.assisting:
            extra.append("assisting")
        return {"screen": "save_home", "faces": faces, "switches": rows, "selected": u.cursor,
                "health": g.s.health if g else "strong", "destiny": g.s.destiny if g else "ready",
                "odds": [percent(o["complete"]), percent(o["mixed"]), percent(o["failure"])],
                "extra": extra, "hint": "UP/DN pick A mark B roll C menu"}

    def press(self, b):
        u = self.ui
        if b == "UP":
            u.cursor = (u.cursor - 1) % len(SWITCHES)
        elif b == "DOWN":
            u.cursor = (u.cursor + 1) % len(SWITCHES)
        elif b == "A":
            key = SWITCHES[u.cursor][0]
            u.flags[key] = not u.flags[key]
        elif b == "B":
            u.roll()
        elif b == "C":
            u.open_menu()


def roll_view(g, hint):
    r = g.s.roll
    dice, faces, result = r["dice"], r["faces"], r["result"]
    pending = result == "pending"
    note = NOTES.get(result, "")
    if pending:
        note = "set aside: another hero may assist"
    elif r["destiny"]:
        note = "destiny: complete success"
    elif r["nick"]:
        note = "assist in the nick of time: " + r["assist"]
    if r["harm"]:
        note = "-%d health: now %s" % (r["harm"], cap(g.s.health))
    return {"screen": "save_roll", "dice": list(dice), "faces": list(faces),
            "passes": [d in faces for d in dice], "result": result, "words": WORDS[result],
            "note": note, "health": g.s.health, "destiny": g.s.destiny, "hint": hint}


class RollScreen:
    """The last roll: A home, B roll again, C menu. Set aside for an assist:
    B resolves it as rolled, C menu (destiny), A waits at home."""

    def __init__(self, ui):
        self.ui = ui

    def view(self):
        g = self.ui.game
        if g.s.roll["result"] == "pending":
            return roll_view(g, "B as rolled  C menu  (wait: assist)")
        return roll_view(g, "A done  B roll again  C menu")

    def press(self, b):
        u = self.ui
        g = u.game
        if g.s.roll["result"] == "pending":
            if b == "B":
                u.run("decline", {})
            elif b == "C":
                u.open_menu()
            elif b == "A":
                u.notice("Waiting for an assist", ["The roll stays set", "aside until another", "hero's assist comes",
                                                   "from the GM, or you", "resolve it (B)."])
            return
        u.seen = g.s.rolls
        if b == "B":
            u.roll()
        elif b == "C":
            u.open_menu()


class HeroScreen:
    """Health ladder, destiny, pursuit and history: any button back."""

    def __init__(self, ui):
        self.ui = ui

    def view(self):
        s = self.ui.game.s
        return {"screen": "save_hero", "ladder": list(HEALTH), "health": s.health, "destiny": s.destiny,
                "pursuit": s.pursuit, "history": len(s.history), "hint": "any button: back"}

    def press(self, b):
        self.ui.pop()


class ClocksScreen:
    def __init__(self, ui):
        self.ui = ui

    def view(self):
        return {"screen": "save_clocks", "clocks": [list(c) for c in self.ui.game.s.clocks],
                "hint": "any button: back"}

    def press(self, b):
        self.ui.pop()


class OddsScreen:
    def __init__(self, ui):
        self.ui = ui

    def view(self):
        u = self.ui
        faces = u.faces()
        o = odds(faces)
        rows = []
        for k in ("complete", "mixed", "failure"):
            rows.append([WORDS[k], o[k], percent(o[k])])
        return {"screen": "save_odds", "faces": faces, "rows": rows, "health": u.game.s.health,
                "hint": "any button: back"}

    def press(self, b):
        self.ui.pop()


class MainMenu(Menu):
    def __init__(self, ui):
        g = ui.game
        if g is None:
            Menu.__init__(self, ui, "No hero", [("New character", lambda: confirm_new(ui)),
                                                ("Help", lambda: help_menu(ui))])
            return
        items = [("Last roll", lambda: show_last(ui)),
                 ("Hero: health & destiny", lambda: ui.push(HeroScreen(ui))),
                 ("Clocks (%d)" % len(g.s.clocks), lambda: ui.push(ClocksScreen(ui))),
                 ("Odds of this roll", lambda: ui.push(OddsScreen(ui))),
                 ("Use destiny", lambda: destiny_menu(ui)),
                 ("Special roll", lambda: special_menu(ui)),
                 ("Health", lambda: health_menu(ui)),
                 ("Exercised my pursuit", lambda: ui.run("pursue", {}, lambda r: ui.notice(
                     "Destiny ready", ["You worked toward your", "pursuit: destiny is", "yours to use again."]))),
                 ("End of session", lambda: session_menu(ui)),
                 ("Name", lambda: ui.push(NameEntry(ui, "Your name", lambda n: set_name(ui, n)))),
                 ("Help & settings", lambda: help_menu(ui, [("New character", lambda: confirm_new(ui))]))]
        Menu.__init__(self, ui, "Menu", items)


def show_last(u):
    g = u.game
    if g.s.roll is None:
        u.notice("No roll yet", ["Roll with B at home."])
        return
    v = roll_view(g, "any button: back")
    u.push(Shown(u, v))


def destiny_menu(u):
    g = u.game
    if g.s.destiny != "ready":
        u.notice("Destiny spent", ["Exercise your pursuit", "to use destiny again", "(Menu > Exercised my", "pursuit)."])
        return
    uses = [("Complete success: last roll", "complete"), ("Declare a fact", "fact"),
            ("Restore me to Strong", "restore"), ("Restore another hero", "restore_other")]
    u.push(Menu(u, "Destiny: which benefit?", [(label, (lambda k=k: because_menu(u, k))) for label, k in uses]))


def because_menu(u, use):
    """What destiny relies on: the pursuit or one history item."""
    g = u.game
    rows = [("My pursuit" + (": " + g.s.pursuit[:20] if g.s.pursuit else ""), (lambda: use_destiny(u, use, "pursuit")))]
    for i in range(len(g.s.history)):
        rows.append(("%d %s" % (i + 1, g.s.history[i][:30]), (lambda n=i + 1: use_destiny(u, use, n))))
    u.push(Menu(u, "Because of...", rows))


def use_destiny(u, use, because):
    def then(r):
        u.home()
        if use == "complete":
            u.seen = -1  # show the roll again, now a complete success
        elif use == "restore_other":
            u.notice("Destiny used", ["Tell the GM: the other", "hero is restored to", "Strong from the table."])
        elif use == "fact":
            u.notice("Destiny used", ["Declare your fact."])

    u.run("destiny", {"use": use, "because": because}, then)


def special_menu(u):
    u.push(Menu(u, "Special roll", [
        (("[x] " if u.pursuit else "[ ] ") + "Exercises my pursuit", lambda: setattr(u, "pursuit", not u.pursuit)),
        (("[x] " if u.assisting else "[ ] ") + "Assisting another hero", lambda: setattr(u, "assisting", not u.assisting)),
        ("Roll with destiny: complete", lambda: u.roll(destiny=True))]))


def health_menu(u):
    now = u.game.s.health
    u.push(Menu(u, "Health: " + cap(now), [
        ("Rest: back to Strong", lambda: u.run("rest", {})),
        ("Injured: -1 level", lambda: u.run("injure", {"levels": 1})),
        ("Injured: -2 levels", lambda: u.run("injure", {"levels": 2})),
        ("Set health", lambda: u.push(Menu(u, "Set health (* = now)", [
            (("* " if h == now else "  ") + cap(h), (lambda h=h: u.run("set_health", {"health": h}))) for h in HEALTH])))]))


def session_menu(u):
    def add(text):
        u.run("end_session", {"item": text[:40]}, lambda r: u.notice("Session ended", ["History item added:"] + _wrap(text)[:3]))

    u.push(Menu(u, "End of session", [
        ("Add a history item", lambda: u.push(NameEntry(u, "History item", add))),
        ("No item this time", lambda: u.run("end_session", {}, lambda r: u.notice("Session ended", ["No history item."]))),
        ("Not yet", lambda: None)]))


def set_name(u, name):
    app = u.app
    app.name = name[:16]
    app.need_save = True
    app.dirty = True


def help_menu(u, settings=()):
    help_pages(u, "Help", (
        ("Rolling", ["Home shows which faces", "pass: 6 always, 5 if", "preferred, 4 expertise,",
                     "3 unless Shaken or worse,", "2 when assisted, 1 never."]),
        ("Results", ["Both dice pass: complete", "One passes: mixed", "(goal and a setback)",
                     "None: failure. A two", "before any assist waits", "for one (nick of time)."]),
        ("Destiny", ["Complete success (before", "or after a roll), a fact,", "or a hero to Strong.",
                     "Then spent until you", "exercise your pursuit."]),
        MENU_HELP), settings)

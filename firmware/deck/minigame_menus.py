"""The Deckahedron's mini-games on the device: the Pick Locks / Fundamental
Magic table (MiniGame) and the Pursuit's rounds. Loaded when one starts,
dropped at home with the menus (app.RELEASABLE).
"""

from deck.ui import flip_now
from menu_widgets import Menu


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

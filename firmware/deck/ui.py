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

from shared_rules.deck import cards as C
from shared_rules.errors import RulesError
from shared_rules.deck.state import ATTRS
from shared_rules.deck.results import NOTES, WORDS

# the shared screens, named here too for gear_menus and the tests
from widgets import Screens, _wrap

MAX_NET_UI = 3


class Ui(Screens):
    SYSTEM = "deck"
    # what a sleep that loses the RAM must keep for the next press (sleep_ops.keep_rest)
    REST = ("attr", "net", "flipped_with", "pursuit_flip")

    def main_menu(self):
        return self.load("deck.menus").MainMenu(self)

    def ask(self, args):
        """The GM asks for a flip (op ask): its screen, loaded on first use."""
        return self.load("deck.ask").offer(self, args)

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
    def status(self):
        g = self.game
        if g is None:
            return {"draw": 0, "discard": 0, "exhaustion": 0, "xp": 0, "harm": 0, "wounds": 0, "shadow": 0,
                    "incapacitated": "", "edition": "md", "battery": self.app.board.battery(), "name": self.app.name}
        s = g.s
        return {"draw": len(s.draw), "discard": len(s.discard), "exhaustion": len(s.exhaustion), "xp": s.xp,
                "harm": s.harm, "wounds": s.wound_tokens, "shadow": s.shadow, "incapacitated": s.incapacitated,
                "edition": s.edition, "battery": self.app.board.battery(), "name": self.app.name}

    def base(self):
        """The screen under any menus: the open flip or mini-game, the last
        result the host resolved, else home. Kept while it stays the same
        kind, so its cursor survives presses."""
        g = self.game
        kind = Home
        if g is not None and g.s.flip is not None:
            kind = FlipScreen
        elif g is not None and g.s.minigame:
            kind = self.load("deck.minigame_menus").MiniGame
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
            u.open_menu()


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
        self.follow(v["cards"])
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

    def follow(self, cards):
        """The cursor belongs to one flip: a new one starts it on the first
        tied card, whether or not the panel was drawn since (a poll may
        press B and DOWN before it draws)."""
        if cards != self.cards:
            self.cards = list(cards)
            self.cursor = 0

    def press(self, b):
        u = self.ui
        g = u.game
        f = g.s.flip
        self.follow(g.s.table)
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
            u.push(u.load("deck.flip_menus").FlipMenu(u))


def finish_flip(u, again=False, crit=None, extra=None):
    g = u.game
    f = g.s.flip
    card = C.CARDS[g.s.table[f["resolving"]]]
    if f["team"] and extra is None:
        u.push(u.load("menu_widgets").Menu(u, "Whose card resolved it?", [
            ("Mine", lambda: finish_flip(u, again, crit, {"resolved": True})),
            ("Another player's", lambda: finish_flip(u, again, crit, {"resolved": False}))]))
        return
    if f.get("item") and "_item" not in (extra or {}):
        if u.load("deck.gear_menus").item_choices(u, again, crit, extra):
            return
    resolved = extra is None or extra.get("resolved", True)
    if card.crit == "success" and resolved and crit is None:
        u.push(u.load("deck.flip_menus").CritMenu(u, again, extra))
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
            u.push(u.load("menu_widgets").Menu(u, "The block costs", [
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
        u.push(u.load("deck.minigame_menus").PursuitRound(u, r["level"]))
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
            u.open_menu()
        elif b == "B":
            flip_now(u)  # refused with the rules' own sentence

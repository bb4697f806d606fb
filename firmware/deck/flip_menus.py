"""The flip's own menus, loaded when first opened: C on a flip (flashback,
bump, its odds) and a Critical Success's reward (a blessing, a bonus move,
a move levelled up). Dropped again at home with the menus (app.RELEASABLE)."""

from shared_rules.deck.editions import edition
from shared_rules.deck.state import level_cap
from shared_rules.deck.results import WORDS

from deck.ui import finish_flip
from menu_widgets import Menu, NumberPick
from widgets import _wrap


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

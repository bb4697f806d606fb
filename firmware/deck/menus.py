"""The Deckahedron's main menu and its small flows (the last flip, edition,
a move, study, help): imported when the menu first opens, so a board that
boots and flips does not keep them on its heap (ui.py holds the screens
every press needs). The larger flows load when chosen: harm and recovery
(harm_menus.py), the sheet (sheet.py), the mini-games (minigame_menus.py),
gear (gear_menus.py): CircuitPython's Pico ran out of heap opening one menu
module that held them all (~16 KB).
"""

from shared_rules.deck.editions import EDITION_KEYS, CAMPAIGNS, edition

from deck.ui import flip_now
from menu_widgets import MENU_HELP, Menu, NameEntry, Shown, confirm_new, help_pages


def _later(ui, module, name, *args):
    """A row's action whose code loads when the row is chosen."""
    return lambda: getattr(ui.load(module), name)(ui, *args)


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
            ("Character sheet", lambda: ui.push(ui.load("deck.sheet").Sheet(ui))),
            sub("Hurt & recover", lambda: [
                ("Take damage", _later(ui, "deck.harm_menus", "damage_flow")),
                ("Reveal attack power", lambda: ui.push(Menu(ui, "Reveal", [
                    ("1d4 (triangle)", _later(ui, "deck.harm_menus", "reveal", "d4")),
                    ("1d6 (square)", _later(ui, "deck.harm_menus", "reveal", "d6")),
                    ("1d10 (both)", _later(ui, "deck.harm_menus", "reveal", "d10"))]))),
                ("Take a Breather", _later(ui, "deck.harm_menus", "breather_flow")),
                ("Rest", _later(ui, "deck.harm_menus", "rest_flow")),
                ("Seek Help", _later(ui, "deck.harm_menus", "seek_help_flow")),
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
                ("Pursuit", _later(ui, "deck.minigame_menus", "pursuit_flow"))]),
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


def study_flow(u):
    moves = sorted(u.game.s.moves)
    items = [(m[:20], (lambda m=m: u.run("study", {"move": m}))) for m in moves]
    items.append(("A new move card", lambda: u.push(NameEntry(u, "New move's name", lambda name: u.run("study", {"move": name})))))
    u.push(Menu(u, "Study (2 XP)", items))


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

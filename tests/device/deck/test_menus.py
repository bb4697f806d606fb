"""Every menu item and sub-item, chosen with the buttons, on both runtimes.

A walker opens each menu the player can reach (home > C, the flip menu,
critical success, a mini-game's give-up, the no-game menu), chooses every
row (DOWN n times, then B) and follows whatever opens next (sub-menus,
number pickers) a few levels deep, each path on a fresh device. Every
screen reached is drawn where the runtime has the renderer (MicroPython's
framebuf), so a row that crashes the firmware or draws nothing fails here.
"""

from tests.device.support import FakeBoard, choose, make_app, press, with_game
from tests.device.walker import draw, walk
from tests.rules.support import stacked


def _home_game():
    # moves (for the move menus), XP, exhaustion and harm (recovery flows)
    g = stacked(["4", "9", "11", "2", "3", "5", "6", "7"], exhaustion=["12", "^13"], exh_tokens=1,
                harm=1, xp=5, campaign="9h")
    g.s.moves = {"Sneak": 0, "Climb": -1, "Entreat the Blood-Bound": 0}
    g.s.pack, g.s.precious = 2, 1
    for args in ({"name": "Rope"}, {"name": "Axe", "kind": "weapon"}, {"name": "Mail", "kind": "armour"},
                 {"name": "Orb", "kind": "magic"}, {"name": "Buckler", "kind": "shield", "avoids": "wound", "first": 1}):
        g.do("gear_add", args)
    g.do("item_damage", {"name": "Rope"})
    return g


def _root_home():
    return with_game(make_app(), _home_game()), ["C"]


def _root_flip():
    app = with_game(make_app(), stacked(["2", "3", "4"], xp=2))
    app.game.s.attrs["str"] = "anvil"
    return app, ["UP", "B", "B", "C"]  # a tie chosen, then the flip menu with flashback


def _root_crit():
    g = stacked(["11", "2"], xp=3)
    g.s.moves = {"Sneak": 0}
    return with_game(make_app(), g), ["B", "A"]


def _root_minigame():
    app = with_game(make_app(), stacked(["1", "pw1", "6", "2"]))
    app.game.do("minigame_start", {"kind": "pick_locks"})
    app.save()
    return app, ["A"]


def _root_no_game():
    board = FakeBoard()
    with open(board.flash_dir + "/deck.sav", "w") as f:
        f.write("not a save\n")
    return make_app(board), ["C"]


def _root_item_flip():
    """A magic item's flip (card 4: Anvil ✅) done with A: the charge and
    ONGOING are asked."""
    g = _home_game()
    g.do("flip", {"item": "Orb"})
    return with_game(make_app(), g), ["A"]


def _root_rings(edition, campaign):
    def root():
        g = stacked(["4", "9", "11", "2"], edition=edition, campaign=campaign)
        g.s.rings, g.s.envelope_due = 2, 1
        return with_game(make_app(), g), ["C", "DOWN", "DOWN", "DOWN", "DOWN", "DOWN", "B"]  # Menu > Gear & rings
    return root


ROOTS = (_root_home, _root_flip, _root_crit, _root_minigame, _root_no_game, _root_item_flip)


def test_every_menu_row_from_home():
    chosen, screens = walk(_root_home)
    titles = set(t for t, _ in chosen)
    for t in ("Menu", "Hurt & recover", "Special flips", "XP & cards", "Mini-games", "Help & settings", "Gear & rings",
              "Reveal", "Teamwork", "Edition (* = now)", "Switch rules mid-game?", "Campaign", "Seek Help",
              "Flip with which move?", "Study (2 XP)", "Start over? Game is lost",
              "Breather: regain up to 4", "Rest: keep 1 card", "Pursuit: you 0, them 0"):
        assert t in titles, "the walk never reached the %r menu" % t
    rows = set(r for _, r in chosen)
    for r in ("Odds of next flip", "FAST flip (miss: +2)", "Flip vs a player", "Pursuit", "A new move card",
              "Give up the pursuit", "All as Stamina (1)", "Regain 0 Stamina", "Keep these 0, go"):
        assert r in rows, "the walk never chose %r" % r
    assert len(chosen) >= 50
    assert screens.get("message", 0) >= 1  # the odds and refusals are shown as messages


def test_odds_of_the_next_flip_is_shown():
    """Issue 7: this row used str.capitalize, which MicroPython lacks."""
    app, _ = _root_home()
    v = choose(app, "Special flips", "Odds of next flip")
    assert v["screen"] == "message" and v["title"].startswith("Crown +0: 1 card"), v
    draw(v)
    assert v["lines"][0].startswith("TRIUMPH")


def test_odds_of_this_flip_is_shown():
    app = with_game(make_app(), stacked(["4", "9"]))
    v = press(app, "B", "C", "DOWN", "B")  # no XP: Flashback, then the odds
    assert v["screen"] == "message" and v["title"].startswith("Crown +0"), v
    draw(v)


def test_every_row_of_the_flip_crit_minigame_and_no_game_menus():
    for root, want in ((_root_flip, "Odds of this flip"), (_root_crit, "No thanks"),
                       (_root_minigame, "Give up"), (_root_no_game, "Yes, new character")):
        chosen, _ = walk(root)
        assert want in [r for _, r in chosen], "%s: %s not reached (%s)" % (root.__name__, want, chosen)


def test_every_gear_row():
    """Menu > Gear & rings and the item cards under it: every row chosen."""
    chosen, _ = walk(_root_home)
    rows = set(r for _, r in chosen)
    titles = set(t for t, _ in chosen)
    for t in ("Gear & rings", "Item cards", "Rope", "Axe", "Orb", "Buckler", "Mail", "What kind of card?",
              "The shield avoids", "Its best result gives", "Its slots take", "Pack cards", "It costs", "Back in the backpack?",
              "Sharpen & Stitch: 1 Pack each", "Power of Axe", "Drop Rope?"):
        assert t in titles, "the walk never reached the %r menu" % t
    for r in ("Use it (Int flip)", "Block with it (Dex, FAST)", "Damage it (1 of 3)", "Reveal its attack power",
              "Capacity +1", "Capacity -1", "Yes, drop it", "Good Thing I Brought...", "Obsessive Contemplation",
              "Yes: name its item card", "Pass the spotlight", "Repair 0, then rest"):
        assert r in rows, "the walk never chose %r" % r


def test_every_row_after_an_item_flip():
    chosen, _ = walk(_root_item_flip)
    rows = [r for _, r in chosen]
    assert "Spend a charge, ONGOING" in rows and "Entreat the Blood-Bound spares it, ONGOING" in rows, rows


def test_every_ring_row_the_edition_has():
    """MD 30 hours: green rings and envelopes; DW: level cards, a new
    session, Wealth."""
    chosen, _ = walk(_root_rings("md", "30h"))
    rows = set(r for _, r in chosen)
    assert "Green rings: 2" in rows and "Open an envelope" in rows and "Goreography (2 rings)" in rows
    chosen, _ = walk(_root_rings("dw-lucky", "oneshot"))
    rows = set(r for _, r in chosen)
    for r in ("Take a level card (0)", "A new session begins", "Wealth: 0 (Speed 6)", "Gain 1 Wealth", "Spend 1 Wealth"):
        assert r in rows, "the walk never chose %r" % r

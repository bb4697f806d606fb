"""The Deckahedron's screens of docs/screens/ (flip_*, home*, menu*, ...): scenes
played with button presses on the real firmware App and its Ui, each view
exactly what the device would draw (so the words, hints and menus cannot drift
from the firmware); host_tools/screens/core.py renders them."""

from host_tools.screens.core import _DocBoard


def _stack(game, top):
    """Put these cards on top of the draw pile (from wherever they are)."""
    s = game.s
    for cid in top:
        for pile in (s.draw, s.discard, s.supply):
            if cid in pile:
                pile.remove(cid)
    s.draw[:0] = list(top)
    s.check()


def views():
    """The doc screens, made by the real firmware: scenes played on the App
    and its Ui with button presses, each view exactly what the device would
    draw (so the words, hints and menus cannot drift from the firmware)."""
    import tempfile

    from app import App

    views = []

    def _gear(app, g):
        g.do("set_edition", {"campaign": "30h"})
        g.s.pack, g.s.precious, g.s.rings = 2, 1, 1
        for args in ({"name": "Orb of Ash", "kind": "magic"}, {"name": "Mail", "kind": "armour"},
                     {"name": "Rope"}):
            g.do("gear_add", args)
        g.do("item_damage", {"name": "Rope"})

    def scene(name, top=(), presses=(), setup=None, seed=3):
        with tempfile.TemporaryDirectory() as folder:
            app = App(_DocBoard(folder), "docs", seed)
            app.boot()
            app.name = "Kresk"
            g = app.game
            g.s.attrs.update({"str": "crown", "dex": "dragon", "int": "blade"})
            _stack(g, top)
            if setup is not None:
                setup(app, g)
            for b in presses:
                app.ui.press(b)
                app.commit()
            views.append((name, app.ui.view()))

    scene("flip_single_crown", ["4"], "B")
    scene("flip_advantage", ["9", "13"], ("A", "UP", "B"))
    scene("flip_three_tie", ["3", "14", "7"], ("A", "A", "UP", "UP", "B"))
    scene("flip_choose_tie", ["9", "5", "1"], ("DOWN", "DOWN", "B", "DOWN"))
    scene("flip_crit_success", ["11"], "B")
    scene("flip_crit_fail", ["1"], "B")
    scene("flip_wound_stopped", ["6", "pw1", "3"], ("UP", "UP", "B"))
    scene("flip_flashback", ["2", "16"], ("A", "A", "B", "C", "B"), lambda a, g: setattr(g.s, "xp", 2))
    scene("flip_blessing_wound_cards", ["pb5", "pw2", "3"], ("A", "A", "DOWN", "DOWN", "B"))
    scene("flip_dw_edition", ["12", "20"], ("A", "A", "UP", "B"), lambda a, g: g.do("set_edition", {"edition_key": "dw-lucky"}))
    scene("home", presses=("UP",), setup=lambda a, g: g.do("set_move", {"name": "Defy Danger", "level": "expert"}))
    scene("home_advantage_kept", ["9", "13"], ("UP", "B", "A"))
    scene("home_incapacitated", setup=lambda a, g: setattr(g.s, "incapacitated", "a third Wound"))
    scene("menu", presses=("C", "DOWN", "DOWN"))
    scene("menu_edition", presses=("C", "UP", "B", "DOWN", "DOWN", "DOWN", "B"))  # Help & settings > Edition
    scene("menu_edition_confirm", presses=("C", "UP", "B", "DOWN", "DOWN", "DOWN", "B", "DOWN", "DOWN", "B"))
    scene("help_footer", presses=("C", "UP", "B", "B"))  # Help & settings > The footer
    scene("number", presses=("C", "DOWN", "DOWN", "B", "B", "UP", "UP", "UP", "UP", "UP", "UP"))  # Hurt > Take damage
    scene("message", presses=("C", "DOWN", "DOWN", "DOWN", "B", "UP", "UP", "B"))  # Special flips > Odds of next flip
    scene("message_blessing_taken", ["11"], ("B", "A", "DOWN", "B"))
    scene("menu_special_flips", presses=("C", "DOWN", "DOWN", "DOWN", "B", "DOWN"))
    scene("menu_damage_ways", presses=("C", "DOWN", "DOWN", "B", "B") + ("UP",) * 9 + ("B",),
          setup=lambda a, g: g.do("set_edition", {"campaign": "30h"}))
    scene("menu_damage_armour", presses=("C", "DOWN", "DOWN", "B", "B") + ("UP",) * 9 + ("B",),
          setup=lambda a, g: [g.do("set_edition", {"campaign": "30h"}),
                              g.do("gear_add", {"name": "Mail", "kind": "armour"})])
    scene("menu_breather_pick", presses=("C", "DOWN", "DOWN", "B", "DOWN", "DOWN", "B", "B", "DOWN", "B", "DOWN"),
          setup=lambda a, g: [g.do("damage", {"power": 4}), setattr(g.s, "exh_tokens", 1)])
    scene("menu_pursuit", presses=("C", "UP", "UP", "B", "UP", "B"), setup=lambda a, g: setattr(g.s, "pack", 2))
    scene("entry_new_move", presses=("C",) + ("DOWN",) * 4 + ("B", "B", "B") + ("DOWN",) * 3 + ("B",) +
          ("UP",) * 2 + ("B",) + ("DOWN",) * 10, setup=lambda a, g: setattr(g.s, "xp", 2))
    scene("menu_gear", presses=("C",) + ("DOWN",) * 5 + ("B",), setup=_gear)  # Gear & rings, 30 hours
    scene("menu_gear_item", presses=("C",) + ("DOWN",) * 5 + ("B", "B", "B"), setup=_gear)  # > Item cards > Orb
    scene("minigame_pick_locks", ["4", "9", "14"], setup=lambda a, g: g.do("minigame_start", {"kind": "pick_locks"}))
    scene("minigame_magic", ["2", "7", "pb1", "pw2"], setup=lambda a, g: g.do("minigame_start", {"kind": "magic"}))
    scene("ask", setup=lambda a, g: a.ui.ask({"ask": 7, "from": "GM", "attr": "dex", "net": 1,
                                               "reason": "climb the wall before the guards turn"}))
    scene("sheet", setup=lambda a, g: [g.do("set_move", {"name": m, "level": lv}) for m, lv in
                                       (("Defy Danger", 1), ("Mix It Up", 0), ("Pick Pockets", -1), ("Volley", 2))],
          presses=("C", "DOWN", "B"))  # Menu > Character sheet

    return views

"""The Facets screens of docs/screens/ (facets_*.png), made like the others
(host_tools/screens/core.py): scenes played with button presses on the real
firmware App on a Facets character, each view exactly what the device would draw."""

import tempfile

from host_tools.screens.core import _DocBoard


def views():
    """Facets (seed 002): a character of that system, its own screens."""
    from app import App

    views = []

    def facets(name, presses=(), setup=None, seed=5):
        with tempfile.TemporaryDirectory() as folder:
            app = App(_DocBoard(folder), "docs", seed)
            app.boot()
            app.name = "Kresk"
            app.new_game(seed, system="facets")
            if setup is not None:
                setup(app, app.game)
            for b in presses:
                app.ui.press(b)
                app.commit()
            views.append((name, app.ui.view()))

    def _hurt(app, g):
        g.do("damage", {"track": "health", "amount": 10})
        g.do("taken_out", {"how": "consequence"})
        g.do("heal", {"track": "health", "amount": 4})

    facets("facets_home", ("UP", "UP"))
    facets("facets_roll_explode", ("B",), seed=1)  # 8, 8, 6: exploded twice, ADVANTAGE x2
    facets("facets_roll_paired_attack", ("C",) + ("DOWN",) * 4 + ("B", "DOWN", "DOWN", "B", "B", "DOWN", "B"),
           seed=3)  # Conflict > Attack > light > Two (-1 step)
    facets("facets_task", ("B", "A", "B", "A"), lambda a, g: g.do("task_start", {"check": "[Finesse 8 - 2/5 - 30s]"}))
    facets("facets_task_done", ("B", "A", "B", "A"),
           lambda a, g: g.do("task_start", {"check": "[Finesse 6 - 2/4 - 30s]"}))
    facets("facets_taken_out", setup=lambda a, g: g.do("damage", {"track": "health", "amount": 12}))
    facets("facets_sheet", ("C",) + ("DOWN",) * 6 + ("B", "DOWN", "DOWN"), _hurt)
    facets("facets_odds", ("UP",) * 4 + ("C", "DOWN", "DOWN", "B"))
    facets("facets_menu", ("C",))
    facets("facets_roll_defend", ("C",) + ("DOWN",) * 4 + ("B",) + ("DOWN",) * 4 + ("B", "DOWN", "B", "DOWN", "DOWN", "B"),
           lambda a, g: g.do("set_rule", {"rule": "specific", "on": True}))  # Strength against a heavy attack
    return views

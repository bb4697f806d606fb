"""The SAVE 2d6 screens of docs/screens/ (save_*.png), made like the
others (host_tools/screens/core.py): scenes played with button presses on the real
firmware App and its SAVE Ui, on a hero whose dice are wound to known faces,
each view exactly what the device would draw."""

import tempfile

from host_tools.screens.core import _DocBoard


def _dice(g, a, b):
    """Wind the hero's PRNG until its next roll shows a then b."""
    rng = g.s.rng
    for _ in range(5000):
        words = list(rng.s)
        if [rng.below(6) + 1, rng.below(6) + 1] == [a, b]:
            rng.s = words
            return
    raise RuntimeError("no PRNG state rolls %d %d" % (a, b))


def views():
    from host_tools import firmware_importable

    firmware_importable()
    from app import App

    out = []
    clocks = [["Ritual", "progress", 6, 2], ["Torches", "setback", 4, 3], ["Escape", "progress", 8, 8]]

    def scene(name, presses=(), dice=None, setup=None, options=None):
        with tempfile.TemporaryDirectory() as folder:
            app = App(_DocBoard(folder), "docs", 3)
            app.boot()
            app.new_game(5, system="save", options=options)
            app.name = "Freya"
            g = app.game
            if setup is not None:
                setup(g)
            if dice is not None:
                _dice(g, dice[0], dice[1])
            app.ui.reset()
            for b in presses:
                app.ui.press(b)
                app.commit()
            out.append((name, app.ui.view()))

    history = {"history": ["fought off a wraith"], "pursuit": "avenge my village"}
    scene("save_home", ("A", "DOWN", "DOWN", "DOWN", "A", "UP", "UP", "UP"))  # preferred, injury marked
    scene("save_roll_mixed", ("A", "DOWN", "DOWN", "DOWN", "A", "B"), (5, 4))
    scene("save_roll_set_aside", ("A", "B"), (5, 2))
    out.append(("save_roll_assisted", _assisted()))
    scene("save_roll_destiny", ("A", "B", "B", "C", "DOWN", "DOWN", "DOWN", "DOWN", "B", "B", "DOWN", "B"), (5, 2),
          options=history)
    scene("save_hero", ("C", "DOWN", "B"), setup=lambda g: [g.do("injure", {"levels": 2}),
                                                            g.do("destiny", {"use": "fact"})], options=history)
    scene("save_clocks", ("C", "DOWN", "DOWN", "B"), setup=lambda g: g.do("set_clocks", {"clocks": clocks}))
    scene("save_clocks_six", ("C", "DOWN", "DOWN", "B"), setup=lambda g: g.do("set_clocks", {"clocks": clocks + [
        ["Alarm", "setback", 12, 5], ["Bridge", "progress", 3, 1], ["Storm", "setback", 10, 7]]}))
    scene("save_odds", ("DOWN", "A", "C", "DOWN", "DOWN", "DOWN", "B"), setup=lambda g: g.do("injure", {"levels": 1}))
    scene("save_menu", ("C", "DOWN", "DOWN", "DOWN", "DOWN"), setup=lambda g: g.do("set_clocks", {"clocks": clocks}))
    scene("save_menu_destiny", ("C", "DOWN", "DOWN", "DOWN", "DOWN", "B"))
    return out


def _assisted():
    """A set-aside roll read again after another hero's mixed assist (the
    host's assist command, as the console sends it)."""
    from app import App

    with tempfile.TemporaryDirectory() as folder:
        app = App(_DocBoard(folder), "docs", 3)
        app.boot()
        app.new_game(5, system="save")
        app.name = "Freya"
        _dice(app.game, 5, 2)
        app.ui.reset()
        for b in ("A", "B"):
            app.ui.press(b)
            app.commit()
        app.command("assist", {"result": "mixed"})
        return app.ui.view()

"""The Deckahedron's character sheet (Menu > Character sheet): each
attribute's suit and each move's level, changed with B. Loaded when opened,
dropped at home with the menus (app.RELEASABLE).
"""

from shared_rules.deck import cards as C
from shared_rules.deck.state import ATTRS, MOVE_LEVELS


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

"""When the e-ink panel gets which kind of update (design §6).

E-ink panels ghost a little with every fast update and clean up with a full
refresh, which takes seconds and flashes the panel. The policy: a clean full
refresh at power-on, after every shuffle (the deck changed completely, and a
pause is natural then) and after every FULL_EVERY fast or partial updates; a
fast update for a flip; a partial update for menus and messages where the
board can do one (else fast). Tunables are class attributes, so a board or a
player's config can change them without touching the app.
"""


class RefreshPolicy:
    FULL_EVERY = 8  # fast/partial updates between clean full refreshes
    PARTIAL_SCREENS = ("menu", "number", "message", "sheet")

    def __init__(self, can_partial=False):
        self.can_partial = can_partial
        self.since_full = 0
        self.full_pending = True  # power-on
        self.counts = {"full": 0, "fast": 0, "partial": 0}

    def shuffled(self):
        self.full_pending = True

    def power_on(self):
        self.full_pending = True

    def mode(self, screen):
        """The update for the next frame of this screen kind; counts it."""
        if self.full_pending or self.since_full >= self.FULL_EVERY:
            mode = "full"
        elif self.can_partial and screen in self.PARTIAL_SCREENS:
            mode = "partial"
        else:
            mode = "fast"
        self.full_pending = False
        self.since_full = 0 if mode == "full" else self.since_full + 1
        self.counts[mode] += 1
        return mode

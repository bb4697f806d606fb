"""When the e-ink panel gets which kind of update (design §6).

E-ink panels ghost a little with every fast update and clean up with a full
refresh, which takes seconds and flashes the panel. The policy: a clean full
refresh at power-on, after every shuffle (the deck changed completely, and a
pause is natural then) and after every FULL_EVERY fast or partial updates; a
fast update for a flip; a partial update for menus and messages where the
board can do one (else fast). Tunables are class attributes, so a board or a
player's config can change them without touching the app.

Tuned for sleeping between presses (issue 12): asleep, a board spends
almost nothing, so a press's charge is its awake time, and a full refresh
keeps a board awake 3-4.5 s against 0.5-0.9 s for a fast one. At
FULL_EVERY = 8 the full refreshes took 12 % (Pico) to 20 % (Badger
switched off) of a session's charge (host_tools/power.py); FULL_EVERY is
therefore 16, which gives 6-11 % more sessions a charge, and a wake from sleep or a power-up
by a press (resume) is no reason for a clean refresh: the panel kept its
image. The trade-off is ghosting: up to 16 fast updates (eight flips) leave
faint outlines of earlier card faces and a greyer white before the clean
refresh, which every reshuffle (about every 15 flips) also gives.

Since issue 29 a fast update is shorter (the SSD1680's 12 frames instead of
Waveshare's 22, 0.28 s; the UC8151's turbo 26 frames instead of Pimoroni's
93-frame fast, 0.26 s), so more is left behind per update; the clean
refreshes stay where they were: 27 of a session's 400 updates (FULL_EVERY 8
would make them 54 and cost 10 % of the Pico's sessions, 21 % of a Badger
switched off, and a 4-4.5 s wait every fourth flip). docs/benchmarks.md
has the figures.
"""


class RefreshPolicy:
    FULL_EVERY = 16  # fast/partial updates between clean full refreshes
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

    def resume(self, count):
        """Powered up by a press, the panel still showing the last screen:
        no clean refresh for that, but one every FULL_EVERY + 1 updates as
        if awake all along, counted from the game's command count (the
        count since the last full refresh died with the RAM)."""
        self.full_pending = False
        self.since_full = count % (self.FULL_EVERY + 1)

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

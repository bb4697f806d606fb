"""When the e-ink panel gets which kind of update (design §6).

E-ink panels ghost a little with every fast update and clean up with a full
refresh, which takes seconds and flashes the panel. The policy: a clean full
refresh at power-on, after every shuffle (the deck changed completely, and a
pause is natural then) and after every FULL_EVERY fast or partial updates; a
fast update for a flip; a partial update for menus and messages where the
board can do one (else fast); and, on a board awake between presses, a clean
full refresh of the screen shown once the panel has sat _IDLE_CLEAN_MS on
fast updates (idle()). Tunables are class attributes, so a board or a
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
switched off, and a 4-4.5 s wait every fourth flip).

The clean after idle (issue 29): panel makers advise against leaving a
panel on partial updates (below). The flip stays fast, since the player
waits for it; the clean refresh comes in the pause after it, when nobody
waits (App.poll), rather than making the first flip after a pause a 4-4.5 s
full one. Only a board awake between presses sees the pause: a host's USB
power, or a board that never sleeps; asleep on a battery the RP2040's timer
stops with its crystal (DORMANT), and "off" or deep sleep lose the RAM, so
a wake cannot tell 10 s from 10 h. At a table's pace (4 h, 200 flips, the
pauses drawn at random around 72 s) it adds 18 clean refreshes to the 27
(41 full of 418 updates, host_tools/power.py); on USB power they cost no
battery, while on a battery (had the boards a clock asleep) they would cost
5-13 % of the sessions and take the MagTag below 50. docs/benchmarks.md has
the figures.
"""

try:
    from micropython import const
except ImportError:  # CPython (host_tools/power.py, the tests)
    def const(x):
        return x


# An awake board whose panel has sat this long on fast or partial updates
# (no update since) cleans it with a full refresh of the same screen.
# Panel makers' advice: Waveshare's e-Paper precautions (the
# Pico-ePaper-2.9's maker) say partial refresh cannot be used all the
# time, a full refresh must follow several, and advise at least 180 s
# between refreshes; Pervasive Displays' Fast Update guide wants a global
# update within 30 s of a fast one. 180 s: the soonest Waveshare's
# interval allows; most pauses at a table are shorter (a flip every 72 s
# on average, host_tools/power.py). A const, not a class attribute: no
# heap on a board (the Badger 2040 W has none to spare).
_IDLE_CLEAN_MS = const(180000)


class RefreshPolicy:
    FULL_EVERY = 16  # fast/partial updates between clean full refreshes
    PARTIAL_SCREENS = ("menu", "number", "message", "sheet")

    def __init__(self, can_partial=False):
        self.can_partial = can_partial
        self.since_full = self.FULL_EVERY  # power-on: FULL_EVERY means a clean refresh is due
        self.shown = 0  # the board's ms ticks at the last update
        self.counts = {"full": 0, "fast": 0, "partial": 0, "clean": 0}  # clean: the full ones made after idle

    def clean_next(self):
        """The next update a clean full one: at power-on, after a shuffle
        (the deck changed completely, and a pause is natural then), after
        a panel error."""
        self.since_full = self.FULL_EVERY

    def resume(self, count):
        """Powered up by a press, the panel still showing the last screen:
        no clean refresh for that, but one every FULL_EVERY + 1 updates as
        if awake all along, counted from the game's command count (the
        count since the last full refresh died with the RAM)."""
        self.since_full = count % (self.FULL_EVERY + 1)

    def mode(self, screen, now):
        """The update for the next frame of this screen kind, drawn at
        ``now`` (the board's ms ticks); counts it."""
        if self.since_full >= self.FULL_EVERY:
            mode = "full"
        elif self.can_partial and screen in self.PARTIAL_SCREENS:
            mode = "partial"
        else:
            mode = "fast"
        self.since_full = 0 if mode == "full" else self.since_full + 1
        self.shown = now
        self.counts[mode] += 1
        return mode

    def idle(self, ms):
        """``ms`` since the last update, the board awake and nobody
        pressing: True when the panel has sat _IDLE_CLEAN_MS on fast or
        partial updates; the caller draws the same screen again, and this
        update is a clean full one (counted in counts["clean"] too)."""
        if self.since_full and ms >= _IDLE_CLEAN_MS:
            self.since_full = self.FULL_EVERY
            self.counts["clean"] += 1
            return True
        return False

"""SAVE's progress and setback clocks, kept by the hub for the whole table.

Seed 003: the guide draws "a progress clock, which is a circle divided into
segments" and fills it "as the heroes accumulate success"; a setback clock
fills "as setbacks occur". A clock belongs to the table, not to one hero, so
the hub keeps it in the session database (table ``clocks``, beside the
table's other state: it outlives a hub restart and a session) and pushes
the whole list with the device command ``set_clocks`` to every SAVE device at
the table, which draws them as segmented circles.

Ticks by result (seed, "Rolling the Dice"): a complete success marks two
ticks on a progress clock, a mixed result one on a progress clock and one on
a setback clock, a complete failure two on a setback clock; or as many as the
guide says. A clock stops at full; the first tick that fills it says so.

    clocks = Clocks(hub)
    clocks.create("Ritual", 6)                    # progress, 6 segments
    clocks.create("Torches", 4, kind="setback")
    clocks.tick("Ritual", result="complete")      # +2
    clocks.tick("Torches", 1)
"""

import json
import time

from shared_rules.errors import RulesError
from shared_rules.save2d6.game import CLOCK_KINDS, MAX_CLOCKS, RESULTS, check_clock


# Ticks a result marks on each kind of clock (seed 003, "Rolling the Dice").
TICKS = {"progress": {"complete": 2, "mixed": 1, "failure": 0},
         "setback": {"complete": 0, "mixed": 1, "failure": 2}}


class ClockError(Exception):
    """A clock command that cannot be done; the message says why."""


class Clocks:
    def __init__(self, hub):
        self.hub = hub
        hub.store.make_clocks()

    def all(self):
        """The table's clocks in the order they were made, as the device's
        set_clocks takes them."""
        rows = self.hub.store.clocks().fetchall()
        return [{"name": r[0], "kind": r[1], "segments": r[2], "filled": r[3]} for r in rows]

    def get(self, name):
        for c in self.all():
            if c["name"] == name:
                return c
        raise ClockError("no clock named %r (clocks: %s)" % (name, ", ".join(c["name"] for c in self.all()) or "none"))

    def create(self, name, segments, kind="progress"):
        if kind not in CLOCK_KINDS:
            raise ClockError("a clock is a progress or a setback clock, not %r" % (kind,))
        try:
            check_clock([name, kind, segments, 0])
        except RulesError as e:
            raise ClockError(str(e))
        have = self.all()
        if any(c["name"] == name for c in have):
            raise ClockError("there is a clock named %s already" % name)
        if len(have) >= MAX_CLOCKS:
            raise ClockError("the table has %d clocks already: remove one first" % MAX_CLOCKS)
        self.hub.store.add_clock(name, kind, segments, time.time())
        self._log("clock_new", {"name": name, "kind": kind, "segments": segments})
        return self.get(name)

    def tick(self, name, ticks=None, result=None):
        """Fill ``ticks`` segments, or as many as ``result`` (complete, mixed,
        failure) marks on this kind of clock. Returns (clock, just_filled)."""
        c = self.get(name)
        if ticks is None:
            if result not in RESULTS:
                raise ClockError("tick a clock by a number of segments or by a result (complete, mixed, failure)")
            ticks = TICKS[c["kind"]][result]
        if type(ticks) is not int or not -c["segments"] <= ticks <= c["segments"]:
            raise ClockError("ticks are a whole number from -%d to %d for %s" % (c["segments"], c["segments"], name))
        filled = min(c["segments"], max(0, c["filled"] + ticks))
        self.hub.store.fill_clock(filled, time.time(), name)
        just_filled = filled == c["segments"] and c["filled"] < c["segments"]
        self._log("clock_tick", {"name": name, "ticks": ticks, "result": result},
                  {"filled": filled, "segments": c["segments"], "full": filled == c["segments"]})
        return self.get(name), just_filled

    def remove(self, name):
        self.get(name)
        self.hub.store.remove_clock(name)
        self._log("clock_remove", {"name": name})

    def _log(self, op, args, result=None):
        hub = self.hub
        hub.store.log_entry(hub.session, time.time(), "", None, "clock", None, op, json.dumps(args, sort_keys=True),
                            json.dumps(result or {}, sort_keys=True), None, None)
        hub.db.commit()

    def save_players(self):
        """The players whose devices play SAVE (as last mirrored)."""
        return [n for n, p in self.hub.players.items() if p.state.get("system") == "save"]

    def push(self, only_stale=False):
        """Send the clocks to every SAVE device at the table (with
        only_stale, to those whose mirrored clocks differ). Returns
        {player: "" or why it could not be told}: an offline device is told
        on the next push."""
        clocks = self.all()
        out = {}
        for name in self.save_players():
            p = self.hub.players[name]
            if only_stale and (p.state.get("clocks") == clocks or not p.online or p.link is None
                               or p.faulty or p.question is not None):
                continue  # told already, or not reachable now: the next push tells it
            try:
                self.hub.command(name, "set_clocks", clocks=clocks)
                out[name] = ""
            except Exception as e:  # offline, faulty, a question open: said, not fatal
                out[name] = str(e) or type(e).__name__
        return out


def describe_clock(c):
    return "%s clock %s: %d/%d%s" % (c["kind"], c["name"], c["filled"], c["segments"],
                                     " (full)" if c["filled"] == c["segments"] else "")

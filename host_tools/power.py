"""Battery model for the supported boards: the one source of the figures
the build guides in hardware/ quote (a test keeps the guides in step).

    python -m host_tools.power                 # sessions per 1000 mAh, per board and mode
    python -m host_tools.power --board badger2040 --mode off --flips 300

The goal (issue 12): at least GOAL_SESSIONS sessions of SESSION_HOURS hours
and SESSION_FLIPS flips on 1000 mAh, on every board, with press-to-pixels
still set by the panel. The firmware sleeps between presses (with no USB
host: with one the board runs on USB power and draws no battery), so a
session's charge is

- each press (a flip is B then A, SCREENS_PER_FLIP): the board wakes (a
  DORMANT RP2040 resumes at once; a Badger switched "off" boots; a MagTag
  restarts CircuitPython), does the press's work, drives the panel's update
  (full or fast, as firmware/refresh.py's RefreshPolicy picks: counted by
  running it over the session, not by a formula) and, SLEEP_AFTER_S later,
  sleeps again. Awake, the board draws its awake current, plus the panel's
  refresh current while the panel updates;
- the rest of the session asleep, at the mode's sleep current;
- a share of the nominal capacity is usable (cut-off, ageing, temperature).

Measured, not assumed, where the emulated Pico can measure it
(bench/bench_pico.py, emulated RP2040 time, `make bench` prints it fresh):
an RP2040 board's press work ("press_s": button edge to the panel's update
command) and a Badger's boot ("boot_s": power-on by a press to that press's
update command). The sleep currents are the boards' datasheet or measured
figures, with their sources, in the board registry (firmware/boards/
boards.json, "power" and its "notes"); every other assumption is a named
constant below with where its number comes from. Currents are battery-side
(what a meter in series with the cell reads) unless the name says RAIL
(the 3.3 V rail, converted through the board's regulator).
"""

import argparse
import random

from host_tools import boards as registry
from host_tools import firmware_importable


# ---------------------------------------------------------------- the session
SESSION_HOURS = 4
SESSION_FLIPS = 200  # ~50 flips an hour: a busy table
GOAL_SESSIONS = 50  # per 1000 mAh (issue 12)
GOAL_MAH = 1000
# One flip as a player makes it: B shows the flip, A ("done") goes back home
# (firmware/deck/ui.py FlipScreen: hint "A done  B again  C more"). Two presses,
# two panel updates. ("B again" ends a flip and makes the next in one press:
# a player who flips that way spends about half.)
SCREENS_PER_FLIP = ("flip", "home")
# A reshuffle every ~15 flips: the 20-card Deckahedron runs out after 10-20
# flips of 1-3 cards. The flip that reshuffles is drawn with a clean full
# refresh (App.command -> RefreshPolicy.clean_next()).
SHUFFLE_EVERY_FLIPS = 15
MIX_FLIPS = 100  # the refresh mix is also quoted per 100 flips
# A board that stays awake between presses (the registry's mode key): its
# app's clock counts the pauses, so firmware/refresh.py cleans a panel left
# on fast updates longer than its idle threshold. A sleeping board's clock
# does not count its sleep (a DORMANT RP2040's timer stops with the
# crystal; "off" and deep sleep lose the RAM): no clean after idle.
AWAKE = "awake"
# The pauses after a player's flips: the session's pace on average (4 h / 200
# flips = 72 s), drawn from an exponential distribution (a table's turns come
# at no fixed pace; an assumption), seeded so the counts repeat.
PAUSE_SEED = 29
UPDATES = ("full", "fast", "partial")  # the kinds of update; a mix's "clean" counts some of its full ones
# No input this long after a press, no host: the board sleeps
# (BoardBase.SLEEP_AFTER_MS, MagTagBoard.SLEEP_AFTER_MS: 100 ms).
SLEEP_AFTER_S = 0.1

# ------------------------------------------------------------ electrical basics
RAIL_V = 3.3  # every board runs its MCU and panel from a 3.3 V rail
LIPO_NOMINAL_V = 3.7  # Adafruit LiPo product pages: 4.2 V full, 3.7 V nominal, cut-out at 3.0 V
# Share of the nominal capacity a board really gets: the protection circuit
# cuts at 3.0 V, the regulators brown out a little above that, cells age and
# lose capacity in the cold. Assumption (no vendor figure): 85 %.
USABLE_FRACTION = 0.85
SMPS_EFFICIENCY = 0.90  # buck-boost at a few mA-tens of mA; assumption, range 0.80-0.92

# -------------------------------------------------------------- the e-ink panels
# Waveshare Pico-ePaper-2.9 spec: "Refresh power: 26.4 mW (typ.)" for the
# panel and its driver board, at 3.3 V = 8.0 mA. The same vendor figure is
# given for its other 2.9" panels; Solomon's SSD16xx e-paper controllers are
# quoted at a typical 8 mA operating current (Espruino SSD1606 page). No
# UC8151 (Badger, first MagTag) or SSD1680 datasheet current was in the
# sources read: 8 mA is used for all three panels, range 5-10 mA.
PANEL_REFRESH_MW = 26.4
PANEL_REFRESH_MA_RAIL = PANEL_REFRESH_MW / RAIL_V
# Our drivers keep a panel ready after a fast update (powered, its waveform
# loaded: firmware/drivers/ssd1680.py, uc8151.py) until the board sleeps,
# SLEEP_AFTER_S after the press, or READY_MS awake on USB power (no
# battery). No current for a controller idling with its charge pumps on was
# in the sources read: the refresh figure above bounds it from above.
PANEL_READY_MA_RAIL = PANEL_REFRESH_MA_RAIL

# ----------------------------------------------------------------- the firmware
# Where the emulated Pico cannot measure (the MagTag runs CircuitPython on an
# ESP32-S2): the work measured on the PC unix port, scaled by the board's
# slowdown (registry). docs/benchmarks.md: firmware work per flip (two
# presses) 3.6-4.0 ms on the MicroPython unix port on a PC -> 2 ms a press;
# start-up, code from .mpy: imports 3.1-3.7 ms + boot and first render
# 1.6-1.8 ms.
FIRMWARE_PC_S_PER_PRESS = 0.002
BOOT_PC_S = 0.0055

# ------------------------------------------------------------------- the boards
# Each board's figures (battery, awake current, panel update times, its
# regulator, the measured press and boot work, and per sleep mode its sleep
# current and how it wakes) are in the board registry,
# firmware/boards/boards.json, "power", with their sources in its "notes".
WAKES = ("resume", "boot", "restart")  # RAM kept / an RP2040 boots / CircuitPython restarts


class Mode:
    """How a board sleeps between presses."""

    def __init__(self, key, what, sleep_ma, wake, setting=None):
        if wake not in WAKES:
            raise ValueError("unknown wake %r (known: %s)" % (wake, ", ".join(WAKES)))
        self.key, self.what, self.sleep_ma, self.wake, self.setting = key, what, sleep_ma, wake, setting


class Board:
    """One target's power parameters (see the registry's notes for sources)."""

    def __init__(self, key, title, battery_mah, battery_part, awake_ma, full_s, fast_s, modes,
                 press_s=None, boot_s=None, slowdown=None, restart_phases=(), regulator_eff=None,
                 panel_ma_rail=PANEL_REFRESH_MA_RAIL, panel_wake_s=0.0, can_partial=False, partial_s=None,
                 panel_ready=False):
        self.key = key
        self.title = self.short = title
        self.battery_mah = battery_mah
        self.battery_part = battery_part
        self.awake_ma = awake_ma
        self.full_s = full_s
        self.fast_s = fast_s
        self.partial_s = partial_s if partial_s is not None else fast_s
        self.can_partial = can_partial
        # measured on the emulated Pico where given, else the PC's figure scaled
        self.measured = press_s is not None
        if press_s is None:
            press_s = FIRMWARE_PC_S_PER_PRESS * slowdown + panel_wake_s
        if boot_s is None and slowdown is not None:
            boot_s = BOOT_PC_S * slowdown
        self.press_s, self.boot_s = press_s, boot_s
        self.restart_phases = tuple(restart_phases)  # (s, mA) of a CircuitPython restart
        self.modes = modes  # {key: Mode}, the board's default first
        self.regulator_eff = regulator_eff  # None: a linear regulator (battery current = rail current)
        self.panel_ma_rail = panel_ma_rail
        self.panel_ready = panel_ready  # the driver keeps the panel powered until the board sleeps

    @classmethod
    def from_registry(cls, key, entry):
        p = entry["power"]
        if p["regulator"] not in REGULATORS:
            raise ValueError("board %s: unknown regulator %r in the registry" % (key, p["regulator"]))
        upd = p["update_s"]
        modes = dict((name, Mode(name, m["what"], m["sleep_ma"], m["wake"], m.get("setting")))
                     for name, m in p["modes"].items())
        board = cls(key, entry["title"], p["battery_mah"], p["battery_part"], awake_ma=p["awake_ma"],
                   full_s=upd["full"], fast_s=upd["fast"], partial_s=upd.get("partial"), modes=modes,
                   press_s=p.get("press_s"), boot_s=p.get("boot_s"), slowdown=p.get("slowdown"),
                   restart_phases=[tuple(w) for w in p.get("restart", [])],
                   regulator_eff=REGULATORS[p["regulator"]], panel_wake_s=p.get("panel_wake_s", 0.0),
                   can_partial=p["can_partial"], panel_ready=p.get("panel_ready", False))
        board.short = entry.get("short", entry["title"])
        return board

    def to_battery(self, rail_ma):
        """A current on the 3.3 V rail as drawn from the cell."""
        if self.regulator_eff is None:
            return rail_ma
        return rail_ma * RAIL_V / (LIPO_NOMINAL_V * self.regulator_eff)

    @property
    def panel_ma(self):
        return self.to_battery(self.panel_ma_rail)

    def update_s(self, mode):
        return {"full": self.full_s, "fast": self.fast_s, "partial": self.partial_s}[mode]

    def panel_mj(self, mode):
        """Energy the panel itself takes for one update, on the rail (mJ)."""
        return self.panel_ma_rail * RAIL_V * self.update_s(mode)

    def wake(self, mode):
        """(seconds, mA*s) from the wake to the press's update command."""
        wake = self.modes[mode].wake
        if wake == "resume":
            return self.press_s, self.press_s * self.awake_ma
        if wake == "boot":
            return self.boot_s, self.boot_s * self.awake_ma
        t = sum(s for s, _ in self.restart_phases) + self.boot_s
        return t, sum(s * ma for s, ma in self.restart_phases) + self.boot_s * self.awake_ma

    def press_to_pixels(self, mode, update="fast"):
        """Seconds from the press (asleep before it) to its result on the glass."""
        return self.wake(mode)[0] + self.update_s(update)


# How each kind of regulator in the registry turns rail current into cell
# current: a buck-boost at its efficiency, a linear one passes it through.
REGULATORS = {"buck-boost": SMPS_EFFICIENCY, "linear": None}

BOARDS = dict((key, Board.from_registry(key, entry)) for key, entry in registry.real_boards().items())


# ------------------------------------------------------------- the refresh mix
firmware_importable()
from refresh import RefreshPolicy  # noqa: E402  (firmware/refresh.py: the device's own policy)


def refresh_mix(flips=MIX_FLIPS, shuffle_every=SHUFFLE_EVERY_FLIPS, screens=SCREENS_PER_FLIP,
                can_partial=False, pause_s=None):
    """Count the panel updates of a simulated session: ``flips`` flips from
    power-on, each drawing ``screens`` in turn, a reshuffle on every
    ``shuffle_every``-th flip (None: never). Sleeping between presses adds
    no update and no clean refresh: the press that wakes the board acts,
    a wake keeps the policy's count (App.sleep, App.boot ->
    RefreshPolicy.resume), and the board's clock does not count the sleep.
    ``pause_s``: the mean pause after each flip of a board awake between
    presses (its app's clock counts it), drawn as PAUSES says; a pause
    longer than the policy's idle threshold brings a clean full refresh of
    the screen shown (App.poll -> RefreshPolicy.idle). Returns {"full": n,
    "fast": n, "partial": n, "clean": n} (clean: of the full, those after idle)."""
    policy = RefreshPolicy(can_partial)
    policy.clean_next()
    pauses = random.Random(PAUSE_SEED) if pause_s else None
    now = 0
    for i in range(1, flips + 1):
        if shuffle_every and i % shuffle_every == 0:
            policy.clean_next()
        for screen in screens:
            policy.mode(screen, now)
        if pauses is not None:
            now += int(pauses.expovariate(1.0 / pause_s) * 1000)
            if policy.idle(now - policy.shown):
                policy.mode(screens[-1], now)  # the same screen, cleaned
    return dict(policy.counts)


# ---------------------------------------------------------------- the estimate
def _board(board):
    return BOARDS[board] if isinstance(board, str) else board


def session(board, mode=None, flips=SESSION_FLIPS, hours=SESSION_HOURS, battery_mah=None):
    """The charge of one session of ``flips`` flips in ``hours`` hours, the
    board sleeping between presses in ``mode`` (default: the board's
    default mode), and what it comes to. Returns a dict: mah (the
    session's charge), sessions_per_1000 (on GOAL_MAH), sessions (on
    ``battery_mah``, default the guide's battery), press_to_pixels (fast
    and full, seconds), and the breakdown."""
    b = _board(board)
    mode = mode or next(iter(b.modes))
    if mode not in b.modes:
        raise ValueError("board %s has no mode %r (it has %s)" % (b.key, mode, ", ".join(b.modes)))
    if flips <= 0 or hours <= 0:
        raise ValueError("a session has a positive number of flips and hours")
    mah = b.battery_mah if battery_mah is None else battery_mah
    if mah <= 0:
        raise ValueError("battery_mah must be positive")
    m = b.modes[mode]
    mix = refresh_mix(flips, can_partial=False, pause_s=hours * 3600.0 / flips if mode == AWAKE else None)
    presses = flips * len(SCREENS_PER_FLIP)
    wake_s, wake_q = b.wake(mode)
    t_update = dict((k, mix[k] * b.update_s(k)) for k in UPDATES)
    t_awake = presses * (wake_s + SLEEP_AFTER_S) + sum(t_update.values())
    t_session = hours * 3600.0
    if t_awake > t_session:
        raise ValueError("%s cannot make %s flips in %s hours: it would be awake %.0f s" % (b.key, flips, hours, t_awake))
    charge = {  # mA*s
        "wake_and_work": presses * (wake_q + SLEEP_AFTER_S * b.awake_ma),
        "mcu_during_updates": sum(t_update.values()) * b.awake_ma,
        "panel": sum(t_update.values()) * b.panel_ma,
        "asleep": (t_session - t_awake) * m.sleep_ma,
        "panel_ready": presses * SLEEP_AFTER_S * b.to_battery(PANEL_READY_MA_RAIL) if b.panel_ready else 0.0,
    }
    session_mah = sum(charge.values()) / 3600.0
    usable = USABLE_FRACTION
    return {
        "board": b.key, "mode": mode, "flips": flips, "hours": hours, "presses": presses,
        "mix": mix, "awake_s": t_awake, "charge_mas": charge, "mah": session_mah,
        "sessions_per_1000": GOAL_MAH * usable / session_mah,
        "battery_mah": mah, "sessions": mah * usable / session_mah,
        "press_to_pixels": {"fast": b.press_to_pixels(mode, "fast"), "full": b.press_to_pixels(mode, "full")},
        "measured": b.measured,
    }


def session_refreshes(flips=SESSION_FLIPS, hours=SESSION_HOURS):
    """The refresh mix of a session, per way of spending the pauses:
    [(what, mix)]: asleep between presses (on a battery), and awake (a
    host's USB power, or a board that never sleeps), where the policy
    cleans after idle."""
    return [("asleep between presses", refresh_mix(flips)),
            ("awake between presses", refresh_mix(flips, pause_s=hours * 3600.0 / flips))]


def standby_days(board, mode=None, battery_mah=None):
    """Days a full battery lasts with the board asleep in ``mode``, untouched."""
    b = _board(board)
    m = b.modes[mode or next(iter(b.modes))]
    mah = b.battery_mah if battery_mah is None else battery_mah
    return mah * USABLE_FRACTION / m.sleep_ma / 24.0


def _standby(days):
    # Past a year the cell's own self-discharge, not the board, sets the limit.
    return "over a year" if days > 365 else "%d days" % round(days)


def quoted(board, mode=None):
    """The figures the guides quote for one board and mode, rounded as they
    print them: sessions per 1000 mAh, sessions on the guide's battery,
    press-to-pixels (fast update) in seconds to 0.1, standby."""
    r = session(board, mode)
    return {"sessions_per_1000": int(r["sessions_per_1000"]), "sessions": int(r["sessions"]),
            "press_to_pixels": "%.1f s" % r["press_to_pixels"]["fast"],
            "standby": _standby(standby_days(board, r["mode"]))}


def table():
    """One row per board and mode, the board's default mode first."""
    rows = []
    for key, b in BOARDS.items():
        for mode in b.modes:
            r = session(key, mode)
            r.update(title=b.title, what=b.modes[mode].what, standby_days=standby_days(key, mode),
                     meets_goal=r["sessions_per_1000"] >= GOAL_SESSIONS)
            rows.append(r)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.power", description=__doc__.splitlines()[0])
    ap.add_argument("--board", choices=sorted(BOARDS), help="one board, with its breakdown")
    ap.add_argument("--mode", help="its sleep mode (default: the board's default)")
    ap.add_argument("--flips", type=int, default=SESSION_FLIPS, help="flips in a session (default %d)" % SESSION_FLIPS)
    ap.add_argument("--hours", type=float, default=SESSION_HOURS, help="hours in a session (default %d)" % SESSION_HOURS)
    ap.add_argument("--battery", type=float, help="battery capacity in mAh (default: the guide's)")
    args = ap.parse_args(argv)
    if args.board:
        try:
            r = session(args.board, args.mode, args.flips, args.hours, args.battery)
        except ValueError as e:
            ap.error(str(e))
        print("%s, %s: %.2f mAh a session of %d flips in %g h; %.0f sessions per %d mAh, %.0f on %d mAh"
              % (args.board, r["mode"], r["mah"], r["flips"], r["hours"], r["sessions_per_1000"], GOAL_MAH,
                 r["sessions"], r["battery_mah"]))
        print("refresh mix: %s; press to pixels %.2f s (fast), %.2f s (full)"
              % (r["mix"], r["press_to_pixels"]["fast"], r["press_to_pixels"]["full"]))
        for k, v in r["charge_mas"].items():
            print("  %-20s %8.3f mAh" % (k, v / 3600.0))
        return 0
    print("%d-hour sessions of %d flips (B then A), goal %d per %d mAh" % (SESSION_HOURS, SESSION_FLIPS,
                                                                         GOAL_SESSIONS, GOAL_MAH))
    print("%-15s %-8s %12s %14s %16s %12s" % ("board", "mode", "mAh/session", "per 1000 mAh", "on its battery",
                                               "press->px"))
    for r in table():
        print("%-15s %-8s %12.1f %14d %10d (%4d) %10.2f s%s" % (  # whole sessions, as the guides quote them
            r["board"], r["mode"], r["mah"], r["sessions_per_1000"], r["sessions"], r["battery_mah"],
            r["press_to_pixels"]["fast"], "" if r["meets_goal"] else "  below the goal"))
    for what, mix in session_refreshes():
        print("panel updates of a session (%d presses), %s: %d full (%d of them after idle), %d fast"
              % (2 * SESSION_FLIPS, what, mix["full"], mix["clean"], mix["fast"] + mix["partial"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

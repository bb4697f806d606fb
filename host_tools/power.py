"""Battery-life model for the supported boards: the one source of the figures
the build guides in hardware/ quote (a test keeps the guides in step).

    python -m host_tools.power            # the table, at 60 flips/hour
    python -m host_tools.power --flips 30 --board badger2040 --battery 1000

The model charges one hour of play to the battery:

- every flip is the screens a player goes through (press B: the flip screen;
  press A, "done": home), each pushed to the panel with the update that
  firmware/refresh.py's RefreshPolicy picks. The full/fast mix is counted by
  running that RefreshPolicy (imported from firmware/ on CPython) through a
  simulated session with a stated shuffle rate, not by a formula;
- an update keeps the MCU awake while the panel drives its waveform: the
  board's awake current plus the panel's refresh current, for the panel's
  update time (full or fast);
- the firmware's own work per press (measured on the PC unix port, scaled to
  the board's clock);
- between flips the firmware's poll loop keeps the board awake until the idle
  power-off (App.IDLE_OFF_MS in firmware/app.py, read from the source); only
  after that does the board reach its real sleep mode (Badger: halt, power
  cut; Pico: lightsleep with the panel in deep sleep; MagTag: deep sleep),
  and the next press pays a boot and a clean full refresh
  (App.sleep calls RefreshPolicy.power_on);
- a share of the nominal capacity is usable (cut-off, ageing, temperature).

Every assumption is a named constant below, with where its number comes
from. Currents are battery-side (what a meter in series with the cell reads)
unless the name says RAIL (the 3.3 V rail, converted through the board's
regulator).
"""

import argparse
import ast
import importlib.util
import re
from pathlib import Path

from host_tools import boards as registry

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE_DIR = ROOT / "firmware"

# ---------------------------------------------------------------- the session
FLIPS_PER_HOUR = 60  # the stated play rate of the guides: one flip a minute, a busy table
# One flip as a player makes it: B shows the flip, A ("done") goes back home
# (firmware/ui.py FlipScreen: hint "A done  B again  C more"). Two panel updates.
SCREENS_PER_FLIP = ("flip", "home")
# A reshuffle every ~15 flips: the 20-card Deckahedron runs out after 10-20
# flips of 1-3 cards (assumption stated in the hardware issue). The flip that
# reshuffles is drawn with a clean full refresh (App.command -> shuffled()).
SHUFFLE_EVERY_FLIPS = 15
MIX_FLIPS = 100  # the refresh mix is counted over this many flips from power-on
# A board woken from its sleep mode boots (or returns from lightsleep) and
# draws the home screen, a clean full refresh (App.boot / App.sleep call
# RefreshPolicy.power_on); the wake press itself is not a command
# (firmware/boards/badger2040.py: reset_pressed_to_wake; magtag.py: the
# deep-sleep wake restarts code.py). The flip then takes its B and A.
WAKE_SCREENS = ("home",)

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

# ----------------------------------------------------------------- the firmware
# docs/benchmarks.md: firmware work per flip (two presses: rules, save, render)
# 3.6-4.0 ms on the MicroPython unix port on a PC -> 2 ms per press.
FIRMWARE_PC_S_PER_PRESS = 0.002
# Start-up on the PC unix port, code from .mpy: imports 3.1-3.7 ms + boot and
# first render 1.6-1.8 ms (measured for this model with build/mpy, 5 runs).
BOOT_PC_S = 0.0055
# Each board's slowdown against the PC unix port is in the registry.


def _firmware_idle_off_s():
    """App.IDLE_OFF_MS from firmware/app.py (the idle power-off), in seconds."""
    text = (FIRMWARE_DIR / "app.py").read_text()
    m = re.search(r"^\s*IDLE_OFF_MS\s*=\s*([0-9 *+]+)", text, re.M)
    if not m:
        raise RuntimeError("IDLE_OFF_MS not found in firmware/app.py: update host_tools/power.py")
    value = _int_expr(ast.parse(m.group(1).strip(), mode="eval").body)
    return value / 1000.0


def _int_expr(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Add)):
        a, b = _int_expr(node.left), _int_expr(node.right)
        return a * b if isinstance(node.op, ast.Mult) else a + b
    raise RuntimeError("IDLE_OFF_MS in firmware/app.py is not a plain integer product")


IDLE_OFF_S = _firmware_idle_off_s()  # 300 s as of firmware/app.py
# The what-if the guides also quote: a firmware that sleeps 15 s after the
# last press (time to read the flip and press A), so a board at 60 flips/hour
# sleeps between flips and wakes, with a boot where the board has one, for
# each flip. A suggestion, not what the firmware does today.
SUGGESTED_IDLE_OFF_S = 15.0

# ------------------------------------------------------------------- the boards
# Each board's figures (battery, awake and sleep currents, panel update
# times, the wake after a sleep, its regulator) are in the board registry,
# firmware/boards/boards.json, "power", with their sources in its "notes".


class Board:
    """One target's power parameters (see the registry's notes for sources)."""

    def __init__(self, key, title, battery_mah, battery_part, awake_ma, full_s, fast_s,
                 slowdown, wake_phases, sleep_ma, sleep_mode, regulator_eff=None,
                 panel_ma_rail=PANEL_REFRESH_MA_RAIL, extra_ma=0.0, panel_wake_s=0.0,
                 can_partial=False, partial_s=None):
        self.key = key
        self.title = title
        self.battery_mah = battery_mah
        self.battery_part = battery_part
        self.awake_ma = awake_ma
        self.full_s = full_s
        self.fast_s = fast_s
        self.partial_s = partial_s if partial_s is not None else fast_s
        self.can_partial = can_partial
        self.firmware_s = FIRMWARE_PC_S_PER_PRESS * slowdown
        self.boot_s = BOOT_PC_S * slowdown
        self.wake_phases = tuple(wake_phases)
        self.sleep_ma = sleep_ma
        self.sleep_mode = sleep_mode
        self.regulator_eff = regulator_eff  # None: a linear regulator (battery current = rail current)
        self.panel_ma_rail = panel_ma_rail
        self.extra_ma = extra_ma
        self.panel_wake_s = panel_wake_s

    @classmethod
    def from_registry(cls, key, entry):
        p = entry["power"]
        if p["regulator"] not in REGULATORS:
            raise ValueError("board %s: unknown regulator %r in the registry" % (key, p["regulator"]))
        upd = p["update_s"]
        return cls(key, entry["title"], p["battery_mah"], p["battery_part"], awake_ma=p["awake_ma"],
                   full_s=upd["full"], fast_s=upd["fast"], partial_s=upd.get("partial"),
                   slowdown=p["slowdown"], wake_phases=[tuple(w) for w in p["wake"]],
                   sleep_ma=p["sleep_ma"], sleep_mode=p["sleep_mode"],
                   regulator_eff=REGULATORS[p["regulator"]], panel_wake_s=p["panel_wake_s"],
                   can_partial=p["can_partial"])

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


# How each kind of regulator in the registry turns rail current into cell
# current: a buck-boost at its efficiency, a linear one passes it through.
REGULATORS = {"buck-boost": SMPS_EFFICIENCY, "linear": None}

BOARDS = dict((key, Board.from_registry(key, entry)) for key, entry in registry.real_boards().items())


# ------------------------------------------------------------- the refresh mix
def _load_refresh_policy():
    """firmware/refresh.py's RefreshPolicy, loaded on CPython under a private
    module name (putting firmware/ on sys.path would shadow host names)."""
    spec = importlib.util.spec_from_file_location("_deckahedron_fw_refresh", FIRMWARE_DIR / "refresh.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.RefreshPolicy


RefreshPolicy = _load_refresh_policy()


def refresh_mix(flips=MIX_FLIPS, shuffle_every=SHUFFLE_EVERY_FLIPS, screens=SCREENS_PER_FLIP,
                wake_each_flip=False, can_partial=False):
    """Count the panel updates of a simulated session: ``flips`` flips from
    power-on, each drawing ``screens`` in turn, a reshuffle on every
    ``shuffle_every``-th flip (None: never). When the board sleeps between
    flips, each flip starts with a wake: RefreshPolicy.power_on() and the
    home screen drawn (WAKE_SCREENS), because the press that woke the board
    is not a command. Returns {"full": n, "fast": n, "partial": n}."""
    policy = RefreshPolicy(can_partial)
    policy.power_on()
    for i in range(1, flips + 1):
        if wake_each_flip:
            policy.power_on()
            for screen in WAKE_SCREENS:
                policy.mode(screen)
        if shuffle_every and i % shuffle_every == 0:
            policy.shuffled()
        for screen in screens:
            policy.mode(screen)
    return dict(policy.counts)


# ---------------------------------------------------------------- the estimate
def estimate_hours(board, flips_per_hour=FLIPS_PER_HOUR, battery_mah=None, idle_off_s=None):
    """Hours of play on one charge, and a breakdown of where the charge goes.

    ``board``: a key of BOARDS or a Board. ``idle_off_s``: how long the board
    stays awake after the last input before its sleep mode (default: the
    firmware's App.IDLE_OFF_MS). Both presses of a flip fall inside that
    window; a board that sleeps between flips wakes once per flip.
    Returns (hours, breakdown)."""
    b = BOARDS[board] if isinstance(board, str) else board
    if flips_per_hour <= 0:
        raise ValueError("flips_per_hour must be positive")
    mah = b.battery_mah if battery_mah is None else battery_mah
    if mah <= 0:
        raise ValueError("battery_mah must be positive")
    idle_off = IDLE_OFF_S if idle_off_s is None else idle_off_s
    gap_s = 3600.0 / flips_per_hour
    sleeps = gap_s > idle_off  # the board reaches its sleep mode between flips

    mix = refresh_mix(wake_each_flip=sleeps, can_partial=False)
    per_flip = {k: v / MIX_FLIPS for k, v in mix.items()}
    updates_per_flip = sum(per_flip.values())
    updates_h = flips_per_hour * updates_per_flip
    presses_h = flips_per_hour * len(SCREENS_PER_FLIP)

    # time (s per hour) and charge (mA*s per hour), item by item
    t_update = {m: flips_per_hour * per_flip[m] * b.update_s(m) for m in per_flip}
    q_update_mcu = sum(t_update.values()) * b.awake_ma
    q_panel = {m: t_update[m] * b.panel_ma for m in per_flip}
    t_panel_wake = updates_h * b.panel_wake_s
    t_firmware = presses_h * b.firmware_s
    wakes_h = flips_per_hour if sleeps else 0.0
    t_wake = wakes_h * (sum(s for s, _ in b.wake_phases) + (b.boot_s if b.wake_phases else 0.0))
    q_wake = wakes_h * (sum(s * ma for s, ma in b.wake_phases) + (b.boot_s * b.awake_ma if b.wake_phases else 0.0))
    t_active = sum(t_update.values()) + t_panel_wake + t_firmware + t_wake
    if t_active > 3600.0:
        raise ValueError("%s cannot make %s flips an hour: the panel alone is busy %.0f s"
                         % (b.key, flips_per_hour, t_active))
    if sleeps:
        t_idle = min(3600.0 - t_active, flips_per_hour * idle_off)
    else:
        t_idle = 3600.0 - t_active
    t_sleep = 3600.0 - t_active - t_idle

    charge = {  # mAh per hour = average mA
        "panel_full": q_panel["full"] / 3600.0,
        "panel_fast": q_panel["fast"] / 3600.0,
        "panel_partial": q_panel["partial"] / 3600.0,
        "mcu_during_updates": (q_update_mcu + t_panel_wake * b.awake_ma) / 3600.0,
        "firmware": t_firmware * b.awake_ma / 3600.0,
        "wake": q_wake / 3600.0,
        "awake_idle": t_idle * b.awake_ma / 3600.0,
        "sleep": t_sleep * b.sleep_ma / 3600.0,
        "always_on": b.extra_ma,
    }
    avg_ma = sum(charge.values())
    hours = mah * USABLE_FRACTION / avg_ma
    breakdown = {
        "board": b.key,
        "battery_mah": mah,
        "usable_mah": mah * USABLE_FRACTION,
        "flips_per_hour": flips_per_hour,
        "idle_off_s": idle_off,
        "sleeps_between_flips": sleeps,
        "sleep_mode": b.sleep_mode,
        "mix_per_100_flips": mix,
        "updates_per_hour": updates_h,
        "panel_mj": {"full": b.panel_mj("full"), "fast": b.panel_mj("fast")},
        "panel_ma": b.panel_ma,
        "awake_ma": b.awake_ma,
        "sleep_ma": b.sleep_ma,
        "seconds_per_hour": {"updates": sum(t_update.values()) + t_panel_wake, "firmware": t_firmware,
                             "wake": t_wake, "awake_idle": t_idle, "sleep": t_sleep},
        "mah_per_hour": charge,
        "average_ma": avg_ma,
        "hours": hours,
    }
    return hours, breakdown


def standby_days(board, battery_mah=None):
    """Days a full battery lasts with the board in its sleep mode, untouched."""
    b = BOARDS[board] if isinstance(board, str) else board
    mah = b.battery_mah if battery_mah is None else battery_mah
    return mah * USABLE_FRACTION / (b.sleep_ma + b.extra_ma) / 24.0


def quoted(board, flips_per_hour=FLIPS_PER_HOUR):
    """The figures the guides quote, rounded as they print them:
    hours of play with the firmware as it is, hours if the board slept
    SUGGESTED_IDLE_OFF_S after the last press, days on standby."""
    play, _ = estimate_hours(board, flips_per_hour)
    sleepy, _ = estimate_hours(board, flips_per_hour, idle_off_s=SUGGESTED_IDLE_OFF_S)
    days = standby_days(board)
    # Past a year the cell's own self-discharge, not the board, sets the limit.
    standby = "over a year" if days > 365 else "%d days" % round(days)
    return {"hours": int(round(play)), "hours_if_sleeping": int(round(sleepy)), "standby": standby}


def table(flips_per_hour=FLIPS_PER_HOUR):
    """One row per board: key, title, battery, hours, hours if sleeping, standby days, average mA."""
    rows = []
    for key, b in BOARDS.items():
        hours, bd = estimate_hours(key, flips_per_hour)
        sleepy, _ = estimate_hours(key, flips_per_hour, idle_off_s=SUGGESTED_IDLE_OFF_S)
        rows.append({"board": key, "title": b.title, "battery_mah": b.battery_mah,
                     "hours": hours, "hours_if_sleeping": sleepy,
                     "standby_days": standby_days(key), "average_ma": bd["average_ma"]})
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.power", description=__doc__.splitlines()[0])
    ap.add_argument("--flips", type=float, default=FLIPS_PER_HOUR, help="flips per hour (default 60)")
    ap.add_argument("--board", choices=sorted(BOARDS), help="one board, with its breakdown")
    ap.add_argument("--battery", type=float, help="battery capacity in mAh (default: the guide's)")
    ap.add_argument("--idle-off", type=float, help="seconds awake after the last press (default: the firmware's)")
    args = ap.parse_args(argv)
    if args.board:
        hours, bd = estimate_hours(args.board, args.flips, args.battery, args.idle_off)
        print("%s: %.0f hours (%.2f mA average, %.0f mAh usable)" % (args.board, hours, bd["average_ma"], bd["usable_mah"]))
        print("refresh mix per 100 flips: %s" % bd["mix_per_100_flips"])
        for k, v in bd["mah_per_hour"].items():
            print("  %-20s %8.3f mAh/h" % (k, v))
        return 0
    print("%-15s %8s %10s %14s %10s" % ("board", "battery", "hours", "if sleeping", "standby"))
    for r in table(args.flips):
        print("%-15s %5d mAh %8.0f h %12.0f h %7.0f d" % (r["board"], r["battery_mah"], r["hours"],
                                                     r["hours_if_sleeping"], r["standby_days"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

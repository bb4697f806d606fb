"""Figures of the firmware on the emulated Pico (MicroPython rp2 in rp2040js,
host_tools/sim/emulated.py), in emulated RP2040 time, with the unix-port sim
board's figures beside them from the same run.

    python bench/bench_pico.py [--presses N] [--session N] [--flips N] [--badger N] [--dormant N]

Measured from outside the firmware: the panel's update commands (0x20) and
the fall of its BUSY line, the button edges and the flash's erase/program
operations all carry the emulated clock. Heap figures come from the
firmware's own ``hello`` fields (heap_used, heap_free, heap_low) and the
rules/save/render split from its ``stats`` query, when it has them.

The firmware's own work per press to the panel's update command, split
into rules, render and the panel's frame conversion, per press kind, and the
save that follows it (App.poll), is bench/bench_device_work.py run on an
emulated Pico as its main.py (the device code in ROMFS as ever, no flash
chip times): at the RP2040's default 125 MHz, against the goal, and at
200 MHz beside it; the unix port's figures from the same script.

The Badger 2040 and the Badger 2040 W, each apart (the same image, our
UC8151 driver on its panel model; the W's own board module, its RTC
unanswered: the emulator does not model the PCF85063A, so no RTC wake is
timed) get their boot and per-press figures after them, and their
boot-to-result when switched off between presses: powered up by a held B,
to the update showing that flip (``--badger 0``: no Badger).

Asleep on the battery (``--dormant N``, 0: none): the USB cable unplugged,
the Pico DORMANT between presses (each Badger too, with sleep=dormant):
per press, the button edge to the crystal running again, to the panel's
update command and to the pixels, and the update's end to the next DORMANT
(host_tools/sim/emu/dormant.mjs), with the events of 32 earlier presses kept
(a long session with no host: each save rewrites them). The power model's
press_s is this press, measured with --flash-timing (the flash chip's
erase and program times charged, as on a board).

Prints a table, then ``pico.NAME: value unit`` / ``unix.NAME: ...`` /
``badger2040.NAME: ...`` / ``badger2040w.NAME: ...`` lines.
Skips (exit 0, one line saying why) without the base image, the bootrom or
Node.js; exit 1 when a figure could not be taken.
"""

import argparse
import os
import select
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from host_tools.sim.emulated import EmuBoard, EmuError, prepare_littlefs, unavailable  # noqa: E402
from host_tools.link import DeviceError, DeviceLink, LinkError  # noqa: E402
from host_tools.sim.unixport import SimBoard  # noqa: E402

NS = 1e-9
SEED = 7
PRESSES = 20
SESSION = 200
FLIPS = 500  # presses with no host (issue: >= 500)
BADGER_PRESSES = 10
DORMANT_PRESSES = 10
STOCK_PRESSES = 500  # the random walk on the official image (bench/bench_stock.py)
DORMANT_PATTERN = ("B", "A")  # a flip as a player makes it: each press draws
WAKE_HOLD_MS = 400  # how long a player holds the button that powers a Badger up
PATTERN = ("B", "UP")  # B flips and flips again, UP gets out of any menu (tests/emu/test_no_host.py)
HEAP_GOAL = 64 * 1024
BOOT_GOAL_MS = 1000
PRESS_GOAL_MS = 15  # the firmware's own work a press (bench_device_work.py press), inside the edge-to-update time
WALL = 120.0  # wall seconds any one step may take
BOARD_OPTIONS = {"flash_timing": False}
WORK_SCRIPT = ROOT / "bench" / "bench_device_work.py"  # the firmware's own work per press, any MicroPython
WORK_FLIPS = 10  # 20 presses timed stage by stage, then 20 with flips of three cards
WORK_STAGES = ("rules", "render", "convert")  # to the update command; the save follows it (App.poll)
FAST_MHZ = 200  # the RP2040's fastest certified clock (at 1.15 V core; pico-sdk 2.1.1): what it would buy
KEPT_EVENTS = 32  # firmware/endpoint.py MAX_EVENTS: what a board played long without a host keeps  # --flash-timing: the flash chip's erase and program times charged


def ms(seconds):
    return ("%.1f ms" if abs(seconds) < 0.01 else "%.0f ms") % (seconds * 1000)


def kb(n):
    return "%.1f KB" % (n / 1024) if isinstance(n, (int, float)) else "n/a"


def median(xs):
    return statistics.median(xs) if xs else None


def wait_hello(port, timeout=WALL):
    end = time.monotonic() + timeout
    while True:
        try:
            with DeviceLink(port, timeout=2.0, retries=0) as link:
                return link.hello()
        except LinkError:
            if time.monotonic() > end:
                raise
            time.sleep(0.2)


def is_update(e):
    return e.get("ev") == "update"


def press(board, button, quiet=4.0):
    """Press on the emulated board: (edge time, the update it caused or None
    after `quiet` emulated seconds without one)."""
    since = board.event_count()
    t = board.press(button)
    end = time.monotonic() + WALL
    while time.monotonic() < end:
        for e in board.events_since(since):
            if is_update(e):
                return t, e
        if board.time() > t + quiet:
            return t, None
        time.sleep(0.05)
    raise EmuError("no update and no quiet after pressing %s" % button)


def idle(board, until):
    """Wait for the emulated board's clock to pass ``until`` (seconds)."""
    end = time.monotonic() + WALL
    while board.time() < until:
        if time.monotonic() > end:
            raise EmuError("the emulated clock stopped")
        time.sleep(0.05)


def settle_flash(board, quiet=0.5):
    """Flash counters once no erase/program came for `quiet` emulated s."""
    last, since = board.flash_ops(), board.time()
    end = time.monotonic() + WALL
    while time.monotonic() < end:
        time.sleep(0.2)
        now = board.flash_ops()
        if now["ops"] != last["ops"]:
            last, since = now, board.time()
        elif board.time() - since >= quiet:
            return now
    raise EmuError("the flash never went quiet")


def session_commands(link, n):
    """n rules commands over the link as a table plays them (flip, choose
    on a tie, end the flip); each is framed, answered, saved and drawn. A
    flip left open by the presses before is finished first."""
    done = 0
    flip = link.state().get("flip")
    while done < n:
        if flip is None:
            flip = link.request("flip", attr="str")
        elif flip.get("phase") == "choose":
            link.request("choose", card=flip["tied"][0])
            flip = dict(flip, phase="open")
        else:
            link.request("end_flip")
            flip = None
        done += 1
    return done


def heap(info):
    return {k: info.get(k) for k in ("platform", "heap_used", "heap_free", "heap_low")}


def stats(link):
    """The firmware's split of its last press, when it offers one."""
    try:
        return link.request("stats")
    except DeviceError:
        return None


def bench_pico(base, presses, session, flips):
    out = {}
    board = EmuBoard("p1", str(Path(base) / "pico"), seed=SEED, **BOARD_OPTIONS)
    try:
        wall = time.monotonic()
        board.start()
        first = board.wait_event(is_update, timeout=WALL)
        out["boot"] = first["t"] * NS
        out["boot_pixels"] = first["until"] * NS
        info = wait_hello(board.port)
        out["boot_wall"] = time.monotonic() - wall
        out["heap_boot"] = heap(info)
        settle_flash(board)
        # A press during the power-on full update (3 s of BUSY) waits for it
        # (the first press came 2.6 s before its update command): time the
        # presses as a player makes them, on the home screen already shown.
        idle(board, first["until"] * NS + 0.3)

        # per press: edge -> 0x20, edge -> BUSY low, and the save's flash ops
        to_cmd, to_pixels, save_span, save_ops, press_wall = [], [], [], [], []
        to_ready, ready_to_ram = [], []  # the panel's power-on, which the press's work runs inside
        for i in range(presses):
            board.flash_ops(log=True)  # empties the log
            w = time.monotonic()
            edge, update = press(board, PATTERN[i % len(PATTERN)])
            if update is None:
                continue
            press_wall.append(time.monotonic() - w)
            to_cmd.append(update["t"] * NS - edge)
            to_pixels.append(update["until"] * NS - edge)
            if update.get("ready") and update.get("ram"):
                to_ready.append(update["ready"] * NS - edge)
                ready_to_ram.append((update["ram"] - update["ready"]) * NS)
            settle_flash(board)
            idle(board, update["until"] * NS + 0.3)  # the next press finds the panel done and asleep, as in play
            log = board.flash_ops(log=True)["log"]
            ops = [op for op in log if op[0] * NS >= edge]
            if ops:
                save_ops.append(len(ops))
                save_span.append((ops[-1][0] - ops[0][0]) * NS)
        out["press_to_cmd"] = to_cmd
        out["press_to_pixels"] = to_pixels
        out["press_to_ready"] = to_ready
        out["ready_to_ram"] = ready_to_ram
        out["save_span"] = save_span
        out["save_ops"] = save_ops
        out["press_wall"] = press_wall

        with DeviceLink(board.port, timeout=30.0) as link:
            out["stats"] = stats(link)
            t0, w = board.time(), time.monotonic()
            session_commands(link, session)
            out["session_emu"] = board.time() - t0
            out["session_wall"] = time.monotonic() - w
            out["heap_session"] = heap(link.hello())

        if flips:
            t0, w = board.time(), time.monotonic()
            start = wait_hello(board.port)
            for i in range(flips):
                press(board, PATTERN[i % len(PATTERN)])
            end = wait_hello(board.port)
            out["flips"] = {"presses": flips, "commands": end["count"] - start["count"],
                            "events": end["events"], "dropped": end["events_dropped"],
                            "emu": board.time() - t0, "wall": time.monotonic() - w, "heap": heap(end)}
        out["violations"] = len(board.violations())
    except Exception:
        board.close()
        log = Path(board.log_path)
        if log.exists():  # the emulator's own words on what went wrong
            sys.stderr.write(log.read_text()[-3000:])
        raise
    board.close()
    return out


def bench_badger(base, presses, board_name):
    """A Badger (2040, or 2040 W): boot, then presses once the home
    screen's full update (4.5 s of OTP waveform) is over."""
    out = {}
    board = EmuBoard("b1", str(Path(base) / board_name), seed=SEED, board=board_name, **BOARD_OPTIONS)
    try:
        wall = time.monotonic()
        board.start()
        first = board.wait_event(is_update, timeout=WALL)
        out["boot"] = first["t"] * NS
        out["boot_pixels"] = first["until"] * NS
        latch = [e for e in board.events_since(0) if e.get("ev") == "latch" and e["level"] == 1]
        out["latch"] = latch[0]["t"] * NS if latch else None
        wait_hello(board.port)
        out["boot_wall"] = time.monotonic() - wall
        while board.time() < out["boot_pixels"]:
            time.sleep(0.1)
        settle_flash(board)
        to_cmd, to_pixels, kinds, press_wall = [], [], {}, []
        for i in range(presses):
            w = time.monotonic()
            edge, update = press(board, PATTERN[i % len(PATTERN)])
            if update is None:
                continue
            press_wall.append(time.monotonic() - w)
            to_cmd.append(update["t"] * NS - edge)
            to_pixels.append(update["until"] * NS - edge)
            kinds[update["kind"]] = kinds.get(update["kind"], 0) + 1
            while board.time() < update["until"] * NS:  # the next press finds the panel idle
                time.sleep(0.05)
            settle_flash(board)
        out.update(press_to_cmd=to_cmd, press_to_pixels=to_pixels, kinds=kinds, press_wall=press_wall)
        out["violations"] = len(board.violations())
    finally:
        board.close()
    return out


def bench_badger_wake(base, board_name, button="B", hold_ms=None):
    """A Badger switched off between presses (sleep=off): power-on
    with `button` held for hold_ms, the press that powers it up, to the
    panel update that shows that press's result: boot-to-result; the
    events of KEPT_EVENTS earlier presses kept, as in a long session with no
    host (that press's save rewrites them)."""
    hold_ms = WAKE_HOLD_MS if hold_ms is None else hold_ms
    board = EmuBoard("b2", str(Path(base) / (board_name + "-wake")), seed=SEED, board=board_name, **BOARD_OPTIONS)
    try:
        board.start()  # the first power-on: a new game, saved
        board.wait_event(is_update, timeout=WALL)
        wait_hello(board.port)
        settle_flash(board)
        with DeviceLink(board.port, timeout=30.0) as link:
            keep_events(board, link, KEPT_EVENTS)
        before = wait_hello(board.port)["count"]
        settle_flash(board)
        board.stop()
        board.start(wake=(button, hold_ms))
        first = board.wait_event(is_update, timeout=WALL)
        latch = [e for e in board.events_since(0) if e.get("ev") == "latch" and e["level"] == 1]
        after = wait_hello(board.port)["count"]
        return {"to_update": first["t"] * NS, "to_pixels": first["until"] * NS, "kind": first["kind"],
                "latch": latch[0]["t"] * NS if latch else None, "acted": after - before, "hold_ms": hold_ms}
    finally:
        board.close()


BADGERS = (("badger2040", "Badger 2040"), ("badger2040w", "Badger 2040 W"))  # (board, title): each benched apart


def badger_wake_rows(w, key, title):
    return [
        (key + ".wake_latch_high", "%s off: power-on by a press to ENABLE_3V3 high" % title,
         ms(w["latch"]) if w["latch"] is not None else "never", "", "< hold (%d ms)" % w["hold_ms"]),
        (key + ".boot_to_result", "%s off: power-on by B to that flip's update command" % title,
         ms(w["to_update"]), "", ""),
        (key + ".boot_to_result_pixels", "%s off: power-on by B to the flip on the glass" % title,
         ms(w["to_pixels"]), "", ""),
        (key + ".boot_to_result_kind", "%s off: that update, and commands the press made" % title,
         "%s, %d" % (w["kind"], w["acted"]), "", "fast, 1"),
    ]


def badger_rows(b, key, title):
    def m(xs):
        x = median(xs)
        return ms(x) if x is not None else "n/a"

    kinds = ", ".join("%d %s" % (n, k) for k, n in sorted(b["kinds"].items())) or "none"
    return [
        (key + ".latch_high", "%s: power-on to ENABLE_3V3 driven high" % title,
         ms(b["latch"]) if b["latch"] is not None else "never", "", ""),
        (key + ".boot_to_home", "%s: power-on to the home screen's refresh (DRF)" % title,
         ms(b["boot"]), "", "<= %d ms" % BOOT_GOAL_MS),
        (key + ".boot_to_home_pixels", "%s: power-on to the home screen on the glass" % title,
         ms(b["boot_pixels"]), "", ""),
        (key + ".press_to_update", "%s: button edge to DRF (median)" % title, m(b["press_to_cmd"]), "",
         "work <= %d ms" % PRESS_GOAL_MS),
        (key + ".press_to_pixels", "%s: button edge to pixels on the glass (median)" % title,
         m(b["press_to_pixels"]), "", ""),
        (key + ".updates", "%s: the presses' updates" % title, kinds, "", ""),
        (key + ".panel_refusals", "%s: commands the UC8151 refused" % title, "%d" % b["violations"], "", "0"),
        (key + ".wall_boot", "%s: wall time, emulated boot to hello" % title, "%.1f s" % b["boot_wall"], "", ""),
    ]


def keep_events(board, link, n):
    """n events kept on the board, as after a while played with no host:
    presses (B, A) that run commands while the host acknowledges nothing;
    a new character when two in a row ran none (a menu, knocked out); then
    the seeded character the board booted with, so the timed presses that
    follow flip as on a fresh board. Every save then rewrites them."""
    kept, i, idle = 0, 0, 0
    saves = link.request("stats")["saves"]
    while kept < n:
        since = board.event_count()
        board.press("BA"[i % 2])
        i += 1
        board.wait_event(is_update, timeout=WALL, since=since)
        settle_flash(board, quiet=0.3)
        now = link.request("stats")["saves"]
        kept, idle = (kept + 1, 0) if now > saves else (kept, idle + 1)
        saves = now
        if idle >= 2:
            link.request("new_game", confirm=True, seed=SEED + i)
            saves, idle, i = link.request("stats")["saves"], 0, 0
    link.request("new_game", confirm=True, seed=SEED)
    settle_flash(board)


def bench_dormant(base, presses, board_name="pico-epaper29"):
    """Presses on a board asleep on its battery (the cable unplugged:
    DORMANT between presses; the Badger with sleep=dormant), the events of
    KEPT_EVENTS earlier presses kept (a long session with no host: each
    save rewrites them)."""
    settings = {"sleep": "dormant"} if board_name.startswith("badger") else None
    board = EmuBoard("d1", str(Path(base) / ("dormant-" + board_name)), seed=SEED, board=board_name,
                     settings=settings, **BOARD_OPTIONS)

    def ev(name):
        return lambda e: e.get("ev") == name

    try:
        board.start()
        first = board.wait_event(is_update, timeout=WALL)
        wait_hello(board.port)
        while board.time() < first["until"] * NS:
            time.sleep(0.1)
        settle_flash(board)
        with DeviceLink(board.port, timeout=30.0) as link:
            keep_events(board, link, KEPT_EVENTS)
        since = board.event_count()
        board.host_away("unplugged")
        board.wait_event(ev("dormant"), timeout=WALL, since=since)
        out = {"wake": [], "to_cmd": [], "to_pixels": [], "to_sleep": [], "kinds": {}}
        for i in range(presses):
            since = board.event_count()
            edge = board.press(DORMANT_PATTERN[i % len(DORMANT_PATTERN)])
            wake = board.wait_event(ev("wake"), timeout=WALL, since=since)
            update = board.wait_event(is_update, timeout=WALL, since=since)
            again = board.wait_event(ev("dormant"), timeout=WALL, since=since)
            out["wake"].append(wake["t"] * NS - edge)
            out["to_cmd"].append(update["t"] * NS - edge)
            out["to_pixels"].append(update["until"] * NS - edge)
            out["to_sleep"].append((again["t"] - update["until"]) * NS)
            out["kinds"][update["kind"]] = out["kinds"].get(update["kind"], 0) + 1
        out["chip"] = board.chip()["dormant"]
        out["violations"] = len(board.violations())
        return out
    finally:
        board.close()


def dormant_rows(d, prefix, title):
    def m(xs):
        x = median(xs)
        return ms(x) if x is not None else "n/a"

    kinds = ", ".join("%d %s" % (n, k) for k, n in sorted(d["kinds"].items())) or "none"
    c = d["chip"]
    return [
        (prefix + "dormant_wake", "%s DORMANT: button edge to the crystal running (median)" % title,
         m(d["wake"]), "", ""),
        (prefix + "dormant_press_to_update", "%s DORMANT: button edge to the update command (median)" % title,
         m(d["to_cmd"]), "", ""),
        (prefix + "dormant_press_to_pixels", "%s DORMANT: button edge to pixels on the glass (median)" % title,
         m(d["to_pixels"]), "", ""),
        (prefix + "dormant_again", "%s DORMANT: update's end to DORMANT again (median)" % title,
         m(d["to_sleep"]), "", ""),
        (prefix + "dormant_counts", "%s DORMANT: entries / wakes, the presses' updates" % title,
         "%d / %d, %s" % (c["entries"], c["wakes"], kinds), "", ""),
        (prefix + "dormant_panel_refusals", "%s DORMANT: commands the panel refused" % title,
         "%d" % d["violations"], "", "0"),
    ]


def bench_unix(base, presses, session):
    out = {}
    board = SimBoard("p1", str(Path(base) / "unix"), seed=SEED)
    try:
        wall = time.monotonic()
        board.start()
        panel = Path(board.flash_dir) / "panel.pbm"
        while not panel.exists() and time.monotonic() - wall < WALL:
            time.sleep(0.005)
        out["boot"] = time.monotonic() - wall
        info = wait_hello(board.port)
        out["heap_boot"] = heap(info)
        with DeviceLink(board.port, timeout=10.0) as link:
            rtt = []
            for i in range(presses):
                t0 = time.perf_counter()
                link.request("press", button=PATTERN[i % len(PATTERN)])
                rtt.append(time.perf_counter() - t0)
            out["press_rtt"] = rtt
            out["stats"] = stats(link)
            t0 = time.perf_counter()
            session_commands(link, session)
            out["session"] = time.perf_counter() - t0
            out["heap_session"] = heap(link.hello())
    finally:
        board.close()
    return out


class ScriptBoard(EmuBoard):
    """An emulated Pico whose main.py is a bench script: the device code
    in its ROMFS as ever, no flash chip times (the firmware's own work)."""

    def __init__(self, name, flash_dir, script):
        EmuBoard.__init__(self, name, flash_dir, seed=SEED)
        self.script = script

    def _prepare_flash(self):
        EmuBoard._prepare_flash(self)
        prepare_littlefs(self.fs_path, {"main.py": self.script})


def work_figures(text):
    """{stage: median ms} and the clock line from bench_device_work.py press's output."""
    out = {}
    for line in text.splitlines():
        key, _, rest = line.partition(": ")
        if key.startswith("press_") and rest.endswith(")") and " ms (max " in rest:
            out[key[6:]] = float(rest.split()[0])
        elif key == "press_clock":
            out["clock"] = rest
    return out


def bench_work(base, mhz=None):
    """bench_device_work.py press on the emulated Pico (at mhz MHz when given)."""
    call = ["press", str(WORK_FLIPS)] + ([str(mhz)] if mhz else [])
    script = WORK_SCRIPT.read_bytes() + b"\nmain(%s)\nprint('bench done')\n" % repr(call).encode()
    board = ScriptBoard("w%s" % (mhz or ""), str(Path(base) / ("work%s" % (mhz or ""))), script)
    text = ""
    try:
        board.start()
        fd = os.open(board.port, os.O_RDWR | os.O_NOCTTY)
        try:
            end = time.monotonic() + WALL
            while "bench done" not in text and time.monotonic() < end:
                if select.select([fd], [], [], 1.0)[0]:
                    text += os.read(fd, 4096).decode(errors="replace")
        finally:
            os.close(fd)
    finally:
        board.close()
    figs = work_figures(text)
    if not all(k in figs for k in WORK_STAGES + ("flip_total", "end_total", "flip3_total", "save")):
        raise EmuError("bench_device_work.py press on the emulated Pico: %s" % (text.strip().splitlines() or ["no output"])[-1])
    return figs


def unix_work():
    """The same script on the unix port (64-bit: ~40x a Pico's speed)."""
    import shutil
    import subprocess

    exe = shutil.which("micropython", path=str(Path(sys.executable).parent)) or shutil.which("micropython")
    if exe is None:
        return {}
    run = subprocess.run([exe, str(WORK_SCRIPT), "press", str(WORK_FLIPS)], cwd=str(ROOT),
                         capture_output=True, text=True, timeout=WALL)
    return work_figures(run.stdout)


def work_rows(pico, fast, unix):
    """The firmware's own work per press: the stages to the update command,
    per press kind against the goal, the save after it, and at FAST_MHZ."""
    def split(f):
        return " + ".join("%.2f" % f[k] for k in WORK_STAGES) + " ms" if f else ""

    def one(f, k):
        return "%.2f ms" % f[k] if f else ""

    return [
        ("press_work_split", "press: the firmware's own work to the update command, rules + render + conversion "
         "(medians, bench_device_work.py press %d; no flash chip times)" % WORK_FLIPS, split(pico), split(unix), ""),
        ("press_work_flip", "  their sum, press B: a flip, to the flip screen", one(pico, "flip_total"),
         one(unix, "flip_total"), "<= %d ms" % PRESS_GOAL_MS),
        ("press_work_end", "  their sum, press A: the flip's end, home", one(pico, "end_total"),
         one(unix, "end_total"), "<= %d ms" % PRESS_GOAL_MS),
        ("press_work_flip3", "  their sum, press B with net +2: a flip of three cards", one(pico, "flip3_total"),
         one(unix, "flip3_total"), "<= %d ms" % PRESS_GOAL_MS),
        ("press_work_save", "  then, while the panel refreshes: the press's digest, event line and save",
         one(pico, "save"), one(unix, "save"), ""),
        ("press_work_%dmhz" % FAST_MHZ, "  press B with the clock at %s" % fast.get("clock", "%d MHz" % FAST_MHZ),
         one(fast, "flip_total"), "", ""),
    ]


def rows(pico, unix, session):
    """(name, label, pico, unix, goal) rows."""
    def m(xs):
        x = median(xs)
        return ms(x) if x is not None else "n/a"

    hp, hu = pico["heap_boot"], unix["heap_boot"]
    sp, su = pico["heap_session"], unix["heap_session"]
    out = [
        ("platform", "sys.platform", hp.get("platform") or "n/a", hu.get("platform") or "n/a", ""),
        ("heap_used_boot", "heap in use after boot", kb(hp.get("heap_used")), kb(hu.get("heap_used")),
         "<= %d KB" % (HEAP_GOAL // 1024)),
        ("heap_low_session%d" % session, "lowest free heap, %d-command session" % session,
         kb(sp.get("heap_low")), kb(su.get("heap_low")), ""),
        ("heap_used_session%d" % session, "heap in use after the session", kb(sp.get("heap_used")),
         kb(su.get("heap_used")), "<= %d KB" % (HEAP_GOAL // 1024)),
        ("boot_to_home", "power-on to the home screen's update command", ms(pico["boot"]),
         ms(unix["boot"]) + " (wall, first frame)", "<= %d ms" % BOOT_GOAL_MS),
        ("boot_to_home_pixels", "power-on to the home screen on the glass (BUSY low)",
         ms(pico["boot_pixels"]), "", ""),
        ("press_to_update", "press: button edge to the panel's update command (median)",
         m(pico["press_to_cmd"]), m(unix["press_rtt"]) + " (link round trip, wall)", ""),
        ("press_to_ready", "press: button edge to the panel powered on (woken at the edge; the work runs meanwhile)",
         m(pico["press_to_ready"]), "", ""),
        ("ready_to_ram", "press: the panel powered on to the frame's first RAM write (the work's lateness, if any)",
         m(pico["ready_to_ram"]), "", ""),
        ("press_to_update_max", "press: button edge to update command (max)",
         ms(max(pico["press_to_cmd"])) if pico["press_to_cmd"] else "n/a", "", ""),
        ("press_to_pixels", "press: button edge to pixels on the glass (median)", m(pico["press_to_pixels"]), "", ""),
        ("save", "littlefs save after a press: first to last flash op (median)", m(pico["save_span"]), "", ""),
        ("save_ops", "littlefs save: erase + program operations (median)",
         "%d" % median(pico["save_ops"]) if pico["save_ops"] else "n/a", "", ""),
        ("session%d" % session, "%d-command firmware session over the link" % session,
         "%.1f s (%.0f ms/command)" % (pico["session_emu"], pico["session_emu"] * 1000 / max(1, session)),
         "%.1f s wall" % unix["session"], ""),
    ]
    for name, st in (("stats", pico.get("stats")),):
        if st:
            out.append((name, "last press, the firmware's own split (stats)", str(st), str(unix.get("stats")), ""))
    f = pico.get("flips")
    if f:
        out.append(("flips%d_no_host" % f["presses"], "%d presses with no host: commands, events kept / dropped"
                    % f["presses"], "%d, %d / %d" % (f["commands"], f["events"], f["dropped"]), "", ""))
        out.append(("flips%d_no_host_time" % f["presses"], "  their time: emulated / wall",
                    "%.0f s / %.0f s wall" % (f["emu"], f["wall"]), "", ""))
        out.append(("flips%d_no_host_heap_low" % f["presses"], "  lowest free heap after them",
                    kb(f["heap"].get("heap_low")), "", ""))
    out.append(("panel_refusals", "commands the panel refused (while BUSY, asleep...)",
                "%d" % pico["violations"], "", "0"))
    out.append(("wall_boot", "wall time: emulated boot to hello", "%.1f s" % pico["boot_wall"], "", ""))
    out.append(("wall_per_press", "wall time per press (median)", "%.1f s" % median(pico["press_wall"])
                if pico["press_wall"] else "n/a", "", ""))
    return out


def run(presses=PRESSES, session=SESSION, flips=FLIPS, badger=BADGER_PRESSES, dormant=DORMANT_PRESSES,
        stock=STOCK_PRESSES):
    """The rows, or (None, why) when the emulated Pico cannot run here."""
    why = unavailable()
    if why:
        return None, why
    with tempfile.TemporaryDirectory(prefix="deckahedron-bench-pico-") as base:
        pico = bench_pico(base, presses, session, flips)
        unix = bench_unix(base, presses, session)
        extra = work_rows(bench_work(base), bench_work(base, FAST_MHZ), unix_work())
        if dormant:
            extra += dormant_rows(bench_dormant(base, dormant), "", "Pico")
        for key, title in BADGERS if badger else ():
            extra += badger_rows(bench_badger(base, badger, key), key, title)
            extra += badger_wake_rows(bench_badger_wake(base, key), key, title)
            if dormant:
                extra += dormant_rows(bench_dormant(base, dormant, key), key + ".", title)
        if stock and unavailable("stock") is None:  # the official image, the game as .mpy files
            import bench_stock

            extra += [(n, label, v, "", goal) for n, label, v, goal in
                      bench_stock.rows(bench_stock.measure(base, stock), stock)]
        if unavailable("circuitpython") is None:  # the same Pico and panel on CircuitPython
            import bench_circuitpython

            extra += [(n, label, v, "", goal) for n, label, v, goal in
                      bench_circuitpython.rows(bench_circuitpython.measure(base), bench_circuitpython.PRESSES)]
            import bench_cp_names  # where that heap goes: the .mpy files' names and strings

            extra += [(n, label, v, "", goal) for n, label, v, goal in bench_cp_names.rows()]
    return rows(pico, unix, session) + extra, None


def print_rows(table_rows, console=None):
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    table = Table(title="The firmware on an emulated Pico (rp2040js, emulated RP2040 time)")
    table.add_column("measure")
    table.add_column("RP2040 (emulated)", justify="right")
    table.add_column("unix port", justify="right")
    table.add_column("goal", justify="right")
    for _, label, a, b, g in table_rows:
        table.add_row(label, a, b, g)
    console.print(table)
    print()
    for name, _, a, b, _ in table_rows:
        print("%s: %s" % (name if "." in name else "pico." + name, a))
        if b:
            print("unix.%s: %s" % (name, b))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=PRESSES, help="presses timed one by one")
    parser.add_argument("--session", type=int, default=SESSION, help="commands in the link session")
    parser.add_argument("--flips", type=int, default=FLIPS, help="presses with no host (0: none)")
    parser.add_argument("--badger", type=int, default=BADGER_PRESSES,
                        help="presses timed on each emulated Badger, the 2040 and the 2040 W (0: no Badger)")
    parser.add_argument("--dormant", type=int, default=DORMANT_PRESSES,
                        help="presses timed on boards asleep on their battery, DORMANT (0: none)")
    parser.add_argument("--stock", type=int, default=STOCK_PRESSES,
                        help="presses of the random walk on the official MicroPython image (0: no stock board)")
    parser.add_argument("--flash-timing", action="store_true",
                        help="charge the flash chip's erase and program times (W25Q16JV typical): a board's pace")
    args = parser.parse_args(argv)
    BOARD_OPTIONS["flash_timing"] = args.flash_timing
    try:
        table_rows, why = run(args.presses, args.session, args.flips, args.badger, args.dormant, args.stock)
    except (EmuError, LinkError) as e:
        print("error: emulated Pico bench: %s" % e)
        return 1
    if why:
        print("emulated Pico bench skipped: %s" % why)
        return 0
    print_rows(table_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())

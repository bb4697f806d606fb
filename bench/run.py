"""`make bench`: speed and memory figures of the rules core on CPython and MicroPython.

Runs bench/bench_rules.py under each runtime and prints a table, then the same
figures as plain ``name: value unit`` lines to paste into notes; then the
firmware on the emulated Pico (bench/bench_pico.py) with the unix-port
figures beside them, when the RP2040 base image is there; and what a GM's
action costs at a table with one silent board (bench/bench_silent.py). Figures, not
assertions: the exit status is 1 only when a benchmark could not run.
"""

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

import bench_latency
import bench_pico
import bench_silent

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = "bench/bench_rules.py"
SHUFFLES = 5000
FLIPS = 2000
SESSION = 2000
HEAP_LO, HEAP_HI, HEAP_STEP = 8 * 1024, 2 * 1024 * 1024, 4 * 1024
STABLE_SPAN = 32 * 1024
HEAP_GOAL_KB = 32
DEVICE_SCRIPT = "bench/bench_device.py"
DEVICE_FLIPS = 1000
WORK_SCRIPT = "bench/bench_device_work.py"  # per-press split and heap per module, any MicroPython
WORK_FLIPS = 200
DEVICE_HEAP_GOAL_KB = 64
LATENCY_BOARDS = bench_latency.BOARDS  # table sizes
LATENCY_ROUNDS = bench_latency.ROUNDS
TIMEOUT = 600

console = Console()
errors = []


def tool(name):
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else shutil.which(name)


def bench(cmd, *args, script=SCRIPT):
    """Run bench_rules.py; return (ok, {name: (value, unit)}, output)."""
    try:
        proc = subprocess.run(cmd + [script] + [str(a) for a in args], cwd=str(ROOT),
                              capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, {}, "timed out after %d s" % TIMEOUT
    figures = {}
    for line in proc.stdout.splitlines():
        m = re.match(r"^(\w+): (\S+) ?(.*)$", line)
        if m:
            figures[m.group(1)] = (m.group(2), m.group(3))
    return proc.returncode == 0, figures, (proc.stdout + proc.stderr).strip()


def last_line(text):
    return text.splitlines()[-1] if text else "no output"


def figure(runtime, cmd, mode, n, key):
    """One figure as "value unit", or "failed" (and the reason in errors)."""
    ok, figs, text = bench(cmd, mode, n)
    if ok and key in figs:
        return "%s %s" % figs[key]
    errors.append("%s %s %d: %s" % (runtime, mode, n, last_line(text)))
    return "failed"


def speed(runtime, cmd):
    return {
        "shuffle": figure(runtime, cmd, "shuffle", SHUFFLES, "shuffle20"),
        "flip": figure(runtime, cmd, "flip", FLIPS, "flip"),
        "session": figure(runtime, cmd, "session", SESSION, "session_time"),
    }


def session_runs(micropython, heap, lib, script=SCRIPT):
    args = ["session", SESSION] + (["--lib", lib] if lib else [])
    ok, _, text = bench([micropython, "-X", "heapsize=%d" % heap], *args, script=script)
    return ok and "session ok" in text.splitlines(), text


def min_heap(micropython, lib=None, script=SCRIPT):
    """Smallest heapsize from which the session runs at that size and at
    every size up to STABLE_SPAN above it (HEAP_STEP apart), or None.

    Success is not monotonic in the heap size (when the GC runs changes how
    the heap fragments), so a plain bisection can land on a lucky size."""
    if not session_runs(micropython, HEAP_HI, lib, script)[0]:
        errors.append("micropython session at heapsize=%d failed" % HEAP_HI)
        return None
    lo, hi = HEAP_LO, HEAP_HI
    while hi - lo > HEAP_STEP:
        mid = (lo + hi) // 2 // HEAP_STEP * HEAP_STEP
        if session_runs(micropython, mid, lib, script)[0]:
            hi = mid
        else:
            lo = mid
    size = hi
    while size < HEAP_HI:
        bad = [s for s in range(size + HEAP_STEP, size + STABLE_SPAN + 1, HEAP_STEP)
               if not session_runs(micropython, s, lib, script)[0]]
        if not bad:
            return size
        size = bad[-1] + HEAP_STEP
    return HEAP_HI


def latency(boards):
    """bench_latency's figures for a table of ``boards``, or {} (the reason in errors)."""
    try:
        return bench_latency.measure(boards, LATENCY_ROUNDS)
    except Exception as e:  # a figure, not a test: say what went wrong
        errors.append("latency bench, %d boards: %s" % (boards, e))
        return {}


def silent():
    """bench_silent's figures (one board of the table stopped), or {} (the reason in errors)."""
    try:
        return bench_silent.measure()
    except Exception as e:  # a figure, not a test: say what went wrong
        errors.append("silent board bench: %s" % e)
        return {}


def compile_rules(mpy_cross, dest):
    """shared_rules/**/*.py and firmware/**/*.py -> dest as .mpy; True when all compiled."""
    for src in sorted(list((ROOT / "shared_rules").rglob("*.py")) + list((ROOT / "firmware").rglob("*.py"))):
        rel = src.relative_to(ROOT).as_posix()
        out = Path(dest) / (rel[:-3] + ".mpy")
        out.parent.mkdir(parents=True, exist_ok=True)
        # -march=host: drivers/ink.py is viper (native code), which needs the
        # unix port's own architecture
        proc = subprocess.run([mpy_cross, "-march=host", "-o", str(out), rel], cwd=str(ROOT), capture_output=True,
                              text=True)
        if proc.returncode:
            errors.append("mpy-cross %s: %s" % (rel, proc.stderr.strip()))
            return False
    return True


def kb(n):
    return "failed" if n is None else ("%.2f KB" % (n / 1024)).replace(".00 KB", " KB")


def pico_bench():
    """The emulated Pico's rows (bench/bench_pico.py), or None (skipped: a
    line says why; failed: the reason is in errors)."""
    with console.status("the firmware on the emulated Pico (rp2040js, the flash chip's times charged): boot, "
                        "%d presses, a %d-command session, %d presses with no host" % (bench_pico.PRESSES, bench_pico.SESSION,
                                                             bench_pico.FLIPS)):
        # as a board plays: the flash chip's erase and program times charged
        # (the figures the power model takes, firmware/boards/boards.json)
        bench_pico.BOARD_OPTIONS["flash_timing"] = True
        try:
            table_rows, why = bench_pico.run()
        except Exception as e:  # a figure, not a test: say what went wrong
            errors.append("emulated Pico bench: %s" % e)
            return None
    if why:
        console.print("emulated Pico figures skipped: %s" % why)
        return None
    return table_rows


def save_heap():
    """SAVE 2d6's heap on the emulated Pico (bench/bench_save_pico.py)."""
    import bench_save_pico

    with console.status("SAVE 2d6 on the emulated Pico: boot, play, reboot into SAVE"):
        try:
            bench_save_pico.main([])
        except Exception as e:  # a figure, not a test: say what went wrong
            errors.append("SAVE heap bench: %s" % e)


def main():
    micropython, mpy_cross = tool("micropython"), tool("mpy-cross")
    if not micropython:
        console.print("[red]micropython not found: run `make setup`[/red]")
        return 1
    rows = []  # (name, cpython, micropython, goal)
    with console.status("CPython: shuffle, flip, session"):
        cpy = speed("cpython", [sys.executable])
    with console.status("MicroPython: shuffle, flip, session"):
        mpy = speed("micropython", [micropython])
    rows.append(("shuffle20", "shuffle of the 20-card deck (median)", cpy["shuffle"], mpy["shuffle"], ""))
    rows.append(("flip", "flip: Game.do flip (+ choose) + end_flip (median)", cpy["flip"], mpy["flip"], ""))
    rows.append(("session%d_time" % SESSION, "random session of %d commands, checked" % SESSION,
                 cpy["session"], mpy["session"], ""))
    goal = "<= %d KB" % HEAP_GOAL_KB
    with console.status("MicroPython: smallest heap for the session (from .py source)"):
        heap_src = min_heap(micropython)
    rows.append(("session%d_min_heap_py" % SESSION, "smallest stable -X heapsize, session from .py", "", kb(heap_src), goal))
    if mpy_cross:
        with tempfile.TemporaryDirectory() as lib:
            if compile_rules(mpy_cross, lib):
                with console.status("MicroPython: smallest heap for the session (from .mpy)"):
                    heap_mpy = min_heap(micropython, lib)
                with console.status("MicroPython: smallest heap for the firmware's session (from .mpy)"):
                    heap_dev_mpy = min_heap(micropython, lib, script=DEVICE_SCRIPT)
                rows.append(("device_session%d_min_heap_mpy" % SESSION,
                             "firmware %d-command session: smallest stable -X heapsize (.mpy)" % SESSION,
                             "", kb(heap_dev_mpy), "<= %d KB" % DEVICE_HEAP_GOAL_KB))
                rows.append(("session%d_min_heap_mpy" % SESSION, "smallest stable -X heapsize, session from .mpy",
                             "", kb(heap_mpy), goal))
    else:
        errors.append("mpy-cross not found: no .mpy heap figure (run `make setup`)")

    with console.status("MicroPython: firmware work per flip (%d flips)" % DEVICE_FLIPS):
        ok, figs, text = bench([micropython], "flip", DEVICE_FLIPS, script=DEVICE_SCRIPT)
    if ok:
        for key, label in (("device_flip", "firmware work per flip: press B + A (median)"),
                           ("device_press_rules", "  per press: command handling + rules"),
                           ("device_press_save", "  per press: save to flash"),
                           ("device_press_render", "  per press: render the panel")):
            rows.append((key, label, "", "%s %s" % figs[key], ""))
    else:
        errors.append("device flip bench: %s" % last_line(text))
    with console.status("MicroPython: firmware work per press as the Pico draws (%d flips)" % WORK_FLIPS):
        ok, figs, text = bench([micropython], "press", WORK_FLIPS, script=WORK_SCRIPT)
    if ok:
        for key, label in (("press_rules", "per press (Pico path): rules"),
                           ("press_render", "per press (Pico path): render"),
                           ("press_convert", "per press (Pico path): panel frame conversion"),
                           ("press_total", "per press (Pico path): rules + render + conversion"),
                           ("press_save", "per press (Pico path): then digest, event and save")):
            # the 15 ms goal counts on the emulated Pico, to the update
            # command (bench_pico's press_work rows); here a 64-bit desktop's figure
            rows.append((key, label, "", "%s %s" % figs[key], ""))
    else:
        errors.append("device work bench: %s" % last_line(text))
    ok, figs, text = bench([micropython], "heap", script=WORK_SCRIPT)
    if ok and "heap_firmware_imports" in figs:
        rows.append(("heap_firmware_imports", "heap kept after the firmware's imports (.py, 64-bit)", "",
                     "%s %s" % figs["heap_firmware_imports"], ""))
    else:
        errors.append("device heap bench: %s" % last_line(text))
    with console.status("MicroPython: smallest heap for the firmware's session"):
        heap_dev = min_heap(micropython, script=DEVICE_SCRIPT)
    rows.append(("device_session%d_min_heap_py" % SESSION, "firmware %d-command session: smallest stable -X heapsize (.py)" % SESSION,
                 "", kb(heap_dev), "<= %d KB" % DEVICE_HEAP_GOAL_KB))
    for n in LATENCY_BOARDS:
        with console.status("host round trips with %d simulated boards" % n):
            lat = latency(n)
        for key, label, goal in (("ping", "host round trip, ping", "<= 20 ms"),
                                 ("flip", "host: flip + end_flip, each saved", "<= 20 ms"),
                                 ("sweep", "host: poll(0) of every board (the hub idling)", "")):
            if key in lat:
                rows.append(("latency_%d_%s_p50" % (n, key), "%s, p50 (%d boards)" % (label, n),
                             "%.1f ms" % lat[key][0], "", ""))
                rows.append(("latency_%d_%s_p99" % (n, key), "%s, p99 (%d boards)" % (label, n),
                             "%.1f ms" % lat[key][1], "", goal if n == 16 else ""))

    with console.status("a table of %d simulated boards with one silent (SIGSTOP)" % bench_silent.BOARDS):
        quiet = silent()
    for key, label, goal in (
            ("silent_all_flip_p50", "table, every board answering: flip on one (p50)", ""),
            ("silent_all_screens_p50", "  the page's screen reads after it (p50)", ""),
            ("silent_one_silent_flip_max", "one board silent: flip on another (max)", "<= 2000 ms"),
            ("silent_one_silent_screens_max", "  the page's screen reads after it (max)", "<= 2000 ms"),
            ("silent_found_s", "  the silent board found offline (its link's retries)", ""),
            ("silent_back_s", "  back once it answers again (background probe)", "")):
        if key in quiet:
            rows.append((key, label, "%s %s" % quiet[key], "", goal))

    # panels and power (issues 11 and 12): the refresh policy's mix and the
    # battery model the build guides quote (host_tools/power.py)
    from host_tools import power

    mix = power.refresh_mix()
    rows.append(("refreshes_per_100_flips", "panel updates per 100 flips (B+A), policy: full / fast",
                 "%d / %d" % (mix["full"], mix["fast"] + mix.get("partial", 0)), "", ""))
    for what, m in power.session_refreshes():
        rows.append(("refreshes_per_session_%s" % what.split()[0],
                     "panel updates of a %d-press session, %s: full (after idle) / fast" % (
                         2 * power.SESSION_FLIPS, what),
                     "%d (%d) / %d" % (m["full"], m["clean"], m["fast"] + m["partial"]), "", ""))
    goal = ">= %d" % power.GOAL_SESSIONS
    for r in power.table():
        rows.append(("sessions_per_1000mah_%s_%s" % (r["board"], r["mode"]),
                     "%d-h sessions of %d flips per %d mAh: %s, %s" % (
                         r["hours"], r["flips"], power.GOAL_MAH, r["board"], r["mode"]),
                     "%d" % r["sessions_per_1000"], "", goal))
        rows.append(("press_to_pixels_%s_%s" % (r["board"], r["mode"]),
                     "  press (asleep) to pixels, fast / full update",
                     "%.2f s / %.2f s" % (r["press_to_pixels"]["fast"], r["press_to_pixels"]["full"]), "", ""))

    table = Table(title="Deckahedron benchmarks")
    table.add_column("measure")
    table.add_column("CPython %d.%d" % sys.version_info[:2], justify="right")
    table.add_column("MicroPython unix", justify="right")
    table.add_column("goal", justify="right")
    for _, label, a, b, g in rows:
        table.add_row(label, a, b, g)
    console.print(table)
    console.print("The unix port is 64-bit: pointers, dict entries and code constants take twice the\n"
                  "room they take on a 32-bit RP2040 or ESP32-S2, so whole-heap figures overstate a board's.")

    print()
    for name, _, a, b, _ in rows:
        if a:
            print("cpython.%s: %s" % (name, a))
        if b:
            print("micropython.%s: %s" % (name, b))
    pico_rows = pico_bench()
    if pico_rows:
        print()
        bench_pico.print_rows(pico_rows, console)
        save_heap()

    if errors:
        print()
        for e in errors:
            print("error: " + e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`make bench`: speed and memory figures of the rules core on CPython and MicroPython.

Runs bench/bench_rules.py under each runtime and prints a table, then the same
figures as plain ``name: value unit`` lines to paste into notes. Figures, not
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

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = "bench/bench_rules.py"
SHUFFLES = 5000
FLIPS = 2000
SESSION = 2000
HEAP_LO, HEAP_HI, HEAP_STEP = 8 * 1024, 2 * 1024 * 1024, 4 * 1024
STABLE_SPAN = 32 * 1024
HEAP_GOAL_KB = 32
TIMEOUT = 600

console = Console()
errors = []


def tool(name):
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else shutil.which(name)


def bench(cmd, *args):
    """Run bench_rules.py; return (ok, {name: (value, unit)}, output)."""
    try:
        proc = subprocess.run(cmd + [SCRIPT] + [str(a) for a in args], cwd=str(ROOT),
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


def session_runs(micropython, heap, lib):
    args = ["session", SESSION] + (["--lib", lib] if lib else [])
    ok, _, text = bench([micropython, "-X", "heapsize=%d" % heap], *args)
    return ok and "session ok" in text.splitlines(), text


def min_heap(micropython, lib=None):
    """Smallest heapsize from which the session runs at that size and at
    every size up to STABLE_SPAN above it (HEAP_STEP apart), or None.

    Success is not monotonic in the heap size (when the GC runs changes how
    the heap fragments), so a plain bisection can land on a lucky size."""
    if not session_runs(micropython, HEAP_HI, lib)[0]:
        errors.append("micropython session at heapsize=%d failed" % HEAP_HI)
        return None
    lo, hi = HEAP_LO, HEAP_HI
    while hi - lo > HEAP_STEP:
        mid = (lo + hi) // 2 // HEAP_STEP * HEAP_STEP
        if session_runs(micropython, mid, lib)[0]:
            hi = mid
        else:
            lo = mid
    size = hi
    while size < HEAP_HI:
        bad = [s for s in range(size + HEAP_STEP, size + STABLE_SPAN + 1, HEAP_STEP)
               if not session_runs(micropython, s, lib)[0]]
        if not bad:
            return size
        size = bad[-1] + HEAP_STEP
    return HEAP_HI


def compile_rules(mpy_cross, dest):
    """shared_rules/*.py -> dest/shared_rules/*.mpy; True when all compiled."""
    (Path(dest) / "shared_rules").mkdir()
    for src in sorted((ROOT / "shared_rules").glob("*.py")):
        rel = src.relative_to(ROOT).as_posix()
        proc = subprocess.run([mpy_cross, "-o", str(Path(dest) / rel[:-3]) + ".mpy", rel],
                              cwd=str(ROOT), capture_output=True, text=True)
        if proc.returncode:
            errors.append("mpy-cross %s: %s" % (rel, proc.stderr.strip()))
            return False
    return True


def kb(n):
    return "failed" if n is None else ("%.2f KB" % (n / 1024)).replace(".00 KB", " KB")


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
                rows.append(("session%d_min_heap_mpy" % SESSION, "smallest stable -X heapsize, session from .mpy",
                             "", kb(heap_mpy), goal))
    else:
        errors.append("mpy-cross not found: no .mpy heap figure (run `make setup`)")

    table = Table(title="Deckahedron rules core benchmarks")
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
    if errors:
        print()
        for e in errors:
            print("error: " + e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

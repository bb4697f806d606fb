"""The firmware's own split of each press on the emulated Pico (rules, save,
render, show: its ``stats`` query after every press, emulated RP2040 time)
and its heap (after boot, after a command session, lowest free), with
events kept as on a board played without a host.

    python bench/bench_pico_press.py [--presses N] [--session N]

Presses alternate B (flip) and A (end the flip): a rules command and an
event each. Only presses that ran a command count (the firmware's save
count grew); when two in a row ran none (the character knocked out, a
critical success's menu) a new character, seeded, is started over the link.
Prints medians per press kind and the heap figures; skips (exit 0) without
the base image, the bootrom or Node.js.
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench_pico import heap, session_commands, settle_flash, wait_hello  # noqa: E402
from host_tools.sim.emulated import EmuBoard, unavailable  # noqa: E402
from host_tools.link import DeviceLink  # noqa: E402

KEYS = ("rules_us", "save_us", "render_us", "show_us")


def run(presses, session, seed=7, flash_timing=False):
    out = {"B": [], "A": []}
    with tempfile.TemporaryDirectory(prefix="deckahedron-press-") as base:
        board = EmuBoard("p1", str(Path(base) / "p1"), seed=seed, flash_timing=flash_timing)
        try:
            board.start()
            board.wait_event(lambda e: e.get("ev") == "update", timeout=120)
            out["heap_boot"] = heap(wait_hello(board.port))
            settle_flash(board)
            with DeviceLink(board.port, timeout=30.0) as link:
                saves = link.request("stats")["saves"]
                idle = 0  # presses in a row that ran no command
                i = 0
                for _ in range(presses * 3):
                    if len(out["B"]) + len(out["A"]) >= presses:
                        break
                    button = "BA"[i % 2]
                    i += 1
                    since = board.event_count()
                    board.press(button)
                    board.wait_event(lambda e: e.get("ev") == "update", timeout=120, since=since)
                    settle_flash(board, quiet=0.3)
                    st = link.request("stats")
                    if st["saves"] > saves:  # the press ran a command (and saved it)
                        out[button].append(st)
                        idle = 0
                    else:
                        idle += 1
                    saves = st["saves"]
                    if idle >= 2:
                        # knocked out, or a menu or notice on the panel: a new
                        # character (seeded) keeps the presses flipping
                        link.request("new_game", confirm=True, seed=seed + i)
                        out["new_games"] = out.get("new_games", 0) + 1
                        saves = link.request("stats")["saves"]
                        idle, i = 0, 0
                        settle_flash(board, quiet=0.3)
                out["heap_presses"] = heap(link.hello())
                session_commands(link, session)
                out["heap_session"] = heap(link.hello())
        finally:
            board.close()
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=20)
    parser.add_argument("--session", type=int, default=200)
    parser.add_argument("--raw", action="store_true", help="print every press's stats")
    parser.add_argument("--flash-timing", action="store_true",
                        help="charge the flash chip's erase and program times (a board's pace)")
    args = parser.parse_args(argv)
    why = unavailable()
    if why:
        print("skipped: %s" % why)
        return 0
    t0 = time.monotonic()
    out = run(args.presses, args.session, flash_timing=args.flash_timing)
    print("%-10s %s" % ("press", "  ".join("%9s" % k[:-3] for k in KEYS + ("total_us",))))
    for button, name in (("B", "B flip"), ("A", "A end")):
        rows = out[button][len(out[button]) // 2:]  # once events pile up
        med = [statistics.median(r.get(k) or 0 for r in rows) / 1000 for k in KEYS]
        print("%-10s %s" % (name, "  ".join("%7.1f ms" % m for m in med + [sum(med)])))
    print("presses counted: B %d, A %d (new characters started: %d)" % (
        len(out["B"]), len(out["A"]), out.get("new_games", 0)))
    for key in ("heap_boot", "heap_presses", "heap_session"):
        h = out[key]
        print("%s: used %.1f KB, free %.1f KB, lowest free %.1f KB" % (
            key, h["heap_used"] / 1024, h["heap_free"] / 1024, h["heap_low"] / 1024))
    if args.raw:
        for button in "BA":
            for r in out[button]:
                print(button, dict((k, r.get(k)) for k in KEYS + ("gc_us", "saves")))
    print("wall %.0f s" % (time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A device played alone in a heap a board can spare (issue 7).

tests/device/solo_heap.py plays 500 button flips with no host through the
real main loop (buttons, rules, save, frame) under the MicroPython unix port
with a fixed heap. The bound was found by running both firmwares: before the
saves were written in pieces and the events capped, the save's one big string
ran out of memory (``MemoryError`` in ``App.save_text``) at 384 KB and even at
512 KB; now 500 flips pass at 320 KB (imports from source alone need ~290 KB
on this 64-bit port: a Pico loads its code as .mpy, half the size with
32-bit pointers). HEAP sits between the two with room for the code to grow.
"""

import re
import subprocess
from pathlib import Path

from tests.host.test_micropython_suite import find_tool

ROOT = Path(__file__).resolve().parents[2]
HEAP = "352k"
FLIPS = 500


def test_500_solo_flips_fit_a_small_heap_and_the_save_stays_bounded():
    micropython = find_tool("micropython")
    proc = subprocess.run([micropython, "-X", "heapsize=" + HEAP, "tests/device/solo_heap.py", str(FLIPS)],
                          cwd=str(ROOT), capture_output=True, text=True, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, "solo play in a %s heap failed:\n%s" % (HEAP, out[-3000:])
    m = re.search(r"ok (\d+) flips, (\d+) events sent, save (\d+) bytes", out)
    assert m, out
    flips, events, size = (int(g) for g in m.groups())
    assert flips == FLIPS and events >= 2 * FLIPS
    assert size < 16 * 1024, "the save grew to %d bytes" % size  # 32 events of ~250 B and the game

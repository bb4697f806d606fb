"""Slow marks given by rule rather than on the test (pyproject.toml's
`slow` marker; `make check` runs everything else), and the figures tests
measure, printed after the run.

- Every test in tests/emu is slow: each boots an RP2040 (or several) in
  rp2040js, seconds to minutes of a 2-core machine, and a module's board is
  shared by its tests, so its first test pays the boot.
- SLOW_ELSEWHERE: slow tests in files whose marks are not kept on the test
  itself yet (the table hub's tests, changed by other work in parallel);
  tests/host/test_slow_marks.py checks that each one still exists.
"""

import gc
import os
import shutil
import tempfile
from pathlib import Path

import pytest

EMU = Path(__file__).resolve().parent / "emu"

# (file under tests/, test function): what it waits for
SLOW_ELSEWHERE = (
    ("host/table/test_events.py",
     "test_a_hub_killed_at_random_points_stores_every_event_exactly_once"),  # 30 kills and restarts: ~15 s
    ("host/table/test_silent.py",
     "test_a_silent_board_is_offline_at_once_and_the_others_answer_in_their_usual_time"),  # 15 s: the link's retries
    ("host/table/test_files.py", "test_the_scripted_scene_writes_every_screen_inside_the_run_folder"),  # 7 s: the scene
)


def pytest_configure(config):
    """Each pytest process (each xdist worker) records its simulated boards in a folder of its own
    (DECKAHEDRON_RUNTIME, inherited by every `deckahedron sim` and `table` a test starts): a test's
    table never finds another test's boards, and no test writes into the user's cache."""
    config._deckahedron_runtime = tempfile.mkdtemp(prefix="deckahedron-runtime-")
    os.environ["DECKAHEDRON_RUNTIME"] = config._deckahedron_runtime  # a worker's own, not the one it inherited


def pytest_unconfigure(config):
    folder = getattr(config, "_deckahedron_runtime", None)
    if folder:
        os.environ.pop("DECKAHEDRON_RUNTIME", None)
        shutil.rmtree(folder, ignore_errors=True)


def pytest_collection_modifyitems(config, items):
    tests = Path(__file__).resolve().parent
    slow = set(SLOW_ELSEWHERE)
    for item in items:
        path = Path(str(item.fspath)).resolve()
        if EMU in path.parents:
            item.add_marker(pytest.mark.slow)
            continue
        try:
            key = (path.relative_to(tests).as_posix(), getattr(item, "originalname", item.name))
        except ValueError:
            continue
        if key in slow:
            item.add_marker(pytest.mark.slow)
    # Files with a slow test first (stable: each file keeps its order): make
    # test's workers take whole files in this order (the Makefile's
    # --no-loadscope-reorder: xdist's default sorts files by their number of
    # tests, which undid this), so the long emulated boards start at once
    # instead of one ending alone on a single core. Ranking them by length
    # as well was tried: 357 s -> 364 s, noise.
    heavy = {item.fspath for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.fspath not in heavy)


def pytest_terminal_summary(terminalreporter):
    """The figures tests measured (``record_property("figure", text)``),
    after the run: a test's own print is lost when it runs on a worker
    (make test's pytest-xdist)."""
    lines = []
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) == "call":
                lines += [value for key, value in getattr(report, "user_properties", ()) if key == "figure"]
    if lines:
        terminalreporter.write_sep("-", "figures measured")
        for line in lines:
            terminalreporter.write_line(line)


def pytest_runtest_setup(item):
    """Move what earlier tests left on the heap to CPython's permanent
    generation: the device code calls gc.collect() (firmware/app.py
    release_modules, at every boot), and on a worker that has run hundreds
    of tests each collect otherwise walks all of their objects (a Facets
    walk of 350 boots took 36 s in make test, 2 s alone)."""
    gc.freeze()

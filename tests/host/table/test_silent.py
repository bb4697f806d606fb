"""A board that stops answering never stalls the table (issue 25).

The reproduction: one of four simulated boards stops (SIGSTOP: the firmware
no longer reads its port, as a board sent to its REPL or hung). Before, the
hub's poll called it connected again, the page's screen reads after every
action (Bridge.read_screens(force=True)) retried it for ~12 s on the hub's
one thread, and every later action at the page and the console waited that
long. Now the first time-out marks it offline (the page's view says so), the
sweeps skip it, a probe on its own thread asks it again, and when it answers
(SIGCONT) it is back.
"""

import io
import os
import signal
import time

import pytest

from host_tools.console.core import TableConsole, make_console
from host_tools.web.bridge import Bridge
from host_tools.web.view import table_view
from tests.host.conftest import seated_table

NAMES = ("Ann", "Bo", "Cy", "Di")
USUAL = 2.0  # seconds: an action on a sound board of a 4-board table, its screens read after


def _timed(fn):
    t0 = time.monotonic()
    fn()
    return time.monotonic() - t0


def _connection(hub, name):
    return next(p for p in table_view(hub, {})["players"] if p["name"] == name)["connection"]


@pytest.fixture
def table(firmware, tmp_path):
    with seated_table(4, tmp_path, 3, NAMES) as (hub, sims):
        told = []
        hub.notify = told.append
        out = io.StringIO()
        console = TableConsole(hub, make_console(file=out), str(tmp_path))
        yield hub, sims, console, Bridge(console), out, told
        for b in sims.boards:  # a stopped board must run again to be stopped for good
            os.kill(b.pid, signal.SIGCONT)


def test_a_silent_board_is_offline_at_once_and_the_others_answer_in_their_usual_time(table):
    hub, sims, console, bridge, out, told = table
    bridge.read_screens(force=True)
    os.kill(sims.boards[0].pid, signal.SIGSTOP)  # Ann's board stops answering, its port stays open

    bridge.read_screens(force=True)  # the first time-out (the link's retries) finds it
    assert not hub.player("Ann").online and _connection(hub, "Ann") == "offline"
    assert any("Ann's device does not answer" in t for t in told)

    figures = []
    for _ in range(3):  # over several probe periods: a probe never holds up the hub's thread
        hub.poll(0)
        figures.append((_timed(lambda: console.onecmd("flip Bo str")), _timed(lambda: bridge.read_screens(force=True))))
        assert not console.failed, out.getvalue()[-500:]
        time.sleep(1.0)
    slowest = max(max(f) for f in figures)
    assert slowest < USUAL, "with Ann's board silent, flip Bo / the page's screen reads took %s s" % figures
    assert _connection(hub, "Ann") == "offline"  # polled, and still not taken for connected

    took = _timed(lambda: console.onecmd("flip Ann str"))
    assert console.failed and took < 0.5 and "has not answered since" in out.getvalue()

    os.kill(sims.boards[0].pid, signal.SIGCONT)  # it answers again: the background probe brings it back
    end = time.monotonic() + 15
    while not hub.player("Ann").online and time.monotonic() < end:
        hub.poll(0)
        time.sleep(0.1)
    assert hub.player("Ann").online and _connection(hub, "Ann") == "ok"
    assert any("Ann's device answers again" in t for t in told)
    console.onecmd("flip Ann str")
    assert not console.failed, out.getvalue()[-500:]

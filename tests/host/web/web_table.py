"""A live table for the page's tests: simulated boards, a hub, the console,
the bridge and the web server, with the hub on a thread of its own (as the
console's loop owns it in `deckahedron table`). The test's thread talks to
the hub only through ``LiveTable.on_hub``."""

import contextlib
import json
import os
import threading
import time
import urllib.error
import urllib.request

import pytest

from host_tools.commands.table import PAGE_POLL
from host_tools.web.guard import Limits
from tests.host.conftest import running_sims

NAMES = ("Ann", "Bo", "Cy", "Di")


class LiveTable:
    def __init__(self, bridge, server, sims=None):
        self.bridge, self.server, self.sims = bridge, server, sims
        self.url = server.base  # the routes, without the token
        self.page = server.url  # the page to open: with the run's token, as printed

    def open(self, path, data=None, headers=None, timeout=30):
        """urlopen of a route with the run's token, as the page sends it (its cookie)."""
        headers = dict(headers or {}, Cookie="%s=%s" % (self.server.access.cookie, self.server.token))
        return urllib.request.urlopen(urllib.request.Request(self.url + path, data=data, headers=headers),
                                      timeout=timeout)

    def on_hub(self, fn, timeout=30):
        """fn(hub) run on the hub's thread; its result."""
        return self.bridge.submit(lambda: fn(self.bridge.hub)).result(timeout)

    def view(self):
        with self.open("api/table", timeout=10) as f:
            return json.load(f)

    def player(self, name):
        return next(p for p in self.view()["players"] if p["name"] == name)

    def post(self, body, raw=None, headers=None):
        """(status, answer) of POST /api/action: the JSON, or the text of a refusal in plain words."""
        data = raw if raw is not None else json.dumps(body).encode()
        try:
            with self.open("api/action", data, headers or {"Content-Type": "application/json"}, timeout=60) as f:
                return f.status, json.load(f)
        except urllib.error.HTTPError as e:
            text = e.read().decode()
            return e.code, json.loads(text) if e.headers.get_content_type() == "application/json" else text

    def wait_view(self, test, timeout=10):
        end = time.monotonic() + timeout
        while True:
            v = self.view()
            if test(v):
                return v
            if time.monotonic() > end:
                raise AssertionError("the table view did not change as expected within %gs: %s" % (timeout, v))
            time.sleep(0.05)


def flip_to_the_end(table, name, attr="str"):
    """A flip from the page, ended: a critical success waits for the
    player's reward (none, here), and only an ended flip is in the player's
    last flips and the record's "ends the flip". Which card comes depends on
    the flips before it in the module. Returns the flip's answer."""
    status, answer = table.post({"action": "flip", "player": name, "attr": attr})
    assert status == 200, answer
    if "end %s crit=" % name in answer["lines"][-1]:
        status, ended = table.post({"action": "line", "line": "end %s crit=none" % name})
        assert status == 200, ended
    return answer


def press_flip(hub, name):
    """A flip with the board's buttons (B, then A on the home screen) as a
    player makes it: the device sends the flip as an event, which the hub
    reads on its next poll. Returns (the screen after, time.time() then)."""
    link = hub.player(name).link
    link.request("press", button="B")
    screen = link.request("press", button="A").get("screen")
    return screen, time.time()


@contextlib.contextmanager
def live_table(base, n=4, seed=11, every=PAGE_POLL, limits=Limits()):
    """Yields a LiveTable of ``n`` simulated boards seated as NAMES; the hub
    is polled every ``every`` seconds, as the console's loop does with the page on."""
    from host_tools.sim.unixport import FIRMWARE_MAIN

    if not os.path.isfile(FIRMWARE_MAIN):
        pytest.fail("firmware/entry/main.py is missing: the page's tests run the real firmware on simulated boards")
    with running_sims(n, base / "sim", seed) as sims:
        with serving(base, sims.boards, every, limits) as table:
            table.sims = sims
            yield table


@contextlib.contextmanager
def serving(base, boards=(), every=PAGE_POLL, limits=Limits()):
    """Yields a LiveTable of the hub seating ``boards`` (none: an empty table, which is enough for
    what the page's server refuses before the hub sees it); the web log is base/web.log."""
    from host_tools.console.core import TableConsole, make_console
    from host_tools.table.hub import TableHub
    from host_tools.web import Bridge, WebServer

    ready, stop, box = threading.Event(), threading.Event(), {}

    def hub_thread():
        hub = TableHub(str(base / "session.db"))
        server = None
        try:
            for name, b in zip(NAMES, boards):
                hub.join(name, b.port)
            bridge = Bridge(TableConsole(hub, make_console(file=open(str(base / "console.txt"), "w")), str(base)))
            server = WebServer(bridge, port=0, limits=limits)
            server.start()
            bridge.tick()
            box["table"] = LiveTable(bridge, server)
            ready.set()
            bridge.run(stop, every=every)
        except BaseException as e:
            box["error"] = e
            ready.set()
        finally:
            if server is not None:
                server.stop()
            hub.close()

    thread = threading.Thread(target=hub_thread, name="hub", daemon=True)
    thread.start()
    if not ready.wait(120):
        stop.set()
        raise AssertionError("the live table did not start within 120 s")
    try:
        if "error" in box:
            raise box["error"]
        yield box["table"]
    finally:
        stop.set()
        thread.join(30)

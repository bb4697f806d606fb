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

from host_tools.table_cmd import PAGE_POLL
from tests.host.conftest import running_sims

NAMES = ("Ann", "Bo", "Cy", "Di")


class LiveTable:
    def __init__(self, bridge, server, sims):
        self.bridge, self.server, self.sims = bridge, server, sims
        self.url = server.url

    def on_hub(self, fn, timeout=30):
        """fn(hub) run on the hub's thread; its result."""
        return self.bridge.submit(lambda: fn(self.bridge.hub)).result(timeout)

    def view(self):
        with urllib.request.urlopen(self.url + "api/table", timeout=10) as f:
            return json.load(f)

    def player(self, name):
        return next(p for p in self.view()["players"] if p["name"] == name)

    def post(self, body, raw=None, headers=None):
        """(status, answer) of POST /api/action."""
        data = raw if raw is not None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + "api/action", data=data,
                                     headers=headers or {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as f:
                return f.status, json.load(f)
        except urllib.error.HTTPError as e:
            return e.code, json.load(e)

    def wait_view(self, test, timeout=10):
        end = time.monotonic() + timeout
        while True:
            v = self.view()
            if test(v):
                return v
            if time.monotonic() > end:
                raise AssertionError("the table view did not change as expected within %gs: %s" % (timeout, v))
            time.sleep(0.05)


def press_flip(hub, name):
    """A flip with the board's buttons (B, then A on the home screen) as a
    player makes it: the device sends the flip as an event, which the hub
    reads on its next poll. Returns (the screen after, time.time() then)."""
    link = hub.player(name).link
    link.request("press", button="B")
    screen = link.request("press", button="A").get("screen")
    return screen, time.time()


@contextlib.contextmanager
def live_table(base, n=4, seed=11, every=PAGE_POLL):
    """Yields a LiveTable of ``n`` simulated boards seated as NAMES; the hub
    is polled every ``every`` seconds, as the console's loop does with the page on."""
    from host_tools.console import TableConsole, make_console
    from host_tools.simboards import FIRMWARE_MAIN
    from host_tools.table import TableHub
    from host_tools.web import Bridge, WebServer

    if not os.path.isfile(FIRMWARE_MAIN):
        pytest.fail("firmware/main.py is missing: the page's tests run the real firmware on simulated boards")
    with running_sims(n, base / "sim", seed) as sims:
        ready, stop, box = threading.Event(), threading.Event(), {}

        def hub_thread():
            hub = TableHub(str(base / "session.db"))
            server = None
            try:
                for name, b in zip(NAMES, sims.boards):
                    hub.join(name, b.port)
                bridge = Bridge(TableConsole(hub, make_console(file=open(str(base / "console.txt"), "w"))))
                server = WebServer(bridge, port=0)
                server.start()
                bridge.tick()
                box["table"] = LiveTable(bridge, server, sims)
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

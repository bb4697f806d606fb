"""The hand-over between the hub's thread and the web server's thread.

The hub is not thread-safe, so everything that touches it runs on the one
thread that owns it (the console's loop, or ``Bridge.run`` without a
console). The web server only ever:

- puts a job on ``jobs`` (an action from the page) and waits on the
  job's Future, which the hub's thread completes with the words;
- reads ``latest()`` and ``screen(name)``, set under a lock;
- is told of each new table view through ``listeners`` (called on the hub's
  thread; the server hops onto its own event loop from there).

``tick()``, on the hub's thread, runs the waiting jobs, reads the screens
that may have changed and publishes the table view when it changed.
"""

import concurrent.futures
import hashlib
import json
import queue
import threading
import time

from host_tools.link import DeviceError, LinkError
from host_tools.screens.core import png_bytes
from host_tools.table.errors import TableError
from host_tools.web.actions import Action
from host_tools.web.guard import printable
from host_tools.web.view import table_view

SCREEN_EVERY = 3.0  # seconds: a screen is read again this often even if nothing seemed to change
SCREEN_SCALE = 2


class Bridge:
    def __init__(self, console, screen_every=SCREEN_EVERY):
        self.console = console
        self.hub = console.hub
        self.jobs = queue.Queue()
        self.listeners = []
        self.screen_every = screen_every
        self._lock = threading.Lock()
        self._text = None  # the last published view, JSON
        self._body = None  # the same without its version and time, to see a change
        self._version = 0
        self._screens = {}  # name -> (tag, PNG bytes)
        self._screen_seen = {}  # name -> (digest, monotonic time) of the last screen read

    # -- any thread ------------------------------------------------------------
    def submit(self, job):
        """Run ``job`` on the hub's thread; returns a Future. A page's Action
        (actions.py) gives {"ok": bool, "line": its console line, "lines":
        [the console's words]} and what it showed (``TableConsole.shown``,
        e.g. "undo"); a function of no arguments gives what it returns
        (tests, benches)."""
        future = concurrent.futures.Future()
        self.jobs.put((job, future))
        return future

    def latest(self):
        with self._lock:
            return self._text

    def screen(self, name):
        """(tag, PNG bytes) of a player's screen, or None."""
        with self._lock:
            return self._screens.get(name)

    # -- the hub's thread ------------------------------------------------------------
    def tick(self):
        """Run the page's jobs, then publish what changed, then answer the
        jobs (so an answer comes after the view that shows its effect).
        Returns lines for the GM's terminal: what the page did, in the
        console's words."""
        said, done = [], []
        while True:
            try:
                job, future = self.jobs.get_nowait()
            except queue.Empty:
                break
            if not future.set_running_or_notify_cancel():
                continue
            try:
                if isinstance(job, Action):
                    refused, lines = job.run(self.console)
                    # with what it showed (undo: the plan it asks about, for the page's confirm)
                    done.append((future, dict(self.console.shown, ok=not refused, line=job.line, lines=lines), None))
                    said += [printable(text) for text in ["(page) %s" % job.line] + lines]  # no raw ESC, \n, surrogate
                else:
                    done.append((future, job(), None))
            except Exception as e:  # capture says errors in words: this is a bug, told to the caller too
                done.append((future, None, e))
        try:
            self.publish()  # the words first; the screens follow
        finally:
            for future, result, error in done:
                if error is None:
                    future.set_result(result)
                else:
                    future.set_exception(error)
        if self.read_screens(force=bool(done)):
            self.publish()
        return said

    def read_screens(self, force=False):
        """Read the screens that may have changed: every one after a job
        (``force``) or a change of the device's state, else the one read
        longest ago once it is ``screen_every`` old (one a tick, so a big
        table's reads do not hold up its events). True if one changed."""
        now = time.monotonic()
        stale, changed = [], False
        for name, p in list(self.hub.players.items()):
            if p.link is None or p.faulty or p.question is not None or not p.online:
                continue
            digest = (p.state or {}).get("digest")
            seen = self._screen_seen.get(name)
            if force or seen is None or seen[0] != digest:
                changed |= self._read_screen(name, p, digest, now)
            elif now - seen[1] >= self.screen_every:
                stale.append((seen[1], name, p, digest))
        if stale:
            _, name, p, digest = min(stale, key=lambda s: s[0])
            changed |= self._read_screen(name, p, digest, now)
        return changed

    def _read_screen(self, name, p, digest, now):
        try:
            buf, (w, h) = self.hub.fetch_screen(name)  # a device that does not answer goes offline: skipped after
            png = png_bytes(buf, w, h, SCREEN_SCALE)
        except (LinkError, DeviceError, TableError, ValueError):
            return False  # the connection state on the page says why; the last screen stays
        self._screen_seen[name] = (digest, now)
        tag = hashlib.sha1(png).hexdigest()[:12]
        with self._lock:
            old = self._screens.get(name)
            self._screens[name] = (tag, png)
        return old is None or old[0] != tag

    def publish(self):
        with self._lock:
            tags = {name: tag for name, (tag, _) in self._screens.items()}
        view = table_view(self.hub, tags)
        text = json.dumps(view, sort_keys=True)
        if text == self._body:
            return
        self._body = text
        self._version += 1
        view["version"] = self._version
        view["sent"] = time.time()
        full = json.dumps(view, sort_keys=True)
        with self._lock:
            self._text = full
        for listener in list(self.listeners):
            listener(full)

    def run(self, stop, every=0.1):
        """The hub's loop with no console: read the devices and tick until
        ``stop`` (a threading.Event) is set."""
        while not stop.is_set():
            self.hub.poll(0)
            self.tick()
            stop.wait(every)

"""Shared by the tests that run the real firmware on simulated boards."""

import contextlib
import os
import select
import signal
import subprocess
import sys
import time

import pytest

from host_tools import firmware_importable
from host_tools.link import DeviceLink, LinkError
from host_tools.sim.unixport import FIRMWARE_MAIN, SimTable

firmware_importable()  # the device's modules, imported as on a board (import render, from boards import ...)

BOOT = 15.0  # seconds a board may take to answer its first hello


def as_at_a_terminal():
    """preexec_fn of a command a test stops with SIGINT, as Ctrl-C at a terminal does. A shell
    starts a background job (`make test &`) with SIGINT ignored, pytest's workers inherit that,
    and Python keeps ignoring it: the command never saw the test's Ctrl-C and was killed 15 s later."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def firmware():
    if not os.path.isfile(FIRMWARE_MAIN):
        pytest.fail("firmware/entry/main.py is missing: these tests run the real firmware on simulated boards "
                    "(micropython firmware/entry/main.py --board sim ...); they fail until the firmware lands",
                    pytrace=False)
    return FIRMWARE_MAIN


def wait_hello(port, timeout=BOOT, **kw):
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        try:
            with DeviceLink(port, timeout=1.0, retries=0, **kw) as link:
                return link.hello()
        except LinkError as e:
            last = e
            time.sleep(0.2)
    pytest.fail("the simulated board on %s did not answer hello within %gs: %s" % (port, timeout, last))


@contextlib.contextmanager
def running_sims(n, base, seed):
    """``n`` simulated boards in ``base``, each answering hello; stopped after."""
    table = SimTable(n, str(base), seed=seed)
    table.start()
    try:
        for b in table.boards:
            wait_hello(b.port)
        yield table
    finally:
        table.stop()


@contextlib.contextmanager
def seated_table(n, base, seed, names):
    """A hub on ``base``/session.db with ``n`` simulated boards joined as
    ``names``; yields (hub, sims)."""
    from host_tools.table.hub import TableHub

    with running_sims(n, base / "sim", seed) as sims:
        hub = TableHub(str(base / "session.db"))
        try:
            for name, b in zip(names, sims.boards):
                hub.join(name, b.port)
            yield hub, sims
        finally:
            hub.close()


class Terminal:
    """`deckahedron ARGS` on a pseudo-terminal, as a GM at a keyboard runs
    it: ``type(line)``, ``until(text)`` returns what came before ``text``."""

    ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

    def __init__(self, *args):
        self.master, slave = os.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "host_tools.cli"] + list(args), cwd=self.ROOT,
                                     stdin=slave, stdout=slave, stderr=slave,
                                     env=dict(os.environ, TERM="dumb", COLUMNS="200"))
        os.close(slave)
        self.seen = b""

    def type(self, line):
        os.write(self.master, line.encode() + b"\n")

    def until(self, word, timeout=60):
        end = time.monotonic() + timeout
        while word.encode() not in self.seen:
            assert time.monotonic() < end and self.proc.poll() is None, self.seen.decode(errors="replace")[-2000:]
            if select.select([self.master], [], [], 0.2)[0]:
                try:
                    self.seen += os.read(self.master, 65536)
                except OSError:
                    pass
        found, self.seen = self.seen.split(word.encode(), 1)
        return found.decode(errors="replace")

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)

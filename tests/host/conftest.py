"""Shared by the tests that run the real firmware on simulated boards."""

import contextlib
import os
import time

import pytest

from host_tools.link import DeviceLink, LinkError
from host_tools.simboards import FIRMWARE_MAIN, SimTable

BOOT = 15.0  # seconds a board may take to answer its first hello


@pytest.fixture
def firmware():
    if not os.path.isfile(FIRMWARE_MAIN):
        pytest.fail("firmware/main.py is missing: these tests run the real firmware on simulated boards "
                    "(micropython firmware/main.py --board sim ...); they fail until the firmware lands",
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
    from host_tools.table import TableHub

    with running_sims(n, base / "sim", seed) as sims:
        hub = TableHub(str(base / "session.db"))
        try:
            for name, b in zip(names, sims.boards):
                hub.join(name, b.port)
            yield hub, sims
        finally:
            hub.close()

"""Shared by the tests that run the real firmware on simulated boards."""

import os
import time

import pytest

from host_tools.link import DeviceLink, LinkError
from host_tools.simboards import FIRMWARE_MAIN

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

"""A short session on two simulated boards, played once per test module and
kept as a session database for the record, replay and undo tests."""

import os
import time

import pytest

from host_tools.sim.unixport import FIRMWARE_MAIN
from tests.host.conftest import seated_table

NAMES = ["Ann", "Bo"]


def play(hub):
    """Flips from the hub and from a board's buttons, damage, a blessing
    taken from the supply, a rest, a teamwork flip."""
    hub.flip("Ann", attr="str", net=1, reason="climb the wall")  # a flip with its context (issue 27)
    hub.deal_damage("Bo", 3)
    hub.command("Ann", "take_blessing")
    hub.flip("Bo", attr="dex", net=0)
    for b in ("A", "A", "A", "A", "B"):  # a flip and its end made with Ann's buttons: events
        hub.command("Ann", "press", button=b)
    end = time.monotonic() + 5
    while time.monotonic() < end and not hub.db.execute("SELECT 1 FROM log WHERE kind = 'event'").fetchone():
        hub.poll(0.2)
    flip = hub.player("Ann").state.get("flip")
    if flip:  # the buttons left it open: the hub ends it
        if flip["phase"] == "choose":
            hub.command("Ann", "choose", card=flip["tied"][0])
        hub.command("Ann", "end_flip")
    hub.teamwork("Ann", ["Bo"], attr="int")
    hub.command("Bo", "rest")


def session_db(tmp_path_factory):
    if not os.path.isfile(FIRMWARE_MAIN):
        pytest.fail("firmware/entry/main.py is missing: these tests play on simulated boards", pytrace=False)
    base = tmp_path_factory.mktemp("session")
    with seated_table(2, base, 5, NAMES) as (hub, sims):
        play(hub)
    return str(base / "session.db")

"""Events exactly once (issue 8): a hub killed between storing a device's
event and acknowledging it gets the event again after its restart and
must not store it twice (78 random kills: 831 device events, 832 rows)."""

import os
import random
import signal
import subprocess
import sys
import time

import pytest

from host_tools import ROOT
from host_tools.table.hub import TableHub
from tests.host.conftest import running_sims, wait_hello

NAMES = ("Ann", "Bo")


@pytest.fixture
def sims(firmware, tmp_path):
    with running_sims(2, tmp_path / "sim", 31) as table:
        yield table


def _device_seq(board):
    """How many events the device has made: its save's ``seq NEXT DROPPED`` line."""
    with open(os.path.join(board.flash_dir, "deck.sav")) as f:
        for line in f:
            if line.startswith("seq "):
                return int(line.split()[1])
    return 0


def _event_rows(hub, device):
    return [r[0] for r in hub.db.execute("SELECT seq FROM log WHERE kind = 'event' AND device = ? ORDER BY seq",
                                         (device,))]


def _button_flip(hub, name):
    """B flips, A ends it (B picks a tie; DOWN, B take a critical success's Blessing)."""
    hub.command(name, "press", button="B")
    f = hub.player(name).state.get("flip")
    if f and f["phase"] == "choose":
        hub.command(name, "press", button="B")
    hub.command(name, "press", button="A")
    if hub.player(name).state.get("flip") is not None:
        hub.command(name, "press", button="DOWN")
        hub.command(name, "press", button="B")


def _drain(db, sims):
    """A hub that stays up until every device's events are stored."""
    hub = TableHub(db)
    for name, b in zip(NAMES, sims.boards):
        hub.join(name, b.port)
    end = time.monotonic() + 10
    while time.monotonic() < end:
        hub.poll(0.1)
        if all(p.link.hello()["events"] == 0 for p in hub.players.values()):
            break
        for p in hub.players.values():
            p.link.replay_events()
    return hub


def test_an_event_stored_but_not_acknowledged_is_stored_once_after_a_restart(sims, tmp_path):
    db = str(tmp_path / "session.db")
    hub = TableHub(db)
    for name, b in zip(NAMES, sims.boards):
        hub.join(name, b.port)
    link = hub.player("Ann").link
    ack = link._ack

    def killed(seq):
        if seq == 1:
            return ack(seq)
        raise SystemExit("the hub is killed before it acknowledges event %d" % seq)

    link._ack = killed  # the flip's end: its rows committed, the acknowledgement never leaves
    with pytest.raises(SystemExit):
        _button_flip(hub, "Ann")
    hub.close()
    hub = _drain(db, sims)
    try:
        ann = sims.boards[0]
        seqs = _event_rows(hub, ann.device_id)
        assert seqs == list(range(1, _device_seq(ann) + 1)) and seqs, seqs  # each event once
        flips = hub.db.execute("SELECT COUNT(*) FROM flips WHERE source = 'buttons'").fetchone()[0]
        assert flips == 1
    finally:
        hub.close()


KILLS = 30  # hub processes killed and restarted: ~12 s unloaded, 300+ device events

HUB_LOOP = r"""
import random, sys, time
from host_tools.link import DeviceError, LinkError
from host_tools.table.errors import TableError
from host_tools.table.hub import TableHub
from tests.host.table.test_events import NAMES, _button_flip
hub = TableHub(sys.argv[1])
for name, port in zip(NAMES, sys.argv[3:]):
    hub.join(name, port)
stored = hub._on_event
def slow_disk(*args):
    stored(*args)
    time.sleep(0.02)  # stored, not yet acknowledged: a slow disk or a busy host widens this window
hub._on_event = slow_disk
print("up", flush=True)
rng = random.Random(int(sys.argv[2]))
while True:
    name = rng.choice(list(hub.players))
    try:
        _button_flip(hub, name)
    except (DeviceError, TableError, LinkError):
        pass
    hub.poll(0)
"""


def test_a_hub_killed_at_random_points_stores_every_event_exactly_once(sims, tmp_path):
    """A hub process playing button flips on two boards, SIGKILLed at random
    points and restarted, many rounds: in the end the log has one row per
    device event, and one button flip row per flip event."""
    db = str(tmp_path / "session.db")
    ports = [b.port for b in sims.boards]
    rng = random.Random(8)
    kills = 0
    deadline = time.monotonic() + 120
    while kills < KILLS:
        assert time.monotonic() < deadline, "only %d hub restarts in 120 s" % kills
        proc = subprocess.Popen([sys.executable, "-c", HUB_LOOP, db, str(kills)] + ports, cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proc.stdout.readline() == b"up\n", proc.stderr.read()
        time.sleep(rng.uniform(0.05, 0.6))
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()
        kills += 1
    hub = _drain(db, sims)
    try:
        total = 0
        for b in sims.boards:
            seqs = _event_rows(hub, b.device_id)
            assert seqs == list(range(1, _device_seq(b) + 1)), "%s: rows %d, device events %d" % (
                b.name, len(seqs), _device_seq(b))
            total += len(seqs)
        flip_events = hub.db.execute("SELECT COUNT(*) FROM log WHERE kind = 'event' AND op = 'end_flip'"
                                     " AND result LIKE '%\"level\"%'").fetchone()[0]
        flips = hub.db.execute("SELECT COUNT(*) FROM flips WHERE source = 'buttons'").fetchone()[0]
        assert flips == flip_events
        print("%d kills, %d device events, %d rows" % (kills, total, total))
        assert total >= 100
    finally:
        hub.close()


def test_a_wiped_device_numbering_its_events_again_is_not_taken_for_a_replay(sims, tmp_path):
    """A wiped device keeps its id but numbers its events from 1 again: the
    hub keys an event by (device, seq, digest), so the new events are stored
    and the old ones stay."""
    db = str(tmp_path / "session.db")
    ann = sims.boards[0]
    hub = TableHub(db)
    hub.join("Ann", ann.port)
    _button_flip(hub, "Ann")
    hub.poll(0.3)
    before = _event_rows(hub, ann.device_id)
    assert before[:2] == [1, 2]
    hub.close()
    ann.stop()
    os.remove(os.path.join(ann.flash_dir, "deck.sav"))  # wiped; the id (its chip's, here its folder's) stays
    ann.start()
    wait_hello(ann.port)
    hub = TableHub(db)
    try:
        p = hub.join("Ann", ann.port)
        assert p.question["kind"] == "other_game"  # a new game on Ann's device
        hub.restore("Ann")
        _button_flip(hub, "Ann")
        hub.poll(0.3)
        after = _event_rows(hub, ann.device_id)
        assert after.count(1) == 2 and after.count(2) == 2 and len(after) == len(before) + _device_seq(ann)
    finally:
        hub.close()

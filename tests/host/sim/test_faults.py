"""Faults on a real simulated board (firmware in the MicroPython unix port,
over a real pty): the process SIGKILLed at random moments of a long session
and restarted, a host that drops its port and comes back.

A mirror Game with the same seed receives the same commands on the host, so
after every acknowledged command the device's digest must equal the
mirror's: a command lost, applied twice or half-applied would show at once.
"""

import random
import threading
import time

import pytest

from host_tools.link import DeviceError, DeviceLink
from host_tools.sim.unixport import SimBoard
from shared_rules.errors import RulesError
from shared_rules.deck.game import Game
from shared_rules.prng import Rng
from shared_rules.deck.walk import random_command
from tests.host.conftest import wait_hello

SEED = 5


class EventStore:
    """The host's store of device events, keyed by (device, seq)."""

    def __init__(self):
        self.events = {}
        self.duplicates = 0
        self.lock = threading.Lock()

    def __call__(self, seq, payload):
        with self.lock:
            if seq in self.events:
                self.duplicates += 1
            self.events[seq] = payload


def _crash_and_restart(board, delay, pids):
    time.sleep(delay)
    pids.append(board.pid)
    board.kill()
    board.restart()


@pytest.mark.slow  # about 5 s of random kills and restarts
def test_sigkill_at_random_points_loses_and_duplicates_nothing(firmware, tmp_path):
    board = SimBoard("p1", str(tmp_path / "p1"), seed=SEED)
    board.start()
    store = EventStore()
    try:
        wait_hello(board.port)
        link = DeviceLink(board.port, timeout=0.4, retries=60, on_event=store)
        mirror = Game.new(seed=SEED)
        assert link.hello()["digest"] == mirror.digest()
        rng, walk = random.Random(1), Rng(3)
        kills = applied = button_commands = 0
        crashes, pids = [], []
        for step in range(360):
            if rng.random() < 0.07:  # a crash somewhere in the next command's life
                for t in crashes:
                    t.join()  # one crash at a time
                t = threading.Thread(target=_crash_and_restart, args=(board, rng.uniform(0, 0.04), pids))
                t.start()
                crashes.append(t)
                kills += 1
            if step % 30 == 29:
                # buttons: the device acts on its own; its events must reach us once
                for b in ("B", "A"):
                    try:
                        link.request("press", button=b)
                    except DeviceError:
                        pass
                before = mirror.s.count
                mirror = Game.load(link.backup())
                button_commands += mirror.s.count - before  # each one is an event
                continue
            op, args = random_command(mirror, walk)
            try:
                mirror.do(op, args)
                expect_err = None
            except RulesError as e:
                expect_err = e.code
            try:
                got, err = link.request(op, **args), None
            except DeviceError as e:
                got, err = None, e.code
            except ValueError:  # an op the link refuses to send (the walk's bogus one)
                assert expect_err == "bad_op"
                continue
            assert err == expect_err, "step %d %s %r: device %s, rules %s" % (step, op, args, err, expect_err)
            if got is not None:
                applied += 1
                assert got["digest"] == mirror.digest(), "step %d %s: the device's state differs" % (step, op)
        for t in crashes:
            t.join()
        assert kills >= 15 and len(set(pids)) == kills  # each crash killed a different live process

        # after the last restart: the state is the last acknowledged one, every card in place
        restored = Game.load(link.backup())
        assert restored.digest() == mirror.digest() and restored.s.conservation_error() is None
        assert restored.s.count == mirror.s.count

        # every event arrives, once, in order, and none stays on the device
        link.replay_events()
        link.poll(1.0)
        assert link.hello()["events"] == 0
        seqs = sorted(store.events)
        assert seqs == list(range(1, button_commands + 1)) and button_commands >= 12
        assert store.duplicates == 0 or link.stats["events_duplicate"] == 0
        link.close()
    finally:
        board.close()


def test_unacknowledged_events_survive_a_crash_and_a_new_host(firmware, tmp_path):
    """Events wait on the device until a host stores them: a crash right
    after the press, then a new host process (empty memory) gets them all."""
    board = SimBoard("p1", str(tmp_path / "p1"), seed=SEED)
    board.start()
    try:
        wait_hello(board.port)
        with DeviceLink(board.port, timeout=1.0) as silent:  # on_event=None: never acknowledges
            for b in ("B", "A", "B", "A"):
                silent.request("press", button=b)
        board.kill()
        board.restart()
        wait_hello(board.port)
        store = EventStore()
        with DeviceLink(board.port, timeout=1.0, on_event=store) as host:
            assert host.hello()["events"] == 4
            host.poll(1.0)
            assert sorted(store.events) == [1, 2, 3, 4] and store.duplicates == 0
            assert host.hello()["events"] == 0
            ends = [p for p in store.events.values() if p.get("op") == "end_flip"]
            assert len(ends) == 2 and all(p["flip"]["cards"] for p in ends)
        # a host that drops the port and a fresh one that opens it again
        store2 = EventStore()
        with DeviceLink(board.port, timeout=1.0, on_event=store2) as again:
            again.request("press", button="B")
            again.poll(0.5)
            assert sorted(store2.events) == [5]
    finally:
        board.close()

"""`deckahedron table` finds boards by itself: real ones by USB vendor id,
and the simulated boards of any running `deckahedron sim`."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from host_tools.sim import unixport as simboards
from host_tools.commands.table import discover
from tests.host.conftest import wait_hello

ROOT = Path(__file__).resolve().parents[3]


def test_table_discovers_a_running_sim_and_forgets_it_when_it_stops(firmware, tmp_path, monkeypatch):
    monkeypatch.setenv("DECKAHEDRON_RUNTIME", str(tmp_path / "runtime"))
    env = dict(os.environ)
    proc = subprocess.Popen([sys.executable, "-m", "host_tools.cli", "sim", "--boards", "2", "--dir", str(tmp_path / "b")],
                            cwd=str(ROOT), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = [proc.stdout.readline().split() for _ in range(2)]
        ports = [port for _, port in lines]
        end = time.monotonic() + 10
        while sorted(discover()) != sorted(ports) and time.monotonic() < end:
            time.sleep(0.1)  # the record is written right after the lines
        assert sorted(discover()) == sorted(ports)
        wait_hello(ports[0])
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    assert discover() == []


def test_records_of_a_dead_sim_are_ignored_and_removed(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKAHEDRON_RUNTIME", str(tmp_path))
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    record = tmp_path / ("%d.txt" % dead.pid)
    record.write_text("p1 /dev/null\n")
    assert simboards.running_sims() == []
    assert not record.exists()


def test_a_record_whose_pid_lives_on_in_another_process_is_not_a_running_sim(tmp_path, monkeypatch):
    """A sim killed with SIGKILL leaves its record; once the system gives its pid to another process
    (here: this test's own), the record must not send the table to the terminal it names."""
    monkeypatch.setenv("DECKAHEDRON_RUNTIME", str(tmp_path))
    record = tmp_path / ("%d.txt" % os.getpid())
    record.write_text("p1 /dev/null\n")
    assert simboards.running_sims() == []
    assert not record.exists()


def test_a_live_sims_record_is_found_until_it_is_unregistered(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKAHEDRON_RUNTIME", str(tmp_path))

    class Board:
        name, port = "p1", "/dev/null"

    record = simboards.register([Board()])
    try:
        assert simboards.running_sims() == [("p1", "/dev/null")]
        assert simboards.running_sims() == [("p1", "/dev/null")]  # a reader's look leaves it in place
    finally:
        simboards.unregister(record)
    assert simboards.running_sims() == [] and list(tmp_path.iterdir()) == []


class _Port:
    def __init__(self, device, vid, pid):
        self.device, self.vid, self.pid = device, vid, pid


def test_real_boards_are_found_by_the_registrys_usb_ids(tmp_path, monkeypatch):
    from serial.tools import list_ports

    from host_tools import boards

    monkeypatch.setenv("DECKAHEDRON_RUNTIME", str(tmp_path))  # no running sims
    ids = sorted(boards.usb_ids())
    assert (0x2E8A, 0x0005) in ids and (0x239A, 0x80E6) in ids  # MicroPython rp2, CircuitPython MagTag
    assert boards.usb_ids("micropython") == {(0x2E8A, 0x0005)}
    found = [_Port("/dev/ttyACM%d" % i, vid, pid) for i, (vid, pid) in enumerate(ids)]
    others = [_Port("/dev/ttyUSB0", 0x0403, 0x6001),  # an FTDI cable
              _Port("/dev/ttyACM9", 0x2E8A, 0x000C),  # a Raspberry Pi debug probe, not a board
              _Port("/dev/ttyS0", None, None)]        # no USB at all
    monkeypatch.setattr(list_ports, "comports", lambda: others[:1] + found + others[1:])
    assert discover() == [p.device for p in found]

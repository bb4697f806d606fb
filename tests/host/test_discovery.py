"""`deckahedron table` finds boards by itself: real ones by USB vendor id,
and the simulated boards of any running `deckahedron sim`."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from host_tools import simboards
from host_tools.table_cmd import discover
from tests.host.conftest import wait_hello

ROOT = Path(__file__).resolve().parents[2]


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

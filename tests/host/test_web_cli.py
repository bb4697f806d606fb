"""`deckahedron table` at a terminal serves the live page: the URL is
printed, an action from the page runs and its words show in the terminal
too, and quit stops the page with the console."""

import json
import os
import re
import select
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_table_at_a_terminal_serves_the_page_until_quit(tmp_path):
    port = free_port()
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "host_tools.cli", "table", "--sim", "2", "--seed", "4",
                             "--dir", str(tmp_path), "--web-port", str(port)], cwd=ROOT,
                            stdin=slave, stdout=slave, stderr=slave, env=dict(os.environ, TERM="dumb", COLUMNS="200"))
    os.close(slave)
    seen = b""

    def until(word, timeout=60):
        nonlocal seen
        end = time.monotonic() + timeout
        while word.encode() not in seen:
            assert time.monotonic() < end and proc.poll() is None, seen.decode(errors="replace")[-2000:]
            if select.select([master], [], [], 0.2)[0]:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    pass
        found, seen = seen.split(word.encode(), 1)
        return found.decode(errors="replace")

    url = "http://127.0.0.1:%d/" % port
    try:
        until("live table page: " + url)
        until("table> ")
        with urllib.request.urlopen(url, timeout=10) as f:
            assert b"Deckahedron table" in f.read()
        req = urllib.request.Request(url + "api/action", headers={"Content-Type": "application/json"},
                                     data=json.dumps({"action": "flip", "player": "Bo", "attr": "int"}).encode())
        with urllib.request.urlopen(req, timeout=30) as f:
            answer = json.load(f)
        assert answer["ok"] and answer["lines"][0].startswith("Bo flips Int (")
        until("(page) flip Bo int")
        until("resolves Bo's flip:")
        view = json.load(urllib.request.urlopen(url + "api/table", timeout=10))
        assert [p["name"] for p in view["players"]] == ["Ann", "Bo"]
        assert view["players"][1]["flips"][0]["source"] == "host"
        os.write(master, b"quit\n")
        assert proc.wait(timeout=30) == 0
        with pytest.raises(urllib.error.URLError):
            urllib.request.urlopen(url, timeout=5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


def test_without_a_terminal_the_scripted_scene_serves_no_page(tmp_path):
    out = subprocess.run([sys.executable, "-m", "host_tools.cli", "table", "--sim", "1", "--seed", "4",
                          "--dir", str(tmp_path)], cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "Scripted scene" in out.stdout and "live table page" not in out.stdout

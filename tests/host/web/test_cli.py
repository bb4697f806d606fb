"""`deckahedron table` at a terminal serves the live page: the URL (with
the run's token) is printed, an action from the page runs and its words show in the terminal
too, and quit stops the page with the console."""

import json
import os
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from tests.host.conftest import Terminal

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_table_at_a_terminal_serves_the_page_until_quit(tmp_path):
    port = free_port()
    gm = Terminal("table", "--sim", "2", "--seed", "4", "--dir", str(tmp_path), "--web-port", str(port))
    url = "http://127.0.0.1:%d/" % port
    try:
        gm.until("live table page: " + url)
        token = re.match(r"\?token=([\w-]+)\s", gm.until("table> ")).group(1)  # printed with the URL
        with urllib.request.urlopen(url + "?token=" + token, timeout=10) as f:
            assert b"Deckahedron table" in f.read()
        req = urllib.request.Request(url + "api/action?token=" + token, headers={"Content-Type": "application/json"},
                                     data=json.dumps({"action": "flip", "player": "Bo", "attr": "str"}).encode())
        with urllib.request.urlopen(req, timeout=30) as f:
            answer = json.load(f)
        assert answer["ok"] and answer["lines"][0].startswith("Bo flips Strength (")
        gm.until("(page) flip Bo str")
        gm.until("a critical success: Bo chooses the reward")  # seed 4: Bo's first card is the Critical Success
        req = urllib.request.Request(url + "api/action?token=" + token, headers={"Content-Type": "application/json"},
                                     data=json.dumps({"action": "line", "line": "end Bo crit=none"}).encode())
        with urllib.request.urlopen(req, timeout=30) as f:
            assert json.load(f)["ok"]
        gm.until("Bo ends the flip, resolved by ")
        view = json.load(urllib.request.urlopen(url + "api/table?token=" + token, timeout=10))
        assert [p["name"] for p in view["players"]] == ["Ann", "Bo"]
        assert view["players"][1]["flips"][0]["source"] == "host"
        gm.type("quit")
        assert gm.proc.wait(timeout=30) == 0
        with pytest.raises(urllib.error.URLError):
            urllib.request.urlopen(url, timeout=5)
    finally:
        gm.close()


def test_without_a_terminal_the_scripted_scene_serves_no_page(tmp_path):
    out = subprocess.run([sys.executable, "-m", "host_tools.cli", "table", "--sim", "1", "--seed", "4",
                          "--dir", str(tmp_path)], cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "Scripted scene" in out.stdout and "live table page" not in out.stdout

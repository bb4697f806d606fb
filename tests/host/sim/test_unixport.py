"""The real firmware on simulated boards (host_tools/sim/unixport.py): the
device side of docs/protocol.md, checked over real ptys.

These tests need firmware/entry/main.py (the device issue). Until it exists they
FAIL with a message saying so -- never skip silently. The same host-side
behaviour against the CPython fake device is in test_link.py.
"""

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from host_tools.link import DeviceError, DeviceLink, text_digest
from host_tools.sim.unixport import SimBoard
from shared_rules import protocol as P
from shared_rules.deck.game import Game
from tests.host.conftest import BOOT, wait_hello

ROOT = Path(__file__).resolve().parents[3]
HELLO_FIELDS = {"device", "firmware", "protocol", "board", "edition", "campaign", "digest", "count", "events", "name",
                "platform", "heap_used", "heap_free", "heap_low", "battery_mv", "usb"}


@pytest.fixture
def board(firmware, tmp_path):
    b = SimBoard("p1", str(tmp_path / "p1"), seed=7)
    try:
        b.start()
        wait_hello(b.port)
        yield b
    finally:
        b.close()
        log = tmp_path / "p1.log"
        if log.exists():
            sys.stderr.write(log.read_text()[-2000:])


@pytest.fixture
def link(board):
    with DeviceLink(board.port, timeout=3.0) as l:
        yield l


def raw_exchange(port, lines, want, timeout=5.0):
    """Write raw lines, return the first ``want`` decoded R frames (or FrameErrors)."""
    import serial

    got = []
    reader = P.LineReader()
    with serial.Serial(port, 115200, timeout=0.05) as ser:
        for line in lines:
            ser.write(line if isinstance(line, bytes) else line.encode())
        end = time.monotonic() + timeout
        while len(got) < want and time.monotonic() < end:
            for item in reader.feed(ser.read(512)):
                if isinstance(item, P.FrameError):
                    continue
                try:
                    frame = P.decode(item)
                except P.FrameError as e:
                    got.append(e)
                    continue
                if frame[0] == "R":
                    got.append(frame)
    return got


def test_hello_handshake(board, link):
    info = link.hello()
    assert HELLO_FIELDS <= set(info), "hello lacks %s" % sorted(HELLO_FIELDS - set(info))
    assert info["device"] == board.device_id and info["board"] == "sim" and info["protocol"] == P.VERSION
    assert re.match(r"^[0-9a-f]{16}$", info["digest"]) and isinstance(info["events"], int)
    state = link.state()
    assert state["digest"] == info["digest"] and state["draw"] + state["discard"] >= 1


def test_the_power_the_host_sets_is_what_hello_and_state_say(board, link):
    """Issue 27: the sim's settable level, as a real board's gauge reads it."""
    assert link.hello()["battery_mv"] is None  # no cell until the host sets one
    board.set_power(3.42)
    info = link.hello()
    assert info["battery_mv"] == 3420 and info["usb"] is False
    board.set_power(usb=True)
    state = link.state()
    assert state["battery_mv"] is None and state["usb"] is True


def test_every_op_is_known(link):
    before = link.hello()["digest"]
    for op in ("state", "screen", "backup", "events", "ping", "hello"):
        link.request(op)
    for op, args in (("new_game", {}), ("press", {}), ("set_name", {}), ("restore", {})):
        with pytest.raises(DeviceError) as e:
            link.call(op, args)
        assert e.value.code != "bad_op", "%s is an APP_OP but the firmware says bad_op" % op
    assert link.hello()["digest"] == before, "a refused new_game/restore changed the state"
    for op in Game.COMMANDS:
        try:
            link.call(op, {})
        except DeviceError as e:
            assert e.code != "bad_op", "%s is a rules command but the firmware says bad_op" % op
    with pytest.raises(DeviceError) as e:
        link.request("no_such_op")
    assert e.value.code == "bad_op"


def test_a_repeated_request_id_is_answered_from_memory(board):
    line = P.request(424242, "flip", {"suit": "crown", "net": 1})
    first, second = raw_exchange(board.port, [line, line], 2)
    assert first == second and first[1] == 424242 and first[2][0] is True
    with DeviceLink(board.port, timeout=3.0) as link:
        assert link.hello()["count"] == 1, "the same request id must not flip twice"


@pytest.mark.slow  # about 5 s: waits out raw_exchange's 5 s for a reply the noise line never gets
def test_damaged_and_oversized_lines_get_id_zero_errors(board):
    """A line that starts like a frame but cannot be read gets R 0 err; one
    that does not even start like a frame (noise) may get nothing."""
    good = P.request(777, "ping", {})
    damaged = good.replace("ping", "pong")
    replies = raw_exchange(board.port, [damaged, b"x" * (2 * P.MAX_LINE) + b"\n", "hello there\n",
                                        b"Q 5 ping {} \xff\n", "Q 6 ping\n", good], 6)
    assert replies and replies[-1][:2] == ("R", 777) and replies[-1][2][0] is True
    codes = [r[2][1]["code"] for r in replies[:-1] if r[1] == 0]
    assert len(codes) == len(replies) - 1, "an unreadable line must be answered with id 0"
    for code in ("bad_crc", "too_long", "not_ascii"):
        assert code in codes
    assert len(codes) in (4, 5), "four frame-like lines were unreadable (plus one noise line): %s" % codes


def test_button_event_is_acked_and_survives_a_restart(board):
    with DeviceLink(board.port, timeout=3.0) as link:  # no on_event: nothing acknowledged
        link.hello()
        link.request("press", button="B")
        link.poll(0.5)
        assert link.stats["events_ignored"] >= 1
        seq, payload = link.events_seen[0]
        assert {"op", "args", "result", "digest"} <= set(payload)
    board.kill()
    board.restart()
    got = []
    info = wait_hello(board.port)
    assert info["events"] >= 1, "unacknowledged events must survive a restart"
    with DeviceLink(board.port, timeout=3.0, on_event=lambda s, p: got.append((s, p))) as link:
        link.hello()
        end = time.monotonic() + 5
        while not got and time.monotonic() < end:
            link.poll(0.1)
        assert got and got[0] == (seq, payload)
        link.poll(0.3)
        assert link.hello()["events"] == 0, "acknowledged events must be dropped"


def test_state_survives_a_crash(board, link):
    link.request("gain_xp", n=2)
    digest = link.hello()["digest"]
    link.close()
    board.kill()
    board.restart()
    assert wait_hello(board.port)["digest"] == digest


def test_screen_is_the_panel(link):
    buf = link.fetch_screen()
    assert link.screen_size == (296, 128) and len(buf) == 37 * 128
    assert any(buf), "a blank screen"


def test_backup_and_restore(link):
    text = link.backup()
    assert text_digest(text) == link.hello()["digest"]
    link.request("gain_xp", n=1)
    assert link.restore(text)["digest"] == text_digest(text)
    assert link.hello()["digest"] == text_digest(text)


def test_sim_cli_prints_name_port_lines_and_stops_cleanly(firmware):
    proc = subprocess.Popen([sys.executable, "-m", "host_tools.cli", "sim", "--boards", "3", "--seed", "1"],
                            cwd=str(ROOT), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out = b""
        end = time.monotonic() + BOOT
        while out.count(b"\n") < 3 and time.monotonic() < end and proc.poll() is None:
            if select.select([proc.stdout], [], [], 0.1)[0]:
                out += os.read(proc.stdout.fileno(), 4096)
        lines = out.decode().splitlines()
        assert [l.split(" ")[0] for l in lines] == ["p1", "p2", "p3"], lines
        ids = [wait_hello(line.split(" ")[1])["device"] for line in lines]
        assert len(set(ids)) == 3 and all(re.match(r"^[0-9a-f]{16}$", i) for i in ids), ids
        children = subprocess.run(["ps", "-o", "pid=", "--ppid", str(proc.pid)], capture_output=True,
                                  text=True).stdout.split()
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
        assert proc.returncode == 0, proc.stderr.read()
        for pid in children:
            assert not os.path.exists("/proc/%s" % pid) or "zombie" in open("/proc/%s/status" % pid).read().lower()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)


def test_request_rides_out_a_board_restart(board):
    """A board that crashes and comes back on the same pty: the link's retries
    (same id) carry the request over, and it is applied once."""
    import threading

    with DeviceLink(board.port, timeout=1.0, retries=10) as link:
        count = link.hello()["count"]
        board.kill()
        timer = threading.Timer(0.5, board.restart)
        timer.start()
        try:
            assert link.request("gain_xp", n=1)["xp"] == 1
        finally:
            timer.join()
        assert link.hello()["count"] == count + 1, "the retried request ran twice"


def _do(port, *words):
    return subprocess.run([sys.executable, "-m", "host_tools.cli", "do", "--port", port] + list(words),
                          cwd=str(ROOT), capture_output=True, text=True, timeout=60)


def test_a_firmware_error_is_logged_off_the_link_and_the_board_restarts_into_its_save(board, link):
    """Issue 7: a folder where the save's temp file goes makes the save fail
    (OSError). The traceback goes to the board's log and crash.log, never to
    the serial link; the board restarts from its save, and the retried
    request is applied once. `deckahedron do crashlog` prints the log."""
    before = link.hello()["count"]
    os.mkdir(os.path.join(board.flash_dir, "deck.tmp"))
    result = link.request("flip", suit="crown")
    assert result["cards"] and link.hello()["count"] == before + 1
    assert not [n for n in link.noise if "Traceback" in n or "Error" in n], list(link.noise)
    log = Path(board.log_path).read_text()
    assert "Traceback" in log and "OSError" in log, log[-2000:]
    link.close()
    out = _do(board.port, "crashlog")
    assert out.returncode == 0 and "--- crash" in out.stdout and "OSError" in out.stdout, out


def test_ctrl_c_and_ctrl_d_bytes_do_not_stop_the_game(board, link):
    count = link.hello()["count"]
    raw_exchange(board.port, [b"\x03\x03\x04\r\n"], 0, timeout=0.5)
    link.request("flip", suit="crown")
    assert link.hello()["count"] == count + 1 and board.is_alive()


def test_nan_is_refused_by_do_and_answered_with_its_id_by_the_device(board):
    out = _do(board.port, "flip", "net=NaN")
    assert out.returncode == 2 and "NaN" in out.stderr, out
    head = 'Q 31337 flip {"suit":"crown","net":NaN}'
    (reply,) = raw_exchange(board.port, [head + " " + P.crc_hex(head) + "\n"], 1)
    assert reply[1] == 31337 and reply[2][1]["code"] == "bad_json"


def test_a_query_in_the_same_read_as_a_command_is_answered_after_it(board):
    first = P.request(501, "reshuffle", {}) + P.request(502, "hello", {})
    replies = raw_exchange(board.port, [first], 2)
    assert [r[1] for r in replies] == [501, 502]
    with DeviceLink(board.port, timeout=3.0) as link:
        assert replies[1][2][1]["digest"] == link.hello()["digest"]


def test_hello_names_the_platform_and_heap_and_stats_split_a_press(link):
    info = link.hello()
    assert info["platform"] == "linux" and info["heap_used"] > 0 and info["heap_free"] > 0
    link.request("press", button="B")
    link.request("ping")
    s = link.request("stats")
    assert s["rules_us"] > 0 and s["save_us"] > 0 and s["render_us"] > 0 and s["show_us"] >= 0
    again = link.hello()
    assert 0 < again["heap_low"] <= again["heap_free"]


def test_repl_op_leaves_the_app(board, link):
    with pytest.raises(DeviceError) as e:
        link.request("repl")
    assert e.value.code == "confirm"
    assert link.request("repl", confirm=True) == {"repl": True}
    end = time.monotonic() + 5
    while board.is_alive() and time.monotonic() < end:
        time.sleep(0.1)
    assert not board.is_alive()  # the unix port has no REPL on the link: the process ends

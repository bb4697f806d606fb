"""The host link (host_tools/link.py), the simulated-board plumbing
(host_tools/sim/unixport.py) and the `do`, `screen` and `sim` commands, against
the real firmware App on CPython (tests/host/device_double.py) over real
ptys, with faults made on the wire between them.

Every wait is bounded (short link timeouts, subprocess timeouts) and every
process started here is killed by a fixture or a finally. The same things
against the real firmware are in test_sim_boards.py.
"""

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

import pytest

from host_tools.console.typed import parse_pairs
from host_tools.cli import main as cli_main
from host_tools.link import DeviceError, DeviceLink, LinkError, split_for_frames, text_digest
from host_tools.sim.unixport import SimBoard, SimError, SimTable, device_id
from shared_rules import protocol as P
from tests.host.conftest import as_at_a_terminal
from tests.host.device_double import DeviceDouble

ROOT = Path(__file__).resolve().parents[2]
DOUBLE = ROOT / "tests" / "host" / "device_double.py"
T = 0.4  # link timeout in these tests: the App on CPython answers in milliseconds


@pytest.fixture
def dev():
    d = DeviceDouble(name="p1", seed=3).start()
    yield d
    d.stop()  # raises if the App or the transport thread is still running
    assert d.board.logged == [], "the App crashed: %s" % "".join(d.board.logged)


@pytest.fixture
def links():
    """open(port, **kw) -> DeviceLink; all closed at the end."""
    made = []

    def open_link(port, **kw):
        kw.setdefault("timeout", T)
        kw.setdefault("reconnect_timeout", 3.0)
        link = DeviceLink(port, **kw)
        made.append(link)
        return link

    yield open_link
    for link in made:
        link.close()


def poll_until(link, cond, timeout=3.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        link.poll(0.05)
        if cond():
            return True
    return cond()


def q_ids(dev, op):
    return [num for kind, num, payload in dev.received if kind == "Q" and payload[0] == op]


def hand_event(dev):
    """A press on the device that makes exactly one event: B opens a flip
    at home, A ends the open one. Returns its seq."""
    seqs = dev.press("A" if dev.game.s.flip is not None else "B")
    assert len(seqs) == 1, "this press made events %r (a tie or a critical success?)" % seqs
    return seqs[0]


# -- request / reply ----------------------------------------------------------------------

def test_request_reply_and_device_errors(dev, links):
    link = links(dev.port)
    info = link.hello()
    assert info["device"] == "p1" and info["protocol"] == P.VERSION
    assert link.info == info
    r = link.request("flip", suit="crown", net=1)
    assert len(r["cards"]) == 2 and r["suit"] == "crown"
    assert dev.game.s.table == r["cards"]
    with pytest.raises(DeviceError) as e:
        link.request("flip", suit="crown")  # a flip is open
    assert e.value.code == "flip_open" and "finish" in e.value.message
    with pytest.raises(DeviceError) as e:
        link.request("no_such_op")
    assert e.value.code == "bad_op"
    with pytest.raises(DeviceError) as e:
        link.request("reshuffle", bogus=1)
    assert e.value.code in ("bad_args", "flip_open")
    assert link.call("end_flip", {})["resolving"] in r["cards"]
    assert link.ping() is not None


def test_request_ids_count_up_from_a_random_start(dev, links):
    a = links(dev.port)
    a.ping()
    a.ping()
    ids = q_ids(dev, "ping")
    assert 1 <= ids[0] <= P.MAX_ID // 2 and ids[1] == ids[0] + 1
    a.close()
    b = links(dev.port)
    b.ping()
    assert q_ids(dev, "ping")[2] not in ids[:2]  # another link, another random start


def test_ids_wrap_after_max_id(dev, links):
    b = links(dev.port, first_id=P.MAX_ID)
    b.ping()
    b.ping()
    assert q_ids(dev, "ping")[-2:] == [P.MAX_ID, 1]


def test_lost_reply_is_retried_with_the_same_id_and_not_applied_twice(dev, links):
    link = links(dev.port)
    dev.drop_reply["flip"] = 1  # the flip happens, its reply is lost
    r = link.request("flip", suit="blade", net=2)
    assert dev.applied["flip"] == 1, "a retried flip must not flip again"
    assert dev.game.s.table == r["cards"] and len(r["cards"]) == 3
    ids = q_ids(dev, "flip")
    assert len(ids) == 2 and ids[0] == ids[1], "the retry must reuse the request id"
    assert link.stats["timeouts"] == 1 and link.stats["resent"] == 1


def test_damaged_reply_is_retried_not_applied_twice(dev, links):
    link = links(dev.port)
    dev.corrupt_reply["flip"] = 1
    r = link.request("flip", suit="anvil")
    assert dev.applied["flip"] == 1 and dev.game.s.table == r["cards"]
    assert link.stats["bad_frames"] == 1 and link.stats["resent"] == 1


def test_unreadable_request_gets_id_zero_and_is_resent(dev, links):
    link = links(dev.port)
    dev.corrupt_incoming = 1  # the line arrives damaged: the device answers R 0 err
    assert link.request("gain_xp", n=2)["xp"] == 2
    assert dev.applied["gain_xp"] == 1
    assert link.stats["unreadable"] == 1 and link.stats["timeouts"] == 0
    assert sum(dev.bad_lines.values()) == 1


def test_stale_replies_and_noise_are_ignored_and_counted(dev, links):
    link = links(dev.port)
    link.ping()
    dev.send(b"MicroPython v1.23.0 on 2024-06-02; Raspberry Pi Pico with RP2040\r\n")
    dev.send(b'Type "help()" for more information.\r\n')
    dev.send(P.reply_ok(12, {"late": True}))
    assert link.request("gain_xp")["xp"] == 1
    assert link.stats["noise"] == 2 and link.stats["stale"] == 1
    assert "Type" in link.noise[-1]


def test_silent_device_raises_link_error_after_the_retries():
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        link = DeviceLink(os.ttyname(slave), timeout=0.1, retries=2)
        start = time.monotonic()
        with pytest.raises(LinkError) as e:
            link.request("ping")
        assert time.monotonic() - start < 2.0
        assert "no answer" in str(e.value) and "3 tries" in str(e.value)
        # every try was the same line
        data = os.read(master, 4096).decode()
        lines = [l for l in data.split("\n") if l]
        assert len(lines) == 3 and len(set(lines)) == 1
        link.close()
        with pytest.raises(LinkError):
            link.request("ping")
    finally:
        os.close(master)
        os.close(slave)


def test_a_device_that_cannot_read_the_request_is_reported_with_its_reason():
    """An old firmware answered a NaN request with R 0 bad_json: after the
    retries the host says what the device said, not only "no answer"."""
    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()

    def device():
        while not stop.is_set():
            if select.select([master], [], [], 0.05)[0]:
                for line in os.read(master, 4096).split(b"\n"):
                    if line.startswith(b"Q "):
                        os.write(master, P.reply_err(0, "bad_json", "the body is not valid JSON").encode())

    t = threading.Thread(target=device, daemon=True)
    t.start()
    try:
        with DeviceLink(os.ttyname(slave), timeout=0.2, retries=1) as link:
            with pytest.raises(LinkError) as e:
                link.request("ping")
        assert "no answer" in str(e.value) and "could not read the request (bad_json: the body" in str(e.value)
    finally:
        stop.set()
        t.join(2)
        os.close(master)
        os.close(slave)


def test_missing_and_busy_ports(dev, links, tmp_path):
    with pytest.raises(LinkError) as e:
        DeviceLink(str(tmp_path / "ttyNOPE"))
    assert "cannot open" in str(e.value)
    links(dev.port)
    with pytest.raises(LinkError) as e:
        DeviceLink(dev.port)
    assert "another program" in str(e.value)


def test_request_too_long_is_refused_before_sending(dev, links):
    link = links(dev.port)
    with pytest.raises(P.FrameError) as e:
        link.request("set_name", name="x" * P.MAX_LINE)
    assert e.value.code == "too_long"
    assert q_ids(dev, "set_name") == []


def test_bad_op_names_are_refused_before_sending(dev, links):
    link = links(dev.port)
    for op in ("", "two words", "fl\u00efp", "x\n"):
        with pytest.raises(ValueError):
            link.request(op)
    assert dev.received == []


def test_state_in_parts_is_joined(dev, links):
    link = links(dev.port)
    link.request("set_name", name="Ann")
    st = link.state()
    assert st["digest"] == dev.game.digest() and st["draw"] == 20 and st["name"] == "Ann"
    assert len(q_ids(dev, "state")) >= 2, "the device's state needs more than one part"


# -- events ----------------------------------------------------------------------------------

def test_event_from_a_button_is_delivered_once_and_acked(dev, links):
    got = []
    link = links(dev.port, on_event=lambda seq, payload: got.append((seq, payload)))
    link.hello()
    assert dev.press("B") == [1]  # the player presses B on the device itself: a flip
    assert poll_until(link, lambda: got)
    (seq, payload), = got
    assert seq == 1 and payload["op"] == "flip" and payload["result"]["cards"] == dev.game.s.table
    assert payload["digest"] == dev.game.digest()
    assert poll_until(link, lambda: dev.pending == [])  # acked
    assert dev.acks == [1]
    # the device sends it again (say our ack was lost): acked again, not delivered again
    dev.send(P.event(seq, payload))
    assert poll_until(link, lambda: dev.acks == [1, 1])
    assert len(got) == 1 and link.stats["events_duplicate"] == 1


def test_event_interleaved_with_a_reply(dev, links):
    got = []
    link = links(dev.port, on_event=lambda seq, payload: got.append(seq))
    link.hello()
    r = link.request("press", button="B")
    assert r["screen"] == "flip" and r["digest"] == dev.game.digest()
    assert poll_until(link, lambda: got == [1] and dev.pending == [])
    assert dev.applied["flip"] == 1


def test_events_are_held_until_the_device_replays_them(dev, links):
    """Before hello/events nothing is acknowledged (an ack covers all
    earlier events, some of which we may not have seen)."""
    got = []
    link = links(dev.port, on_event=lambda seq, payload: got.append(seq))
    dev.drop_events = 1
    hand_event(dev)  # event 1: never reached us
    hand_event(dev)  # event 2 arrives first
    link.ping()  # the link asks for a replay by itself after its first request (or in poll)
    assert poll_until(link, lambda: got == [1, 2] and dev.pending == [])
    assert link.stats["events_held"] == 1  # 2 came first and was left for the replay
    assert dev.acks == [1, 2], "2 must not be acknowledged before 1 was stored"
    assert q_ids(dev, "events")


def test_gap_in_sequence_numbers_triggers_a_replay(dev, links):
    got = []
    link = links(dev.port, on_event=lambda seq, payload: got.append(seq))
    link.hello()
    hand_event(dev)
    assert poll_until(link, lambda: got == [1])
    dev.drop_events = 1
    hand_event(dev)  # 2 is lost on the way
    hand_event(dev)  # 3 arrives: a gap, so 3 must not be acked (it would ack 2)
    assert poll_until(link, lambda: got == [1, 2, 3] and dev.pending == [])
    assert link.stats["events_gap"] == 1
    assert dev.acks == [1, 2, 3], "3 must not be acknowledged before 2 was stored"


def test_the_first_event_after_a_replay_lost_is_not_acknowledged_away(dev, links):
    """The event a device saved but never sent (killed between its save and
    its write, or the line lost) must not be acknowledged away by the next
    one: hello says where its replay starts, so the next event shows the gap."""
    got = []
    link = links(dev.port, on_event=lambda seq, payload: got.append(seq))
    link.hello()  # nothing to replay: the next event is 1
    dev.drop_events = 1
    hand_event(dev)  # 1 is lost on the way
    hand_event(dev)  # 2 arrives first
    assert poll_until(link, lambda: got == [1, 2] and dev.pending == [])
    assert link.stats["events_gap"] == 1
    assert dev.acks == [1, 2], "2 must not be acknowledged before 1 was stored"


def test_damaged_event_is_replayed_in_order(dev, links):
    got = []
    link = links(dev.port, on_event=lambda seq, payload: got.append(seq))
    link.hello()
    dev.corrupt_events = 1
    hand_event(dev)
    hand_event(dev)
    assert poll_until(link, lambda: got == [1, 2] and dev.pending == [])
    assert link.stats["bad_frames"] == 1


def test_failed_store_is_not_acked_and_comes_again(dev, links):
    got = []
    fail = [True]

    def store(seq, payload):
        if fail[0]:
            fail[0] = False
            raise OSError("disk full")
        got.append(seq)

    link = links(dev.port, on_event=store, event_retry=0.2)
    link.hello()
    hand_event(dev)
    link.poll(0.2)
    assert got == [] and dev.pending and dev.acks == []
    assert isinstance(link.event_errors[0][1], OSError)
    assert poll_until(link, lambda: got == [1] and dev.pending == [])


def test_on_event_must_not_reenter_the_link(dev, links):
    def handler(seq, payload):
        link.ping()

    link = links(dev.port, on_event=handler, event_retry=60)
    link.hello()
    hand_event(dev)
    link.poll(0.3)
    assert isinstance(link.event_errors[0][1], RuntimeError)
    assert dev.pending  # not acknowledged


def test_poll_zero_takes_what_is_there_and_never_waits_on_an_empty_port(dev, links, monkeypatch):
    """The hub sweeps every board with poll(0) while the GM types: a read
    that waits on an empty port (50 ms a board, 0.8 s at 16 boards) holds
    the console up. poll(0) delivers what has arrived and reads nothing more."""
    got = []
    link = links(dev.port, on_event=lambda seq, payload: got.append(seq))
    link.hello()
    ser = link._ser
    waited = []
    read = ser.read

    def spy(size=1):
        if not ser.in_waiting:
            waited.append(size)  # a read that can only wait for its timeout
        return read(size)

    monkeypatch.setattr(ser, "read", spy)
    for _ in range(5):
        link.poll(0)
    assert waited == [] and got == []
    hand_event(dev)
    end = time.monotonic() + 3
    while not ser.in_waiting and time.monotonic() < end:
        time.sleep(0.01)
    time.sleep(0.05)  # the rest of the event's line
    link.poll(0)
    assert got == [1] and waited == []


def test_without_on_event_nothing_is_acked(dev, links):
    # A timeout no load reaches: a re-sent hello runs again on the device and
    # replays its kept events, so event 1 would come twice.
    link = links(dev.port, timeout=10.0)
    link.hello()
    link.request("press", button="B")
    assert poll_until(link, lambda: link.stats["events_ignored"] >= 1)
    link.poll(0.2)  # a second copy would have come by now
    assert link.stats["events_ignored"] == 1 and link.events_seen[0][0] == 1
    assert dev.acks == [] and len(dev.pending) == 1


def test_replay_after_close_and_reopen(dev, links):
    first = links(dev.port)  # a tool that does not store events
    first.request("press", button="B")  # a flip: event 1
    first.request("press", button="A")  # done: event 2
    first.close()
    got = []
    second = links(dev.port, on_event=lambda seq, payload: got.append(seq))
    assert second.hello()["events"] == 2
    assert poll_until(second, lambda: got == [1, 2] and dev.pending == [])


def test_reconnect_when_the_port_drops_resends_the_same_id_and_replays(dev, links):
    got = []
    link = links(dev.port, on_event=lambda seq, payload: got.append(seq))
    link.hello()
    dev.drop_events = 2
    hand_event(dev)  # a flip made on the device and ended there: events 1 and 2,
    hand_event(dev)  # pending on the device, never sent
    flips = dev.applied["flip"]
    dev.drop_reply["flip"] = 1  # the flip happens, its reply is lost...
    timer = threading.Timer(0.1, dev.replug)  # ...and the USB cable is pulled meanwhile
    timer.start()
    try:
        r = link.request("flip", suit="dragon")
    finally:
        timer.join()
    assert dev.applied["flip"] == flips + 1 and dev.game.s.table == r["cards"]
    assert link.stats["reconnects"] >= 1
    ids = q_ids(dev, "flip")
    assert len(set(ids)) == 1 and len(ids) >= 2
    assert q_ids(dev, "hello")[-1] != q_ids(dev, "hello")[0]  # hello again after the reconnect
    assert poll_until(link, lambda: got == [1, 2] and dev.pending == [])


def test_port_gone_for_good_raises_link_error(links):
    d = DeviceDouble().start()
    link = links(d.port, reconnect_timeout=0.3)
    link.ping()
    d.stop()
    with pytest.raises(LinkError) as e:
        link.request("ping")
    assert "could not reopen" in str(e.value)


# -- large things in parts ----------------------------------------------------------------------

def test_fetch_screen_joins_every_part(dev, links):
    link = links(dev.port)
    buf = link.fetch_screen()
    assert buf == dev.panel  # what the App last showed on its panel
    assert link.screen_size == (296, 128) and len(buf) == 37 * 128
    assert len(q_ids(dev, "screen")) == 22


def test_backup_and_restore_round_trip(dev, links):
    link = links(dev.port)
    text = link.backup()
    assert text == dev.game.dump() and text_digest(text) == dev.game.digest()
    before = dev.game.digest()
    link.request("flip", suit="crown")
    link.request("end_flip")
    assert dev.game.digest() != before
    r = link.restore(text)
    assert r["restored"] is True and r["digest"] == before == dev.game.digest()


def test_backup_starts_again_when_the_state_changes_between_parts(dev, links):
    link = links(dev.port)
    dev.after_op["backup"] = lambda d: d.press("B")  # a press between part 0 and part 1
    text = link.backup()
    assert text == dev.game.dump()
    assert link.stats["backup_retries"] == 1


def test_restore_of_damaged_text_changes_nothing(dev, links):
    link = links(dev.port)
    text = link.backup()
    before = dev.game.digest()
    with pytest.raises(DeviceError) as e:
        link.restore(text.replace("xp 0", "xp 9"))  # its own check line no longer matches
    assert e.value.code == "bad_save"
    assert dev.game.digest() == before


def test_restore_parts_fit_in_frames_even_with_escapes():
    text = ('"\\' * 700) + "\n" * 50 + "tail"
    parts = split_for_frames(text, "restore", "0123456789abcdef")
    assert "".join(parts) == text
    assert all(len(p) <= P.CHUNK for p in parts)
    for i, part in enumerate(parts):
        P.request(P.MAX_ID, "restore", {"part": i, "parts": len(parts), "digest": "0123456789abcdef", "data": part})


# -- deckahedron do / screen (subprocess: the real command line) ----------------------------------

def run_cli(*argv, timeout=30, env=None):
    return subprocess.run([sys.executable, "-m", "host_tools.cli"] + list(argv), cwd=str(ROOT),
                          capture_output=True, text=True, timeout=timeout, env=env)


def test_do_prints_the_reply_as_sorted_json(dev):
    p = run_cli("do", "--port", dev.port, "flip", "suit=crown", "net=1")
    assert p.returncode == 0, p.stderr
    result = json.loads(p.stdout)
    assert result["suit"] == "crown" and len(result["cards"]) == 2
    assert p.stdout == json.dumps(result, indent=2, sort_keys=True) + "\n"
    assert dev.game.s.table == result["cards"]


def test_do_state_prints_every_part_joined(dev):
    p = run_cli("do", "--port", dev.port, "state")
    assert p.returncode == 0, p.stderr
    st = json.loads(p.stdout)
    assert st["digest"] == dev.game.digest() and st["draw"] == 20


def test_do_device_error_is_json_and_exit_1(dev):
    p = run_cli("do", "--port", dev.port, "flip", "suit=moon")
    assert p.returncode == 1
    out = json.loads(p.stdout)
    assert out["error"] == "bad_suit" and out["message"]
    assert p.stderr == ""


def test_do_values_parse_as_json_else_text(dev):
    p = run_cli("do", "--port", dev.port, "set_name", "name=Kresk the Bold")
    assert p.returncode == 0 and json.loads(p.stdout)["name"] == "Kresk the Bold"
    assert parse_pairs(["net=1", "fast=true", "team=null", 'cards=["1","2"]', "suit=crown",
                        'card="3"', "x=", "eq=a=b", "neg=-2"]) == {
        "net": 1, "fast": True, "team": None, "cards": ["1", "2"], "suit": "crown",
        "card": "3", "x": "", "eq": "a=b", "neg": -2}


@pytest.mark.parametrize("argv, words", [
    (["flip", "suit=crown", "suit=blade"], "given twice"),
    (["flip", "suitcrown"], "not key=value"),
    (["flip", "=crown"], "key must be a name"),
    (["flipp"], "unknown op"),
    (["set_name", "name=" + "x" * P.MAX_LINE], "cannot be sent"),
])
def test_do_usage_errors_exit_2(capsys, argv, words):
    code = cli_main(["do", "--port", "/dev/null-not-used"] + argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("deckahedron do: ") and words in err and err.count("\n") == 1


def test_do_missing_port_option_exits_2(capsys):
    with pytest.raises(SystemExit) as e:
        cli_main(["do", "ping"])
    _, err = capsys.readouterr()
    assert e.value.code == 2 and "--port" in err


def test_do_port_missing_or_silent_exits_3(tmp_path):
    p = run_cli("do", "--port", str(tmp_path / "ttyNOPE"), "ping")
    assert p.returncode == 3 and p.stdout == ""
    assert p.stderr.startswith("deckahedron do: cannot open") and p.stderr.count("\n") == 1
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        p = run_cli("do", "--port", os.ttyname(slave), "--timeout", "0.1", "--retries", "1", "ping")
    finally:
        os.close(master)
        os.close(slave)
    assert p.returncode == 3 and "no answer" in p.stderr and p.stderr.count("\n") == 1


def test_screen_saves_a_png(dev, tmp_path):
    from PIL import Image

    png = tmp_path / "p1.png"
    p = run_cli("screen", "--port", dev.port, "--png", str(png), "--scale", "2")
    assert p.returncode == 0, p.stderr
    img = Image.open(png).convert("L")
    assert img.size == (592, 256)
    panel = dev.panel  # MONO_HLSB, 1 = ink
    ink = [(x, y) for y in range(128) for x in range(296) if panel[y * 37 + x // 8] & (0x80 >> (x % 8))]
    assert 0 < len(ink) < 296 * 128 // 2, "the home screen is mostly paper with some ink"
    black = {(x, y) for y in range(128) for x in range(296) if img.getpixel((2 * x + 1, 2 * y + 1)) == 0}
    assert black == set(ink), "the PNG shows the panel pixel for pixel (scaled 2x)"


def test_screen_bad_arguments_exit_2(capsys, tmp_path):
    assert cli_main(["screen", "--port", "x", "--png", str(tmp_path / "a.png"), "--scale", "0"]) == 2
    assert "--scale" in capsys.readouterr().err
    assert cli_main(["screen", "--port", "x", "--png", str(tmp_path / "no" / "a.png")]) == 2
    assert "does not exist" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        cli_main(["screen", "--port", "x"])
    assert e.value.code == 2 and "--png" in capsys.readouterr().err


# -- simulated boards, with the App on CPython standing in for MicroPython ----------------------------

def double_board(name, tmp_path, **kw):
    return SimBoard(name, str(tmp_path / name), micropython=sys.executable, main=str(DOUBLE), **kw)


def gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:  # a zombie of ours counts as gone
        return os.waitpid(pid, os.WNOHANG)[0] == pid
    except ChildProcessError:
        return True


def test_simboard_start_kill_restart_keeps_the_port(tmp_path):
    board = double_board("p1", tmp_path, seed=5)
    try:
        board.start()
        port, pid = board.port, board.pid
        assert board.is_alive() and port.startswith("/dev/")
        with DeviceLink(port, timeout=2.0) as link:
            assert link.hello()["device"] == board.device_id
            link.request("gain_xp", n=3)
        board.kill()
        assert not board.is_alive() and gone(pid)
        board.restart()
        assert board.port == port and board.pid != pid and board.is_alive()
        with DeviceLink(port, timeout=2.0) as link:
            info = link.hello()
            assert info["count"] == 1, "the flash folder survives a restart"
        log = (tmp_path / "p1.log").read_text()
        assert log.count("--- ") == 2 and "device double %s" % board.device_id in log
    finally:
        board.close()
    assert not board.is_alive()


def test_simboard_missing_firmware_is_a_clear_error(tmp_path):
    with pytest.raises(SimError) as e:
        SimBoard("p1", str(tmp_path / "p1"), micropython=sys.executable, main=str(tmp_path / "main.py"))
    assert "missing" in str(e.value)
    with pytest.raises(SimError):
        SimBoard("p1", str(tmp_path / "p1"), micropython=str(tmp_path / "nope"), main=str(DOUBLE))


def test_simtable_supervisor_restarts_crashed_boards_only(tmp_path):
    restarted = []
    table = SimTable(3, str(tmp_path), seed=1, auto_restart=True, micropython=sys.executable, main=str(DOUBLE),
                     on_restart=lambda b, code, gave_up=False: restarted.append((b.name, code, gave_up)),
                     check_every=0.05)
    pids = []
    try:
        table.start()
        assert [b.name for b in table.boards] == ["p1", "p2", "p3"]
        assert len({b.port for b in table.boards}) == 3
        assert [b.seed for b in table.boards] == [101, 102, 103]
        pids = [b.pid for b in table.boards]
        os.kill(table["p2"].pid, signal.SIGKILL)  # a crash
        end = time.monotonic() + 5
        while time.monotonic() < end and not restarted:
            time.sleep(0.05)
        assert restarted and restarted[0][:2] == ("p2", -signal.SIGKILL)
        assert table["p2"].is_alive() and table["p2"].pid != pids[1]
        with DeviceLink(table["p2"].port, timeout=2.0) as link:
            assert link.hello()["device"] == table["p2"].device_id
        table["p3"].kill()  # a test's kill stays down
        time.sleep(0.4)
        assert not table["p3"].is_alive() and len(restarted) == 1
        table["p3"].restart()
        assert table["p3"].is_alive()
        pids += [b.pid for b in table.boards]
    finally:
        table.close()
    assert all(gone(pid) for pid in pids)
    assert all(b.port is None or not b.is_alive() for b in table.boards)


def test_simtable_sizes(tmp_path):
    for n in (0, 17, "2"):
        with pytest.raises(ValueError):
            SimTable(n, str(tmp_path / "unused"), micropython=sys.executable, main=str(DOUBLE))


def read_lines(proc, n, timeout):
    """n lines from proc.stdout within timeout (bounded: select, not readline)."""
    out = b""
    end = time.monotonic() + timeout
    fd = proc.stdout.fileno()
    while out.count(b"\n") < n and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            out += chunk
    return out.decode().splitlines()


def board_processes(sim_pid):
    """{board name: (pid, flash folder)} of the board processes a running
    `deckahedron sim` started, read from their command lines."""
    out = subprocess.run(["ps", "-ww", "-o", "pid=,args=", "--ppid", str(sim_pid)], capture_output=True,
                         text=True, timeout=10).stdout
    found = {}
    for line in out.splitlines():
        pid, _, args = line.strip().partition(" ")
        argv = args.split()
        if "--dir" in argv:
            flash = argv[argv.index("--dir") + 1]
            found[os.path.basename(flash)] = (int(pid), flash)
    return found


def test_sim_cli_prints_boards_restarts_and_cleans_up():
    env = dict(os.environ, DECKAHEDRON_MICROPYTHON=sys.executable, DECKAHEDRON_SIM_MAIN=str(DOUBLE))
    proc = subprocess.Popen([sys.executable, "-m", "host_tools.cli", "sim", "--boards", "2", "--seed", "4"],
                            cwd=str(ROOT), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    pids = []
    try:
        lines = read_lines(proc, 2, 20)
        assert len(lines) == 2, "sim printed %r" % lines
        names = [l.split(" ")[0] for l in lines]
        ports = [l.split(" ")[1] for l in lines]
        assert names == ["p1", "p2"] and all(len(l.split(" ")) == 2 for l in lines)
        for name, port in zip(names, ports):
            with DeviceLink(port, timeout=2.0) as link:
                assert link.hello()["device"] == device_id(board_processes(proc.pid)[name][1])
        boards = board_processes(proc.pid)
        assert sorted(boards) == names
        pids = [boards[name][0] for name in names]
        base = os.path.dirname(boards["p1"][1])
        assert os.path.isdir(base)
        os.kill(pids[0], signal.SIGKILL)  # p1 crashes: the sim restarts it on the same port
        end = time.monotonic() + 10
        new_pid = None
        while time.monotonic() < end and new_pid in (None, pids[0]):
            new_pid = board_processes(proc.pid).get("p1", (None,))[0]
            time.sleep(0.1)
        assert new_pid not in (None, pids[0]), "p1 was not restarted"
        pids.append(new_pid)
        with DeviceLink(ports[0], timeout=2.0) as link:
            assert link.hello()["device"] == device_id(boards["p1"][1])  # the same board again
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
        err = proc.stderr.read().decode()
        assert proc.returncode == 0, err
        assert "p1 exited" in err
        assert all(gone(pid) for pid in pids), "the sim left boards running"
        assert not os.path.exists(base), "the temporary folder was not removed"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
        for pid in pids:
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)


def test_sim_cli_keeps_dir_and_stops_on_ctrl_c(tmp_path):
    env = dict(os.environ, DECKAHEDRON_MICROPYTHON=sys.executable, DECKAHEDRON_SIM_MAIN=str(DOUBLE))
    proc = subprocess.Popen([sys.executable, "-m", "host_tools.cli", "sim", "--boards", "1", "--dir", str(tmp_path)],
                            cwd=str(ROOT), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=as_at_a_terminal)
    try:
        lines = read_lines(proc, 1, 20)
        assert len(lines) == 1 and lines[0].startswith("p1 /dev/")
        with DeviceLink(lines[0].split()[1], timeout=2.0) as link:
            link.request("gain_xp")  # a change the board saves
        pid = board_processes(proc.pid)["p1"][0]
        proc.send_signal(signal.SIGINT)
        proc.wait(15)
        assert proc.returncode == 0
        assert gone(pid)
        assert (tmp_path / "p1" / "deck.sav").exists() and (tmp_path / "p1.log").exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)


@pytest.mark.parametrize("boards", ["0", "17", "x"])
def test_sim_cli_bad_board_count_exits_2(boards):
    p = run_cli("sim", "--boards", boards)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("deckahedron sim: ") and "1 to 16" in p.stderr


def test_sim_cli_without_firmware_exits_3(tmp_path):
    env = dict(os.environ, DECKAHEDRON_SIM_MAIN=str(tmp_path / "main.py"))
    p = run_cli("sim", "--boards", "1", env=env)
    assert p.returncode == 3 and "missing" in p.stderr and p.stdout == ""

"""A hostile or broken device never takes the table down (issue 8): what it
sends that the hub cannot accept marks it faulty with a one-line reason,
nothing of it is mirrored or backed up, and the other players play on."""

import os
import subprocess
import sys

import pytest

from host_tools import ROOT
from host_tools.sim.unixport import SimTable
from host_tools.table.errors import TableError
from host_tools.table.hub import TableHub
from tests.host.conftest import wait_hello
from tests.host.hostile_device import HostileDevice

# name -> (HostileDevice arguments, what the reason says, what main raised)
AT_JOIN = {
    "markup_in_hello": (dict(hello={"problem": "[/]"}), "problem", "MarkupError"),
    "unknown_card_in_supply": (dict(state={"supply": ["zz", "pb1"]}), "unknown card id 'zz'", "KeyError"),
    "held_not_a_list": (dict(state={"held": 7}), "held is not a list", "TypeError"),
    # a system this hub does not play (docs/systems.md): not read as a Deckahedron
    "unknown_system_in_state": (dict(state={"system": "tarot"}), "state's system is unknown: 'tarot'", "-"),
    "unknown_system_in_hello": (dict(hello={"system": ["deck"]}), "hello's system is unknown", "-"),
}
AT_FLIP = {
    "markup_in_an_error": (dict(errors={"flip": ("bad_args", "no [/] such [bold]flip")}), "markup", "MarkupError"),
    "flip_level_99": (dict(results={"end_flip": {"level": 99}}), "not a level 1 to 4: 99", "IndexError"),
    "flip_level_x": (dict(results={"end_flip": {"level": "x"}}), "not a level 1 to 4: 'x'", "ValueError"),
}


def _one_line(text):
    return text and "\n" not in text and len(text) <= 200


@pytest.mark.parametrize("case", sorted(AT_JOIN))
def test_a_device_sending_bad_data_at_join_is_faulty_and_the_table_goes_on(case):
    bad, says, _ = AT_JOIN[case]
    told = []
    hub = TableHub(notify=told.append)
    with HostileDevice(**bad) as ann, HostileDevice(device="good1") as bo:
        a = hub.join("Ann", ann.port)
        assert says in a.faulty and _one_line(a.faulty), a.faulty
        assert a.state == {} and hub.backups("Ann") == []  # nothing mirrored, nothing backed up
        assert any("Ann's device is faulty" in t for t in told)
        hub.join("Bo", bo.port)
        r = hub.flip("Bo", attr="str", net=1)  # the table goes on
        assert r["level"] in (1, 2, 3, 4) and hub.player("Bo").faulty == ""
        with pytest.raises(TableError) as e:
            hub.flip("Ann", attr="str")
        assert "faulty" in str(e.value) and "restore Ann" in str(e.value)
        assert "flip" not in ann.requests  # a faulty device is not commanded
        hub.poll(0.05)
        assert hub.supply() and hub.conflicts() == []
        hub.close()


@pytest.mark.parametrize("case", sorted(AT_FLIP))
def test_a_device_answering_a_flip_with_bad_data_is_faulty_and_the_table_goes_on(case):
    bad, says, _ = AT_FLIP[case]
    hub = TableHub()
    with HostileDevice(**bad) as ann, HostileDevice(device="good1") as bo:
        hub.join("Ann", ann.port)
        hub.join("Bo", bo.port)
        assert hub.player("Ann").faulty == ""
        with pytest.raises(TableError) as e:
            hub.flip("Ann", attr="str", net=1)
        a = hub.player("Ann")
        assert says in a.faulty and _one_line(a.faulty) and says in str(e.value)
        assert a.last_flip is None  # never shown
        assert all(b["count"] < ann.game.s.count for b in hub.backups("Ann")) or ann.game.s.count == 0  # not kept
        hub.flip("Bo", attr="dex")
        assert hub.player("Bo").last_flip["level"] in (1, 2, 3, 4)
        hub.close()


def test_a_faulty_player_comes_back_by_restoring_their_backup_onto_a_sound_device():
    hub = TableHub()
    with HostileDevice(results={"end_flip": {"level": 99}}) as ann, HostileDevice(device="spare1", seed=8) as spare:
        hub.join("Ann", ann.port)
        with pytest.raises(TableError):
            hub.flip("Ann", attr="str")
        digest = hub.backups("Ann")[0]["digest"]  # the last good state: the flip, before its bad end
        assert hub.restore("Ann", spare.port) == digest
        assert hub.player("Ann").faulty == "" and hub.player("Ann").device == "spare1"
        assert hub.command("Ann", "end_flip")["level"] in (1, 2, 3, 4)  # the flip goes on, on the spare
        hub.close()


@pytest.fixture(scope="module")
def good_board(tmp_path_factory):
    sims = SimTable(1, str(tmp_path_factory.mktemp("good") / "sim"), seed=5)
    sims.start()
    try:
        wait_hello(sims.boards[0].port)
        yield sims.boards[0]
    finally:
        sims.stop()


E2E = {"unknown_card_in_supply": AT_JOIN["unknown_card_in_supply"], "held_not_a_list": AT_JOIN["held_not_a_list"],
       "flip_level_99": AT_FLIP["flip_level_99"], "flip_level_x": AT_FLIP["flip_level_x"]}


@pytest.mark.slow  # ~5 s each: the whole scripted scene in a process of its own (the cases above: in-process)
@pytest.mark.parametrize("case", sorted(E2E))
def test_deckahedron_table_with_a_hostile_device_plays_the_scene_and_exits_0(case, good_board, tmp_path):
    """`deckahedron table --port HOSTILE --port GOOD` with no terminal: the
    scripted scene runs, the hostile device is reported faulty in one line,
    the good board plays, no traceback (KeyError, TypeError, IndexError and
    ValueError on main)."""
    bad, says, _ = E2E[case]
    with HostileDevice(**bad) as ann:
        proc = subprocess.run([sys.executable, "-m", "host_tools.cli", "table", "--port", ann.port,
                               "--port", good_board.port, "--db", str(tmp_path / "s.db"), "--dir", str(tmp_path)],
                              cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
                              env=dict(os.environ, COLUMNS="200"))
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "Traceback" not in out
    assert "Ann's device is faulty" in out and says in out, out
    assert "Bo flips with the buttons" in out and os.path.exists(tmp_path / "screens" / "Bo.png")


def test_a_gm_typo_with_markup_quoted_back_in_an_error_is_not_the_devices_fault(firmware, tmp_path):
    """The firmware quotes a bad argument in its refusal ("unknown suit
    '[bold]'"): the markup is the GM's own typing, so the device stays sound
    and says no in a sentence."""
    from host_tools.link import DeviceError

    with SimTable(1, str(tmp_path / "sim"), seed=3) as sims:
        wait_hello(sims.boards[0].port)
        hub = TableHub(str(tmp_path / "s.db"))
        try:
            hub.join("Ann", sims.boards[0].port)
            with pytest.raises(DeviceError) as e:
                hub.command("Ann", "flip", suit="[bold]")
            assert "[bold]" in e.value.message and hub.player("Ann").faulty == ""
            hub.flip("Ann", attr="str")  # still commanded
        finally:
            hub.close()

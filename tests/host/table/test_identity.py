"""Who is on this port? (issue 8) Every device has a persistent id and every
game a lineage; a different device or game on a player's port is never
taken as that player: the GM gets a question and chooses."""

import os

import pytest

from host_tools.link import DeviceLink
from host_tools.sim.unixport import SimBoard
from host_tools.table.errors import TableError
from host_tools.table.hub import TableHub
from tests.host.conftest import wait_hello


@pytest.fixture
def boards(firmware, tmp_path):
    made = []

    def make(label, seed):
        b = SimBoard(label, str(tmp_path / label), seed=seed)
        b.start()
        made.append(b)
        wait_hello(b.port)
        return b

    yield make
    for b in made:
        b.close()


def _point(link_path, port):
    tmp = str(link_path) + ".new"
    os.symlink(port, tmp)
    os.replace(tmp, str(link_path))


def test_a_sim_board_keeps_its_random_device_id_in_its_flash_folder(boards, tmp_path):
    a = boards("p1", 1)
    first = wait_hello(a.port)["device"]
    assert first == a.device_id and first != "p1" and len(first) == 16
    a.restart()
    assert wait_hello(a.port)["device"] == first  # the same folder is the same device
    b = boards("p1-again", 1)
    assert wait_hello(b.port)["device"] not in (first, "p1")


def test_another_board_on_a_players_port_path_is_a_question_not_the_player(boards, tmp_path):
    """The issue's reproduction: Ann's board goes away and another board
    appears on the same port path. Before: the next flip ran on the foreign
    board, Ann's row took its state and its backup overwrote Ann's."""
    ann_board, other = boards("ann", 3), boards("other", 4)
    port = tmp_path / "ttyACM0"  # one path, as /dev/ttyACM0 or /dev/serial/by-id/... is
    _point(port, ann_board.port)
    told = []
    hub = TableHub(str(tmp_path / "s.db"), notify=told.append)
    try:
        hub.join("Ann", str(port))
        hub.flip("Ann", attr="str", net=1)
        ann = hub.player("Ann")
        before, versions = ann.state["digest"], hub.backups("Ann")
        ann_board.close()  # unplugged: the port path goes away...
        _point(port, other.port)  # ...and another board appears on it
        with pytest.raises(TableError) as e:
            hub.flip("Ann", attr="str")
        text = str(e.value)
        assert "take_as_new Ann" in text and "restore Ann" in text and "leave_out Ann" in text
        q = ann.question
        assert q["kind"] == "other_device" and q["device"] == other.device_id and q["count"] == 0
        assert "\n" not in q["text"] and other.device_id in q["text"] and any(other.device_id in t for t in told)
        assert ann.state["digest"] == before and hub.backups("Ann") == versions  # nothing of the stranger kept
        hub.close()
        hub = None
        with DeviceLink(str(port), timeout=2.0) as look:
            assert look.hello()["count"] == 0  # the foreign board never flipped
    finally:
        if hub is not None:
            hub.close()


def test_the_gm_restores_the_players_backup_onto_the_stranger(boards, tmp_path):
    ann_board, other = boards("ann", 3), boards("other", 4)
    port = tmp_path / "ttyACM0"
    _point(port, ann_board.port)
    hub = TableHub(str(tmp_path / "s.db"))
    try:
        hub.join("Ann", str(port))
        hub.flip("Ann", attr="str", net=1)
        first = hub.backups("Ann")[-1]
        hub.command("Ann", "take_blessing")
        before = hub.player("Ann").state["digest"]
        ann_board.close()
        _point(port, other.port)
        hub.poll(0.2)  # the link reconnects, says hello: the hub asks
        assert hub.player("Ann").question["kind"] == "other_device"
        assert hub.restore("Ann") == before  # onto the device now on Ann's port
        ann = hub.player("Ann")
        assert ann.question is None and ann.device == other.device_id and ann.state["digest"] == before
        hub.flip("Ann", attr="dex")  # play goes on, on the other board
        strangers = hub.db.execute("SELECT device, count FROM backups WHERE player = ''").fetchall()
        assert strangers == [(other.device_id, 0)]  # its own game was kept before the restore
        # versions: every backup listed newest first, any one restorable
        versions = hub.backups("Ann")
        assert [v["id"] for v in versions] == sorted((v["id"] for v in versions), reverse=True)
        assert {"id", "t", "count", "digest", "device", "game"} <= set(versions[0])
        assert hub.restore("Ann", backup_id=first["id"]) == first["digest"]
        assert hub.player("Ann").state["count"] == first["count"] and hub.player("Ann").question is None
        with pytest.raises(TableError):
            hub.restore("Ann", backup_id=10 ** 6)
    finally:
        hub.close()


def test_a_new_game_on_the_players_device_is_asked_and_can_be_a_new_player(boards, tmp_path):
    a, b = boards("ann", 3), boards("bo", 5)
    hub = TableHub(str(tmp_path / "s.db"))
    try:
        hub.join("Ann", a.port)
        hub.join("Bo", b.port)
        hub.command("Ann", "take_blessing")
        held = hub.player("Ann").state["held"]
        game = hub.player("Ann").state["game"]
        # the player picks "New character" on the device (not through the hub)
        hub.player("Ann").link.request("new_game", confirm=True, seed=77)
        hub.refresh(hub.player("Ann"))
        q = hub.player("Ann").question
        assert q["kind"] == "other_game" and q["game"] != game and q["device"] == a.device_id
        with pytest.raises(TableError):
            hub.command("Ann", "take_wound")
        assert set(held) <= set(c for cards in hub.holdings().values() for c in cards)  # still out of the supply
        eve = hub.take_as_new("Ann", "Eve")
        assert eve.state["game"] == q["game"] and eve.question is None and eve.link.hello()["name"] == "Eve"
        ann = hub.player("Ann")
        assert ann.link is None and not ann.online and hub.backups("Ann")
        with pytest.raises(TableError):
            hub.flip("Ann", attr="str")
        assert hub.holdings()["Ann"] == held  # Ann's cards stay hers while she is away
        assert not set(held) & set(hub.supply())
        hub.flip("Eve", attr="str")
        hub.flip("Bo", attr="str")
    finally:
        hub.close()


def test_a_game_that_moved_on_while_the_hub_was_away_is_the_same_player(boards, tmp_path):
    """The same game: the same game id and a count that grew (the player
    pressed buttons while the hub was away; those presses arrive as events)."""
    a = boards("ann", 3)
    db = str(tmp_path / "s.db")
    hub = TableHub(db)
    hub.join(None, a.port, names=("Ann", "Bo"))
    hub.flip("Ann", attr="str")
    hub.close()
    with DeviceLink(a.port, timeout=2.0) as link:  # no hub: the events stay on the device
        link.request("press", button="B")
        link.request("press", button="A")
        assert link.hello()["events"] >= 2
    hub = TableHub(db)
    try:
        p = hub.join(None, a.port, names=("Bo", "Cy"))
        assert p.name == "Ann" and p.question is None and hub.name_for(a.device_id) == "Ann"
        hub.poll(0.5)
        events = hub.db.execute("SELECT player, device FROM log WHERE kind = 'event'").fetchall()
        assert len(events) >= 2 and set(events) == {("Ann", a.device_id)}
        assert hub.player("Ann").link.hello()["events"] == 0
    finally:
        hub.close()


def test_a_game_put_back_to_an_earlier_count_is_asked(boards, tmp_path):
    a = boards("ann", 3)
    hub = TableHub(str(tmp_path / "s.db"))
    try:
        hub.join("Ann", a.port)
        old = hub.db.execute("SELECT state FROM backups ORDER BY id DESC LIMIT 1").fetchone()[0]
        hub.flip("Ann", attr="str")
        hub.player("Ann").link.restore(old)  # behind the hub's back
        hub.refresh(hub.player("Ann"))
        q = hub.player("Ann").question
        assert q["kind"] == "other_game" and "went back" in q["text"]
        hub.leave_out("Ann")
        with pytest.raises(TableError) as e:
            hub.flip("Ann", attr="str")
        assert "restore Ann" in str(e.value)
        latest = hub.backups("Ann")[0]
        assert hub.restore("Ann") == latest["digest"]  # onto the device on Ann's port: the latest backup
        assert hub.player("Ann").state["count"] == latest["count"] >= 2 and hub.player("Ann").online
    finally:
        hub.close()


def test_the_console_says_the_question_and_takes_each_choice(boards, tmp_path):
    """The GM answers a stranger on a player's port from the console:
    backups lists the versions, restore backup=N puts one back, take_as_new
    and leave_out are commands, each said in a sentence."""
    import io

    from host_tools.console.core import TableConsole, make_console

    ann_board, other, third = boards("ann", 3), boards("other", 4), boards("third", 6)
    port = tmp_path / "ttyACM0"
    _point(port, ann_board.port)
    buf = io.StringIO()
    out = make_console(file=buf, width=300)
    hub = TableHub(str(tmp_path / "s.db"), notify=lambda t: out.print(t))
    gm = TableConsole(hub, out, str(tmp_path))

    def say(line):
        start = buf.tell()
        gm.onecmd(line)
        buf.seek(start)
        return buf.read()

    try:
        hub.join("Ann", str(port))
        say("flip Ann str +1")
        listed = say("backups Ann")
        ids = [int(line.split()[0][1:]) for line in listed.splitlines() if line.startswith("#")]
        assert len(ids) >= 2 and ids == sorted(ids, reverse=True) and "count" in listed
        ann_board.close()
        _point(port, other.port)
        text = say("flip Ann dex")
        assert "take_as_new Ann" in text and "leave_out Ann" in text  # asked, nothing flipped
        assert "left out" in say("leave_out Ann")
        assert "restore" in say("flip Ann dex")  # still nothing sent
        oldest = ids[-1]
        text = say("restore Ann backup=%d" % oldest)  # onto the board now on Ann's port
        assert "Ann restored onto the device on Ann's port" in text
        assert hub.player("Ann").device == other.device_id
        assert hub.player("Ann").state["count"] == hub.backups("Ann")[-1]["count"]
        other.close()
        _point(port, third.port)
        hub.poll(0.2)  # the link reconnects and says hello: the hub asks again
        assert hub.player("Ann").question is not None
        assert "plays as Zoe" in say("take_as_new Ann Zoe")
        assert "Zoe" in hub.players and hub.player("Zoe").device == third.device_id
        assert "backup=N" in say("restore Ann the third one")  # a wrong form says the syntax
    finally:
        hub.close()

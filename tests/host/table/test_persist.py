"""Table state that survives (issue 8): Shadow points, the shared supply,
player names and teamwork in progress persist across hub restarts and kills
in the session database, and a session.db made by the hub before this
schema is upgraded in place."""

import os
import sqlite3
import subprocess
import sys

import pytest

from host_tools.sim.unixport import ROOT
from host_tools.table.hub import TableHub
from host_tools.table.store import VERSION
from shared_rules.deck import cards as C
from tests.host.conftest import running_sims

NAMES = ("Ann", "Bo", "Cy", "Di")


@pytest.fixture
def sims(firmware, tmp_path):
    with running_sims(3, tmp_path / "sim", 21) as table:
        yield table


def _hub(db, ports, told=None):
    hub = TableHub(db, notify=(told.append if told is not None else None))
    for port in ports:
        hub.join(None, port, names=NAMES)
    return hub


def test_shadow_spent_survives_a_restart(sims, tmp_path):
    """The issue: `shadow spend 1`, quit, `make run` again said 0 spent."""
    db = str(tmp_path / "session.db")
    ports = [b.port for b in sims.boards]
    hub = _hub(db, ports)
    for _ in range(8):
        for n in list(hub.players):
            hub.flip(n, attr="int", net=-2)
        if hub.shadow()[0] >= 2:
            break
    earned, _, _ = hub.shadow()
    assert earned >= 1
    hub.spend_shadow(1, "a GM move")
    hub.close()
    hub = _hub(db, ports)
    try:
        assert hub.shadow() == (earned, 1, earned - 1)
    finally:
        hub.close()
    hub = _hub(db, ports[:1])  # the others offline: their points are as last seen
    try:
        assert hub.shadow() == (earned, 1, earned - 1)
    finally:
        hub.close()


def test_a_restarted_hub_gives_each_device_its_name_and_keeps_offline_cards_out_of_the_supply(sims, tmp_path):
    db = str(tmp_path / "session.db")
    ports = [b.port for b in sims.boards]
    hub = _hub(db, ports)
    names = {n: p.device for n, p in hub.players.items()}
    assert list(names) == ["Ann", "Bo", "Cy"]
    hub.command("Ann", "take_blessing")
    hub.command("Ann", "take_blessing")
    ann_held = hub.player("Ann").state["held"]
    assert len(ann_held) == 2
    hub.close()
    hub = _hub(db, ports[::-1][:2])  # Ann's board is not here this time; the others join in another order
    try:
        assert {n: p.device for n, p in hub.players.items()} == {"Cy": names["Cy"], "Bo": names["Bo"]}
        assert hub.name_for(names["Ann"]) == "Ann"
        assert not set(ann_held) & set(hub.supply())
        blessings = C.SUPPLY_SETS[hub.supply_set][0]
        taken = []
        for _ in range(len(blessings)):
            try:
                taken.append(hub.command("Bo", "take_blessing")["card"])
            except Exception:
                break
        assert taken and not set(taken) & set(ann_held)  # nobody draws what Ann holds
        assert hub.conflicts() == []
    finally:
        hub.close()


KILL_MID_TEAMWORK = r"""
import os, sys
from host_tools.table.hub import TableHub
hub = TableHub(sys.argv[1])
for port in sys.argv[2:]:
    hub.join(None, port, names=("Ann", "Bo", "Cy"))
real = hub.command
def command(who, op, **args):
    if op == "end_flip":
        os._exit(9)  # killed: every flip is open, the teamwork not ended
    return real(who, op, **args)
hub.command = command
hub.teamwork("Cy", ["Ann", "Bo"], attr="dex")
"""


def test_a_hub_killed_mid_teamwork_closes_it_on_restart_and_tells_the_gm(sims, tmp_path):
    db = str(tmp_path / "session.db")
    ports = [b.port for b in sims.boards]
    proc = subprocess.run([sys.executable, "-c", KILL_MID_TEAMWORK, db] + ports, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 9, proc.stderr
    told = []
    hub = _hub(db, ports, told)
    try:
        assert any("teamwork" in t and "interrupted" in t for t in told), told
        for n in ("Ann", "Bo", "Cy"):
            assert hub.player(n).state["flip"] is None, "%s's teamwork flip is still open" % n
        assert hub.db.execute("SELECT COUNT(*) FROM teamwork WHERE closed IS NULL").fetchone()[0] == 0
        hub.teamwork("Cy", ["Ann", "Bo"], attr="dex")  # and the next one works
    finally:
        hub.close()


# The session database as the hub before issue 8 made it (commit e42f395).
MAIN_SCHEMA = """
CREATE TABLE sessions (id INTEGER PRIMARY KEY, started REAL, note TEXT);
CREATE TABLE log (id INTEGER PRIMARY KEY, session INTEGER, t REAL, player TEXT,
    device TEXT, kind TEXT, seq INTEGER, op TEXT, args TEXT, result TEXT, digest TEXT);
CREATE TABLE flips (id INTEGER PRIMARY KEY, session INTEGER, t REAL, player TEXT,
    device TEXT, source TEXT, suit TEXT, net INTEGER, cards TEXT, level INTEGER, resolving TEXT,
    xp INTEGER, shadow INTEGER);
CREATE TABLE backups (id INTEGER PRIMARY KEY, session INTEGER, t REAL, player TEXT,
    device TEXT, digest TEXT, state TEXT);
CREATE TABLE shadow (id INTEGER PRIMARY KEY, session INTEGER, t REAL, delta INTEGER, reason TEXT);
INSERT INTO sessions VALUES (1, 0, '');
INSERT INTO log VALUES (1, 1, 1, 'Ann', 'p1', 'event', 1, 'flip', '{}', '{}', 'aaaa');
INSERT INTO log VALUES (2, 1, 2, 'Ann', 'p1', 'event', 2, 'end_flip', '{}', '{}', 'bbbb');
INSERT INTO log VALUES (3, 1, 3, 'Ann', 'p1', 'event', 2, 'end_flip', '{}', '{}', 'bbbb');
INSERT INTO log VALUES (4, 1, 4, 'Ann', 'p1', 'command', NULL, 'flip', '{}', '{}', 'cccc');
INSERT INTO backups VALUES (1, 1, 5, 'Ann', 'p1', 'dddd', 'text');
INSERT INTO shadow VALUES (1, 1, 6, -1, 'a GM move');
"""


def test_a_session_db_from_before_is_upgraded(tmp_path):
    db = str(tmp_path / "session.db")
    con = sqlite3.connect(db)
    con.executescript(MAIN_SCHEMA)
    con.commit()
    con.close()
    hub = TableHub(db)
    try:
        assert hub.db.execute("PRAGMA user_version").fetchone()[0] == VERSION
        rows = hub.db.execute("SELECT id FROM log WHERE kind = 'event' ORDER BY id").fetchall()
        assert rows == [(1,), (2,)]  # the duplicate the old hub stored is gone
        assert hub.shadow()[1] == 1  # what the GM spent before stays spent
        assert hub.name_for("p1") == "Ann"
        assert hub.backups("Ann") == [{"id": 1, "t": 5, "count": None, "digest": "dddd", "device": "p1",
                                       "game": None}]
        with pytest.raises(sqlite3.IntegrityError):
            hub.db.execute("INSERT INTO log (kind, device, seq, digest) VALUES ('event', 'p1', 2, 'bbbb')")
    finally:
        hub.close()
    TableHub(db).close()  # a second start finds it upgraded
    assert os.path.getsize(db) > 0

"""The record is never behind the devices (issue 25).

Reproductions: with the session database unwritable mid-session, `flip Ann
dex` and `blessing Bo` answered "that failed" while the devices had acted
(Bo held pb4 while the page showed it in the supply, and replay exited 1);
a hub out of file handles could not write at all ("unable to open database
file"); `--db notes.db` adopted another program's database and wrote into
it; `replay` read a damaged database as if it were sound.
"""

import io
import os
import resource
import shutil
import sqlite3

import pytest

from host_tools.table import store
from host_tools.table.errors import NotSessionDatabase
from host_tools.cli import main
from host_tools.console.core import TableConsole, make_console
from host_tools.commands.replay import open_db, replay
from host_tools.table.hub import TableHub
from tests.host.hostile_device import HostileDevice
from tests.host.session_db import session_db

WRITES = (sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE)


def _no_writes(action, *_):
    """A sqlite3 authorizer: the database refuses every write, as a full disk or a read-only file does."""
    return sqlite3.SQLITE_DENY if action in WRITES else sqlite3.SQLITE_OK


@pytest.fixture
def two(tmp_path):
    told = []
    hub = TableHub(str(tmp_path / "s.db"), notify=told.append)
    with HostileDevice(device="ann1", seed=3) as ann, HostileDevice(device="bo1", seed=4) as bo:
        hub.join("Ann", ann.port)
        hub.join("Bo", bo.port)
        out = io.StringIO()
        yield hub, TableConsole(hub, make_console(file=out, width=300)), out, told, ann, bo
        hub.close()


def _replays(path):
    db = open_db(path)
    try:
        return replay(db)
    finally:
        db.close()


def test_an_unwritable_record_refuses_the_action_before_any_device_acts(two, tmp_path):
    hub, console, out, told, ann, bo = two
    digests = {n: (ann if n == "Ann" else bo).game.digest() for n in ("Ann", "Bo")}
    supply = hub.supply()
    hub.db.set_authorizer(_no_writes)
    for line in ("flip Ann dex", "blessing Bo"):
        console.onecmd(line)
        assert console.failed
    said = out.getvalue()
    assert said.count("the session record cannot be written") == 2 and "that failed" not in said
    assert "nothing was sent to Ann's device" in said and "nothing was sent to Bo's device" in said
    assert ann.game.digest() == digests["Ann"] and bo.game.digest() == digests["Bo"]  # no device acted
    assert "flip" not in ann.requests and "take_blessing" not in bo.requests
    assert hub.supply() == supply and hub.conflicts() == []

    hub.db.set_authorizer(None)  # writes come back: the table goes on
    console.onecmd("blessing Bo")
    assert not console.failed and any("can be written again" in t for t in told)
    card = hub.player("Bo").state["held"][0]
    assert card not in hub.supply()
    assert _replays(str(tmp_path / "s.db"))["Bo"] >= 1  # read beside the hub, as the page's export is


def test_a_write_failing_after_the_device_acted_keeps_the_mirror_and_the_record_catches_up(two, tmp_path,
                                                                                          monkeypatch):
    hub, console, out, told, ann, bo = two
    real = hub._log

    def failing(p, kind, seq, op, *rest, **kw):
        if op == "take_blessing":
            raise sqlite3.OperationalError("disk I/O error")
        return real(p, kind, seq, op, *rest, **kw)

    monkeypatch.setattr(hub, "_log", failing)
    console.onecmd("blessing Bo")
    assert console.failed and "Bo's device did take_blessing, but the session record cannot be written" in \
        out.getvalue()
    held = bo.game.summary()["held"]
    assert held and hub.player("Bo").state["held"] == held  # the mirror is the device's: not in the supply
    assert held[0] not in hub.supply()
    monkeypatch.setattr(hub, "_log", real)

    console.onecmd("flip Bo str")  # the next action works, after a row taking Bo's device as it is
    assert not console.failed, out.getvalue()
    kinds = [r[0] for r in hub.db.execute("SELECT kind FROM log WHERE player = 'Bo' ORDER BY id")]
    assert "reconcile" in kinds and kinds.index("reconcile") < len(kinds) - 1
    assert main(["replay", str(tmp_path / "s.db")]) == 0


def test_the_record_is_written_with_no_file_handle_to_spare(two):
    """The connection flood's reproduction: the process out of file handles,
    a write must not need a new one (WAL keeps the journal open)."""
    hub, console, out, told, ann, bo = two
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    highest = max(int(fd) for fd in os.listdir("/proc/self/fd"))
    resource.setrlimit(resource.RLIMIT_NOFILE, (highest + 8, hard))
    held = []
    try:
        with pytest.raises(OSError):
            while True:
                held.append(os.open(os.devnull, os.O_RDONLY))
        console.onecmd("flip Ann str")
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert not console.failed, out.getvalue()


def _tables(path):
    con = sqlite3.connect(path)
    try:
        return sorted(r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    finally:
        con.close()


def test_another_programs_database_is_refused_untouched(tmp_path, capsys):
    notes = str(tmp_path / "notes.db")
    con = sqlite3.connect(notes)
    con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    con.execute("INSERT INTO notes (text) VALUES ('buy dice')")
    con.commit()
    con.close()
    tagged = str(tmp_path / "tagged.db")
    con = sqlite3.connect(tagged)
    con.execute("PRAGMA application_id = 1234")
    con.commit()
    con.close()
    before = {p: open(p, "rb").read() for p in (notes, tagged)}

    assert main(["table", "--db", notes, "--dir", str(tmp_path / "run"), "--no-web"]) == 2
    err = capsys.readouterr().err
    assert "cannot use %s as the session database: it is not a session database" % notes in err
    assert "left as it was" in err
    with pytest.raises(NotSessionDatabase, match="other tables \\(notes\\)"):
        TableHub(notes)
    with pytest.raises(NotSessionDatabase, match="application_id 1234"):
        TableHub(tagged)
    assert {p: open(p, "rb").read() for p in (notes, tagged)} == before and _tables(notes) == ["notes"]


def test_a_new_database_is_tagged_and_one_from_before_the_tag_is_adopted(tmp_path):
    new = str(tmp_path / "new.db")
    TableHub(new).close()
    con = sqlite3.connect(new)
    assert con.execute("PRAGMA application_id").fetchone()[0] == store.APPLICATION_ID
    assert con.execute("PRAGMA user_version").fetchone()[0] == store.VERSION
    con.execute("PRAGMA application_id = 0")  # as every session database made before the tag
    con.commit()
    con.close()
    TableHub(new).close()  # its tables are all ours: adopted, and tagged now
    con = sqlite3.connect(new)
    assert con.execute("PRAGMA application_id").fetchone()[0] == store.APPLICATION_ID
    con.close()


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    return session_db(tmp_path_factory)


def test_replay_of_a_damaged_database_exits_non_zero_saying_so(played, tmp_path, capsys):
    path = str(tmp_path / "damaged.db")
    shutil.copy(played, path)
    con = sqlite3.connect(path)
    page = con.execute("PRAGMA page_size").fetchone()[0]
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'log_event'").fetchone()[0]
    con.close()
    with open(path, "r+b") as f:  # an index replay never reads: its page's header overwritten
        f.seek((root - 1) * page)
        f.write(b"\xff" * 16)
    assert main(["replay", path]) == 2
    err = capsys.readouterr().err
    assert "is damaged: SQLite's quick_check finds" in err

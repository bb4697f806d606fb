"""`deckahedron replay`: a session played on simulated boards (the real
firmware under MicroPython) re-runs through the rules core on CPython with
every digest matching, and any edit to the record is named."""

import shutil
import sqlite3

import pytest

from host_tools.cli import main
from host_tools.commands.replay import open_db, replay
from tests.host.session_db import session_db


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    return session_db(tmp_path_factory)


@pytest.fixture
def copy(played, tmp_path):
    path = str(tmp_path / "copy.db")
    shutil.copy(played, path)
    return path


def _edit(path, sql, *params):
    con = sqlite3.connect(path)
    con.execute(sql, params)
    con.commit()
    con.close()


def _row(path, where):
    con = sqlite3.connect(path)
    row = con.execute("SELECT id, result, digest FROM log WHERE " + where + " ORDER BY id LIMIT 1").fetchone()
    con.close()
    assert row is not None, where
    return row


def test_a_session_replays_from_the_first_backup_with_every_digest_matching(played, capsys):
    # the device's deck order and shuffle state are in its save: the flips a
    # board made (from the hub and from its buttons) come out the same again
    db = open_db(played)
    counts = replay(db)
    db.close()
    assert counts["Ann"] >= 6 and counts["Bo"] >= 5
    assert main(["replay", played]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "Ann: %d entries match" % counts["Ann"] in out
    assert out[-1] == ("verdict: every entry matches: %d entries of Ann and Bo replay through the rules as logged"
                       % (counts["Ann"] + counts["Bo"]))


def test_a_button_flip_is_in_the_record_with_its_digests(played):
    con = sqlite3.connect(played)
    rows = con.execute("SELECT before, digest FROM log WHERE kind = 'event' AND op = 'flip'").fetchall()
    con.close()
    assert rows and all(b and a and b != a for b, a in rows)


def test_an_edited_result_is_named(copy, capsys):
    rid, result, _ = _row(copy, "op = 'end_flip' AND player = 'Bo'")
    _edit(copy, "UPDATE log SET result = ? WHERE id = ?", result.replace('"level": 1', '"level": 4')
          .replace('"level": 2', '"level": 4').replace('"level": 3', '"level": 4'), rid)
    assert main(["replay", copy]) == 1
    got = capsys.readouterr()
    err = got.err.strip().splitlines()
    assert len(err) == 1 and "Bo: entry %d (command end_flip)" % rid in err[0] and "level" in err[0]
    out = got.out.splitlines()  # Ann's record is still checked, and one line sums it up
    assert out[0].startswith("Ann: ") and out[0].endswith(" entries match")
    assert out[-1].startswith("verdict: the record does NOT match for Bo (1 of 2 players)")


def test_the_help_says_the_exit_status(capsys):
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "one verdict line" in said and "Exit status: 0 every entry matches" in said and "1 an entry does not" in said


def test_an_edited_digest_is_named(copy, capsys):
    rid, _, digest = _row(copy, "op = 'damage'")
    _edit(copy, "UPDATE log SET digest = ? WHERE id = ?", "0" * 16, rid)
    assert main(["replay", copy]) == 1
    assert "entry %d (command damage)" % rid in capsys.readouterr().err


def test_a_deleted_entry_is_found_at_the_next(copy, capsys):
    rid, _, _ = _row(copy, "op = 'flip' AND player = 'Ann' AND kind = 'command'")
    nxt, _, _ = _row(copy, "player = 'Ann' AND id > %d AND digest IS NOT NULL" % rid)
    _edit(copy, "DELETE FROM log WHERE id = ?", rid)
    assert main(["replay", copy]) == 1
    err = capsys.readouterr().err
    assert "entry %d" % nxt in err and "missing, added or edited" in err


def test_edited_flip_cards_are_named(copy, capsys):
    con = sqlite3.connect(copy)
    fid, cards = con.execute("SELECT event, cards FROM flips WHERE event IS NOT NULL ORDER BY id").fetchone()
    con.close()
    _edit(copy, "UPDATE flips SET cards = ? WHERE event = ?", "p1" if cards != "p1" else "p2", fid)
    assert main(["replay", copy]) == 1
    assert "entry %d" % fid in capsys.readouterr().err


def test_a_file_that_is_not_a_session_database(tmp_path, capsys):
    bad = tmp_path / "notes.db"
    bad.write_text("not sqlite at all, just words " * 40)
    assert main(["replay", str(bad)]) == 2
    assert main(["replay", str(tmp_path / "missing.db")]) == 2
    empty = str(tmp_path / "empty.db")
    sqlite3.connect(empty).close()
    assert main(["replay", empty]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 3


def test_a_renamed_player_replays_whole(firmware, tmp_path, capsys):
    from tests.host.conftest import seated_table

    with seated_table(1, tmp_path, 9, ["Ann"]) as (hub, sims):
        hub.flip("Ann", attr="str")
        hub.rename("Ann", "Anna")
        hub.flip("Anna", attr="dex")
        assert hub.undo("Anna")["players"] == {"Anna": hub.db.execute(
            "SELECT MAX(id) FROM log WHERE op = 'flip'").fetchone()[0]}
    assert main(["replay", str(tmp_path / "session.db")]) == 0
    assert "Anna: 4 entries match" in capsys.readouterr().out


def test_presses_made_while_the_hub_was_away_replay(firmware, tmp_path, capsys):
    import time

    from host_tools.link import DeviceLink
    from host_tools.table.hub import TableHub
    from tests.host.conftest import running_sims

    db = str(tmp_path / "session.db")
    with running_sims(1, tmp_path / "sim", 13) as sims:
        port = sims.boards[0].port
        hub = TableHub(db)
        hub.join("Ann", port)
        hub.flip("Ann", attr="str")
        hub.close()
        with DeviceLink(port) as link:  # no hub: the board keeps its events until one acknowledges them
            for b in ("A", "A", "A", "A", "B"):
                link.request("press", button=b)
        hub = TableHub(db)
        hub.join("Ann", port)
        end = time.monotonic() + 5
        while time.monotonic() < end and not hub.db.execute("SELECT 1 FROM log WHERE kind = 'event'").fetchone():
            hub.poll(0.2)
        assert hub.db.execute("SELECT n FROM log WHERE kind = 'event' AND op = 'flip'").fetchone()[0] > 0
        # the game goes on from the device's state
        flip = hub.player("Ann").state.get("flip")
        if flip and flip["phase"] == "choose":
            hub.command("Ann", "choose", card=flip["tied"][0])
        if flip:
            hub.command("Ann", "end_flip")
        else:
            hub.flip("Ann", attr="dex")
        hub.close()
    assert main(["replay", db]) == 0, capsys.readouterr().err

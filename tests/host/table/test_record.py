"""The session record reads as a session: flips with their cards and
results, damage and what it did, rests, supply cards; and it exports."""

import csv
import io
import json
import os
import shutil
import sqlite3

import pytest

from host_tools.table import hub as T, store
from host_tools.cli import main
from host_tools.table.record import entries
from host_tools.commands.replay import open_db
from tests.host.session_db import session_db


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    return session_db(tmp_path_factory)


@pytest.fixture(scope="module")
def record(played):
    db = open_db(played)
    yield entries(db)
    db.close()


def _texts(record, player, op):
    return [e["text"] for e in record if e["player"] == player and e["op"] == op]


def test_flips_carry_their_cards_resolving_card_result_word_xp_and_shadow(record):
    ends = [e for e in record if e["op"] == "end_flip"]
    assert ends
    for e in ends:
        assert e["flip"]["cards"] and e["result"]["resolving"] in e["flip"]["cards"]
        if e["args"].get("resolved") is False:  # a teamwork flip another player's card resolved
            assert "another player's card resolved it" in e["text"] and "TRIUMPH" not in e["text"]
            continue
        assert "resolved by %s: " % e["result"]["resolving"] in e["text"]
        assert any(w in e["text"] for w in ("MISS", "PARTIAL", "SUCCESS", "TRIUMPH"))
        if e["result"].get("xp"):
            assert "+1 XP" in e["text"]
        if e["result"].get("shadow"):
            assert "Shadow +%d" % e["result"]["shadow"] in e["text"]
    buttons = [e for e in record if e["kind"] == "event" and e["op"] == "flip"]
    assert buttons and "(buttons)" in buttons[0]["text"]
    assert any("teamwork" in t for t in _texts(record, "Ann", "flip"))


def test_damage_rests_and_supply_cards_say_what_they_did(record):
    dmg = [e for e in record if e["op"] == "damage"][0]
    assert "takes 3 damage" in dmg["text"] and "%s Stamina lost" % dmg["result"]["stamina"] in dmg["text"]
    assert _texts(record, "Bo", "rest")[0].startswith("rests")
    blessing = [e for e in record if e["op"] == "take_blessing"][0]
    assert blessing["result"]["card"] in blessing["text"]
    # the other device is told: a supply movement, with its digests
    sync = [e for e in record if e["op"] == "supply_sync" and e["player"] == "Bo"]
    assert sync and blessing["result"]["card"] in sync[0]["text"] and sync[0]["before"] != sync[0]["digest"]


def test_every_rules_action_carries_the_digest_before_and_after(record):
    for e in record:
        if e["kind"] in ("command", "event") and e["op"] not in ("press",) and e["digest"]:
            assert e["before"], e


def test_exports(played, tmp_path, capsys):
    out = tmp_path / "recap.md"
    assert main(["replay", played, "--export", "md", "--out", str(out)]) == 0
    md = out.read_text()
    assert md.startswith("# Session record") and "**Ann** ends the flip (" in md and "resolved by" in md
    assert "supply_sync" not in md and "**Bo** takes 3 damage" in md
    assert main(["replay", played, "--export", "csv", "--player", "Bo"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert rows and {r["player"] for r in rows} == {"Bo"}
    assert any(r["op"] == "end_flip" and "resolved by" in r["text"] for r in rows)
    assert main(["replay", played, "--export", "json"]) == 0
    items = json.loads(capsys.readouterr().out)
    assert {e["player"] for e in items} == {"Ann", "Bo"} and all("digest" in e for e in items)


def test_a_version_1_database_gains_the_digest_before_in_place(tmp_path):
    path = str(tmp_path / "v1.db")
    con = sqlite3.connect(path)
    con.executescript(store.SCHEMA)
    for statement in store.UPGRADE.split(";"):
        if statement.strip():
            con.execute(statement)
    con.execute("INSERT INTO log (session, player, kind, op, digest) VALUES (1, 'Ann', 'command', 'flip', 'aa')")
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()
    hub = T.TableHub(path)
    try:
        assert hub.db.execute("PRAGMA user_version").fetchone()[0] == store.VERSION
        assert hub.db.execute("SELECT op, digest, before FROM log").fetchall() == [("flip", "aa", None)]
    finally:
        hub.close()
    T.TableHub(path).close()  # opened again: nothing to upgrade


# A session played by the schema before reasons (version 2: tests/host/session_db.py's play,
# made by that version's hub on simulated boards), kept as it was written.
V2 = os.path.join(os.path.dirname(__file__), "data", "session-v2.db")


def _rows(con, tables):
    return {t: con.execute("SELECT * FROM %s ORDER BY rowid" % t).fetchall() for t in tables}


def test_a_version_2_table_file_gains_reasons_in_place_without_loss(tmp_path, capsys):
    """Issue 27, 'Context in the record': the store upgrades an older table
    file in place; every row it held reads back the same, the record's
    words are the same, and replay still finds every entry matching."""
    path = str(tmp_path / "session.db")
    shutil.copy(V2, path)
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 2
    tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    before = _rows(con, tables)
    texts = [(e["id"], e["text"]) for e in entries(con)]
    con.close()
    T.TableHub(path).close()
    con = sqlite3.connect(path)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == store.VERSION == 3
        after = _rows(con, tables)
        for t in tables:
            width = len(before[t][0]) if before[t] else 0
            assert [r[:width] for r in after[t]][:len(before[t])] == before[t], t  # less the new columns
        assert all(r[-1] is None for r in after["flips"]) and all(r[-2:] == (None, None) for r in after["log"])
        assert [(e["id"], e["text"]) for e in entries(con)][:len(texts)] == texts
    finally:
        con.close()
    assert main(["replay", path]) == 0 and "verdict: every entry matches" in capsys.readouterr().out


def test_a_flips_reason_is_in_the_history_the_exports_and_replay(played, capsys):
    path = played
    db = open_db(path)
    try:
        mine = [e for e in entries(db, "Ann") if e["reason"]]
    finally:
        db.close()
    assert [e["op"] for e in mine] == ["flip", "end_flip"]
    assert all(e["text"].endswith(' for "climb the wall"') for e in mine)
    assert main(["replay", path, "--export", "md"]) == 0
    assert 'for "climb the wall"' in capsys.readouterr().out
    assert main(["replay", path, "--export", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["reason"] for r in rows if r["reason"]] == ["climb the wall"] * 2
    assert main(["replay", path, "--export", "json"]) == 0
    assert sum(e["reason"] == "climb the wall" for e in json.loads(capsys.readouterr().out)) == 2
    assert main(["replay", path]) == 0


def test_the_play_only_and_newest_reads_are_the_whole_records_tail(played):
    """The page's history reads only the tail of the play (SQL); it is what
    filtering the whole record in Python gives."""
    from host_tools.table.record import count, play

    db = open_db(played)
    try:
        for player in (None, "Bo"):
            whole = [e for e in entries(db, player) if play(e)]
            assert len(whole) < len(entries(db, player)), "the session has bookkeeping to leave out"
            assert entries(db, player, play_only=True, newest=4) == whole[-4:]
            assert count(db, player, play_only=True) == len(whole)
    finally:
        db.close()

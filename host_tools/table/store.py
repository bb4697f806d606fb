"""The session database: its schema, how it is opened, tagged and upgraded, and
every statement the table runs on it (``Store``), so the hub (hub.py) holds
no SQL. The hub keeps one connection for the session (``open_session_db``)
and its transactions (``with hub.db:``); a Store method runs one statement
and returns the cursor.
"""

import re
import sqlite3

from host_tools.table.errors import NotSessionDatabase

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (id INTEGER PRIMARY KEY, started REAL, note TEXT);
CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY, session INTEGER, t REAL, player TEXT,
    device TEXT, kind TEXT, seq INTEGER, op TEXT, args TEXT, result TEXT, digest TEXT);
CREATE TABLE IF NOT EXISTS flips (id INTEGER PRIMARY KEY, session INTEGER, t REAL, player TEXT,
    device TEXT, source TEXT, suit TEXT, net INTEGER, cards TEXT, level INTEGER, resolving TEXT,
    xp INTEGER, shadow INTEGER);
CREATE TABLE IF NOT EXISTS backups (id INTEGER PRIMARY KEY, session INTEGER, t REAL, player TEXT,
    device TEXT, digest TEXT, state TEXT);
CREATE TABLE IF NOT EXISTS shadow (id INTEGER PRIMARY KEY, session INTEGER, t REAL, delta INTEGER,
    reason TEXT);
"""
# Schema version 1 (issue 8) adds, to a session.db of any earlier version:
#   players   what the table knows of each player between runs: the device and
#             the game lineage last seen (game id, count, digest), the supply
#             cards held and the Shadow points earned
#   settings  the table's own facts (the supply set)
#   teamwork  teamwork flips, open until they end (a hub killed mid-way finds them)
#   backups.game/count, flips.event (the log row of the event a button flip came in)
#   log_event: an event is stored once per (device, seq, digest), see _on_event
# Schema version 2 (issue 9) adds log.before: the device's state digest before
# the logged action (log.digest is the one after), the proof of roll that
# `deckahedron replay` checks; and log.n, an event's command count after it.
# Schema version 3 (issue 27) adds log.reason and flips.reason: why a flip
# was made, as the GM or a request said it (empty: not said); and log.ask:
# on a device's event, the GM's ask it answers (the id of the ask's row).
VERSION = 3
UPGRADE_2 = """
ALTER TABLE log ADD COLUMN before TEXT;
ALTER TABLE log ADD COLUMN n INTEGER;
"""
UPGRADE_3 = """
ALTER TABLE log ADD COLUMN reason TEXT;
ALTER TABLE log ADD COLUMN ask INTEGER;
ALTER TABLE flips ADD COLUMN reason TEXT;
"""
UPGRADE = """
CREATE TABLE IF NOT EXISTS players (name TEXT PRIMARY KEY, device TEXT, game TEXT, count INTEGER,
    digest TEXT, port TEXT, held TEXT, shadow INTEGER, t REAL);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS teamwork (id INTEGER PRIMARY KEY, session INTEGER, t REAL, lead TEXT,
    supporters TEXT, closed REAL, outcome TEXT);
ALTER TABLE backups ADD COLUMN game TEXT;
ALTER TABLE backups ADD COLUMN count INTEGER;
ALTER TABLE flips ADD COLUMN event INTEGER;
DELETE FROM log WHERE kind = 'event' AND id NOT IN
    (SELECT MIN(id) FROM log WHERE kind = 'event' GROUP BY device, seq, COALESCE(digest, ''));
CREATE UNIQUE INDEX IF NOT EXISTS log_event ON log (device, seq, COALESCE(digest, '')) WHERE kind = 'event';
CREATE UNIQUE INDEX IF NOT EXISTS flips_event ON flips (event) WHERE event IS NOT NULL;
INSERT OR IGNORE INTO players (name, device, t)
    SELECT player, device, MAX(t) FROM backups WHERE player != '' GROUP BY player;
"""

# The session database's tag (issue 25): PRAGMA application_id is this number
# ("DKHD") in every database the hub made or adopted; user_version is its
# schema version (VERSION). Another program's database is refused untouched.
APPLICATION_ID = 0x444B4844
# SAVE's clocks (save2d6_clocks.py), made when first used.
CLOCKS_SCHEMA = """
CREATE TABLE IF NOT EXISTS clocks (id INTEGER PRIMARY KEY, name TEXT UNIQUE, kind TEXT, segments INTEGER,
    filled INTEGER, t REAL);
"""
# Every table a session database may hold.
TABLES = frozenset(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", SCHEMA + UPGRADE + CLOCKS_SCHEMA))


def session_kind(db):
    """What the open database ``db`` is, read before anything is written:
    "ours" (tagged with APPLICATION_ID), "new" (empty: ours to tag) or
    "untagged" (made before the tag: no application_id, and its tables are
    all a session database's, with the log: it is adopted and tagged).
    Anything else raises NotSessionDatabase saying what it is."""
    app = db.execute("PRAGMA application_id").fetchone()[0]
    if app == APPLICATION_ID:
        return "ours"
    if app:
        raise NotSessionDatabase("it is another program's database (application_id %d), not a session database"
                                 % app)
    if not db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]:
        return "new"
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                       " AND name NOT LIKE 'sqlite_%'")}
    if "log" in tables and tables <= TABLES:
        return "untagged"
    others = sorted(tables - TABLES) or sorted(tables)
    raise NotSessionDatabase("it is not a session database: it holds other tables (%s)" % ", ".join(others[:5]))


def open_session_db(path):
    """The hub's one connection to its session database, kept for the
    session. A database another program made is refused before anything
    is written to it (session_kind)."""
    db = sqlite3.connect(path)
    try:
        kind = session_kind(db)
    except (NotSessionDatabase, sqlite3.Error):
        db.close()
        raise
    # WAL keeps the database's files open for the connection's life: in the
    # default rollback mode every write opens a journal file, and a process
    # out of file handles (a flood of page connections) failed every write
    # with "unable to open database file".
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA temp_store = MEMORY")  # sorting never opens a temporary file either
    if kind != "ours":
        db.execute("PRAGMA application_id = %d" % APPLICATION_ID)
    db.executescript(SCHEMA)
    return db


def upgrade(db):
    """Bring a session database of an earlier schema version up to VERSION."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version >= VERSION:
        return
    with db:
        for since, script in ((1, UPGRADE), (2, UPGRADE_2), (3, UPGRADE_3)):
            if version >= since:
                continue
            for statement in script.split(";"):
                if statement.strip():
                    try:
                        db.execute(statement)
                    except sqlite3.OperationalError as e:
                        if "duplicate column" not in str(e):
                            raise
        db.execute("PRAGMA user_version = %d" % VERSION)

# Bookkeeping, not play: the record's play-only reading (record.py) leaves these out.
BOOKKEEPING_OPS = ("supply_sync", "press")
BOOKKEEPING_KINDS = ("question",)
_PLAY_SQL = "log.op NOT IN (%s) AND log.kind NOT IN (%s)" % (
    ", ".join("'%s'" % w for w in BOOKKEEPING_OPS), ", ".join("'%s'" % w for w in BOOKKEEPING_KINDS))


def _record_where(player, play_only, session=None):
    return ("log.player != '' AND (? IS NULL OR log.player = ?) AND (? IS NULL OR log.session = ?)"
            + (" AND " + _PLAY_SQL if play_only else ""), (player, player, session, session))


class Store:
    """The table's statements on the session database ``db``, one method each."""

    def __init__(self, db):
        self.db = db

    def new_session(self, t, note):
        return self.db.execute("INSERT INTO sessions (started, note) VALUES (?, ?)", (t, note))

    def supply_set(self):
        return self.db.execute("SELECT value FROM settings WHERE key = 'supply_set'")

    def names_of_other_devices(self, device):
        return self.db.execute("SELECT name FROM players WHERE device IS NOT ? AND device != ''", (device,))

    def name_of_device(self, device):
        return self.db.execute("SELECT name FROM players WHERE device = ? ORDER BY t DESC LIMIT 1", (device,))

    def known_player(self, name):
        return self.db.execute("SELECT device, game, count, digest FROM players WHERE name = ?", (name,))

    def remember_player(self, name, device, game, count, digest, port, held, shadow, t):
        return self.db.execute("INSERT INTO players (name, device, game, count, digest, port, held, shadow, "
                               "t) VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT(name) DO UPDATE SET device = "
                               "excluded.device, game = excluded.game, count = excluded.count, digest = "
                               "excluded.digest, port = excluded.port, held = COALESCE(excluded.held, "
                               "players.held), shadow = COALESCE(excluded.shadow, players.shadow), t = "
                               "excluded.t", (name, device, game, count, digest, port, held, shadow, t))

    def log_intent(self, session, t, name, device, kind, op, args):
        return self.db.execute("INSERT INTO log (session, t, player, device, kind, op, args) VALUES "
                               "(?,?,?,?,?,?,?)", (session, t, name, device, kind, op, args))

    def set_supply_set(self, supply_set):
        return self.db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES ('supply_set', ?)", (supply_set,))

    def add_backup(self, session, t, name, device, digest, text, game, count):
        return self.db.execute("INSERT INTO backups (session, t, player, device, digest, state, game, count) "
                               "VALUES (?,?,?,?,?,?,?,?)", (session, t, name, device, digest, text, game, count))

    def backups_of(self, name):
        return self.db.execute("SELECT id, t, count, digest, device, game FROM backups WHERE player = ? "
                               "ORDER BY id DESC", (name,))

    def latest_backup(self, name):
        return self.db.execute("SELECT state, digest FROM backups WHERE player = ? ORDER BY id DESC LIMIT 1", (name,))

    def forget_player(self, new):
        return self.db.execute("DELETE FROM players WHERE name = ?", (new,))

    def rename_player(self, new, old):
        return self.db.execute("UPDATE players SET name = ? WHERE name = ?", (new, old))

    def rename_backups(self, new, old):
        return self.db.execute("UPDATE backups SET player = ? WHERE player = ?", (new, old))

    def rename_log(self, new, old):
        return self.db.execute("UPDATE log SET player = ? WHERE player = ?", (new, old))

    def rename_flips(self, new, old):
        return self.db.execute("UPDATE flips SET player = ? WHERE player = ?", (new, old))

    def open_teamwork(self, session, t, lead, supporters):
        return self.db.execute("INSERT INTO teamwork (session, t, lead, supporters) VALUES (?,?,?,?)",
                               (session, t, lead, supporters))

    def close_teamwork(self, t, outcome, tid):
        return self.db.execute("UPDATE teamwork SET closed = ?, outcome = ? WHERE id = ?", (t, outcome, tid))

    def undo_teamwork(self, lead):
        return self.db.execute("UPDATE teamwork SET outcome = 'undone (it was ' || COALESCE(outcome, 'open') || ')' "
                               "WHERE id = (SELECT MAX(id) FROM teamwork WHERE lead = ?)", (lead,))

    def open_teamworks(self):
        return self.db.execute("SELECT id, lead, supporters FROM teamwork WHERE closed IS NULL")

    def latest_backup_with_id(self, name):
        return self.db.execute("SELECT id, state, digest FROM backups WHERE player = ? ORDER BY id DESC "
                               "LIMIT 1", (name,))

    def backup_of(self, name, backup_id):
        return self.db.execute("SELECT id, state, digest FROM backups WHERE player = ? AND id = ?", (name, backup_id))

    def undoable_entries(self, name):
        return self.db.execute("SELECT id, kind, op, args, before FROM log WHERE player = ? AND digest IS "
                               "NOT NULL AND kind IN ('command', 'event', 'restore', 'take_as_new', "
                               "'reconcile', 'undo') ORDER BY id DESC", (name,))

    def flip_start(self, name, rid):
        return self.db.execute("SELECT id, op, before FROM log WHERE player = ? AND id <= ? AND op = 'flip' "
                               "AND kind IN ('command', 'event') ORDER BY id DESC LIMIT 1", (name, rid))

    def teamwork_after(self, rid):
        return self.db.execute("SELECT id, args FROM log WHERE kind = 'teamwork' AND id > ? ORDER BY id "
                               "LIMIT 1", (rid,))

    def teamwork_started(self, lead):
        return self.db.execute("SELECT t FROM teamwork WHERE lead = ? ORDER BY id DESC LIMIT 1", (lead,))

    def first_command_since(self, player, started, before_id):
        return self.db.execute("SELECT id, op, before FROM log WHERE player = ? AND kind = 'command' AND op "
                               "!= 'supply_sync' AND t >= ? AND id < ? ORDER BY id LIMIT 1",
                               (player, started, before_id))

    def backup_with_digest(self, n, first_before):
        return self.db.execute("SELECT id, state FROM backups WHERE player = ? AND digest = ? ORDER BY id "
                               "DESC LIMIT 1", (n, first_before))

    def entries_from(self, n, first_id):
        return self.db.execute("SELECT id FROM log WHERE player = ? AND id >= ? AND kind IN ('command', "
                               "'event')", (n, first_id))

    def claim_log(self, new_name, device):
        return self.db.execute("UPDATE log SET player = ? WHERE player = '' AND device = ?", (new_name, device))

    def claim_flips(self, new_name, device):
        return self.db.execute("UPDATE flips SET player = ? WHERE player = '' AND device = ?", (new_name, device))

    def holdings(self):
        return self.db.execute("SELECT name, held FROM players WHERE held IS NOT NULL")

    def shadow_earned(self):
        return self.db.execute("SELECT name, shadow FROM players WHERE shadow IS NOT NULL")

    def shadow_spent(self):
        return self.db.execute("SELECT COALESCE(SUM(delta), 0) FROM shadow WHERE delta < 0")

    def add_shadow(self, session, t, delta, reason):
        return self.db.execute("INSERT INTO shadow (session, t, delta, reason) VALUES (?,?,?,?)",
                               (session, t, delta, reason))

    def log_event(self, session, t, player, device, kind, seq, op, args, result, digest, before, n, reason=None,
                  ask=None):
        return self.db.execute("INSERT OR IGNORE INTO log (session, t, player, device, kind, seq, op, args, "
                               "result, digest, before, n, reason, ask) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                               (session, t, player, device, kind, seq, op, args, result, digest, before, n, reason,
                                ask))

    def asked(self, ask):
        """The GM's ask numbered ``ask`` (its row): (player, args, reason), or None."""
        return self.db.execute("SELECT player, args, reason FROM log WHERE id = ? AND kind = 'ask'", (ask,))

    def add_flip(self, session, t, player, device, source, suit, net, cards, level, resolving, xp, shadow, event,
                 reason=None):
        return self.db.execute("INSERT OR IGNORE INTO flips (session, t, player, device, source, suit, net, "
                               "cards, level, resolving, xp, shadow, event, reason) VALUES "
                               "(?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                               (session, t, player, device, source, suit, net, cards, level, resolving, xp, shadow, event,
                                reason))

    def log_entry(self, session, t, name, device, kind, seq, op, v7, v8, digest, before, reason=None):
        return self.db.execute("INSERT INTO log (session, t, player, device, kind, seq, op, args, result, "
                               "digest, before, reason) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                               (session, t, name, device, kind, seq, op, v7, v8, digest, before, reason))

    def delete_log_entry(self, replaces):
        return self.db.execute("DELETE FROM log WHERE id = ?", (replaces,))

    def log_rows(self, session, limit):
        return self.db.execute("SELECT t, player, kind, seq, op, args, result FROM log WHERE session = ? "
                               "ORDER BY id DESC LIMIT ?", (session, limit))

    def flip_rows(self, session):
        return self.db.execute("SELECT player, source, suit, net, cards, level, resolving FROM flips WHERE "
                               "session = ? ORDER BY id", (session,))

    # -- SAVE's clocks (save2d6_clocks.py) -------------------------------------
    def make_clocks(self):
        self.db.executescript(CLOCKS_SCHEMA)

    def clocks(self):
        return self.db.execute("SELECT name, kind, segments, filled FROM clocks ORDER BY id")

    def add_clock(self, name, kind, segments, t):
        return self.db.execute("INSERT INTO clocks (name, kind, segments, filled, t) VALUES (?,?,?,0,?)",
                               (name, kind, segments, t))

    def fill_clock(self, filled, t, name):
        return self.db.execute("UPDATE clocks SET filled = ?, t = ? WHERE name = ?", (filled, t, name))

    def remove_clock(self, name):
        return self.db.execute("DELETE FROM clocks WHERE name = ?", (name,))

    # -- what the live page reads (web/view.py) ----------------------------------
    def undo_entries(self, session):
        return self.db.execute("SELECT args FROM log WHERE session = ? AND kind = 'undo'", (session,))

    def session_flips(self, session):
        return self.db.execute("SELECT player, id, source, suit, net, cards, level, resolving, event, reason FROM "
                               "flips WHERE session = ? ORDER BY id DESC", (session,))

    def session_teamwork(self, session):
        return self.db.execute("SELECT lead, supporters, closed, outcome FROM teamwork WHERE session = ? "
                               "ORDER BY id DESC", (session,))

    def last_log_id(self):
        return self.db.execute("SELECT MAX(id) FROM log")

    # -- what `deckahedron replay` reads (commands/replay.py) --------------------
    def backup_players(self):
        return self.db.execute("SELECT DISTINCT player FROM backups WHERE player != '' ORDER BY id")

    def first_backup_with_digest(self, name, digest):
        return self.db.execute("SELECT state FROM backups WHERE player = ? AND digest = ? ORDER BY id LIMIT "
                               "1", (name, digest))

    def first_backup(self, name):
        return self.db.execute("SELECT state, digest FROM backups WHERE player = ? ORDER BY id LIMIT 1", (name,))

    def player_entries(self, name):
        return self.db.execute("SELECT log.id, log.kind, log.op, log.args, log.result, log.digest, "
                               "log.before, log.n, flips.cards, " + self.context_columns() + " FROM log LEFT JOIN "
                               "flips ON flips.event = log.id WHERE log.player = ? ORDER BY log.id", (name,))

    def quick_check(self):
        return self.db.execute("PRAGMA quick_check")

    def log_columns(self):
        return self.db.execute("PRAGMA table_info(log)")

    # -- what the session record reads (record.py) -------------------------------
    def record_count(self, player, play_only):
        where, args = _record_where(player, play_only)
        return self.db.execute("SELECT COUNT(*) FROM log WHERE " + where, args)

    def record_rows(self, player, play_only, newest, session):
        """The newest rows first (``newest`` of them, or all)."""
        where, args = _record_where(player, play_only, session)
        return self.db.execute(
            "SELECT log.id, log.session, log.t, log.player, log.kind, log.op, log.args, log.result, log.before,"
            " log.digest, flips.cards, flips.suit, flips.net, " + self.context_columns() + " FROM log LEFT JOIN flips"
            " ON flips.event = log.id"
            " WHERE " + where + " ORDER BY log.id DESC" + (" LIMIT %d" % newest if newest is not None else ""),
            args)

    def record_players(self):
        return self.db.execute("SELECT player FROM log WHERE player != '' GROUP BY player ORDER BY MIN(id)")

    def context_columns(self):
        """log.reason and log.ask where the database has them; NULLs in one
        of an older schema read as it is (replay opens it read-only)."""
        return "log.reason, log.ask" if any(r[1] == "reason" for r in self.log_columns()) else "NULL, NULL"


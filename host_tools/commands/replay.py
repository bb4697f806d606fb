"""`deckahedron replay SESSION.db`: proof of roll, and the record's exports.

Each player's game is re-run from their first backup through the rules core
(shared_rules.deck.game.Game): every logged rules command and button event in
order, each checked against the digests the hub logged before and after it
and against its logged result. A save's text form holds the deck order and
the shuffle's PRNG state, so this re-run is the device's own play
(tests/host/commands/test_replay.py checks that). Each player is checked on their
own: a line per player (on stderr the first entry that does not match), then
one verdict line. Exit 0 when every entry matches, 1 when any does not, 2
for a file that is not a session database or is damaged.

`--export md|csv|json` writes the session record instead (host_tools/table/record.py).
"""

import json
import os
import sqlite3
import sys

from shared_rules.errors import RulesError
from shared_rules import systems
from shared_rules.atomic import text_digest

from host_tools.table import record
from host_tools.table.errors import NotSessionDatabase
from host_tools.table import store
from host_tools.table.store import session_kind

# Entries that put a whole saved state on the device: the replay goes on from
# the backup with the digest they logged (reconcile: the record taking a device
# as it was after writes failed, table.TableHub._catch_up).
RELOADS = (("restore", "restore"), ("take_as_new", "take_as_new"), ("command", "new_game"),
           ("command", "restore"), ("undo", "undo"), ("reconcile", "reconcile"))


class Mismatch(Exception):
    pass


def open_db(path):
    """The session database read-only; ValueError when it is not one (another
    program's, or one that fails SQLite's own quick_check: damaged)."""
    if not os.path.isfile(path):
        raise ValueError("%s: no such file" % path)
    try:
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    except sqlite3.Error as e:
        raise ValueError("%s cannot be read: %s" % (path, e))
    try:
        _check(db, path)
    except BaseException:
        db.close()
        raise
    return db


def _check(db, path):
    try:
        session_kind(db)  # a database from before the tag is read as it is
        damage = [r[0] for r in store.Store(db).quick_check()]
        cols = [r[1] for r in store.Store(db).log_columns()]
    except NotSessionDatabase as e:
        raise ValueError("%s: %s" % (path, e))
    except sqlite3.DatabaseError as e:
        raise ValueError("%s is not a session database: %s" % (path, e))
    if damage != ["ok"]:
        raise ValueError("%s is damaged: SQLite's quick_check finds %s%s; nothing in it can be trusted"
                         % (path, damage[0], " (and %d more)" % (len(damage) - 1) if len(damage) > 1 else ""))
    if not cols:
        raise ValueError("%s is not a session database: it has no log" % path)
    if "before" not in cols:
        raise ValueError("%s is from before proof of roll (schema version 1): open it with `deckahedron table "
                         "--db %s` once to upgrade it; its older entries carry no digests to check" % (path, path))


def players(db):
    return [r[0] for r in store.Store(db).backup_players()]


def _backup(db, name, digest):
    row = store.Store(db).first_backup_with_digest(name, digest).fetchone()
    return row[0] if row else None


def _plain(value):
    return json.loads(json.dumps(value, sort_keys=True))


def replay_player(db, name):
    """Re-run one player's game; returns the number of entries checked.
    Raises Mismatch naming the first entry that does not match."""
    first = store.Store(db).first_backup(name).fetchone()
    if first is None:
        return 0
    text, digest = first
    if text_digest(text) != digest:
        raise Mismatch("%s: the first backup does not match its own digest %s" % (name, digest))
    game = systems.load(text)
    checked = 0
    rows = store.Store(db).player_entries(name).fetchall()
    for rid, kind, op, args, result, after, before, n, cards, reason, _ in rows:
        where = "%s: entry %d (%s %s%s)" % (name, rid, kind, op, record.reason_words(reason))
        if (kind, op) in RELOADS:
            text = _backup(db, name, after)
            if text is None:
                raise Mismatch("%s: no backup has the state it put on the device (%s)" % (where, after))
            game = systems.load(text)
            continue
        if kind not in ("command", "event") or op not in game.COMMANDS or not after:
            continue
        if kind == "event" and n is not None and n <= game.s.count:
            continue  # pressed while the hub was away: already in the backup the replay started from
        if before is not None and before != game.digest():
            raise Mismatch("%s: the state before it is %s, the entries before it lead to %s "
                           "(an entry missing, added or edited)" % (where, before, game.digest()))
        try:
            args = json.loads(args) if args else {}
            logged = json.loads(result) if result else {}
        except ValueError:
            raise Mismatch("%s: its arguments or result are not readable" % where)
        args = dict(args or {})
        if op == "set_edition" and "edition" in args:  # as the device takes it (firmware/app.py)
            args["edition_key"] = args.pop("edition")
        if op == "end_flip" and cards is not None and getattr(game.s, "flip", None) is not None:
            shown = ",".join(game.flip_view()["cards"])
            if shown != cards:
                raise Mismatch("%s: its flip shows cards %s, the rules dealt %s" % (where, cards, shown))
        try:
            got = systems.stamp(game, game.do(op, args))
        except RulesError as e:
            raise Mismatch("%s: the rules refuse it here (%s)" % (where, e.message))
        got["digest"] = game.digest()
        if got["digest"] != after:
            raise Mismatch("%s: the digest after it is %s, the rules give %s" % (where, after, got["digest"]))
        if not logged.get("truncated"):
            got = _plain(got)
            for key in sorted(set(got) | set(logged)):
                if got.get(key) != logged.get(key):
                    raise Mismatch("%s: its result says %s=%s, the rules give %s"
                                   % (where, key, json.dumps(logged.get(key)), json.dumps(got.get(key))))
        checked += 1
    return checked


def replay(db):
    """{player: entries checked}; raises Mismatch at the first entry that does not match."""
    return {name: replay_player(db, name) for name in players(db)}


def verdicts(db):
    """[(player, entries checked, None or the Mismatch naming their first
    entry that does not match)]: every player checked, whatever the others'."""
    out = []
    for name in players(db):
        try:
            out.append((name, replay_player(db, name), None))
        except Mismatch as e:
            out.append((name, 0, e))
    return out


def _names(names):
    return names[0] if len(names) == 1 else "%s and %s" % (", ".join(names[:-1]), names[-1])


def verdict(results):
    """The one line that sums a replay up."""
    bad = [name for name, _, err in results if err is not None]
    if bad:
        return ("verdict: the record does NOT match for %s (%d of %d player%s); the line above names "
                "the first entry that differs" % (_names(bad), len(bad), len(results), "" if len(results) == 1 else "s"))
    total = sum(n for _, n, _ in results)
    return ("verdict: every entry matches: %d entr%s of %s replay through the rules as logged"
            % (total, "y" if total == 1 else "ies", _names([name for name, _, _ in results])))


def add_arguments(p):
    p.add_argument("db", metavar="SESSION.db", help="the table's session database (deckahedron table --db)")
    p.add_argument("--export", choices=record.FORMATS,
                   help="write the session record instead: md (a recap), csv or json")
    p.add_argument("--player", metavar="NAME", help="with --export: one player's entries")
    p.add_argument("--out", metavar="FILE", help="with --export: write to FILE (default: standard output)")
    p.epilog = ("Without --export: a line per player, then one verdict line. Exit status: 0 every entry "
                "matches (or there is nothing to check), 1 an entry does not match (stderr names the first "
                "one of each such player), 2 the file is not a session database or is damaged.")


def run(args):
    from host_tools.cli import reporter

    complain, _ = reporter("deckahedron replay")
    try:
        db = open_db(args.db)
    except ValueError as e:
        complain(e)
        return 2
    try:
        if args.export:
            text = record.export(record.entries(db, args.player), args.export)
            if args.out:
                with open(args.out, "w") as f:
                    f.write(text)
            else:
                sys.stdout.write(text)
            return 0
        try:
            results = verdicts(db)
        except sqlite3.DatabaseError as e:
            complain("%s is not a session database: %s" % (args.db, e))
            return 2
        if not results:
            print("verdict: nothing to check: no player has a backup in %s" % args.db)
            return 0
        for name, n, err in results:
            if err is None:
                print("%s: %d entries match" % (name, n))
            else:
                sys.stdout.flush()
                complain(err)
        print(verdict(results))
        return 1 if any(err is not None for _, _, err in results) else 0
    finally:
        db.close()

"""The session record: the hub's log read back as what happened at the table.

Every row of the session database's ``log`` that belongs to a player becomes
an entry (a dict) with a line in words: the flips with their cards, the
resolving card, the result word, XP, the critical success and Shadow; damage
and what it did; rests; supply cards taken, given back or held elsewhere.
An undo's row names the entries it took back; they stay in the record,
marked ``undone``. ``export`` writes the entries as a Markdown recap, CSV or
JSON: `deckahedron replay --export` and the live page's history both use it.
"""

import csv
import io
import json

from shared_rules.deck.words import SUITS, level_words

from host_tools.table import replies, store

FIELDS = ("id", "session", "t", "player", "kind", "op", "args", "result", "before", "digest", "reason", "ask",
          "text", "undone")
FORMATS = ("md", "csv", "json")


def play(e):
    """Whether an entry is play, not bookkeeping (the recap and the page's
    history leave bookkeeping out, as store's play-only reading does)."""
    return e["op"] not in store.BOOKKEEPING_OPS and e["kind"] not in store.BOOKKEEPING_KINDS


def count(db, player=None, play_only=False):
    return store.Store(db).record_count(player, play_only).fetchone()[0]


def entries(db, player=None, play_only=False, newest=None, session=None):
    """The record's entries, oldest first; ``player`` keeps one player's,
    ``play_only`` leaves out bookkeeping, ``newest`` keeps the last N (an
    undo comes after what it undid, so the last N mark theirs), ``session``
    one session's."""
    rows = store.Store(db).record_rows(player, play_only, newest, session).fetchall()[::-1]
    out = []
    for r in rows:
        e = {"id": r[0], "session": r[1], "t": r[2], "player": r[3], "kind": r[4], "op": r[5],
             "args": _json(r[6]), "result": _json(r[7]), "before": r[8], "digest": r[9], "reason": r[13] or "",
             "ask": r[14]}
        if r[10] is not None:
            e["flip"] = {"cards": [c for c in r[10].split(",") if c], "suit": r[11], "net": r[12]}
        e["text"] = describe(e) + reason_words(e["reason"]) + (" (as the GM asked)" if e["ask"] else "")
        out.append(e)
    undone = set()  # an undo row names the entries it took back
    for e in out:
        if e["kind"] == "undo" and isinstance(e["args"], dict):
            undone.update(e["args"].get("entries") or [])
    for e in out:
        e["undone"] = e["id"] in undone
    return out


def reason_words(reason):
    """Why a flip was made, as its entry's text ends: ' for "climb the wall"'."""
    return ' for "%s"' % reason if reason else ""


def players(db):
    """The names in the record, first seen first."""
    return [r[0] for r in store.Store(db).record_players()]


def _json(text):
    try:
        return json.loads(text) if text else {}
    except ValueError:
        return {"unreadable": text}


def describe(e):
    """One entry in words (without the player's name): a command in its
    system's words (shared_rules/<folder>/words.py), the table's own
    events in the table's."""
    op, a, r = e["op"], e["args"] or {}, e["result"] or {}
    a = a if isinstance(a, dict) else {}
    r = r if isinstance(r, dict) else {}
    if e["kind"] == "refused":
        return "%s refused: %s" % (op, r.get("message", ""))
    if e["kind"] == "intent":  # written before the device acted; what happened was never written over it
        return "%s sent to the device, its answer not recorded (no answer, or the record failed)" % op
    if e["kind"] in ("join", "question", "faulty", "rename", "leave_out", "take_as_new", "restore", "teamwork",
                     "undo", "reconcile", "ask"):
        return _table_event(e, a, r)
    if op == "end_flip" and e.get("flip"):  # the flip it ends, as the record keeps it
        r = dict(r, flip=e["flip"])
    return replies.say(op, r, None, a) + (" (buttons)" if e["kind"] == "event" else "")


def _table_event(e, a, r):
    k = e["kind"]
    if k == "join":
        return "joins the table" + (" (faulty: %s)" % r["faulty"] if r.get("faulty") else "")
    if k == "teamwork":
        return "leads a teamwork flip with %s: resolved by %s's %s, %s" % (
            ", ".join(a.get("supporters", [])) or "nobody", r.get("resolved_by"), r.get("card"),
            level_words(r.get("level")))
    if k == "restore":
        return "backup %s restored onto the device" % a.get("backup")
    if k == "rename":
        return "renamed from %s" % a.get("old")
    if k == "take_as_new":
        return "taken as a new player (from %s)" % a.get("from")
    if k == "faulty":
        return "device faulty: %s" % r.get("reason")
    if k == "question":
        return r.get("text", "another device or game on the port")
    if k == "ask":
        return "asked by the GM to flip %s %+d" % (SUITS.get(a.get("attr"), a.get("attr")), a.get("net") or 0)
    if k == "undo":
        return "undo: back to before %s" % a.get("op")
    if k == "reconcile":
        return "the record takes the device's state as it is (it acted while the record could not be written)"
    return k


def check_format(fmt):
    if fmt not in FORMATS:
        raise ValueError("export format is md, csv or json, not %r" % (fmt,))


def export(items, fmt):
    """The entries as text: "md" (a recap), "csv" or "json"."""
    check_format(fmt)
    if fmt == "json":
        return json.dumps(items, indent=1, sort_keys=True) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf)
        w.writerow(FIELDS)
        for e in items:
            w.writerow([json.dumps(e[f], sort_keys=True) if isinstance(e[f], (dict, list)) else e[f]
                        for f in FIELDS])
        return buf.getvalue()
    if fmt == "md":
        lines = ["# Session record"]
        session = None
        for e in items:
            if not play(e):
                continue
            if e["session"] != session:
                session = e["session"]
                lines += ["", "## Session %s" % session, ""]
            lines.append("- **%s** %s%s" % (e["player"], e["text"], " *(undone)*" if e.get("undone") else ""))
        return "\n".join(lines) + "\n"

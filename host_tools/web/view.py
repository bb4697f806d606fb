"""What the live page shows, read from the hub: a plain dict for JSON.

Runs on the hub's thread (it reads the hub's mirror of each device and its
session database, never the devices themselves). The words are the console's:
each system's words module (shared_rules/<folder>/words.py), problems as
the hub says them.
"""

import json

from shared_rules.deck import cards as C
from shared_rules import systems
from shared_rules.deck.results import WORDS
from shared_rules.deck.words import flip_words, rules_of

from host_tools.table import record, replies
from host_tools.table.battery import battery_words, is_low

FLIPS_SHOWN = 5  # the last flips of each player on the page
HISTORY_SHOWN = 200  # the newest entries of the history view; the exports hold them all


def card_kind(cid):
    card = C.CARDS.get(cid)
    return card.kind if card is not None else "unknown"


def connection(p):
    """(word, sentence) for a player's device: ok, offline, faulty, question, no device."""
    if p.faulty:
        return "faulty", "faulty: %s" % p.faulty
    if p.question is not None:
        return "question", p.question.get("text") or "another device or game is on the port"
    if p.link is None:
        return "none", p.error or "no device"
    if not p.online:
        return "offline", p.error or "offline"
    return "ok", "connected on %s" % p.port


def flip_entry(fid, source, suit, net, shown, level, resolving, undone=False, reason=""):
    """One flip as the page shows it; ``fid``, its row id, tells two alike flips apart."""
    shown = [c for c in (shown or "").split(",") if c] if isinstance(shown, str) else list(shown or [])
    return {"id": fid, "suit": suit, "net": net or 0, "cards": shown, "resolving": resolving, "level": level,
            "word": WORDS.get(level, ""), "source": source, "undone": undone, "reason": reason or "",
            "text": flip_words({"suit": suit, "net": net, "cards": shown, "level": level, "resolving": resolving})
            + record.reason_words(reason) + (" (undone)" if undone else "")}


def undone_entries(hub):
    """Log ids of this session that an undo took back."""
    out = set()
    for (args,) in hub.store.undo_entries(hub.session):
        try:
            out.update(json.loads(args or "{}").get("entries") or [])
        except (ValueError, AttributeError):
            pass
    return out


def last_flips(hub, n=FLIPS_SHOWN):
    """player -> their last ``n`` flips of this session, newest first (an undone one says so)."""
    undone = undone_entries(hub)
    rows = hub.store.session_flips(hub.session).fetchall()
    out = {}
    for row in rows:
        mine = out.setdefault(row[0], [])
        if len(mine) < n:
            mine.append(flip_entry(*row[1:8], undone=row[8] in undone, reason=row[9]))
    return out


def record_names(hub, player=None):
    """The names in the record or at the table; ValueError with a sentence
    when ``player`` is neither."""
    names = record.players(hub.db)
    names += [n for n in hub.players if n not in names]
    if player is not None and player not in names:
        raise ValueError("no player named %r in the session record (%s)" % (player, ", ".join(names) or "nobody yet"))
    return names


def history_view(hub, player=None, n=HISTORY_SHOWN):
    """The page's history: the record's play (no bookkeeping), newest first, the last ``n``."""
    names = record_names(hub, player)
    shown = record.entries(hub.db, player, play_only=True, newest=n)
    return {"players": names, "player": player or "", "total": record.count(hub.db, player, play_only=True),
            "entries": [{"id": e["id"], "session": e["session"], "t": e["t"], "player": e["player"],
                         "kind": e["kind"], "op": e["op"], "text": e["text"], "undone": e["undone"]}
                        for e in reversed(shown)]}


def player_view(p, flips, screen):
    s = p.state or {}
    tokens = s.get("tokens") or {}
    held = list(s.get("held") or [])
    word, text = connection(p)
    open_flip = s.get("flip")
    system = replies.system_of(s)
    return {
        "system": system, "system_name": systems.name(system),
        "words": replies.words_of(s).describe(s) if s else [],
        "name": p.name, "device": p.device, "port": p.port, "connection": word, "connection_text": text,
        "question": (p.question or {}).get("text") or "", "faulty": p.faulty,
        "known": bool(s),
        "draw": s.get("draw"), "discard": s.get("discard"), "exhaustion": s.get("exhaustion"), "xp": s.get("xp"),
        "harm": tokens.get("harm"), "wound_tokens": tokens.get("wound"), "exhaustion_tokens": tokens.get("exhaustion"),
        "blessings": [c for c in held if card_kind(c) == "blessing"],
        "wound_cards": [c for c in held if card_kind(c) == "wound"],
        "incapacitated": s.get("incapacitated") or "",
        "edition": s.get("edition") or "", "campaign": s.get("campaign") or "",
        "attrs": s.get("attrs") or {},
        "open_flip": [replies.say("flip", open_flip, s)] if open_flip else [],
        "flips": flips.get(p.name, []),
        "screen": screen or "",
        "battery": battery_words(s) if s else "", "battery_low": is_low(s),
    }


def teamwork_view(hub, n=3):
    """Teamwork flips of this session: the ones still open, then the last ``n`` closed."""
    rows = hub.store.session_teamwork(hub.session).fetchall()
    going, done = [], []
    for lead, supporters, closed, outcome in rows:
        try:
            others = json.loads(supporters or "[]")
        except ValueError:
            others = []
        text = "%s leads, with %s" % (lead, ", ".join(others) or "nobody")
        if closed is None:
            going.append(text + ": in progress")
        elif len(done) < n:
            done.append("%s: %s" % (text, outcome or "closed"))
    return {"in_progress": going, "recent": done}


def table_view(hub, screens):
    """The whole page's data; ``screens`` maps a player to their screen's version tag."""
    flips = last_flips(hub)
    earned, spent, left = hub.shadow()
    first = next(iter(hub.players.values())).state if hub.players else {}
    supply = hub.supply()
    return {
        "players": [player_view(p, flips, screens.get(name)) for name, p in hub.players.items()],
        "supply": {"blessings": [c for c in supply if card_kind(c) == "blessing"],
                   "wounds": [c for c in supply if card_kind(c) == "wound"]},
        "shadow": {"name": rules_of(first)["gm_points"], "earned": earned, "spent": spent, "left": left},
        "teamwork": teamwork_view(hub),
        "conflicts": ["%s held by %s and %s" % c for c in hub.conflicts()],
        "suits": list(C.SUITS),
        "record": hub.store.last_log_id().fetchone()[0] or 0,  # the history's newest entry
    }

"""Facets in words: describe a summary, say what a command did, and check a
summary a device sent (the hub, the console, the live page, the session log).

Portable, but only the host and the device's status lines load it.
"""

from shared_rules.facets.game import ATTRS, BANDS, DICE, LADDERS, MAX_POINTS, PENALTIES, TRACKS, attr_name
from shared_rules.facets.results import band_word, band_words

PENALTY_WORDS = {"step": "die -2 steps", "cost": "first success costs", "effort": "no effort"}
MAX_LINE = 40


def roll_words(r):
    """'F d8 8+8+3=19 +2 vs 8: ADVANTAGE x2' (<= 40 characters when it can)."""
    if r.get("mode") == "calm":
        dice = "calm %d" % r["total"]
    else:
        dice = "+".join("%d" % f for f in r["faces"])
        if len(r["faces"]) > 1:
            dice += "=%d" % r["total"]
    text = "%s d%d %s" % (r["attr"], r["die"], dice)
    bonus = r.get("bonus", 0)
    if bonus:
        text += " %+d" % bonus
    if r.get("tn") is None:
        return text + " -> %d" % (r["total"] + bonus)
    return text + " vs %d: %s" % (r["tn"], band_word(r["band"], r.get("advantages", 0)))


def _cap(word):
    return word[:1].upper() + word[1:]  # MicroPython's str has no capitalize


def _clip(line):
    return line if len(line) <= MAX_LINE else line[:MAX_LINE - 3] + "..."


def describe(summary):
    """Short lines (<= 40 characters) saying a Facets character's state."""
    s = summary
    out = ["Facets %s, %d commands" % (s["game"], s["count"])]
    row = []
    for a in ATTRS:
        mark = "*" if s["dice"][a] != s["attrs"][a] else ""
        row.append("%s d%d%s" % (a, s["dice"][a], mark))
    out.append(" ".join(row[:5]))
    out.append(" ".join(row[5:]))
    out.append("Health %d/%d  Cool %d/%d" % (s["health"][0], s["health"][1], s["cool"][0], s["cool"][1]))
    out.append("Effort %d  Tokens %d" % (s["effort"], s["tokens"]))
    if s["dead"]:
        out.append("DEAD")
    elif s["out"]:
        out.append("Taken out (%s 0): consequence?" % s["out"])
    for t in TRACKS:
        lad = s["ladders"][t]
        if lad["level"]:
            out.append(_clip("%s: %s on %s" % (_cap(lad["word"]),
                                               ", ".join(PENALTY_WORDS[k] for k in lad["penalties"]),
                                               "/".join(lad["attrs"]) if lad["level"] < 3 else "all three")))
    k = s.get("task")
    if k:
        out.append(_clip("Task %s" % k["text"]))
        out.append("  %d/%d after %d of %d: %s" % (k["wins"], k["need"], k["tries"], k["attempts"], k["state"]))
    last = s.get("last")
    if last:
        for r in last["rolls"]:
            out.append(_clip(roll_words(r)))
    rules = [w for w, on in (("specific defenses", s["rules"]["specific"]),
                             ("positioning", s["rules"]["positioning"])) if on]
    if rules:
        out.append(_clip("Rules: " + ", ".join(rules)))
    return out


def say(op, args, result, state=None):
    """One sentence about a command and its result: the console's line and
    the session log's entry (``state``, the player's summary, is not needed
    here)."""
    args = args or {}
    result = result or {}
    rolls = result.get("rolls") or ([result["roll"]] if "roll" in result else [])
    if rolls:
        parts = []
        for r in rolls:
            bonus = r.get("bonus", 0)
            text = "%s d%d rolled %s" % (attr_name(r["attr"]), r["die"], _faces_words(r))
            if bonus:
                text += " %+d" % bonus
            text += " = %d" % (r["total"] + bonus)
            if r.get("tn") is not None:
                text += " against TN %d: %s" % (r["tn"], band_words(r["band"], r.get("advantages", 0)))
            parts.append(text)
        sentence = "; ".join(parts)
        if op == "attack":
            sentence += "; deals %d damage" % result.get("damage", 0)
            if result.get("target_tokens"):
                sentence += ", target gains %d token%s" % (result["target_tokens"], "" if result["target_tokens"] == 1 else "s")
        if result.get("task"):
            sentence += "; task %s" % result["task"]
        return sentence + "."
    events = result.get("events") or []
    if events:
        return "%s: %s." % (op, ", ".join(events))
    return "%s." % op


def _faces_words(r):
    mode = r.get("mode", "normal")
    if mode == "calm":
        return "nothing (calm: takes %d)" % r["total"]
    text = "+".join("%d" % f for f in r["faces"])
    n = len(r["faces"]) - 1
    if n:
        text += " (exploded %s)" % ("once" if n == 1 else "%d times" % n)
    elif mode == "pressure":
        text += " (under pressure)"
    return text


def _count(v, high=None):
    return type(v) is int and v >= 0 and (high is None or v <= high)


def changes(before, after):
    """What a command changed in the state: the lines of ``describe`` that
    are new (but the count of commands, which every command changes, and
    the last roll, which ``say`` says)."""
    said = describe(before)
    rolls = [_clip(roll_words(r)) for r in (after.get("last") or {}).get("rolls", [])]
    return [w for w in describe(after)[1:] if w not in said and w not in rolls]


def summary_problem(summary):
    """"" when a Facets summary from a device is sound, else one line why."""
    s = summary
    if type(s) is not dict or s.get("system") != "facets":
        return "not a Facets summary"
    if not _count(s.get("count")):
        return "count is not a whole number of 0 or more"
    g = s.get("game")
    if not isinstance(g, str) or not 0 < len(g) <= 16 or not all(c.isalpha() or c.isdigit() for c in g):
        return "game id is not 1 to 16 letters and digits"
    for key in ("attrs", "dice"):
        d = s.get(key)
        if type(d) is not dict or sorted(d) != sorted(ATTRS) or any(d[a] not in DICE for a in ATTRS):
            return "%s is not a die for each of the nine attributes" % key
    for t in TRACKS:
        v = s.get(t)
        if type(v) is not list or len(v) != 2 or not _count(v[1], MAX_POINTS) or not v[1] or not _count(v[0], v[1]):
            return "%s is not [points, maximum] with 0 <= points <= maximum" % t
    for key in ("effort", "tokens"):
        if not _count(s.get(key), MAX_POINTS):
            return "%s is not 0 to %d" % (key, MAX_POINTS)
    lad = s.get("ladders")
    if type(lad) is not dict:
        return "ladders are missing"
    for t in TRACKS:
        x = lad.get(t)
        if type(x) is not dict or not _count(x.get("level"), 3):
            return "the %s ladder has no level 0 to 3" % t
        if x["word"] != (LADDERS[t][x["level"] - 1] if x["level"] else ""):
            return "the %s ladder's word does not match its level" % t
        pens = x.get("penalties")
        if type(pens) is not list or len(pens) != x["level"] or any(p not in PENALTIES for p in pens):
            return "the %s ladder's penalties do not match its level" % t
    if s.get("dead") not in (True, False) or s.get("out") not in ("", "health", "cool"):
        return "dead/out are malformed"
    last = s.get("last")
    if last is not None:
        rolls = last.get("rolls") if type(last) is dict else None
        if type(rolls) is not list or not 1 <= len(rolls) <= 2:
            return "the last roll is malformed"
        for r in rolls:
            if type(r) is not dict or r.get("die") not in DICE or type(r.get("faces")) is not list or not r["faces"]:
                return "the last roll has no sane dice"
            if any(not _count(f, r["die"]) or f == 0 for f in r["faces"]):
                return "a face of the last roll is off its die"
            if r.get("tn") is not None and r.get("band") not in BANDS:
                return "the last roll has no result band"
    return ""

"""SAVE 2d6's words, for the host: a hero's state in short lines
(``describe``) and what changed in it (``changes``), a command in one
sentence of the session log and the console (``say``), what a sane summary
is (``summary_problem``). The result words, the device's and a sentence's,
are results.py's: the device imports that module, never this one."""

from shared_rules.errors import RulesError
from shared_rules.save2d6.game import HEALTH, ROLL_FIELDS, check_roll, check_clock, check_text
from shared_rules.save2d6.results import RESULT_WORDS



def _cap(word):
    return word[:1].upper() + word[1:]


def _faces_words(faces):
    return " ".join(str(f) for f in faces)


def describe(summary):
    """The hero's state in short lines (<= 40 characters)."""
    lines = ["Health %s, destiny %s" % (_cap(summary["health"]), summary["destiny"])]
    if summary.get("pursuit"):
        lines.append(("Pursuit: " + summary["pursuit"])[:40])
    r = summary.get("roll")
    if r:
        word = "set aside" if r["result"] == "pending" else r["result"]
        lines.append("Roll %d %d (pass %s): %s" % (r["dice"][0], r["dice"][1], _faces_words(r["faces"]), word)[:40])
    for c in summary.get("clocks", []):
        lines.append(("%s clock %s %d/%d" % (_cap(c["kind"]), c["name"], c["filled"], c["segments"]))[:40])
    if summary.get("history"):
        lines.append("History: %d item%s" % (len(summary["history"]), "" if len(summary["history"]) == 1 else "s"))
    return lines


def say(op, args, result, state=None):
    """One sentence about a command and its result: the console's line and
    the session log's entry (``state``, the player's summary, is not needed
    here)."""
    args = args or {}
    result = result or {}
    if op in ("roll", "assist", "decline") and "dice" in result:
        d = result["dice"]
        text = "rolled %d and %d, pass %s: " % (d[0], d[1], _faces_words(result["faces"]))
        res = result["result"]
        if res == "pending":
            text += "a two came up, the roll is set aside for an assist"
        else:
            text += RESULT_WORDS[res]
        if result.get("nick"):
            text += " (assist in the nick of time: %s)" % result["assist"]
        if result.get("destiny") == "before":
            text += " (destiny declared)"
        if result.get("harm"):
            text += ", health now %s" % _cap(result["health"])
        return _cap(text) + "."
    if op == "destiny":
        use = args.get("use", "")
        return "Used destiny (%s); destiny is spent until the pursuit is exercised." % {
            "complete": "complete success", "fact": "declare a fact", "restore": "restore to Strong",
            "restore_other": "restore another hero to Strong"}.get(use, use)
    if op == "injure":
        return "Injured %s level%s: health %s." % (args.get("levels", 1), "" if args.get("levels", 1) == 1 else "s",
                                                  _cap(result.get("health", "")))
    if op == "rest":
        return "Rested: health Strong."
    if op == "set_health":
        return "Health set to %s." % _cap(str(args.get("health", "")))
    if op == "pursue":
        return "Exercised the pursuit: destiny is ready."
    if op == "set_pursuit":
        return "Pursuit: %s." % args.get("text", "")
    if op == "end_session":
        return "Session ended%s." % (": history gains %r" % args["item"] if args.get("item") else "")
    if op == "set_clocks":
        return "Clocks shown: %d." % len(args.get("clocks", []))
    return "%s done." % op


def changes(before, after):
    """What a command changed in the state: the lines of ``describe`` that
    are new (but the roll, which ``say`` says)."""
    said = describe(before)
    return [w for w in describe(after) if w not in said and not w.startswith("Roll ")]


def summary_problem(summary):
    """"" or one line saying why a SAVE summary from a device is malformed."""
    if not isinstance(summary, dict):
        return "summary is not an object"
    for key, kind in (("count", int), ("game", str), ("health", str), ("destiny", str), ("pursuit", str),
                      ("history", list), ("session", int), ("rolls", int), ("clocks", list), ("pass_faces", list)):
        value = summary.get(key)
        if not isinstance(value, kind) or value is True or value is False:
            return "summary %s is missing or not %s" % (key, "a number" if kind is int else "a " + kind.__name__)
    if summary["health"] not in HEALTH:
        return "summary health %r is not a SAVE health level" % (summary["health"],)
    if summary["destiny"] not in ("ready", "spent"):
        return "summary destiny %r is neither ready nor spent" % (summary["destiny"],)
    try:
        check_text(summary["pursuit"], "summary pursuit")
        for item in summary["history"]:
            check_text(item, "a summary history item", False)
        for c in summary["clocks"]:
            check_clock(c)
    except RulesError as e:
        return str(e)
    r = summary.get("roll")
    if r is not None:
        if not isinstance(r, dict):
            return "summary roll is not an object"
        try:
            for k in ROLL_FIELDS:
                r[k]
            check_roll(r)
        except KeyError as e:
            return "summary roll lacks %s" % (e,)
        except (RulesError, TypeError, ValueError) as e:
            return "summary roll: %s" % e
    return ""

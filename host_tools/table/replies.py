"""A device's replies in words, for the GM's console: one line per action.

Every system says its commands and its state in its own words module
(shared_rules/<folder>/words.py, found with ``systems.module(key,
"words")``): the console, the record and the page read them through the
same doors. Everything here is plain text that may hold a device's own
words; print it with markup off.
"""

from shared_rules import systems


def system_of(state):
    """The system a summary plays: a Deckahedron's names none (systems.stamp)."""
    return (state or {}).get("system") or systems.DEFAULT


def shares_table(key):
    """Whether players of system ``key`` take part in the shared supply,
    the GM's Shadow points and teamwork flips (the Deckahedron's)."""
    return systems.SYSTEMS[systems.check_system(key)][3]


def words(key):
    """The words module of system ``key``; a summary or result names no
    system when it is the default's (and an unknown one is said as it)."""
    return systems.module(key if key in systems.KEYS else systems.DEFAULT, "words")


def words_of(state):
    """The words module of the system a summary plays."""
    return words(system_of(state))


def line(name, said, changed=()):
    """One line for one action: what it did (``said``, phrases), then what
    it changed on the device (``changed``). A sentence said of the player,
    in lower case, follows the name ('Ann takes a Wound ...'), any other
    comes after a colon ('Cy: Strength d8 rolled ...')."""
    parts = [p for p in said if p] + ([", ".join(changed)] if changed else [])
    if not parts:
        return ""
    text = "; ".join([_unstopped(p) for p in parts[:-1]] + parts[-1:])
    return ("%s %s" if text[:1].islower() else "%s: %s") % (name, text)


def _unstopped(sentence):
    """A sentence without its full stop, for the middle of a line."""
    return sentence[:-1] if sentence.endswith(".") and not sentence.endswith("..") else sentence


def say(op, r, state=None, args=None):
    """What one command did, from its reply, in its system's words (without
    what it changed: ``changes``); the app's own ops (a button, a name) in
    the table's."""
    args = args or {}
    if not isinstance(r, dict):
        return "%s %r" % (op, r)
    if op == "press":
        return "presses %s: the screen shows %s" % (args.get("button"), r.get("screen"))
    if op == "set_name":
        return "is now named %s on the device" % r.get("name")
    if op == "new_game":  # of any system: what it plays is said with what changed
        return "starts a new character"
    return words(r.get("system") or system_of(state)).say(op, args, r, state)


def plain(r, indent=""):
    """Any reply as 'key: value' lines (nested dicts indented)."""
    lines = []
    for k in sorted(r):
        v = r[k]
        if k == "events":
            continue
        if isinstance(v, dict):
            lines.append("%s%s:" % (indent, k))
            lines += plain(v, indent + "  ")
        elif isinstance(v, (list, tuple)):
            lines.append("%s%s: %s" % (indent, k, ", ".join(str(c) for c in v) if v else "-"))
        else:
            lines.append("%s%s: %s" % (indent, k, "-" if v is None or v == "" else v))
    return lines


def changes(before, after):
    """What changed in a player's state, as phrases in its system's words;
    a new character of another system says so first."""
    if not before or not after:
        return []
    system = system_of(after)
    if system_of(before) != system:  # a new character of another system
        return ["now plays %s" % systems.name(system)] + words_of(after).describe(after)
    return words_of(after).changes(before, after)

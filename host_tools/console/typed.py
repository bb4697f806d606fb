"""A device command as a person types it, at the console or with `deckahedron do`:
``OP key=value ...`` where each value is read as JSON when it parses as JSON
(numbers, true/false/null, lists, objects, "quoted strings") and as a plain
string otherwise, and card arguments take plain forms (``keep=19,4``,
``card=3``: ``coerce``). ``Usage`` is a line the GM typed wrong, in words.
"""

import json
import re

from shared_rules import protocol as P
from shared_rules import systems



def all_commands():
    """Every op any system takes (``do`` checks names against them)."""
    ops = []
    for key in systems.KEYS:
        for op in systems.game_class(key).COMMANDS:
            if op not in ops:
                ops.append(op)
    return tuple(ops)


OPS = tuple(P.APP_OPS) + all_commands()
KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class Usage(Exception):
    pass


def parse_value(text):
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_pairs(pairs):
    args = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq:
            raise Usage("argument %r is not key=value" % pair)
        if not KEY.match(key):
            raise Usage("argument %r: the key must be a name like suit or net" % pair)
        if key in args:
            raise Usage("argument %r given twice" % key)
        args[key] = parse_value(value)
    return args


# Arguments the rules take as card ids (strings) or lists of them; typed
# plainly they parse as numbers (keep=19) or text (keep=19,4).
CARD_LISTS = {"breather": "cards", "rest": "keep", "seek_help": "keep", "supply_sync": "elsewhere"}
CARDS = {"choose": "card", "minigame_exhaust": "card"}
WORDS_NOT_LISTS = ("worst",)  # rest/seek_help keep=worst: the device picks


def card_ids(value):
    """19 -> ["19"]; "19,4" -> ["19", "4"]; [19, "4"] -> ["19", "4"]."""
    if isinstance(value, (list, tuple)):
        return [card_id(v) for v in value]
    return [w.strip() for w in card_id(value).split(",") if w.strip()]


def card_id(value):
    return str(value) if isinstance(value, (int, str)) and not isinstance(value, bool) else value


def coerce(op, args):
    """The plain forms of card arguments as the rules want them:
    ``seek_help keep=19,4`` sends keep ["19", "4"], ``choose card=3`` card "3"."""
    args = dict(args)
    key = CARD_LISTS.get(op)
    if key in args and args[key] not in WORDS_NOT_LISTS and isinstance(args[key], (int, str, list, tuple)) \
            and not isinstance(args[key], bool):
        args[key] = card_ids(args[key])
    key = CARDS.get(op)
    if key in args:
        args[key] = card_id(args[key])
    return args


def number(text, what, example):
    """A whole number typed by the GM, or a sentence saying what it should be."""
    try:
        return int(text, 10)
    except (TypeError, ValueError):
        raise Usage("%s must be a whole number, like %s; not %r" % (what, example, text))


def signed(word):
    """'+2' or '-1' as a net advantage, else None."""
    if len(word) > 1 and word[0] in "+-" and word[1:].isdigit():
        return int(word)
    return None

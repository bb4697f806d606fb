"""What the table hub accepts from a device: one place that checks every
value the hub mirrors, logs or shows (hello, state, command results,
events, error replies).

A device is another program at the end of a cable: a broken board or a
hostile one can send any JSON. Each check returns "" when the value is
sound, else a one-line reason; the hub then marks that device faulty and
the table goes on without it (host_tools/table/hub.py).
"""

import re

from shared_rules import systems
from shared_rules.deck.editions import EDITION_KEYS
from shared_rules.deck.words import card_problem, cards_problem, flip_problem, level_problem

# Console markup (rich's tag syntax: [bold], [/], [#fff], [@click]): no error
# sentence our firmware makes has it (beyond the request it quotes back), and
# a console printing device text as markup would fail on it or be restyled.
MARKUP = re.compile(r"\[/?[a-zA-Z#/@][^\[\]]*\]|\[/\]")
WORD = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
DEVICE_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
GAME_ID = re.compile(r"^[A-Za-z0-9]{0,16}$")
MAX_TEXT = 300  # characters of a message a device may send


def _short(value, limit=40):
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _count(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def text_problem(what, value, empty_ok=True, markup_ok=True):
    """A device's text shown to the GM: one line, printable. The console
    prints it with markup off, so a name like "[Kresk]" is just a name;
    ``markup_ok=False`` where no firmware of ours sends markup."""
    if not isinstance(value, str):
        return "%s is not text: %s" % (what, _short(value))
    if not value and not empty_ok:
        return "%s is empty" % what
    if len(value) > MAX_TEXT:
        return "%s is %d characters long" % (what, len(value))
    if not value.isprintable():
        return "%s has control characters: %s" % (what, _short(value))
    if not markup_ok and MARKUP.search(value):
        return "%s carries console markup: %s" % (what, _short(value))
    return ""


def _first(*reasons):
    for r in reasons:
        if r:
            return r
    return ""


def hello_problem(info):
    if not isinstance(info, dict):
        return "hello is not an object: %s" % _short(info)
    device = info.get("device")
    if not isinstance(device, str) or not DEVICE_ID.match(device):
        return "hello's device id is not 1 to 64 letters, digits or -_.: %s" % _short(device)
    problem = info.get("problem", "")
    if problem and (not isinstance(problem, str) or not WORD.match(problem)):
        return "hello's problem is not a word the firmware sends: %s" % _short(problem)
    game = info.get("game")
    if game is not None and (not isinstance(game, str) or not GAME_ID.match(game)):
        return "hello's game id is not letters and digits: %s" % _short(game)
    if not _count(info.get("count", 0)):
        return "hello's count is not a whole number: %s" % _short(info.get("count"))
    digest = info.get("digest")
    if digest is not None and not isinstance(digest, str):
        return "hello's digest is not text: %s" % _short(digest)
    system = info.get("system")
    if system is not None and system not in systems.KEYS:
        return "hello's system is unknown: %s" % _short(system)
    edition = info.get("edition")
    if edition is not None and edition not in EDITION_KEYS:
        return "hello's edition is unknown: %s" % _short(edition)
    return _first(power_problem("hello", info),
                  text_problem("hello's name", info.get("name", "") or ""),
                  text_problem("hello's panel error", info.get("panel_error", "") or ""),
                  text_problem("hello's firmware", info.get("firmware", "") or ""))


def name_problem(name):
    """A player's name, as the GM types it or a device calls itself: the
    table keys its record by it and names files after it (the scripted
    scene's screens), so it is refused with a path separator, "..", control
    characters or spaces around it. "" when it will do."""
    if not isinstance(name, str) or not name.strip():
        return "a name is 1 to 16 letters, digits or spaces, not %s" % _short(name)
    if name != name.strip() or not name.isprintable():
        return "a name has no spaces around it and no control characters: %s" % _short(name)
    if "/" in name or "\\" in name or ".." in name:
        return "a name has no /, \\ or .. in it (files are named after it): %s" % _short(name)
    return ""


def state_problem(state):
    """The state summary the hub mirrors (and the console shows)."""
    if not isinstance(state, dict):
        return "state is not an object: %s" % _short(state)
    if not isinstance(state.get("digest"), str):
        return "state has no digest"
    system = state.get("system", systems.DEFAULT)  # a Deckahedron summary has no system key
    if system not in systems.KEYS:
        return "state's system is unknown: %s" % _short(system)
    return _first(systems.module(system, "words").summary_problem(state), _identity_problem(state),
                  text_problem("state's incapacitated", state.get("incapacitated", "") or ""))


def _identity_problem(state):
    """What every system's summary carries: game id, count, device, name."""
    game = state.get("game", "")
    if not isinstance(game, str) or not GAME_ID.match(game):
        return "state's game id is not letters and digits: %s" % _short(game)
    if not _count(state.get("count", 0)):
        return "state's count is not a whole number: %s" % _short(state.get("count"))
    device = state.get("device")
    if device is not None and (not isinstance(device, str) or not DEVICE_ID.match(device)):
        return "state's device id is not 1 to 64 letters, digits or -_.: %s" % _short(device)
    selected = state.get("selected")
    if selected is not None and (not isinstance(selected, str) or not re.match(r"^[A-Za-z]{1,8}$", selected)):
        return "state's selected attribute is not a short word: %s" % _short(selected)
    return _first(power_problem("state", state), text_problem("state's name", state.get("name", "") or ""))


def power_problem(what, info):
    """hello's and state's power (shared_rules/protocol.py): battery_mv a
    whole number of millivolts or null, usb true, false or null; absent
    from an older device's."""
    mv = info.get("battery_mv")
    if mv is not None and not (_count(mv) and mv <= 20000):
        return "%s's battery_mv is not a whole number of millivolts: %s" % (what, _short(mv))
    usb = info.get("usb")
    if usb is not None and not isinstance(usb, bool):
        return "%s's usb is not true, false or null: %s" % (what, _short(usb))
    return ""


def result_problem(op, result):
    """A command's reply: what the console prints from it."""
    if not isinstance(result, dict):
        return "the reply to %s is not an object: %s" % (op, _short(result))
    digest = result.get("digest")
    if digest is not None and not isinstance(digest, str):
        return "the reply to %s has a digest that is not text" % op
    return _first(level_problem("the %s level" % op, result.get("level")),
                  card_problem("the %s resolving card" % op, result.get("resolving")),
                  card_problem("the %s card" % op, result.get("card")),
                  cards_problem("the %s tied cards" % op, result.get("tied", []) or []),
                  cards_problem("the %s cards" % op, result.get("cards", []) or []))


def event_problem(seq, payload):
    if not isinstance(payload, dict):
        return "event %s is not an object: %s" % (seq, _short(payload))
    op = payload.get("op")
    if not isinstance(op, str) or not WORD.match(op):
        return "event %s has no command word: %s" % (seq, _short(op))
    if not isinstance(payload.get("digest"), str):
        return "event %s has no digest" % seq
    ask = payload.get("ask")
    if ask is not None and not (_count(ask) and ask > 0):
        return "event %s answers an ask that is not a number: %s" % (seq, _short(ask))
    why = payload.get("why")
    if why is not None and (not isinstance(why, str) or not WORD.match(why)):
        return "event %s says why in something not a word: %s" % (seq, _short(why))
    return _first(flip_problem("event %s flip" % seq, payload.get("flip")),
                  result_problem(op, payload.get("result") or {}))


def error_problem(code, message, echoed=()):
    """An ``err`` reply: a code word and a sentence for a person. The
    firmware quotes a bad argument back ("unknown suit '[x]'"): markup that
    is the GM's own typing, ``echoed`` (the request's argument values), is
    not the device's, so it does not make the device faulty."""
    if not isinstance(code, str) or not WORD.match(code):
        return "an error code is not a word: %s" % _short(code)
    if isinstance(message, str):
        for value in echoed:
            for form in (repr(value), str(value)):
                if form:
                    message = message.replace(form, "")
    return text_problem("the error message", message, markup_ok=False)

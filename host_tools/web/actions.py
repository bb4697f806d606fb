"""The page's actions: its JSON, checked here, as calls of the console's actions.

Each table action the page sends is one call of a TableConsole method with typed arguments,
the method the console's command calls once it has read its line, so both answer in the same words:

    {"action": "flip", "player": "Ann", "attr": "dex", "net": 1, "reason": "climb the wall"}
    -> TableConsole.flip(player="Ann", attr="dex", net=1, fast=False, reason="climb the wall"),
       as the console's  flip Ann dex +1 'climb the wall'

An action's ``line`` is that console line: what the page and the GM's terminal show of it, never read
back. The page's console line ({"action": "line", "line": "breather Bo"}) is the one text the page
sends to be read, by the console's own parser: refused if console-only, asked first if it loses a
game or a seat (CONFIRM). Anything else is BadAction, a sentence saying what an action looks like.
"""

import json
import shlex

from host_tools.console.core import ALIASES, TableConsole

# The console's commands a page line may run: the game's actions and what reads the table.
# CONSOLE_ONLY are the GM's at the keyboard, with why; a command in neither is refused too, so a new
# console command stays off the page until it is listed here.
PAGE_COMMANDS = ("ask", "attr", "backup", "backups", "blessing", "breather", "bump", "choose", "damage",
                 "edition", "end", "facets", "flashback", "flip", "gear", "harm",
                 "help", "leave_out", "log", "lose", "mercy", "minigame", "move", "name", "newgame",
                 "odds", "press", "pursuit", "reshuffle", "rest", "reveal", "revive", "save", "seek_help",
                 "shadow", "spotlight", "status", "study", "take_as_new", "team", "undo", "wound", "xp")
CONSOLE_ONLY = {
    "do": "it sends any device command, the REPL too",
    "restore": "it opens any path as a device's port",
    "screen": "it writes a file",
    "quit": "the table is closed at the console, not from the page",
}
# Page lines that lose a game or a seat: run only once the GM confirms them on the page (an undo
# asks the hub what it would undo, see the undo action).
CONFIRM = {
    "newgame": "starts a new character on the device: the old one is lost (its backups stay)",
    "leave_out": "leaves the device out of the table until a restore at the console",
    "take_as_new": "seats the device now on that port as another player",
}


class BadAction(ValueError):
    """A request that is not an action; the message says what one looks like."""


class Ask(Exception):
    """A page line that runs only once confirmed; the message is the question."""

    def __init__(self, line, command):
        Exception.__init__(self, "this would run %s: it %s; confirm to do it" % (line, CONFIRM[command]))
        self.line = line


class Action:
    """What the page asks of the table: ``method`` of the console called with ``args``, or, without a
    method, ``line`` read as typed (the page's console line). ``line`` is what the GM sees either way."""

    def __init__(self, line, method=None, **args):
        self.line, self.method, self.args = line, method, args

    def run(self, console):
        """On the hub's thread: (refused, lines), the console's words."""
        if self.method is None:
            return console.capture(self.line)
        return console.capture(lambda: getattr(console, self.method)(**self.args))


def page_action(body):
    """The Action of a page's request body (its JSON): BadAction if it is none, Ask until confirmed."""
    if not isinstance(body, dict):
        raise BadAction('send a JSON object, e.g. {"action": "flip", "player": "Ann", "attr": "str"}')
    action = body.get("action")
    if action == "line":
        return page_line(body)
    if action not in ACTIONS:
        raise BadAction("unknown action %s (%s, line)" % (json.dumps(action), ", ".join(ACTIONS)))
    return ACTIONS[action](body)


def page_line(body):
    """The Action of a line the page may run: BadAction if not, Ask until confirmed."""
    line = body.get("line")
    if not isinstance(line, str) or not line.strip():
        raise BadAction('a line action needs the console line, e.g. {"action": "line", "line": "status"}')
    line = line.strip()
    word = line.split()[0]
    # As the console reads it (TableConsole.precmd). The console runs the command its first word's
    # leading letters name: a first word that is exactly a listed name is that command.
    command = ALIASES.get(word, word)
    if command in CONSOLE_ONLY:
        raise BadAction("%s is for the console only: %s" % (command, CONSOLE_ONLY[command]))
    if command not in PAGE_COMMANDS:
        raise BadAction("unknown command %r: type help for the list" % word)
    confirm = body.get("confirm", False)
    if not isinstance(confirm, bool):
        raise BadAction("confirm is true or false, not %s" % json.dumps(confirm))
    if command in CONFIRM and not confirm:
        raise Ask(line, command)
    return Action(line)


# -- reading the JSON ----------------------------------------------------------------------------------
def _word(body, key, required=True):
    value = body.get(key)
    if value is None or value == "":
        if required:
            raise BadAction("%s: say %s" % (body.get("action"), key))
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise BadAction("%s must be a word or a whole number, not %s" % (key, json.dumps(value)))
    return str(value)


def _whole(body, key, default=None):
    """A whole number, sent as one (9) or as a form's text ("9", "-1")."""
    text = _word(body, key, required=default is None)
    if text is None:
        return default
    try:
        return int(text, 10)
    except ValueError:
        raise BadAction("%s must be a whole number, not %s" % (key, json.dumps(body[key]))) from None


def _how(body):
    """attr: an attribute or a suit, as the console's flip_word reads it; {} for none."""
    word = _word(body, "attr", required=False)
    if word is None:
        return {}
    how = TableConsole.flip_word(word)
    if how is None or how[0] == "net":
        raise BadAction("attr is str, dex, int or a suit (anvil, blade, crown, dragon), not %s" % json.dumps(word))
    return dict([how])


def _reason(body):
    """Why a flip is made, "" for none."""
    reason = body.get("reason") or ""
    if not isinstance(reason, str):
        raise BadAction("reason must be text, not %s" % json.dumps(reason))
    return reason if reason.strip() else ""


def _line(*words, reason=""):
    """The console line for the words (each quoted as the console reads it; None and "" left out),
    with the reason in quotes (a quoted word is the reason, a bare one an attribute)."""
    line = " ".join(shlex.quote(str(w)) for w in words if w not in (None, ""))
    return line + (" '%s'" % reason.replace("'", "'\"'\"'") if reason else "")


def _signed(n):
    return "%+d" % n if n else None


# -- the actions -------------------------------------------------------------------------------------
def _flip(body):
    player, how, net, reason = _word(body, "player"), _how(body), _whole(body, "net", 0), _reason(body)
    fast = body.get("fast") is True
    return Action(_line("flip", player, *how.values(), _signed(net), "fast" if fast else None, reason=reason), "flip",
                  player=player, net=net, fast=fast, reason=reason, **how)


def _ask(body):
    """The GM asks a player's device for a flip; player "all": everyone at the table."""
    player, attr, net, reason = _word(body, "player"), _word(body, "attr"), _whole(body, "net", 0), _reason(body)
    return Action(_line("ask", player, attr, _signed(net), reason=reason), "ask", player=player, attr=attr, net=net,
                  reason=reason)


def _damage(body):
    player, power = _word(body, "player"), _whole(body, "power")
    taken = {key: _whole(body, key, 0) for key in ("wounds", "harm", "absorb")}
    taken = {key: n for key, n in taken.items() if n}
    return Action(_line("damage", player, power, *("%s=%d" % kv for kv in taken.items())), "damage", player=player,
                  power=power, **taken)


def _player_only(action):
    def build(body):
        player = _word(body, "player")
        return Action(_line(action, player), action, player=player)
    return build


def _press(body):
    player, button = _word(body, "player"), _word(body, "button")
    return Action(_line("press", player, button), "press", player=player, button=button)


def _shadow_spend(body):
    points = _whole(body, "points")
    return Action(_line("shadow", "spend", points), "shadow", spend=points)


def _team(body):
    supporters = body.get("supporters")
    if not isinstance(supporters, list) or not supporters:
        raise BadAction("team: say the supporters, a list of players, e.g. [\"Ann\", \"Bo\"]")
    lead, how, net = _word(body, "lead"), _how(body), _whole(body, "net", 0)
    supporters = [_word({"supporter": s}, "supporter") for s in supporters]
    return Action(_line("team", lead, *supporters, *how.values(), _signed(net)), "team", lead=lead,
                  supporters=supporters, net=net, **how)


def _undo(body):
    """Asks first; does it only when confirmed with the entry it showed."""
    player, confirm = _word(body, "player"), body.get("confirm", False)
    if confirm is False:
        return Action(_line("undo", player), "undo", player=player)
    if confirm is not True:
        raise BadAction("undo: confirm is true or false, not %s" % json.dumps(confirm))
    entry = _word(body, "entry", required=False)
    if entry is None or not entry.isdigit():
        raise BadAction("undo: confirm with the entry that was shown, e.g. "
                        '{"action": "undo", "player": "Ann", "confirm": true, "entry": 12}')
    return Action(_line("undo", player, "yes", "entry=" + entry), "undo", player=player, confirm=True,
                  entry=int(entry))


ACTIONS = {"flip": _flip, "ask": _ask, "damage": _damage, "blessing": _player_only("blessing"),
           "wound": _player_only("wound"), "harm": _player_only("harm"), "press": _press,
           "shadow_spend": _shadow_spend, "team": _team, "undo": _undo}

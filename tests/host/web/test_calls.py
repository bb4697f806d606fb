"""The page's JSON and the console's text reach the same structured call (issue 26): each table
action is one TableConsole method with typed arguments, which the console's command calls once it
has read its line and the page calls from its checked JSON; the line the page echoes, typed at the
console, reaches the same call too. No hub: the actions are recorded, not run."""

import inspect
import io

import pytest

from host_tools.console.core import TableConsole, make_console
from host_tools.web.actions import ACTIONS, Action, BadAction, page_action

METHODS = ("flip", "ask", "damage", "blessing", "wound", "harm", "press", "shadow", "team", "undo")


def recording():
    """A console whose actions record their call, with every default filled in: (console, calls)."""
    console = TableConsole(hub=None, out=make_console(file=io.StringIO()))
    calls = []
    for name in METHODS:
        def record(*args, _name=name, **kwargs):
            bound = inspect.signature(getattr(TableConsole, _name)).bind(console, *args, **kwargs)
            bound.apply_defaults()
            calls.append((_name, dict(list(bound.arguments.items())[1:])))
        setattr(console, name, record)
    return console, calls


def typed(line):
    """The call a line typed at the console makes."""
    console, calls = recording()
    console.onecmd(line)
    assert not console.failed and len(calls) == 1, (line, console.out.file.getvalue())
    return calls[0]


def sent(body):
    """The call the page's JSON makes, and its Action."""
    console, calls = recording()
    action = page_action(body)
    refused, lines = action.run(console)
    assert not refused and len(calls) == 1, (body, lines)
    return calls[0], action


# (the page's JSON, a line as a GM types it, the line the page echoes)
CASES = [
    ({"action": "flip", "player": "Kresk the Bold", "attr": "str", "net": -2}, 'flip "Kresk the Bold" str -2',
     "flip 'Kresk the Bold' str -2"),
    ({"action": "flip", "player": "Ann", "net": 0}, "flip Ann", "flip Ann"),
    ({"action": "flip", "player": "Ann", "attr": "dex", "reason": "sneak"}, 'flip Ann dex "sneak"', "flip Ann dex 'sneak'"),
    ({"action": "flip", "player": "Ann", "reason": "Bo's rope"}, '''flip Ann "Bo's rope"''', "flip Ann 'Bo'\"'\"'s rope'"),
    ({"action": "flip", "player": "Ann", "reason": "  "}, "flip Ann", "flip Ann"),
    ({"action": "flip", "player": "Ann; rm -rf", "attr": "str"}, "flip 'Ann; rm -rf' str", "flip 'Ann; rm -rf' str"),
    ({"action": "flip", "player": "Di O'Neil", "attr": "crown", "net": "1", "fast": True,
      "reason": 'Bo\'s "rope" holds, it\'s said'}, '''flip "Di O'Neil" crown +1 fast "Bo's \\"rope\\" holds, it's said"''',
     '''flip 'Di O'"'"'Neil' crown +1 fast 'Bo'"'"'s "rope" holds, it'"'"'s said\''''),
    ({"action": "ask", "player": "all", "attr": "dex", "net": 1, "reason": "the wall"}, "ask all dex +1 'the wall'",
     "ask all dex +1 'the wall'"),
    ({"action": "ask", "player": "Kresk the Bold", "attr": "int", "net": -1, "reason": 'the "old" runes'},
     """ask 'Kresk the Bold' int -1 'the "old" runes'""", """ask 'Kresk the Bold' int -1 'the "old" runes'"""),
    ({"action": "damage", "player": "Di", "power": 9, "wounds": 1, "harm": 0}, "damage Di 9 wounds=1",
     "damage Di 9 wounds=1"),
    ({"action": "damage", "player": "Di", "power": "0"}, "damage Di 0", "damage Di 0"),
    ({"action": "blessing", "player": "Kresk the Bold"}, "blessing 'Kresk the Bold'", "blessing 'Kresk the Bold'"),
    ({"action": "wound", "player": "Bo"}, "wound Bo", "wound Bo"),
    ({"action": "harm", "player": "Bo"}, "harm Bo", "harm Bo"),
    ({"action": "press", "player": "Bo", "button": "B"}, "press Bo B", "press Bo B"),
    ({"action": "shadow_spend", "points": "2"}, "shadow spend 2", "shadow spend 2"),
    ({"action": "team", "lead": "Cy", "supporters": ["Ann"], "attr": "dex", "net": 1}, "team Cy Ann dex +1",
     "team Cy Ann dex +1"),
    ({"action": "team", "lead": "Cy", "supporters": ["Kresk the Bold", "Bo"], "attr": "anvil"},
     'team Cy "Kresk the Bold" Bo anvil', "team Cy 'Kresk the Bold' Bo anvil"),
    ({"action": "undo", "player": "Ann"}, "undo Ann", "undo Ann"),
    ({"action": "undo", "player": "Ann", "confirm": True, "entry": 12}, "undo Ann yes entry=12", "undo Ann yes entry=12"),
    ({"action": "line", "line": 'flip "Kresk the Bold" str -2'}, "flip 'Kresk the Bold' str -2",
     'flip "Kresk the Bold" str -2'),
]


@pytest.mark.parametrize("body, line, echo", CASES)
def test_the_pages_json_and_the_consoles_text_make_the_same_call(body, line, echo):
    call, action = sent(body)
    assert call == typed(line)
    assert action.line == echo
    assert typed(action.line) == call, "the line the page shows, typed, does the same"


def test_every_page_action_is_a_call_of_a_console_method():
    assert {body["action"] for body, _, _ in CASES} == set(ACTIONS) | {"line"}
    for name in METHODS:
        assert callable(getattr(TableConsole, name)) and not name.startswith("do_")
    assert page_action({"action": "line", "line": "status"}).method is None, "a line is read as typed"


def test_a_call_gets_the_words_a_typed_line_gets(tmp_path):
    """The same words either way, refusals too (here the hub's: nobody at the table)."""
    from host_tools.table.hub import TableHub

    hub = TableHub(str(tmp_path / "s.db"))
    try:
        console = TableConsole(hub, make_console(file=io.StringIO()), str(tmp_path))
        for body in ({"action": "flip", "player": "Zed", "attr": "str"}, {"action": "shadow_spend", "points": 1}):
            action = page_action(body)
            assert action.run(console) == Action(action.line).run(console)
            assert action.run(console)[0], "refused"
    finally:
        hub.close()


@pytest.mark.parametrize("body, words", [
    ([], 'send a JSON object, e.g. {"action": "flip", "player": "Ann", "attr": "str"}'),
    ({"action": "flip"}, "flip: say player"),
    ({"action": "team", "lead": "Cy", "supporters": []}, 'team: say the supporters, a list of players, e.g. ["Ann", "Bo"]'),
    ({"action": "flip", "player": "Ann", "reason": 3}, "reason must be text, not 3"),
    ({"action": "flip", "player": "Ann", "attr": "+1"}, 'attr is str, dex, int or a suit (anvil, blade, crown, dragon), '
                                                        'not "+1"'),
    ({"action": "damage", "player": "Di", "power": True}, "power must be a word or a whole number, not true"),
    ({"action": "damage", "player": "Di", "power": "lots"}, 'power must be a whole number, not "lots"'),
    ({"action": "shadow_spend", "points": 1.5}, "points must be a word or a whole number, not 1.5"),
])
def test_a_malformed_action_is_refused(body, words):
    with pytest.raises(BadAction) as e:
        page_action(body)
    assert str(e.value) == words

"""The console's facets command (host_tools/console/facets.py) on a table
whose hub runs the rules in place of a device: each word reaches the device
as the op and arguments the rules take, and answers in Facets' words."""

import pytest

from host_tools.console.core import TableConsole
from host_tools.console.facets import Commands
from host_tools.console.typed import Usage
from shared_rules.facets.game import Game
from shared_rules.prng import Rng


class Scripted(Rng):
    def __init__(self, faces):
        Rng.__init__(self, 1)
        self.faces = list(faces)

    def below(self, n):
        return self.faces.pop(0) - 1


class Player:
    def __init__(self, name, game):
        self.name, self.game = name, game
        self.state = game.summary() if game else {"system": "deckahedron"}


class Hub:
    """TableHub.command and player, with the rules run in place."""

    def __init__(self):
        self.players = {"Ann": Player("Ann", Game.new(seed=3)), "Di": Player("Di", None)}
        self.sent = []

    def player(self, name):
        return self.players[name]

    def command(self, who, op, **args):
        self.sent.append((who, op, args))
        p = self.players[who]
        if op == "odds":
            return p.game.odds_query(args)
        r = p.game.do(op, args)
        p.state = p.game.summary()
        return r


class Console(Commands):
    tell = TableConsole.tell  # every system's answer in one line, as the console says it

    def __init__(self):
        self.hub = Hub()
        self.lines = []

    def who(self, word):
        return word

    def say(self, *text, style=None):
        self.lines.extend(text)


def run(c, arg):
    c.lines = []
    assert c.do_facets(arg) is None  # a true value would end the console's loop
    return "\n".join(c.lines)


def test_roll_reaches_the_device_and_is_said():
    c = Console()
    c.hub.players["Ann"].game.s.rng = Scripted([8, 3])
    out = run(c, "Ann roll finesse 8 bonus=2 effort=0")
    assert c.hub.sent[-1] == ("Ann", "roll", {"attr": "finesse", "tn": 8, "bonus": 2, "effort": 0})
    assert "Ann: Finesse d8 rolled 8+3 (exploded once) +2 = 13 against TN 8: advantage." in out


def test_the_general_odds_command_speaks_facets_for_a_facets_character():
    c = Console()
    c.words = lambda arg, n, usage: arg.split()
    c.lines = []
    assert TableConsole.do_odds(c, "Ann finesse 8") is None  # a true value would end the console's loop
    general = "\n".join(c.lines)
    assert general == run(c, "Ann odds finesse 8") and "against TN 8" in general


def test_task_conflict_and_sheet_words():
    c = Console()
    c.hub.players["Ann"].game.s.rng = Scripted([1, 6, 6, 2, 5, 3])
    run(c, 'Ann task "[Finesse 8 - 2/5 - 30s]"')
    assert c.hub.sent[-1][1:] == ("task_start", {"check": "[Finesse 8 - 2/5 - 30s]"})
    out = run(c, "Ann task try pressure")
    assert c.hub.sent[-1][1:] == ("task_roll", {"mode": "pressure"}) and "task open" in out
    out = run(c, "Ann attack str 5 light double social")
    assert c.hub.sent[-1][1:] == ("attack", {"attr": "str", "tn": 5, "weapon": "light", "double": True,
                                             "kind": "social"})
    assert "deals" in out
    run(c, "Ann maneuver wit 9 hinder")
    assert c.hub.sent[-1][2]["aim"] == "hinder"
    out = run(c, "Ann damage health 12 armor=1")
    assert "Taken out (health 0)" in out
    run(c, "Ann out consequence attr=S penalty=cost")
    assert c.hub.players["Ann"].game.s.ladders["health"] == [1, ["cost"], ["S"]]
    run(c, "Ann attr finesse d10")
    assert c.hub.players["Ann"].game.s.attrs["F"] == 10
    run(c, "Ann rule specific on")
    assert c.hub.players["Ann"].game.s.rules["specific"] is True
    run(c, "Ann trait add swift F +2")
    assert c.hub.players["Ann"].game.s.traits == [["swift", "F", 2]]
    run(c, "Ann effort -1")
    out = run(c, "Ann odds finesse 8 calm")
    assert "d10 against TN 8, calm" in out and "1/1" in out
    assert "Health 0/10" in run(c, "Ann show")


@pytest.mark.parametrize("arg, message", [
    ("Di roll finesse 8", "does not play Facets"),
    ("Ann fly", "what is 'fly'"),
    ("Ann roll finesse", "missing TN"),
    ("Ann roll finesse 8 9", "what is '9'"),
    ("Ann roll finesse 8 pressure calm", "pressure or calm"),
    ("Ann", "facets NAME WHAT"),
])
def test_bad_words_say_why(arg, message):
    c = Console()
    with pytest.raises(Usage) as info:
        c.do_facets(arg)
    assert message in str(info.value)
    assert c.hub.sent == []

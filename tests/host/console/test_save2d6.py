"""SAVE 2d6 end to end: the GM's console (host_tools/console/save2d6.py) on a
real hub with simulated boards running the real firmware under MicroPython
over ptys. Two heroes, an assist in the nick of time across their devices,
destiny restoring another hero, and the table's clocks on every SAVE device.

The dice a device rolls are known in advance: the same seed gives the same
dice in the rules core on the host (shared_rules.save2d6.game, the same PRNG)."""

import io

import pytest

from host_tools.console.core import TableConsole, make_console
from shared_rules.save2d6.game import Game, odds_for
from shared_rules.save2d6.words import say
from tests.host.conftest import seated_table

NAMES = ("Freya", "Bran", "Cy")


def first_roll(seed, **args):
    g = Game.new(seed=seed)
    return g, g.do("roll", args)


def seed_where(want):
    for seed in range(1, 2000):
        g, r = first_roll(seed)
        if want(r["dice"]):
            return seed
    raise AssertionError("no seed")


class Gm:
    def __init__(self, hub):
        self.buf = io.StringIO()
        self.hub = hub
        self.console = TableConsole(hub, make_console(file=self.buf, width=300), ".")

    def __call__(self, line):
        start = self.buf.tell()
        self.console.onecmd(line)
        self.buf.seek(start)
        return self.buf.read()


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    with seated_table(3, tmp_path_factory.mktemp("save"), 9, NAMES) as (hub, sims):
        yield hub


def test_assist_in_the_nick_of_time_across_two_devices(table):
    gm = Gm(table)
    two = seed_where(lambda d: 2 in d and d != [2, 2])
    bran_seed = seed_where(lambda d: True)
    for name, seed in (("Freya", two), ("Bran", bran_seed)):
        text = gm("newgame %s yes system=save seed=%d" % (name, seed))
        assert table.player(name).state["system"] == "save", text
        assert "None" not in text and "Exhaustion" not in text, text  # no Deckahedron fields compared
    text = gm("save clock new Ritual 6")
    assert "progress clock Ritual: 0/6" in text
    for name in ("Freya", "Bran"):
        assert table.player(name).state["clocks"] == [{"name": "Ritual", "kind": "progress", "segments": 6, "filled": 0}]
    assert "clocks" not in table.player("Cy").state  # a Deckahedron is not told

    text = gm("save Freya roll clock=Ritual")
    assert "set aside" in text and "save Freya assist HELPER" in text
    assert table.player("Freya").state["roll"]["result"] == "pending"

    # What the rules core says will happen, from the same seeds.
    freya, _ = first_roll(two)
    bran, helped = first_roll(bran_seed, assisting=True, expertise=True)
    want = freya.do("assist", {"result": helped["result"]})
    text = gm("save Freya assist Bran expertise clock=Ritual")
    assert "Bran: " + say("roll", {}, helped) in text
    assert "Freya: " + say("assist", {"result": helped["result"]}, want) in text
    got = table.player("Freya").state["roll"]
    assert got["result"] == want["result"] and got["nick"] is True and got["assist"] == helped["result"]
    ticks = {"complete": 2, "mixed": 1, "failure": 0}[want["result"]]
    assert "progress clock Ritual: %d/6" % ticks in text
    for name in ("Freya", "Bran"):
        assert table.player(name).state["clocks"][0]["filled"] == ticks

    # The session log says the roll in SAVE's words.
    said = table.db.execute("SELECT op, result FROM log WHERE player = 'Freya' AND op = 'assist'").fetchall()
    assert said and '"nick": true' in said[-1][1]


def test_destiny_restores_another_hero_and_health(table):
    gm = Gm(table)
    gm("newgame Freya yes system=save seed=11")
    gm("newgame Bran yes system=save seed=12")
    text = gm("save Bran health injure 2")
    assert "health Shaken" in text and table.player("Bran").state["health"] == "shaken"
    text = gm("save Freya destiny restore Bran")
    assert table.player("Bran").state["health"] == "strong"
    assert table.player("Freya").state["destiny"] == "spent"
    text = gm("save Freya destiny fact")
    assert "destiny is spent" in text and gm.console.failed
    gm("save Freya pursue")
    assert table.player("Freya").state["destiny"] == "ready"
    gm('save Freya pursue "avenge the village"')
    assert table.player("Freya").state["pursuit"] == "avenge the village"
    gm('save Freya history "drove off the specter"')
    assert table.player("Freya").state["history"] == ["drove off the specter"]
    text = gm("status")
    assert "Health Strong, destiny ready" in text and "Pursuit: avenge the village" in text


def test_wrong_commands_are_said_and_change_nothing(table):
    gm = Gm(table)
    gm("newgame Freya yes system=save seed=21")
    gm("newgame Bran yes system=save seed=5")  # a SAVE hero with no roll set aside to assist
    before = table.player("Freya").state["digest"]
    for line, words in (("save Cy roll", "does not play SAVE"), ("save Freya assist Freya", "cannot assist"),
                        ("save Freya assist Bran", "no roll set aside"), ("save Freya roll lucky", "what is 'lucky'"),
                        ("save Freya roll clock=Nope", "no clock named"), ("save Freya health injure 3", "1 or 2"),
                        ("save Freya destiny wish", "used for complete, fact or restore"), ("save clock new X 40", "2 to 12"),
                        ("save clock tick Nope 1", "no clock named"), ("save Freya dance", "save NAME roll|"),
                        ("help save dance", "no help for")):
        text = gm(line)
        assert gm.console.failed and words in text, (line, text)
    assert table.player("Freya").state["digest"] == before


def test_save_heroes_are_played_under_one_command_word(table):
    """SAVE's commands are `save NAME WHAT` as Facets' are `facets NAME WHAT`: none is a top-level word."""
    gm = Gm(table)
    assert "unknown command 'roll'" in gm("roll Freya")
    assert gm("help save roll").splitlines()[0] == "save NAME roll [preferred] [expertise] [assisted|assisted=RESULT] " \
                                                    "[injury] [assisting] [pursuit] [destiny] [clock=CLOCK]"
    assert "save clock new Ritual 6" in gm("help save clock")


def test_odds_of_a_save_hero_are_the_devices_exact_figures(table):
    """`odds NAME` speaks the player's own system: for a SAVE hero the 2d6
    results (seed 003: fives pass on a preferred action), not card levels."""
    gm = Gm(table)
    gm("newgame Bran yes system=save seed=5")
    text = gm("odds Bran preferred")
    assert not gm.console.failed, text
    want = odds_for(preferred=True)
    assert "a roll passes on %s" % " ".join(str(f) for f in want["pass_faces"]) in text, text
    for k, words in (("complete", "complete success"), ("mixed", "mixed result"), ("failure", "complete failure")):
        assert words in text and want["results"][k] in text, text
    text = gm("odds Bran lucky")
    assert gm.console.failed and "not 'lucky'" in text, text


def test_a_hero_who_joins_later_is_shown_the_clocks(table):
    """Clocks "show on every device that takes part": one that becomes a SAVE
    hero after they changed is told them while the console waits."""
    gm = Gm(table)
    gm("newgame Freya yes system=save seed=21")  # a SAVE hero at the table, shown the clocks
    gm.console.save_tick()
    gm("save clock new Bridge 4 setback")
    gm("newgame Cy yes system=save seed=31")
    assert table.player("Cy").state["clocks"] == []
    said = gm.console.save_tick()
    assert said == ["Cy's device now shows the clocks"]
    assert table.player("Cy").state["clocks"] == table.player("Freya").state["clocks"]
    assert [c["name"] for c in table.player("Cy").state["clocks"]][-1] == "Bridge"
    assert gm.console.save_tick() == []  # told once
    gm("newgame Cy yes system=deck seed=31")

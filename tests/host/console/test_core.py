"""The GM's console (host_tools/console/core.py) on a real hub with four simulated
boards running the real firmware: every player action as a plain command,
answers in words, errors for people, one name per player, and device text
that is printed as it is (rich markup off).

Each test starts from fresh characters (``new_game`` with fixed seeds), so
the tests share one table but not its state.
"""

import io
import json

import pytest

from host_tools.console.core import TableConsole, make_console
from host_tools.console.deck import breather_pick
from host_tools.console.typed import all_commands
from host_tools.link import DeviceError
from shared_rules.deck.results import NOTES, WORDS
from host_tools.table.hub import TableHub
from tests.host.conftest import Terminal, seated_table

NAMES = ("Ann", "Bo", "Cy", "Di")


class Gm:
    """A console whose output is kept: ``gm("flip Ann str")`` returns what it printed."""

    def __init__(self, hub, run_dir="."):
        self.buf = io.StringIO()
        self.hub = hub
        self.console = TableConsole(hub, make_console(file=self.buf, width=300), str(run_dir))

    def __call__(self, line):
        start = self.buf.tell()
        self.console.onecmd(line)
        self.buf.seek(start)
        text = self.buf.read()
        return text

    @property
    def failed(self):
        return self.console.failed


@pytest.fixture(scope="module")
def seated(tmp_path_factory):
    with seated_table(4, tmp_path_factory.mktemp("console"), 5, NAMES) as (hub, sims):
        yield hub, sims


@pytest.fixture(scope="module")
def table(seated):
    return seated[0]


@pytest.fixture
def gm(table, tmp_path):
    """Fresh characters with fixed decks, under their first names."""
    hub = table
    for p in list(hub.players.values()):
        if p.name not in NAMES:
            hub.rename(p.name, NAMES[list(hub.players.values()).index(p)])
    for i, name in enumerate(NAMES):
        p = hub.player(name)
        if p.state.get("flip"):
            hub.command(name, "end_flip", **({"resolved": True} if not p.state["flip"].get("team") else {}))
        hub.command(name, "new_game", confirm=True, seed=100 + i)
    hub.sync_supply()
    return Gm(hub, tmp_path)


# -- help ------------------------------------------------------------------------------

def test_help_shows_every_argument_with_an_example(gm):
    """Reproduction: `help` hid [attr=str|dex|int] [net=N], [harm=N] [wounds=N], [key=value ...]."""
    text = gm("help")
    for shown in ("[str|dex|int|SUIT]", "[+N|-N]", "[harm=N]", "[wounds=N]", "[key=value ...]", "[keep=ID,ID|worst]",
                  "[fast]", "[pvp]", "[encumbrance=N]"):
        assert shown in text, shown
    for command in gm.console.commands():
        usage = gm.console.usage(command)
        assert usage in text
        full = gm("help " + command).splitlines()
        assert full[0] == usage
        examples = [line for line in full[1:] if "e.g." in line]
        assert examples, command
        for variant in usage.split(" | "):
            for word in variant.replace("[", " ").replace("]", " ").replace("...", " ").split()[1:]:
                if word in ("NAME", "LEAD"):
                    continue
                assert [line for line in examples if word in line], (command, word)
    assert "e.g. damage Di 9 wounds=1" in gm("help damage")


def test_help_groups_every_command_by_purpose(gm):
    """Issue 27: `help` was 50 alphabetical lines; it groups the commands by
    what a GM does (flips, harm and recovery, supply and Shadow, players and
    devices, the record), each command once and none left to "Other"."""
    groups = gm.console.help_groups()
    listed = [c for _, names in groups for c in names]
    assert sorted(listed) == gm.console.commands() and len(listed) == len(set(listed))
    assert "Other" not in [title for title, _ in groups]
    text = gm("help").splitlines()
    for title in ("Flips", "Harm and recovery", "Supply and Shadow", "Players and devices", "The record"):
        assert title in text, title
    assert text.index("Flips") < text.index("  " + gm.console.usage("flip")) < text.index("Harm and recovery")


def test_status_shows_each_devices_battery(gm, seated):
    """Issue 27: the level each device gauges, USB power said as such."""
    sims = seated[1]
    sims.boards[0].set_power(3.8)
    sims.boards[1].set_power(4.0, usb=True)
    try:
        for name in ("Ann", "Bo"):
            gm.hub.refresh(gm.hub.player(name))
        rows = {line.split()[1]: line for line in gm("status").splitlines() if line.split()[1:2] in (["Ann"], ["Bo"])}
        assert "62% (3.80 V)" in rows["Ann"] and "USB power" in rows["Bo"]
    finally:
        for b in sims.boards[:2]:
            b.set_power()


def test_a_flip_carries_its_reason_in_quotes(gm):
    """Issue 27, 'Context in the record': the quoted words are why; a bare word is still an attribute."""
    gm('flip Ann dex +1 "climb the wall"')
    assert not gm.failed
    rows = gm.hub.db.execute("SELECT op, reason FROM log WHERE player = 'Ann' AND op IN ('flip', 'end_flip') "
                             "ORDER BY id DESC LIMIT 2").fetchall()
    assert rows == [("end_flip", "climb the wall"), ("flip", "climb the wall")]
    assert gm.hub.db.execute("SELECT reason FROM flips ORDER BY id DESC LIMIT 1").fetchone() == ("climb the wall",)
    assert "say one reason" in gm("flip Ann dex 'up' 'down'")
    assert "what is 'climb'" in gm("flip Ann dex climb")


def test_a_flip_with_no_attribute_flips_the_one_selected_on_the_device(gm):
    """Issue 27: `flip Ann` was refused though her device showed STR selected."""
    gm("press Ann A")  # Str -> Dex on her home screen: no event, the hub reads it at the flip
    text = gm("flip Ann")
    assert not gm.failed and "Ann flips Dex" in text, text
    args = gm.hub.db.execute("SELECT args FROM log WHERE player = 'Ann' AND op = 'flip' ORDER BY id DESC").fetchone()
    assert json.loads(args[0]) == {"attr": "dex"}


def test_unknown_command_and_empty_line(gm):
    assert "unknown command 'flap'" in gm("flap Ann")
    assert gm("") == ""  # not a repeat of the last command


def test_completion_of_commands_players_suits_and_buttons(gm):
    c = gm.console
    assert "flip" in c.completenames("fl") and "end_flip" in c.completenames("end")
    assert c.completedefault("B", "flip B", 5, 6) == ["Bo"]
    assert set(c.completedefault("", "flip Ann ", 9, 9)) >= {"str", "dex", "int", "crown", "fast", "pvp"}
    assert c.completedefault("U", "press Bo U", 9, 10) == ["UP"]
    assert c.completedefault("seek", "do Bo seek", 6, 10) == ["seek_help"]


# -- every player action, plainly ----------------------------------------------------------

def test_flip_says_the_result_in_the_devices_words(gm):
    text = gm("flip Ann str +1")
    assert not gm.failed, text
    assert "Ann flips Strength (" in text and "+1" in text
    assert any("resolves it: %s" % w in text for w in WORDS.values()), text
    assert "\u2705" not in text and "\u2714" not in text
    assert gm.hub.player("Ann").state["flip"] is None


def test_log_tells_the_session_in_words_not_rows(gm):
    gm("flip Ann dex -1")
    text = gm("log 4")
    assert not gm.failed, text
    flips = [ln for ln in text.splitlines() if "Ann" in ln and "flips Dexterity (" in ln and ") -1: " in ln]
    assert flips, text  # the flip, with its cards, as the session record says it
    assert "{" not in text, text  # no raw JSON arguments or results
    assert len(gm("log 1").strip().splitlines()) == 1


def test_flip_says_what_was_capped(gm):
    """Reproduction: net 5 flips 3 cards; the console says so."""
    text = gm("flip Bo crown +5")
    assert "net +5: 3 cards, the most a flip takes" in text
    text = gm("odds Bo crown -4")
    assert "net -4: 3 cards, the most a flip takes" in text and "TRIUMPH" in text


def test_flip_flags_fast_pvp_open_and_the_steps(gm):
    text = gm("flip Cy dex fast pvp open")
    assert "the flip is open" in text
    f = gm.hub.player("Cy").state["flip"]
    assert f is not None
    if f["phase"] == "choose":
        assert "a tie that matters between " in text and "choose one" in text
        gm("choose Cy %s" % f["tied"][0])
    text = gm("end Cy")
    assert text.startswith("Cy ends the flip, resolved by ") and not gm.failed
    assert gm.hub.player("Cy").state["xp"] == 0  # against another player: no XP


def exhausted(gm, name):
    """The ids in a player's Exhaustion pile, from the device's backup."""
    line = [ln for ln in gm.hub.player(name).link.backup().splitlines() if ln.startswith("exhaustion")][0]
    return [w.lstrip("^") for w in line.split()[1:]]


def test_rest_breather_seek_help_plain(gm):
    """Reproduction: `do Bo seek_help keep=19` failed with "must be a list",
    `do Bo breather` with "not 0"."""
    gm("wound Bo")  # one Wound token: Seek Help keeps one Exhaustion card
    gm("damage Bo 5")
    assert len(exhausted(gm, "Bo")) >= 2
    text = gm("do Bo breather")
    assert not gm.failed, text
    assert "Bo takes a Breather" in text and "Stamina back" in text
    gm("damage Bo 5")
    ids = exhausted(gm, "Bo")
    assert len(ids) >= 2
    text = gm("do Bo seek_help keep=%s" % ids[-1])
    assert not gm.failed, text
    assert "Bo seeks help" in text
    assert exhausted(gm, "Bo") == [ids[-1]]


def test_seek_help_keep_two_cards(gm):
    gm("wound Cy")
    gm("wound Cy")
    gm("damage Cy 6")
    ids = exhausted(gm, "Cy")
    assert len(ids) >= 3
    text = gm("seek_help Cy keep=%s,%s" % (ids[0], ids[1]))
    assert not gm.failed, text
    assert "Wound cards back to the supply" in text
    assert sorted(exhausted(gm, "Cy")) == sorted(ids[:2])


def test_rest_keeps_the_worst_by_default(gm):
    gm("wound Di")
    gm("damage Di 5")
    text = gm("rest Di")
    assert not gm.failed, text
    assert "Di rests" in text and "kept in the Exhaustion pile" in text


def test_damage_says_what_it_did(gm):
    """Reproduction: `damage Di 9 wounds=1` printed nothing."""
    text = gm("damage Di 9 wounds=1")
    assert "Di takes 9 damage: 1 Wound" in text
    assert "Wound tokens 0 -> 1" in text
    text = gm("damage Ann 5 absorb=2")
    assert "2 absorbed as Exhaustion tokens" in text and "3 Stamina lost" in text


def one_line(text):
    """What the console printed for one action: exactly one line."""
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


def result_words(level):
    return "%s (%s)" % (WORDS[level], NOTES[level])


def test_a_flip_is_one_line_with_every_fact(gm):
    """Issue 27, 'one line per action': who, the attribute and advantage, the
    cards, the resolving card, the result word and note, what changed."""
    xp = gm.hub.player("Ann").state["xp"]
    said = one_line(gm("flip Ann str +1"))
    f = gm.hub.player("Ann").last_flip
    assert said.startswith("Ann flips Strength (%s) +1: %s; " % (f["suit"].capitalize(), ", ".join(f["cards"]))), said
    assert "card %s resolves it: %s" % (f["resolving"], result_words(f["level"])) in said
    now = gm.hub.player("Ann").state["xp"]
    assert ("XP %d -> %d" % (xp, now) in said) == (now != xp) and ("+1 XP" in said) == (now != xp), said


def test_a_flips_end_is_one_line_with_every_fact(gm):
    gm("flip Cy dex open")
    f = gm.hub.player("Cy").state["flip"]
    if f["phase"] == "choose":
        gm("choose Cy %s" % f["tied"][0])
        f = gm.hub.player("Cy").state["flip"]
    if f["resolving"] == "11":  # the Critical Success card: its reward is the GM's to name
        said = one_line(gm("end Cy crit=none"))
    else:
        said = one_line(gm("end Cy"))
    assert said.startswith("Cy ends the flip, resolved by %s: %s" % (f["resolving"], result_words(f["level"]))), said
    xp = gm.hub.player("Cy").state["xp"]
    assert ("+1 XP" in said) == (xp == 1) and ("; XP 0 -> 1" in said) == (xp == 1), said


def test_a_press_is_one_line_with_every_fact(gm):
    said = one_line(gm("press Bo B"))
    f = gm.hub.player("Bo").state["flip"]
    assert said.startswith("Bo presses B: the screen shows flip; flips %s +0: %s; " % (
        f["suit"].capitalize(), ", ".join(f["cards"]))), said
    said = one_line(gm("press Bo A"))
    f = gm.hub.player("Bo").last_flip
    assert said.startswith("Bo presses A: the screen shows home; flips "), said
    assert "card %s resolves it: %s (buttons)" % (f["resolving"], result_words(f["level"])) in said


def test_a_wound_is_one_line_in_the_tables_words(gm):
    """Issue 27: 'one wound gave 4 lines'; the device's event words repeated the answer."""
    said = gm("wound Bo").strip()
    assert "\n" not in said and said.startswith("Bo takes a Wound: Wound card "), said
    assert "; Wound tokens 0 -> 1, now holds " in said and "took wound" not in said


def test_a_blessing_is_one_line(gm):
    said = gm("blessing Cy").strip()
    assert "\n" not in said and said.startswith("Cy takes Blessing ") and "; now holds " in said, said


def test_harm_in_a_longer_campaign(gm):
    text = gm("edition Ann md 9h")
    assert "9h campaign" in text, text
    text = gm("damage Ann 7 harm=2")
    assert "2 Harm (3 each)" in text and "1 Stamina lost" in text
    text = gm("harm Ann")
    assert "Harm token" in text


def test_the_armour_takes_the_wound(gm):
    """MD *Armour*: the GM writes Leather Armour on Cy's sheet and the Wound
    of `damage ... armour` goes into its slot, not onto Cy; the slot is then
    full and says so; gear damage destroys an item on the third."""
    text = gm("gear Cy add Leather kind=armour")
    assert "Cy has a new item card: Leather" in text, text
    text = gm("damage Cy 8 wounds=1 armour")
    assert "1 Wound (takes all of it)" in text and "the armour takes 1 of those token" in text, text
    assert "Wound tokens" not in text, text
    text = gm("wound Cy armour")
    assert "no armour slot is empty for a Wound" in text, text
    gm("gear Cy add Sword kind=weapon")
    assert "1 red card" in gm("gear Cy damage Sword")
    gm("gear Cy damage Sword")
    assert "Cy has Sword destroyed" in gm("gear Cy damage Sword")
    assert "add, drop or damage" in gm("gear Cy polish Sword")


def test_a_magic_weapon_from_the_console(gm):
    """MD *Use a Magic Item*: a magical weapon is used like a magic item and
    its further cost may be "the weapon is damaged"; it is damaged like a
    weapon (issue 27)."""
    text = gm("gear Cy add Blade kind=weapon capacity=3")
    assert "Cy has a new item card: Blade, a magic weapon (3 charges)" in text, text
    gm("do Cy flip item=Blade")
    text = gm("do Cy end_flip")
    assert "the item activates (2 charges left)" in text or "the item does not activate" in text, text
    assert "1 red card" in gm("gear Cy damage Blade")


def test_rest_and_flip_words_for_magic_items():
    """What the console and the record say of a magic weapon's use and of a
    DW Rest that regains no Stamina while ONGOING magic flows (l.773)."""
    from host_tools.table import record, replies

    used = {"resolving": "4", "level": 2, "magic": "activates", "charges": 2,
            "cost": "the GM chooses a further cost, or the weapon is damaged"}
    assert replies.say("end_flip", used).endswith(", the item activates (2 charges left): the GM chooses a further"
                                                  " cost, or the weapon is damaged")
    rested = {"recovered": [], "kept": ["2", "5"], "no_stamina": ["Cloak"]}
    assert "no Stamina regained, magic still flows into Cloak" in replies.say("rest", rested)
    entry = {"kind": "command", "op": "rest", "args": {}, "result": rested}
    assert record.describe(entry) == replies.say("rest", rested)  # one phrasing for the console and the record
    entry = {"kind": "command", "op": "end_flip", "args": {}, "result": used}
    assert record.describe(entry).endswith(", the item activates (2 charges left): the GM chooses a further cost,"
                                           " or the weapon is damaged")


def test_wound_with_no_card_left_says_so(gm):
    """Reproduction: `wound Bo` with no wound card left printed "Bo takes None"."""
    gm("wound Ann")
    gm("wound Cy")
    assert not [c for c in gm.hub.supply() if c.startswith("pw")]
    text = gm("wound Bo")
    assert "None" not in text
    assert "no Wound card is left in the supply" in text


def test_incapacitation_is_said(gm):
    gm("wound Di")
    gm("wound Di")
    text = gm("wound Di")
    assert text.startswith("Di takes a Wound; ") and "is now INCAPACITATED (a third Wound)" in text
    text = gm("seek_help Di")
    assert "no longer incapacitated" in text


def _poll_until(gm, pred, timeout=10):
    import time

    end, lines = time.monotonic() + timeout, []
    while time.monotonic() < end:
        lines += gm.console.poll()
        if pred(lines):
            return lines
        time.sleep(0.1)
    raise AssertionError("not seen in time: %s" % lines)


def test_ask_shows_the_request_and_the_flip_comes_back_tagged(gm):
    """Issue 27, 'The GM asks for a flip': recorded before the device acts; B flips it as asked."""
    text = gm('ask Ann dex +1 "climb the wall"')
    assert 'asked Ann to flip Dex +1 for "climb the wall"' in text and not gm.failed
    ask = gm.hub.db.execute("SELECT id, args, reason FROM log WHERE kind = 'ask' ORDER BY id DESC").fetchone()
    assert json.loads(ask[1]) == {"attr": "dex", "net": 1} and ask[2] == "climb the wall"
    assert gm.hub.command("Ann", "press", button="UP")["screen"] == "message"  # not an answer: the request stays
    gm("press Ann B")
    text = gm("press Ann A")
    assert "Ann presses A" in text and 'for "climb the wall" (as the GM asked)' in text, text
    rows = gm.hub.db.execute("SELECT op, reason FROM log WHERE ask = ? ORDER BY id", (ask[0],)).fetchall()
    assert [r[0] for r in rows] == ["flip", "end_flip"] and {r[1] for r in rows} == {"climb the wall"}


def test_ask_all_asks_everyone_and_a_decline_or_a_busy_device_is_said(gm):
    told = []
    gm.hub.notify = told.append
    try:
        gm("press Cy C")  # Cy is in the menu: busy
        text = gm("ask all int")
        for name in ("Ann", "Bo", "Di"):
            assert "asked %s to flip Int +0" % name in text
        assert "not asked, Cy: " in text and "busy" in text and gm.failed
        gm.hub.command("Bo", "press", button="C")  # Bo declines
        _poll_until(gm, lambda ls: told)
        assert told == ["Bo declines the GM's ask to flip Int +0"]
        assert "declines the GM's ask" in gm("log")
    finally:
        gm.hub.notify = lambda text: None
        for name in NAMES:
            gm.hub.command(name, "press", button="C" if name != "Cy" else "A")  # back home
        gm.console.poll()


def test_press_says_what_it_did(gm):
    """Reproduction: `press Bo B` printed nothing."""
    text = gm("press Bo B")
    assert "Bo presses B: the screen shows flip" in text
    assert "; flips " in text
    text = gm("press Bo A")
    assert "; flips " in text and "(buttons)" in text and any(w in text for w in WORDS.values())
    assert "a button is A, B, C, UP or DOWN, not 'Q'" in gm("press Bo Q")


def test_minigame_pursuit_and_sheet(gm):
    text = gm("minigame Ann pick_locks")
    assert "Ann plays Pick Locks: cards" in text
    cards = gm.hub.player("Ann").state["table"]
    text = gm("minigame Ann swap %s" % cards[0])
    assert not gm.failed, text
    assert "abandoned" in gm("minigame Ann abandon")
    text = gm("pursuit Bo encumbrance=1")
    assert not gm.failed, text
    assert "pursuit round 1: Str" in text and "encumbrance 1" in text and "resolves it: " in text
    assert "rabbit 1, pursuers 0" in gm("pursuit Bo round won")
    assert "the rabbit flips the first round alone" not in gm("pursuit Bo round lost helper=int")
    assert "Int has already helped" in gm("pursuit Bo round won helper=int")
    text = gm("move Cy Sneak expert")
    assert "Sneak - -> 1" in text
    assert "str" in gm("attr Cy str dragon")
    assert "XP 0 -> 2" in gm("xp Cy 2")
    assert "Cy studies under a master" in gm("study Cy Sneak")
    text = gm("reveal Cy d6")
    said = one_line(text)
    assert "attack power" in said and "then: damage Cy " in said


def test_team_and_shadow(gm):
    text = gm("team Cy Ann Bo dex")
    said = one_line(text)
    assert said.startswith("teamwork led by Cy: ") and " resolves it: " in said
    for name in ("Cy", "Ann", "Bo"):
        assert "%s card " % name in said, said
    assert "Shadow:" in gm("shadow")
    assert "whole number" in gm("shadow spend lots")


# -- errors for people -----------------------------------------------------------------------

def test_errors_say_what_a_number_should_be(gm):
    """Reproduction: `damage Cy lots` said "invalid literal for int()"."""
    text = gm("damage Cy lots")
    assert "attack power must be a whole number, like damage Cy 9; not 'lots'" in text
    assert "invalid literal" not in text
    assert "harm must be a whole number, like harm=1" in gm("damage Cy 4 harm=x")
    assert "no player named 'Zed'" in gm("flip Zed str")


def test_device_errors_show_the_sentence_not_the_code(gm):
    """Reproduction: `bad_suit:` and `choose_keep:` were shown as the message."""
    text = gm("do Ann flip suit=moon")
    assert "bad_suit" not in text and "the device says no:" in text
    gm("wound Bo")
    gm("wound Bo")
    gm("damage Bo 8")
    text = gm("do Bo rest")
    assert "choose_keep" not in text and "choose exactly 2" in text


def test_do_is_readable_and_json_on_request(gm):
    text = gm("do Ann take_blessing")
    assert "Ann takes Blessing pb" in text and "{" not in text
    text = gm("do Ann hello")
    assert "device: %s\n" % gm.hub.player("Ann").device in text
    text = gm("do Ann state --json")
    assert json.loads(text)["name"] == "Ann"


# -- one name per player -------------------------------------------------------------------------

def test_set_name_on_the_device_renames_the_player(gm):
    """Reproduction: `do Di set_name name=Kresk` left the table on "Di"; `flip Kresk` failed."""
    gm("do Di set_name name=Kresk")
    assert "Kresk" in gm.hub.players and "Di" not in gm.hub.players
    text = gm("flip Kresk str")
    assert not gm.failed, text
    gm.hub.backup(gm.hub.player("Kresk"))
    assert gm.hub.latest_backup("Kresk")


def test_naming_a_player_names_the_device(gm):
    text = gm("name Cy Zara")
    assert "Cy is now Zara" in text
    assert gm.hub.player("Zara").link.hello()["name"] == "Zara"
    assert "Ann is already at the table" in gm("name Zara Ann")
    assert "the device says no" in gm("name Zara %s" % ("x" * 17))
    assert "Zara" in gm.hub.players


def test_a_device_name_taken_by_another_player_goes_back(gm):
    notes = []
    gm.hub.notify = notes.append
    gm.hub.player("Bo").link.request("set_name", name="Ann")
    gm.hub.refresh(gm.hub.player("Bo"))
    assert list(gm.hub.players) == list(NAMES)
    assert gm.hub.player("Bo").link.hello()["name"] == "Bo"
    assert notes and "that name is taken at this table" in notes[0]


# -- text from a device is printed as it is --------------------------------------------------------

class MarkupLink:
    """A device whose every text is rich markup: hello's problem, its id,
    its errors. It knows just enough of the link to join a table."""

    TEXT = "[/] [bold]x[/bold] :smile:"

    def __init__(self, port, on_event=None, **kw):
        self.port = port
        self.screen_size = (296, 128)

    def hello(self):
        return {"device": "dev1", "name": "[/]", "problem": self.TEXT, "digest": "0" * 16, "count": 0}

    def request(self, op, **args):
        raise DeviceError("bad_suit", self.TEXT)

    def call(self, op, args=None):
        return self.request(op, **(args or {}))

    def state(self):
        raise DeviceError("no_game", self.TEXT)

    def poll(self, timeout=0.0):
        pass

    def close(self):
        pass


def test_markup_in_device_text_prints_as_it_is(tmp_path):
    """Reproduction: `[/]` in hello's problem text or an error message raised MarkupError."""
    buf = io.StringIO()
    out = make_console(file=buf, width=300)
    hub = TableHub(str(tmp_path / "s.db"), link_factory=MarkupLink, notify=lambda t: out.print(t, style="yellow"))
    try:
        hub.join("Ann", "/dev/markup")
        gm = Gm(hub)
        gm.console.out = out
        gm.buf = buf
        status = gm("status")
        assert "faulty" in status and MarkupLink.TEXT in status
        text = gm("flip Ann str")
        assert MarkupLink.TEXT in text
        text = gm("do Ann ping")
        assert MarkupLink.TEXT in text
        assert MarkupLink.TEXT in buf.getvalue().splitlines()[0]  # the join's notice
    finally:
        hub.close()


def test_breather_pick_takes_tokens_then_face_up_then_face_down():
    state = {"edition": "md", "tokens": {"exhaustion": 1}, "exhaustion": 4, "exhaustion_face_up": ["3", "7"]}
    assert breather_pick(state, None) == {"tokens": 1, "cards": ["3", "7"], "facedown": 1}
    assert breather_pick(state, 2) == {"tokens": 1, "cards": ["7"], "facedown": 0}


def test_presses_on_the_board_show_up_while_waiting(gm):
    """The loop polls the devices between the GM's lines: a flip made with
    the board's buttons is said in words, in one line (issue 27)."""
    link = gm.hub.player("Bo").link
    link.request("press", button="B")
    link.request("press", button="A")
    lines = []
    for _ in range(20):
        lines += gm.console.poll()
        if any("(buttons)" in line for line in lines):
            break
    said = [line for line in lines if "(buttons)" in line]
    f = gm.hub.player("Bo").last_flip
    assert len(said) == 1 and said[0].startswith("Bo flips ") and "\n" not in said[0], lines  # one line
    assert "card %s resolves it: %s (buttons)" % (f["resolving"], result_words(f["level"])) in said[0]


def test_the_console_at_a_terminal(tmp_path):
    """`deckahedron table` on a terminal: the prompt, help, a flip, the
    status, quit; readline in its thread, the devices polled meanwhile."""
    gm = Terminal("table", "--sim", "2", "--seed", "4", "--dir", str(tmp_path), "--no-web")
    try:
        gm.until("table> ")
        gm.type("help flip")
        gm.until("advantage or disadvantage")
        gm.until("table> ")
        gm.type("flip Ann str +1")
        gm.until("resolves it:")
        gm.until("table> ")
        gm.type("damage Bo lots")
        gm.until("attack power must be")
        gm.until("table> ")
        gm.type("quit")
        assert gm.proc.wait(timeout=30) == 0
    finally:
        gm.close()


def test_the_console_page_lists_every_command_as_help_says_it():
    import os

    page = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
                        "docs", "console.md")
    with open(page) as f:
        doc = f.read()

    class Nobody:
        players = {}

    console = TableConsole(Nobody(), make_console(file=io.StringIO()))
    listed = doc.split("## Commands")[1].split("```")[1].strip().splitlines()
    assert listed == [console.usage(c) for c in console.commands()]


def test_card_arguments_take_plain_forms():
    from host_tools.console.typed import coerce, parse_pairs

    assert coerce("seek_help", parse_pairs(["keep=19"])) == {"keep": ["19"]}
    assert coerce("seek_help", parse_pairs(["keep=19,4", "hearth=true"])) == {"keep": ["19", "4"], "hearth": True}
    assert coerce("rest", parse_pairs(["keep=worst"])) == {"keep": "worst"}
    assert coerce("breather", parse_pairs(['cards=[3,"7"]'])) == {"cards": ["3", "7"]}
    assert coerce("choose", parse_pairs(["card=3"])) == {"card": "3"}
    assert coerce("flip", parse_pairs(["net=1"])) == {"net": 1}


def test_a_name_in_brackets_is_just_a_name(gm):
    """Device text is printed with markup off, so "[Kresk]" is a name like
    any other, at the table and on the device, not a faulty device."""
    text = gm("name Di [Kresk]")
    assert "[Kresk]" in gm.hub.players and gm.hub.player("[Kresk]").faulty == ""
    assert "[Kresk]" in text
    text = gm("flip [Kresk] str")
    assert "[Kresk] flips Strength" in text and "resolves it: " in text, text
    assert gm.hub.player("[Kresk]").faulty == "" and "faulty" not in gm("status")


def _seed_whose_first_flip_is_a_critical_success():
    from shared_rules.deck import cards as C
    from shared_rules.deck.game import Game

    for seed in range(1000, 2000):
        r = Game.new(seed=seed).do("flip", {"attr": "str"})
        if r.get("phase") == "open" and C.CARDS[r["resolving"]].crit == "success":
            return seed
    raise AssertionError("no seed in 1000..1999 flips the Critical Success card first")


def test_a_critical_successs_reward_is_asked_after_the_flip(gm):
    """Issue 27: the reward is chosen once the Critical Success card is seen, as at a real table; the
    flip waits open for it, and "declined" is said only when the GM declines."""
    seed = _seed_whose_first_flip_is_a_critical_success()
    for ending, said in (("end Ann crit=blessing", "critical success: Blessing "),
                         ("end Ann crit=none", "critical success: reward declined")):
        gm.hub.command("Ann", "new_game", confirm=True, seed=seed)
        gm.hub.sync_supply()
        text = gm("flip Ann str")
        assert not gm.failed, text
        assert "resolves it: " in text, text  # the result first
        assert "a critical success: Ann chooses the reward, then end Ann crit=" in text and "blessing" in text, text
        assert "declined" not in text and gm.hub.player("Ann").state["flip"] is not None  # open, waiting
        text = gm(ending)
        assert not gm.failed and said in text, text
        assert gm.hub.player("Ann").state["flip"] is None
    gm.hub.command("Ann", "new_game", confirm=True, seed=seed)
    text = gm("flip Ann str crit=blessing")  # chosen ahead: no question, the flip ends with it
    assert "chooses the reward" not in text and "critical success: Blessing " in text, text


def test_every_systems_commands_are_known_ops():
    ops = all_commands()
    assert "flip" in ops and len(ops) == len(set(ops))

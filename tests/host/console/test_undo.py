"""Undo: the GM puts a player's device back to the backup before their last
action, after a confirmation; teamwork flips and supply cards are undone on
every device involved, or refused with the reason."""

import pytest

from host_tools.cli import main
from host_tools.table import record
from host_tools.table.errors import TableError
from host_tools.web import view
from tests.host.conftest import seated_table
from tests.host.console.test_core import Gm

NAMES = ["Ann", "Bo"]


@pytest.fixture
def table(firmware, tmp_path):
    with seated_table(2, tmp_path, 7, NAMES) as (hub, sims):
        yield hub


def _digest(hub, name):
    return hub.player(name).state["digest"]


def test_undo_asks_first_then_puts_the_flip_back_and_logs_it(table, tmp_path):
    hub = table
    start = _digest(hub, "Ann")
    hub.flip("Ann", attr="str", net=1)
    after = _digest(hub, "Ann")
    plan = hub.undo("Ann")
    assert "Ann back to before flip" in plan["text"]  # the whole flip, not just its end
    assert _digest(hub, "Ann") == after  # asked only: nothing changed
    hub.undo("Ann", confirm=True)
    assert _digest(hub, "Ann") == start and not hub.player("Ann").state.get("flip")
    assert hub.player("Ann").link.state()["digest"] == start  # the device itself, not the mirror
    with pytest.raises(TableError, match="nothing to undo"):
        hub.undo("Ann")
    rows = hub.db.execute("SELECT op, args FROM log WHERE kind = 'undo' AND player = 'Ann'").fetchall()
    assert len(rows) == 1
    # the record with its undos still replays: the undone entries, then the restored state
    hub.db.commit()
    assert main(["replay", str(tmp_path / "session.db")]) == 0
    hub.flip("Ann", attr="dex")  # and play goes on from there
    assert main(["replay", str(tmp_path / "session.db")]) == 0


def test_a_teamwork_flip_is_undone_on_every_device_in_it(table):
    hub = table
    before = {n: _digest(hub, n) for n in NAMES}
    hub.teamwork("Ann", ["Bo"], attr="int")
    plan = hub.undo("Bo")
    assert set(plan["players"]) == {"Ann", "Bo"}
    hub.undo("Bo", confirm=True)
    assert {n: _digest(hub, n) for n in NAMES} == before


def test_an_undone_teamwork_flip_reads_as_undone_in_the_teamwork_box_the_history_and_the_recap(table):
    """Issue 27: 'An undone teamwork flip still reads as current in the page's
    Teamwork box, the history and the Markdown.'"""
    hub = table
    hub.teamwork("Ann", ["Bo"], attr="int")
    hub.undo("Bo", confirm=True)
    team = [e for e in record.entries(hub.db) if e["kind"] == "teamwork"]
    assert len(team) == 1 and team[0]["undone"]
    assert "leads a teamwork flip with Bo" in record.export(team, "md") and "*(undone)*" in record.export(team, "md")
    box = view.teamwork_view(hub)
    assert box["in_progress"] == [] and box["recent"][0].startswith("Ann leads, with Bo: undone (it was resolved by")


def test_a_teamwork_flip_is_refused_when_a_player_in_it_acted_since(table):
    hub = table
    hub.teamwork("Ann", ["Bo"], attr="int")
    hub.flip("Ann", attr="str")
    hub.undo("Ann", confirm=True)  # Ann's own flip is hers alone
    hub.flip("Ann", attr="str")
    with pytest.raises(TableError, match="Ann has acted since the teamwork flip"):
        hub.undo("Bo")


def test_a_supply_card_goes_back_through_the_supply_and_a_taken_one_refuses(table):
    hub = table
    got = hub.command("Ann", "take_blessing")["card"]
    assert got not in hub.player("Bo").state["supply"]  # Bo's device was told Ann holds it
    hub.undo("Ann", confirm=True)
    assert got not in hub.player("Ann").state["held"] and got in hub.supply()
    assert got in hub.player("Bo").state["supply"]  # and now that it is free again
    got = hub.command("Ann", "take_blessing")["card"]
    hub.command("Ann", "rest")
    # the state before the rest holds the card; were Bo to hold it now (the
    # mirror says so here), undoing would put one card on two devices
    hub.player("Bo").state["held"] = hub.player("Bo").state["held"] + [got]
    after = _digest(hub, "Ann")
    with pytest.raises(TableError, match="gives Ann supply card %s back, but Bo holds it now" % got):
        hub.undo("Ann", confirm=True)
    assert hub.player("Ann").link.state()["digest"] == after


def test_the_console_asks_for_yes(table):
    hub = table
    gm = Gm(hub)
    hub.flip("Ann", attr="str")
    after = _digest(hub, "Ann")
    said = gm("undo Ann")
    assert "undo Ann yes" in said and "before flip" in said and _digest(hub, "Ann") == after
    said = gm("undo Ann yes")
    assert "undone" in said and _digest(hub, "Ann") != after and not gm.failed
    gm("undo Zed")
    assert gm.failed


def test_an_undo_is_said_once(table):
    """The hub's notes are for what nobody at the console asked for: the undo's
    one line is the console's answer, not a note printed beside it."""
    hub = table
    notes = []
    hub.notify = notes.append
    gm = Gm(hub)
    hub.flip("Ann", attr="str")
    gm("undo Ann")
    said = gm("undo Ann yes")
    assert said.count("undone") == 1 and notes == []


def test_a_flip_whose_shadow_points_are_spent_is_refused(table):
    hub = table
    for _ in range(40):  # flip until one earns the GM Shadow points
        r = hub.flip("Ann", attr="str")
        if r.get("shadow"):
            break
    assert r.get("shadow"), "no flip earned Shadow in 40"
    hub.spend_shadow(hub.shadow()[2], "a GM move")
    after = _digest(hub, "Ann")
    with pytest.raises(TableError, match="Shadow points it earned are spent"):
        hub.undo("Ann", confirm=True)
    assert hub.player("Ann").link.state()["digest"] == after


def test_a_confirm_of_an_undo_that_is_not_the_one_shown_is_refused(table):
    """A player may press a button between the GM's question and answer:
    undo NAME yes does only what was shown, and the GM never types an entry
    number (issue 27: "'entry 15' means nothing to a GM")."""
    hub = table
    gm = Gm(hub)
    hub.flip("Ann", attr="str")
    asked = gm("undo Ann")
    assert asked.strip() == "this would put Ann back to before flip; type undo Ann yes to do it"
    hub.flip("Ann", attr="dex")
    after = _digest(hub, "Ann")
    said = gm("undo Ann yes")
    assert gm.failed and "Ann has acted since that undo was shown: it would now put Ann back to before flip" in said
    assert "entry" not in said and hub.player("Ann").link.state()["digest"] == after
    gm("undo Ann yes entry=soon")
    assert gm.failed and hub.player("Ann").link.state()["digest"] == after
    gm("undo Ann")
    said = gm("undo Ann yes")
    assert not gm.failed and said.strip() == "undone: Ann back to before flip" and _digest(hub, "Ann") != after
    undo = [e for e in record.entries(hub.db) if e["kind"] == "undo"]
    assert undo[-1]["text"] == "undo: back to before flip"

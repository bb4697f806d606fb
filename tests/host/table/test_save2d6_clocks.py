"""SAVE's clocks on the hub (host_tools/table/save2d6_clocks.py): made by the GM, ticked by
results as seed 003 says, kept in the session database over restarts."""

import pytest

from host_tools.table.save2d6_clocks import ClockError, Clocks, describe_clock
from host_tools.table.hub import TableHub


def test_ticks_by_result_and_full(tmp_path):
    hub = TableHub(str(tmp_path / "s.db"))
    clocks = Clocks(hub)
    clocks.create("Ritual", 6)
    clocks.create("Torches", 4, kind="setback")
    # "If you're using a progress clock, mark two ticks on the clock." (complete)
    assert clocks.tick("Ritual", result="complete")[0]["filled"] == 2
    # mixed: one tick on a progress clock and one on a setback clock
    assert clocks.tick("Ritual", result="mixed")[0]["filled"] == 3
    assert clocks.tick("Torches", result="mixed")[0]["filled"] == 1
    # complete failure: two ticks on a setback clock, none on progress
    assert clocks.tick("Ritual", result="failure")[0]["filled"] == 3
    c, full = clocks.tick("Torches", result="failure")
    assert c["filled"] == 3 and not full
    c, full = clocks.tick("Torches", 1)  # "When the clock is full, an undesired event occurs."
    assert c["filled"] == 4 and full
    assert clocks.tick("Torches", 1) == ({"name": "Torches", "kind": "setback", "segments": 4, "filled": 4}, False)
    assert clocks.tick("Torches", -1)[0]["filled"] == 3  # the GM takes one back
    assert describe_clock(clocks.get("Ritual")) == "progress clock Ritual: 3/6"
    hub.close()
    # The clocks are the table's state: a restarted hub finds them.
    hub = TableHub(str(tmp_path / "s.db"))
    assert [c["filled"] for c in Clocks(hub).all()] == [3, 3]
    ops = [r[0] for r in hub.db.execute("SELECT op FROM log WHERE kind = 'clock' ORDER BY id")]
    assert ops == ["clock_new", "clock_new"] + ["clock_tick"] * 8
    hub.close()


def test_bad_clock_commands_change_nothing():
    hub = TableHub()
    clocks = Clocks(hub)
    clocks.create("Ritual", 6)
    for args, kw in ((("Ritual", 4), {}), (("Doom", 1), {}), (("Doom", 13), {}), (("", 4), {}),
                     (("Doom", 4), {"kind": "dread"}), (("x" * 17, 4), {})):
        with pytest.raises(ClockError):
            clocks.create(*args, **kw)
    with pytest.raises(ClockError):
        clocks.tick("Ritual")
    with pytest.raises(ClockError):
        clocks.tick("Ritual", 7)
    with pytest.raises(ClockError):
        clocks.tick("Nope", 1)
    with pytest.raises(ClockError):
        clocks.remove("Nope")
    for i in range(5):
        clocks.create("C%d" % i, 4)
    with pytest.raises(ClockError, match="6 clocks already"):
        clocks.create("C9", 4)
    assert clocks.all()[0] == {"name": "Ritual", "kind": "progress", "segments": 6, "filled": 0}
    clocks.remove("Ritual")
    assert len(clocks.all()) == 5
    hub.close()

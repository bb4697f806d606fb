"""`deckahedron table`'s start (issue 27): a start that resumes the last
table says so, and --new starts afresh with the last table kept, not lost."""

import os

from host_tools.commands import table as T
from host_tools.table.hub import TableHub


def test_new_sets_the_last_table_aside_and_keeps_it(tmp_path):
    run = str(tmp_path)
    db = os.path.join(run, "session.db")
    TableHub(db).close()
    os.makedirs(os.path.join(run, "sim", "p1"))
    with open(os.path.join(run, "sim", "p1", "deck.sav"), "w") as f:
        f.write("last night's character")
    kept = T.set_aside(db, run, when=0)
    assert kept is not None and kept.startswith(os.path.join(run, "earlier"))
    assert not os.path.exists(db) and not os.path.exists(os.path.join(run, "sim"))
    assert os.path.isfile(os.path.join(kept, "session.db"))
    with open(os.path.join(kept, "sim", "p1", "deck.sav")) as f:
        assert f.read() == "last night's character"
    # a second fresh start in the same second keeps both
    TableHub(db).close()
    again = T.set_aside(db, run, when=0)
    assert again != kept and os.path.isfile(os.path.join(again, "session.db"))
    assert T.set_aside(db, run) is None  # nothing left to set aside


def test_a_resumed_start_says_what_it_resumed_and_how_to_start_afresh(tmp_path):
    db = str(tmp_path / "session.db")
    hub = TableHub(db)
    try:
        line = T.resumed_line(hub, db)
    finally:
        hub.close()
    assert line.startswith("resumed the table kept in %s" % db)
    assert "Shadow 0 available" in line and "deckahedron table --new" in line and "make run NEW=1" in line


def test_new_is_an_option_of_the_table_command():
    import argparse

    parser = argparse.ArgumentParser()
    T.add_arguments(parser)
    assert parser.parse_args(["--new"]).new and not parser.parse_args([]).new

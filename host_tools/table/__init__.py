"""The GM's table: the hub (hub.py) over every player's device, what it keeps
(the session database), the checks of what devices send (check.py), the
record (record.py), the replies through each system's words (replies.py),
SAVE's clocks (save2d6_clocks.py) and where the table's files go (outfiles.py, runlock.py)."""

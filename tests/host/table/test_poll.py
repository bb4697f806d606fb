"""The hub reads a table's boards together: ``poll(timeout)`` waits
``timeout`` in all, whichever board the awaited event comes from. Before,
each board had the whole timeout in turn, so every console press (which
polls 0.2 s for its event) took 0.8 s at a table of four and 3.2 s at
sixteen, and the GM's next line waited behind it."""

import time

from tests.host.conftest import seated_table

NAMES = ("Ann", "Bo", "Cy", "Di")
WAIT = 0.5  # seconds the poll is given


def test_a_poll_of_four_boards_waits_its_timeout_in_all_and_takes_their_events(firmware, tmp_path):
    with seated_table(4, tmp_path, 3, NAMES) as (hub, sims):
        hub.poll(0)
        for button in "BA":  # a flip on Di's buttons, then its end: each press's event follows the reply
            hub.command("Di", "press", button=button)
        t0 = time.monotonic()
        hub.poll(WAIT)
        took = time.monotonic() - t0
        flips = hub.flip_rows()
        assert len(flips) == 1 and flips[0][:2] == ("Di", "buttons"), flips
        # the timeout is the whole wait: the four boards in turn took 4 x WAIT
        assert WAIT <= took < 2 * WAIT, "poll(%s) over 4 boards took %.2f s" % (WAIT, took)

"""Sleeping between presses on the emulated Pico: the RP2040's DORMANT state
(host_tools/sim/emu/dormant.mjs) and a USB host that goes away and comes back
(host_tools/sim/emu/usbhost.mjs). One board for the module; the tests run in
order on it.

Unplugged, the board runs on its battery: DORMANT soon after each press's
update, woken by the next press, which acts (even a tap shorter than the
crystal's start-up). Plugged back in, VBUS wakes it and the host finds it.
With the host asleep (the bus suspended, the cable in) it stays clocked on
USB power and answers the host's resume.
"""

import time

from tests.emu.conftest import PRESS_WALL, WATCHDOG_S, hello, is_update, same_as_twin

NS = 1e-9
SOON = 1.0  # emulated s after a press's update: DORMANT by then (SLEEP_AFTER_MS is 0.1 s)
seen = {}  # what the tests before saw, for the tests after


def is_ev(name):
    return lambda e: e.get("ev") == name


def saved(board):
    """(the command count, the op of the newest event kept for the host)
    from the save on the board's flash."""
    count, op = None, None
    for line in board.read_file("deck.sav").decode().splitlines():
        if line.startswith("count "):
            count = int(line.split()[1])
        elif line.startswith("event "):
            op = line.split('"op":"', 1)[1].split('"', 1)[0]
    return count, op


def press_while_dormant(board, button, ms=120):
    """Press a button on the sleeping board; the wake, the update it caused
    and the DORMANT that followed (events), and the press's emulated time."""
    assert board.chip()["dormant"]["dormant"], "the board is not DORMANT"
    since = board.event_count()
    t = board.press(button, ms=ms)
    wake = board.wait_event(is_ev("wake"), timeout=PRESS_WALL, since=since)
    update = board.wait_event(is_update, timeout=PRESS_WALL, since=since)
    again = board.wait_event(is_ev("dormant"), timeout=PRESS_WALL, since=since)
    return t, wake, update, again


def test_unplugged_it_goes_dormant_and_the_press_that_wakes_it_acts(pico, twin):
    start = seen["start"] = hello(pico)
    assert start["digest"] == twin.hello()["digest"]
    since = pico.event_count()
    pico.host_away("unplugged")
    pico.wait_event(is_ev("dormant"), timeout=PRESS_WALL, since=since)
    before = pico.chip()["dormant"]
    home = pico.panel_image()
    t, wake, update, again = press_while_dormant(pico, "B")
    assert wake["gpios"] == [pico.pins["buttons"]["B"]] and abs(wake["edge"] * NS - t) < 1e-3
    assert update["t"] > wake["t"], "the panel's update comes from the waking press"
    assert pico.panel_image() != home, "B woke the board and flipped: the panel must change"
    assert (again["t"] - update["until"]) * NS < SOON, "back to DORMANT soon after the update"
    after = pico.chip()["dormant"]
    assert (after["entries"], after["wakes"]) == (before["entries"] + 1, before["wakes"] + 1)
    twin.request("press", button="B")
    assert saved(pico) == (start["count"] + 1, "flip"), "the save has the flip"


def test_a_tap_shorter_than_the_wake_up_still_counts(pico, twin):
    t, wake, update, again = press_while_dormant(pico, "A", ms=2)
    assert (wake["t"] - wake["edge"]) * NS > 0.002, "the tap was over before the crystal ran again"
    assert wake["gpios"] == [pico.pins["buttons"]["A"]]
    twin.request("press", button="A")
    assert saved(pico) == (seen["start"]["count"] + 2, "end_flip")


def test_asleep_longer_than_the_watchdogs_timeout_it_is_not_reset(pico):
    """The firmware's watchdog (8 s) counts on a tick from the crystal,
    which DORMANT stops: a night asleep is no reset."""
    asleep = pico.chip()["dormant"]
    assert asleep["dormant"]
    since = pico.event_count()
    while (pico.chip()["dormant"]["ns"] - asleep["ns"]) * NS < WATCHDOG_S:
        time.sleep(0.2)
    now = pico.chip()["dormant"]
    assert now["dormant"] and now["entries"] == asleep["entries"], "still in the same DORMANT"
    assert not [e for e in pico.events_since(since) if e.get("ev") == "reset"]


def test_with_the_host_back_the_link_answers_and_nothing_was_lost(pico, twin):
    since = pico.event_count()
    pico.host_back()
    wake = pico.wait_event(is_ev("wake"), timeout=PRESS_WALL, since=since)
    assert wake["gpios"] == [pico.pins["vbus"]], "the cable's VBUS wakes the board"
    info = same_as_twin(pico, twin, "after two presses with no host")
    start = seen["start"]
    assert info["count"] == start["count"] + 2
    assert info["events"] + info["events_dropped"] - start["events"] == 2, (
        "both presses' events are kept for the host (or counted as dropped)")
    usb = pico.chip()["usb"]
    assert usb["link"] == "up" and usb["gave_up"] == 0 and usb["enumerations"] == 1


def test_with_the_host_asleep_it_stays_awake_and_answers_the_resume(pico, twin):
    """The cable stays in and the host stops sending frames (a laptop
    asleep): on USB power no DORMANT, the press acts; the host resumes the
    bus, the board sleeps in lightsleep slices that keep the link, and
    serial input ends them."""
    before = pico.chip()
    pico.host_away("suspended")
    since = pico.event_count()
    pico.press("B")
    update = pico.wait_event(is_update, timeout=PRESS_WALL, since=since)
    twin.request("press", button="B")
    while pico.time() < (update["until"]) * NS + SOON:  # the board is in its sleep by then
        time.sleep(0.1)
    pico.host_back()
    end = time.monotonic() + PRESS_WALL
    while pico.chip()["dormant"]["lightsleeps"] < before["dormant"]["lightsleeps"] + 2:
        assert time.monotonic() < end, "no lightsleep slices with the host back"
        time.sleep(0.1)
    info = same_as_twin(pico, twin, "after a press with the host asleep")
    assert info["count"] == seen["start"]["count"] + 3
    after = pico.chip()
    assert after["dormant"]["entries"] == before["dormant"]["entries"], "no DORMANT on USB power"
    assert after["usb"]["resumes"] == before["usb"]["resumes"] + 1
    assert after["usb"]["enumerations"] == before["usb"]["enumerations"], "the link was kept, not made again"
    assert pico.violations() == []

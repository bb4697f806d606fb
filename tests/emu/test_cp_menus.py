"""Every kind of screen and the menus of the three systems, walked with the
buttons on CircuitPython's emulated Pico (pico-epaper29-cp): each screen
on the glass equals the unix-port renderer's, pixel for pixel, and nothing
crashes on CircuitPython's heap.

The unix-port suites walk every menu row of every path (tests/device/deck/
test_menus.py); a CircuitPython press costs a refresh of emulated time, so
this walk takes one path through every screen kind the device draws:
menus, a message, the flip, the sheet, a number picker, name entry, a
mini-game and its give-up menu, Facets' and SAVE's homes, rolls and
menus, and back to a new Deckahedron hero, on a fresh board and a unix-port
twin with its seed, pressed alike.
"""

import time

import pytest

from host_tools.link import DeviceError, DeviceLink
from host_tools.sim.circuitpython import read_settled
from tests.emu.conftest import PRESS_WALL, battery_box, hello
GAP = 0.35  # emulated s after a press: keypad's debounce and the app's work

# (button, the screen the twin must show after it, or None: no checkpoint). Found on the
# portable app (tests/device/support.py) from a fresh seed-7 board.
WALK = (
    ("C", "menu"), ("B", "message"), ("A", None),  # Menu > Last flip: none yet
    ("B", "flip"), ("A", "home"),  # a flip, done
    ("C", None), ("DOWN", None), ("B", "sheet"), ("A", None),  # Menu > Character sheet
    ("C", None), ("DOWN", None), ("DOWN", None), ("B", None), ("B", "number"), ("A", None),  # Hurt > Take damage
    ("C", None), ("DOWN", None), ("DOWN", None), ("DOWN", None), ("DOWN", None), ("B", None), ("B", None),
    ("B", "entry"), ("A", None),  # XP & cards > Study > a new move's name
    ("C", None), ("UP", None), ("UP", None), ("B", None), ("B", "minigame"),  # Mini-games > Pick Locks
    ("A", "menu"), ("DOWN", None), ("B", "home"),  # give up
    ("C", None), ("UP", None), ("B", None), ("UP", None), ("B", None), ("DOWN", None), ("B", None),
    ("DOWN", None), ("B", "facets_home"),  # Help & settings > New character > Facets
    ("B", "facets_roll"), ("A", None), ("C", "menu"),
    ("UP", None), ("B", None), ("DOWN", None), ("B", None), ("DOWN", None), ("DOWN", None),
    ("B", "save_home"),  # Facets' New character > SAVE 2d6
    ("B", "save_roll"), ("A", None), ("C", None), ("UP", None), ("B", "menu"),  # SAVE's Help & settings
    ("UP", None), ("B", None), ("DOWN", None), ("B", None), ("B", "home"),  # New character > Deckahedron
)


class OutOfHeap(AssertionError):
    """CircuitPython's heap ran out: a MemoryError answered the link or
    was logged, or the glass never showed the twin's screen."""


# A defect found here (2026-11-28), open: on CircuitPython's heap (~32 KB free after boot) a press
# soon after the menu opened drew "Screen error: MemoryError" instead of the "Last flip" message
# (the renderer's fallback), or the glass kept the menu, and the link's next request answered
# MemoryError; with 4.5 s between presses the same presses passed (lowest free 26 KB). Only that
# failure is expected here: a state that differs from the twin's, a crash of another kind, a reset
# without a crash or a refused panel command still fails.
HEAP_DEFECT = pytest.mark.xfail(strict=False, raises=OutOfHeap,
                                reason="defect: CircuitPython's heap runs out drawing a screen soon after a menu")


def answered(ask):
    """ask() over the link; a MemoryError the board answers is OutOfHeap."""
    try:
        return ask()
    except DeviceError as e:
        if "MemoryError" in str(e):
            raise OutOfHeap(str(e))
        raise


def crashed(cp):
    """Fail on a crash the board logged: OutOfHeap for a MemoryError."""
    crashes = read_settled(cp.fs_path, "deckahedron/crash.log")
    if crashes is not None:
        text = crashes.decode("utf-8", "replace")[-800:]
        raise (OutOfHeap if "MemoryError" in text else AssertionError)(text)


def glass_shows(cp, frame, wall=PRESS_WALL):
    """Wait for the panel to show `frame` (the board may still be drawing
    an earlier press's frame), the battery gauge aside (only the home and
    flip screens of a board with a battery sense draw it); whether it came."""
    end = time.monotonic() + wall
    while time.monotonic() < end:
        if battery_box(cp.panel_image(), clear=True) == frame:
            return True
        time.sleep(0.3)
    return False


@pytest.mark.slow  # about a minute and a half: 59 presses on CircuitPython's emulated Pico
@HEAP_DEFECT
def test_every_screen_kind_and_each_systems_menu_on_circuitpython(cp, cp_twin):
    seen = []
    since = cp.event_count()
    for i, (button, screen) in enumerate(WALK):
        t = cp.press(button)
        shown = cp_twin.request("press", button=button)["screen"]
        while cp.time() < t + GAP:  # the press read and worked out before the next or the checkpoint
            time.sleep(0.05)
        if screen is None:
            continue
        what = "press %d (%s): %s" % (i + 1, button, screen)
        assert shown == screen, "%s: the twin shows %s, the walk was laid out for another state" % (what, shown)
        digest = answered(lambda: hello(cp))["digest"]
        if digest != cp_twin.hello()["digest"]:
            crashed(cp)  # a MemoryError's reload lost presses
            raise AssertionError("%s: the two runtimes disagree on the state" % what)
        frame = cp_twin.fetch_screen()
        if not glass_shows(cp, frame):
            glass = battery_box(cp.panel_image(), clear=True)
            with DeviceLink(cp.port, timeout=30.0) as link:  # what the app draws now, not yet on the glass?
                drawn = battery_box(answered(link.fetch_screen), clear=True) == frame
            raise OutOfHeap("%s: the emulated panel differs from the unix-port renderer in %d pixels (the "
                               "app's own screen %s)" % (what, sum(bin(a ^ b).count("1") for a, b in zip(glass, frame)),
                                                         "is right: the frame never reached the glass" if drawn
                                                         else "differs too"))
        seen.append(screen)
    crashed(cp)
    assert not [e for e in cp.events_since(since) if e.get("ev") == "reset"], "CircuitPython reset during the walk"
    assert cp.violations() == []
    assert set(seen) >= {"menu", "message", "flip", "home", "sheet", "number", "entry", "minigame",
                         "facets_home", "facets_roll", "save_home", "save_roll"}

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

from host_tools.link import DeviceError, DeviceLink, LinkError
from host_tools.sim.circuitpython import RELOADED
from tests.emu.conftest import PRESS_WALL, battery_box, hello
from tests.emu.cp_defects import OPEN_DEFECTS, OutOfHeap, PanelGarbled, answered, crashed, drew_screen_error
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


def glass_shows(cp, frame, refused, wall=PRESS_WALL):
    """Wait for the panel to show `frame` (the board may still be drawing
    an earlier press's frame), the battery gauge aside (only the home and
    flip screens of a board with a battery sense draw it): True when it
    came, False when it did not, None when the panel refused bytes beyond
    the first `refused` violations (that frame will not come)."""
    end = time.monotonic() + wall
    while time.monotonic() < end:
        if battery_box(cp.panel_image(), clear=True) == frame:
            return True
        if len(cp.violations()) > refused:
            return None
        time.sleep(0.3)
    return False


def not_shown(cp, what, frame, reloads):
    """The glass never showed the twin's frame and nothing was logged: say
    what the board holds. A reload since the walk began with a MemoryError
    on the console is OutOfHeap (code.py prints the error there when
    crash.log could not be written); anything else fails the test, with
    the pixels, whether the board's own bitmap is the twin's frame (then
    the panel missed an update) and the console's last words."""
    glass = battery_box(cp.panel_image(), clear=True)
    said = cp.console_text()
    again = said.count(RELOADED) - reloads
    try:
        with DeviceLink(cp.port, timeout=10.0) as link:
            mine = battery_box(link.fetch_screen(), clear=True)
        drawn = "equals the twin's" if mine == frame else "differs from the twin's"
    except (DeviceError, LinkError) as e:
        drawn = "could not be read (%s)" % e
    facts = ("%s: the emulated panel differs from the unix-port renderer in %d pixels; the board's own bitmap %s; "
             "%d reloads since the walk began; its console ends: %r"
             % (what, sum(bin(a ^ b).count("1") for a, b in zip(glass, frame)), drawn, again, said[-600:]))
    if again and "MemoryError" in said:
        raise OutOfHeap(facts)
    raise AssertionError(facts)


def garbled(cp, before):
    """PanelGarbled when the panel refused bytes since `before` violations."""
    refused = cp.violations()[before:]
    if refused:
        raise PanelGarbled("the panel refused %d bytes: %s" % (len(refused), [v["msg"] for v in refused[:6]]))


@pytest.mark.slow  # about a minute and a half: 59 presses on CircuitPython's emulated Pico
@OPEN_DEFECTS
def test_every_screen_kind_and_each_systems_menu_on_circuitpython(cp, cp_twin):
    seen, missed = [], []
    since, before = cp.event_count(), len(cp.violations())
    reloads = cp.console_text().count(RELOADED)
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
        came = glass_shows(cp, frame, len(cp.violations()))
        if came is None:  # garbled: the next frame draws the whole screen again, the walk goes on
            missed.append(screen)
            continue
        if not came:
            crashed(cp)
            if drew_screen_error(cp.panel_image()):
                raise OutOfHeap("%s: the board drew Screen error: MemoryError (nothing logged)" % what)
            not_shown(cp, what, frame, reloads)
        seen.append(screen)
    crashed(cp)
    assert not [e for e in cp.events_since(since) if e.get("ev") == "reset"], "CircuitPython reset during the walk"
    assert set(seen + missed) >= {"menu", "message", "flip", "home", "sheet", "number", "entry", "minigame",
                                  "facets_home", "facets_roll", "save_home", "save_roll"}
    print("CircuitPython walk: %d screens equal to the twin's, %d missed by a garbled frame (%s)"
          % (len(seen), len(missed), ", ".join(missed)))
    garbled(cp, before)

"""Issue 29's refresh policy on the emulated Pico, a host attached (the board
stays awake between presses, its clock counting the pauses): a session of
button flips drawn with fast updates and the policy's full ones, each frame
the unix-port renderer's pixel for pixel; then the panel left alone on a
fast update: _IDLE_CLEAN_MS later the same screen is drawn again with a
full update, which the firmware counts as a clean one (stats' refreshes).
The idle minutes pass as the emulator's time-lapse (a pass of the board's
loop a second instead of fifty: 73 s of a loaded machine's time became
~10), all but the last seconds, which run at the board's own pace.
A module of its own: one board for these tests."""

from host_tools.link import DeviceLink
from tests.device.support import IDLE_CLEAN_MS
from tests.emu.conftest import battery_box, hello, is_update, press_and_wait

NS = 1e-9
PRESSES = 20  # ten flips (B, then A): past the 17th update's periodic full refresh
IDLE_WALL = 120.0  # wall seconds for the idle stretch, lapsed (about 10 s unloaded)
LAPSE_STEP = 1.0  # emulated s of each of the idle board's waits, well inside its 8 s watchdog
LIVE = 3.0  # emulated s before the clean refresh run at the board's own pace: it lands on time


def same_pixels(board, twin, what):
    """The glass is the unix-port renderer's frame, pixel for pixel, and the
    state the same (the battery gauge aside: only the emulated board senses
    a battery, and not every screen draws it)."""
    assert hello(board)["digest"] == twin.hello()["digest"], what
    glass, frame = (battery_box(image, clear=True) for image in (board.panel_image(), twin.fetch_screen()))
    assert glass == frame, "%s: %d pixels differ" % (what, sum(bin(a ^ b).count("1") for a, b in zip(glass, frame)))


def refreshes(board):
    with DeviceLink(board.port, timeout=10.0) as link:
        return link.request("stats")["refreshes"]


def test_a_sessions_frames_are_the_renderers_and_an_idle_panel_is_cleaned(pico, twin):
    kinds = []
    for i in range(PRESSES):
        button = "BA"[i % 2]
        _, update = press_and_wait(pico, button)
        twin.request("press", button=button)
        kinds.append(update["kind"])
        same_pixels(pico, twin, "press %d (%s)" % (i + 1, button))
    assert "full" in kinds and kinds.count("fast") >= PRESSES - 2, kinds
    before = refreshes(pico)
    assert before["clean"] == 0 and before["full"] + before["fast"] == PRESSES + 1  # and the boot's
    assert kinds[-1] == "fast", "the session ends on a fast update: %s" % kinds
    last = pico.panel()["updates"][-1]

    since = pico.event_count()
    # the idle minutes as a time-lapse, the firmware's loop a pass a second,
    # the last seconds before the clean refresh at its own pace
    pico.lapse(IDLE_CLEAN_MS / 1000 - LIVE - (pico.time() - last["t"] * NS), step=LAPSE_STEP, timeout=IDLE_WALL)
    assert not [e for e in pico.events_since(since) if is_update(e)], "the panel was updated before its idle time"
    clean = pico.wait_event(is_update, timeout=IDLE_WALL, since=since)
    waited = (clean["t"] - last["t"]) * NS
    # from update command to update command: each follows the policy's own
    # time stamp by the frame's drawing (tens of ms)
    assert clean["kind"] == "full" and abs(waited - IDLE_CLEAN_MS / 1000) < 0.5, (clean, waited)
    same_pixels(pico, twin, "the screen cleaned after idle")
    after = refreshes(pico)
    assert after == dict(before, full=before["full"] + 1, clean=1)
    assert pico.violations() == []

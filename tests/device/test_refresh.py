"""The panel refresh policy (design §6): full at power-on, on every shuffle,
every few updates and after idle; fast for flips; partial for menus where
the panel can."""

from tests.device.support import IDLE_CLEAN_MS  # puts firmware/ on the path
import refresh  # noqa: E402
from refresh import RefreshPolicy  # noqa: E402


def test_power_on_then_fast_flips_then_a_periodic_full():
    p = RefreshPolicy()
    modes = [p.mode("flip", 0) for _ in range(1 + 2 * RefreshPolicy.FULL_EVERY)]
    assert modes[0] == "full"
    assert modes[1:1 + RefreshPolicy.FULL_EVERY] == ["fast"] * RefreshPolicy.FULL_EVERY
    assert modes[1 + RefreshPolicy.FULL_EVERY] == "full"


def test_a_shuffle_forces_a_clean_refresh():
    p = RefreshPolicy()
    p.mode("home", 0)
    p.mode("flip", 0)
    p.clean_next()
    assert p.mode("flip", 0) == "full" and p.mode("flip", 0) == "fast"


def test_menus_use_partial_updates_only_where_the_panel_can():
    p = RefreshPolicy(can_partial=True)
    p.mode("home", 0)
    assert p.mode("menu", 0) == "partial" and p.mode("flip", 0) == "fast"
    q = RefreshPolicy(can_partial=False)
    q.mode("home", 0)
    assert q.mode("menu", 0) == "fast"
    assert p.counts == {"full": 1, "fast": 1, "partial": 1, "clean": 0}


def test_the_tunable_is_a_class_attribute():
    class Eager(RefreshPolicy):
        FULL_EVERY = 2

    p = Eager()
    assert [p.mode("flip", 0) for _ in range(4)] == ["full", "fast", "fast", "full"]


def test_a_board_powered_up_by_a_press_resumes_without_a_clean_refresh():
    """Issue 12: the press that powers a Badger up (or wakes a MagTag) is
    drawn with a fast update; the clean refresh still comes every
    FULL_EVERY + 1 updates, counted from the game's command count."""
    n = RefreshPolicy.FULL_EVERY
    p = RefreshPolicy()
    p.resume(3)
    assert p.mode("flip", 0) == "fast"
    modes = []
    for count in range(1, 3 * (n + 1)):
        q = RefreshPolicy()
        q.resume(count - 1)  # a boot before each command: the mode of that command's screen
        modes.append(q.mode("flip", 0))
    assert [i + 1 for i, m in enumerate(modes) if m == "full"] == [n + 1, 2 * (n + 1)]


def test_a_panel_left_on_fast_updates_is_cleaned_after_idle():
    """Issue 29: an awake board whose panel sat _IDLE_CLEAN_MS on fast
    updates draws the same screen again with a full refresh, counted as a
    clean one; a clean panel, or a shorter pause, gets none."""
    idle_ms = IDLE_CLEAN_MS
    p = RefreshPolicy()
    assert p.mode("home", 5) == "full" and p.shown == 5
    assert not p.idle(10 * idle_ms)  # the panel is clean
    assert p.mode("flip", 1000) == "fast" and p.shown == 1000
    assert not p.idle(idle_ms - 1)
    assert p.idle(idle_ms)
    assert p.mode("flip", 1000 + idle_ms) == "full"  # the same screen, cleaned
    assert p.counts == {"full": 2, "fast": 1, "partial": 0, "clean": 1}
    assert not p.idle(10 * idle_ms) and p.mode("home", 0) == "fast"  # clean again: the count starts over
    assert p.since_full == 1


def test_the_idle_threshold_keeps_to_the_panel_makers_interval():
    # Waveshare's precautions: at least 180 s between refreshes; PDi's
    # Fast Update guide: a global update within 30 s of a fast one
    # (a const: MicroPython folds it away, CPython keeps the name)
    assert getattr(refresh, "_IDLE_CLEAN_MS", IDLE_CLEAN_MS) == IDLE_CLEAN_MS == 180 * 1000

"""The panel refresh policy (design §6): full at power-on, on every shuffle
and every few updates; fast for flips; partial for menus where the panel can."""

from tests.device import support  # noqa: F401 -- puts firmware/ on the path
from refresh import RefreshPolicy  # noqa: E402


def test_power_on_then_fast_flips_then_a_periodic_full():
    p = RefreshPolicy()
    modes = [p.mode("flip") for _ in range(1 + 2 * RefreshPolicy.FULL_EVERY)]
    assert modes[0] == "full"
    assert modes[1:1 + RefreshPolicy.FULL_EVERY] == ["fast"] * RefreshPolicy.FULL_EVERY
    assert modes[1 + RefreshPolicy.FULL_EVERY] == "full"


def test_a_shuffle_forces_a_clean_refresh():
    p = RefreshPolicy()
    p.mode("home")
    p.mode("flip")
    p.shuffled()
    assert p.mode("flip") == "full" and p.mode("flip") == "fast"


def test_menus_use_partial_updates_only_where_the_panel_can():
    p = RefreshPolicy(can_partial=True)
    p.mode("home")
    assert p.mode("menu") == "partial" and p.mode("flip") == "fast"
    q = RefreshPolicy(can_partial=False)
    q.mode("home")
    assert q.mode("menu") == "fast"
    assert p.counts == {"full": 1, "fast": 1, "partial": 1}


def test_the_tunable_is_a_class_attribute():
    class Eager(RefreshPolicy):
        FULL_EVERY = 2

    p = Eager()
    assert [p.mode("flip") for _ in range(4)] == ["full", "fast", "fast", "full"]


def test_a_board_powered_up_by_a_press_resumes_without_a_clean_refresh():
    """Issue 12: the press that powers a Badger up (or wakes a MagTag) is
    drawn with a fast update; the clean refresh still comes every
    FULL_EVERY + 1 updates, counted from the game's command count."""
    n = RefreshPolicy.FULL_EVERY
    p = RefreshPolicy()
    p.resume(3)
    assert p.mode("flip") == "fast"
    modes = []
    for count in range(1, 3 * (n + 1)):
        q = RefreshPolicy()
        q.resume(count - 1)  # a boot before each command: the mode of that command's screen
        modes.append(q.mode("flip"))
    assert [i + 1 for i, m in enumerate(modes) if m == "full"] == [n + 1, 2 * (n + 1)]

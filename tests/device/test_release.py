"""Modules of the menus, dropped at the home screen when the heap runs low
(app.release_modules: the stock MicroPython image copies every module's
code into the heap) and loaded again when next opened, on both runtimes."""

import sys

from tests.device.support import make_app


def test_the_main_menu_opens_again_after_its_modules_were_released():
    import app as A

    a = make_app()
    a.press("C")
    first = a.ui.view()
    assert first["screen"] == "menu"
    assert "deck.menus" in sys.modules
    a.press("A")  # back home: with room to spare nothing goes
    assert not a.ui.stack
    assert "deck.menus" in sys.modules
    loaded = len([n for n in A.RELEASABLE if n in sys.modules])  # menus, and any an earlier suite module loaded
    assert A.release_modules(below=1 << 40) in (0, loaded)  # CPython has no gc.mem_free: nothing to gain there
    if hasattr(__import__("gc"), "mem_free"):
        assert "deck.menus" not in sys.modules
    a.press("C")  # imported anew: the same menu
    assert a.ui.view() == first
    assert "deck.menus" in sys.modules


def test_nothing_is_released_while_a_menu_is_open():
    import app as A

    a = make_app()
    a.press("C")
    saved = A.RELEASE_BELOW
    A.RELEASE_BELOW = 1 << 40
    try:
        a.press("DOWN")  # a menu is open: its module stays, whatever the heap
        assert "deck.menus" in sys.modules
        a.press("UP")
        assert a.ui.view()["selected"] == 0
    finally:
        A.RELEASE_BELOW = saved


def test_the_save_reader_leaves_the_heap_once_the_game_is_up():
    """Reading the save back is power-on's (and a restore's) work: on a board
    its module is dropped after boot, and a restore loads it again."""
    import app as A

    first = make_app()
    a = make_app(first.board)  # powered on again: the save is read back
    assert a.game.digest() == first.game.digest()
    if hasattr(__import__("gc"), "mem_free"):
        assert [n for n in A.BOOT_ONLY if n in sys.modules] == []
    text = a.game.dump()
    assert type(a.game).load(text).dump() == text  # and back when wanted


def test_the_rarer_commands_code_leaves_with_the_menus_and_comes_back():
    """A weapon added and dropped (the gear commands, loaded on first use):
    where the code sits in the heap, the home screen's release takes their
    module out of sys.modules, and the next gear command loads it again,
    with the same outcome as on a board that kept it. Damage's rules (a
    mixin, Game's own once loaded) stay."""
    import app as A

    def session(a, release):
        for op, args in (("gear_add", {"name": "Axe", "kind": "weapon"}), ("damage", {"power": 2, "wounds": 1}),
                         ("gear_add", {"name": "Rope"}), ("gear_drop", {"name": "Axe"}), ("damage", {"power": 1, "wounds": 1})):
            a.game.do(op, args)
            if release:
                A.release_modules(below=0)
        return a.game.dump()

    kept = session(make_app(seed=11), False)
    assert "shared_rules.deck.gear" in sys.modules
    released = make_app(seed=11)
    assert session(released, True) == kept
    if hasattr(__import__("gc"), "mem_free"):  # where release_modules works (MicroPython)
        assert "shared_rules.deck.gear" not in sys.modules
        assert "shared_rules.deck.combat" in sys.modules

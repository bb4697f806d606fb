"""A board loads one system: a device with a Deckahedron save never
imports Facets, and one with a Facets save never imports the Deckahedron's
rules engine or its screens (MicroPython unix port, the real App on a fake
board). (shared_rules.deck.state and the renderer still bring the card tables.)"""

import subprocess

from tests.host.test_micropython_suite import ROOT, find_tool

PRELUDE = """
import sys
sys.path.insert(0, %r)
sys.path.append(%r)
from tests.device.support import FakeBoard
from app import App
"""

MAKE = """
app = App(FakeBoard(FLASH), "dev1", 3)
app.boot()
if SYSTEM != "deck":
    app.new_game(5, system=SYSTEM)
app.commit()
"""

BOOT = """
app = App(FakeBoard(FLASH), "dev1", 3)
app.boot()
app.ui.press("B")
app.ui.press("A")
app.commit()
print(app.game.SYSTEM)
print(" ".join(sorted(k for k in sys.modules)))
"""


def booted_modules(tmp_path, system):
    flash = tmp_path / system
    flash.mkdir()
    flash = str(flash)
    head = PRELUDE % (str(ROOT), str(ROOT / "firmware")) + "FLASH = %r\nSYSTEM = %r\n" % (flash, system)
    for body in (MAKE, BOOT):
        proc = subprocess.run([find_tool("micropython"), "-c", head + body], cwd=str(ROOT),
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    return lines[-2], lines[-1].split()


def test_a_deckahedron_board_never_imports_facets(tmp_path):
    system, modules = booted_modules(tmp_path, "deck")
    assert system == "deck"
    assert [m for m in modules if "facets" in m] == []


def test_a_facets_board_never_imports_the_deckahedron(tmp_path):
    system, modules = booted_modules(tmp_path, "facets")
    assert system == "facets"
    assert "facets.ui" in modules and "shared_rules.facets.game" in modules
    for deck in ("deck", "deck.ui", "deck.gear_menus", "shared_rules.deck.game", "shared_rules.deck.flips", "shared_rules.deck.odds",
                 "shared_rules.deck.combat", "shared_rules.deck.recovery", "shared_rules.facets.words"):
        assert deck not in modules, deck


def test_a_deckahedron_board_that_flips_loads_no_combat_recovery_or_advancement(tmp_path):
    """Those rules join the game when first used (shared_rules/deck/game.py
    MIXINS): a board that boots and flips pays no heap for them, nor for
    the main menu or the editions it does not play."""
    system, modules = booted_modules(tmp_path, "deck")
    assert system == "deck" and "shared_rules.deck.game" in modules
    for lazy in ("shared_rules.deck.combat", "shared_rules.deck.recovery", "shared_rules.deck.advancement", "deck.menus",
                 "shared_rules.deck.edition_changes", "shared_rules.deck.words"):  # the host's words: never on a board
        assert lazy not in modules, lazy

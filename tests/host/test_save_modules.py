"""A board playing SAVE 2d6 loads SAVE's modules, not the Deckahedron's
rules or screens (issue 11: "a system not in use should not cost heap").
A fresh MicroPython boots the real App from a SAVE save and plays."""

import subprocess

from tests.host.test_micropython_suite import ROOT, find_tool

SCRIPT = """
import sys
sys.path.insert(0, ".")
sys.path.append("firmware")
from tests.device.support import FakeBoard, make_app, press
b = FakeBoard()
app = make_app(b)
app.new_game(5, system="save")
app.commit()
flash = b.flash_dir
for k in list(sys.modules):
    if k.split(".")[0] in ("shared_rules", "deck", "save2d6", "widgets", "app"):
        del sys.modules[k]
app = make_app(FakeBoard(flash))
press(app, "B", "A", "C", "DOWN", "B", "A", "C", "DOWN", "DOWN", "DOWN", "B")
print(app.game.SYSTEM)
print(" ".join(sorted(sys.modules)))
"""


def test_a_save_board_loads_no_deckahedron_rules_or_screens():
    proc = subprocess.run([find_tool("micropython"), "-c", SCRIPT], cwd=str(ROOT), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    system, modules = proc.stdout.splitlines()[-2:]
    modules = modules.split()
    assert system == "save" and "save2d6.ui" in modules and "shared_rules.save2d6.game" in modules
    for deck in ("deck", "deck.ui", "deck.gear_menus", "shared_rules.deck.game", "shared_rules.deck.advancement",
                 "shared_rules.deck.combat", "shared_rules.deck.recovery", "shared_rules.deck.flips", "shared_rules.deck.odds",
                 "shared_rules.facets.game"):
        assert deck not in modules, deck

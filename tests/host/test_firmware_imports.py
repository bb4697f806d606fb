"""The host loads the device's modules one way (host_tools.firmware_importable:
firmware/ on sys.path, imported by their device names), so each loads once:
issue 26 found `ui` and `widgets` loaded twice as different modules (two
Menu classes) when half the host spelled them `firmware.ui`."""

import subprocess
import sys

from tests.host.test_micropython_suite import ROOT

# Every host path that loads firmware modules, then what is loaded.
PROBE = """
import sys
import host_tools.flashing.card_faces, host_tools.power, host_tools.commands.quickref, host_tools.table.replies
import host_tools.screens.core
import tests.host.device_double
from host_tools.screens import deck, facets, save2d6
deck.views(); facets.views(); save2d6.views()
import menu_widgets, render
from deck import menus
assert menus.Menu is menu_widgets.Menu
print(sorted(name for name in sys.modules if name.startswith("firmware")))
print(sorted(name for name, m in sys.modules.items() if (getattr(m, "__file__", "") or "").endswith("widgets.py")))
"""


def test_one_process_loads_each_firmware_module_once():
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=str(ROOT), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    firmware_named, widgets = out.stdout.splitlines()[-2:]
    assert firmware_named == "[]"  # nothing imported as firmware.X
    assert widgets == "['menu_widgets', 'widgets']"


def test_no_firmware_module_shadows_the_standard_library():
    """firmware/ goes first on the host's sys.path: a module there named like
    one of the standard library's (firmware/code.py did) would shadow it."""
    ours = {p.stem for p in (ROOT / "firmware").glob("*.py")} | {p.name for p in (ROOT / "firmware").iterdir()
                                                                if p.is_dir()}
    assert not ours & set(sys.stdlib_module_names), sorted(ours & set(sys.stdlib_module_names))

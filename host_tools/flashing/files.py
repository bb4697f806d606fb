"""Which repo files a board runs, and where they land on it.

A MicroPython board gets main.py (firmware/entry/main.py, at its
filesystem's root: MicroPython runs main.py from there at boot) and the device code: every firmware/*.py
module and each system's folder (firmware/deck/, facets/, save2d6/), boards/__init__.py, boards/usbserial.py, the registry
boards/boards.json, the board's own module (named in the registry), the
panel drivers (firmware/drivers/), and shared_rules/ with every system's
folder, less deck/walk.py (seeded command sessions for tests and
benchmarks; nothing on the device imports it) and each system's words.py
(the host's phrasing; the device's result words are results.py). The MagTag (CircuitPython) gets code.py and boot.py instead of main.py,
its board module and no drivers. Board paths are relative to the root of
the board's filesystem (or of the ROMFS image).
"""

from pathlib import Path

import host_tools
from host_tools import boards as registry
from host_tools.flashing import FlashError
from shared_rules import systems

ROOT = Path(host_tools.ROOT)

CONFIG = "deckahedron.cfg"
SAVE_FILES = ("deck.sav", "deck.tmp", "deck.bad")
# On CIRCUITPY: the game's folder (boards/circuitpython.py FLASH_DIR) with those and the save's
# slots (boards/fat_slots.py); tests/host/flashing/test_magtag.py keeps the three in step
CIRCUITPY_SAVES = tuple("deckahedron/" + p for p in SAVE_FILES + ("slot.pad", "s0/deck.sav", "s1/deck.sav"))
ENTRY_FILES = ("main.py", "code.py", "boot.py")  # run by the runtime at boot, from the filesystem
# the walk is the tests'; each system's words.py is the host's phrasing (a board says its results
# with results.py): neither is on a board, nor its strings in the base image's names
LEFT_OUT = ("shared_rules/deck/walk.py",) + tuple("shared_rules/%s/words.py" % systems.folder(k) for k in systems.KEYS)
COMMON_BOARD_FILES = ("boards/__init__.py", "boards/usbserial.py", "boards/rp2_sleep.py", "boards/fat_slots.py",
                      "boards/slot_reader.py", "boards/boards.json")
RP2_ONLY = ("boards/usbserial.py", "boards/rp2_sleep.py")  # not on a CircuitPython board
CIRCUITPYTHON_ONLY = ("boards/fat_slots.py", "boards/slot_reader.py")  # saves on FAT: littlefs needs none
SYSTEM_FOLDERS = ("deck", "facets", "save2d6")  # each system's screens: firmware/<folder>/ (render.system_module)


class Source:
    """One repo file for the board: ``board_path`` where it lands (a .py may
    be compiled to .mpy on the way), ``local`` the file in the repo."""

    def __init__(self, board_path, local):
        self.board_path = board_path
        self.local = Path(local)

    @property
    def entry(self):
        return self.board_path in ENTRY_FILES

    def __repr__(self):
        return "Source(%r)" % self.board_path


def sleep_settings(board, root=ROOT):
    """{mode: "sleep=MODE"} for a board whose sleep between presses is a
    player's choice (the registry's power modes with a "setting": the
    Badger's off and dormant); {} for a board with one way to sleep."""
    entry = registry.board(board, Path(root) / "firmware" / "boards" / "boards.json")
    modes = (entry.get("power") or {}).get("modes") or {}
    return dict((name, m["setting"]) for name, m in modes.items() if m.get("setting"))


def player_settings(board, text, root=ROOT):
    """The player's own lines of a deckahedron.cfg already on the board
    (today ``sleep=MODE``), to carry into the one the flasher writes:
    ({key: value} kept, [notes on lines left out]). The lines the flasher
    owns (board=, hold=) and the emulator's (seed=, id=) are not carried."""
    kept, notes = {}, []
    allowed = sleep_settings(board, root)
    for line in (text or "").splitlines():
        key, eq, value = (part.strip() for part in line.partition("="))
        if key != "sleep" or not eq:
            continue
        if value in allowed:
            kept["sleep"] = value
        elif allowed:
            notes.append("the board's deckahedron.cfg said sleep=%s, which the %s does not know (%s): it goes "
                         "back to its default" % (value, board, ", ".join(sorted(allowed))))
        else:
            notes.append("the board's deckahedron.cfg said sleep=%s; the %s has one way to sleep, so the line "
                         "goes" % (value, board))
    return kept, notes


def config_text(board, root=ROOT, settings=None):
    """deckahedron.cfg: main.py starts this board without detecting it.
    A board with a power latch in the registry (the Badger's ENABLE_3V3)
    stays on, on battery, only while that pin is high: ``hold=PIN`` comes
    first so main.py can drive it before reading anything else. settings:
    the player's choices ({"sleep": MODE}), after the board line."""
    entry = registry.board(board, Path(root) / "firmware" / "boards" / "boards.json")
    latch = (entry.get("pins") or {}).get("power_latch")
    hold = "" if latch is None else "hold=%d\n" % latch
    extra = ""
    sleep = (settings or {}).get("sleep")
    if sleep is not None:
        if sleep not in sleep_settings(board, root):
            raise FlashError("the %s has no sleep mode %r" % (board, sleep))
        extra = "sleep=%s\n" % sleep
    return "%sboard=%s\n%s" % (hold, board, extra)


def _module_path(module):
    return module.replace(".", "/") + ".py"


def device_files(board, root=ROOT):
    """The Sources for `board`, sorted by board path; FlashError when a file
    the board needs is missing from the checkout."""
    root = Path(root)
    entry = registry.board(board, root / "firmware" / "boards" / "boards.json")
    fw = root / "firmware"
    circuitpython = entry["runtime"] == "circuitpython"
    wanted = [f.relative_to(fw).as_posix() for d in (fw,) + SYSTEM_FOLDERS for f in sorted((fw / d).glob("*.py"))]
    wanted += [p for p in COMMON_BOARD_FILES if p not in (RP2_ONLY if circuitpython else CIRCUITPYTHON_ONLY)]
    wanted.append(_module_path(entry["module"]))
    if "extends" in entry:  # the module its board class builds on
        wanted.append(_module_path(entry["extends"]))
    if not circuitpython:
        wanted += ["drivers/" + f.name for f in sorted((fw / "drivers").glob("*.py"))]
    out = {}
    for name in ("code.py", "boot.py") if circuitpython else ("main.py",):  # firmware/entry/, to the root
        out[name] = Source(name, fw / "entry" / name)
    for board_path in wanted:
        local = fw / board_path
        if not local.is_file():
            raise FlashError("firmware/%s is missing from this checkout: the %s board needs it" % (board_path, board))
        out[board_path] = Source(board_path, local)
    for f in sorted((root / "shared_rules").rglob("*.py")):  # the core and each system's folder
        board_path = f.relative_to(root).as_posix()
        if board_path not in LEFT_OUT:
            out[board_path] = Source(board_path, f)
    return [out[k] for k in sorted(out)]

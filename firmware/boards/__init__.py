"""Board modules: each hides one target's hardware behind the contract
below (Board), written once: a board subclasses it and overrides what its
hardware has, the rest stays these no-op defaults, so the app never asks a
board what it can do. The facts of each board (module, class, pins) are in
boards.json beside this file, the registry the host reads too; spec(name)
gives one board's entry.
"""

REGISTRY = "boards/boards.json"
DEVICE_KEYS = ("runtime", "module", "class", "panel", "pins")  # what the device keeps of its entry
_cache = [None, None]  # (name, entry) of the last board asked for


class Board:
    """A board must give name, flash_dir (the folder its files go in) and
    serial_read(timeout_ms) -> bytes, serial_write(text), buttons() -> names
    pressed since the last call, show(buf, mode) ("full", "fast" or
    "partial": refresh.py decides), entropy() -> int seed."""

    width, height = 296, 128
    can_partial = False  # the panel does partial updates
    can_sleep = False  # power_off() sleeps until a press (or cuts the power)
    woke = None  # what woke the board for this boot: "button", "rtc", ...
    surface = None  # CircuitPython: the Surface drawn into the panel's bitmap (no framebuf)
    save_store = None  # the save's writer: saves.Storage, or a class of the board's (boards/fat_slots.py)

    # The optional capabilities, no-ops by default; two function objects
    # in all, not one each (every one takes heap on a board). What each
    # does where a board has it:
    #   battery() volts (None: cannot tell); usb_powered() True on USB
    #   power (None: cannot tell); held(name) a button held now;
    #   log(text) a crash's traceback beside crash.log; reset() restart
    #   into the save after a crash; start_watchdog(ms), stop_watchdog(),
    #   feed() once a loop; woken_by(levels) the GPIO levels main.py read
    #   at a wake; set_sleep(mode) deckahedron.cfg's sleep=MODE;
    #   sleep_after_ms() idle this long, then power_off() (None: the app's
    #   long idle); sleep_loses_ram() a sleep that restarts the code;
    #   deinit() let go of what CircuitPython's soft reload would
    #   leave pointing into the heap it frees; make_name_table() make
    #   CircuitPython's next table of names while the heap is whole.
    def _nothing(self, *args):
        return None

    def _no(self, *args):
        return False

    battery = usb_powered = sleep_after_ms = log = reset = start_watchdog = stop_watchdog = feed = _nothing
    woken_by = set_sleep = power_off = deinit = make_name_table = _nothing
    held = sleep_loses_ram = _no


def spec(name):
    """The registry entry of board `name` (a dict), read from boards.json
    where the import path finds the board modules: beside main.py in the
    simulator, /rom on an RP2040 board with the code in ROMFS, the flash
    root for a plain install. Only what the device uses of that board's
    entry is kept (DEVICE_KEYS): the host's facts (power figures, notes)
    are dropped with the parse."""
    if _cache[0] == name:
        return _cache[1]
    import json
    import sys

    for d in sys.path:
        try:
            f = open(d + "/" + REGISTRY if d else REGISTRY)
        except OSError:
            continue
        with f:
            boards = json.load(f)["boards"]
        if name not in boards:
            raise ValueError("unknown board %r: known boards are %s" % (name, ", ".join(sorted(boards))))
        entry = boards[name]
        boards = None  # the other boards' facts go with the parse
        _cache[0], _cache[1] = name, dict((k, entry[k]) for k in DEVICE_KEYS if k in entry)
        return _cache[1]
    raise OSError("boards/boards.json is not on the import path")

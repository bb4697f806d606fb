"""Board modules: each hides one target's hardware behind the same small
interface (see sim.py for the reference): flash_dir, width/height,
serial_read(timeout_ms) -> bytes, serial_write(text), buttons() -> names
pressed since the last call, show(buf, mode) with mode "full", "fast" or
"partial" (refresh.py decides; can_partial says whether the panel does
partial updates), battery() -> volts or None, entropy() -> int seed.

The facts of each board (module, class, pins) are in boards.json beside
this file, the registry the host reads too; spec(name) gives one board's
entry.
"""

REGISTRY = "boards/boards.json"
DEVICE_KEYS = ("runtime", "module", "class", "panel", "pins")  # what the device keeps of its entry
_cache = [None, None]  # (name, entry) of the last board asked for


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

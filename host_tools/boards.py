"""The board registry, firmware/boards/boards.json, read on the host.

The device reads the same file at boot (firmware/boards/__init__.py, for
its own board's module, class and pins); the flasher, the image builder,
the power model, the wiring diagram and the guides' tests read it here.
One place for each board fact, read as data: no code of the firmware is
run or parsed.
"""

import json
from pathlib import Path

import host_tools

ROOT = Path(host_tools.ROOT)
REGISTRY = ROOT / "firmware" / "boards" / "boards.json"


def load(path=REGISTRY):
    """{name: entry} of every board."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)["boards"]


def board(name, path=REGISTRY):
    boards = load(path)
    if name not in boards:
        raise KeyError("unknown board %r: the registry (firmware/boards/boards.json) knows %s"
                       % (name, ", ".join(sorted(boards))))
    return boards[name]


def real_boards(path=REGISTRY):
    """{name: entry} of the boards a person can flash (every one but the simulator)."""
    return dict((k, v) for k, v in load(path).items() if k != "sim")


def usb_ids(runtime=None, path=REGISTRY):
    """{(vendor id, product id)} of the real boards as they appear on USB
    (their "usb" entries, "vid:pid" in hex); only those of `runtime` when given."""
    return set(tuple(int(x, 16) for x in u.split(":"))
               for entry in real_boards(path).values() if runtime in (None, entry["runtime"])
               for u in entry.get("usb", ()))

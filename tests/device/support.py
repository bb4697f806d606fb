"""A fake board for the device app's portable tests (CPython and MicroPython).

Serial output is collected in ``board.sent``; the flash is a fresh folder
under build/; nothing is drawn (the tests press buttons through the Ui and
never call App.show, which needs the MicroPython renderer).
"""

import os
import sys

if "firmware" not in sys.path:
    sys.path.append("firmware")

import saves  # noqa: E402
from boards import Board  # noqa: E402
from shared_rules import protocol as P  # noqa: E402

# The fake flash is a folder on the host's disk, where os.sync() (CPython's;
# the unix port has none) flushes every disk of the machine: ~1 ms a save
# alone, far more beside other tests' writes, and no test here cuts the
# host's power. A board's own sync is the emulated boards' tests'.
saves._sync = lambda: None

_n = [0]
# firmware/refresh.py's _IDLE_CLEAN_MS: a const, which MicroPython folds
# into the code (no module attribute there); test_refresh checks it on CPython
IDLE_CLEAN_MS = 180 * 1000


def _mkdirs(path):
    here = ""
    for part in path.split("/"):
        here = part if not here else here + "/" + part
        try:
            os.mkdir(here)
        except OSError:
            pass


def fresh_dir():
    _n[0] += 1
    tag = "".join("%02x" % b for b in os.urandom(4))
    path = "build/test-flash/%s-%d" % (tag, _n[0])
    _mkdirs(path)
    return path


class FakeBoard(Board):
    name = "fake"

    def __init__(self, flash_dir=None):
        self.flash_dir = flash_dir or fresh_dir()
        self.sent = []
        self.inbox = b""
        self.pressed = []
        self.shown = []

    def serial_read(self, timeout_ms):
        data, self.inbox = self.inbox, b""
        return data

    def serial_write(self, text):
        self.sent.append(text)

    def buttons(self):
        out, self.pressed = self.pressed, []
        return out

    def show(self, buf, mode):
        self.shown.append(mode)

    def battery(self):
        return 3.9

    def entropy(self):
        return 12345

    def frames(self, kind=None):
        out = []
        for line in self.sent:
            f = P.decode(line)
            if kind is None or f[0] == kind:
                out.append(f)
        return out


def event_frames(link):
    """[(seq, frame line)] of the link's kept events, read back where saved."""
    from endpoint import EVENTS

    out = []
    link._each_kept(EVENTS, lambda num, line: out.append((num, line)))
    return out


def kept(link, k=1):
    """The link's kept lines of kind k (endpoint.EVENTS, 1, or REPLIES, 0)
    as [number, frame or None once saved, offset in the save (-1 before),
    size]."""
    a = link.kept[k]
    return [[a[i], link.lines[k].get(a[i]) if a[i + 1] < 0 else None, a[i + 1], a[i + 2]]
            for i in range(0, len(a), 3)]


def make_app(board=None, seed=7):
    from app import App

    app = App(board or FakeBoard(), "dev1", seed)
    app.boot()
    return app


def with_game(app, game):
    """Swap in a game with a known deck (tests.rules.support.stacked)."""
    app.game = game
    app.ui.reset()
    app.save()
    return app


def saved_text(app):
    """The save file as the device wrote it."""
    with open(app.board.flash_dir + "/deck.sav") as f:
        return f.read()


def press(app, *buttons):
    for b in buttons:
        app.ui.press(b)
        app.commit()
    return app.ui.view()


def solo_flip(app, push=None):
    """What a player alone does: flip with B and finish it (A done, a tie
    picked with B, a critical success declined), reshuffling by the menu when
    the deck runs low. ``push(button)`` presses (default: through the Ui)."""
    push = push or (lambda b: press(app, b))
    if len(app.game.s.draw) < 4:
        for b in ("C",) + ("DOWN",) * 4 + ("B",) + ("DOWN",) * 3 + ("B",):  # Menu > XP & cards > Reshuffle
            push(b)
    push("B")
    for _ in range(8):
        v = app.ui.view()
        if v["screen"] == "home":
            return
        if v["screen"] == "menu":
            push("UP")  # the last row: "No thanks"
            push("B")
        elif v["screen"] == "flip" and v["phase"] == "choose":
            push("B")
        else:
            push("A")
    raise AssertionError("the flip did not finish: %r" % (app.ui.view(),))


def request(app, rid, op, **args):
    """Feed one request frame through the link; returns the decoded reply."""
    before = len(app.board.sent)
    if app.link.feed(P.request(rid, op, args).encode(), app.handle):
        app.need_save = True
    app.commit()
    for line in app.board.sent[before:]:
        f = P.decode(line)
        if f[0] == "R" and f[1] == rid:
            return f[2]
    raise AssertionError("no reply to request %d" % rid)


def fetch_parts(app, first_rid, op):
    """Join a large reply sent in parts (backup, state, screen); returns
    (text, last reply)."""
    parts, i, n = [], 0, 1
    while i < n:
        ok, r = request(app, first_rid + i, op, part=i)
        assert ok, r
        n = r["parts"]
        parts.append(r["data"])
        i += 1
    return "".join(parts), r


def choose(app, *rows):
    """From home, open the menu (C) and choose each row by its label's start
    (DOWN until the cursor is on it, then B); returns the view reached."""
    v = press(app, "C")
    for row in rows:
        assert v["screen"] == "menu", v
        for _ in range(len(v["items"])):
            if v["items"][v["selected"]].strip(" *").startswith(row):
                break
            v = press(app, "DOWN")
        else:
            raise AssertionError("no row %r in %r" % (row, v["items"]))
        v = press(app, "B")
    return v

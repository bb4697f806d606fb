"""A fake Deckahedron device in CPython, for testing the host side.

It speaks the device side of shared_rules/protocol.py (docs/protocol.md) on a
file descriptor pair, backed by shared_rules.game.Game: it remembers replies
by request id, keeps unacknowledged events and sends them again after
``hello`` and ``events``, answers damaged and oversized lines with ``R 0 err``,
and flips a card (an ``end_flip`` event) on ``press B``. Where the real
firmware (firmware/app.py, firmware/endpoint.py) made a choice the contract
left open, the fake follows it: ``state`` comes as JSON text in parts, a
line that does not start with Q/R/E/A is ignored, restore errors are
``bad_restore``.

Two ways to run it:

* in a test, ``FakeDevice().start()`` serves a fresh pty in a thread; its
  ``port`` is a symlink to the pty slave, so ``replug()`` can swap in a new
  pty under the same path (a USB device unplugged and plugged in again);
* as a program, ``python tests/host/fake_device.py --board sim --dir D --id N``
  serves stdin/stdout like the firmware's sim board (host_tools.simboards can
  run it instead of MicroPython), saving its state under D.

Test hooks (counters of what to do to the next matching frames):
``drop_reply[op]`` (act, remember, but do not send the reply),
``corrupt_reply[op]`` (send the reply with one byte changed),
``corrupt_incoming`` (treat the next N incoming lines as damaged),
``drop_events`` (do not send the next N events when first emitted),
``corrupt_events`` (send the next N events damaged), ``after_op[op]`` (a
function called with the device once, after the next ``op`` ran: to change
the state between two parts of a backup, say).
The fake's ``hello`` adds ``pid`` and ``dir`` (its process and flash folder)
for the tests; the firmware need not.
"""

import base64
import collections
import json
import os
import select
import sys
import tempfile
import threading
import time
import tty

if __name__ == "__main__":  # run as a program from anywhere
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from shared_rules import protocol as P
from shared_rules.errors import RulesError
from shared_rules.game import Game
from shared_rules.state import text_digest

W, H = 296, 128
REMEMBER = 32  # replies remembered by id
MAX_PENDING = 64


class FakeDevice:
    def __init__(self, name="fake", seed=1, flash_dir=None, banner=False):
        self.name = name
        self.player = name
        self.seed = seed
        self.flash_dir = flash_dir
        self.banner = banner
        self.lock = threading.RLock()
        self.game = Game.new(seed=seed)
        self.replies = collections.OrderedDict()
        self.pending = []  # [(seq, payload)] not yet acknowledged
        self.next_seq = 1
        self.applied = collections.Counter()  # op -> times it really ran
        self.received = []  # decoded (kind, num, payload) of every good line
        self.bad_lines = collections.Counter()  # code -> count
        self.acks = []
        self.drop_reply = collections.Counter()
        self.corrupt_reply = collections.Counter()
        self.corrupt_incoming = 0
        self.drop_events = 0
        self.corrupt_events = 0
        self.after_op = {}
        self.restore_buf = None
        self.t0 = time.monotonic()
        self.out_fd = None
        self._thread = None
        self._stop = threading.Event()
        self._master = self._slave = None
        self._link_dir = None
        self.port = None
        self.tty_path = None
        self._load()

    # -- persistence (stdio mode: survives a restart of the process) ---------
    def _save(self):
        if not self.flash_dir:
            return
        data = {"state": self.game.dump(), "pending": self.pending, "next_seq": self.next_seq,
                "player": self.player, "replies": list(self.replies.items())}
        tmp = os.path.join(self.flash_dir, "fake.json.tmp")
        with open(tmp, "w") as f:
            json.dump(data, f)
        os.replace(tmp, os.path.join(self.flash_dir, "fake.json"))

    def _load(self):
        if not self.flash_dir:
            return
        os.makedirs(self.flash_dir, exist_ok=True)
        path = os.path.join(self.flash_dir, "fake.json")
        if not os.path.exists(path):
            return
        with open(path) as f:
            data = json.load(f)
        self.game = Game.load(data["state"])
        self.pending = [tuple(p) for p in data["pending"]]
        self.next_seq = data["next_seq"]
        self.player = data["player"]
        self.replies = collections.OrderedDict((int(k), v) for k, v in data["replies"])

    # -- output -------------------------------------------------------------
    def send(self, line):
        with self.lock:
            if self.out_fd is None:
                return
            data = line.encode() if isinstance(line, str) else line
            try:
                while data:
                    n = os.write(self.out_fd, data)
                    data = data[n:]
            except OSError:
                pass

    def ticks(self):
        return int((time.monotonic() - self.t0) * 1000)

    # -- events -------------------------------------------------------------
    def emit(self, payload):
        with self.lock:
            seq = self.next_seq
            self.next_seq += 1
            self.pending.append((seq, payload))
            del self.pending[:-MAX_PENDING]
            self._save()
            if self.drop_events:
                self.drop_events -= 1
                return seq
            line = P.event(seq, payload)
            if self.corrupt_events:
                self.corrupt_events -= 1
                line = line.replace('"op"', '"oq"', 1)
            self.send(line)
            return seq

    def replay(self):
        with self.lock:
            for seq, payload in list(self.pending):
                self.send(P.event(seq, payload))

    def button(self, name):
        """A physical button press. B flips (crown, net 0) and ends the flip."""
        with self.lock:
            if name not in P.BUTTONS:
                raise RulesError("bad_args", "button must be one of %s" % ", ".join(P.BUTTONS))
            if name != "B":
                return {"button": name}
            g = self.game
            if g.s.flip is None:
                g.do("flip", {"suit": "crown", "net": 0})
            flip = g.flip_view()
            if flip["phase"] == "choose":
                g.do("choose", {"card": flip["tied"][0]})
                flip = g.flip_view()
            result = g.do("end_flip", {})
            self.applied["end_flip"] += 1
            payload = {"op": "end_flip", "args": {}, "result": result,
                       "flip": {"cards": flip["cards"], "suit": flip["suit"], "level": flip["level"]},
                       "digest": g.digest(), "n": g.s.count, "t": self.ticks()}
            seq = self.emit(payload)
            return {"button": name, "event": seq}

    # -- the screen -----------------------------------------------------------
    def framebuffer(self):
        """296x128 MONO_HLSB, 1 = black: a border and a bar as long as the
        draw pile (so tests can see the state in the picture)."""
        stride = (W + 7) // 8
        buf = bytearray(stride * H)

        def px(x, y):
            buf[y * stride + x // 8] |= 0x80 >> (x % 8)

        for x in range(W):
            px(x, 0)
            px(x, H - 1)
        for y in range(H):
            px(0, y)
            px(W - 1, y)
        for y in range(60, 68):
            for x in range(10, 10 + 10 * len(self.game.s.draw)):
                px(x, y)
        return bytes(buf)

    # -- requests -------------------------------------------------------------
    def execute(self, op, args):
        """Result dict; raises RulesError for an err reply."""
        g = self.game
        if op == "hello":
            return {"device": self.name, "firmware": "fake-1", "protocol": P.VERSION, "board": "fake",
                    "edition": g.s.edition, "campaign": g.s.campaign, "digest": g.digest(),
                    "count": g.s.count, "events": len(self.pending), "name": self.player,
                    "pid": os.getpid(), "dir": self.flash_dir}
        if op == "ping":
            return {"t": self.ticks()}
        if op == "state":  # JSON text in parts, as the firmware sends it (it grows with the piles)
            out = g.summary()
            out["digest"] = g.digest()
            out["name"] = self.player
            parts = P.chunks(json.dumps(out, sort_keys=True))
            part = args.get("part", 0)
            if not isinstance(part, int) or not 0 <= part < len(parts):
                raise RulesError("bad_args", "part must be 0..%d" % (len(parts) - 1))
            return {"parts": len(parts), "part": part, "digest": out["digest"], "data": parts[part]}
        if op == "press":
            button = args.get("button")
            if set(args) != {"button"} or button not in P.BUTTONS:
                raise RulesError("bad_args", "press needs button: one of %s" % ", ".join(P.BUTTONS))
            return self.button(button)
        if op == "screen":
            part = args.get("part", 0)
            text = base64.b64encode(self.framebuffer()).decode()
            parts = P.chunks(text)
            if not isinstance(part, int) or not 0 <= part < len(parts):
                raise RulesError("bad_args", "part must be 0..%d" % (len(parts) - 1))
            return {"w": W, "h": H, "parts": len(parts), "part": part, "data": parts[part]}
        if op == "backup":
            part = args.get("part", 0)
            text = g.dump()
            parts = P.chunks(text)
            if not isinstance(part, int) or not 0 <= part < len(parts):
                raise RulesError("bad_args", "part must be 0..%d" % (len(parts) - 1))
            return {"parts": len(parts), "part": part, "digest": text_digest(text), "data": parts[part]}
        if op == "restore":
            part, parts, digest, data = (args.get(k) for k in ("part", "parts", "digest", "data"))
            if not (isinstance(part, int) and isinstance(parts, int) and 0 <= part < parts
                    and isinstance(digest, str) and isinstance(data, str)):
                raise RulesError("bad_args", "restore needs part, parts, digest and data")
            if part == 0:
                self.restore_buf = {"digest": digest, "parts": parts, "data": []}
            buf = self.restore_buf
            if buf is None or buf["digest"] != digest or buf["parts"] != parts or len(buf["data"]) != part:
                self.restore_buf = None
                raise RulesError("bad_restore", "restore parts out of order: start again from part 0")
            buf["data"].append(data)
            if part < parts - 1:
                return {"restored": False, "digest": g.digest()}
            text = "".join(buf["data"])
            self.restore_buf = None
            if text_digest(text) != digest:
                raise RulesError("bad_restore", "restored text does not match its digest")
            self.game = Game.load(text)
            return {"restored": True, "digest": self.game.digest()}
        if op == "new_game":
            if args.get("confirm") is not True:
                raise RulesError("bad_args", "new_game needs confirm: true")
            self.game = Game.new(seed=args.get("seed", 0), edition_key=args.get("edition", "md"),
                                 campaign=args.get("campaign", "oneshot"),
                                 supply_set=args.get("supply_set", "print"))
            return {"digest": self.game.digest()}
        if op == "set_name":
            name = args.get("name")
            if not isinstance(name, str) or not 1 <= len(name) <= 16:
                raise RulesError("bad_args", "name must be 1..16 characters")
            self.player = name
            return {"name": name}
        if op == "events":
            return {"pending": len(self.pending)}
        if op == "odds":
            return g.odds(args.get("suit"), args.get("net", 0))
        if op in Game.COMMANDS:
            return g.do(op, args)
        raise RulesError("bad_op", "no such command: %s" % op)

    def handle_line(self, line):
        with self.lock:
            if self.corrupt_incoming:
                self.corrupt_incoming -= 1
                line = line[:4] + b"#" + line[5:]
            if line[:1] not in (b"Q", b"R", b"E", b"A"):
                self.bad_lines["noise"] += 1  # a line that does not even start like a frame: ignored
                return
            try:
                kind, num, payload = P.decode(line)
            except P.FrameError as e:
                self.bad_lines[e.code] += 1
                self.send(P.reply_err(0, e.code, e.message))
                return
            self.received.append((kind, num, payload))
            if kind == "A":
                self.acks.append(num)
                before = len(self.pending)
                self.pending = [p for p in self.pending if p[0] > num]
                if len(self.pending) != before:
                    self._save()
                return
            if kind != "Q" or num == 0:
                self.send(P.reply_err(num if kind == "Q" else 0, "bad_frame", "a device takes requests and acks"))
                return
            op, args = payload
            if num in self.replies:
                self.send(self.replies[num])
                return
            try:
                result = self.execute(op, args)
                self.applied[op] += 1
                try:
                    reply = P.reply_ok(num, result)
                except P.FrameError as e:
                    reply = P.reply_err(num, e.code, "the reply would be too long")
            except RulesError as e:
                reply = P.reply_err(num, e.code, e.message)
            except TypeError as e:
                reply = P.reply_err(num, "bad_args", str(e))
            self.replies[num] = reply
            while len(self.replies) > REMEMBER:
                self.replies.popitem(last=False)
            self._save()
            hook = self.after_op.pop(op, None)
            if hook is not None:
                hook(self)
            if self.drop_reply[op] > 0:
                self.drop_reply[op] -= 1
            elif self.corrupt_reply[op] > 0:
                self.corrupt_reply[op] -= 1
                bad = bytearray(reply.encode())
                bad[len(bad) // 2] ^= 0x01
                self.send(bytes(bad))
            else:
                self.send(reply)
            if op in ("hello", "events"):
                self.replay()

    # -- serving ---------------------------------------------------------------
    def serve(self, in_fd, out_fd, stop=None):
        """Serve until EOF/EIO on in_fd (or ``stop`` is set)."""
        self.out_fd = out_fd
        if self.banner:
            self.send(b"MicroPython v1.23.0 on 2024-06-02; fake with unix\r\n")
            self.send(b'Type "help()" for more information.\r\n')
        reader = P.LineReader()
        while stop is None or not stop.is_set():
            try:
                ready, _, _ = select.select([in_fd], [], [], 0.05)
            except (OSError, ValueError):
                break
            if not ready:
                continue
            try:
                data = os.read(in_fd, 4096)
            except OSError:
                break
            if not data:
                break
            for item in reader.feed(data):
                if isinstance(item, P.FrameError):
                    self.bad_lines[item.code] += 1
                    self.send(P.reply_err(0, item.code, item.message))
                else:
                    self.handle_line(item)
        with self.lock:
            self.out_fd = None

    def start(self):
        """Serve a new pty in a thread; ``port`` is a stable symlink to it."""
        if self._link_dir is None:
            self._link_dir = tempfile.mkdtemp(prefix="fakedev-")
            self.port = os.path.join(self._link_dir, "ttyFAKE")
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.tty_path = os.ttyname(self._slave)
        tmp = self.port + ".new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(self.tty_path, tmp)
        os.replace(tmp, self.port)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self.serve, args=(self._master, self._master, self._stop),
                                        name="fake-device-%s" % self.name, daemon=True)
        self._thread.start()
        return self

    def _close_pty(self):
        if self._thread is not None:
            self._stop.set()
            self._thread.join(5)
            self._thread = None
        for fd in (self._master, self._slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = None

    def replug(self):
        """Unplug (the host's open port fails with EIO) and plug in again
        under the same port path. Pending events and remembered replies stay."""
        self._close_pty()
        self.start()

    def stop(self):
        self._close_pty()
        if self._link_dir is not None:
            for name in os.listdir(self._link_dir):
                os.unlink(os.path.join(self._link_dir, name))
            os.rmdir(self._link_dir)
            self._link_dir = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False


def main(argv=None):
    """Stand in for `micropython firmware/main.py --board sim ...`."""
    import argparse

    parser = argparse.ArgumentParser(description="fake Deckahedron device on stdin/stdout")
    parser.add_argument("--board", default="sim")
    parser.add_argument("--dir", required=True)
    parser.add_argument("--id", default="fake")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--banner", action="store_true")
    args = parser.parse_args(argv)
    dev = FakeDevice(name=args.id, seed=args.seed, flash_dir=args.dir, banner=args.banner)
    sys.stderr.write("fake device %s serving stdin/stdout\n" % args.id)
    sys.stderr.flush()
    dev.serve(0, 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

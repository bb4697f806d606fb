"""A small hostile (or broken) device for the table hub's tests: a pty
serving the device side of shared_rules/protocol.py, playing a real game
(shared_rules.deck.game), with configurable bad answers.

    with HostileDevice(state={"supply": ["zz"]}) as dev:
        hub.join("Ann", dev.port)      # Ann is faulty: an unknown card id

``hello``, ``state``: fields replacing the true ones in those replies.
``results``: {op: fields} replacing fields of that command's reply.
``errors``: {op: (code, message)} answered instead of running op.
"""

import json
import os
import select
import threading
import tty

from shared_rules import protocol as P
from shared_rules.errors import RulesError
from shared_rules.deck.game import Game

WIDTH, HEIGHT = 296, 128


class HostileDevice:
    def __init__(self, hello=None, state=None, results=None, errors=None, device="hostile1", seed=3):
        self.bad_hello = dict(hello or {})
        self.bad_state = dict(state or {})
        self.bad_results = dict(results or {})
        self.errors = dict(errors or {})
        self.device = device
        self.game = Game.new(seed=seed)
        self.name = ""
        self.requests = []  # every op asked, in order
        self._upload = []
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="hostile-device", daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self):
        self._stop.set()
        self._thread.join(2)
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def _serve(self):
        reader = P.LineReader()
        while not self._stop.is_set():
            if not select.select([self._master], [], [], 0.05)[0]:
                continue
            try:
                data = os.read(self._master, 4096)
            except OSError:
                return
            for line in reader.feed(data):
                try:
                    kind, num, payload = P.decode(line)
                except P.FrameError:
                    continue
                if kind == "Q":
                    os.write(self._master, self._answer(num, *payload).encode())

    def _answer(self, rid, op, args):
        self.requests.append(op)
        if op in self.errors:
            return P.reply_err(rid, *self.errors[op])
        try:
            result = self._do(op, args)
        except RulesError as e:
            return P.reply_err(rid, e.code, e.message)
        result.update(self.bad_results.get(op, {}))
        return P.reply_ok(rid, result)

    def _parts(self, text, args, extra):
        parts = P.chunks(text)
        i = args.get("part", 0)
        extra.update({"part": i, "parts": len(parts), "data": parts[i]})
        return extra

    def _do(self, op, args):
        g = self.game
        if op == "hello":
            info = {"device": self.device, "firmware": "0.1.0", "protocol": P.VERSION, "board": "sim",
                    "name": self.name, "edition": g.s.edition, "campaign": g.s.campaign, "digest": g.digest(),
                    "count": g.s.count, "game": getattr(g.s, "game", ""), "events": 0, "events_dropped": 0, "problem": "",
                    "panel_error": ""}
            info.update(self.bad_hello)
            return info
        if op in ("ping", "events"):
            return {"pending": 0}
        if op == "set_name":
            self.name = args["name"]
            return {"name": self.name}
        if op == "state":
            out = g.summary()
            out.update({"digest": g.digest(), "name": self.name, "device": self.device})
            out.update(self.bad_state)
            return self._parts(json.dumps(out), args, {"digest": g.digest()})
        if op == "backup":
            return self._parts(g.dump(), args, {"digest": g.digest()})
        if op == "screen":
            import base64

            blank = base64.b64encode(bytes((WIDTH + 7) // 8 * HEIGHT)).decode()
            return self._parts(blank, args, {"w": WIDTH, "h": HEIGHT})
        if op == "restore":
            self._upload = ([] if args["part"] == 0 else self._upload) + [args["data"]]
            if args["part"] < args["parts"] - 1:
                return {"restored": False, "part": args["part"]}
            self.game = Game.load("".join(self._upload))
            return {"restored": True, "digest": self.game.digest()}
        if op == "press":
            return {"screen": "home", "digest": g.digest()}
        result = g.do(op, args)
        result["digest"] = g.digest()
        return result

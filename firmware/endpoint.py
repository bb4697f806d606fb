"""The device end of the serial link (design §5, docs/protocol.md).

Reads frames, answers requests, remembers recent replies by request id (a
retried request gets the remembered reply, never a second action), numbers
and keeps device events until the host acknowledges them, and replays them
after a handshake. What must survive a power cut (events, remembered
replies, the next sequence number) is part of the save file: the app saves
it together with the game state, before the reply goes out.
"""

from shared_rules import protocol as P

REMEMBER = 8  # remembered replies
MAX_EVENTS = 50  # kept unacknowledged; older ones are dropped and counted


class Endpoint:
    def __init__(self, write):
        self.write = write  # function(str line)
        self.reader = P.LineReader()
        self.replies = []  # [rid, line]
        self.events = []  # [seq, line]
        self.seq = 0
        self.dropped = 0
        self.noise = 0
        self.pending = []  # replies to send once the app has saved

    # -- persistence ---------------------------------------------------
    def memory(self):
        return {"replies": self.replies, "events": self.events, "seq": self.seq, "dropped": self.dropped}

    def restore(self, mem):
        self.replies = [list(r) for r in mem.get("replies", [])][-REMEMBER:]
        self.events = [list(e) for e in mem.get("events", [])][-MAX_EVENTS:]
        self.seq = int(mem.get("seq", 0))
        self.dropped = int(mem.get("dropped", 0))

    # -- incoming --------------------------------------------------------
    def feed(self, data, handle):
        """Bytes from the port. ``handle(op, args)`` returns (mutating,
        ok, result) where result is the reply dict or (code, message).
        Returns True when something changed that must be saved."""
        changed = False
        for item in self.reader.feed(data):
            if isinstance(item, P.FrameError):
                self.write(P.reply_err(0, item.code, item.message))
                continue
            if item[:1] not in (b"Q", b"A", b"R", b"E"):
                self.noise += 1  # a REPL echo or banner: not ours
                continue
            try:
                kind, num, payload = P.decode(item)
            except P.FrameError as e:
                self.write(P.reply_err(0, e.code, e.message))
                continue
            if kind == "A":
                changed = self.acknowledge(num) or changed
            elif kind == "Q":
                changed = self.request(num, payload[0], payload[1], handle) or changed
            else:
                self.write(P.reply_err(num, "bad_frame", "a device takes requests and acknowledgements only"))
        return changed

    def remembered(self, rid):
        for r in self.replies:
            if r[0] == rid:
                return r[1]
        return None

    def request(self, rid, op, args, handle):
        line = self.remembered(rid)
        if line is not None:
            self.write(line)
            return False
        mutating, ok, result = handle(op, args)
        try:
            line = P.reply_ok(rid, result) if ok else P.reply_err(rid, result[0], result[1])
        except P.FrameError as e:
            if ok:
                # The command was applied: say so, with the new digest, even
                # if its full result does not fit a frame ("state" has it).
                line = P.reply_ok(rid, {"digest": result.get("digest"), "truncated": True})
            else:
                line = P.reply_err(rid, e.code, "reply does not fit a frame: " + e.message)
        if mutating:
            self.replies.append([rid, line])
            if len(self.replies) > REMEMBER:
                self.replies.pop(0)
            self.pending.append(line)
            return True  # the app saves, then calls flush_reply()
        self.write(line)
        return False

    def flush_reply(self):
        for line in self.pending:
            self.write(line)
        self.pending = []

    # -- events ------------------------------------------------------------
    def add_event(self, payload):
        """Number and keep an event; it is sent after the app has saved."""
        self.seq += 1
        try:
            line = P.event(self.seq, payload)
        except P.FrameError:
            slim = {"op": payload.get("op"), "digest": payload.get("digest"), "truncated": True}
            line = P.event(self.seq, slim)
        self.events.append([self.seq, line])
        if len(self.events) > MAX_EVENTS:
            self.events.pop(0)
            self.dropped += 1
        return line

    def send_events(self):
        for e in self.events:
            self.write(e[1])
        return len(self.events)

    def acknowledge(self, seq):
        before = len(self.events)
        self.events = [e for e in self.events if e[0] > seq]
        return len(self.events) != before


"""The device end of the serial link (design §5, docs/protocol.md).

Reads frames, answers requests, remembers recent replies by request id (a
retried request gets the remembered reply, never a second action), numbers
and keeps device events until the host acknowledges them, and replays them
after a handshake. What must survive a power cut (events, remembered
replies, the next sequence number) is part of the save file: the app saves
it together with the game state, before the reply goes out.

Replies leave in the order the requests arrived: once a reply waits for a
save, every later reply (a query's too) waits behind it.

Events are bounded: at most MAX_EVENTS are kept; the oldest is dropped and
counted (hello's ``events_dropped``). Not compacted: an event is the table's
log line for one press, and the host never needs them to be in step (hello's
digest and ``state`` bring it up to date), while every save rewrites the kept
events, so the cap is what bounds a save's size and time on a board played
without a host.
"""

from shared_rules import protocol as P

REMEMBER = 8  # remembered replies
MAX_EVENTS = 32  # kept unacknowledged; older ones are dropped and counted
# the largest link memory a save holds (save_pieces), for the save's bound
MAX_MEMORY = 40 + (REMEMBER + MAX_EVENTS) * (P.MAX_LINE + 16)


class Endpoint:
    def __init__(self, write):
        self.write = write  # function(str line)
        self.reader = P.LineReader()
        self.noise = 0
        self.pending = []  # replies to send once the app has saved
        self.clear()

    def clear(self):
        self.replies = []  # [rid, line]
        self.events = []  # [seq, line]
        self.seq = 0
        self.dropped = 0
        self.damaged = 0  # saved entries that could not be read back

    # -- persistence (see app.py for the save's layout) -------------------
    def save_pieces(self):
        """The link memory as save lines, one piece at a time."""
        yield "seq %d %d\n" % (self.seq, self.dropped)
        for r in self.replies:
            yield "reply %d " % r[0]
            yield r[1]
        for e in self.events:
            yield "event %d " % e[0]
            yield e[1]

    def load_line(self, line):
        """One saved link line. Whatever does not read back as the firmware
        wrote it is dropped and counted in ``damaged``: the game is worth
        more than the link memory."""
        try:
            key, _, rest = line.partition(" ")
            if key == "seq":
                seq, dropped = rest.split()
                self.seq, self.dropped = _count(seq), _count(dropped)
            elif key in ("reply", "event"):
                num, _, frame = rest.partition(" ")
                if frame[:2] != ("R " if key == "reply" else "E ") or not frame.endswith("\n"):
                    raise ValueError(key)
                self._keep(self.replies if key == "reply" else self.events, _count(num), frame)
            else:
                raise ValueError(key)
        except ValueError:
            self.damaged += 1

    def restore(self, mem):
        """The link memory of an older save (one JSON record), as leniently."""
        try:
            self.seq = _count(mem.get("seq", 0))
            self.dropped = _count(mem.get("dropped", 0))
        except (ValueError, TypeError, AttributeError):
            self.damaged += 1
        for key, into in (("replies", self.replies), ("events", self.events)):
            items = mem.get(key) if isinstance(mem, dict) else None
            for item in items if isinstance(items, list) else ():
                try:
                    self._keep(into, _count(item[0]), item[1])
                except (ValueError, TypeError, IndexError, KeyError):
                    self.damaged += 1

    def _keep(self, into, num, line):
        if not isinstance(line, str) or len(line) > P.MAX_LINE:
            raise ValueError("not a frame")
        into.append([num, line])
        limit = REMEMBER if into is self.replies else MAX_EVENTS
        if len(into) > limit:
            into.pop(0)
            if into is self.events:
                self.dropped += 1

    # -- incoming --------------------------------------------------------
    def feed(self, data, handle):
        """Bytes from the port. ``handle(op, args)`` returns (mutating,
        ok, result) where result is the reply dict or (code, message).
        Returns True when something changed that must be saved."""
        changed = False
        for item in self.reader.feed(data):
            if isinstance(item, P.FrameError):
                self.send(P.reply_err(0, item.code, item.message))
                continue
            if item[:1] not in (b"Q", b"A", b"R", b"E"):
                self.noise += 1  # a REPL echo or banner: not ours
                continue
            try:
                kind, num, payload = P.decode(item)
            except P.FrameError as e:
                # a sound checksum but a bad body: the request's own id
                self.send(P.reply_err(e.num if item[:1] == b"Q" else 0, e.code, e.message))
                continue
            if kind == "A":
                changed = self.acknowledge(num) or changed
            elif kind == "Q":
                changed = self.request(num, payload[0], payload[1], handle) or changed
            else:
                self.send(P.reply_err(num, "bad_frame", "a device takes requests and acknowledgements only"))
        return changed

    def send(self, line):
        """A reply now, or behind the replies that wait for a save."""
        if self.pending:
            self.pending.append(line)
        else:
            self.write(line)

    def remembered(self, rid):
        for r in self.replies:
            if r[0] == rid:
                return r[1]
        return None

    def request(self, rid, op, args, handle):
        line = self.remembered(rid)
        if line is not None:
            self.send(line)
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
            self._keep(self.replies, rid, line)
            self.pending.append(line)
            return True  # the app saves, then calls flush_reply()
        self.send(line)
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
        self._keep(self.events, self.seq, line)
        return line

    def send_events(self):
        for e in self.events:
            self.write(e[1])
        return len(self.events)

    def acknowledge(self, seq):
        before = len(self.events)
        self.events = [e for e in self.events if e[0] > seq]
        return len(self.events) != before


def _count(value):
    """A saved counter: a non-negative int (from text or JSON), else ValueError."""
    if isinstance(value, str):
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= P.MAX_ID:
        raise ValueError("not a count")
    return value

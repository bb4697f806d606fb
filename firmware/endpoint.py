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

from array import array

from shared_rules import protocol as P

REPLIES, EVENTS = 0, 1  # Endpoint.kept[...]: remembered replies, kept events
REMEMBER = 8  # remembered replies
MAX_EVENTS = 32  # kept unacknowledged; older ones are dropped and counted
# the largest link memory a save holds (save_pieces), for the save's bound
MAX_MEMORY = 40 + (REMEMBER + MAX_EVENTS) * (P.MAX_LINE + 16)


class Endpoint:
    def __init__(self, write, open_saved=None):
        self.write = write  # function(str line)
        self.open_saved = open_saved  # function(): the save file, binary, to read kept lines back
        self.reader = P.LineReader()
        self.noise = 0
        self.pending = []  # replies to send once the app has saved
        self.clear()

    def clear(self):
        # Each kept line as three ints in kept[REPLIES] / kept[EVENTS]: its
        # number, the offset of its frame in the save file (-1 until saved:
        # then the frame is in lines[...] by number) and the frame's size
        # in bytes (read back in one call: readline goes byte by byte).
        # 12 bytes a line of a board's heap (a 4-item list took ~40).
        self.kept = [array("i"), array("i")]
        self.lines = [{}, {}]
        self._moved = []  # each kept line's offset in the save being written
        self.seq = 0
        self.dropped = 0
        self.damaged = 0  # saved entries that could not be read back

    # -- persistence (app.py: the save's layout; boot_game.py reads it back) --
    def save_pieces(self, at):
        """The link memory as save lines, one piece at a time; ``at`` is the
        byte offset in the new save where they begin. Kept lines come from
        the save being replaced: those that lie one after the other there
        (a board played alone keeps up to MAX_EVENTS) are copied as one run
        of bytes, a block at a time (a read and two writes for every line
        cost a Pico ~1.5 ms each), once the run's first line is where its
        offset says; one that cannot be found is left out (dropped and
        counted in ``damaged`` by stored())."""
        head = "seq %d %d\n" % (self.seq, self.dropped)
        yield head
        at += len(head)
        self._moved = moved = []
        f = None
        run = None  # [start, end] of kept lines to copy from the old save
        try:
            for k in (REPLIES, EVENTS):
                kind = KINDS[k]
                a = self.kept[k]
                for i in range(0, len(a), 3):
                    num, where, size = a[i], a[i + 1], a[i + 2]
                    # the record's head as bytes: making a str searches every
                    # interned name (~0.1 ms on a Pico)
                    head = b"%s%d " % (kind, num)
                    line = self.lines[k].get(num) if where < 0 else None
                    if line is None:
                        start = where - len(head)
                        if run is not None and run[1] == start:  # right after the run's last line
                            run[1] = where + size
                            moved.append(at + len(head))
                            at += len(head) + size
                            continue
                        if f is None:
                            f = self._open()
                        if run is not None:
                            for piece in _copy(f, run):
                                yield piece
                            run = None
                        if _starts(f, start, head, where, size):
                            run = [start, where + size]
                            moved.append(at + len(head))
                            at += len(head) + size
                            continue
                        line = _read_kept(f, kind, num, where, size)  # not where it should be: look for it
                        if line is None:
                            moved.append(None)
                            continue
                    elif run is not None:
                        for piece in _copy(f, run):
                            yield piece
                        run = None
                    moved.append(at + len(head))
                    yield head
                    yield line
                    at += len(head) + len(line)
            if run is not None:
                for piece in _copy(f, run):
                    yield piece
        finally:
            if f is not None:
                f.close()

    def stored(self):
        """The save written by save_pieces() is in place: its kept lines
        leave RAM."""
        moved = self._moved
        self._moved = []
        kept = self.kept
        if self.open_saved is None or len(moved) != (len(kept[REPLIES]) + len(kept[EVENTS])) // 3:
            return
        j = 0
        for k in (REPLIES, EVENTS):
            a = kept[k]
            lost = 0
            for i in range(0, len(a), 3):
                where = moved[j]
                j += 1
                if where is None:
                    a[i + 1] = -2  # not in the new save: dropped below
                    lost += 1
                else:
                    a[i + 1] = where
            self.lines[k] = {}
            if lost:
                kept[k] = _without(a, lambda i: a[i + 1] == -2)
                self.damaged += lost

    def _open(self):
        try:
            return self.open_saved()
        except OSError:
            return None

    def events_kept(self):
        return len(self.kept[EVENTS]) // 3

    def replay_after(self):
        """The seq just before the first event the replay sends (the last
        one numbered when none is kept): the host then sees a gap if an
        event it never received is overtaken by a newer one."""
        a = self.kept[EVENTS]
        return a[0] - 1 if a else self.seq

    def _each_kept(self, k, do, only=None):
        """do(num, frame line) for each line kept in kept[k] (or only the
        one numbered ``only``), read back one at a time where saved (never
        all of them in RAM at once)."""
        f = None
        a = self.kept[k]
        try:
            for i in range(0, len(a), 3):
                num, where = a[i], a[i + 1]
                if only is not None and num != only:
                    continue
                if where < 0:
                    line = self.lines[k].get(num)
                else:
                    if f is None:
                        f = self._open()
                    line = _read_kept(f, KINDS[k], num, where, a[i + 2])
                if line is not None:
                    do(num, line)
        finally:
            if f is not None:
                f.close()

    def _keep(self, k, num, line, at=None):
        """Keep frame ``line`` numbered num in kept[k]: in RAM until saved
        (at None), or at that offset of the save file."""
        if not isinstance(line, str) or len(line) > P.MAX_LINE:
            raise ValueError("not a frame")
        a = self.kept[k]
        a.append(num)
        a.append(-1 if at is None else at)
        a.append(len(line))  # ASCII: a character a byte
        if at is None:
            self.lines[k][num] = line
        if len(a) > 3 * (REMEMBER if k == REPLIES else MAX_EVENTS):
            self.lines[k].pop(a[0], None)
            self.kept[k] = a[3:]
            if k == EVENTS:
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
        a = self.kept[REPLIES]
        for i in range(0, len(a), 3):
            if a[i] == rid:
                got = []
                self._each_kept(REPLIES, lambda num, line: got.append(line), rid)
                # unreadable (the flash failed): say so rather than act twice
                return got[0] if got else P.reply_err(rid, "busy", "the remembered reply cannot be read back")
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
            self._keep(REPLIES, rid, line)
            self.pending.append(line)
            return True  # the app saves, then calls flush_reply()
        self.send(line)
        return False

    def flush_reply(self):
        if self.pending:  # called on every pass of the main loop: no new list when idle
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
        self._keep(EVENTS, self.seq, line)
        return line

    def send_events(self):
        """Every kept event again, each read back and sent before the next."""
        self._each_kept(EVENTS, lambda num, line: self.write(line))

    def acknowledge(self, seq):
        a = self.kept[EVENTS]
        gone = _without(a, lambda i: a[i] <= seq)
        if len(gone) == len(a):
            return False
        lines = self.lines[EVENTS]
        for i in range(0, len(a), 3):
            if a[i] <= seq:
                lines.pop(a[i], None)
        self.kept[EVENTS] = gone
        return True


KINDS = (b"reply ", b"event ")  # the save's record heads, by REPLIES, EVENTS


def _without(a, drop):
    """The records (three ints each) of array a but those whose first index i drop(i) is true."""
    out = array("i")
    for i in range(0, len(a), 3):
        if not drop(i):
            out.append(a[i])
            out.append(a[i + 1])
            out.append(a[i + 2])
    return out


def _starts(f, start, head, where, size):
    """True when the save ``f`` holds a kept line where its offset says:
    its record's head at ``start``, the line at ``where``, a newline at
    its end."""
    if f is None:
        return False
    try:
        f.seek(start)
        if f.read(len(head)) != head:
            return False
        f.seek(where + size - 1)
        return f.read(1) == b"\n"
    except OSError:
        return False


def _copy(f, run):
    """The bytes run[0] .. run[1] of the save ``f``, a block at a time, each
    a view of one buffer (read into, not allocated per block: ~4x faster on
    a Pico) that the next block overwrites."""
    f.seek(run[0])
    left = run[1] - run[0]
    buf = bytearray(min(512, left))  # a save's pieces stay small
    view = memoryview(buf)
    while left > 0:
        n = f.readinto(view[:min(len(buf), left)])
        if not n:  # the save changed under us: fail the save, the old one stays
            raise OSError(5)  # EIO
        left -= n
        yield view[:n]


def _read_kept(f, kind, num, where, size):
    """Kept frame ``num`` from the save file ``f``: size bytes at offset
    where, else (a save written by other code) found by its record's head;
    None if it is not there."""
    if f is None:
        return None
    try:
        f.seek(where)
        line = f.read(size).decode()
        if line.startswith("%s %d " % ("R" if kind == b"reply " else "E", num)) and line.endswith("\n"):
            return line
        head = b"%s%d " % (kind, num)
        f.seek(0)
        while True:
            line = f.readline()
            if not line:
                return None
            if line.startswith(head):
                return line[len(head):].decode()
    except (OSError, ValueError):  # ValueError: UnicodeError, not a text line
        return None

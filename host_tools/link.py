"""The host end of the device link: one serial port, one device.

    with DeviceLink("/dev/ttyACM0", on_event=store) as link:
        info = link.hello()
        result = link.request("flip", suit="crown", net=1)

The wire format is shared_rules.protocol (docs/protocol.md explains it); this
module adds what the host needs on top of it:

Requests and retries
    Every request gets a fresh id from a per-link counter that starts at a
    random value in 1..MAX_ID/2 (so two host processes talking to one device
    in turn do not reuse each other's ids). The encoded line is built once and
    re-sent byte for byte: after ``timeout`` seconds of silence, after a reply
    with id 0 (the device could not read the line) and after a reconnect. The
    device remembers recent replies by id, so a re-sent ``flip`` returns the
    first flip's reply and never flips twice. After ``retries`` re-sends the
    request fails with LinkError. An ``err`` reply raises DeviceError at once
    (it is an answer, not a transport failure, and is never retried).

Reconnects
    When the port itself fails (pyserial's SerialException or an OSError:
    the USB device was unplugged or reset, a simulated board's pty went away)
    the link closes the port, reopens the same path until ``reconnect_timeout``
    passes, and re-sends the pending request with the same id. After a
    reconnect it sends ``hello`` (refreshing ``info`` and asking the device to
    replay its unacknowledged events).

    ``on_hello(info)``, when set, is called with every hello reply (asked for
    or sent after a reconnect), and after a reconnect the hello comes first,
    before the pending request is sent again: a program that knows which
    device should be on the port (the table hub) checks it there, and an
    exception from on_hello stops the pending request (it propagates out of
    request()/poll()), so nothing meant for one device reaches another that
    took its port. Like on_event it must not use the link.

Events
    ``E seq {json}`` frames may arrive at any time, also between the bytes of
    replies we wait for. Each new event is passed to ``on_event(seq, payload)``
    and acknowledged with ``A seq -`` only after on_event returns without
    raising. ``A seq`` acknowledges everything up to seq on the device, so the
    link never acknowledges past an event it may have missed:

    * until the device has answered a ``hello`` or ``events`` request on this
      connection (after which it replays every unacknowledged event in order),
      incoming events are held back (left on the device, not dispatched);
      the link sends ``events`` by itself after the first request and in
      ``poll()`` when an on_event handler is set;
    * a damaged frame-like line (it might have been an event), or a gap in
      the sequence numbers, holds events back again and triggers a replay;
    * if on_event raises, the event is not acknowledged, later events are held
      back, and a replay is asked for again after ``event_retry`` seconds;
      the exception is kept in ``event_errors``;
    * an event already delivered (same seq, same payload: its ack was lost)
      is acknowledged again but not delivered twice. A different payload
      under an old number means the device started numbering again (a wiped
      flash) and is delivered.

    Nothing is lost and nothing is delivered twice, but a new event may
    overtake a replay (it left the device between the reply to hello/events
    and the replayed events): store events by seq, not by arrival.

    With ``on_event=None`` events are counted (``stats["events_ignored"]``),
    kept in ``events_seen`` and never acknowledged: they stay on the device
    for the program that stores them (``deckahedron do`` works this way).
    The host application must still treat (device, seq) as the key of an
    event in its own store: a new host process starts without this memory.

Noise
    Lines that are not frames (a MicroPython board may print a REPL banner or
    a traceback) are counted in ``stats["noise"]`` and the last few are kept
    in ``noise``. Echoes of our own Q/A frames are counted and ignored.

Threads
    A DeviceLink is meant to be used from one thread. Its public methods take
    an internal lock, so calls from several threads are serialised rather than
    interleaved, but on_event runs inside request()/poll() on the calling
    thread and must not call back into the same link (that raises
    RuntimeError).
"""

import base64
import collections
import json
import random
import select
import threading
import time

from shared_rules import protocol as P
from shared_rules.atomic import text_digest# the digest the device reports

BAUD = 115200
POLL = 0.05  # seconds per blocking read: how often deadlines are checked
SEEN_EVENTS = 512  # how many delivered events are remembered to spot re-sends
MAX_PARTS = 4096  # a device announcing more parts than this is refused


class LinkError(Exception):
    """The link failed: port missing or gone, or the device stayed silent."""


class DeviceError(Exception):
    """The device answered ``err``: ``code`` (a LINK_ERRORS or rules code) and
    ``message`` (a sentence for a person)."""

    def __init__(self, code, message=""):
        super().__init__("%s: %s" % (code, message) if message else code)
        self.code = code
        self.message = message


def _looks_like_frame(line):
    """A damaged frame rather than noise: starts like one or ends with a CRC."""
    if len(line) >= 2 and line[0:1] in (b"Q", b"R", b"E", b"A") and line[1:2] == b" ":
        return True
    tail = line.rstrip(b"\r")[-9:]
    if len(tail) == 9 and tail[0:1] == b" ":
        return all(c in b"0123456789abcdef" for c in tail[1:])
    return False


def _payload_key(payload):
    return json.dumps(payload, sort_keys=True, separators=(",", ":"))


def _serial_module():
    try:
        import serial
    except ImportError:  # pragma: no cover
        raise LinkError("pyserial is not installed: run `make setup`")
    return serial


class DeviceLink:
    """A request/reply link to one device over one serial port."""

    def __init__(self, port, timeout=2.0, retries=5, on_event=None, reconnect_timeout=10.0,
                 event_retry=5.0, baudrate=BAUD, first_id=None, on_hello=None):
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        if retries < 0:
            raise ValueError("retries must be 0 or more")
        self.port = port
        self.timeout = float(timeout)
        self.retries = int(retries)
        self.on_event = on_event
        self.on_hello = on_hello
        self.reconnect_timeout = float(reconnect_timeout)
        self.event_retry = float(event_retry)
        self.baudrate = baudrate
        self.info = None  # the last hello result
        self.screen_size = None  # (w, h) of the last fetch_screen()
        self.stats = collections.Counter()
        self.noise = collections.deque(maxlen=20)
        self.events_seen = collections.deque(maxlen=100)  # (seq, payload) with no on_event
        self.event_errors = []  # (seq, exception) from on_event
        if first_id is None:
            first_id = random.SystemRandom().randint(1, P.MAX_ID // 2)
        self._next_id = int(first_id)
        self._lock = threading.RLock()
        self._in_handler = False
        self._ser = None
        self._reader = P.LineReader()
        self._items = collections.deque()
        self._closed = False
        self._unreadable = None  # the last id-0 error while a request waited
        # event bookkeeping (see the module docstring)
        self._seen = collections.OrderedDict()  # seq -> payload key, delivered and acked
        self._last_seq = None
        self._open()

    # -- port handling -------------------------------------------------------
    def _open(self):
        serial = _serial_module()
        try:
            try:
                self._ser = serial.Serial(self.port, self.baudrate, timeout=POLL, write_timeout=self.timeout,
                                          exclusive=True)
            except (TypeError, ValueError):  # a platform without the exclusive flag
                self._ser = serial.Serial(self.port, self.baudrate, timeout=POLL, write_timeout=self.timeout)
        except (serial.SerialException, OSError) as e:
            self._ser = None
            text = str(e)
            if "exclusively lock" in text:
                raise LinkError("cannot open %s: another program is using it" % self.port)
            raise LinkError("cannot open %s: %s" % (self.port, text))
        self._reader = P.LineReader()
        self._items.clear()
        # Events are held back until the device answers hello/events on this
        # connection (it replays its unacknowledged events after that reply).
        self._hold = True
        self._replay_at = time.monotonic()
        self._need_hello = False

    def _close_port(self):
        ser, self._ser = self._ser, None
        if ser is not None:
            try:
                ser.close()
            except Exception:
                pass

    def _reconnect(self):
        self._close_port()
        self.stats["reconnects"] += 1
        deadline = time.monotonic() + self.reconnect_timeout
        last = None
        while True:
            try:
                self._open()
                break
            except LinkError as e:
                last = e
            if time.monotonic() >= deadline:
                raise LinkError("lost %s and could not reopen it within %gs (%s)"
                                % (self.port, self.reconnect_timeout, last))
            time.sleep(0.1)
        self._need_hello = True

    def close(self):
        """Close the port. Unacknowledged events stay on the device."""
        with self._lock:
            self._closed = True
            self._close_port()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    @property
    def is_open(self):
        return self._ser is not None

    # -- raw I/O -------------------------------------------------------------
    def _write(self, line):
        if self._ser is None:
            raise OSError("port not open")
        self._ser.write(line.encode())
        self._ser.flush()

    def _fill(self, until):
        """Read whatever arrives before ``until`` (monotonic) into the item queue;
        returns as soon as at least one item is queued. Once ``until`` has
        passed it only takes what is already there: poll(0) over a table of
        boards costs microseconds a board, not a blocking read each."""
        while not self._items:
            if self._ser is None:
                raise OSError("port not open")
            if not self._readable(until - time.monotonic()):
                if time.monotonic() >= until:
                    return
                continue
            data = self._ser.read(1)
            if data:
                waiting = self._ser.in_waiting
                if waiting:
                    data += self._ser.read(waiting)
                self._items.extend(self._reader.feed(data))
            if time.monotonic() >= until:
                return

    def wait_fd(self):
        """The port's file descriptor, for a caller that waits on many links
        at once (the hub's poll) before reading the ready ones with poll(0);
        None when there is none to wait on (the port is closed, or the
        platform's serial ports have none): read it anyway."""
        if self._ser is None:
            return None
        try:
            return self._ser.fileno()
        except (AttributeError, OSError, ValueError, _serial_module().SerialException):
            return None

    def _readable(self, seconds):
        """Wait up to ``seconds`` (at most POLL, so deadlines are checked) for
        the port to have bytes or to fail (then the read that follows raises).
        Without a file descriptor to wait on, the read's own timeout waits."""
        fd = self.wait_fd()
        if fd is None:
            return True
        return bool(select.select([fd], [], [], min(POLL, max(0.0, seconds)))[0])

    # -- incoming frames -----------------------------------------------------
    def _next_reply(self, until):
        """The next R frame (kind, num, payload) before ``until``, or None.
        Events, noise and damaged lines are dealt with on the way. Reads at
        least once even when ``until`` has passed."""
        first = True
        while True:
            while self._items:
                item = self._items.popleft()
                frame = self._classify(item)
                if frame is not None:
                    return frame
            if not first and time.monotonic() >= until:
                return None
            first = False
            self._fill(until)

    def _classify(self, item):
        if isinstance(item, P.FrameError):  # an over-long line: it may have been an event
            self.stats["bad_frames"] += 1
            self._lost_something()
            return None
        try:
            kind, num, payload = P.decode(item)
        except P.FrameError:
            if _looks_like_frame(item):
                self.stats["bad_frames"] += 1
                self._lost_something()
            else:
                self.stats["noise"] += 1
                self.noise.append(item.decode("ascii", "replace"))
            return None
        if kind == "R":
            return kind, num, payload
        if kind == "E":
            self._event(num, payload)
        else:  # our own Q or A echoed back (a port not in raw mode)
            self.stats["echo"] += 1
        return None

    def _lost_something(self):
        """A frame was damaged: if it was an event, acknowledging later ones
        would drop it on the device. Hold events back and ask for a replay."""
        self._hold = True
        if self._replay_at is None:
            self._replay_at = time.monotonic()

    def _event(self, seq, payload):
        key = _payload_key(payload)
        if self._seen.get(seq) == key:  # delivered before; our ack was lost
            self.stats["events_duplicate"] += 1
            self._ack(seq)
            return
        if self.on_event is None:
            self.stats["events_ignored"] += 1
            self.events_seen.append((seq, payload))
            return
        if self._hold:
            self.stats["events_held"] += 1
            return
        if self._last_seq is not None and seq > self._last_seq + 1:
            self.stats["events_gap"] += 1
            self._lost_something()
            return
        self._in_handler = True
        try:
            self.on_event(seq, payload)
        except Exception as e:  # the store failed: leave the event on the device
            self.stats["events_failed"] += 1
            self.event_errors.append((seq, e))
            self._hold = True
            self._replay_at = time.monotonic() + self.event_retry
            return
        finally:
            self._in_handler = False
        self.stats["events"] += 1
        self._seen[seq] = key
        while len(self._seen) > SEEN_EVENTS:
            self._seen.popitem(last=False)
        self._last_seq = seq
        self._ack(seq)

    def _ack(self, seq):
        self._write(P.ack(seq))
        self.stats["acks"] += 1

    # -- requests ------------------------------------------------------------
    def _new_id(self):
        rid = self._next_id
        self._next_id = rid + 1 if rid < P.MAX_ID else 1
        return rid

    def request(self, op, **args):
        """Send one command and return its result dict.

        Raises DeviceError for an ``err`` reply, LinkError when the device
        stays silent after the retries or the port cannot be reopened, and,
        before sending anything, ValueError for an op that is not a word and
        protocol.FrameError for a request that cannot be framed (too long)."""
        return self.call(op, args)

    def call(self, op, args=None):
        """request() with the arguments as one dict (for names like ``op``)."""
        with self._lock:
            self._check_usable()
            result = self._transact(op, args or {})
            self._after(op)
            return result

    def _check_usable(self):
        if self._in_handler:
            raise RuntimeError("on_event must not use the link it was called from")
        if self._closed:
            raise LinkError("the link to %s is closed" % self.port)

    def _transact(self, op, args):
        if not isinstance(op, str) or not op or not all(c.isalnum() or c == "_" for c in op) or not op.isascii():
            raise ValueError("an op is a word of letters, digits and _, not %r" % (op,))
        if not isinstance(args, dict):
            raise ValueError("request arguments must be a dict, not %r" % (type(args).__name__,))
        serial = _serial_module()
        rid = self._new_id()
        line = P.request(rid, op, args)  # built once: every re-send is the same bytes
        self._unreadable = None
        sends = 0
        rounds = 0
        while sends <= self.retries:
            rounds += 1
            if rounds > 3 * (self.retries + 1):
                break  # the port keeps failing under us
            try:
                if self._ser is None:
                    self._reconnect()
                    self._hello_first(op)
                self._write(line)
                sends += 1
                self.stats["sent" if sends == 1 else "resent"] += 1
                frame = self._await(rid, time.monotonic() + self.timeout)
            except serial.SerialTimeoutException:  # the device stopped reading
                sends += 1
                self.stats["timeouts"] += 1
                continue
            except (OSError, serial.SerialException):
                self._reconnect()  # raises LinkError when the port stays away
                self._hello_first(op)
                continue  # the same id again: the device answers it only once
            if frame is None:
                continue
            ok, value = frame
            if ok and op in ("hello", "events"):
                self._replay_started(value)
            if not ok:
                raise DeviceError(str(value.get("code")), str(value.get("message", "")))
            if op == "hello":
                self.info = value
                if self.on_hello is not None:
                    self.on_hello(value)
            return value
        said = "; the device could not read the request (%s)" % self._unreadable if self._unreadable else ""
        raise LinkError("no answer from %s to %r after %d tries of %gs each%s"
                        % (self.port, op, sends, self.timeout, said))

    def _hello_first(self, op):
        """After a reconnect, with on_hello set: hello (and so on_hello's
        check) before the pending request goes to whatever is on the port."""
        if self.on_hello is not None and op != "hello":
            self._need_hello = False
            self._transact("hello", {})

    def _await(self, rid, until):
        """The (ok, value) of the reply to ``rid``, or None to re-send: on
        silence until ``until`` or a reply with id 0 (a line the device could
        not read: ours, or one of our acks; re-sending is harmless)."""
        while True:
            frame = self._next_reply(until)
            if frame is None:
                self.stats["timeouts"] += 1
                return None
            _, num, payload = frame
            if num == rid:
                return payload
            if num == 0:
                self.stats["unreadable"] += 1
                ok, value = payload
                if not ok and isinstance(value, dict):  # kept to say what was wrong if no answer follows
                    self._unreadable = "%s: %s" % (value.get("code"), value.get("message", ""))
                return None
            self.stats["stale"] += 1  # a late answer to an earlier request

    def _replay_started(self, reply):
        """The device answered hello/events: what follows is its replay of
        every unacknowledged event, in order, so events flow again. Its
        ``seq`` says where the replay starts, so a first event lost on the
        way shows as a gap; without it (older firmware) any seq is taken."""
        self._hold = False
        self._replay_at = None
        after = reply.get("seq") if isinstance(reply, dict) else None
        self._last_seq = after if type(after) is int and after >= 0 else None

    def _after(self, op):
        """Housekeeping after a request: hello after a reconnect, a replay
        when events were held back."""
        if self._need_hello and op != "hello":
            self._need_hello = False
            try:
                self._transact("hello", {})
            except (LinkError, DeviceError):
                self._need_hello = True
        elif op == "hello":
            self._need_hello = False
        self._maybe_replay()

    def _maybe_replay(self):
        if self.on_event is None or not self._hold or self._replay_at is None:
            return
        if time.monotonic() < self._replay_at:
            return
        try:
            self._transact("events", {})
        except (LinkError, DeviceError):
            self.stats["replay_failed"] += 1
            self._replay_at = time.monotonic() + self.event_retry

    # -- conveniences ----------------------------------------------------------
    def poll(self, timeout=0.0):
        """Read for up to ``timeout`` seconds (at least one short read),
        delivering any events. Call it while idle: button presses arrive
        without a request."""
        serial = _serial_module()
        with self._lock:
            self._check_usable()
            until = time.monotonic() + timeout
            while True:
                try:
                    if self._ser is None:
                        self._reconnect()
                    if self._need_hello:
                        self._after("poll")
                    else:
                        self._maybe_replay()
                    frame = self._next_reply(until)
                except (OSError, serial.SerialException):
                    self._reconnect()
                    continue
                if frame is None:
                    return
                self.stats["stale"] += 1

    def replay_events(self):
        """Ask the device to send every unacknowledged event again; returns the
        number it says are pending. The events arrive after the reply: call
        poll() (or any request) to receive them."""
        return self.request("events").get("pending")

    def hello(self):
        """The handshake: device id, versions, edition, state digest, pending
        events. Also stored in ``info``."""
        return self.request("hello")

    def ping(self):
        return self.request("ping")

    def probe(self, timeout):
        """Whether the device answers one ``ping`` within ``timeout`` seconds
        (a port that went away is reopened within them too), for a host that
        stopped using this link because the device went silent; any thread
        may ask. Nothing is delivered meanwhile (on_event and on_hello are
        off: events stay on the device), so after True the host says hello."""
        with self._lock:
            saved = self.timeout, self.retries, self.reconnect_timeout, self.on_event, self.on_hello
            self.timeout, self.retries, self.reconnect_timeout = float(timeout), 0, float(timeout)
            self.on_event = self.on_hello = None
            try:
                self._check_usable()
                self._transact("ping", {})
                return True
            except DeviceError:  # an answer all the same
                return True
            except LinkError:
                return False
            finally:
                self.timeout, self.retries, self.reconnect_timeout, self.on_event, self.on_hello = saved

    def state(self):
        """The player's state summary (a dict with ``digest``). A device may
        send it whole or, since it grows with the piles, as JSON text in parts
        like a backup (``parts``, ``part``, ``digest``, ``data``): the parts
        are joined and parsed, starting over if the digest changes meanwhile."""
        for _ in range(3):
            first = self.request("state", part=0)
            if "data" not in first or "parts" not in first:
                return first
            n, digest = first.get("parts"), first.get("digest")
            if not (isinstance(n, int) and 1 <= n <= MAX_PARTS):
                raise LinkError("%s sent a malformed state reply: %r" % (self.port, _short(first)))
            parts = [first.get("data", "")]
            for i in range(1, n):
                part = self.request("state", part=i)
                if part.get("digest") != digest or part.get("parts") != n:
                    break
                parts.append(part.get("data", ""))
            else:
                try:
                    value = json.loads("".join(parts))
                except ValueError as e:
                    raise LinkError("%s sent a state that is not JSON: %s" % (self.port, e))
                if not isinstance(value, dict):
                    raise LinkError("%s sent a state that is not a JSON object" % self.port)
                value.setdefault("digest", digest)
                return value
            self.stats["state_retries"] += 1
        raise LinkError("the state of %s kept changing while it was read" % self.port)

    def fetch_screen(self):
        """The panel image as raw MONO_HLSB bytes (1 = black), all parts joined;
        its size is left in ``screen_size``."""
        first = self.request("screen", part=0)
        n, w, h = first.get("parts"), first.get("w"), first.get("h")
        if not (isinstance(n, int) and 1 <= n <= MAX_PARTS and isinstance(w, int) and isinstance(h, int)
                and w > 0 and h > 0):
            raise LinkError("%s sent a malformed screen reply: %r" % (self.port, _short(first)))
        data = [first.get("data", "")]
        for i in range(1, n):
            part = self.request("screen", part=i)
            if part.get("part", i) != i or part.get("parts", n) != n:
                raise LinkError("%s sent screen part %r of %r when asked for %d of %d"
                                % (self.port, part.get("part"), part.get("parts"), i, n))
            data.append(part.get("data", ""))
        try:
            buf = base64.b64decode("".join(data), validate=True)
        except (ValueError, TypeError) as e:
            raise LinkError("%s sent a screen that is not base64: %s" % (self.port, e))
        want = (w + 7) // 8 * h
        if len(buf) != want:
            raise LinkError("%s sent a %dx%d screen of %d bytes (expected %d)" % (self.port, w, h, len(buf), want))
        self.screen_size = (w, h)
        return buf

    def backup(self, attempts=3):
        """The device's saved state text, all parts joined and its digest
        checked. A state that changes between parts (a button pressed
        meanwhile) shows as a digest change: the backup starts over."""
        for _ in range(attempts):
            first = self.request("backup", part=0)
            n, digest = first.get("parts"), first.get("digest")
            if not (isinstance(n, int) and 1 <= n <= MAX_PARTS and isinstance(digest, str)):
                raise LinkError("%s sent a malformed backup reply: %r" % (self.port, _short(first)))
            parts = [first.get("data", "")]
            for i in range(1, n):
                part = self.request("backup", part=i)
                if part.get("digest") != digest or part.get("parts") != n:
                    break
                parts.append(part.get("data", ""))
            else:
                text = "".join(parts)
                if isinstance(text, str) and text_digest(text) == digest:
                    return text
            self.stats["backup_retries"] += 1
        raise LinkError("backup from %s failed its digest check %d times (the state kept changing?)"
                        % (self.port, attempts))

    def restore(self, text):
        """Upload a saved state in parts; the device applies it when the last
        part arrives and the digest matches. Returns the last reply."""
        if not isinstance(text, str) or not text:
            raise ValueError("restore needs the backup text")
        digest = text_digest(text)
        parts = split_for_frames(text, "restore", digest)
        n = len(parts)
        result = None
        for i, data in enumerate(parts):
            result = self.request("restore", part=i, parts=n, digest=digest, data=data)
        if not result.get("restored"):
            raise DeviceError("not_restored", "%s took every part but did not apply the state" % self.port)
        return result


def split_for_frames(text, op, digest, size=P.CHUNK):
    """Cut text into parts of at most ``size`` characters whose restore
    requests each fit in a frame (JSON escapes make some text longer)."""
    parts = []
    i = 0
    probe_id = P.MAX_ID
    while i < len(text):
        n = size
        while True:
            chunk = text[i:i + n]
            try:
                P.request(probe_id, op, {"part": MAX_PARTS, "parts": MAX_PARTS, "digest": digest, "data": chunk})
                break
            except P.FrameError as e:
                if e.code != "too_long" or n <= 8:
                    raise
                n = n * 3 // 4
        parts.append(chunk)
        i += len(chunk)
    return parts or [""]


def _short(value, limit=200):
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else text[:limit] + "..."

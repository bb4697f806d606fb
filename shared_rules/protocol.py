"""The device <-> host wire format: one definition for firmware and host.

A frame is one ASCII text line (docs/protocol.md is the human version; a test
keeps the two in step):

    TYPE NUM BODY CRC\\n

TYPE  Q request (host -> device), R reply, E event (device -> host),
      A acknowledgement of events (host -> device)
NUM   Q/R: the request id (1..MAX_ID), E: the event's sequence number,
      A: the highest event sequence number the host has stored
BODY  Q: "op {json object}"   R: "ok {json}" or "err {json: code, message}"
      E: "{json}"             A: "-"
CRC   CRC-32 of everything before the last space, 8 lowercase hex digits

Text only (printable ASCII, so never the 0x03 that interrupts a MicroPython
board) and at most MAX_LINE bytes with the newline, so a frame fits the rp2
USB stdin buffer (512 bytes) with room to spare. A reply with NUM 0 answers a
line the device could not trust enough to read its id.
"""

import json

try:
    from binascii import crc32
except ImportError:  # a port built without it
    def crc32(data, crc=0):
        crc = crc ^ 0xFFFFFFFF
        for b in data:
            crc ^= b
            for _ in range(8):
                crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
        return crc ^ 0xFFFFFFFF

VERSION = 1
MAX_LINE = 480  # bytes including the newline
MAX_ID = 999999999
TYPES = ("Q", "R", "E", "A")
CHUNK = 300  # payload characters per part of a large thing (screen, backup)

# Commands a device answers besides the rules commands (Game.COMMANDS).
APP_OPS = (
    "hello",     # handshake: device id, versions, edition, digest, pending events
    "state",     # the player's whole state summarised, as JSON text in parts: {"part": i}
    "press",     # press a button: {"button": "A"|"B"|"C"|"UP"|"DOWN"}
    "screen",    # the panel image in parts: {"part": i}
    "backup",    # the saved state text in parts: {"part": i}
    "restore",   # upload a saved state in parts, applied when the last arrives
    "new_game",  # start a new character: {"confirm": true, "seed"?, "edition"?, ...}
    "set_name",  # the player's name shown at the table
    "events",    # send every unacknowledged event again
    "odds",      # exact odds of the next flip: {"suit", "net"}
    "ping",      # liveness
    "stats",     # the last press's firmware work in microseconds: rules, save, render, show
    "crashlog",  # the firmware's crash log (crash.log on the flash) in parts: {"part": i}
    "repl",      # leave the app for the MicroPython REPL (to flash it): {"confirm": true}
    "ask",       # the GM asks for a flip: {"ask": id, "from", "attr", "net", "reason"}; the flip's
                 # events carry "ask": id, a decline is the event {"op": "decline", "ask": id, "why"}
)
BUTTONS = ("A", "B", "C", "UP", "DOWN")
ASK_REASON = 60  # characters of an ask's reason the device takes (the host's record keeps it whole)

# The power hello and state carry: "battery_mv", the cell's millivolts as
# an int (null: no cell, or the board cannot tell) and "usb", true while a
# cable powers the board (null: the board cannot tell). A device without
# them (older firmware) is said as not known. What a 1-cell LiPo's
# millivolts mean, for the device's notices and the GM's view alike:
BATTERY_MV = (3300, 3500, 4100)  # empty (no play below it), low (said once), full
BATTERY_NONE_MV = 2500  # below what a cell can run a board on: no cell, another supply

# Error codes the link itself uses (the rules add their own RulesError codes).
LINK_ERRORS = {
    "bad_frame": "the line is not a frame",
    "bad_crc": "the checksum does not match: the line was damaged",
    "too_long": "the line is longer than the frame limit",
    "bad_json": "the body is not valid JSON of the right shape",
    "bad_op": "no such command",
    "bad_args": "arguments missing, unknown or of the wrong type",
    "busy": "the device is in a state that cannot take this command",
    "not_ascii": "frames carry printable ASCII only",
}


class FrameError(ValueError):
    """A line that is not a valid frame. ``code`` is one of LINK_ERRORS;
    ``num`` is the frame's number when its checksum was sound (so a request
    with a bad body is answered with its own id), else 0."""

    def __init__(self, code, message=None, num=0):
        super().__init__(message or LINK_ERRORS.get(code, code))
        self.code = code
        self.message = message or LINK_ERRORS.get(code, code)
        self.num = num

    def __str__(self):
        return self.message


def check_ascii(text):
    _check_bytes(text.encode(), text)


def _check_bytes(data, text):
    # min()/max() of the encoded bytes run in C: a loop over the characters
    # in Python cost a board ~7 ms per 150 characters on every frame. Any
    # non-ASCII character encodes to bytes >= 0x80, so the bytes say it all.
    if data and (min(data) < 0x20 or max(data) > 0x7E):
        for ch in text:
            o = ord(ch)
            if o < 0x20 or o > 0x7E:
                raise FrameError("not_ascii", "frames carry printable ASCII only (found code %d)" % o)


def _ascii(text):
    """Escape non-ASCII characters as JSON \\u escapes (they can only occur
    inside JSON strings). CPython's dumps does this itself; MicroPython's
    does not."""
    data = text.encode()
    # The usual case, checked in C without a pass over every byte as a
    # Python int (max() cost a board ~0.35 ms per 150 bytes): no character
    # took more than a byte, and none is DEL.
    if len(data) == len(text) and b"\x7f" not in data:
        return text
    out = []
    for ch in text:
        o = ord(ch)
        if o <= 0x7E:
            out.append(ch)
        elif o > 0xFFFF:
            o -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF)))
        else:
            out.append("\\u%04x" % o)
    return "".join(out)


def _json(value):
    if not _STRICT:  # CPython would write NaN and Infinity, which JSON does not have
        try:
            return json.dumps(value, separators=(",", ":"), allow_nan=False)
        except ValueError:
            raise FrameError("bad_json", "NaN and Infinity are not JSON numbers")
    try:
        text = json.dumps(value, separators=(",", ":"))
    except TypeError:  # an older MicroPython's dumps has no separators argument
        text = json.dumps(value)
    return _ascii(text)


def _no_constant(name):
    raise ValueError("%s is not a JSON number" % name)


def _loads(text):
    """json.loads refusing NaN and Infinity on CPython as MicroPython does."""
    if _STRICT:
        return json.loads(text)
    return json.loads(text, parse_constant=_no_constant)


try:
    json.loads("0", parse_constant=_no_constant)
    _STRICT = False
except TypeError:  # MicroPython: no parse_constant, and no NaN either
    _STRICT = True


def crc_hex(text):
    return "%08x" % (crc32(text.encode()) & 0xFFFFFFFF)


def encode(kind, num, body, checked=False):
    """One frame line (with its newline). ``body`` is already text;
    ``checked``: it is printable ASCII already (made by _json, whose
    output is: JSON escapes control characters and _ascii the rest)."""
    if kind not in TYPES:
        raise FrameError("bad_frame", "unknown frame type %r" % (kind,))
    if not isinstance(num, int) or num < 0 or num > MAX_ID:
        raise FrameError("bad_frame", "frame number out of range")
    # The CRC and the checks on bytes, and the line made as one str: on a
    # board every new str costs a search of every interned name.
    pre = b"%s %d " % (kind.encode(), num)
    data = body.encode()
    if not checked:
        _check_bytes(data, body)
    n = len(pre) + len(data) + 10  # the line's bytes (printable ASCII: one a character)
    if n > MAX_LINE:
        raise FrameError("too_long", "frame of %d bytes is over the %d-byte limit" % (n, MAX_LINE))
    return "%s %d %s %08x\n" % (kind, num, body, crc32(data, crc32(pre)) & 0xFFFFFFFF)


def request(rid, op, args=None):
    return encode("Q", rid, "%s %s" % (op, _json(args or {})))


def reply_ok(rid, result):
    return encode("R", rid, "ok " + _json(result), True)


def reply_err(rid, code, message):
    return encode("R", rid, "err " + _json({"code": code, "message": message}), True)


def event(seq, payload):
    return encode("E", seq, _json(payload), True)


def ack(seq):
    return encode("A", seq, "-")


def decode(line):
    """Parse a line into (kind, num, payload).

    Q -> (op, args dict); R -> (ok bool, result or error dict);
    E -> dict; A -> None. Raises FrameError for anything else."""
    if isinstance(line, bytes):
        try:
            line = line.decode()
        except UnicodeError:
            raise FrameError("not_ascii")
    # The limit counts the frame and its newline; a terminal's CR before the
    # newline is not part of the frame, so it is stripped before counting.
    line = line.rstrip("\r\n")
    if len(line) >= MAX_LINE:
        raise FrameError("too_long")
    check_ascii(line)
    cut = line.rfind(" ")
    if cut < 0 or len(line) < 5 or line[1] != " " or line[0] not in TYPES:
        raise FrameError("bad_frame")
    head, crc = line[:cut], line[cut + 1:]
    if crc_hex(head) != crc:
        raise FrameError("bad_crc")
    kind = line[0]
    rest = head[2:]
    sp = rest.find(" ")
    if sp <= 0:
        raise FrameError("bad_frame")
    try:
        num = int(rest[:sp])
    except ValueError:
        raise FrameError("bad_frame", "frame number is not a number")
    if num < 0 or num > MAX_ID:
        raise FrameError("bad_frame", "frame number out of range")
    body = rest[sp + 1:]
    try:
        if kind == "Q":
            sp = body.find(" ")
            if sp <= 0:
                raise FrameError("bad_frame", "a request needs an op and a JSON object")
            args = _loads(body[sp + 1:])
            if not isinstance(args, dict):
                raise FrameError("bad_json", "request arguments must be a JSON object")
            return kind, num, (body[:sp], args)
        if kind == "R":
            status, _, data = body.partition(" ")
            if status not in ("ok", "err"):
                raise FrameError("bad_frame", "a reply is ok or err")
            value = _loads(data)
            if status == "err" and not (isinstance(value, dict) and "code" in value):
                raise FrameError("bad_json", "an error reply needs a code")
            return kind, num, (status == "ok", value)
        if kind == "E":
            value = _loads(body)
            if not isinstance(value, dict):
                raise FrameError("bad_json", "an event body must be a JSON object")
            return kind, num, value
        if body != "-":
            raise FrameError("bad_frame", "an acknowledgement has body -")
        return kind, num, None
    except ValueError as e:  # json errors are ValueError on both runtimes
        if isinstance(e, FrameError):
            e.num = num
            raise
        raise FrameError("bad_json", "the body is not valid JSON (NaN and Infinity are not JSON numbers)", num)


class LineReader:
    """Collects bytes into lines, dropping any line over MAX_LINE (the rest of
    it up to the newline is discarded and reported once as too_long)."""

    def __init__(self):
        self.buf = bytearray()
        self.dropping = False

    def feed(self, data):
        """Returns a list of complete items: bytes lines, or FrameError for an
        oversized line."""
        out = []
        for b in data:
            if b == 10:  # newline
                if self.dropping:
                    self.dropping = False
                    out.append(FrameError("too_long"))
                elif self.buf:
                    out.append(bytes(self.buf))
                self.buf = bytearray()
            elif not self.dropping:
                self.buf.append(b)
                # a frame fills MAX_LINE - 1 bytes; a terminal's CR may follow it
                if len(self.buf) >= MAX_LINE and not (b == 13 and len(self.buf) == MAX_LINE):
                    self.buf = bytearray()
                    self.dropping = True
        return out


def chunks(text, size=CHUNK):
    """Split text into parts for frames (screen images, backups)."""
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]

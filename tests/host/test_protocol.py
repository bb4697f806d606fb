"""Property tests of the wire codec (shared_rules/protocol.py).

What a frame is, for these tests: the bytes before the first newline. A
trailing "\\r" (a terminal's CRLF) and extra trailing newlines are line
terminators, not part of the frame, so a change that only adds, removes or
swaps terminator bytes after the CRC leaves the same frame (decode strips
them; LineReader drops empty lines). Every other single-byte change --
substitution, deletion or insertion anywhere in the frame, including the CRC
and the separator before it -- must be rejected with FrameError: a damaged
line is never half-read. (CRC-32 detects every single-byte substitution for
certain; a deletion or insertion could only slip through a 1-in-2**32 CRC
collision.)
"""

import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from shared_rules import protocol as P

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ops = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=16)
ids = st.integers(min_value=0, max_value=P.MAX_ID)
scalars = (st.none() | st.booleans() | st.integers(min_value=-10 ** 12, max_value=10 ** 12)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20))
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
json_objects = st.dictionaries(st.text(max_size=10), json_values, max_size=5)


def encode_or_skip(fn, *args):
    """A generated frame may be over MAX_LINE: then encoding must say so."""
    try:
        return fn(*args)
    except P.FrameError as e:
        assert e.code == "too_long"
        assume(False)


def any_frame():
    """(line, decoded) for a random valid frame of any of the four types."""
    q = st.builds(lambda n, op, a: (P.request, (n, op, a), ("Q", n, (op, a))), ids, ops, json_objects)
    r_ok = st.builds(lambda n, v: (P.reply_ok, (n, v), ("R", n, (True, v))), ids, json_values)
    r_err = st.builds(lambda n, c, m: (P.reply_err, (n, c, m), ("R", n, (False, {"code": c, "message": m}))),
                      ids, ops, st.text(max_size=60))
    e = st.builds(lambda n, v: (P.event, (n, v), ("E", n, v)), ids, json_objects)
    a = st.builds(lambda n: (P.ack, (n,), ("A", n, None)), ids)
    return q | r_ok | r_err | e | a


def same(a, b):
    """Decoded frames are equal (JSON-equal: 1 == 1.0 is fine, -0.0 == 0.0)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True) or a == b


# -- round trip ------------------------------------------------------------------

@SETTINGS
@given(any_frame())
def test_encode_decode_round_trip(frame):
    fn, args, expected = frame
    line = encode_or_skip(fn, *args)
    assert line.endswith("\n") and line.count("\n") == 1
    assert len(line) <= P.MAX_LINE
    assert all(0x20 <= ord(ch) <= 0x7E for ch in line[:-1])
    decoded = P.decode(line)
    assert same(decoded, expected)
    assert same(P.decode(line.encode()), expected)  # bytes as they come off the wire
    assert same(P.decode(line[:-1]), expected)  # without the newline
    assert same(P.decode(line[:-1] + "\r\n"), expected)  # CRLF from a terminal


@SETTINGS
@given(ids, ops, json_objects)
def test_request_is_deterministic(rid, op, args):
    """A retry re-sends the same bytes: encoding is a pure function."""
    a = encode_or_skip(P.request, rid, op, args)
    assert a == P.request(rid, op, dict(args))


# -- single-byte damage ----------------------------------------------------------------

def check_damaged(original, damaged):
    """``damaged`` (bytes) is rejected, or it is the same frame with only
    line terminators changed; fed as a stream, no line of it is a different
    valid frame."""
    content = original.rstrip(b"\n")
    expected = P.decode(original)
    if damaged.rstrip(b"\r\n") == content:
        assert same(P.decode(damaged), expected)
    else:
        with pytest.raises(P.FrameError):
            P.decode(damaged)
    reader = P.LineReader()
    for item in reader.feed(damaged + b"\n"):
        if isinstance(item, P.FrameError):
            continue
        if item.rstrip(b"\r") == content:
            continue
        with pytest.raises(P.FrameError):
            P.decode(item)


@SETTINGS
@given(any_frame(), st.data())
def test_any_substitution_is_rejected(frame, data):
    fn, args, _ = frame
    line = encode_or_skip(fn, *args).encode()
    i = data.draw(st.integers(min_value=0, max_value=len(line) - 2), label="position")  # inside the frame
    b = data.draw(st.integers(min_value=0, max_value=255).filter(lambda v: v != line[i]), label="byte")
    damaged = line[:i] + bytes([b]) + line[i + 1:]
    with pytest.raises(P.FrameError):
        P.decode(damaged)
    check_damaged(line, damaged)


@SETTINGS
@given(any_frame(), st.data())
def test_any_deletion_is_rejected(frame, data):
    fn, args, _ = frame
    line = encode_or_skip(fn, *args).encode()
    i = data.draw(st.integers(min_value=0, max_value=len(line) - 2), label="position")
    damaged = line[:i] + line[i + 1:]
    with pytest.raises(P.FrameError):
        P.decode(damaged)
    check_damaged(line, damaged)


@SETTINGS
@given(any_frame(), st.data())
def test_any_insertion_is_rejected_or_only_a_terminator(frame, data):
    fn, args, _ = frame
    line = encode_or_skip(fn, *args).encode()
    i = data.draw(st.integers(min_value=0, max_value=len(line) - 1), label="position")
    b = data.draw(st.integers(min_value=0, max_value=255), label="byte")
    damaged = line[:i] + bytes([b]) + line[i:]
    check_damaged(line, damaged)
    if i < len(line) - 1:  # strictly inside the frame: never the same frame
        with pytest.raises(P.FrameError):
            P.decode(damaged)


def test_every_single_byte_change_of_one_frame():
    """Exhaustive for one real request: every position, every byte value."""
    line = P.request(123456, "flip", {"suit": "crown", "net": 1}).encode()
    content = line[:-1]
    for i in range(len(line)):
        for b in range(256):
            if b != line[i]:
                check_damaged(line, line[:i] + bytes([b]) + line[i + 1:])
            check_damaged(line, line[:i] + bytes([b]) + line[i:])
        check_damaged(line, line[:i] + line[i + 1:])
    # the terminator decisions, spelled out
    assert P.decode(content) == P.decode(line)  # newline lost (the stream's next newline ends it)
    assert P.decode(content + b"\r\n") == P.decode(line)  # CRLF
    with pytest.raises(P.FrameError):
        P.decode(content + b" \n")  # a trailing space is not a terminator
    with pytest.raises(P.FrameError):
        P.decode(content + b"\t\n")


# -- limits ---------------------------------------------------------------------------

def frame_of_length(n):
    """A correctly checksummed E frame line of exactly n bytes (with newline)."""
    head0 = 'E 7 {"pad":""}'
    pad = n - len(head0) - 10  # " " + 8 hex + "\n"
    head = 'E 7 {"pad":"%s"}' % ("x" * pad)
    line = "%s %s\n" % (head, P.crc_hex(head))
    assert len(line) == n
    return line


@pytest.mark.parametrize("n", [P.MAX_LINE - 1, P.MAX_LINE])
def test_longest_frames_pass(n):
    line = frame_of_length(n)
    assert P.decode(line)[0] == "E"
    assert P.event(7, P.decode(line)[2]) == line  # encode agrees on the limit
    assert P.LineReader().feed(line.encode()) == [line[:-1].encode()]


@SETTINGS
@given(st.integers(min_value=P.MAX_LINE + 1, max_value=4 * P.MAX_LINE))
def test_lines_over_max_line_are_rejected(n):
    line = frame_of_length(n)
    with pytest.raises(P.FrameError) as e:
        P.decode(line)
    assert e.value.code == "too_long"
    with pytest.raises(P.FrameError) as e:
        P.event(7, json.loads(line.split(" ", 2)[2].rsplit(" ", 1)[0]))
    assert e.value.code == "too_long"
    items = P.LineReader().feed(line.encode())
    assert len(items) == 1 and isinstance(items[0], P.FrameError) and items[0].code == "too_long"


@SETTINGS
@given(ops, st.text(min_size=1).filter(lambda t: any(ord(c) > 0x7E or ord(c) < 0x20 for c in t)))
def test_non_ascii_is_rejected(op, junk):
    # in an op name (the only place text is not JSON-escaped) encode refuses
    with pytest.raises(P.FrameError) as e:
        P.request(1, op + junk, {})
    assert e.value.code in ("not_ascii", "too_long")
    # JSON values are escaped, so they travel as ASCII and come back intact
    line = encode_or_skip(P.request, 1, op, {"text": junk})
    assert P.decode(line)[2][1]["text"] == junk
    # and a line carrying raw non-ASCII (or control) characters is refused
    bad = line[:-1].replace('"text"', '"' + junk + '"', 1)
    with pytest.raises(P.FrameError) as e:
        P.decode(bad)
    assert e.value.code in ("not_ascii", "too_long")
    with pytest.raises(P.FrameError):
        P.decode(bad.encode("utf-8", "surrogatepass"))


def test_non_ascii_bytes_are_rejected():
    line = P.request(5, "ping", {}).encode()
    for b in (0x00, 0x03, 0x09, 0x7F, 0x80, 0xC3, 0xFF):
        with pytest.raises(P.FrameError) as e:
            P.decode(line[:4] + bytes([b]) + line[4:])
        assert e.value.code == "not_ascii"


# -- LineReader ----------------------------------------------------------------------------

line_bodies = st.one_of(
    st.binary(max_size=40),
    st.integers(min_value=P.MAX_LINE - 3, max_value=P.MAX_LINE + 3).map(lambda n: b"y" * n),
    st.integers(min_value=0, max_value=3 * P.MAX_LINE).map(lambda n: b"z" * n),
).map(lambda b: b.replace(b"\n", b"."))


def expected_items(lines):
    out = []
    for body in lines:
        if len(body) >= P.MAX_LINE:
            out.append("too_long")
        elif body:
            out.append(body)
    return out


def normalise(items):
    return [i.code if isinstance(i, P.FrameError) else i for i in items]


@SETTINGS
@given(st.lists(line_bodies, max_size=8), st.data())
def test_line_reader_is_chunking_independent(lines, data):
    stream = b"".join(body + b"\n" for body in lines)
    tail = data.draw(st.binary(max_size=10).map(lambda b: b.replace(b"\n", b".")), label="unfinished tail")
    stream += tail
    cuts = sorted(data.draw(st.lists(st.integers(min_value=0, max_value=len(stream)), max_size=12), label="cuts"))
    pieces = [stream[a:b] for a, b in zip([0] + cuts, cuts + [len(stream)])]
    reader = P.LineReader()
    got = []
    for piece in pieces:
        got.extend(reader.feed(piece))
    assert normalise(got) == expected_items(lines)  # oversized lines reported exactly once each
    # byte by byte gives the same
    reader = P.LineReader()
    one = []
    for b in stream:
        one.extend(reader.feed(bytes([b])))
    assert normalise(one) == normalise(got)
    # and the unfinished tail is completed by the next newline
    if tail and len(tail) < P.MAX_LINE:
        assert reader.feed(b"\n") == [tail]


def test_line_reader_recovers_after_an_oversized_line():
    good = P.request(9, "ping", {}).encode()
    reader = P.LineReader()
    items = reader.feed(b"x" * (3 * P.MAX_LINE))
    assert items == []  # reported when its newline arrives, not before
    items = reader.feed(b"x" * 10 + b"\n" + good)
    assert normalise(items) == ["too_long", good[:-1]]


def test_non_ascii_in_json_is_escaped_not_refused():
    """A result holding a glyph still travels: JSON \\u escapes keep the
    frame printable ASCII (MicroPython's json does not escape by itself)."""
    line = P.reply_ok(7, {"glyph": "\u2717 \u2714\u2714", "far": "\U0001F600"})
    assert line.isascii()
    kind, rid, (ok, value) = P.decode(line)
    assert ok and value["glyph"] == "\u2717 \u2714\u2714"


def test_a_longest_frame_with_a_terminals_crlf_is_still_that_frame():
    """docs/protocol.md, line ends: a CR before the LF is not part of the
    frame, so the longest frame arrives whole from a terminal too (hypothesis
    found it refused, one byte over the limit, by decode and the reader)."""
    line = frame_of_length(P.MAX_LINE)
    crlf = line[:-1] + "\r\n"
    assert P.decode(crlf) == P.decode(line)
    assert P.LineReader().feed(crlf.encode()) == [crlf[:-1].encode()]
    longer = frame_of_length(P.MAX_LINE + 1)[:-1] + "\r\n"  # one byte over, CR or not
    items = P.LineReader().feed(longer.encode())
    assert len(items) == 1 and isinstance(items[0], P.FrameError) and items[0].code == "too_long"

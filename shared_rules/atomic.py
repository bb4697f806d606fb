"""What every system's game class shares (``Atomic``, its base): one
load/dump/digest/do, commands that happen whole or not at all, the text
digest of a save, and the game id's check.

The one dispatch convention: command ``op`` is the game's method of that
name (``command(op)``; the Deckahedron's finds some in modules loaded on
first use), refused unless ``op`` is in ``COMMANDS``.

A game keeps its state in ``self.s`` (fields, a ``count`` of commands
applied, a ``check()`` of its validity, and the PRNG ``rng``). ``Atomic.apply``
runs one command: on a RulesError, or arguments the command does not take,
the state is put back exactly as it was (the PRNG too, so a refused roll
draws nothing); on success the count grows by one and the result carries the
command's event words.
"""

from shared_rules.errors import RulesError

MAX_GAME_ID = 16  # characters of a game id (letters and digits)

# Imported once here: on a board an import inside a function searches
# sys.path for a file extending the built-in module (~8 ms each on a Pico,
# two per digest and two digests per press).
# CircuitPython's hashlib has no sha256(): its one constructor is new(name, data).
try:
    from binascii import hexlify
    from hashlib import sha256
except ImportError:
    try:
        from binascii import hexlify
        from hashlib import new as _new

        def sha256(data):
            return _new("sha256", data)
    except ImportError:
        sha256 = None


def text_digest(text):
    """First 16 hex digits of SHA-256 where hashlib exists, else FNV-1a 64:
    the state digest, the save's check value and the link's backup digest."""
    data = text.encode()
    if sha256 is not None:
        # the first 8 bytes in hex: one new str (on a board each costs a
        # search of every interned name)
        return hexlify(sha256(data).digest()[:8]).decode()
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def check_game_id(text):
    """A game id: 1 to MAX_GAME_ID letters and digits."""
    if not isinstance(text, str) or not 0 < len(text) <= MAX_GAME_ID:
        raise RulesError("bad_game", "a game id is 1 to %d letters and digits" % MAX_GAME_ID)
    for ch in text:
        if not (ch.isalpha() or ch.isdigit()) or ord(ch) > 127:
            raise RulesError("bad_game", "a game id is 1 to %d letters and digits" % MAX_GAME_ID)
    return text


def deep_copy(v):
    """v with every list and dict inside it copied (nothing changes strings,
    numbers or tuples in place)."""
    t = type(v)
    if t is list:
        return [deep_copy(x) for x in v]
    if t is dict:
        out = {}
        for k in v:
            out[k] = deep_copy(v[k])
        return out
    return v


def snapshot(s, mutable):
    """The state's fields as they are now (the ``mutable`` ones, which
    commands change in place, copied deeply) and the PRNG's words: far
    cheaper than a dump, which a board would pay on every press."""
    fields = s.__dict__.copy()  # in C; dict() of it cost a board ~8x more
    for k in mutable:
        fields[k] = deep_copy(fields[k])
    return fields, list(s.rng.s)


class Atomic:
    STATE = None  # the state class: load(text), dump(), check()
    MUTABLE = ()  # the state's fields commands change in place (snapshot)

    def __init__(self, state):
        self.s = state
        self.events = []

    @classmethod
    def load(cls, text):
        return cls(cls.STATE.load(text))

    def dump(self):
        return self.s.dump()

    def digest(self):
        return text_digest(self.s.dump())

    def do(self, op, args=None):
        """Apply one command atomically; returns its result dict."""
        if op not in self.COMMANDS:
            raise RulesError("bad_op", "unknown command %r" % (op,))
        if args is None:
            args = {}
        elif type(args) is not dict:
            raise RulesError("bad_args", "a command's arguments are a map")
        return self.apply(op, self.command(op), args, self.snapshot())

    def command(self, op):
        """The code of command ``op``, called with its arguments."""
        return getattr(self, op)

    def snapshot(self):
        """The state as it is before a command, for _restore."""
        return snapshot(self.s, self.MUTABLE)

    def apply(self, op, fn, args, before):
        """fn(**args) as command ``op``, with ``before`` the state's snapshot."""
        self.events = []
        try:
            result = fn(**args)
            self._follow_up()
            self.s.check()
        except RulesError:
            self._restore(before)
            raise
        except TypeError as e:
            self._restore(before)
            raise RulesError("bad_args", "wrong arguments for %s: %s" % (op, e))
        self.s.count += 1
        if result is None:
            result = {}
        result["events"] = self.events
        return result

    def _follow_up(self):
        """What follows from any command, before the check (the Deckahedron's:
        incapacitation)."""

    def _restore(self, before):
        s = self.s
        fields, words = before
        for k in list(s.__dict__):
            if k not in fields:  # a field the failed command added
                delattr(s, k)
        for k in fields:
            setattr(s, k, fields[k])
        s.rng.s = words

    def event(self, *words):
        self.events.append(" ".join(str(w) for w in words))

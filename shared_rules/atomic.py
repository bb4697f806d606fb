"""Commands that happen whole or not at all, for every system's game class.

A game keeps its state in ``self.s`` (fields, a ``count`` of commands
applied, a ``check()`` of its validity, and the PRNG ``rng``). ``Atomic.apply``
runs one command: on a RulesError, or arguments the command does not take,
the state is put back exactly as it was (the PRNG too, so a refused roll
draws nothing); on success the count grows by one and the result carries the
command's event words.
"""

from shared_rules.errors import RulesError


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

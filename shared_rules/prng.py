"""Portable PRNG and unbiased shuffle: the same sequence on every runtime.

xoshiro128** (Blackman and Vigna): 128 bits of state, more than the
log2(20!) ~ 61 bits needed to reach every order of a deck. Every value is
masked to 32 bits, so CPython and MicroPython agree bit for bit. On 32-bit
boards values above 2**30 are heap ints; a shuffle of 20 cards costs about a
hundred short-lived ones, which the benchmarks measure.
"""

from shared_rules.errors import RulesError

_M32 = 0xFFFFFFFF


def _rotl(x, k):
    return ((x << k) | (x >> (32 - k))) & _M32


def _splitmix32(x):
    # Expands a seed into well-mixed state words (a 32-bit splitmix variant).
    x = (x + 0x9E3779B9) & _M32
    z = x
    z = ((z ^ (z >> 16)) * 0x85EBCA6B) & _M32
    z = ((z ^ (z >> 13)) * 0xC2B2AE35) & _M32
    return x, z ^ (z >> 16)


class Rng:
    def __init__(self, seed=0):
        self.seed(seed)

    def seed(self, seed):
        """Seed from any non-negative int (folded to 128 bits)."""
        if not isinstance(seed, int) or seed < 0:
            raise RulesError("bad_seed", "a seed must be a whole number of 0 or more")
        x = 0
        words = []
        for i in range(4):
            x ^= (seed >> (32 * i)) & _M32
            x, z = _splitmix32(x)
            words.append(z)
        if not (words[0] | words[1] | words[2] | words[3]):
            words[0] = 1  # the all-zero state is a fixed point
        self.s = words

    def next32(self):
        s = self.s
        result = (_rotl((s[1] * 5) & _M32, 7) * 9) & _M32
        t = (s[1] << 9) & _M32
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 11)
        return result

    def below(self, n):
        """Uniform int in [0, n), with rejection so no value is favoured."""
        if not 0 < n <= 0x100000000:
            raise RulesError("bad_range", "can only pick from 1 to 2**32 values, not %r" % (n,))
        limit = (0x100000000 // n) * n
        while True:
            r = self.next32()
            if r < limit:
                return r % n

    def shuffle(self, items):
        """Fisher-Yates in place."""
        i = len(items) - 1
        while i > 0:
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1

    def choice(self, items):
        return items[self.below(len(items))]

    def state_hex(self):
        s = self.s
        return "%08x%08x%08x%08x" % (s[0], s[1], s[2], s[3])

    def set_state_hex(self, text):
        if not isinstance(text, str) or len(text) != 32:
            raise RulesError("bad_save", "PRNG state must be 32 hex digits")
        try:
            words = [int(text[i:i + 8], 16) for i in range(0, 32, 8)]
        except ValueError:
            raise RulesError("bad_save", "PRNG state must be 32 hex digits")
        if not (words[0] | words[1] | words[2] | words[3]):
            raise RulesError("bad_save", "PRNG state cannot be all zero")
        self.s = words

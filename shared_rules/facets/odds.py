"""Exact odds of a Facets check (seed 002): the five result bands.

A rolled die explodes: a face at or above the explode face is rolled again
and added, and that roll may explode too (seed: "a die that rolls its
highest result ... is rolled again and the result is added"). The totals
are unbounded, but every band except advantage is P(a <= T <= b) for a
bounded window of totals, a finite sum; advantage is 1 minus the four
others. So each band is an exact fraction.

P(T = t) times N**t is an integer F(t) (every roll adds at least 1, so a
total t is reached by at most t rolls, each of probability 1/N):

    F(t) = [t < e] * N**(t-1) + sum over exploding faces r of F(t-r) * N**(r-1)

and P(T <= L) = sum_{t<=L} F(t) * N**(L-t) / N**L. Under pressure nothing
explodes (T uniform on 1..N); a calm check is the fixed total N // 2.

Portable: CPython and MicroPython (big ints, no fractions module).
"""

from shared_rules.errors import RulesError

BANDS = ("advantage", "success", "cost", "fail", "fail_cost")
MODES = ("normal", "pressure", "calm")


# Own copies of two small helpers of shared_rules.deck.odds: importing that module
# would load the Deckahedron's cards and flips on a board playing Facets.
def reduce(num, den):
    """(num, den) in lowest terms, den > 0."""
    a, b = abs(num), den
    while b:
        a, b = b, a % b
    return (num // a, den // a) if a else (0, 1)


def percent_str(num, den):
    """num/den as a percentage with one decimal, rounded half up, in ints."""
    v = (num * 2000 + den) // (2 * den)
    return "%d.%d" % (v // 10, v % 10)


def _cdf(die, explode, mode, limit):
    """P(total <= limit) as (num, den)."""
    if limit < 1:
        return 0, 1
    if mode == "calm":
        return (1, 1) if die // 2 <= limit else (0, 1)
    e = die + 1 if mode == "pressure" else explode  # no face explodes under pressure
    f = [0] * (limit + 1)
    for t in range(1, limit + 1):
        v = die ** (t - 1) if t < e and t <= die else 0
        for r in range(e, die + 1):
            if t - r >= 1:
                v += f[t - r] * die ** (r - 1)
        f[t] = v
    num = 0
    for t in range(1, limit + 1):
        num += f[t] * die ** (limit - t)
    return num, die ** limit


def _sub(a, b):
    return reduce(a[0] * b[1] - b[0] * a[1], a[1] * b[1])


def band_fractions(die, tn, bonus=0, mode="normal", explode=0):
    """[(band, (num, den))...] in BANDS order, each reduced. The margin is
    total + bonus - tn: >= 5 advantage, 0..4 success, -5..-1 cost,
    -10..-6 fail, below -10 fail_cost."""
    explode = explode or die
    if mode not in MODES:
        raise RulesError("bad_args", "mode is normal, pressure or calm")
    base = tn - bonus  # total needed for margin 0
    c_fc = _cdf(die, explode, mode, base - 11)
    c_f = _cdf(die, explode, mode, base - 6)
    c_c = _cdf(die, explode, mode, base - 1)
    c_s = _cdf(die, explode, mode, base + 4)
    out = [("advantage", _sub((1, 1), c_s)), ("success", _sub(c_s, c_c)), ("cost", _sub(c_c, c_f)),
           ("fail", _sub(c_f, c_fc)), ("fail_cost", reduce(c_fc[0], c_fc[1]))]
    return out


def odds(die, tn, bonus=0, mode="normal", explode=0):
    """The JSON shape of `deckahedron odds --system facets --json` and the
    device's Odds screen: reduced "a/b" strings, plus percentages."""
    bands = {}
    percent = {}
    met = (0, 1)  # the TN met: success or advantage
    for name, (n, d) in band_fractions(die, tn, bonus, mode, explode):
        bands[name] = "%d/%d" % (n, d)
        percent[name] = percent_str(n, d)
        if name in ("advantage", "success"):
            met = reduce(met[0] * d + n * met[1], met[1] * d)
    return {"system": "facets", "die": die, "tn": tn, "bonus": bonus, "mode": mode,
            "explode": explode or die, "bands": bands, "percent": percent, "met": percent_str(met[0], met[1])}

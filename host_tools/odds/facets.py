"""`deckahedron odds --system facets`: exact band odds of a Facets check (seed 002).

    deckahedron odds --system facets --die d8 --tn 8 [--bonus N] [--explode F]
                     [--pressure | --calm] [--json]

Exploding dice have infinitely many totals, but every band is a finite sum:
success, cost, fail and fail_cost each cover a bounded window of totals,
whose probability adds up finitely many chains of rolls (each roll adds at
least 1); advantage is 1 minus the other four. The host sums P(total = t)
for t up to the window's top with fractions.Fraction, by its own
recurrence; the device (shared_rules.facets.odds, no fractions module
there) gets the same reduced figures from integers, and
tests/host/odds/test_facets.py holds both to each other.
--json prints {"system": "facets", "bands": {"advantage": "a/b", ...}}.
"""

import json
import sys
from fractions import Fraction

from shared_rules.facets.game import BANDS, DICE, MAX_BONUS, MAX_POINTS
from shared_rules.facets.results import band_words

MARGINS = (("advantage", "5 or more"), ("success", "0 to 4"), ("cost", "-5 to -1"), ("fail", "-10 to -6"),
           ("fail_cost", "below -10"))  # each band's margins (shared_rules.facets.game.band_of)
OPTIONS = ("die", "tn", "bonus", "explode")


class BadInput(Exception):
    pass


def add_arguments(parser):
    group = parser.add_argument_group("Facets (--system facets)")
    group.add_argument("--die", help="the attribute's die: d4, d6, d8, d10, d12 or d20")
    group.add_argument("--tn", help="the target number, 1 to %d" % MAX_POINTS)
    group.add_argument("--bonus", help="training, trait and effort bonus added to the roll (default 0)")
    group.add_argument("--explode", metavar="FACE",
                       help="an ability's lower explode face (default: the die's highest)")
    mode = group.add_mutually_exclusive_group()
    mode.add_argument("--pressure", action="store_true", help="under pressure: dice do not explode")
    mode.add_argument("--calm", action="store_true", help="a calm check: half the die's highest, no roll")


def used(args):
    """The Facets options given on the command line (to refuse them elsewhere)."""
    out = ["--" + k for k in OPTIONS if getattr(args, k, None) is not None]
    return out + ["--" + k for k in ("pressure", "calm") if getattr(args, k, False)]


def _int(text, name, low, high):
    try:
        value = int(str(text).strip())
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise BadInput("%s must be a whole number from %d to %d, not %r" % (name, low, high, text))
    return value


def parse(args):
    """(die, tn, bonus, explode, mode) or BadInput."""
    if args.die is None or args.tn is None:
        raise BadInput("--system facets needs --die and --tn (say --die d8 --tn 8)")
    text = args.die.strip().lower()
    die = _int(text[1:] if text.startswith("d") else text, "--die", 4, 20)
    if die not in DICE:
        raise BadInput("--die is d4, d6, d8, d10, d12 or d20, not %r" % args.die)
    tn = _int(args.tn, "--tn", 1, MAX_POINTS)
    bonus = _int(args.bonus, "--bonus", -MAX_BONUS, MAX_BONUS) if args.bonus is not None else 0
    explode = die
    if args.explode is not None:
        explode = _int(args.explode, "--explode", die // 2 + 1, die)
    mode = "pressure" if args.pressure else ("calm" if args.calm else "normal")
    return die, tn, bonus, explode, mode


def exact(die, tn, bonus=0, explode=0, mode="normal"):
    """{band: Fraction}: P(total = t) summed over each band's window."""
    explode = explode or die
    if mode == "calm":
        p = {die // 2: Fraction(1)}
    else:
        top = tn - bonus + 4  # the highest total below advantage
        p = {}
        for t in range(1, max(top, 0) + 1):
            v = Fraction(1, die) if t <= die and (t < explode or mode == "pressure") else Fraction(0)
            if mode != "pressure":
                for face in range(explode, die + 1):
                    if t - face >= 1:
                        v += p[t - face] / die  # an explosion, then any total of t - face
            p[t] = v
    out = {}
    for band in BANDS[1:]:
        out[band] = Fraction(0)
    for t, v in p.items():
        margin = t + bonus - tn
        if margin < 5:
            band = "success" if margin >= 0 else ("cost" if margin >= -5 else ("fail" if margin >= -10 else "fail_cost"))
            out[band] += v
    out["advantage"] = 1 - sum(out.values())
    return out


def as_json(results):
    bands = {}
    for b in BANDS:
        bands[b] = "%d/%d" % (results[b].numerator, results[b].denominator)
    return {"system": "facets", "bands": bands}


def _percent(f):
    v = (f.numerator * 2000 + f.denominator) // (2 * f.denominator)  # half up, in ints
    return "%d.%d" % (v // 10, v % 10)


def _print_table(die, tn, bonus, explode, mode, results):
    from rich.console import Console
    from rich.table import Table

    console = Console(file=sys.stdout, highlight=False)
    how = {"normal": "exploding on %d%s" % (explode, "" if explode == die else "+"),
           "pressure": "under pressure (no explosions)", "calm": "calm (takes %d, no roll)" % (die // 2)}[mode]
    table = Table(title="Facets: d%d %s against TN %d, bonus %+d" % (die, how, tn, bonus),
                  caption="margin = total + bonus - TN; a margin of 5 or more is an advantage, "
                          "and every further 5 one more")
    table.add_column("result")
    table.add_column("margin", justify="right")
    table.add_column("exact", justify="right")
    table.add_column("percent", justify="right")
    for key, margins in MARGINS:
        f = results[key]
        table.add_row(band_words(key), margins, "%d/%d" % (f.numerator, f.denominator), _percent(f))
    console.print(table)


def run(args, complain):
    try:
        die, tn, bonus, explode, mode = parse(args)
    except BadInput as e:
        complain(str(e))
        return 2
    results = exact(die, tn, bonus, explode, mode)
    if args.json:
        sys.stdout.write(json.dumps(as_json(results)) + "\n")
    else:
        _print_table(die, tn, bonus, explode, mode, results)
    return 0

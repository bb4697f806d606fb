"""`deckahedron odds --system save`: exact odds of SAVE's 2d6 (seed 003).

    deckahedron odds --system save [--preferred] [--expertise] [--assisted]
                     [--health strong|fair|shaken|hurt|down] [--json]

The host counts the 36 equally likely rolls with fractions.Fraction; the
device (shared_rules.save2d6.game.odds, no fractions module there) gets the same
reduced figures from a formula, and tests/host/odds/test_save2d6.py holds both
to each other. --json prints {"system": "save", "pass_faces": [...],
"results": {"complete": "a/b", "mixed": "a/b", "failure": "a/b"}}.
"""

import json
import sys
from fractions import Fraction

from shared_rules.save2d6.game import HEALTH, RESULTS, pass_faces, read
from shared_rules.save2d6.results import RESULT_WORDS

FLAGS = ("preferred", "expertise", "assisted")


def add_arguments(parser):
    group = parser.add_argument_group("SAVE 2d6 (--system save)")
    group.add_argument("--preferred", action="store_true", help="a preferred action: fives pass")
    group.add_argument("--expertise", action="store_true", help="relies on the hero's expertise: fours pass")
    group.add_argument("--assisted", action="store_true",
                       help="an assisting action came out complete or mixed: twos pass")
    group.add_argument("--health", choices=HEALTH, help="the hero's health (default strong): threes fail "
                                                        "when shaken, hurt or down")


def used(args):
    """The SAVE options given on the command line (to refuse them elsewhere)."""
    out = ["--" + f for f in FLAGS if getattr(args, f, False)]
    if getattr(args, "health", None) is not None:
        out.append("--health")
    return out


def exact(faces):
    """{result: Fraction} by counting all 36 rolls of two d6."""
    counts = {"complete": 0, "mixed": 0, "failure": 0}
    for a in range(1, 7):
        for b in range(1, 7):
            counts[read([a, b], faces)] += 1
    return {k: Fraction(n, 36) for k, n in counts.items()}


def compute(args):
    faces = pass_faces(args.preferred, args.expertise, args.assisted, args.health or "strong")
    return faces, exact(faces)


def as_json(faces, results):
    return {"system": "save", "pass_faces": faces,
            "results": {k: "%d/%d" % (results[k].numerator, results[k].denominator) for k in RESULTS}}


def _print_table(args, faces, results):
    from rich.console import Console
    from rich.table import Table

    from shared_rules.deck.odds import percent_str

    console = Console(file=sys.stdout, highlight=False)
    pass_words = ", ".join(str(f) for f in faces)
    fail_words = ", ".join(str(f) for f in range(1, 7) if f not in faces)
    table = Table(title="SAVE 2d6: pass %s; fail %s" % (pass_words, fail_words),
                  caption="health %s; both dice pass: %s, one: %s, none: %s"
                          % ((args.health or "strong",) + tuple(RESULT_WORDS[k] for k in RESULTS)))
    table.add_column("result")
    table.add_column("exact", justify="right")
    table.add_column("percent", justify="right")
    for k in RESULTS:
        f = results[k]
        table.add_row(RESULT_WORDS[k], "%d/%d" % (f.numerator, f.denominator),
                      percent_str(f.numerator, f.denominator))
    console.print(table)
    if not args.assisted:
        console.print("a two that comes up before anyone has assisted may be read again with twos passing "
                      "if another hero assists in the nick of time (see --assisted)", markup=False, soft_wrap=True)


def run(args, complain=None):
    """Print the odds; 0. (Every input is checked by argparse, so
    ``complain``, the command's one-line error, is never needed here.)"""
    faces, results = compute(args)
    if args.json:
        sys.stdout.write(json.dumps(as_json(faces, results)) + "\n")
    else:
        _print_table(args, faces, results)
    return 0

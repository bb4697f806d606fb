"""`deckahedron odds`: exact odds of any game system's roll or flip.

    deckahedron odds [--suit anvil|blade|crown|dragon] [--net N] [--cards IDS] [--json]
    deckahedron odds --system facets --die d8 --tn 8 [--bonus N] [--pressure | --calm] [--json]
    deckahedron odds --system save [--preferred] [--expertise] [--assisted] [--health LEVEL] [--json]

Each system's odds are host_tools/odds/<its folder>.py, found by its key
(shared_rules.systems.KEYS): it adds its options (add_arguments), names
those given (used) and answers (run). Bad input: one line on stderr starting
with "deckahedron odds: ", exit code 2, nothing on stdout.
"""

import sys

from host_tools import system_module
from shared_rules import systems

PROG = "deckahedron odds"
EXIT_BAD_INPUT = 2


def _odds(key):
    return system_module("odds", key)


def _complain(message):
    """One line on stderr: 'deckahedron odds: <message>'."""
    sys.stderr.write("%s: %s\n" % (PROG, " ".join(str(message).split())))


def _fail(message):
    """argparse's error hook (say an unknown --suit): one line, exit code 2."""
    _complain(message)
    sys.exit(EXIT_BAD_INPUT)


def add_arguments(parser):
    parser.add_argument("--json", action="store_true",
                        help="print JSON with exact fractions instead of a table")
    parser.add_argument("--system", choices=systems.KEYS, default=systems.DEFAULT,
                        help="the game system (default %s, the %s)" % (systems.DEFAULT, systems.name(systems.DEFAULT)))
    for key in systems.KEYS:
        _odds(key).add_arguments(parser)
    # argparse's own errors (say an unknown --suit) become one line too.
    parser.error = _fail


def _system_mismatch(args):
    """A sentence if options of one system were given with another's."""
    for key in systems.KEYS:
        given = _odds(key).used(args)
        if args.system == key or not given:
            continue
        if key == systems.DEFAULT:  # chosen without --system: say it by name
            return "only the %s takes %s, not --system %s" % (systems.name(key), " ".join(given), args.system)
        return "only --system %s takes %s" % (key, " ".join(given))
    return ""


def run(args):
    wrong = _system_mismatch(args)
    if wrong:
        _complain(wrong)
        return EXIT_BAD_INPUT
    return _odds(args.system).run(args, _complain)

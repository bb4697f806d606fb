"""The `deckahedron` command: one sub-command per module in host_tools."""

import argparse
import sys

# (name, module, help) -- each module has add_arguments(parser) and run(args).
COMMANDS = (
    ("odds", "host_tools.odds_cmd", "exact flip odds by enumeration for any draw pile"),
    ("demo", "host_tools.demo", "play a short narrated scene on the rules core"),
    ("sim", "host_tools.sim_cmd", "run a table of simulated boards (the real firmware under MicroPython)"),
    ("do", "host_tools.do_cmd", "send one command to a device and print its JSON reply"),
    ("screen", "host_tools.screen_cmd", "save a device's screen as a PNG"),
    ("table", "host_tools.table_cmd", "the GM's console: every player's device, the shared supply, the log"),
    ("flash", "host_tools.flash_cmd", "put the device code on a board (mpremote, or the MagTag's CIRCUITPY drive)"),
)


def reporter(prog, usage_exit=2):
    """(complain, fail) for a sub-command: one clean line on stderr, and
    fail() also exits with the usage status (it replaces parser.error)."""
    def complain(message):
        sys.stderr.write("%s: %s\n" % (prog, " ".join(str(message).split())))
        sys.stderr.flush()

    def fail(message):
        complain(message)
        sys.exit(usage_exit)

    return complain, fail


def build_parser():
    import importlib

    parser = argparse.ArgumentParser(prog="deckahedron", description="Deckahedron handheld: host tools for 1kFA.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, modname, helptext in COMMANDS:
        mod = importlib.import_module(modname)
        p = sub.add_parser(name, help=helptext, description=helptext)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args._run(args) or 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

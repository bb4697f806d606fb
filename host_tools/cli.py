"""The `deckahedron` command: one sub-command per module in host_tools."""

import argparse
import sys

# (name, module, help) -- each module has add_arguments(parser) and run(args)
# ("module:NAME": add_NAME_arguments and run_NAME).
COMMANDS = (
    ("odds", "host_tools.commands.odds", "exact flip odds by enumeration for any draw pile"),
    ("demo", "host_tools.commands.demo", "play a short narrated scene on the rules core"),
    ("sim", "host_tools.commands.sim", "run a table of simulated boards (the real firmware under MicroPython)"),
    ("do", "host_tools.commands.do", "send one command to a device and print its JSON reply"),
    ("screen", "host_tools.commands.screen", "save a device's screen as a PNG"),
    ("table", "host_tools.commands.table", "the GM's console: every player's device, the shared supply, the log"),
    ("replay", "host_tools.commands.replay", "check a session database's proof of roll through the rules core, "
                                        "or export its record (Markdown, CSV, JSON)"),
    ("flash", "host_tools.commands.flash", "put the game on a board: the image in BOOTSEL mode, mpremote on a running "
                                      "board, the MagTag's CIRCUITPY drive"),
    ("quickref", "host_tools.commands.quickref", "print a one-page player reference (PDF or PNG): buttons, footer, "
                                           "result words, advantage"),
    ("image", "host_tools.commands.flash:image", "build the UF2 image of an RP2040 board (drag it onto RPI-RP2)"),
    ("release", "host_tools.flashing.release", "write a release's downloads into a folder: each RP2040 board's "
                                               "UF2, the base image alone, the MagTag's CIRCUITPY zip, the quick "
                                               "reference, SHA256SUMS"),
    ("base-image", "host_tools.commands.base_image", "build the RP2040 base image (MicroPython) and the emulator's bootrom "
                                                "from pinned sources into the cache"),
    ("circuitpython-image", "host_tools.commands.circuitpython_image", "build CircuitPython's image for the emulated "
                                                                  "Pico from pinned sources into the cache"),
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


def seconds(text, most=3600.0):
    """An argparse type: a finite number of seconds, more than 0 and at most
    ``most`` (inf and nan parse as floats, and then break timers or wait forever)."""
    import argparse
    import math

    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value) or not 0 < value <= most:
        raise argparse.ArgumentTypeError("%r is not a number of seconds: give more than 0 and at most %g, e.g. 2 or 0.5"
                                         % (text, most))
    return value


def whole(lo, hi, example):
    """An argparse type: a whole number from ``lo`` to ``hi``."""
    import argparse

    def parse(text):
        try:
            value = int(text, 10)
        except ValueError:
            value = None
        if value is None or not lo <= value <= hi:
            raise argparse.ArgumentTypeError("%r is not a whole number from %d to %d (e.g. %s)" % (text, lo, hi, example))
        return value

    parse.__name__ = "whole number"
    return parse


def build_parser():
    import importlib

    parser = argparse.ArgumentParser(prog="deckahedron", description="Deckahedron handheld: host tools for 1kFA.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, modname, helptext in COMMANDS:
        modname, _, variant = modname.partition(":")  # module:NAME -> add_NAME_arguments, run_NAME
        mod = importlib.import_module(modname)
        p = sub.add_parser(name, help=helptext, description=helptext)
        getattr(mod, "add_%s_arguments" % variant if variant else "add_arguments")(p)
        p.set_defaults(_run=getattr(mod, "run_" + variant if variant else "run"))
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

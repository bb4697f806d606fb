"""`deckahedron base-image`: build the RP2040 base image and the emulator's
bootrom from pinned public sources, into the cache (`make base-image`).

    deckahedron base-image [--micropython-src DIR] [--jobs N] [--clean] [--names FILE]
                           [--rp2040js-src DIR] [--bootrom-only]

Without --micropython-src the sources are fetched at the pinned commits into
the cache (git; $MICROPY_GIT_BASE replaces https://github.com). The logic is
host_tools/flashing/base_image.py; docs/rp2040.md, "The base image".

Exit codes: 0 built and installed, 1 the build failed, 2 bad usage, or the
toolchain or the sources are missing (nothing was built).
"""

import sys

from host_tools.flashing import rp2040
from host_tools.cli import reporter, whole
from host_tools.flashing import base_image

PROG = "deckahedron base-image"


def add_arguments(parser):
    parser.add_argument("--micropython-src", metavar="DIR",
                        help="a prepared MicroPython %s tree with lib/pico-sdk, lib/tinyusb, lib/mbedtls and "
                             "lib/micropython-lib at the pinned commits (default: fetch them into the cache with git)"
                             % rp2040.MICROPYTHON_VERSION)
    parser.add_argument("--jobs", type=whole(1, 256, "2"), metavar="N", help="parallel compile jobs (default: the CPUs)")
    parser.add_argument("--clean", action="store_true", help="start from an empty build folder")
    parser.add_argument("--names", metavar="FILE",
                        help="freeze this names module (deckahedron image --base-names FILE) instead of writing one "
                             "from this checkout")
    parser.add_argument("--rp2040js-src", metavar="DIR",
                        help="a checkout of wokwi/rp2040js to make the bootrom from (default: fetch the pinned commit)")
    parser.add_argument("--bootrom-only", action="store_true", help="only make and install the bootrom")
    parser.error = reporter(PROG, base_image.NotReady.status)[1]


def run_recipe(prog, recipe):
    """recipe(say), its progress on stdout as '<command>: ...' lines and a
    BaseImageError as one line on stderr; the exit status."""
    complain, _ = reporter(prog)

    def say(message):
        sys.stdout.write("%s: %s\n" % (prog.split(" ")[-1], message))
        sys.stdout.flush()

    try:
        recipe(say)
    except base_image.BaseImageError as e:
        complain(str(e))
        return e.status
    return 0


def run(args):
    if args.bootrom_only:
        return run_recipe(PROG, lambda say: base_image.make_bootrom(args.rp2040js_src, say=say))
    return run_recipe(PROG, lambda say: base_image.build_base_image(
        args.micropython_src, jobs=args.jobs, names_file=args.names, rp2040js_src=args.rp2040js_src,
        clean=args.clean, say=say))

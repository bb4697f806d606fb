"""`deckahedron circuitpython-image`: build CircuitPython's image for the
emulated Pico (CircuitPython 10.2.1, raspberry_pi_pico) from pinned public
sources into the cache, where the emulated boards find it
(`make circuitpython-image`).

    deckahedron circuitpython-image [--circuitpython-src DIR] [--toolchain DIR] [--jobs N]
                                    [--sha256sums FILE] [--clean] [--rp2040js-src DIR]

Without --circuitpython-src the tag and its submodules are fetched at the
pinned commits into the cache (git; $MICROPY_GIT_BASE replaces
https://github.com). The logic is host_tools/flashing/circuitpython_image.py;
docs/rp2040.md, "CircuitPython on the emulated Pico".

Exit codes: 0 built and installed, 1 the build failed (or its sha256 is not
the one --sha256sums lists), 2 bad usage, or the toolchain or the sources are
missing (nothing was built).
"""

from host_tools.cli import reporter, whole
from host_tools.commands.base_image import run_recipe
from host_tools.flashing import circuitpython_image as C

PROG = "deckahedron circuitpython-image"


def add_arguments(parser):
    parser.add_argument("--circuitpython-src", metavar="DIR",
                        help="a prepared CircuitPython %s tree with the submodules the raspberrypi port needs "
                             "(default: fetch them into the cache with git)" % C.TAG)
    parser.add_argument("--toolchain", metavar="DIR",
                        help="a folder holding arm-none-eabi-gcc >= %d, put first on PATH" % C.MIN_GCC)
    parser.add_argument("--jobs", type=whole(1, 256, "2"), metavar="N", help="parallel compile jobs (default: the CPUs)")
    parser.add_argument("--sha256sums", metavar="FILE",
                        help="a SHA256SUMS listing the image: a build of other bytes fails and is not installed")
    parser.add_argument("--clean", action="store_true", help="start from an empty build folder")
    parser.add_argument("--rp2040js-src", metavar="DIR",
                        help="a checkout of wokwi/rp2040js to make the emulator's bootrom from, when the cache lacks "
                             "it (default: fetch the pinned commit)")
    parser.error = reporter(PROG, C.NotReady.status)[1]


def run(args):
    return run_recipe(PROG, lambda say: C.build_circuitpython_image(
        args.circuitpython_src, jobs=args.jobs, toolchain=args.toolchain, sha256sums=args.sha256sums,
        rp2040js_src=args.rp2040js_src, clean=args.clean, say=say))

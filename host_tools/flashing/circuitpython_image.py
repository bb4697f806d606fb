"""CircuitPython's image for the emulated Pico, built by one command:
`deckahedron circuitpython-image` (`make circuitpython-image`; docs/rp2040.md,
"CircuitPython on the emulated Pico").

CircuitPython 10.2.1 (host_tools/sim/circuitpython.py: the version, the
image's name and sha256) for the board raspberry_pi_pico, as Adafruit's
port builds it: `make -C mpy-cross`, then `make -C ports/raspberrypi`. The
sources are the tag and the 20 submodules its CI fetches for that port
(tools/ci_fetch_deps.py), at the commits SOURCES pins: a prepared tree
(CIRCUITPY_SRC=DIR), or a shallow fetch into the cache by base_image.py's
code ($MICROPY_GIT_BASE for a mirror, as for the base image). The build and
mpy-cross go into the cache's build-circuitpython/ folder, never into the
tree. The port build's Python requirements go into a venv of their own in
the cache, not the project's. Reproducible: SOURCE_DATE_EPOCH and CP_VERSION
are fixed, so a tree without .git builds the same bytes (the image's sha256
is compared with the pinned one). CircuitPython 10 refuses GCC < 14
(py/circuitpy_mpconfig.h): the toolchain is checked first.
"""

import os
import re
import shutil
import sys
import time
from pathlib import Path

from host_tools.flashing import base_image, rp2040
from host_tools.flashing.base_image import BaseImageError, NotReady
from host_tools.sim import circuitpython

TAG = circuitpython.CP_VERSION
COMMIT = "bcfcb511352652d7cb62d3b415e4a624380f1830"  # the tag, 2026-05-12
BOARD = "raspberry_pi_pico"
MIN_GCC = 14
INSTALL = ("GCC >= %d for arm-none-eabi with newlib (Debian trixie or later: apt-get install gcc-arm-none-eabi "
           "libnewlib-arm-none-eabi; or Arm's GNU toolchain), its bin folder first on PATH or given as "
           "--toolchain DIR (make circuitpython-image CROSS=DIR)" % MIN_GCC)
TOOLS = ("arm-none-eabi-gcc", "make")
PREPARED = "CIRCUITPY_SRC=DIR"
DOC = "docs/rp2040.md, 'CircuitPython on the emulated Pico'"

# (path in the tree, repository, commit, a file the tree must hold there).
# The tag's submodules the raspberrypi port fetches; lwip and certificates
# are not compiled for this board (no Wi-Fi, no SSL), but the build reads
# their folders' presence.
SOURCES = (
    ("", "adafruit/circuitpython", TAG, "py/circuitpy_mpconfig.h"),
    ("ports/raspberrypi/sdk", "raspberrypi/pico-sdk", "a1438dff1d38bd9c65dbd693f0e5db4b9ae91779",
     "pico_sdk_init.cmake"),
    ("ports/raspberrypi/lib/Pico-PIO-USB", "sekigon-gonnoc/Pico-PIO-USB", "675543bcc9baa8170f868ab7ba316d418dbcf41f",
     "src/pio_usb.c"),
    ("ports/raspberrypi/lib/PicoDVI", "circuitpython/PicoDVI", "987cc88a70fc7d2280bdf32428f12d42b7ea7c43",
     "software/libdvi/dvi.c"),
    ("ports/raspberrypi/lib/cyw43-driver", "georgerobotics/cyw43-driver", "dd7568229f3bf7a37737b9e1ef250c26efe75b23",
     "src/cyw43.h"),
    ("ports/raspberrypi/lib/lwip", "adafruit/lwip", "bd522fde9409398297b4e3244c92576b86ef16ec",
     "src/include/lwip/init.h"),
    ("lib/tinyusb", "hathach/tinyusb", "c1bf19ed6cf1eaa791f221c1bc5ce4b3d069f76d", "src/tusb.h"),
    ("extmod/ulab", "v923z/micropython-ulab", "1d3ddd8f5228e2c7335dac71f4846e6abb0ec9f9", "code/ulab.c"),
    ("lib/adafruit_floppy", "adafruit/Adafruit_Floppy", "a20190fb04d14197dcc2b578d54ce0ba9223f525",
     "src/Adafruit_Floppy.h"),
    ("lib/mbedtls", "Mbed-TLS/mbedtls", "981743de6fcdbe672e482b6fd724d31d0a0d2476", "library/aes.c"),
    ("lib/mp3", "adafruit/Adafruit_MP3", "aac02afd9f24d2ee930f650156654ab9211a306a", "src/mp3dec.c"),
    ("lib/certificates", "adafruit/certificates", "d7c6385f671665820ea2d307b0a94f9e61ef6f91", "README.md"),
    ("lib/protomatter", "adafruit/Adafruit_Protomatter", "f83bac7e421077812523fddb83d3e25f29753315", "src/core.c"),
    ("lib/quirc", "adafruit/quirc", "8c6ffa228a4c7643daed7039d3c51d38a43991b8", "lib/quirc.c"),
    ("lib/tlsf", "espressif/tlsf", "ea82911f4c7180f351bb17491b6bcb450e7ad812", "tlsf.c"),
    ("data/nvm.toml", "adafruit/nvm.toml", "8bca037b052a4a4dc46a56a25a1b802652ee3f47", "nvm.template.toml"),
    ("tools/huffman", "tannewt/huffman", "27b1bba76198a0b343f694a6d680b5293d1c56aa", "huffman/__init__.py"),
    ("tools/uf2", "microsoft/uf2", "27e322fcdcc6eee0642242638d4f2557efb32559", "utils/uf2conv.py"),
    ("tools/python-semver", "k-bx/python-semver", "2001c62d1a0361c44acc7076d8ce91e1d1c66141", "semver.py"),
    ("tools/bitmap_font", "adafruit/Adafruit_CircuitPython_BitmapFont", "62dd78abdd0b823824fe15d1bab0611246145c23",
     "adafruit_bitmap_font/bdf.py"),
    ("tools/Tecate-bitmap-fonts", "Tecate/bitmap-fonts", "6f52a7ca0838967cc57e9a44d76c6e1f60e62842", "README.md"),
)
MARKERS = dict((path, marker) for path, _, _, marker in SOURCES)

# The tree's requirements-dev.txt less what only lints, tests or serves
# other ports (ruff, pre-commit, pytest, coveralls, uncrustify, perfetto,
# websockets, colorama): what the raspberrypi port build imports.
PY_REQUIREMENTS = ("cascadetoml", "jinja2", "typer", "sh", "click<8.2.0", "requests", "requests-cache", "polib",
                   "pyyaml", "intelhex", "pyelftools", "cryptography", "minify_html", "jsmin", "setuptools", "tomlkit")
REQUIREMENTS_STAMP = "deckahedron-requirements"  # in the venv: what was installed


def pins():
    return [(path, repo, rev) for path, repo, rev, _ in SOURCES]


def tool_path(toolchain=None):
    """$PATH with the folder `toolchain` (arm-none-eabi-gcc's) first."""
    path = os.environ.get("PATH", os.defpath)
    return os.pathsep.join([str(Path(toolchain).resolve()), path]) if toolchain else path


def check_toolchain(git=False, path=None):
    """NotReady, in one line saying what to install, unless arm-none-eabi-gcc
    >= 14 with newlib and make (and git, to fetch) are on `path`."""
    base_image.check_toolchain(git, TOOLS, INSTALL, path, PREPARED)
    version = base_image.gcc_says(["-dumpversion"], path)
    major = re.match(r"\d+", version)
    if not major or int(major.group()) < MIN_GCC:
        raise NotReady("%s is GCC %s; CircuitPython %s needs %s"
                       % (shutil.which("arm-none-eabi-gcc", path=path), version or "of no known version", TAG,
                          INSTALL))


def check_tree(src):
    """NotReady, in one line, unless `src` holds CircuitPython and each pinned
    submodule (at its commit, where it is a git checkout)."""
    base_image.check_unpacked(src, pins(), MARKERS, "CircuitPython", DOC)
    if not (Path(src) / "ports" / "raspberrypi" / "boards" / BOARD / "mpconfigboard.mk").is_file():
        raise NotReady("%s has no board %s: it is not CircuitPython %s" % (src, BOARD, TAG))
    base_image.check_heads(src, [("", SOURCES[0][1], COMMIT)] + pins()[1:])


def fetch_sources(dest, base=None, say=print):
    """The tag and its submodules at the pinned commits, fetched into `dest`."""
    base_image.fetch_sources(dest, base, say, pins(), "circuitpython_image.SOURCES", PREPARED)
    head = base_image.run_git(["rev-parse", "HEAD"], dest)
    if head != COMMIT:
        raise BaseImageError("the tag %s of %s is %s, not %s" % (TAG, SOURCES[0][1], head, COMMIT))
    return Path(dest)


def python_env(venv, say=print):
    """A venv at `venv` holding PY_REQUIREMENTS (installed once by pip);
    its bin folder."""
    venv = Path(venv)
    stamp = venv / REQUIREMENTS_STAMP
    wanted = "\n".join(PY_REQUIREMENTS) + "\n"
    if stamp.is_file() and stamp.read_text() == wanted:
        return venv / "bin"
    say("installing the port build's Python requirements into %s (%s)" % (venv, " ".join(PY_REQUIREMENTS)))
    log = venv.parent / (venv.name + ".log")
    venv.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("")
    base_image.run_logged([sys.executable, "-m", "venv", venv], log, dict(os.environ))
    base_image.run_logged([venv / "bin" / "python", "-m", "pip", "install", "-q"] + list(PY_REQUIREMENTS), log,
                    dict(os.environ))
    stamp.write_text(wanted)
    return venv / "bin"


def build_env(path, bin_dir):
    env = dict(os.environ, PATH=os.pathsep.join([str(bin_dir), path]), SOURCE_DATE_EPOCH=base_image.SOURCE_DATE_EPOCH,
               CP_VERSION=TAG)
    env.pop("VIRTUAL_ENV", None)
    return env


def build(src, work, env, jobs=None, say=print):
    """firmware.uf2 (bytes) built from the tree `src` in the folder `work`
    (reused: a second build only relinks)."""
    src, work = Path(src).resolve(), Path(work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    jobs = jobs or os.cpu_count() or 1
    log = work / "build.log"
    log.write_text("")
    mpy_cross = work / "mpy-cross"
    say("building mpy-cross (output in %s)" % log)
    base_image.run_logged(["make", "-C", src / "mpy-cross", "-j%d" % jobs, "BUILD=%s" % mpy_cross], log, env)
    out = work / ("build-" + BOARD)
    say("compiling CircuitPython %s for %s (make -j%d)" % (TAG, BOARD, jobs))
    base_image.run_logged(["make", "-C", src / "ports" / "raspberrypi", "-j%d" % jobs, "BOARD=" + BOARD, "BUILD=%s" % out,
                     "MICROPY_MPYCROSS=%s" % (mpy_cross / "mpy-cross")], log, env)
    return (out / "firmware.uf2").read_bytes()


def check(image):
    """BaseImageError unless `image` is a UF2 of CircuitPython TAG that fits
    below CIRCUITPY (flash offset circuitpython.FS_OFFSET)."""
    try:
        flash = rp2040.uf2_to_flash(image)
    except rp2040.ImageError as e:
        raise BaseImageError("the image built is not a UF2: %s" % e)
    if not flash or min(flash) != rp2040.FLASH_BASE:
        raise BaseImageError("the image built does not start at the flash's base 0x%08x" % rp2040.FLASH_BASE)
    end = max(addr + len(data) for addr, data in flash.items())
    if end > rp2040.FLASH_BASE + circuitpython.FS_OFFSET:
        raise BaseImageError("the image built ends at 0x%08x, over CIRCUITPY at 0x%08x"
                             % (end, rp2040.FLASH_BASE + circuitpython.FS_OFFSET))
    if not any(b"Adafruit CircuitPython %s on" % TAG.encode() in data for data in flash.values()):
        raise BaseImageError("the image built does not say 'Adafruit CircuitPython %s'" % TAG)
    return end


def listed_sha256(sums):
    """The sha256 a SHA256SUMS file lists for circuitpython.IMAGE."""
    try:
        text = Path(sums).read_text()
    except OSError as e:
        raise NotReady("cannot read %s: %s" % (sums, e.strerror or e))
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].lstrip("*") == circuitpython.IMAGE and re.fullmatch(r"[0-9a-f]{64}", parts[0]):
            return parts[0]
    raise NotReady("%s lists no sha256 for %s" % (sums, circuitpython.IMAGE))


# -- all of it -------------------------------------------------------------------

def build_circuitpython_image(src=None, jobs=None, toolchain=None, sha256sums=None, work=None, venv=None,
                              bootrom=True, rp2040js_src=None, clean=False, say=print):
    """The whole recipe: check the toolchain, the sources (or fetch them),
    the Python requirements, build, check and install the image (and the
    emulator's bootrom). Returns its path."""
    started = time.monotonic()
    path = tool_path(toolchain)
    check_toolchain(git=src is None, path=path)
    expected = listed_sha256(sha256sums) if sha256sums else None
    say("toolchain: %s, GCC %s" % (shutil.which("arm-none-eabi-gcc", path=path),
                                   base_image.gcc_says(["-dumpversion"], path)))
    cache = rp2040.cache_dir()
    if src is None:
        src = fetch_sources(cache / "src" / "circuitpython", say=say)
    check_tree(src)
    say("sources: %s (CircuitPython %s)" % (src, TAG))
    if bootrom:
        base_image.make_bootrom(rp2040js_src, say=say)
    bin_dir = python_env(Path(venv) if venv else cache / "venv-circuitpython", say)
    work = Path(work) if work else cache / "build-circuitpython"
    if clean and work.exists():
        shutil.rmtree(work)
    image = build(src, work, build_env(path, bin_dir), jobs, say)
    end = check(image)
    say("image: %d B, firmware ends at 0x%08x, %d B below CIRCUITPY"
        % (len(image), end, rp2040.FLASH_BASE + circuitpython.FS_OFFSET - end))
    digest = base_image.sha256(image)
    say("sha256 %s  %s" % (digest, circuitpython.IMAGE))
    if expected and digest != expected:
        raise BaseImageError("sha256 %s differs from %s's %s (another toolchain or other sources?); "
                             "the image is left in %s" % (digest, sha256sums, expected, work / ("build-" + BOARD)))
    say("the pinned sha256 (host_tools/sim/circuitpython.py): %s"
        % ("the same" if digest == circuitpython.IMAGE_SHA256 else "differs: " + circuitpython.IMAGE_SHA256))
    installed = base_image.install(image, circuitpython.IMAGE)
    say("installed %s in %.0f s" % (installed, time.monotonic() - started))
    return installed

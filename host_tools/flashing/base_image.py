"""The RP2040 base image, built by one command: `deckahedron base-image`
(`make base-image`; docs/rp2040.md, "The base image").

MicroPython v1.28.0's own rp2 build for the board DECKAHEDRON_PICO: the
port's RPI_PICO with this repository's files laid over it
(host_tools/flashing/DECKAHEDRON_PICO/: the ROMFS and littlefs sizes of
host_tools/flashing/rp2040.py, and a frozen manifest that adds the device code's
names, rp2040.names_mpy() of this checkout). RPI_PICO's other files
(board.json, pins.csv) are copied from the source tree at build time, so
only what differs from RPI_PICO is kept here. The board folder, the build
and mpy-cross go into the cache's build/ folder, never into the source
tree, so a prepared tree can be shared and read-only.

The sources are MicroPython at the tag and its four submodules at the
commits rp2040.SOURCES pins: a prepared tree (MICROPY_SRC=DIR), or a
shallow fetch of exactly those commits into the cache (src/micropython);
$MICROPY_GIT_BASE replaces https://github.com (a mirror, or local bare
repositories laid out as BASE/owner/name). The build is reproducible:
SOURCE_DATE_EPOCH is fixed, and the version string is the tag's whether or
not the tree is a git checkout. The image is checked (rp2040.check_base_image)
and installed into rp2040.cache_dir(), with the RP2040 bootrom the
emulator needs, made from rp2040js's demo/bootrom.ts at a pinned commit and
checked against its sha256. Nothing built here is kept in the repository.
"""

import hashlib
import os
import re
import shutil
import struct
import subprocess
import time
from pathlib import Path

from host_tools.flashing import rp2040

BOARD = "DECKAHEDRON_PICO"
BOARD_FILES = Path(__file__).resolve().parent / BOARD  # laid over the port's RPI_PICO
STOCK_BOARD = "RPI_PICO"
APT = "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi cmake"
TOOLS = ("arm-none-eabi-gcc", "cmake", "make")

# 2026-01-01 00:00 UTC: the build date the image carries (MICROPY_BUILD_DATE),
# so the same sources give the same bytes.
SOURCE_DATE_EPOCH = "1767225600"
GIT_BASE_ENV = "MICROPY_GIT_BASE"
GIT_BASE = "https://github.com"
PIN_FILE = "deckahedron-pin"  # in a fetched repository's .git: the pin it holds

# The emulator's bootrom: raspberrypi/pico-bootrom B1 as rp2040js carries it
# (demo/bootrom.ts, MIT), at rp2040js 1.3.3; the bytes' sha256 is checked.
RP2040JS = ("wokwi/rp2040js", "7701ee065f50a04380f81361befd754810cb9e28")
BOOTROM_TS = "demo/bootrom.ts"
BOOTROM_BYTES = 16 * 1024
BOOTROM_SHA256 = "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"

# A file each source must hold (the build reads them all).
MARKERS = {
    "": "py/mpconfig.h",
    "lib/pico-sdk": "pico_sdk_init.cmake",
    "lib/tinyusb": "src/tusb.h",
    "lib/mbedtls": "library/aes.c",
    "lib/micropython-lib": "README.md",
}
SIZES = {"MICROPY_HW_ROMFS_BYTES": rp2040.ROMFS_BYTES, "MICROPY_HW_FLASH_STORAGE_BYTES": rp2040.FS_BYTES}


class BaseImageError(Exception):
    """One line that says what is wrong and what to do."""
    status = 1  # the build failed


class NotReady(BaseImageError):
    """The toolchain or the sources are missing: nothing was built."""
    status = 2


def pins():
    """(path in the tree, repository, tag or commit) of each source, from
    rp2040.SOURCES (whose note starts with the path; '' is the root)."""
    return [(note.split(" ")[0], repo, rev) for repo, rev, note in rp2040.SOURCES]


def board_sizes(header=None):
    """{define: bytes} of the board's sizes, as mpconfigboard.h writes them."""
    text = Path(header or BOARD_FILES / "mpconfigboard.h").read_text()
    found = re.findall(r"^#define\s+(MICROPY_HW_\w+_BYTES)\s+\(\s*(\d+)\s*\*\s*1024\s*\)", text, re.M)
    return dict((name, int(kib) * 1024) for name, kib in found)


def check_board(header=None):
    """Refuse a board definition whose sizes are not host_tools/flashing/rp2040.py's."""
    got = board_sizes(header)
    for name, want in SIZES.items():
        if got.get(name) != want:
            raise BaseImageError("%s sets %s to %s; host_tools/flashing/rp2040.py says %d: make them agree"
                                 % (header or BOARD_FILES / "mpconfigboard.h", name, got.get(name), want))


# -- the toolchain and the sources -------------------------------------------

def check_toolchain(git=False, tools=TOOLS, install=APT, path=None, prepared="MICROPY_SRC=DIR"):
    """NotReady, in one line naming what to install (`install`), unless the
    ARM compiler with its C library and `tools` (and git, to fetch) are on
    `path` (default $PATH)."""
    for tool in tools + (("git",) if git else ()):
        if not shutil.which(tool, path=path):
            extra = "; git to fetch the sources (or give %s)" % prepared if tool == "git" else ""
            raise NotReady("%s is missing: %s%s" % (tool, install, extra))
    libc = gcc_says(["-print-file-name=libc.a"], path)
    if not os.path.isabs(libc) or not os.path.isfile(libc):
        raise NotReady("arm-none-eabi-gcc has no C library (newlib): %s" % install)


def gcc_says(args, path=None):
    """What arm-none-eabi-gcc (found on `path`) prints for `args`, or ''."""
    try:
        return subprocess.run([shutil.which("arm-none-eabi-gcc", path=path) or "arm-none-eabi-gcc"] + args,
                              capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def tree_version(src):
    """'v1.28.0' (or '-preview') as the tree's py/mpconfig.h says, or None."""
    try:
        text = (Path(src) / "py" / "mpconfig.h").read_text()
    except OSError:
        return None
    parts = dict(re.findall(r"^#define MICROPY_VERSION_(MAJOR|MINOR|MICRO|PRERELEASE) \(?(\d+)\)?$", text, re.M))
    if len(parts) != 4:
        return None
    return "v%s.%s.%s%s" % (parts["MAJOR"], parts["MINOR"], parts["MICRO"],
                            "-preview" if parts["PRERELEASE"] != "0" else "")


def check_tree(src):
    """NotReady, in one line, unless `src` is MicroPython v1.28.0 with the
    pinned submodules unpacked (and at the pinned commits, where they are
    git checkouts)."""
    check_unpacked(src, pins(), MARKERS, "MicroPython", "docs/rp2040.md, 'The base image'")
    version = tree_version(src)
    if version != rp2040.MICROPYTHON_VERSION:
        raise NotReady("%s is MicroPython %s, not %s" % (src, version or "of no known version",
                                                        rp2040.MICROPYTHON_VERSION))
    check_heads(src, pins())


def check_unpacked(src, sources, markers, what, doc):
    """NotReady, in one line, unless `src` is a folder holding each source
    of `sources` ((path, repo, rev); path '' is the root) at its path, as
    the file `markers` names for it shows."""
    src = Path(src)
    if not src.is_dir():
        raise NotReady("the %s source tree %s is not a folder" % (what, src))
    for path, repo, rev in sources:
        marker = src / path / markers[path]
        if not marker.is_file():
            where = "%s/" % path if path else "the tree"
            raise NotReady("%s lacks %s: %s of %s at %s is missing (%s, pins them)"
                           % (src, marker.relative_to(src), where, repo, rev, doc))


def check_heads(src, sources):
    """NotReady unless each source that is a git checkout is at its pinned commit."""
    for path, repo, rev in sources:
        if _is_commit(rev) and (Path(src) / path / ".git").exists():
            head = run_git(["rev-parse", "HEAD"], Path(src) / path, check=False)
            if head and head != rev:
                raise NotReady("%s is at %s; %s is pinned at %s" % (Path(src) / path if path else src, head, repo, rev))


def _is_commit(rev):
    return re.fullmatch(r"[0-9a-f]{40}", rev) is not None


def run_git(args, cwd, check=True):
    proc = subprocess.run(["git"] + args, cwd=str(cwd), capture_output=True, text=True)
    if proc.returncode:
        if not check:
            return None
        lines = (proc.stderr or proc.stdout).strip().splitlines() or ["exit status %d" % proc.returncode]
        raise BaseImageError("git %s in %s failed: %s" % (" ".join(args), cwd, lines[-1]))
    return proc.stdout.strip()


def git_base():
    return os.environ.get(GIT_BASE_ENV) or GIT_BASE


def fetch(dest, repo, rev, base=None, say=print, prepared="MICROPY_SRC=DIR"):
    """`repo` (owner/name) at `rev` (a tag or a commit) checked out in `dest`
    by `git init` and a fetch of that one commit; done once (the pin is
    recorded in its .git)."""
    dest = Path(dest)
    stamp = dest / ".git" / PIN_FILE
    if stamp.is_file() and stamp.read_text().strip() == rev:
        return dest
    url = "%s/%s" % ((base or git_base()).rstrip("/"), repo)
    say("fetching %s %s from %s" % (repo, rev, url))
    dest.mkdir(parents=True, exist_ok=True)
    run_git(["init", "-q"], dest)
    try:
        run_git(["fetch", "-q", "--depth", "1", url, rev], dest)
    except BaseImageError as e:
        raise BaseImageError("cannot fetch %s %s (%s); without network give a prepared tree, %s"
                             % (repo, rev, e, prepared))
    got = run_git(["rev-parse", "FETCH_HEAD"], dest)
    if _is_commit(rev) and got != rev:
        raise BaseImageError("%s gave %s for %s" % (url, got, rev))
    run_git(["-c", "advice.detachedHead=false", "checkout", "-q", "--force", "--detach", "FETCH_HEAD"], dest)
    stamp.write_text(rev + "\n")
    return dest


def fetch_sources(dest, base=None, say=print, sources=None, pinned_by="rp2040.SOURCES",
                  prepared="MICROPY_SRC=DIR"):
    """The pinned sources ((path, repo, rev), default pins()) fetched into
    `dest`: the root, then each submodule into its folder. The root's own
    submodule commits are checked against the pins (`pinned_by` names
    where they are written)."""
    dest = Path(dest)
    sources = sources or pins()
    for path, repo, rev in sources:
        if path:
            named = run_git(["ls-tree", "HEAD", path], dest).split()
            if len(named) < 3 or named[2] != rev:
                raise BaseImageError("%s %s names %s for %s; %s pins %s"
                                     % (sources[0][1], sources[0][2], named[2] if len(named) > 2 else "nothing",
                                        path, pinned_by, rev))
        fetch(dest / path if path else dest, repo, rev, base, say, prepared)
    return dest


# -- the build ----------------------------------------------------------------

def _write(path, data):
    """Write `data` unless the file already holds it (an unchanged header
    keeps its time, and a warm build recompiles nothing)."""
    path = Path(path)
    if path.is_file() and path.read_bytes() == data:
        return
    path.write_bytes(data)


def write_board(src, board_dir, names_mpy):
    """The board folder: the tree's RPI_PICO, this repository's files over
    it, and the names module."""
    board_dir = Path(board_dir)
    board_dir.mkdir(parents=True, exist_ok=True)
    files = {}
    for f in sorted((Path(src) / "ports" / "rp2" / "boards" / STOCK_BOARD).iterdir()):
        if f.is_file():
            files[f.name] = f.read_bytes()
    for f in sorted(BOARD_FILES.iterdir()):
        if f.is_file() and not f.name.startswith("."):
            files[f.name] = f.read_bytes()
    files[rp2040.NAMES_MODULE] = names_mpy
    for f in board_dir.iterdir():
        if f.name not in files:
            f.unlink()
    for name, data in files.items():
        _write(board_dir / name, data)
    return board_dir


def run_logged(cmd, log, env, cwd=None):
    with open(log, "a") as out:
        out.write("\n$ %s\n" % " ".join(str(c) for c in cmd))
        out.flush()
        proc = subprocess.run([str(c) for c in cmd], stdout=out, stderr=subprocess.STDOUT, env=env,
                              cwd=str(cwd) if cwd else None)
    if proc.returncode:
        tail = Path(log).read_text(errors="replace").strip().splitlines()[-1:]
        raise BaseImageError("%s failed (exit %d): %s; the whole output is in %s"
                             % (Path(str(cmd[0])).name + " " + str(cmd[1]), proc.returncode,
                                tail[0] if tail else "", log))


def build_env():
    env = dict(os.environ, SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH, MICROPY_GIT_TAG=rp2040.MICROPYTHON_VERSION)
    env.pop("MICROPY_GIT_HASH", None)  # the version is the tag's, with or without a .git
    return env


def build(src, work, names_mpy, jobs=None, say=print):
    """firmware.bin (bytes) of the base image, built from the source tree
    `src` in the folder `work` (reused: a second build only relinks)."""
    src, work = Path(src).resolve(), Path(work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    jobs = jobs or os.cpu_count() or 1
    log = work / "build.log"
    log.write_text("")
    env = build_env()
    mpy_cross = work / "mpy-cross"
    env["MICROPY_MPYCROSS"] = str(mpy_cross / "mpy-cross")
    say("building mpy-cross (output in %s)" % log)
    run_logged(["make", "-C", src / "mpy-cross", "-j%d" % jobs, "BUILD=%s" % mpy_cross], log, env)
    board_dir = write_board(src, work / "boards" / BOARD, names_mpy)
    out = work / ("build-" + BOARD)
    cache = out / "CMakeCache.txt"
    if cache.is_file() and "CMAKE_HOME_DIRECTORY:INTERNAL=%s\n" % (src / "ports" / "rp2") not in cache.read_text():
        shutil.rmtree(out)  # built from another tree: cmake refuses to reuse it
    say("configuring (cmake, board %s)" % BOARD)
    run_logged(["cmake", "-S", src / "ports" / "rp2", "-B", out, "-DMICROPY_BOARD=" + BOARD,
          "-DMICROPY_BOARD_DIR=%s" % board_dir, "-DPICO_NO_PICOTOOL=1", "-DPICO_BUILD_DOCS=0"], log, env)
    say("compiling (make -j%d)" % jobs)
    run_logged(["make", "-C", out, "-j%d" % jobs], log, env)
    return (out / "firmware.bin").read_bytes()


def uf2(firmware):
    """The UF2 of firmware.bin: what the tree's tools/uf2conv.py makes of it
    (-b 0x10000000 -f 0xe48bff56; the same bytes, test_base_image.py)."""
    return rp2040.flash_to_uf2({rp2040.FLASH_BASE: firmware})


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def install(data, name):
    """Put `data` into the cache as `name`, whole or not at all."""
    dest = rp2040.cache_dir() / name
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".part")
    tmp.write_bytes(data)
    os.replace(tmp, dest)
    return dest


def check(image, names=None):
    """(flash, unfrozen names) of a UF2, after rp2040.check_base_image;
    BaseImageError if it is not a base image this project can use."""
    flash = rp2040.uf2_to_flash(image)
    try:
        rp2040.check_base_image(flash)
    except rp2040.ImageError as e:
        raise BaseImageError("the image built is not a usable base: %s" % e)
    return flash, rp2040.unfrozen_names(flash, names)


# -- the bootrom ----------------------------------------------------------------

def bootrom_from_ts(text):
    """The bootrom's bytes from rp2040js's demo/bootrom.ts: the words of its
    `new Uint32Array([...])`, little-endian."""
    start = text.find("new Uint32Array([")
    end = text.find("]", start)
    if start < 0 or end < 0:
        raise BaseImageError("%s holds no `new Uint32Array([...])`" % BOOTROM_TS)
    body = re.sub(r"//[^\n]*", "", text[start + len("new Uint32Array(["):end])
    items = [w.strip() for w in body.split(",") if w.strip()]
    bad = [w for w in items if not re.fullmatch(r"0x[0-9a-fA-F]{1,8}", w)]
    if bad:
        raise BaseImageError("%s: %r is not a 32-bit hex word" % (BOOTROM_TS, bad[0]))
    return struct.pack("<%dI" % len(items), *(int(w, 16) for w in items))


def make_bootrom(rp2040js_src=None, base=None, say=print):
    """The bootrom in the cache (rp2040.BOOTROM), made from a checkout of
    rp2040js (`rp2040js_src`), else from its pinned commit fetched into the
    cache; its sha256 must be the pinned one. Returns its path."""
    dest = rp2040.cache_dir() / rp2040.BOOTROM
    if rp2040js_src is None and dest.is_file() and sha256(dest.read_bytes()) == BOOTROM_SHA256:
        say("bootrom: %s is there (sha256 %s)" % (dest, BOOTROM_SHA256))
        return dest
    if rp2040js_src is None:
        rp2040js_src = fetch(rp2040.cache_dir() / "src" / "rp2040js", RP2040JS[0], RP2040JS[1], base, say)
    ts = Path(rp2040js_src) / BOOTROM_TS
    try:
        data = bootrom_from_ts(ts.read_text())
    except OSError as e:
        raise NotReady("cannot read %s: %s (RP2040JS_SRC is a checkout of %s)" % (ts, e.strerror or e, RP2040JS[0]))
    if len(data) != BOOTROM_BYTES or sha256(data) != BOOTROM_SHA256:
        raise BaseImageError("%s gives %d bytes of sha256 %s; the B1 bootrom is %d bytes of sha256 %s (%s at %s)"
                             % (ts, len(data), sha256(data), BOOTROM_BYTES, BOOTROM_SHA256, RP2040JS[0], RP2040JS[1]))
    dest = install(data, rp2040.BOOTROM)
    say("bootrom: %s (%d bytes) sha256 %s" % (dest, len(data), BOOTROM_SHA256))
    return dest


# -- all of it -------------------------------------------------------------------

def build_base_image(src=None, jobs=None, names_file=None, work=None, bootrom=True, rp2040js_src=None,
                     clean=False, say=print):
    """The whole recipe: check the toolchain, the sources (or fetch them),
    the bootrom, build, check and install the image. Returns its path."""
    started = time.monotonic()
    check_toolchain(git=src is None)
    check_board()
    cache = rp2040.cache_dir()
    if src is None:
        src = fetch_sources(cache / "src" / "micropython", say=say)
    check_tree(src)
    say("sources: %s (MicroPython %s)" % (src, rp2040.MICROPYTHON_VERSION))
    if bootrom:
        make_bootrom(rp2040js_src, say=say)
    work = Path(work) if work else cache / "build"
    if clean and work.exists():
        shutil.rmtree(work)
    names = rp2040.device_names()
    if names_file:
        names_mpy = Path(names_file).read_bytes()
        say("names: %s (%d bytes, given)" % (names_file, len(names_mpy)))
    else:
        names_mpy = rp2040.names_mpy(names)
        say("names: %d of this checkout's device code" % len(names))
    firmware = build(src, work, names_mpy, jobs, say)
    image = uf2(firmware)
    flash, unfrozen = check(image, names)
    end = rp2040.FLASH_BASE + len(firmware)
    say("check_base_image: ok; firmware %d B, ends at 0x%08x, %d B below the ROMFS at 0x%08x"
        % (len(firmware), end, rp2040.ROMFS_START - end, rp2040.ROMFS_START))
    say("device names not frozen in the image: %d of %d" % (len(unfrozen), len(rp2040.checkable_names(names))))
    path = install(image, rp2040.BASE_IMAGE)
    say("installed %s (%d bytes) in %.0f s" % (path, len(image), time.monotonic() - started))
    say("sha256 %s  %s" % (sha256(image), rp2040.BASE_IMAGE))
    return path

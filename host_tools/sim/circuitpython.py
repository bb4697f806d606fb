"""CircuitPython on the emulated Pico: the image, and the CIRCUITPY drive.

The image is CircuitPython 10.2.1 built for ``raspberry_pi_pico`` from its
pinned public sources (`deckahedron circuitpython-image`,
host_tools/flashing/circuitpython_image.py); like the MicroPython base image
it is kept in a folder outside the repository, never committed:

    $DECKAHEDRON_CIRCUITPY_DIR, else the RP2040 cache folder (rp2040.cache_dir())

CIRCUITPY on a Pico is a FAT12 filesystem of 512-byte sectors in the last
MiB of the 2 MiB flash (flash offset 0x100000: CircuitPython's rp2040
internal_flash.c puts the filesystem after its 1020 KiB firmware and 4 KiB
of nvm). The emulated board keeps it in a file the emulator writes every
erase and program through to (host_tools/sim/emu/flash.mjs), so saves survive
resets, power cuts and restarts; it is made here with pyfatfs holding the
game's files as ``deckahedron flash --board pico-epaper29-cp`` copies them
onto the drive (host_tools/flashing/magtag.py's plan), and read here for
the tests.
"""

import os
import time
import threading
from contextlib import contextmanager
from pathlib import Path

from host_tools.flashing import rp2040

CP_VERSION = "10.2.1"
IMAGE = "circuitpython-%s-raspberry_pi_pico.uf2" % CP_VERSION
# the sha256 of the image built from the pinned sources (../shared/circuitpython/SHA256SUMS)
IMAGE_SHA256 = "9fc8464e3325baae20f4b9742aca30b88e51b9e0fe5a200e3638146704b0f375"
FS_OFFSET = 0x100000  # flash offset of CIRCUITPY
FS_BYTES = 1024 * 1024
SECTOR = 512
# What an EmuBoard's console_text() tells a reload and an unlogged crash by:
RELOADED = "soft reboot"  # CircuitPython's own words as code.py runs again
UNLOGGED = "crash.log not written"  # firmware/entry/code.py's, for a crash with no room left to log
BOOT_OUT = "Adafruit CircuitPython %s on 2026-01-01; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n"


class ImageError(rp2040.ImageError):
    pass


def image_dirs():
    """Where the image is looked for, in order."""
    given = os.environ.get("DECKAHEDRON_CIRCUITPY_DIR")
    return ([Path(given)] if given else []) + [rp2040.cache_dir()]


def image_path():
    """The CircuitPython image for the Pico; ImageError when absent."""
    for d in image_dirs():
        if (d / IMAGE).is_file():
            return d / IMAGE
    raise ImageError("the CircuitPython %s image for the Pico (%s) is not in %s: build it with "
                     "`make circuitpython-image` (docs/rp2040.md, 'CircuitPython on the emulated Pico') or set "
                     "DECKAHEDRON_CIRCUITPY_DIR to a folder holding it"
                     % (CP_VERSION, IMAGE, " or ".join(str(d) for d in image_dirs())))


_lock = threading.Lock()


class DamagedDrive(ImageError):
    """The CIRCUITPY image's FAT does not read (a run killed mid-write)."""


@contextmanager
def _opened(path):
    """The FAT image at `path` opened with pyfatfs (under the lock), closed
    after; DamagedDrive, in one line saying what to do, when its FAT is
    damaged."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pyfilesystem2 imports pkg_resources
        from pyfatfs import PyFATException
        from pyfatfs.PyFatFS import PyFatFS
    with _lock:
        try:
            fs = PyFatFS(str(path), preserve_case=True)
            try:
                yield fs
            finally:
                fs.close()
        except PyFATException as e:
            raise DamagedDrive("%s, the board's CIRCUITPY drive, is damaged (%s): a run killed while it wrote "
                               "leaves it so; delete it (the board's saved game goes with it) and start the board "
                               "again on a fresh drive" % (path, e)) from None


def make_fat(path, size=FS_BYTES):
    """A fresh, empty CIRCUITPY image (FAT12, 512-byte sectors) at `path`."""
    from pyfatfs.PyFat import PyFat

    with open(path, "wb") as f:
        f.write(bytes(size))  # the root directory's entries must read empty
    pf = PyFat()
    pf.mkfs(str(path), fat_type=PyFat.FAT_TYPE_FAT12, size=size, sector_size=SECTOR, label="CIRCUITPY")
    pf.close()


def put_files(path, files):
    """Write `files` ({path: bytes}) onto the FAT image at `path` where they
    differ; everything else (the save) stays. True when something changed."""
    changed = False
    with _opened(path) as fs:
        for name, data in sorted(files.items()):
            name = "/" + name.lstrip("/")
            parent = name.rsplit("/", 1)[0]
            if parent:
                fs.makedirs(parent, recreate=True)
            if fs.exists(name):
                if fs.readbytes(name) == data:
                    continue
                # removed first: pyfatfs overwriting a file with a shorter one leaves a free
                # cluster in its chain, and the whole image no longer reads
                fs.remove(name)
            fs.writebytes(name, data)
            changed = True
    return changed


def read_file(path, name):
    """A file's bytes from the FAT image at `path` (None when absent). FAT
    names are case-blind: CircuitPython writes deck.sav as the short name
    DECK.SAV, which pyfatfs lists in capitals."""
    with _opened(path) as fs:
        found = _found(fs, name)
        return None if found is None or not fs.isfile(found) else fs.readbytes(found)


def _found(fs, name):
    """The path of file or folder `name` as pyfatfs spells it (None: absent)."""
    wanted = "/" + name.lstrip("/").lower()
    for found in list(fs.walk.dirs("/")) + list(fs.walk.files("/")):
        if found.lower() == wanted:
            return found
    return None


def read_settled(path, name, wall=30.0):
    """read_file, asked again while the FAT reads half-written: CircuitPython
    writes CIRCUITPY from its cache in the background, and a read of the
    image in the middle of that finds a damaged FAT. DamagedDrive after
    `wall` seconds of it."""
    end = time.monotonic() + wall
    while True:
        try:
            return read_file(path, name)
        except DamagedDrive:
            if time.monotonic() > end:
                raise
            time.sleep(0.5)


def flash_sectors(path, name, first=None):
    """The 4 KiB flash sectors (counted from the drive's start) that hold
    `name`'s first `first` bytes (a file; all of it when None) or, for a
    folder, its entries: CircuitPython erases and programs the drive a
    sector at a time."""
    with _opened(path) as fs:
        entry = fs._get_dir_entry(_found(fs, name))
        pf = fs.fs
        chain = list(pf.get_cluster_chain(entry.get_cluster()))
        if first is not None:
            chain = chain[:-(-first // pf.bytes_per_cluster)]
        return sorted({(pf.get_data_cluster_address(c) + k) // 4096 for c in chain
                       for k in (0, pf.bytes_per_cluster - 1)})


def listing(path):
    with _opened(path) as fs:
        return sorted(p for p in fs.walk.files("/"))


def game_files(board):
    """{path: bytes} the flasher puts on a CIRCUITPY drive for `board`
    (its plan, host_tools/flashing/magtag.py, against an empty drive of
    CircuitPython CP_VERSION), less deckahedron.cfg (the emulated board
    writes its own, with its seed and id). Made once per content."""
    from host_tools.sim.emulated import built_from_sources
    from host_tools.flashing import magtag

    return built_from_sources("circuitpython", board, lambda: magtag.board_files(CP_VERSION, board=board))


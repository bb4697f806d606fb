"""The full UF2 of an RP2040 board, for a hobbyist to drag onto RPI-RP2:

    base image (from the cache, host_tools/flashing/rp2040.py)      0x10000000..
    ROMFS image of the current device code                 0x10080000 (384 KiB)
    a fresh littlefs: main.py and deckahedron.cfg          0x100E0000 (1152 KiB)

so the board starts the game at once. The littlefs is the whole filesystem
region, written out in full: a first install has no saved game (later
updates with `deckahedron flash` keep it).

The littlefs is made as MicroPython v1.28.0's rp2 port mounts it (facts
from its source): ports/rp2/modules/_boot.py mounts ``vfs.VfsLfs2(bdev,
progsize=256)`` on rp2.Flash() (4096-byte blocks, the sector size); the
other VfsLfs2 arguments keep their defaults in extmod/vfs_lfs.c (readsize
32, lookahead 32), and extmod/vfs_lfsx.c sets block_cycles 100 and
cache_size min(block_size, 4 * max(readsize, progsize)). lib/littlefs is
v2.11 (on-disk format 2.1), name_max 255.
"""

from pathlib import Path

from host_tools.flashing import rp2040, files

FS_BLOCK = 4096
FS_BLOCKS = rp2040.FS_BYTES // FS_BLOCK  # 288
LFS = {"read_size": 32, "prog_size": 256, "lookahead_size": 32, "block_cycles": 100,
       "cache_size": min(FS_BLOCK, 4 * max(32, 256)), "name_max": 255, "disk_version": 0x00020001}

BUILD_DIR = Path("build") / "images"


def image_name(board):
    return "deckahedron-%s.uf2" % board


def littlefs_image(contents):
    """The littlefs region (bytes, FS_BYTES long) holding {path: bytes}."""
    import littlefs

    fs = littlefs.LittleFS(block_size=FS_BLOCK, block_count=FS_BLOCKS, **LFS)
    for path, data in sorted(contents.items()):
        parent = path.rsplit("/", 1)[0] if "/" in path else ""
        if parent:
            fs.makedirs(parent, exist_ok=True)
        with fs.open(path, "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)


def filesystem_files(board, root=files.ROOT, settings=None):
    """What the image puts on the littlefs: main.py and deckahedron.cfg
    (with the player's settings, {"sleep": MODE}, when given)."""
    main = [s for s in files.device_files(board, root) if s.board_path == "main.py"][0]
    return {"main.py": main.local.read_bytes(),
            files.CONFIG: files.config_text(board, root, settings).encode()}


def check_board(board):
    from host_tools import boards as registry

    entry = registry.board(board)
    if entry.get("image") != rp2040.IMAGE_KIND:
        raise rp2040.ImageError("%s has no RP2040 image: %s" % (
            board, "it runs CircuitPython; `deckahedron flash --board magtag` copies the game onto its "
                   "CIRCUITPY drive" if entry["runtime"] == "circuitpython" else "it is not a real board"))
    return entry


def build(board, romfs=None, root=files.ROOT, settings=None):
    """The UF2 (bytes) for `board`; rp2040.ImageError when the base image is
    missing or wrong, or the parts do not fit."""
    check_board(board)
    base = rp2040.uf2_to_flash(rp2040.base_image_path(board).read_bytes())
    rp2040.check_base_image(base)
    romfs = rp2040.build_romfs(board) if romfs is None else romfs
    if len(romfs) > rp2040.ROMFS_BYTES:
        raise rp2040.ImageError("the device code for %s is %d bytes as ROMFS; the partition holds %d"
                                % (board, len(romfs), rp2040.ROMFS_BYTES))
    chunks = dict(base)
    chunks[rp2040.ROMFS_START] = romfs + b"\xff" * (-len(romfs) % 256)
    chunks[rp2040.FS_START] = littlefs_image(filesystem_files(board, root, settings))
    return rp2040.flash_to_uf2(chunks)


def write(board, out=None, root=files.ROOT, settings=None):
    """Build the image and write it to `out` (default build/images/); its path."""
    data = build(board, root=root, settings=settings)
    out = Path(out) if out else Path(root) / BUILD_DIR / image_name(board)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".uf2.tmp")
    tmp.write_bytes(data)
    tmp.replace(out)
    return out

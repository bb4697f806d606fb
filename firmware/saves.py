"""The device's save file: written whole after every committed command, in
pieces, never as one string (a Pico has no room for that).

(Not named storage.py: CircuitPython's built-in ``storage`` module would
shadow it on the MagTag.)

Format: text lines, the last one ``end CRC``: the CRC-32 (8 lowercase hex
digits) of every byte before it, computed while the pieces are written.
What the lines mean is the app's business (app.py).

Write order: on littlefs (the RP2040 boards' flash) the new text is
written over ``deck.sav`` itself: littlefs writes a file copy-on-write and
makes the new content the file's only at close, all or nothing, so a power
cut leaves the old save or the new one (a save costs a board an open and a
close, ~3 ms, where a temporary file and a rename cost ~10-20 ms). Elsewhere
the new text goes to ``deck.tmp``, then replaces ``deck.sav``: os.rename over
an existing file is atomic on POSIX; on FAT (CircuitPython) it is not, so the
old file is removed first and a power cut can leave only ``deck.tmp``.
Reading it back is save_reader.py's (power-up only: it leaves the heap
once the game is up).
"""

import os

try:
    from binascii import crc32
except ImportError:  # a port built without it
    from shared_rules.protocol import crc32

SAVE = "deck.sav"
CRASH = "crash.log"  # firmware errors in play mode, newest last (the host's crashlog op)
MAX_CRASH = 4096  # bytes of crash.log kept: the newest entries
TMP = "deck.tmp"
BAD = "deck.bad"


def _kind(path):
    """None (missing), "dir" or "file"."""
    try:
        mode = os.stat(path)[0]
    except OSError:
        return None
    return "dir" if mode & 0x4000 else "file"


def _discard(path):
    """Remove a file, or a folder with everything in it."""
    if _kind(path) == "dir":
        for name in os.listdir(path):
            _discard(path + "/" + name)
        os.rmdir(path)
    elif _kind(path):
        os.remove(path)


def _sync():
    try:
        os.sync()
    except (AttributeError, OSError):
        pass


def on_littlefs(folder):
    """True when ``folder`` is on a littlefs mount (the rp2 boards' flash),
    where a file written over commits whole at close; False on POSIX (the
    unix port), FAT (CircuitPython) or CPython."""
    try:
        import vfs

        lfs = vfs.VfsLfs2
        mounts = vfs.mount()
    except (ImportError, AttributeError, TypeError):
        return False
    path = folder if folder.startswith("/") else os.getcwd().rstrip("/") + "/" + folder
    path = path.rstrip("/") + "/"
    fs, longest = None, -1
    for obj, at in mounts:  # the mount holding the folder: the longest prefix
        at = at.rstrip("/") + "/"
        if path.startswith(at) and len(at) > longest:
            fs, longest = obj, len(at)
    return isinstance(fs, lfs)


_UNFINISHED = None  # in-place writers a failure left open on purpose (Storage.save), listed when one is


class Storage:
    head = new_head = 0  # where the save's lines begin in the file read / the file written

    def __init__(self, folder):
        self.folder = folder
        self.in_place = on_littlefs(folder)  # write the save over itself (module notes)
        self.path = folder + "/" + SAVE
        self.tmp = folder + "/" + TMP
        self.bad = folder + "/" + BAD
        self.saves = 0

    def reader(self):
        """What reads the save back at power-up (dropped once the game is up)."""
        from save_reader import SaveReader

        return SaveReader(self)

    def open_saved(self):
        """The save file in place, for reading (the link's kept lines live
        there once saved); OSError if there is none."""
        return open(self.path, "rb")

    # -- writing -------------------------------------------------------
    def save(self, pieces):
        """Write the pieces (str, or bytes and views copied from the old save) as the
        new save, then its end line. The pieces may read the save being
        replaced (the link's kept lines): on littlefs a reader opened on it
        sees the old content until the writer closes."""
        crc = 0
        f = open(self.path if self.in_place else self.tmp, "wb")
        try:
            for piece in pieces:
                data = piece.encode() if isinstance(piece, str) else piece
                crc = crc32(data, crc)
                f.write(data)
            f.write(b"end %08x\n" % (crc & 0xFFFFFFFF))
        except BaseException:
            if self.in_place:
                # littlefs would make the half-written save the file's at
                # close: the file stays open (the crash resets the board),
                # and the save before it stays whole
                global _UNFINISHED
                _UNFINISHED = (_UNFINISHED or []) + [f]
            else:
                f.close()
            raise
        f.close()  # littlefs: the new content becomes the file's here, whole
        if not self.in_place:
            try:
                os.rename(self.tmp, self.path)
            except OSError:
                # FAT: cannot rename over an existing file. Between these two
                # steps only deck.tmp holds the save, and save_reader recovers it.
                os.remove(self.path)
                os.rename(self.tmp, self.path)
        _sync()
        self.saves += 1


def log_crash(folder, text):
    """Append one entry to crash.log, keeping only the newest MAX_CRASH bytes
    (whole entries where they fit). While the entry fits it is appended:
    a MemoryError is logged from a heap with no room for a copy of the log
    (a CircuitPython Pico's deep in its menus logged nothing)."""
    path = folder + "/" + CRASH
    entry = "--- crash\n" + text
    if not entry.endswith("\n"):
        entry += "\n"
    kind = _kind(path)
    size = os.stat(path)[6] if kind == "file" else 0
    if kind != "dir" and size + len(entry.encode()) <= MAX_CRASH:
        with open(path, "a") as f:
            f.write(entry)
        _sync()
        return
    both = (read_crashes(folder) + entry)[-MAX_CRASH:]
    cut = both.find("--- crash\n")
    both = both[cut:] if cut >= 0 else both
    if kind == "dir":
        _discard(path)
    with open(path, "w") as f:
        f.write(both)
    _sync()


def read_crashes(folder):
    """The crash log's text ("" when there is none or it cannot be read)."""
    path = folder + "/" + CRASH
    try:
        if os.stat(path)[6] > MAX_CRASH:
            return ""
        with open(path) as f:
            return f.read()
    except (OSError, ValueError):
        return ""

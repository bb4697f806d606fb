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
load() recovers from exactly that, and never
replaces a damaged save by a new deck: it keeps it as ``deck.bad`` and says
so. A file over MAX_BYTES is never read (an 8 MB file would not fit in any
board's memory), and a folder under one of these names is moved out of the
way, so no file on the flash can stop the device from booting.
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
MAX_BYTES = 48 * 1024  # well above the largest save the app writes (app.MAX_SAVE)
END = 13  # len("end 0123abcd\n")
BLOCK = 512  # bytes read at a time while checking


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


def _lines(f, left):
    """The lines (str) of a checked save file before its end line."""
    while left > 0:
        line = f.readline()
        if not line:
            return
        left -= len(line)
        yield line.decode()


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
    def __init__(self, folder):
        self.folder = folder
        self.in_place = on_littlefs(folder)  # write the save over itself (module notes)
        self.path = folder + "/" + SAVE
        self.tmp = folder + "/" + TMP
        self.bad = folder + "/" + BAD
        self.saves = 0
        self.notes = []  # what load() had to move or remove, for the screen
        self.why = ""  # why the last file read was refused

    # -- reading -------------------------------------------------------
    def check(self, path):
        """The file's size when its end line's CRC matches, else None (why says why)."""
        try:
            size = os.stat(path)[6]
            if size > MAX_BYTES:
                self.why = "it is too large (%d bytes)" % size
                return None
            if size < END:
                self.why = "it is truncated"
                return None
            crc = 0
            with open(path, "rb") as f:
                left = size - END
                while left > 0:
                    block = f.read(min(BLOCK, left))
                    if not block:
                        break
                    crc = crc32(block, crc)
                    left -= len(block)
                tail = f.read(END)
        except OSError as e:
            self.why = "it cannot be read (%s)" % e
            return None
        if left or tail != ("end %08x\n" % (crc & 0xFFFFFFFF)).encode():
            self.why = "it is damaged or truncated"
            return None
        return size

    def read(self, path, parse):
        """parse(lines) of a sound file, or None (why says why). parse raises
        ValueError for content it cannot use."""
        size = self.check(path)
        if size is None:
            return None
        try:
            with open(path, "rb") as f:
                return parse(_lines(f, size - END))
        except (ValueError, OSError, MemoryError) as e:
            self.why = "it is not a game save (%s)" % e
            return None

    def load(self, parse):
        """(value, status): value is parse(lines) of the save; status is "ok",
        "recovered" (from the temp file), "new" (nothing saved yet) or
        "damaged" (value None; the file was kept as deck.bad and a message is
        due). ``notes`` lists anything moved or removed on the way."""
        self.notes = []
        for path, name in ((self.tmp, TMP), (self.bad, BAD)):
            if _kind(path) == "dir":
                _discard(path)
                self.notes.append("A folder %s was removed." % name)
        main = _kind(self.path)
        if main == "dir":
            self.keep_bad(self.path)
            self.notes.append("A folder %s was moved to %s." % (SAVE, BAD))
            main = None
        if main:
            value = self.read(self.path, parse)
            if value is not None:
                if _kind(self.tmp):
                    os.remove(self.tmp)  # a save that never got to replace it
                return value, "ok"
        tmp = _kind(self.tmp)
        if tmp:
            why = self.why
            value = self.read(self.tmp, parse)
            if value is not None:
                if main:
                    os.remove(self.path)
                os.rename(self.tmp, self.path)
                _sync()
                return value, "recovered"
            if main:
                self.why = why  # the save's own defect is the news
        if not main and not tmp:
            return None, "new"
        # Keep the evidence; a new game starts only when the player says so.
        self.keep_bad(self.path if main else self.tmp)
        if _kind(self.tmp):
            os.remove(self.tmp)
        return None, "damaged"

    def keep_bad(self, path):
        _discard(self.bad)
        os.rename(path, self.bad)

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
                # steps only deck.tmp holds the save, and load() recovers it.
                os.remove(self.path)
                os.rename(self.tmp, self.path)
        _sync()
        self.saves += 1


def log_crash(folder, text):
    """Append one entry to crash.log, keeping only the newest MAX_CRASH bytes
    (whole entries where they fit)."""
    path = folder + "/" + CRASH
    old = read_crashes(folder)
    entry = "--- crash\n" + text
    if not entry.endswith("\n"):
        entry += "\n"
    both = (old + entry)[-MAX_CRASH:]
    cut = both.find("--- crash\n")
    both = both[cut:] if cut >= 0 else both
    if _kind(path) == "dir":
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

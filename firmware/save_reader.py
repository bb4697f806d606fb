"""The save read back at power-up (saves.py writes it): checked against its
end line's CRC, recovered from ``deck.tmp`` where a power cut on FAT left
only that (saves.Storage.save), and never replaced by a new deck when it is
damaged: it is kept as ``deck.bad`` and the reader says why (CircuitPython's
slots: boards/slot_reader.py). A file over
MAX_BYTES is never read (an 8 MB file would not fit in any board's
memory), and a folder under one of these names is moved out of the way, so
no file on the flash can stop the device from booting.

Power-up only: dropped from the heap once the game is up (app.BOOT_ONLY).
"""

import os

from saves import BAD, SAVE, TMP, _discard, _kind, _sync, crc32

MAX_BYTES = 48 * 1024  # well above the largest save the app writes (app.MAX_SAVE)
END = 13  # len("end 0123abcd\n")
BLOCK = 512  # bytes read at a time while checking


class SaveReader:
    def __init__(self, storage):
        self.st = storage
        self.notes = []  # what load() had to move or remove, for the screen
        self.why = ""  # why the last file read was refused

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
            with open(path, "rb") as f:
                crc = crc_of(f, size - END)
                tail = f.read(END)
        except OSError as e:
            self.why = "it cannot be read (%s)" % e
            return None
        if crc is None or tail != ("end %08x\n" % crc).encode():
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
        st = self.st
        self.notes = []
        for path, name in ((st.tmp, TMP), (st.bad, BAD)):
            if _kind(path) == "dir":
                _discard(path)
                self.notes.append("A folder %s was removed." % name)
        main = _kind(st.path)
        if main == "dir":
            self.keep_bad(st.path)
            self.notes.append("A folder %s was moved to %s." % (SAVE, BAD))
            main = None
        if main:
            value = self.read(st.path, parse)
            if value is not None:
                if _kind(st.tmp):
                    os.remove(st.tmp)  # a save that never got to replace it
                return value, "ok"
        tmp = _kind(st.tmp)
        if tmp:
            why = self.why
            value = self.read(st.tmp, parse)
            if value is not None:
                if main:
                    os.remove(st.path)
                os.rename(st.tmp, st.path)
                _sync()
                return value, "recovered"
            if main:
                self.why = why  # the save's own defect is the news
        if not main and not tmp:
            return None, "new"
        # Keep the evidence; a new game starts only when the player says so.
        self.keep_bad(st.path if main else st.tmp)
        if _kind(st.tmp):
            os.remove(st.tmp)
        return None, "damaged"

    def keep_bad(self, path):
        _discard(self.st.bad)
        os.rename(path, self.st.bad)


def crc_of(f, left, out=None):
    """The CRC-32 of the next `left` bytes of file `f` (None when it ends
    before), read a block at a time; each block is also written to `out`
    when given."""
    crc = 0
    while left > 0:
        block = f.read(min(BLOCK, left))
        if not block:
            return None
        crc = crc32(block, crc)
        left -= len(block)
        if out is not None:
            out.write(block)
    return crc & 0xFFFFFFFF


def _lines(f, left):
    """The lines (str) of a checked save file before its end line."""
    while left > 0:
        line = f.readline()
        if not line:
            return
        left -= len(line)
        yield line.decode()

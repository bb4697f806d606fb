"""The save read back at power-up on CircuitPython (boards/fat_slots.py
writes it): the slots' layout made where it is missing, a save from before
slots moved into the first slot, then the newest slot whose header matches
its bytes read. When no slot holds a save, save_reader.py's reading of
deck.sav decides ("new", or "damaged" and kept as deck.bad).

Power-up only: dropped from the heap once the game is up (app.BOOT_ONLY).
"""

import os

from boards.fat_slots import GUARD, HEAD, PAD, SLOT, header
from save_reader import BLOCK, END, MAX_BYTES, SaveReader, _lines, crc_of
from saves import _discard, _kind, _sync


class SlotReader(SaveReader):
    def load(self, parse):
        st = self.st
        self.notes = []
        got = self.load_slots(parse)
        if got is None and self.move_in():
            got = self.load_slots(parse)
        if got is not None:
            return got
        st.head = 0
        notes = self.notes
        got = SaveReader.load(self, parse)
        self.notes = notes + self.notes
        return got

    def load_slots(self, parse):
        """(value, status) from the newest slot whose header matches its
        bytes; None when no slot holds a save (then deck.sav is read)."""
        st = self.st
        self.make_slots()
        found, had = [], None
        for i in (0, 1):
            path = st.slots[i]
            gen = self.slot_header(path)
            if gen is not None:
                found.append(gen + (i,))
            elif self.why != "empty":
                had = path
        found.sort()
        why = None
        while found:
            gen, length, i = found.pop()  # the newest first
            st.head = HEAD
            try:
                with open(st.slots[i], "rb") as f:
                    f.seek(HEAD)
                    value = parse(_lines(f, length))
            except (ValueError, OSError, MemoryError) as e:
                if why is None:
                    why, had = "it is not a game save (%s)" % e, st.slots[i]
                continue
            if why:
                self.notes.append("The newest save could not be read (%s); the one before it was." % why)
            st.cur, st.gen = i, gen
            return value, "ok"
        if why or (had and not (_kind(st.path) or _kind(st.tmp))):  # else the save from before slots is read
            self.why = why or "it is damaged or truncated"
            self.copy_bad(had)
            return None, "damaged"
        return None

    def move_in(self):
        """A save from before slots (deck.sav, else deck.tmp), sound, copied
        into the first slot, then removed: True when one was."""
        st = self.st
        for path in (st.path, st.tmp):
            size = self.check(path) if _kind(path) == "file" else None
            if size is None:
                continue
            with open(path, "rb") as src, open(st.slots[0], "r+b") as dst:
                dst.seek(HEAD)
                crc = crc_of(src, size - END, dst)
                dst.seek(0)
                dst.write(header(1, size - END, crc))
            _sync()
            for path in (st.path, st.tmp):
                if _kind(path) == "file":
                    os.remove(path)
            _sync()
            return True
        return False

    def make_slots(self):
        """What is missing of the slots' layout (boards/fat_slots.py), in
        its order; a slot cut short while it was made is filled up, never
        cleared. A folder in a file's place goes first."""
        st = self.st
        blank = bytes(512)
        for path, size in ((st.folder + "/" + PAD, GUARD),) + tuple((p, SLOT) for p in st.slots):
            kind = _kind(path)
            if kind == "dir":
                _discard(path)
                self.notes.append("A folder %s was removed." % path[len(st.folder) + 1:])
            folder = path[:path.rfind("/")]
            if _kind(folder) is None:
                os.mkdir(folder)
            have = os.stat(path)[6] if kind == "file" else 0
            if have < size:
                with open(path, "ab") as f:
                    while have < size:
                        have += f.write(blank[:min(512, size - have)])
        _sync()

    def slot_header(self, path):
        """(gen, length) of a slot whose header matches the bytes after it,
        else None: ``why`` is "empty" for a slot never written."""
        self.why = "empty"
        try:
            with open(path, "rb") as f:
                head = f.read(HEAD)
                if head[:5] != b"slot ":
                    if head.strip(b"\0"):
                        self.why = "its header is damaged"
                    return None
                self.why = "it is damaged or truncated"
                gen, length, want = [int(x, 16) for x in head[5:].decode().split()]
                if length > MAX_BYTES or crc_of(f, length) != want:
                    return None
        except (OSError, ValueError):
            return None
        return gen, length

    def copy_bad(self, path):
        """A damaged slot's bytes kept as deck.bad (the slot stays: rewriting
        it is the next save's business)."""
        _discard(self.st.bad)
        try:
            with open(path, "rb") as src, open(self.st.bad, "wb") as dst:
                while dst.write(src.read(BLOCK)):
                    pass
        except OSError:
            pass
        _sync()

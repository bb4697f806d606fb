"""The device's save file: written whole after every committed command.

(Not named storage.py: CircuitPython's built-in ``storage`` module would
shadow it on the MagTag.)

Write order: the new text goes to ``deck.tmp``, then replaces ``deck.sav``.
On littlefs (MicroPython boards) os.rename over an existing file is atomic; on
FAT (CircuitPython) it is not, so the old file is removed first and a power
cut can leave only ``deck.tmp``. load() recovers from exactly that, and never
replaces a damaged save by a new deck: it reports it and keeps the file.
"""

import os

SAVE = "deck.sav"
TMP = "deck.tmp"
BAD = "deck.bad"


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None
    except (UnicodeError, ValueError):
        return ""


def _sync():
    try:
        os.sync()
    except (AttributeError, OSError):
        pass


class Storage:
    """``validate(text)`` raises ValueError (or a subclass) for text that is
    not a whole, sound save; Storage only moves files."""

    def __init__(self, folder, validate):
        self.folder = folder
        self.validate = validate
        self.path = folder + "/" + SAVE
        self.tmp = folder + "/" + TMP
        self.bad = folder + "/" + BAD
        self.saves = 0

    def _ok(self, text):
        if not text:
            return False
        try:
            self.validate(text)
            return True
        except ValueError:
            return False

    def load(self):
        """(text, status): status is "ok", "recovered" (from the temp file),
        "new" (nothing saved yet) or "damaged" (text None; the file was kept
        as deck.bad and a message is due)."""
        main = _read(self.path)
        if self._ok(main):
            if _exists(self.tmp):
                os.remove(self.tmp)  # a save that never got to replace it
            return main, "ok"
        tmp = _read(self.tmp)
        if self._ok(tmp):
            if main is not None:
                os.remove(self.path)
            os.rename(self.tmp, self.path)
            _sync()
            return tmp, "recovered"
        if main is None and tmp is None:
            return None, "new"
        # Keep the evidence; a new game starts only when the player says so.
        src = self.path if main is not None else self.tmp
        if _exists(self.bad):
            os.remove(self.bad)
        os.rename(src, self.bad)
        if _exists(self.tmp):
            os.remove(self.tmp)
        return None, "damaged"

    def save(self, text):
        with open(self.tmp, "w") as f:
            f.write(text)
            try:
                f.flush()
            except AttributeError:
                pass
        try:
            os.rename(self.tmp, self.path)
        except OSError:
            # FAT: cannot rename over an existing file. Between these two
            # steps only deck.tmp holds the save, and load() recovers it.
            os.remove(self.path)
            os.rename(self.tmp, self.path)
        _sync()
        self.saves += 1

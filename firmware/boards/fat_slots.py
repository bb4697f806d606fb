"""The save on FAT (CircuitPython's CIRCUITPY drive): two slots of fixed
size, each rewritten in place, the new save always into the slot not
holding the newest one.

Why not saves.Storage's temp file and rename: CircuitPython writes
CIRCUITPY a 4 KiB flash sector at a time, erase then program, and a save
that creates, removes or renames a file rewrites the FAT, whose first
sector is also the drive's boot sector: a power cut between that erase and
its program lost the whole drive, code.py with it (tests/emu/
test_power_cut_cp.py). Rewriting bytes of a file whose size never changes
writes only the file's data and its folder's entry, never the FAT; and a
cut there damages only the slot being written, so the other still holds
the save before it.

Layout, made once (the first save; save_reader.py reads it back):

    FOLDER/slot.pad   GUARD bytes
    FOLDER/s0/deck.sav, FOLDER/s1/deck.sav   SLOT bytes each

A folder of its own per slot: a slot's entry (rewritten at every save) then
shares no sector with the other's. The pad before the first and the last
GUARD bytes of each slot, never written, keep blocks of two slots (or of a
slot and another file) out of one flash sector, on a drive whose free
space is one run (as after `deckahedron flash`).

A slot file: a HEAD-byte header ``slot GEN LEN CRC`` (hex: GEN counts the
saves, CRC is the CRC-32 of the LEN bytes after the header), the save's
lines (app.py), then bytes of older saves. The header is written last, so a
slot whose header does not match its bytes is one a cut or a failure left
unfinished.
"""

from saves import SAVE, Storage, _sync, crc32

HEAD = 32  # len(b"slot %08x %08x %08x\n")
GUARD = 4096  # a flash sector: CircuitPython's erase unit
SLOT = 24 * 1024 + GUARD  # above app.MAX_SAVE (HEAD included), then the guard
PAD = "slot.pad"
DIRS = ("s0", "s1")


def header(gen, length, crc):
    return b"slot %08x %08x %08x\n" % (gen, length, crc & 0xFFFFFFFF)


class SlotStorage(Storage):
    """At power-up boards/slot_reader.py makes the layout, moves a save from
    before slots into it, reads the newest slot back and sets cur and gen."""

    head = new_head = HEAD

    def reader(self):
        from boards.slot_reader import SlotReader

        return SlotReader(self)

    def __init__(self, folder):
        Storage.__init__(self, folder)
        self.slots = [folder + "/" + d + "/" + SAVE for d in DIRS]
        self.cur = None  # the slot holding the newest save
        self.gen = 0  # its GEN

    def open_saved(self):
        if self.cur is None:
            raise OSError(2)
        return open(self.slots[self.cur], "rb")

    def save(self, pieces):
        to = 1 if self.cur == 0 else 0
        f = open(self.slots[to], "r+b")
        try:
            f.seek(HEAD)
            crc = length = 0
            for piece in pieces:
                data = piece.encode() if isinstance(piece, str) else piece
                crc = crc32(data, crc)
                length += len(data)
                f.write(data)
            f.seek(0)
            f.write(header(self.gen + 1, length, crc))
        finally:
            f.close()  # unfinished, the slot's old header no longer matches: never read
        _sync()
        self.cur, self.gen = to, self.gen + 1
        self.saves += 1

"""The save on CircuitPython's FAT in two slots rewritten in place
(firmware/boards/fat_slots.py): a save never creates, removes or renames a file,
so CIRCUITPY's FAT (whose first flash sector is the drive's boot sector) is
never rewritten by play, and a cut during a save damages only the slot
being written. Runs on CPython and under MicroPython (tests/mp_runner.py).
"""

import os

from tests.device.support import FakeBoard, event_frames, make_app, request, solo_flip, with_game
from tests.rules.support import stacked

from boards.fat_slots import GUARD, HEAD, PAD, SLOT, SlotStorage  # noqa: E402 (support puts firmware/ on the path)


class SlotBoard(FakeBoard):
    save_store = SlotStorage


def slot_app(flash_dir=None):
    return make_app(SlotBoard(flash_dir))


def files(folder):
    """{path under the folder: size} of every file."""
    out = {}
    for name in os.listdir(folder):
        path = folder + "/" + name
        if os.stat(path)[0] & 0x4000:
            for k, v in files(path).items():
                out[name + "/" + k] = v
        else:
            out[name] = os.stat(path)[6]
    return out


LAYOUT = {PAD: GUARD, "s0/deck.sav": SLOT, "s1/deck.sav": SLOT}


def read(path, at=0, n=-1):
    with open(path, "rb") as f:
        f.seek(at)
        return f.read(n)


def write(path, at, data):
    with open(path, "r+b") as f:
        f.seek(at)
        f.write(data)


def test_a_first_boot_makes_the_slots_and_every_save_keeps_their_sizes():
    """No file is made, removed or grown by play: the FAT stays as the
    power-up left it."""
    app = slot_app()
    assert files(app.board.flash_dir) == LAYOUT
    for _ in range(6):
        solo_flip(app)
        assert files(app.board.flash_dir) == LAYOUT
    again = slot_app(app.board.flash_dir)
    assert again.game.dump() == app.game.dump() and again.problem == ""


def test_saves_alternate_between_the_slots_the_newest_read_back():
    app = slot_app()
    st = app.storage
    seen = []
    for _ in range(4):
        solo_flip(app)
        seen.append((st.cur, st.gen, st.saves))
    # the first save goes to s0 as save 1; save n to s0 when n is odd
    assert all(c == (g + 1) % 2 and g == n for c, g, n in seen), seen
    assert seen[0][1] < seen[1][1] < seen[2][1] < seen[3][1]
    again = slot_app(app.board.flash_dir)
    assert (again.storage.cur, again.storage.gen) == seen[-1][:2] and again.game.dump() == app.game.dump()


def _cut_at(app, keep):
    """A save of the next state cut short after `keep` bytes of it reached
    the slot: the slot's header never written."""
    st = app.storage

    def pieces():
        left = keep
        for piece in app.save_pieces():
            data = piece.encode() if isinstance(piece, str) else bytes(piece)
            if len(data) >= left:
                yield data[:left]
                raise OSError("power cut")
            left -= len(data)
            yield data

    try:
        st.save(pieces())
    except OSError:
        return
    raise AssertionError("the save was shorter than %d bytes" % keep)


def test_a_save_cut_at_any_byte_leaves_the_save_before_it():
    app = with_game(slot_app(), stacked(["4", "9", "2"]))
    solo_flip(app)
    before = app.game.dump()
    app.game.do("flip", {"suit": "crown"})  # the command whose save is cut
    n = sum(len(p) for p in app.save_pieces())
    for keep in (0, 1, n // 3, n // 2, n - 1):
        _cut_at(app, keep)
        again = slot_app(app.board.flash_dir)
        assert again.game.dump() == before and again.problem == "", keep


def test_a_slot_whose_header_and_bytes_disagree_is_never_read():
    """CircuitPython flushes a save's sectors in an order of its own: the
    header may reach the flash before the bytes it counts, or after."""
    app = slot_app()
    solo_flip(app)
    older = app.game.dump()
    app.game.do("flip", {"suit": "crown"})
    app.save()
    path = app.storage.slots[app.storage.cur]
    write(path, HEAD + 40, b"#")  # a byte of the new save still the old one
    again = slot_app(app.board.flash_dir)
    assert again.game.dump() == older and again.problem == ""
    write(path, 0, b"\xff" * HEAD)  # an erased header
    assert slot_app(app.board.flash_dir).game.dump() == older


def test_link_lines_kept_in_one_slot_are_copied_into_the_other():
    """The link's kept events and replies live in the save (not in RAM):
    each save copies them from the slot it does not write."""
    app = slot_app()
    for _ in range(3):
        solo_flip(app)
    ok, first = request(app, 7, "flip", suit="crown")
    frames = event_frames(app.link)
    for _ in range(3):
        solo_flip(app)
        assert event_frames(app.link)[:len(frames)] == frames
    assert request(app, 7, "flip", suit="crown") == (ok, first)
    again = slot_app(app.board.flash_dir)
    assert request(again, 7, "flip", suit="crown") == (ok, first)
    assert event_frames(again.link) == event_frames(app.link)


def test_a_save_from_before_slots_moves_into_a_slot_at_power_up():
    """deck.sav (or the deck.tmp a cut left) of an older install: copied into
    the first slot, then removed; its link lines read back where they went."""
    for leftover in ("deck.sav", "deck.tmp"):
        old = make_app()  # saves.Storage: deck.sav
        for _ in range(2):
            solo_flip(old)
        ok, first = request(old, 5, "flip", suit="crown")
        frames = event_frames(old.link)
        if leftover == "deck.tmp":
            os.rename(old.board.flash_dir + "/deck.sav", old.board.flash_dir + "/deck.tmp")
        app = slot_app(old.board.flash_dir)
        assert app.game.dump() == old.game.dump() and files(app.board.flash_dir) == LAYOUT, leftover
        assert (app.storage.cur, app.storage.gen) == (0, 1)
        assert request(app, 5, "flip", suit="crown") == (ok, first)
        assert event_frames(app.link) == frames and len(frames) >= 4
        solo_flip(app)
        again = slot_app(app.board.flash_dir)
        assert again.game.dump() == app.game.dump() and request(again, 5, "flip", suit="crown") == (ok, first)


def test_a_damaged_save_from_before_slots_is_kept_as_deck_bad():
    old = make_app()
    with open(old.board.flash_dir + "/deck.sav", "a") as f:
        f.write("x")
    app = slot_app(old.board.flash_dir)
    assert app.game is None and app.problem == "damaged" and "deck.bad" in files(app.board.flash_dir)


def test_both_slots_damaged_is_said_and_kept_and_a_new_game_starts_when_asked():
    app = slot_app()
    solo_flip(app)
    for path in app.storage.slots:
        write(path, HEAD + 10, b"~~~~")
    hurt = slot_app(app.board.flash_dir)
    assert hurt.game is None and hurt.problem == "damaged"
    assert hurt.ui.view()["title"] == "Save damaged"
    assert read(hurt.board.flash_dir + "/deck.bad", 0, 5) == b"slot "
    ok, _ = request(hurt, 6, "new_game", confirm=True, seed=3)
    assert ok and hurt.game is not None
    again = slot_app(hurt.board.flash_dir)
    assert again.game.dump() == hurt.game.dump() and again.problem == ""


def test_a_folder_named_like_a_slot_is_removed_and_the_game_goes_on():
    app = slot_app()
    solo_flip(app)
    other = app.storage.slots[1 - app.storage.cur]
    os.remove(other)
    os.mkdir(other)
    os.mkdir(other + "/x")
    again = slot_app(app.board.flash_dir)
    assert again.game.dump() == app.game.dump()
    solo_flip(again)
    solo_flip(again)
    assert files(again.board.flash_dir) == LAYOUT
    assert slot_app(again.board.flash_dir).game.dump() == again.game.dump()


def test_the_largest_save_fits_a_slot_before_its_guard():
    """A save past SLOT - GUARD would write the guard's sector, shared with
    what follows the slot; past SLOT it would grow the file (the FAT)."""
    import app

    assert HEAD + app.MAX_SAVE <= SLOT - GUARD, (app.MAX_SAVE, SLOT, GUARD)

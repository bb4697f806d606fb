"""What a real board and hostile input do to the firmware (issue 7), on both runtimes.

A device played without a host, files in the way on the flash, damaged and
oversized saves, oversized uploads, JSON the device cannot read, requests
that share one serial read, firmware errors and the way out to the REPL.
"""

import os

from shared_rules import protocol as P
from tests.device.support import FakeBoard, event_frames, kept, make_app, press, request, saved_text, solo_flip, with_game
from tests.rules.support import stacked


def _size(path):
    return os.stat(path)[6]


def _crc_frame(head):
    return (head + " " + P.crc_hex(head) + "\n").encode()


# -- a device used without a host -------------------------------------------

def test_a_save_failing_half_way_over_itself_is_never_closed():
    """On littlefs the save is written over deck.sav and becomes the file's
    content at close, whole: a failure half way must leave that writer open
    (the crash then resets the board), so the save before it stays. Here,
    on a host folder, the storage is told it writes in place."""
    import saves

    app = make_app()
    st = app.storage
    st.in_place = True
    count = st.saves

    def pieces():
        yield "half of a save\n"
        raise ValueError("a firmware error inside the save")

    try:
        st.save(pieces())
    except ValueError:
        pass
    else:
        raise AssertionError("the error inside the save was swallowed")
    f = saves._UNFINISHED[-1]
    saves._UNFINISHED = None
    assert f.tell() == len("half of a save\n")  # still open: a closed file refuses tell()
    f.close()
    assert st.saves == count


def test_solo_play_keeps_the_save_bounded_and_counts_dropped_events():
    """Button flips nobody acknowledges: the oldest events go (counted), the
    save stays under its bound, and all of it reads back after a restart."""
    import app as A
    from endpoint import MAX_EVENTS

    app = make_app()
    for _ in range(60):
        solo_flip(app)
    n = app.link.seq
    assert n >= 120 and app.link.events_kept() == MAX_EVENTS and app.link.dropped == n - MAX_EVENTS
    size = _size(app.board.flash_dir + "/deck.sav")
    assert size <= A.MAX_SAVE, (size, A.MAX_SAVE)
    again = make_app(FakeBoard(app.board.flash_dir))
    assert again.game.dump() == app.game.dump() and event_frames(again.link) == event_frames(app.link)
    assert all(e[1] is None for e in kept(again.link))  # kept in the save file, not in RAM
    ok, hello = request(again, 1, "hello")
    assert hello["events"] == MAX_EVENTS and hello["events_dropped"] == n - MAX_EVENTS
    assert [f[1] for f in again.board.frames("E")] == list(range(n + 1 - MAX_EVENTS, n + 1))


def test_saved_link_lines_are_read_back_from_the_save_not_kept_in_ram():
    """A kept event or remembered reply leaves RAM once saved (32 events
    would take ~15 KB of a Pico's heap); replays, retries and the next saves
    read it back from the file, the same bytes."""
    app = make_app()
    for _ in range(3):
        solo_flip(app)
    ok, first = request(app, 7, "flip", suit="crown")
    assert ok and app.link.events_kept() and all(e[1] is None for e in kept(app.link) + kept(app.link, 0))
    frames = event_frames(app.link)
    assert [f[0] for f in frames] == list(range(1, app.link.seq + 1))
    assert all(line.startswith("E %d " % seq) and P.decode(line)[1] == seq for seq, line in frames)
    solo_flip(app)  # more saves copy the kept lines from the save they replace
    assert event_frames(app.link)[:len(frames)] == frames
    assert request(app, 7, "flip", suit="crown") == (ok, first)  # a retry: the remembered reply
    again = make_app(FakeBoard(app.board.flash_dir))
    assert request(again, 7, "flip", suit="crown") == (ok, first)
    before = len(again.board.sent)
    request(again, 8, "events")
    assert [l for l in again.board.sent[before:] if l[:1] == "E"] == [f[1] for f in event_frames(app.link)]
    # a replay reads and sends one event at a time, never all of them in RAM
    log = []
    saved = again.link.open_saved

    class Spy:
        def __init__(self, f):
            self.f = f

        def seek(self, n):
            return self.f.seek(n)

        def read(self, n):
            log.append("read")
            return self.f.read(n)

        def close(self):
            self.f.close()

    again.link.open_saved = lambda: Spy(saved())
    again.link.write = lambda line: log.append("write")
    again.link.send_events()
    assert log == ["read", "write"] * app.link.events_kept()


def test_the_game_text_leaves_the_heap_once_saved_and_queries_make_it_again():
    from shared_rules.atomic import text_digest

    app = make_app()
    solo_flip(app)
    assert app._text is None  # saved: not held between presses
    ok, hello = request(app, 1, "hello")
    text = saved_text(app)
    assert ok and hello["digest"] == text_digest(text[:text.index("name ")]) == app.game.digest()


def test_a_kept_line_not_where_it_was_saved_is_found_or_dropped_never_a_crash():
    app = make_app()
    solo_flip(app)
    frames = event_frames(app.link)
    for i in range(app.link.events_kept()):
        app.link.kept[1][3 * i + 1] = 0  # an offset into the game's text: found again by its record's head
    assert event_frames(app.link) == frames
    os.remove(app.board.flash_dir + "/deck.sav")  # the file gone behind the app's back
    assert event_frames(app.link) == []
    solo_flip(app)  # the next save leaves the unreadable lines out and says so
    assert app.link.damaged == len(frames) and [e[0] for e in kept(app.link)] == [3, 4]
    again = make_app(FakeBoard(app.board.flash_dir))
    assert again.game.dump() == app.game.dump() and [f[0] for f in event_frames(again.link)] == [3, 4]


def test_kept_lines_copied_into_the_next_save_in_runs_or_found_by_their_heads():
    """A save copies the kept lines that lie one after the other in the save
    it replaces as one run; a line not where its offset says is looked for
    by its head, and every line reads back after a restart."""
    app = make_app()
    for _ in range(3):
        solo_flip(app)
    frames = event_frames(app.link)
    assert len(frames) >= 6
    app.link.kept[1][3 * 2 + 1] -= 3  # one line's offset wrong: the run breaks there
    solo_flip(app)
    assert app.link.damaged == 0
    again = make_app(FakeBoard(app.board.flash_dir))
    kept = event_frames(again.link)
    assert kept[:len(frames)] == frames and kept == event_frames(app.link)


def test_the_save_is_text_lines_closed_by_a_checksum():
    app = make_app()
    press(app, "B")
    request(app, 3, "set_name", name="Ann")
    text = saved_text(app)
    lines = text.split("\n")
    assert lines[-1] == "" and lines[-2] == "end " + P.crc_hex(text[:text.rfind("end ")])
    assert "name Ann" in lines and "seq 1 0" in lines
    assert [l[:8] for l in lines if l.startswith("event ")] == ["event 1 "]
    assert len([l for l in lines if l.startswith("reply 3 R 3 ok")]) == 1


# -- boot: nothing on the flash can stop the device ----------------------------

def _folder(path):
    os.mkdir(path)
    with open(path + "/junk", "w") as f:
        f.write("x")


def test_a_folder_named_like_the_save_is_moved_aside_and_a_game_starts():
    board = FakeBoard()
    _folder(board.flash_dir + "/deck.sav")
    app = make_app(board)
    v = app.ui.view()
    assert app.game is not None and v["screen"] == "message" and v["title"] == "Flash tidied"
    assert "deck.sav was moved to deck.bad" in " ".join(v["lines"]), v
    assert os.stat(board.flash_dir + "/deck.bad/junk")  # kept
    assert _size(board.flash_dir + "/deck.sav") > 0  # and the new game saved
    assert make_app(FakeBoard(board.flash_dir)).game.dump() == app.game.dump()


def test_folders_named_like_the_temp_and_bad_files_are_removed_and_the_game_kept():
    app = make_app()
    press(app, "B")
    for name in ("deck.tmp", "deck.bad"):
        _folder(app.board.flash_dir + "/" + name)
    again = make_app(FakeBoard(app.board.flash_dir))
    assert again.game.dump() == app.game.dump()
    v = again.ui.view()
    assert v["title"] == "Flash tidied" and "Your game is kept." in v["lines"]
    assert sorted(n for n in os.listdir(app.board.flash_dir) if n.startswith("deck")) == ["deck.sav"]
    press(again, "A", "A")  # the message, then done with the flip
    assert again.game.s.flip is None  # playable, and it saves
    assert make_app(FakeBoard(app.board.flash_dir)).game.s.flip is None


def test_an_8_mb_save_is_not_read_but_kept_and_reported():
    board = FakeBoard()
    with open(board.flash_dir + "/deck.sav", "wb") as f:
        f.seek(8 * 1024 * 1024 - 1)
        f.write(b"\n")
    app = make_app(board)
    v = app.ui.view()
    assert app.game is None and app.problem == "damaged" and v["title"] == "Save damaged"
    assert "too large (8388608 bytes)" in " ".join(v["lines"]), v
    assert _size(board.flash_dir + "/deck.bad") == 8 * 1024 * 1024
    ok, r = request(app, 1, "new_game", confirm=True, seed=3)
    assert ok and app.game is not None


def _old_save(app, link_json):
    """A save as firmware before issue 7 wrote it: the link memory as JSON."""
    body = app.game.dump() + "link " + link_json + "\n"
    return body + "end " + P.crc_hex(body) + "\n"


def test_an_older_save_reads_back_with_its_events():
    app = make_app()
    line = P.event(4, {"op": "flip"})
    text = _old_save(app, '{"replies":[],"events":[[4,%s]],"seq":4,"dropped":1,"name":"Bo"}'
                     % P._json(line))
    board = FakeBoard()
    with open(board.flash_dir + "/deck.sav", "w") as f:
        f.write(text)
    again = make_app(board)
    assert again.game.dump() == app.game.dump() and again.name == "Bo"
    assert event_frames(again.link) == [(4, line)] and again.link.seq == 4 and again.link.dropped == 1
    assert again.ui.view()["screen"] == "home"


def test_link_memory_of_the_wrong_types_drops_the_link_records_and_keeps_the_game():
    """Issue 7: valid checksums, "seq":"abc" crashed Endpoint.restore at every boot."""
    app = make_app()
    board = FakeBoard()
    with open(board.flash_dir + "/deck.sav", "w") as f:
        f.write(_old_save(app, '{"replies":[[1]],"events":"x","seq":"abc","dropped":[],"name":7}'))
    again = make_app(board)
    assert again.game.dump() == app.game.dump() and again.problem == ""
    v = again.ui.view()
    assert v["title"] == "Save partly read" and "The game is kept." in v["lines"]
    assert again.link.seq == 0 and again.link.events_kept() == 0
    press(again, "A", "B")  # the message, then a flip: event 1
    assert kept(again.link)[0][0] == 1
    # and the same for today's format
    text = saved_text(again)
    body = text[:text.rfind("end ")].replace("seq 1 0\n", "seq abc 0\nevent x E junk\n")
    with open(board.flash_dir + "/deck.sav", "w") as f:
        f.write(body + "end " + P.crc_hex(body) + "\n")
    third = make_app(FakeBoard(board.flash_dir))
    assert third.game.dump() == again.game.dump() and third.link.damaged == 2
    assert third.link.events_kept() == 1


# -- the link ------------------------------------------------------------------

def test_a_restore_upload_is_bounded():
    """Issue 7: ~1,024 parts of 300 characters exhausted the memory."""
    app = make_app()
    before = app.game.dump()
    ok, err = request(app, 1, "restore", part=0, parts=1024, data="x" * 300, digest="0" * 16)
    assert not ok and err["code"] == "too_large" and "64 parts" in err["message"]
    rid = 10
    for i in range(20):
        ok, r = request(app, rid + i, "restore", part=i, parts=20, data="x" * 300, digest="0" * 16)
        if not ok:
            break
    assert not ok and r["code"] == "too_large" and i == 13, (i, r)  # past 4096 characters
    assert app.restoring is None and app.game.dump() == before


def test_the_largest_game_fits_a_restore():
    """The restore bound comes from what a real save can be: 40 moves (the
    rules' limit) with 32-character names."""
    import app as A

    g = stacked(["4"])
    for i in range(40):
        g.do("set_move", {"name": ("Move %02d " % i) + "x" * 24, "level": "master"})
    text = g.dump()
    assert len(text) <= A.MAX_STATE and len(P.chunks(text)) <= A.RESTORE_PARTS
    other = make_app(seed=5)
    chunks = P.chunks(text)
    for j in range(len(chunks)):
        ok, r = request(other, 60 + j, "restore", part=j, parts=len(chunks), data=chunks[j], digest=g.digest())
        assert ok, r
    assert r["restored"] and other.game.dump() == text


def test_nan_in_a_request_is_answered_with_its_id():
    app = make_app()
    app.link.feed(_crc_frame('Q 77 flip {"suit":"crown","net":NaN}'), app.handle)
    app.commit()
    kind, rid, (ok, err) = P.decode(app.board.sent[-1])
    assert rid == 77 and not ok and err["code"] == "bad_json" and "NaN" in err["message"]
    assert app.game.s.flip is None


def test_nan_is_refused_before_sending():
    try:
        P.request(5, "flip", {"net": float("nan")})
    except P.FrameError as e:
        assert e.code == "bad_json" and "NaN" in e.message
    else:
        # MicroPython writes no NaN to refuse: what it writes must not decode
        try:
            P.decode(P.request(5, "flip", {"net": float("nan")}))
        except P.FrameError as e:
            assert e.code == "bad_json"
        else:
            raise AssertionError("a NaN request was framed")


def test_replies_leave_in_the_order_the_requests_arrived():
    """Issue 7: a query in the same read as a command was answered first,
    with the digest from before the save."""
    class Board(FakeBoard):
        def serial_write(self, text):
            self.sent.append(text)
            self.saves_at.append(self.app.storage.saves)

    board = Board()
    board.saves_at = []
    app = make_app(board)
    board.app = app
    saves = app.storage.saves
    data = P.request(1, "reshuffle").encode() + P.request(2, "hello").encode() + P.request(3, "ping").encode()
    if app.link.feed(data, app.handle):
        app.need_save = True
    app.commit()
    replies = [P.decode(l) for l in board.sent if l.startswith("R ")]
    assert [r[1] for r in replies] == [1, 2, 3]
    assert replies[1][2][1]["digest"] == replies[0][2][1]["digest"] == app.digest()
    assert board.saves_at[0] == saves + 1  # every reply after the save


def test_hello_reports_the_platform_and_the_heap():
    import sys

    app = make_app()
    press(app, "B")
    ok, h = request(app, 1, "hello")
    assert h["platform"] == sys.platform
    if sys.implementation.name == "micropython":
        assert h["heap_used"] > 0 and h["heap_free"] > 0 and 0 < h["heap_low"] <= h["heap_free"]
    else:
        assert h["heap_used"] is None and h["heap_free"] is None


def test_stats_split_the_last_press():
    app = make_app()
    request(app, 1, "press", button="B")
    ok, s = request(app, 2, "stats")
    assert ok and s["rules_us"] > 0 and s["save_us"] > 0 and s["saves"] >= 2
    assert s["render_us"] is None  # nothing drawn by this fake board


def test_crash_log_is_bounded_and_keeps_the_newest():
    import saves

    app = make_app()
    ok, r = request(app, 1, "crashlog")
    assert ok and r["parts"] == 1 and r["data"] == ""
    for i in range(60):
        saves.log_crash(app.board.flash_dir, "Traceback%s\nValueError: number %d\n" % ("." * 100, i))
    text = saves.read_crashes(app.board.flash_dir)
    assert len(text) <= saves.MAX_CRASH and text.startswith("--- crash\n")
    assert text.endswith("number 59\n") and "number 20\n" not in text
    got, i, n = [], 0, 1
    while i < n:
        ok, r = request(app, 10 + i, "crashlog", part=i)
        got.append(r["data"])
        n = r["parts"]
        i += 1
    assert "".join(got) == text


def test_a_firmware_error_in_a_request_is_answered_then_the_app_resets():
    import app as A

    app = make_app()

    def broken(*a):
        raise KeyError("oops")

    app.game.odds = broken
    app.board.inbox = P.request(9, "odds", {"suit": "crown"}).encode()
    try:
        app.poll(0)
    except A.Crash as e:
        assert isinstance(e.args[0], KeyError)
    else:
        raise AssertionError("no reset")
    kind, rid, (ok, err) = P.decode(app.board.sent[-1])
    assert rid == 9 and err["code"] == "internal" and "KeyError" in err["message"]


def test_repl_op_answers_then_leaves_the_app():
    import app as A

    app = make_app()
    ok, err = request(app, 1, "repl")
    assert not ok and err["code"] == "confirm" and not app.leave
    app.board.inbox = P.request(2, "repl", {"confirm": True}).encode()
    try:
        app.poll(0)
    except A.LeaveApp:
        pass
    else:
        raise AssertionError("still in the app")
    kind, rid, (ok, r) = P.decode(app.board.sent[-1])
    assert rid == 2 and ok and r["repl"] is True


def test_play_mode_logs_a_crash_restarts_from_the_save_and_leaves_for_the_repl():
    """start._play: an uncaught error goes to crash.log and the board's log,
    never the serial link; the app starts again from its save."""
    import app as A
    import start

    class Board(FakeBoard):
        reads = 0
        logged = ""

        def serial_read(self, timeout_ms):
            self.reads += 1
            if self.reads == 1:
                raise RuntimeError("boom in the loop")
            if self.reads == 2:
                return P.request(4, "repl", {"confirm": True}).encode()
            return b""

        def log(self, text):
            self.logged += text

    board = Board()
    first = with_game(make_app(board), stacked(["4"]))
    show = A.App.show
    A.App.show = lambda self: None  # no renderer on CPython
    try:
        start._play(board, "dev1", 7)
    finally:
        A.App.show = show
    import saves

    log = saves.read_crashes(board.flash_dir)
    assert "boom in the loop" in log and "RuntimeError" in board.logged
    assert not [l for l in board.sent if "boom" in l]  # nothing on the serial link
    kind, rid, (ok, r) = P.decode(board.sent[-1])
    assert rid == 4 and ok
    assert make_app(FakeBoard(board.flash_dir)).game.dump() == first.game.dump()


def test_a_and_c_held_at_power_on_start_no_app():
    import power_on

    class Board(FakeBoard):
        def held(self, name):
            return name in ("A", "C")

    assert power_on._escape_held(Board())
    assert not power_on._escape_held(FakeBoard())


def test_play_mode_turns_ctrl_c_off_and_goes_on_after_a_keyboard_interrupt():
    """A 0x03 on the USB port must not stop the game: Ctrl-C is off while the
    app runs (micropython.kbd_intr(-1)), on again when it leaves for the REPL,
    and a KeyboardInterrupt that still gets through restarts the app from its
    save instead of ending main.py."""
    import app as A
    import start

    class Board(FakeBoard):
        reads = 0

        def serial_read(self, timeout_ms):
            self.reads += 1
            if self.reads == 1:
                raise KeyboardInterrupt()
            if self.reads == 2:
                return P.request(4, "repl", {"confirm": True}).encode()
            return b""

    calls = []
    keyboard, show = start._keyboard, A.App.show
    start._keyboard = calls.append
    A.App.show = lambda self: None
    try:
        start._play(Board(), "dev1", 7)
    finally:
        start._keyboard, A.App.show = keyboard, show
    assert calls == [False, False, True]  # off, off again after the restart, on for the REPL


def test_heap_low_is_sampled_after_a_press_once_the_device_is_quiet():
    """The collection that samples heap_low costs ~50 ms on a Pico: it runs
    at the first quiet pass of the loop, not inside the press."""
    import sys

    app = make_app()
    app.show = lambda: None  # no renderer on CPython
    app.board.pressed = ["UP"]
    app.poll(0)
    assert app.heap_due and "gc" not in app.work and app.work["rules"] >= 0
    app.poll(0)
    assert not app.heap_due and app.work["gc"] >= 0
    if sys.implementation.name == "micropython":
        assert app.heap_low > 0

"""The Adafruit MagTag on CircuitPython, proved on CPython with stand-ins.

Nobody here has the board, so:

- the screens: the MagTag path (surface.py drawing into a Blinka
  ``displayio.Bitmap``, shown through the board's Group/TileGrid and composed
  the way a display does) must equal, pixel for pixel, what the MicroPython
  renderer draws (``micropython host_tools/screens/mp_render.py``) for every view, and
  each framebuf primitive must equal its Surface twin;
- the panel: a fake ``board.DISPLAY`` that refuses refreshes sooner than
  CircuitPython allows, to check the newest-frame-wins pacing;
- the buttons, serial port, battery and boot files: fake CircuitPython
  modules in tests/fakes/circuitpython/, on ``sys.path`` only inside the
  ``cp`` fixture;
- saving on FAT: a file system where rename over an existing file fails.
"""

import importlib
import importlib.util
import json
import math
import random
import subprocess
import sys

import pytest

import font8 as F
import layout as L
import host_tools.screens.mp_render as S
from tests.host.test_micropython_suite import ROOT, find_tool

displayio = pytest.importorskip(
    "displayio", reason="adafruit-blinka-displayio is not installed (it belongs in the dev extra)")

from render import Renderer  # noqa: E402
from surface import Surface  # noqa: E402

FAKES = ROOT / "tests" / "fakes" / "circuitpython"
FAKE_MODULES = ("board", "digitalio", "analogio", "keypad", "neopixel_write", "usb_cdc", "storage",
                "microcontroller", "alarm", "supervisor", "_clock", "_epaper")
STRIDE = L.WIDTH // 8


# ---------------------------------------------------------------- fixtures


class CP:
    """The fake CircuitPython modules, imported fresh for one test."""

    def __init__(self):
        for name in FAKE_MODULES:
            setattr(self, name.lstrip("_"), importlib.import_module(name))
        self.clock = self.clock.CLOCK

    def display(self, **kw):
        return self.epaper.FakeEPaperDisplay(clock_ms=self.clock, **kw)

    def board_(self, tmp_path, display=None, **kw):
        from boards.magtag import MagTagBoard

        display = display if display is not None else self.display()
        return MagTagBoard(flash_dir=str(tmp_path / "deckahedron"), display=display, clock_ms=self.clock,
                           sleep_ms=self.clock.sleep, **kw)


@pytest.fixture
def cp():
    saved = {name: sys.modules.pop(name) for name in FAKE_MODULES if name in sys.modules}
    sys.path.insert(0, str(FAKES))
    try:
        yield CP()
    finally:
        sys.path.remove(str(FAKES))
        for name in FAKE_MODULES:
            sys.modules.pop(name, None)
        sys.modules.update(saved)


@pytest.fixture(scope="module")
def mp_screens(tmp_path_factory):
    """Every view of host_tools/screens/mp_render.py drawn by the MicroPython renderer."""
    out = tmp_path_factory.mktemp("mp_screens")
    proc = subprocess.run([find_tool("micropython"), "host_tools/screens/mp_render.py", str(out)], cwd=str(ROOT),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return {name: (out / (name + ".bin")).read_bytes() for name, _ in S.VIEWS}


def diff_pixels(a, b):
    return [(i * 8 + k) for i in range(len(a)) if a[i] != b[i] for k in range(8)
            if ((a[i] ^ b[i]) >> (7 - k)) & 1]


def where(n):
    return "%d pixels differ, first at (%d, %d)" % (len(n), n[0] % L.WIDTH, n[0] // L.WIDTH) if n else "same"


# ---------------------------------------------------------------- (a) same pixels as MicroPython


def test_every_screen_on_the_magtag_matches_micropython_pixel_for_pixel(cp, tmp_path, mp_screens):
    """Each view drawn on the MagTag path (Surface -> Bitmap -> the board's
    TileGrid/Group, composed through displayio's palette at refresh) is the
    MicroPython renderer's buffer exactly."""
    board = cp.board_(tmp_path)
    r = Renderer(fb=board.surface)
    assert r.buf is board.surface
    bad = []
    for name, view in S.VIEWS:
        r.render(view)
        board.show(r.buf, "full")
        assert board.flush(), name
        panel = board.display.panel
        assert len(panel) == L.BUF_SIZE
        n = diff_pixels(panel, mp_screens[name])
        if n:
            bad.append("%s: %s" % (name, where(n)))
        assert bytes(r.frame_bytes()) == bytes(panel), name
    assert not bad, "\n".join(bad)
    assert len(board.display.frames) == len(S.VIEWS)


def _primitive_cases(w, h):
    rnd = random.Random(20240611)
    cases = []
    for x0, y0 in ((20, 15), (0, 0), (w - 1, h - 1), (-5, 10), (10, -7), (w + 3, h // 2)):
        ops = []  # lines in every octant, from inside and from beyond each edge
        for deg in range(0, 360, 15):
            x1 = int(round(x0 + 33 * math.cos(math.radians(deg))))
            y1 = int(round(y0 + 33 * math.sin(math.radians(deg))))
            ops.append(["line", x0, y0, x1, y1, 1])
        cases.append(ops)
    cases.append([["ellipse", 40, 30, r, r, 1] for r in range(0, 24)])  # glyphs.circle
    cases.append([["ellipse", 50, 30, r, r, 1, True] for r in range(0, 24, 3)])
    cases.append([["ellipse", 50, 30, 30, 12, 1, f, m] for f in (False, True) for m in range(16)])
    cases.append([["ellipse", -3, -2, 20, 15, 1, True], ["ellipse", w, h, 9, 25, 1], ["ellipse", w // 2, 0, 0, 7, 1],
                  ["ellipse", 10, h - 1, 6, 0, 1, True]])
    cases.append([["rect", -4, -4, w + 8, h + 8, 1], ["rect", 3, 3, 1, 1, 1], ["rect", 5, 5, 0, 9, 1],
                  ["rect", 7, 7, 9, -3, 1], ["fill_rect", w - 3, h - 3, 10, 10, 1], ["fill_rect", -9, 20, 12, 3, 1],
                  ["hline", -5, 0, w + 10, 1], ["vline", w - 1, -5, h + 10, 1], ["hline", 3, h, 5, 1],
                  ["pixel", -1, 0, 1], ["pixel", w, 0, 1], ["pixel", w - 1, h - 1, 1], ["fill_rect", 0, 0, 0, 5, 1]])
    cases.append([["fill", 1], ["text", "Hello, World! ~{|}", -3, -2, 0], ["text", "edge", w - 20, h - 5, 0]])
    for _ in range(40):
        ops = [["fill", rnd.randint(0, 1)]]
        for _ in range(14):
            kind = rnd.choice(("line", "rect", "fill_rect", "hline", "vline", "pixel", "ellipse", "text", "blit"))
            x, y, c = rnd.randint(-20, w + 20), rnd.randint(-20, h + 20), rnd.randint(0, 1)
            if kind == "line":
                ops.append([kind, x, y, rnd.randint(-20, w + 20), rnd.randint(-20, h + 20), c])
            elif kind in ("rect", "fill_rect"):
                ops.append([kind, x, y, rnd.randint(-3, 40), rnd.randint(-3, 40), c])
            elif kind in ("hline", "vline"):
                ops.append([kind, x, y, rnd.randint(-3, 60), c])
            elif kind == "pixel":
                ops.append([kind, x, y, c])
            elif kind == "ellipse":
                ops.append([kind, x, y, rnd.randint(0, 25), rnd.randint(0, 25), c, rnd.random() < 0.4,
                            rnd.randint(0, 15)])
            elif kind == "text":
                s = "".join(chr(rnd.randint(32, 130)) for _ in range(rnd.randint(1, 12)))
                ops.append([kind, s, x, y, c])
            else:
                bw, bh = rnd.randint(1, 20), rnd.randint(1, 12)
                data = [rnd.randint(0, 255) for _ in range(((bw + 7) // 8) * bh)]
                ops.append([kind, data, bw, bh, x, y, rnd.choice((-1, 0, 1)),
                            rnd.choice((None, [0x80], [0x40], [0x00], [0xC0]))])
        cases.append(ops)
    return cases


MP_OPS = r'''
import sys, json, framebuf
sys.path[:0] = ["firmware", "."]
import font8 as F
cases = json.load(open(sys.argv[1]))
w, h = int(sys.argv[3]), int(sys.argv[4])
out = open(sys.argv[2], "wb")
for ops in cases:
    buf = bytearray(((w + 7) // 8) * h)
    fb = framebuf.FrameBuffer(buf, w, h, framebuf.MONO_HLSB)
    for op in ops:
        name, a = op[0], op[1:]
        if name == "text":
            F.text(fb, *a)
        elif name == "blit":
            src = (bytes(a[0]), a[1], a[2], framebuf.MONO_HLSB)
            if a[6] is None:
                fb.blit(src, a[3], a[4], a[5])
            else:
                fb.blit(src, a[3], a[4], a[5], (bytes(a[6]), 2, 1, framebuf.MONO_HLSB))
        else:
            getattr(fb, name)(*a)
    out.write(buf)
out.close()
'''


def test_surface_primitives_match_framebuf(tmp_path):
    """Lines in all octants, ellipses (every quadrant mask, filled or not,
    zero radii), rects, fills, pixels, blits with key and palette and text,
    clipped at every edge: framebuf (MicroPython) and Surface (CPython) give
    the same pixels."""
    w, h = 101, 61  # not a multiple of 8: the row padding is exercised too
    cases = _primitive_cases(w, h)
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    (tmp_path / "ops.py").write_text(MP_OPS)
    proc = subprocess.run([find_tool("micropython"), str(tmp_path / "ops.py"), str(tmp_path / "cases.json"),
                           str(tmp_path / "out.bin"), str(w), str(h)], cwd=str(ROOT), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    mp = (tmp_path / "out.bin").read_bytes()
    size = ((w + 7) // 8) * h
    assert len(mp) == size * len(cases)
    inked = 0
    for i, ops in enumerate(cases):
        s = Surface(displayio.Bitmap(w, h, 2))
        for op in ops:
            name, a = op[0], op[1:]
            if name == "blit":
                pal = None if a[6] is None else (bytes(a[6]), 2, 1, 3)
                s.blit((bytes(a[0]), a[1], a[2], 3), a[3], a[4], a[5], pal)
            else:
                getattr(s, name)(*a)
        want = mp[i * size:(i + 1) * size]
        assert bytes(s.to_bytes()) == want, "case %d differs: %s" % (i, ops[:3])
        inked += any(want)
    assert inked == len(cases)


def test_surface_load_bytes_round_trip(mp_screens):
    s = Surface(displayio.Bitmap(L.WIDTH, L.HEIGHT, 2))
    for name in ("home", "flip_three_tie"):
        s.load_bytes(mp_screens[name])
        assert bytes(s.to_bytes()) == mp_screens[name]
    with pytest.raises(ValueError):
        s.load_bytes(bytes(10))


def test_a_slice_of_the_surface_is_those_bytes_of_the_whole_frame(mp_screens):
    """The host's screen request reads the frame in parts of 225 bytes; a
    CircuitPython surface exports each part's bytes alone (the whole frame
    is 4,736 bytes in one piece of a small heap)."""
    s = Surface(displayio.Bitmap(L.WIDTH, L.HEIGHT, 2))
    frame = mp_screens["flip_three_tie"]
    s.load_bytes(frame)
    slices = [(a, a + 225) for a in range(0, len(frame), 225)] + [(0, len(frame)), (36, 38), (37, 74), (4700, 9999)]
    for a, b in slices:
        assert bytes(s.to_bytes(a, b)) == frame[a:b], (a, b)


def test_render_imports_on_cpython_and_needs_a_surface_here():
    import render as R

    assert R.framebuf is None
    with pytest.raises(ImportError, match="Surface"):
        Renderer()


def test_font_art_matches_the_bytes_and_every_glyph_differs():
    src = (ROOT / "firmware" / "font8.py").read_text()
    blocks = src.split("# The art")[1].split("FONT = (")[0]
    rows = {}
    code = None
    line_no = 0
    for line in blocks.splitlines():
        if line.startswith("# ") and "-" in line and len(line.split()) == 2 and len(line) == 7:
            code = int(line[2:4], 16)
            line_no = 0
        elif line.startswith("#   ") and code is not None:
            for i, cell in enumerate(line[4:].split(" ")):
                rows.setdefault(code + i, []).append(cell)
            line_no += 1
    assert sorted(rows) == list(range(0x20, 0x80))
    for c, art in rows.items():
        assert len(art) == 8 and all(len(r) == 8 for r in art), hex(c)
        packed = bytes(sum(0x80 >> i for i in range(8) if r[i] == "#") for r in art)
        k = c - 0x20
        assert F.FONT[k * 8:k * 8 + 8] == packed, "glyph %r: art and bytes differ" % chr(c)
    glyphs = [F.FONT[k * 8:k * 8 + 8] for k in range(F.COUNT + 1)]
    assert len(set(glyphs[1:])) == len(glyphs) - 1, "two characters share a glyph"
    for k in range(1, F.COUNT + 1):
        g = glyphs[k]
        assert any(g), chr(k + 0x20)
        assert all(b & 0x83 == 0 for b in g), "ink outside columns 1..5: %r" % chr(k + 0x20)
    for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789":  # capitals and digits: rows 0..6, 7 tall
        g = glyphs[F.index(ch)]
        assert g[0] and g[6] and not g[7], ch
    assert F.index("\u00e9") == F.index("\x01") == F.COUNT


# ---------------------------------------------------------------- (b) refresh pacing


def _frame(board, r, view):
    r.render(view)
    board.show(r.buf, "fast")
    return bytes(board.surface.to_bytes())


def _run(board, ms):
    """The app's loop as the board sees it: serial_read(20) over and over."""
    end = board.clock_ms() + ms
    while board.clock_ms() < end:
        board.serial_read(20)


def test_three_quick_frames_show_the_first_at_once_and_then_only_the_newest(cp, tmp_path):
    disp = cp.display()
    board = cp.board_(tmp_path, display=disp)
    r = Renderer(fb=board.surface)
    views = dict(S.VIEWS)
    led = cp.board.LED
    t0 = cp.clock()
    f1 = _frame(board, r, views["home"])
    assert disp.frames == [f1] and board.pending is None and not led.level  # shown at once
    cp.clock.advance(400)
    _frame(board, r, views["menu"])
    assert board.pending == "fast" and len(disp.frames) == 1
    assert led.level and cp.neopixel_write.written["NEOPIXEL"][:3] != bytes(3)  # "a screen is coming"
    assert cp.board.NEOPIXEL_POWER.level is False  # NeoPixels powered only meanwhile
    cp.clock.advance(400)
    f3 = _frame(board, r, views["flip_three_tie"])
    assert 4000 <= board.pending_ms() <= 4200
    _run(board, 3000)
    assert len(disp.frames) == 1 and led.level  # still too soon
    _run(board, 3000)
    assert disp.frames == [f1, f3]  # the menu was never shown: the newest frame won
    assert disp.times[1] - t0 >= 5000 and disp.times[1] - t0 <= 5000 + board.POLL_MS + 20
    assert disp.refused == 0 and board.too_soon == 0  # never refreshed too soon
    assert not led.level and board.pending is None and board.pending_ms() == 0
    assert cp.board.NEOPIXEL_POWER.level is True
    assert board.refreshes == {"full": 0, "fast": 2, "partial": 0}


def test_a_refused_refresh_is_retried_not_raised(cp, tmp_path):
    """CircuitPython may still say "Refresh too soon" right after
    time_to_refresh reached 0 (adafruit/circuitpython#9129)."""
    disp = cp.display(refuse_extra_ms=600)
    board = cp.board_(tmp_path, display=disp)
    r = Renderer(fb=board.surface)
    _frame(board, r, dict(S.VIEWS)["home"])
    cp.clock.advance(100)
    f2 = _frame(board, r, dict(S.VIEWS)["number"])
    _run(board, 7000)
    assert disp.frames[-1] == f2 and len(disp.frames) == 2
    assert disp.refused >= 1 and board.too_soon == disp.refused
    assert disp.refused <= 600 // board.RETRY_MS + 1  # retried at RETRY_MS, not in a tight loop
    assert disp.times[1] - disp.times[0] <= 5000 + 600 + board.RETRY_MS + 25


def test_a_full_refresh_request_is_not_lost_to_a_later_fast_one(cp, tmp_path):
    board = cp.board_(tmp_path)
    r = Renderer(fb=board.surface)
    r.render(dict(S.VIEWS)["home"])
    board.show(r.buf, "fast")
    board.show(r.buf, "full")
    board.show(r.buf, "fast")
    assert board.pending == "full"
    assert board.flush()
    assert board.refreshes == {"full": 1, "fast": 1, "partial": 0}


def test_the_group_is_built_once_and_updated_in_place(cp, tmp_path):
    disp = cp.display()
    board = cp.board_(tmp_path, display=disp)
    group, bitmap = board.group, board.bitmap
    assert disp.root_group is group and len(group) == 1
    assert group[0].bitmap is bitmap and (bitmap.width, bitmap.height) == (L.WIDTH, L.HEIGHT)
    r = Renderer(fb=board.surface)
    for name, view in S.VIEWS[:6]:
        r.render(view)
        board.show(r.buf, "fast")
        cp.clock.advance(6000)
        board.serial_read(0)
    assert disp.root_group is group and len(group) == 1 and group[0].bitmap is bitmap
    assert len(disp.frames) == 6


def test_a_raw_frame_buffer_is_copied_into_the_bitmap(cp, tmp_path, mp_screens):
    board = cp.board_(tmp_path)
    board.show(mp_screens["sheet"], "full")
    assert board.display.panel == mp_screens["sheet"]


# ---------------------------------------------------------------- (c) buttons


def _press(cp, pin, ms, board, out, step=5):
    """Hold a pin low for ms, the board polled every step ms; collects names."""
    pin.level = False
    for _ in range(ms // step):
        out += board.buttons()
        cp.clock.advance(step)
    pin.level = True
    for _ in range(40 // step):
        out += board.buttons()
        cp.clock.advance(step)


@pytest.mark.parametrize("use_keypad", [True, False], ids=["keypad", "digitalio"])
def test_four_buttons_map_to_the_five_ui_buttons(cp, tmp_path, use_keypad):
    board = cp.board_(tmp_path, use_keypad=use_keypad)
    b = cp.board
    assert (b.BUTTON_A, b.BUTTON_B, b.BUTTON_C, b.BUTTON_D) == (b.D15, b.D14, b.D12, b.D11)
    got = []
    _press(cp, b.BUTTON_A, 80, board, got)
    _press(cp, b.BUTTON_B, 80, board, got)
    _press(cp, b.BUTTON_C, 80, board, got)
    assert got == ["A", "B", "C"]
    got = []
    _press(cp, b.BUTTON_D, 200, board, got)  # short: DOWN, on release
    assert got == ["DOWN"]
    got = []
    b.BUTTON_D.level = False
    for _ in range(board.LONG_MS // 5 - 2):
        got += board.buttons()
        cp.clock.advance(5)
    assert got == []  # not yet long
    for _ in range(30):
        got += board.buttons()
        cp.clock.advance(5)
    assert got == ["UP"]  # sent while still held
    _press(cp, b.BUTTON_D, 1500, board, got)  # the rest of that very long hold: no second UP, no DOWN
    assert got == ["UP"]
    _press(cp, b.BUTTON_D, board.LONG_MS + 50, board, got)  # another long press, another UP
    assert got == ["UP", "UP"]
    assert board.buttons() == []
    assert all(name in ("A", "B", "C", "UP", "DOWN") for name in got)


def test_polled_buttons_are_debounced(cp, tmp_path):
    board = cp.board_(tmp_path, use_keypad=False)
    pin = cp.board.BUTTON_B
    got = []
    for level in (False, True, False, True, False):  # contact bounce, 3 ms apart
        pin.level = level
        got += board.buttons()
        cp.clock.advance(3)
    assert got == []
    for _ in range(10):  # then held
        got += board.buttons()
        cp.clock.advance(5)
    assert got == ["B"]
    for level in (True, False, True, False):  # bounce on release: no second press
        pin.level = level
        got += board.buttons()
        cp.clock.advance(3)
    for _ in range(10):
        got += board.buttons()
        cp.clock.advance(5)
    pin.level = True
    for _ in range(10):
        got += board.buttons()
        cp.clock.advance(5)
    assert got == ["B"]
    # a blip shorter than DEBOUNCE_MS is not a press
    pin.level = False
    got += board.buttons()
    cp.clock.advance(board.DEBOUNCE_MS - 5)
    pin.level = True
    for _ in range(10):
        got += board.buttons()
        cp.clock.advance(5)
    assert got == ["B"]


def test_keypad_event_times_split_a_late_read_hold_correctly(cp, tmp_path):
    """keypad scans in the background: a hold that ended before the app read
    the queue (a long render) is still UP, from the events' timestamps."""
    board = cp.board_(tmp_path)
    keys = cp.keypad.Keys.instances[-1]
    pin = cp.board.BUTTON_D
    pin.level = False
    keys.scan()  # the press, seen by the background scan
    cp.clock.advance(board.LONG_MS + 100)
    pin.level = True
    keys.scan()  # the release
    cp.clock.advance(500)  # only now does the app look
    assert board.buttons() == ["UP"]
    pin.level = False
    keys.scan()
    cp.clock.advance(150)
    pin.level = True
    keys.scan()
    cp.clock.advance(2000)
    assert board.buttons() == ["DOWN"]


def test_a_press_ends_the_serial_wait_early(cp, tmp_path):
    board = cp.board_(tmp_path, use_keypad=False)
    cp.board.BUTTON_A.level = False
    t0 = cp.clock()
    assert board.serial_read(1000) == b""
    assert cp.clock() - t0 < 100
    assert board.buttons() == ["A"]


# ---------------------------------------------------------------- serial, battery, entropy


def test_host_link_is_the_data_port_and_never_blocks(cp, tmp_path):
    cp.usb_cdc.data = cp.usb_cdc.Serial()
    board = cp.board_(tmp_path)
    port = cp.usb_cdc.data
    assert board.port is port and port.timeout == 0
    t0 = cp.clock()
    assert board.serial_read(20) == b""
    assert 20 <= cp.clock() - t0 <= 30
    port.feed(b"Q 1 ping {} 00000000\n")
    assert board.serial_read(20) == b"Q 1 ping {} 00000000\n"
    port.feed(b"x" * 700)
    assert len(board.serial_read(20)) == 512 and len(board.serial_read(20)) == 188
    board.serial_write("R 1 ok {}\n")
    assert bytes(port.sent) == b"R 1 ok {}\n"
    port.connected = False  # no host: drop, never block
    board.serial_write("E 1 {}\n")
    assert bytes(port.sent) == b"R 1 ok {}\n" and board.dropped_writes == 1
    assert bytes(cp.usb_cdc.console.sent) == b""  # the REPL port is left alone


def test_no_data_port_means_no_host(cp, tmp_path):
    board = cp.board_(tmp_path)  # usb_cdc.data is None: boot.py did not enable it
    assert board.port is None
    assert board.serial_read(20) == b""
    board.serial_write("R 1 ok {}\n")
    assert board.dropped_writes == 1


def test_battery_entropy_and_board_facts(cp, tmp_path):
    cp.board.VOLTAGE_MONITOR.analog = 40000  # 40000/65535 * 3.3 V * 2 (divider)
    board = cp.board_(tmp_path)
    assert board.battery() == round(40000 / 65535 * 3.3 * 2, 2) == 4.03
    cp.board.VOLTAGE_MONITOR.analog = 30000
    assert board.battery() == 4.03  # cached
    cp.clock.advance(board.BATTERY_MS)
    assert board.battery() == 3.02
    seeds = {board.entropy() for _ in range(20)}
    assert len(seeds) == 20 and all(0 <= s < 2 ** 64 for s in seeds)
    assert (board.width, board.height, board.name, board.can_partial) == (296, 128, "magtag", False)
    assert board.read_only is False and (tmp_path / "deckahedron").is_dir()


def test_read_only_drive_is_reported(cp, tmp_path):
    cp.storage.remount("/", True)
    assert cp.board_(tmp_path).read_only is True


def test_with_a_host_power_off_shows_the_pending_screen_then_deep_sleeps(cp, tmp_path):
    cp.usb_cdc.data = cp.usb_cdc.Serial()  # a host on the data port
    disp = cp.display()
    board = cp.board_(tmp_path, display=disp)
    assert board.sleep_after_ms() is None  # the app's long idle power-off
    r = Renderer(fb=board.surface)
    _frame(board, r, dict(S.VIEWS)["home"])
    cp.clock.advance(200)
    last = _frame(board, r, dict(S.VIEWS)["message"])
    with pytest.raises(cp.alarm.DeepSleep) as e:
        board.power_off()
    assert disp.frames[-1] == last and disp.refused == 0  # the "Sleeping" screen is up first
    assert not disp.busy  # and the panel finished drawing it before the power went
    pins = [a.pin for a in e.value.args[0]]
    b = cp.board
    assert pins == [b.BUTTON_A, b.BUTTON_B, b.BUTTON_C, b.BUTTON_D] and all(a.value is False for a in e.value.args[0])


# ---------------------------------------------------------------- sleeping between presses (issue 12)


def test_with_no_host_it_sleeps_right_after_a_press(cp, tmp_path):
    board = cp.board_(tmp_path)
    assert board.port is None and board.sleep_after_ms() == board.SLEEP_AFTER_MS
    cp.usb_cdc.data = cp.usb_cdc.Serial()
    cp.usb_cdc.data.connected = False  # the data port is there, no host has it open
    board.keys.deinit()
    assert cp.board_(tmp_path / "2").sleep_after_ms() == board.SLEEP_AFTER_MS


def test_an_older_circuitpython_wakes_on_a_and_b_only(cp, tmp_path):
    cp.alarm.MAX_LOW_PINS = 2
    board = cp.board_(tmp_path)
    with pytest.raises(cp.alarm.DeepSleep) as e:
        board.power_off()
    assert [a.pin for a in e.value.args[0]] == [cp.board.BUTTON_A, cp.board.BUTTON_B]


@pytest.mark.parametrize("button, held, expect", [("BUTTON_B", False, ["B"]), ("BUTTON_C", False, ["C"]),
                                                  ("BUTTON_D", False, ["DOWN"]), ("BUTTON_A", True, ["A"])])
def test_after_a_deep_sleep_the_button_that_woke_it_acts_once(cp, tmp_path, button, held, expect):
    pin = getattr(cp.board, button)
    cp.alarm.wake_alarm = cp.alarm.pin.PinAlarm(pin=pin, value=False, pull=True)
    pin.level = not held  # low = still held when code.py starts again
    board = cp.board_(tmp_path)
    assert board.woke == "button"
    cp.clock.advance(30)
    got = board.buttons()
    pin.level = True
    cp.clock.advance(100)
    assert got + board.buttons() == expect
    cp.clock.advance(100)
    assert board.buttons() == []


def test_after_a_deep_sleep_the_button_that_woke_it_acts(cp, tmp_path):
    cp.alarm.wake_alarm = cp.alarm.pin.PinAlarm(pin=cp.board.BUTTON_B, value=False, pull=True)
    board = cp.board_(tmp_path)  # code.py starts again; B was let go seconds ago
    assert board.woke == "button" and board.buttons() == ["B"]
    cp.clock.advance(100)
    assert board.buttons() == []
    cp.alarm.wake_alarm = None
    board.keys.deinit()
    assert cp.board_(tmp_path / "2").woke is None  # a power-on: no press


# ---------------------------------------------------------------- boot.py and code.py


def _run_file(path, name):
    spec = importlib.util.spec_from_file_location(name, str(path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_boot_enables_the_data_port_and_gives_the_drive_to_the_code(cp):
    _run_file(ROOT / "firmware" / "entry" / "boot.py", "magtag_boot")
    assert cp.usb_cdc.enabled == {"console": True, "data": True}
    assert cp.storage.remounts == [("/", False)]
    assert not cp.board.BUTTON_A.in_use  # released for the app


def test_boot_with_button_a_held_leaves_the_drive_to_the_computer(cp):
    cp.board.BUTTON_A.level = False
    _run_file(ROOT / "firmware" / "entry" / "boot.py", "magtag_boot")
    assert cp.usb_cdc.enabled == {"console": True, "data": True}
    assert cp.storage.remounts == []


def test_a_press_on_a_that_wakes_the_board_is_a_move_not_drive_mode(cp):
    """boot.py runs at every wake from deep sleep: A held then is the
    waking press (hardware/magtag.md: the press that woke it acts)."""
    cp.board.BUTTON_A.level = False
    cp.alarm.wake_alarm = cp.alarm.pin.PinAlarm(pin=cp.board.BUTTON_A, value=False)
    _run_file(ROOT / "firmware" / "entry" / "boot.py", "magtag_boot")
    assert cp.storage.remounts == [("/", False)]  # the code keeps the drive: it can save
    assert not cp.board.BUTTON_A.in_use


class _Stop(Exception):
    pass


def test_code_py_in_usb_drive_mode_says_so_on_the_panel(cp, tmp_path, monkeypatch):
    from boards import magtag

    cp.storage.remount("/", True)
    cp.usb_cdc.data = cp.usb_cdc.Serial()
    disp = cp.display()
    monkeypatch.setattr(cp.board, "DISPLAY", disp)
    made = []

    def board_factory():
        b = magtag.MagTagBoard(flash_dir=str(tmp_path / "d"), clock_ms=cp.clock, sleep_ms=cp.clock.sleep)
        made.append(b)
        return b

    def stop(self, timeout_ms):
        raise _Stop()

    code = _run_file(ROOT / "firmware" / "entry" / "code.py", "magtag_code")
    monkeypatch.setattr(code, "make_board", board_factory)
    monkeypatch.setattr(magtag.MagTagBoard, "serial_read", stop)
    monkeypatch.setattr(sys, "path", list(sys.path))
    with pytest.raises(_Stop):
        code.main()
    assert made[0].read_only and len(disp.frames) == 1
    r = Renderer(fb=Surface(displayio.Bitmap(L.WIDTH, L.HEIGHT, 2)))
    r.render({"screen": "message", "title": "USB drive mode", "lines": [
        "The computer may write", "CIRCUITPY now, so this", "device cannot save a", "game. Press reset",
        "(without holding A)", "to play."], "hint": ""})
    assert disp.frames[0] == bytes(r.frame_bytes())
    assert code.device_id() == "7cdfa1004d2e"


def test_code_py_logs_an_error_inside_a_request_as_itself(tmp_path):
    """A request's error is answered first and raised again wrapped in the
    app's Crash: crash.log says what it was (a MemoryError, with its words),
    as a MicroPython board's does (start._crashed), not "Crash"."""
    from app import Crash

    class Board:
        flash_dir = str(tmp_path)

    code = _run_file(ROOT / "firmware" / "entry" / "code.py", "magtag_code")
    with pytest.raises(MemoryError):
        code._crashed(Board(), None, Crash(MemoryError("memory allocation failed, allocating 456 bytes")))
    log = (tmp_path / "crash.log").read_text()
    assert "MemoryError: memory allocation failed, allocating 456 bytes" in log
    assert "Crash" not in log


def test_code_py_says_an_error_it_could_not_log_on_the_console(tmp_path, capsys):
    """No room to write crash.log (here: the drive's folder is a file): the
    error goes to CircuitPython's console, where its own errors are read,
    before the reload; the tests of the emulated board tell an unlogged
    MemoryError by it."""
    from app import Crash

    from host_tools.sim.circuitpython import UNLOGGED

    class Board:
        flash_dir = str(tmp_path / "not-a-folder")

    (tmp_path / "not-a-folder").write_text("")
    code = _run_file(ROOT / "firmware" / "entry" / "code.py", "magtag_code")
    with pytest.raises(MemoryError):
        code._crashed(Board(), None, Crash(MemoryError("memory allocation failed, allocating 296 bytes")))
    # the words the emulated board's tests and the bench count (host_tools.sim.circuitpython.UNLOGGED)
    assert UNLOGGED + ": MemoryError memory allocation failed, allocating 296 bytes" in capsys.readouterr().out


# ---------------------------------------------------------------- (d) the App end to end


def _load_app():
    """firmware/app.py (its save module is saves.py, so the fake built-in
    ``storage`` of the fixture does not get in its way)."""
    return importlib.import_module("app")


def test_the_app_plays_on_the_fake_magtag(cp, tmp_path, monkeypatch, mp_screens):
    from shared_rules import protocol as P

    app_mod = _load_app()
    cp.usb_cdc.data = cp.usb_cdc.Serial()
    disp = cp.display()
    board = cp.board_(tmp_path, display=disp)
    app = app_mod.App(board, "magtag-1", seed=11)
    app.renderer = Renderer(fb=board.surface)  # what code.py wires
    app.boot()
    b = cp.board

    def loop(ms):
        end = cp.clock() + ms
        while cp.clock() < end:
            app.poll()

    def hold(pin, ms):
        pin.level = False
        loop(ms)
        pin.level = True
        loop(60)

    loop(100)
    assert len(disp.frames) == 1 and app.ui.view()["screen"] == "home"  # boot screen at once
    assert disp.frames[0] == bytes(board.surface.to_bytes())
    hold(b.BUTTON_D, board.LONG_MS + 100)  # UP: net +1
    assert app.ui.net == 1
    hold(b.BUTTON_B, 80)  # B: flip
    assert app.game.s.flip is not None and app.ui.view()["screen"] == "flip"
    assert len(disp.frames) == 1 and board.pending  # within 5 s of the boot screen: waiting
    loop(6000)
    assert len(disp.frames) == 2 and board.pending is None
    flip_view = app.ui.view()
    assert flip_view["screen"] == "flip" and disp.frames[1] == bytes(board.surface.to_bytes())
    # the panel shows exactly what the MicroPython renderer draws for this state
    vpath = tmp_path / "views.json"
    vpath.write_text(json.dumps([["now", flip_view]]))
    out = tmp_path / "mp"
    out.mkdir()
    proc = subprocess.run([find_tool("micropython"), "host_tools/screens/mp_render.py", str(out), str(vpath)], cwd=str(ROOT),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert disp.frames[1] == (out / "now.bin").read_bytes()
    # the host asks over the data port; the event of the button flip went out too
    cp.usb_cdc.data.feed(P.request(5, "hello").encode())
    loop(100)
    lines = bytes(cp.usb_cdc.data.sent).decode().splitlines()
    replies = [P.decode(x) for x in lines if x.startswith("R ")]
    assert replies and replies[-1][1] == 5 and replies[-1][2][0] is True
    assert replies[-1][2][1]["board"] == "magtag" and replies[-1][2][1]["device"] == "magtag-1"
    hold(b.BUTTON_A, 80)  # A: done
    loop(6000)
    assert app.game.s.flip is None and app.ui.view()["screen"] == "home"
    gaps = [t2 - t1 for t1, t2 in zip(disp.times, disp.times[1:])]
    assert disp.refused == 0 and all(g >= 5000 for g in gaps) and len(disp.frames) == 3
    # saved after every command, into the slots that spare CIRCUITPY's FAT (boards/fat_slots.py)
    saves = tmp_path / "deckahedron"
    assert app.storage.saves >= 3 and app.storage.gen == app.storage.saves
    assert (saves / "s0" / "deck.sav").exists() and (saves / "s1" / "deck.sav").exists()
    assert not (saves / "deck.sav").exists()


def test_firmware_modules_do_not_shadow_circuitpython_builtins():
    builtins = {"alarm", "analogio", "audiobusio", "audiocore", "audioio", "bitmaptools", "board", "busio",
                "digitalio", "displayio", "epaperdisplay", "fourwire", "keypad", "microcontroller", "neopixel_write",
                "os", "rtc", "storage", "supervisor", "terminalio", "time", "usb_cdc", "vectorio", "wifi", "json"}
    ours = {p.stem for p in (ROOT / "firmware").glob("*.py")} | {"boards", "shared_rules"}
    assert not ours & builtins, sorted(ours & builtins)


# ---------------------------------------------------------------- (e) saving on FAT


class PowerCut(Exception):
    pass


class FatOS:
    """os for the save folder with FAT's rule: rename onto an existing file
    fails (EEXIST). ``cut_after_remove`` simulates losing power right after
    the old save was removed."""

    def __init__(self, real):
        self.real = real
        self.cut_after_remove = False
        self.renames = 0

    def rename(self, a, b):
        try:
            self.real.stat(b)
        except OSError:
            self.renames += 1
            return self.real.rename(a, b)
        raise OSError(17, "EEXIST")

    def remove(self, p):
        self.real.remove(p)
        if self.cut_after_remove:
            self.cut_after_remove = False
            raise PowerCut()

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_saving_works_on_fat_and_a_power_cut_mid_save_is_recovered(tmp_path, monkeypatch):
    import os

    import save_reader
    import saves as ST

    fat = FatOS(os)
    monkeypatch.setattr(ST, "os", fat)
    monkeypatch.setattr(save_reader, "os", fat)

    def parse(lines):
        text = "".join(lines)
        if not text.startswith("save "):
            raise ValueError("bad")
        return text

    folder = str(tmp_path)
    st = ST.Storage(folder)
    assert save_reader.SaveReader(st).load(parse) == (None, "new")
    st.save(["save 1\n"])
    st.save(["save ", "2\n"])  # rename over deck.sav raises on FAT: removed first, then renamed
    assert save_reader.SaveReader(st).load(parse) == ("save 2\n", "ok") and fat.renames == 2
    fat.cut_after_remove = True
    with pytest.raises(PowerCut):
        st.save(["save 3\n"])
    assert sorted(os.listdir(folder)) == ["deck.tmp"]  # only the new save survives, as deck.tmp
    st2 = ST.Storage(folder)  # power back on
    assert save_reader.SaveReader(st2).load(parse) == ("save 3\n", "recovered")
    assert sorted(os.listdir(folder)) == ["deck.sav"]
    assert save_reader.SaveReader(st2).load(parse) == ("save 3\n", "ok")
    # a torn deck.tmp (power lost while writing it) never replaces a good save
    with open(folder + "/deck.tmp", "w") as f:
        f.write("save 4")
    assert save_reader.SaveReader(st2).load(parse) == ("save 3\n", "ok") and sorted(os.listdir(folder)) == ["deck.sav"]

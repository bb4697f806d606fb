"""The firmware's own work per press, split by stage, and the heap each
device module keeps after import: runs on any MicroPython (the unix port and
the rp2 port of a Pico, where the device code sits in /rom).

    micropython bench/bench_device_work.py heap        # resident heap per module
    micropython bench/bench_device_work.py press N     # N flips, split per press
    (on a board) main(["press", "N", "200"])           # the same at a 200 MHz clock

On a board (no sys.argv there) send this file's text followed by a call:
``main(["heap"])`` or ``main(["press", "20"])`` (bench/run.py does that on the
emulated Pico). ``heap`` must run in a fresh interpreter: a module imported
before it counts for nothing.

Per press (a flip is two presses, B then A), in the firmware's order
(App.poll): ``rules`` = the button's command through the UI into Game.do,
``render`` = drawing the screen into the frame buffer, ``convert`` = the
panel driver's frame conversion (drivers/ssd1680.py: SSD1680.ram_image, the
frame's bits flipped in place) that board.show does on the frame's way to
the panel;
their sum, ``total``, is the work from the button edge to the panel's update
command (the goal's figure), also per press kind (``flip``: B, the flip
screen of one card; ``end``: A, back home; ``flip3``: B with net +2, three
cards, timed in N more flips). Then ``save`` = App.commit, made while the
panel refreshes, after the driver has flipped the frame's bits back
(SSD1680.release): the press's digest and event line and the save to flash
(events are acknowledged after each press, as a host would, so the save
stays small).
The renderer draws as on the Pico: into the SSD1680 driver's canvas().
"""

import gc
import sys

import micropython

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython: not a target, but keep the script readable there
    raise SystemExit("bench_device_work.py runs under MicroPython")

# The device modules a board imports by the time it shows its first screen,
# in import order (a module's figure includes what it imports first)...
MODULES = (
    "start", "shared_rules.errors", "shared_rules.prng", "shared_rules.deck.cards", "shared_rules.deck.editions",
    "shared_rules.systems", "shared_rules.deck.state", "shared_rules.deck.flips", "shared_rules.atomic",
    "shared_rules.deck.game", "shared_rules.protocol",
    "font8", "glyphs", "layout", "render", "refresh", "saves", "widgets", "deck.ui", "endpoint", "app",
    "drivers.vlsb", "drivers.ssd1680", "boards.usbserial", "boards.pico_epaper29",
)
# ...and those imported only when used: the rules of combat, recovery and
# advancement (shared_rules/deck/game.py MIXINS), the editions other than the
# default, the main menu and its flows, the Gear & rings menus, the
# mini-games, teamwork, the odds, CircuitPython's surface, a card face
# drawn piece by piece (never on a Pico, which blits the prebuilt faces:
# card_faces, in its ROMFS only, 48 B when the first flip loads it).
LAZY = ("shared_rules.deck.combat", "shared_rules.deck.recovery", "shared_rules.deck.advancement",
        "shared_rules.deck.edition_changes", "deck.menus", "deck.gear_menus", "shared_rules.deck.minigames",
        "shared_rules.deck.teamwork", "shared_rules.deck.odds", "surface", "deck.card_art", "card_faces")


def _paths():
    if sys.platform != "rp2":  # the unix port, run from the repository root
        sys.path.insert(0, ".")
        sys.path.insert(0, "firmware")


def _imports(names, prev):
    for m in names:
        try:
            __import__(m)
        except ImportError as e:  # boards.pico_epaper29 needs rp2's machine
            print("heap_%s: not here (%s)" % (m, e))
            continue
        gc.collect()
        a = gc.mem_alloc()
        print("heap_%s: %d B" % (m, a - prev))
        prev = a
    return prev


def heap():
    """Resident heap (after gc) each module adds when imported in turn.
    Interned names grow in pool chunks, so single figures move by a few
    hundred bytes with their neighbours; the totals do not."""
    gc.collect()
    base = gc.mem_alloc()
    prev = _imports(MODULES, base)
    print("heap_firmware_imports: %d B" % (prev - base))
    lazy = _imports(LAZY, prev)
    print("heap_lazy_imports: %d B" % (lazy - prev))
    print("heap_free_after_imports: %d B" % gc.mem_free())
    # Names interned at run time, in the heap's pools: a few dozen on a base
    # image that freezes the device code's names (docs/rp2040.md), ~1,200
    # on one that does not (or on the unix port).
    print("heap_names_interned:")
    micropython.qstr_info()


class _Board:
    """What App needs of a board, with no panel or link, on the firmware's
    Board contract (press() mixes it in: its no-op defaults); the panel's
    frame conversion is timed separately with the real driver class."""

    name = "bench"
    width, height = 296, 128

    def __init__(self, folder):
        import os

        self.flash_dir = folder
        for p in ("build", folder):
            try:
                os.mkdir(p)
            except OSError:
                pass
        for f in ("deck.sav", "deck.tmp", "deck.bad", "rest.json"):  # a fresh game
            try:
                os.remove(folder + "/" + f)
            except OSError:
                pass

    def serial_read(self, timeout_ms):
        return b""

    def serial_write(self, text):
        pass

    def buttons(self):
        return ()

    def show(self, buf, mode):
        pass

    def battery(self):
        return None

    def entropy(self):
        return 1


class _Pin:
    def value(self, v=None):
        return 0


class _Spi:
    def write(self, data):
        pass


def _median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def press(n):
    """n flips (B then A), each press timed stage by stage: medians and the
    worst case in ms; then the heap in use after a collection."""
    from app import App
    from boards import Board
    from drivers.ssd1680 import SSD1680

    class BenchBoard(_Board, Board):
        pass

    pin = _Pin()
    epd = SSD1680(_Spi(), pin, pin, pin, pin)
    # on a board the save goes where the firmware's goes: the flash's root
    board = BenchBoard("" if sys.platform == "rp2" else "build/bench_work")
    canvas = getattr(epd, "canvas", None)  # as boards/pico_epaper29.py draws: in the panel's layout
    if canvas is not None:
        board.surface = canvas()
        from drivers import ink

        board.surface.ink = ink  # as boards/pico_epaper29.py draws: in native code
        epd.native_invert()  # ...and flips the frame's bits on its way out
    app = App(board, "bench", 1)
    app.boot()
    app.render()
    stages = {"rules": [], "render": [], "convert": [], "total": [], "save": [], "flip_total": [], "end_total": [],
              "flip3_total": []}
    for i in range(2 * n):
        # n flips of one card (net 0), then n of three (net +2: the best of three)
        app.ui.net = 0 if i < n else 2
        for button, kind in (("B", "flip" if i < n else "flip3"), ("A", "end")):
            a = ticks_us()
            app.ui.press(button)
            b = ticks_us()
            app.render()
            c = ticks_us()
            ram = epd.ram_image(app.renderer.buf)
            d = ticks_us()  # here the RAM write and the update command go to the panel
            epd.release(ram)
            e0 = ticks_us()
            app.commit()
            e = ticks_us()
            app.link.acknowledge(app.link.seq)  # as a host does: the save stays small
            stages[kind + "_total"].append(ticks_diff(d, a))
            if i >= n:
                continue  # the split and the save: one-card flips
            stages["rules"].append(ticks_diff(b, a))
            stages["render"].append(ticks_diff(c, b))
            stages["convert"].append(ticks_diff(d, c))
            stages["total"].append(ticks_diff(d, a))
            stages["save"].append(ticks_diff(e, e0))
        if app.ui.stack:  # a message or the critical-success menu: leave it
            app.ui.home()
            if app.game.s.flip is not None:
                app.command("end_flip", {})
                app.commit()
    for k in ("rules", "render", "convert", "total", "flip_total", "end_total", "flip3_total", "save"):
        xs = stages[k]
        print("press_%s: %.2f ms (max %.2f)" % (k, _median(xs) / 1000, max(xs) / 1000))
    new_str()
    gc.collect()
    print("press_heap_in_use: %d B" % gc.mem_alloc())
    print("press ok")


def new_str(n=200):
    """What a new str costs with the device modules loaded, beside new
    bytes of the same length: MicroPython looks every new str up among the
    interned names (py/objstr.c, qstr_find_strn), one by one in the heap's
    name pools, which the device modules' names fill."""
    spent = []
    for make in (lambda i: "name %010d" % i, lambda i: b"name %010d" % i, lambda i: None):
        a = ticks_us()
        for i in range(n):
            make(i)
        spent.append(ticks_diff(ticks_us(), a) / n)
    print("new_str_us: %.1f us (new bytes %.1f us, the loop %.1f us)" % tuple(spent))


def clock(mhz):
    """On a board: run what follows with the system clock at mhz MHz
    (machine.freq; clk_peri with it, as the boards run it), and print
    what one switch there and back costs. The firmware runs at the
    RP2040's default 125 MHz: this measures what a faster clock would buy
    (200 MHz is the fastest Raspberry Pi certifies, at 1.15 V core)."""
    import machine

    base = machine.freq()
    a = ticks_us()
    machine.freq(mhz * 1000000, mhz * 1000000)
    b = ticks_us()
    machine.freq(base, base)
    c = ticks_us()
    machine.freq(mhz * 1000000, mhz * 1000000)
    print("press_clock: %d MHz (from %d MHz: switching up %d us, down %d us)"
          % (machine.freq() // 1000000, base // 1000000, ticks_diff(b, a), ticks_diff(c, b)))


def main(argv):
    _paths()
    if argv and argv[0] == "heap":
        heap()
    elif len(argv) in (2, 3) and argv[0] == "press":
        if len(argv) == 3:
            if sys.platform != "rp2":
                raise SystemExit("press N MHZ: a board's clock (the rp2 port) only")
            clock(int(argv[2]))
        press(int(argv[1]))
    else:
        print("usage: bench_device_work.py heap | press N [MHZ]")


if __name__ == "__main__" and hasattr(sys, "argv") and len(sys.argv) > 1:
    main(sys.argv[1:])

"""Fakes of the platform APIs the board modules use, for portable tests
(CPython and the MicroPython unix port):

    machine.py        rp2 ``machine``: Pin, SPI, ADC, WDT, RTC, lightsleep...
                      and the simulated clock every fake shares
    ssd1680_panel.py  a Waveshare 2.9" SSD1680 panel on the fake SPI bus
    uc8151_panel.py   the Badger 2040's UC8151 panel on the fake SPI bus
    pcf85063a.py      the Badger 2040 W's PCF85063A RTC on the fake I2C bus

install() puts this folder first on sys.path and drops any cached
``machine`` (the unix port has a small real one), so ``import machine``
finds the fake, freshly imported (fresh state); it
returns a Fakes object with the modules. uninstall() takes them away again,
so later tests (e.g. board detection) see the real platform. Use @faked on
a test: it installs before and uninstalls after, whatever happens.
"""

import sys

FAKE_MODULES = ("machine", "pcf85063a", "ssd1680_panel", "uc8151_panel")


def _folder():
    f = __file__
    return f.rsplit("/", 1)[0] if "/" in f else "."


HERE = _folder()


def _forget():
    for name in FAKE_MODULES:
        if name in sys.modules:
            del sys.modules[name]


class Fakes:
    def __init__(self):
        import machine

        if not getattr(machine, "IS_FAKE", False):
            raise RuntimeError("import machine found the real module, not tests/fakes/machine.py")
        self.machine = machine
        self.clock = machine.clock

    def panel(self, **kw):
        import ssd1680_panel

        return ssd1680_panel.FakeSSD1680(**kw)

    def uc8151(self, **kw):
        import uc8151_panel

        return uc8151_panel.FakeUC8151(**kw)

    def rtc(self, **kw):
        import pcf85063a

        return pcf85063a.FakePCF85063A(**kw)


def install():
    uninstall()
    sys.path.insert(0, HERE)
    return Fakes()


def uninstall():
    while HERE in sys.path:
        sys.path.remove(HERE)
    _forget()


def faked(test):
    """Run a test with fresh fakes installed; the fakes object is passed in
    as the only argument, and removed afterwards."""

    def run():
        fx = install()
        try:
            return test(fx)
        finally:
            uninstall()

    return run


class FakeSerial:
    """The board's USB serial port in tests: read() returns what the test
    queued, else waits (on the simulated clock) for its timeout."""

    def __init__(self, clock):
        self.clock = clock
        self.inbox = b""
        self.sent = []
        self.writable = True
        self.dropped = 0

    def readable(self):
        return bool(self.inbox)

    def read(self, timeout_ms):
        if self.inbox:
            data, self.inbox = self.inbox, b""
            return data
        self.clock.sleep_ms(timeout_ms)
        return b""

    def write(self, text):
        if not self.writable:
            self.dropped += 1
            return False
        self.sent.append(text)
        return True


def press(machine, pin, at, hold=120, bounce=(), active=1):
    """Schedule a button press on a fake pin: contact bounce (a list of ms
    offsets where the level flips), held for hold ms, then released."""
    idle = 1 - active
    steps = [(at, active)]
    level = active
    for off in bounce:
        level = 1 - level
        steps.append((at + off, level))
    steps.append((at + hold, idle))
    machine.schedule(pin, steps)
    return at + hold


def panel_timeout(show, *args):
    """The PanelTimeout show(*args) raises (drivers/panel.py); AssertionError
    when it raises none."""
    from drivers.panel import PanelTimeout

    try:
        show(*args)
    except PanelTimeout as e:
        return e
    raise AssertionError("no PanelTimeout")


def pattern_frame(seed=1):
    """A deterministic 296 x 128 MONO_HLSB test frame with ink on every
    band, both edges and the corners (so a rotation or flip shows)."""
    buf = bytearray(296 * 128 // 8)
    x = seed * 2654435761 & 0xFFFFFFFF
    for i in range(len(buf)):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        buf[i] = (x >> 16) & 0xFF
    buf[0] |= 0x80  # (0, 0)
    buf[36] |= 0x01  # (295, 0)
    buf[127 * 37] |= 0x80  # (0, 127)
    buf[127 * 37 + 36] |= 0x01  # (295, 127)
    return buf


def set_pixel(buf, x, y, ink=1):
    i = y * 37 + (x >> 3)
    bit = 0x80 >> (x & 7)
    if ink:
        buf[i] |= bit
    else:
        buf[i] &= 0xFF ^ bit


def first_difference(a, b):
    """(x, y) of the first pixel where two frames differ, ("length", len(a),
    len(b)) when their sizes do, or None."""
    if len(a) != len(b):
        return ("length", len(a), len(b))
    for i in range(len(a)):
        if a[i] != b[i]:
            d = a[i] ^ b[i]
            for k in range(8):
                if d & (0x80 >> k):
                    return ((i % 37) * 8 + k, i // 37)
    return None


class StubRenderer:
    """Stands in for render.Renderer where framebuf is missing (CPython):
    a different frame for each screen."""

    error = None  # render.Renderer's: a screen it could not draw

    def __init__(self):
        self.buf = bytearray(296 * 128 // 8)

    def render(self, view):
        self.buf[:] = pattern_frame(3 + len(str(view.get("screen"))) + len(view))
        return self.buf

    def frame_bytes(self, start=0, end=None):
        return memoryview(self.buf)[start:end]


def settle(board, fx, ms):
    """Run the main loop's serial_read pacing for ms of simulated time."""
    end = fx.clock.now + ms
    while fx.clock.now < end:
        board.serial_read(20)


def poll_buttons(board, fx, until, step=2):
    """The board's buttons read every `step` ms of simulated time until `until`."""
    out = []
    while fx.clock.now < until:
        out += board.buttons()
        fx.clock.advance(step)
    return out + board.buttons()


def flip_with_buttons(fx, board, pin_b, pin_a, active=1):
    """Boot the whole App on ``board``, press B (flip) then A (done) on the
    fake pins, polling as the main loop does; returns the app. The screens
    must be the flip, then home."""
    from app import App

    app = App(board, "dev1", 7)
    app.boot()
    try:
        import framebuf  # noqa: F401 -- the real renderer on MicroPython
    except ImportError:
        app.renderer = StubRenderer()
    for _ in range(3):
        app.poll()
    for pin, screen in ((pin_b, "flip"), (pin_a, "home")):
        press(fx.machine, pin, fx.clock.now + 30, hold=120, active=active)
        for _ in range(20):
            app.poll()
        assert app.ui.view()["screen"] == screen, screen
    return app


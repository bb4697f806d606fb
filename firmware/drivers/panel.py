"""What the panel drivers (ssd1680.py, uc8151.py) share: the clock they
wait with, and a bounded wait for the BUSY line, the hardware reset and
the timeout that ends a wait the panel never finishes."""

try:  # MicroPython
    from time import sleep_ms as _sleep_ms
    from time import ticks_diff as _ticks_diff
    from time import ticks_ms as _ticks_ms
except ImportError:  # CPython, for the portable tests
    import time as _time

    def _ticks_ms():
        return int(_time.monotonic() * 1000)

    def _ticks_diff(a, b):
        return a - b

    def _sleep_ms(ms):
        _time.sleep(ms / 1000)


class Clock:
    """Milliseconds: time.ticks_ms/ticks_diff/sleep_ms on MicroPython,
    time.monotonic on CPython. Boards and drivers take a clock argument so
    the tests can pass a simulated one (tests/fakes/machine.py SimClock)."""

    def ticks_ms(self):
        return _ticks_ms()

    def ticks_diff(self, a, b):
        return _ticks_diff(a, b)

    def sleep_ms(self, ms):
        if ms > 0:
            _sleep_ms(ms)


class PanelTimeout(Exception):
    """The panel's BUSY line did not clear in time."""


class Panel:
    """One panel on an SPI bus. spi: a machine.SPI (only write() is used);
    cs, dc, rst: output Pins; busy: input Pin, BUSY_LEVEL while the
    controller works. idle(ms), when given, is called instead of sleeping
    in every wait loop (the board feeds its watchdog and samples its
    buttons there). A driver sets NAME, TIMEOUT_MS (the longest wait, in
    ms, for each step), BUSY_LEVEL and the reset's pulse where they differ."""

    BUSY_LEVEL = 1
    # A panel kept ready between presses (powered, its fast waveform
    # loaded) powers off after this long with no update: on battery the
    # board sleeps first (and finish() powers it off); on USB power the
    # analog power is not left on for minutes.
    READY_MS = 30000
    POLL_MS = 5
    RESET_LOW_MS = 10
    RESET_WAIT_MS = 10

    def __init__(self, spi, cs, dc, rst, busy, clock=None, idle=None):
        self.spi = spi
        self.cs = cs
        self.dc = dc
        self.rst = rst
        self.busy_pin = busy
        self.clock = clock if clock is not None else Clock()  # the boards pass theirs
        self.idle = idle
        cs.value(1)
        rst.value(1)
        self._one = bytearray(1)
        self.updating = None  # the update running ("full update", ...)
        self.started = 0
        self.asleep = True  # unknown after power-up: always reset first

    def busy(self):
        return self.busy_pin.value() == self.BUSY_LEVEL

    def _pause(self, ms):
        if self.idle is not None:
            self.idle(ms)
        else:
            self.clock.sleep_ms(ms)

    def _lost(self):
        """A wait timed out: what the driver knew of the panel is gone; the
        next update starts with a hardware reset."""
        self.updating = None
        self.asleep = True

    def wait(self, what, timeout_ms=None):
        """Wait (bounded) for BUSY to clear; PanelTimeout when it does not."""
        if timeout_ms is None:
            timeout_ms = self.TIMEOUT_MS[what]
        t0 = self.clock.ticks_ms()
        while self.busy():
            waited = self.clock.ticks_diff(self.clock.ticks_ms(), t0)
            if waited >= timeout_ms:
                self._lost()
                raise PanelTimeout("%s stayed busy for %d ms during %s" % (self.NAME, timeout_ms, what))
            self._pause(min(self.POLL_MS, timeout_ms - waited))

    def reset(self):
        """Hardware reset: wakes the controller from deep sleep."""
        self.rst.value(0)
        self.clock.sleep_ms(self.RESET_LOW_MS)
        self.rst.value(1)
        self.clock.sleep_ms(self.RESET_WAIT_MS)
        self.wait("reset")

"""Pieces shared by the rp2 board modules (Badger 2040 / 2040 W, Pico +
Waveshare e-paper): the USB CDC serial port, a millisecond clock that also
runs on CPython (for the portable tests), and a button debouncer.

USB CDC serial. On rp2 MicroPython the REPL's USB port is sys.stdin /
sys.stdout; select.poll works on both. Reading: poll sys.stdin for POLLIN,
then sys.stdin.buffer.read(1) while poll says readable (never blocks).
Writing: the rp2 port reports POLLOUT when no host has the port open (the
bytes go into the USB FIFO, which keeps only the latest) or when there is
room in the TX FIFO; when a host is connected but not reading, a write waits
at most MICROPY_HW_USB_CDC_TX_TIMEOUT (500 ms) and is then cut short. So
write() polls first and drops the text when the port is not writable:
serial_write never blocks for long. A port a host has opened stays marked
open after that host is unplugged or goes to sleep: POLLOUT, then a full
FIFO and 500 ms a write; so BoardBase.serial_write writes only while a host
sends frames. Remember that a 0x03 byte on this port
raises KeyboardInterrupt (design §3): the wire format never sends one.
"""

import sys

from boards import Board
from drivers.panel import Clock

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# RP2040 registers (const and private: folded into the code, no module
# attributes or names on the board). Datasheet: IO_BANK0 (2.19.6.1) INTR0-3
# at +0x0F0 (raw, edges write-1-to-clear), DORMANT_WAKE_INTE0-3 at +0x160
# and _INTS0-3 at +0x180, 4 bits per GPIO (level low, level high, edge low,
# edge high), PROC0_INTE0-3 at +0x100 (core 0's pin interrupts), atomic
# set/clear aliases at +0x2000/+0x3000 (2.1.2); USB
# SIE_STATUS (4.1.4) bit 16 CONNECTED, bit 4 SUSPENDED (no frames for 3 ms);
# the WATCHDOG CTRL register through its atomic bit-clear alias, bit 30
# ENABLE.
_USB_SIE_STATUS = const(0x50110050)
_SIE_CONNECTED = const(1 << 16)
_SIE_SUSPENDED = const(1 << 4)
_WATCHDOG_CTRL_CLEAR = const(0x40058000 + 0x3000)
_WATCHDOG_ENABLE = const(1 << 30)
_WDT_MAX_MS = const(8388)  # rp2040: machine.WDT's longest timeout


def elapsed(clock, since):
    """Milliseconds on clock since the tick value since."""
    return clock.ticks_diff(clock.ticks_ms(), since)


class UsbSerial:
    """The USB CDC port as bytes in and text out, never blocking for long."""

    MAX_READ = 512  # the rp2 stdin ring buffer is 512 bytes (design §3)

    def __init__(self, stdin=None, stdout=None, select_module=None, acc=None):
        """``acc``: a buffer of at least MAX_READ bytes to read into (a
        board may share one with its panel driver: read() uses it only
        while it runs)."""
        if select_module is None:
            import select as select_module
        self._select = select_module
        self._in = stdin if stdin is not None else sys.stdin
        self._out = stdout if stdout is not None else sys.stdout
        self._rd = getattr(self._in, "buffer", self._in)
        self._wr = getattr(self._out, "buffer", self._out)
        self._poll_in = select_module.poll()
        self._poll_in.register(self._in, select_module.POLLIN)
        self._poll_out = select_module.poll()
        self._poll_out.register(self._out, select_module.POLLOUT)
        self._acc = acc if acc is not None else bytearray(self.MAX_READ)
        self.dropped = 0  # writes dropped because the port was not writable

    def readable(self):
        return self._ready(self._poll_in.poll(0), self._select.POLLIN)

    def read(self, timeout_ms):
        """Bytes that arrive within timeout_ms (b"" if none), at most MAX_READ."""
        if not self._ready(self._poll_in.poll(timeout_ms), self._select.POLLIN):
            return b""
        n = 0
        acc = self._acc
        while n < self.MAX_READ:
            b = self._rd.read(1)
            if not b:
                break
            if isinstance(b, str):
                b = b.encode()
            acc[n] = b[0]
            n += 1
            if not self._ready(self._poll_in.poll(0), self._select.POLLIN):
                break
        return bytes(acc[:n])

    def write(self, text):
        """Send text; returns False (and counts a drop) when the port is not
        writable right now."""
        if not self._ready(self._poll_out.poll(0), self._select.POLLOUT):
            self.dropped += 1
            return False
        data = text.encode() if isinstance(text, str) else text
        self._wr.write(data)
        return True

    @staticmethod
    def _ready(events, flag):
        for ev in events:
            if ev[1] & flag:
                return True
        return False


class Debouncer:
    """Debounced, edge-triggered presses from raw button levels.

    read(i) -> True while button i is pressed. sample() is called often (every
    pass of the main loop, and from every wait loop of a board); a press is
    reported once, at the first sample that sees it (so a short tap is not
    lost), and then the button is ignored for DEBOUNCE_MS, which swallows
    contact bounce; the release is handled the same way, so a bouncing release
    cannot look like a second press. A button held at prime() time (e.g. the
    press that woke the board) is not a press.
    """

    DEBOUNCE_MS = 30
    MAX_PENDING = 16  # presses kept between two take() calls

    def __init__(self, names, read, clock, debounce_ms=None):
        self.names = names
        self.read = read
        self.clock = clock
        if debounce_ms is not None:
            self.DEBOUNCE_MS = debounce_ms
        n = len(names)
        self.down = [False] * n
        self.changed_at = [0] * n
        self.locked = [False] * n
        self.edge_at = [None] * n  # last press edge caught by a pin interrupt
        self.pending = []

    def edge(self, i):
        """A press edge on button i, from its pin interrupt: a tap that
        starts and ends while the firmware is busy (a save, a render) is
        never seen by sample() as a level, and must not be lost."""
        self.edge_at[i] = self.clock.ticks_ms()

    def prime(self):
        """Take the current levels as the resting state (no presses)."""
        now = self.clock.ticks_ms()
        for i in range(len(self.names)):
            self.down[i] = bool(self.read(i))
            self.changed_at[i] = now
            self.locked[i] = True
            self.edge_at[i] = None

    def sample(self):
        # The common case, nothing happening, decided in a frame small enough
        # for MicroPython to keep on the C stack: a bigger one is a 72-byte
        # heap block a call, and this runs three times an idle pass.
        now = self.clock.ticks_ms()
        for i in range(len(self.names)):
            if self.locked[i] or self.edge_at[i] is not None or bool(self.read(i)) != self.down[i]:
                self._sample(i, now)

    def _sample(self, i, now):
        if self.locked[i]:
            if self.clock.ticks_diff(now, self.changed_at[i]) < self.DEBOUNCE_MS:
                return
            self.locked[i] = False
        level = bool(self.read(i))
        edge, self.edge_at[i] = self.edge_at[i], None
        # A press edge later than the debounce time after the last
        # change (earlier ones are contact bounce) that the levels do
        # not show: a whole tap, or a release and a press, came and
        # went between two samples while the firmware was busy.
        fresh = edge is not None and self.clock.ticks_diff(edge, self.changed_at[i]) >= self.DEBOUNCE_MS
        if level != self.down[i]:
            self.down[i] = level
            self.changed_at[i] = now
            self.locked[i] = True
            if level or fresh:
                self._press(i)
        elif fresh:
            self.changed_at[i] = now
            self.locked[i] = True
            self._press(i)

    def _press(self, i):
        if len(self.pending) < self.MAX_PENDING:
            self.pending.append(self.names[i])

    def add(self, names):
        """Presses that happened while nothing sampled (the one that woke
        the board): reported by the next take()."""
        for name in names:
            if len(self.pending) < self.MAX_PENDING:
                self.pending.append(name)

    def take(self):
        """The presses since the last take. With none, the empty list
        itself: no new list on every idle pass of the main loop (callers
        only read it)."""
        out = self.pending
        if out:
            self.pending = []
        return out


def peripheral_clock_from_sys(machine):
    """Run clk_peri (the SPI's clock) from clk_sys, as a lightsleep leaves
    it. rp2 MicroPython v1.28 boots with clk_peri on the 48 MHz USB PLL (a
    side effect of setting the system clock: micropython#13677), and
    lightsleep() brings the clocks back as pico-sdk makes them, clk_peri =
    clk_sys = 125 MHz, without telling the SPI: a bus made before the first
    sleep then runs 2.6 times faster than asked, the Pico's panel at 31 MHz
    (the SSD1680 takes 20) and the Badger's at 31 MHz where 12 was asked.
    Called before any SPI is made; the emulated Pico's panel refuses a
    clock over 20 MHz (host_tools/emu/ssd1680.mjs)."""
    f = machine.freq()
    machine.freq(f, f)


class BoardBase(Board):
    """What the rp2 boards share: serial, buttons, watchdog, idle, entropy,
    and sleeping between presses.

    A subclass sets self.machine (the machine module) and calls
    _setup(flash_dir, clock, serial, names, read, vbus) from its __init__
    (vbus: the GPIO that reads high while a cable brings USB power, or None
    where the board cannot tell).

    Sleep (App.poll asks sleep_after_ms(), then calls power_off()). With no
    USB power the RP2040 goes DORMANT between presses: machine.lightsleep()
    without a time stops the crystal on rp2 MicroPython v1.28, and only a
    GPIO event armed in IO_BANK0's DORMANT_WAKE_INTE registers starts it
    again. MicroPython has no call for arming one (pico-sdk's
    gpio_set_dormant_irq_enabled), so dormant() writes the registers through
    machine.mem32: each button's press edge, latched while the chip sleeps,
    so a tap shorter than the wake-up still counts, and the edges latched
    say which button woke the board: that press acts. The buttons' own pin
    interrupts (catch_edges) are held off meanwhile: lightsleep() turns
    interrupts back on before it returns, and MicroPython's GPIO handler
    would clear the latched edge (it acknowledges every edge it sees)
    before dormant() could read which button it was. VBUS rising (a cable
    plugged in) wakes it too, so the host that enumerates the board finds
    it awake.

    On USB power it never goes DORMANT: that stops the USB controller's
    clock, and a host that comes back (resumes the bus, or is plugged in)
    finds a device that does not answer, gives up on it after a few
    seconds, and the link stays dead until the cable is pulled. A host
    that has configured the port and sends frames (SIE_STATUS: connected,
    not suspended) keeps the board awake, then in lightsleep slices that
    keep the USB clock; with power but no frames (a host asleep, or
    starting, or a charger) it waits with its clocks running, so the
    host's resume or enumeration is answered. A board that cannot sense
    VBUS (vbus None) goes DORMANT whenever no host sends frames, with that
    risk."""

    DEBOUNCE_MS = 30
    POLL_MS = 10  # step of every wait loop
    SLEEP_AFTER_MS = 100  # no input for this long and no host: sleep until a press
    PRESS_EDGE = 4  # the dormant wake event of a press: 4 = edge low, 8 = edge high
    VBUS_EDGE = 8  # VBUS rising: a cable plugged in

    def _draw_on(self, epd):
        """The renderer draws in the panel's own layout (epd.canvas(): show()
        then skips a landscape frame's conversion), text and bitmaps in
        native code (drivers/ink.py: its machine code, 3.8 KB of heap, for a
        flip screen in ~1/10 of framebuf's time, the prebuilt card faces
        blitted). Returns the ink module, or None where framebuf draws
        (CPython's fakes refuse viper)."""
        self.surface = epd.canvas()
        if self.surface is None:
            return None
        try:
            from drivers import ink
        except SyntaxError:
            return None
        self.surface.ink = ink
        return ink

    def _setup(self, flash_dir, clock, serial, names, read, vbus=None, scratch=None):
        self.flash_dir = flash_dir
        self.vbus_gpio = vbus
        self.vbus = None
        if vbus is not None:
            Pin = self.machine.Pin
            self.vbus = Pin(vbus, Pin.IN, Pin.PULL_DOWN)
        self.clock = clock if clock is not None else Clock()
        self.serial = serial if serial is not None else UsbSerial(acc=scratch)
        self.debouncer = Debouncer(names, read, self.clock, self.DEBOUNCE_MS)
        self.debouncer.prime()
        self.wdt = None
        self.woke = None  # why the last wait_for_press() (or the power-up) ended
        self.sleeps = 0  # lightsleep slices taken (host attached)
        self.dormancies = 0  # DORMANT sleeps taken (no host)

    def catch_edges(self, pins, trigger):
        """Latch press edges by pin interrupt (see Debouncer.edge) where the
        port has them; `trigger` is the Pin.IRQ_* of a press."""
        deb = self.debouncer
        for i, pin in enumerate(pins):
            irq = getattr(pin, "irq", None)
            if irq is not None:
                irq(handler=lambda _pin, i=i: deb.edge(i), trigger=trigger)

    def service(self):
        """Background work done on every pass of the main loop."""

    def serial_read(self, timeout_ms):
        self.service()
        self.debouncer.sample()
        data = self.serial.read(timeout_ms)
        self.debouncer.sample()
        return data

    def serial_write(self, text):
        """Send text to the host; with no host sending frames it is dropped
        (counted in serial.dropped). rp2's CDC keeps a port marked open
        after its host was unplugged or went to sleep: a write then fills
        the FIFO and waits 500 ms (MICROPY_HW_USB_CDC_TX_TIMEOUT) for a host
        that is gone, every write, awake. The app keeps its events for the
        host's next hello anyway."""
        if self.host_attached():
            self.serial.write(text)
        else:
            self.serial.dropped += 1

    def buttons(self):
        self.debouncer.sample()
        return self.debouncer.take()

    def held(self, name):
        """Is this button down right now (e.g. held at power-on)?"""
        names = self.debouncer.names
        return name in names and bool(self.debouncer.read(names.index(name)))

    def reset(self):
        """Restart the board (into its save): after a firmware error."""
        self.machine.reset()

    def start_watchdog(self, timeout_ms):
        """machine.WDT: once started it cannot be stopped; the board restarts
        (into its saved state) when nothing feeds it for timeout_ms (at most
        8388 ms on the RP2040). Every wait inside this board module feeds it."""
        if self.wdt is None:
            timeout_ms = max(1, min(int(timeout_ms), _WDT_MAX_MS))
            self.wdt = self.machine.WDT(timeout=timeout_ms)
        return self.wdt

    def stop_watchdog(self):
        """Stop the watchdog before leaving the app for the REPL (op repl),
        or it resets the board under mpremote 8 s later. rp2 MicroPython's
        WDT has no deinit, so clear CTRL.ENABLE as pico-sdk's
        watchdog_disable() does."""
        if self.wdt is not None:
            mem32 = getattr(self.machine, "mem32", None)
            if mem32 is not None:
                mem32[_WATCHDOG_CTRL_CLEAR] = _WATCHDOG_ENABLE
            self.wdt = None

    def feed(self):
        if self.wdt is not None:
            self.wdt.feed()

    # -- sleeping between presses ------------------------------------------
    def host_attached(self):
        """Has a USB host configured the port, and is it sending frames?"""
        mem32 = getattr(self.machine, "mem32", None)
        if mem32 is None:
            return True  # cannot tell: keep the link
        return mem32[_USB_SIE_STATUS] & (_SIE_CONNECTED | _SIE_SUSPENDED) == _SIE_CONNECTED

    def usb_powered(self):
        """Does a cable bring USB power (VBUS high)? None where the board
        cannot tell (no VBUS sense)."""
        return None if self.vbus is None else self.vbus.value() == 1

    def sleep_after_ms(self):
        """How long the app waits after the last input before power_off():
        SLEEP_AFTER_MS without a host; None (the app's long idle power-off)
        with one."""
        return None if self.host_attached() else self.SLEEP_AFTER_MS

    def wait_for_press(self, slice_ms, check=None):
        """Low power until a press, serial input or check() (a wake reason or
        None); sets and returns self.woke (boards/rp2_sleep.py, loaded when
        the board first sleeps: a board that is played keeps it out of its heap)."""
        from boards.rp2_sleep import wait_for_press

        return wait_for_press(self, slice_ms, check)

    def idle(self, ms):
        """One step of a wait: feed the watchdog, watch the buttons, sleep."""
        self.feed()
        self.debouncer.sample()
        self.clock.sleep_ms(ms)

    def entropy(self):
        import os

        n = 0
        for b in os.urandom(8):
            n = (n << 8) | b
        return n

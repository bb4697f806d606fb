"""What the CircuitPython boards share (boards/magtag.py, pico_epaper29_cp.py):
the screen as one displayio Bitmap, the pending frame, the buttons, the link
on the second USB port and the CIRCUITPY drive. Started by code.py; boot.py
must have run first (it enables the second USB serial port and makes
CIRCUITPY writable for code).

Screen. One Group holding one TileGrid over one 2-colour Bitmap, built once
and never rebuilt: the renderer draws straight into the bitmap through
``self.surface`` (surface.py), with the same layout.py positions and the
same pixels as the MicroPython boards. CircuitPython refuses a refresh
sooner than the panel allows (``display.time_to_refresh`` says how long is
left, and ``refresh()`` raises RuntimeError "Refresh too soon" before that,
sometimes even just after time_to_refresh reached 0). So ``show()``
refreshes at once when it may and otherwise keeps the frame pending; the
bitmap always holds the newest frame, so only the newest is shown, as soon
as the panel allows: the app calls ``serial_read()`` every loop and that
call refreshes the pending frame when it is due. A board's ``indicator``
says a frame waits (an LED).

Buttons: debounced by CircuitPython's ``keypad`` module where the firmware
has it (it scans in the background, so a press during a long render is not
lost), else by polling digitalio here (a change counts once it has held
DEBOUNCE_MS); a board's ``map`` turns key events into the app's names.

Host link: ``usb_cdc.data``, the second USB serial port (the REPL keeps the
first), read without blocking (``in_waiting``). No host, no port: writes are
dropped, as on the other boards. Entropy: ``os.urandom``. Saves: the
``/deckahedron`` folder on CIRCUITPY, writable by code only after boot.py
remounted it (``read_only`` says whether it is), in two fixed slots written
in place, so a power cut during a save cannot take the drive's FAT with it
(boards/fat_slots.py).

Kept apart from the MagTag's module so a Pico on CircuitPython does not
load the MagTag's button split, NeoPixel and deep sleep (its heap is
~164 KB for everything).
"""

import os
import time

from boards import Board
from boards.fat_slots import SlotStorage
from surface import Surface

WIDTH, HEIGHT = 296, 128


def _monotonic_ms():
    try:
        return time.monotonic_ns() // 1000000
    except AttributeError:
        return int(time.monotonic() * 1000)


def _sleep_ms(ms):
    time.sleep(ms / 1000)


_TICKS_MASK = (1 << 29) - 1  # supervisor.ticks_ms() wraps every 2**29 ms
_TICKS_HALF = 1 << 28


class _KeypadKeys:
    """keypad.Keys: scanned and debounced by CircuitPython in the background,
    so a press during a long render is kept, with the time it happened
    (Event.timestamp, in supervisor.ticks_ms) for the long-press split."""

    def __init__(self, keypad, pins):
        self.keys = keypad.Keys(pins, value_when_pressed=False, pull=True)
        try:
            import supervisor

            self.ticks = supervisor.ticks_ms
        except (ImportError, AttributeError):
            self.ticks = None

    def read(self, now, out):
        ev = self.keys.events.get()
        if ev is None:
            return
        tnow = self.ticks() if self.ticks is not None else None
        while ev is not None:
            t = now
            stamp = getattr(ev, "timestamp", None)
            if stamp is not None and tnow is not None:
                age = (tnow - stamp) & _TICKS_MASK
                if age < _TICKS_HALF:
                    t = now - age  # when it happened, on our clock
            out.append((ev.key_number, ev.pressed, t))
            ev = self.keys.events.get()

    def deinit(self):
        self.keys.deinit()


class _PolledKeys:
    """digitalio inputs with pull-ups, debounced here: a new level counts once
    it has held debounce_ms. Polled from serial_read/buttons()."""

    def __init__(self, digitalio, pins, debounce_ms):
        self.debounce_ms = debounce_ms
        self.ios = []
        for pin in pins:
            io = digitalio.DigitalInOut(pin)
            io.switch_to_input(pull=digitalio.Pull.UP)
            self.ios.append(io)
        n = len(pins)
        self.stable = [False] * n  # True = pressed
        self.seen = [False] * n
        self.since = [0] * n

    def read(self, now, out):
        for k in range(len(self.ios)):
            down = not self.ios[k].value  # low = pressed
            if down != self.seen[k]:
                self.seen[k] = down
                self.since[k] = now
            elif down != self.stable[k] and now - self.since[k] >= self.debounce_ms:
                self.stable[k] = down
                out.append((k, down, now))

    def deinit(self):
        for io in self.ios:
            io.deinit()


class CircuitPythonBoard(Board):
    """A board subclass's __init__ calls _setup(), _make_screen(),
    _buttons() then _make_keys(), sets its indicator, and calls
    _open_link()."""

    DEBOUNCE_MS = 20  # polled buttons only; keypad debounces itself
    RETRY_MS = 250  # after a "Refresh too soon" although time_to_refresh was 0
    # serial_read's wait step (buttons and the panel checked each step; keypad queues
    # presses meanwhile): an idle emulated Pico took 1.05 s of a host core an emulated
    # second at 5 ms, 0.69 s at 20 ms (2026-11-29), so a Pico awake idles less too
    POLL_MS = 20
    BATTERY_MS = 30000  # read the battery at most this often
    FLASH_DIR = "/deckahedron"
    save_store = SlotStorage  # a save never rewrites CIRCUITPY's FAT (boards/fat_slots.py)

    def _setup(self, board, flash_dir, clock_ms, sleep_ms):
        """What each board's __init__ sets first: the clock, the drive (and
        whether code may write it), the battery reading's cache."""
        self._board = board
        self.clock_ms = clock_ms or _monotonic_ms
        self.sleep_ms = sleep_ms or _sleep_ms
        self.flash_dir = self.FLASH_DIR if flash_dir is None else flash_dir
        self.read_only = self._check_writable()
        self._adc = self._volts = self._volts_at = None

    def _buttons(self, digitalio, pins, key_map, use_keypad):
        """The buttons' pins and the map of their events to the app's names;
        _make_keys() then starts reading them."""
        self._digitalio = digitalio
        self.pins = pins
        self.map = key_map
        self.use_keypad = use_keypad
        self._pressed = []
        self._events = []  # _scan's, reused: an idle poll allocates nothing

    def _make_screen(self, displayio, display, glyph_runs=256):
        """The Group, TileGrid and 2-colour Bitmap shown on `display`,
        built once and updated in place, and the surface drawn into it."""
        self.display = display
        self.bitmap = displayio.Bitmap(WIDTH, HEIGHT, 2)
        self.palette = displayio.Palette(2)
        self.palette[0] = 0xFFFFFF  # 0 = paper
        self.palette[1] = 0x000000  # 1 = ink (layout.BLACK)
        self.group = displayio.Group()
        self.group.append(displayio.TileGrid(self.bitmap, pixel_shader=self.palette))
        try:
            self.display.root_group = self.group
        except AttributeError:  # CircuitPython before 8.1
            self.display.show(self.group)
        self.surface = Surface(self.bitmap, glyph_runs)
        self.pending = None  # the refresh mode of a frame waiting for the panel
        self.retry_at = 0
        self.refreshes = {"full": 0, "fast": 0, "partial": 0}
        self.too_soon = 0  # refresh() refusals caught

    def _open_link(self):
        """The host link on the second USB serial port (usb_cdc.data; None
        where boot.py did not enable it)."""
        self.port = None
        try:
            import usb_cdc

            self.port = usb_cdc.data
        except ImportError:
            pass
        if self.port is not None:
            self.port.timeout = 0  # reads never wait
            self.port.write_timeout = 1.0
        self.dropped_writes = 0

    def _make_keys(self):
        self.keys = None
        if self.use_keypad:
            try:
                import keypad

                self.keys = _KeypadKeys(keypad, self.pins)
            except ImportError:
                self.keys = None
        if self.keys is None:
            self.keys = _PolledKeys(self._digitalio, self.pins, self.DEBOUNCE_MS)

    # ---------------------------------------------------------------- storage

    def _check_writable(self):
        """True when code cannot write CIRCUITPY (boot.py left it to USB)."""
        try:
            import storage

            if storage.getmount("/").readonly:
                return True
        except (ImportError, AttributeError, OSError):
            pass
        try:
            os.mkdir(self.flash_dir)
        except OSError:
            pass  # there already, or read-only (then the stat below fails too)
        try:
            os.stat(self.flash_dir)
        except OSError:
            return True
        return False

    # ---------------------------------------------------------------- heap

    _names_made = False
    SMALL_HEAP = 256 * 1024  # a Pico's ~164 KB; not a MagTag's PSRAM

    def make_name_table(self):
        """Make CircuitPython's next table of interned names now, once a
        run, while the heap is whole. Its tables double (py/qstr.c): past
        ~1,260 of the game's names the next is 1,280 entries, ~7.7 KB in
        one piece, asked for while some module loads. The main menu's
        modules get there: the first C after a power-on ran out (a
        MemoryError, "allocating 1280 bytes") when the table came after
        their code had taken the heap's large holes. So a screen module
        loaded when first wanted calls this first (widgets.Screens.load:
        the menus, a flip's rarer screens, a mini-game's), and code.py at
        the home screen after its own reload. Throwaway names ("#0",
        "#1", ...) are interned until the heap in use jumps by the table
        (over 4 KB at once); at most 200 (~1 KB of names for good, where
        the game's own names made the table already)."""
        if self._names_made:
            return
        self._names_made = True
        import gc

        gc.collect()
        try:
            used = gc.mem_alloc()
        except AttributeError:  # CPython (the tests' fakes)
            return
        if used + gc.mem_free() > self.SMALL_HEAP:
            return
        for n in range(200):
            getattr(gc, "#%d" % n, None)  # getattr interns its name
            now = gc.mem_alloc()
            if now - used > 4096:
                return
            used = now

    # ---------------------------------------------------------------- screen

    def show(self, buf, mode):
        """Put a frame on the panel now if it may refresh, else keep it
        pending (the newest frame wins) until serial_read finds it may.
        ``buf`` is ``self.surface`` (the renderer drew into the bitmap) or
        a MONO_HLSB buffer to copy in."""
        if buf is not None and buf is not self.surface:
            self.surface.load_bytes(buf)
        if self.pending != "full":
            self.pending = mode
        self.retry_at = 0
        self.indicator.set(True)
        self._refresh_due()

    def _refresh_due(self):
        """Refresh the pending frame if the panel allows it now."""
        if self.pending is None:
            return False
        now = self.clock_ms()
        if now < self.retry_at:
            return False
        wait = self.display.time_to_refresh  # seconds
        if wait > 0:
            self.retry_at = now + int(wait * 1000) + 1
            return False
        try:
            self.display.refresh()
        except RuntimeError:  # "Refresh too soon"
            self.too_soon += 1
            self.retry_at = now + self.RETRY_MS
            return False
        self.refreshes[self.pending] += 1
        self.pending = None
        self.indicator.set(False)
        return True

    def pending_ms(self):
        """How long until the waiting frame can be shown (0 if none waits)."""
        if self.pending is None:
            return 0
        wait = int(self.display.time_to_refresh * 1000)
        return wait if wait > 0 else 0

    def flush(self, max_ms=12000):
        """Wait until the pending frame is on the panel (at most max_ms)."""
        end = self.clock_ms() + max_ms
        while self.pending is not None and self.clock_ms() < end:
            if not self._refresh_due():
                self.sleep_ms(50)
        return self.pending is None

    # ---------------------------------------------------------------- input

    def _scan(self):
        now = self.clock_ms()
        events = self._events
        self.keys.read(now, events)
        if events:
            for k, pressed, t in events:
                self.map.event(k, pressed, t, self._pressed)
            del events[:]
        self.map.tick(now, self._pressed)

    def buttons(self):
        self._scan()
        out, self._pressed = self._pressed, []
        return out

    def serial_read(self, timeout_ms):
        """Up to 512 bytes from the host, waiting at most timeout_ms; the
        wait polls the buttons and refreshes a pending frame when due."""
        self._refresh_due()
        self._scan()
        port = self.port
        end = self.clock_ms() + timeout_ms
        data = b""
        while True:
            n = port.in_waiting if port is not None else 0
            if n:
                chunk = port.read(min(n, 512 - len(data)))
                if chunk:
                    data += chunk
                if len(data) >= 512:
                    break
                continue
            if data or self._pressed or self.clock_ms() >= end:
                break
            self.sleep_ms(self.POLL_MS)
            self._scan()
            self._refresh_due()
        return data

    def serial_write(self, text):
        port = self.port
        if port is None or not port.connected:
            self.dropped_writes += 1  # no host listening: drop, never block
            return
        port.write(text.encode())

    def entropy(self):
        n = 0
        for b in os.urandom(8):
            n = (n << 8) | b
        return n

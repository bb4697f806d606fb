"""Adafruit MagTag (ESP32-S2, 2.9" 296 x 128 grayscale e-ink, four buttons)
on CircuitPython. Started by code.py; boot.py must have run first (it
enables the second USB serial port and makes CIRCUITPY writable for code).

Screen. ``board.DISPLAY`` shows one Group holding one TileGrid over one
2-colour Bitmap, all built once here and never rebuilt: the renderer draws
straight into the bitmap through ``self.surface`` (surface.py), with the
same layout.py positions and the same pixels as the MicroPython boards.
CircuitPython refuses a refresh sooner than the panel allows (5 s apart on
the MagTag; ``display.time_to_refresh`` says how long is left, and
``refresh()`` raises RuntimeError "Refresh too soon" before that, sometimes
even just after time_to_refresh reached 0). So ``show()`` refreshes at once
when it may and otherwise keeps the frame pending; the bitmap always holds
the newest frame, so only the newest is shown, as soon as the panel allows:
the app calls ``serial_read()`` every loop and that call refreshes the
pending frame when it is due. Nothing can appear on the panel before then,
so while a frame waits the player sees the board's red LED and a dim amber
NeoPixel ("the screen is coming"); both go out when it is shown.

Buttons. The four buttons, left to right under the display, are BUTTON_A
(D15), BUTTON_B (D14), BUTTON_C (D12) and BUTTON_D (D11); they read low
when pressed. The app's five buttons map so that the letters printed on
the board are the letters on the screen's hints:

    MagTag A        -> A      (on press)
    MagTag B        -> B      (on press)
    MagTag C        -> C      (on press)
    MagTag D short  -> DOWN   (on release, if held less than LONG_MS)
    MagTag D held   -> UP     (once, as soon as it has been held LONG_MS)

DOWN is the common move (menus wrap around, so DOWN alone reaches every
item); UP, mostly "more advantage" on the home screen, is a long press.
Debounced by CircuitPython's ``keypad`` module where the firmware has it
(it scans in the background, so a press during a long render is not
lost), else by polling digitalio here (a change counts once it has held
DEBOUNCE_MS).

Host link: ``usb_cdc.data``, the second USB serial port (the REPL keeps the
first), read without blocking (``in_waiting``). No host, no port: writes are
dropped, as on the other boards. Battery: ``board.VOLTAGE_MONITOR`` sits
behind a divide-by-two resistor divider. Entropy: ``os.urandom``. Saves:
the ``/deckahedron`` folder on CIRCUITPY, writable by code only after
boot.py remounted it (``read_only`` says whether it is).

Sleep (issue 12). With no host on the data port the app sleeps
SLEEP_AFTER_MS after a press (sleep_after_ms()); ``power_off()`` shows the
pending screen, lets the panel finish, then deep-sleeps until a button
(CircuitPython restarts code.py and the save loads); with a host, the
app's long idle power-off does the same. Deep sleep, not light sleep: on
the ESP32-S2 CircuitPython's light sleep saves nothing over time.sleep()
(Adafruit, "Deep Sleep with CircuitPython"; its espressif alarm code
cannot call esp_light_sleep_start(), which stops the peripherals). All
four buttons wake it: they are RTC GPIOs (15, 14, 12, 11) and since
CircuitPython 9.1.0 the ESP32-S2 wakes on any of several low pins (ext1
ANY_LOW, commit ed2f32fadb "Enable deep sleep on all ESP chips"); an older
CircuitPython that refuses that gets A and B (DEEP_WAKE_OLD: ext0 + ext1
allowed two). The press that woke the board acts: ``alarm.wake_alarm``
names the button, and a tap over before code.py runs again is reported as
that button's press (D's as DOWN).
"""

import os
import time

from boards import Board
from surface import Surface

WIDTH, HEIGHT = 296, 128
PHYSICAL = ("A", "B", "C", "D")  # left to right: BUTTON_A (D15), B (D14), C (D12), D (D11)


def _monotonic_ms():
    try:
        return time.monotonic_ns() // 1000000
    except AttributeError:
        return int(time.monotonic() * 1000)


def _sleep_ms(ms):
    time.sleep(ms / 1000)


class ButtonMap:
    """Physical key events (index 0..3 left to right, pressed, t_ms) ->
    the app's button names, with D's short/long press split."""

    def __init__(self, long_ms):
        self.long_ms = long_ms
        self.d_since = None  # when D went down; None when it is up
        self.d_long = False  # UP already sent for this hold

    def event(self, k, pressed, t, out):
        if k < 3:
            if pressed:
                out.append(PHYSICAL[k])
            return
        if pressed:
            self.d_since = t
            self.d_long = False
        elif self.d_since is not None:
            if not self.d_long:
                out.append("UP" if t - self.d_since >= self.long_ms else "DOWN")
            self.d_since = None

    def tick(self, t, out):
        if self.d_since is not None and not self.d_long and t - self.d_since >= self.long_ms:
            self.d_long = True
            out.append("UP")


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


class _Indicator:
    """'A screen is coming': the red LED and a dim amber first NeoPixel,
    each only if the firmware lets us drive it."""

    COLOUR = bytes((6, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))  # GRB x 4: first pixel amber

    def __init__(self, board, digitalio):
        self.on = False
        self.led = None
        self.pix = None
        self.pix_power = None
        self.write = None
        try:
            self.led = digitalio.DigitalInOut(board.LED)
            self.led.switch_to_output(value=False)
        except Exception:
            self.led = None
        try:
            import neopixel_write

            self.pix = digitalio.DigitalInOut(board.NEOPIXEL)
            self.pix.switch_to_output(value=False)
            self.pix_power = digitalio.DigitalInOut(board.NEOPIXEL_POWER)
            self.pix_power.switch_to_output(value=True)  # high = NeoPixels unpowered
            self.write = neopixel_write.neopixel_write
        except Exception:
            self.pix = self.pix_power = self.write = None

    def set(self, on):
        if on == self.on:
            return
        self.on = on
        if self.led is not None:
            self.led.value = on
        if self.write is not None:
            try:
                if on:
                    self.pix_power.value = False  # power on
                    self.write(self.pix, self.COLOUR)
                else:
                    self.write(self.pix, bytes(12))
                    self.pix_power.value = True
            except Exception:
                pass


class MagTagBoard(Board):
    name = "magtag"
    can_sleep = True  # deep sleep (CircuitPython has one refresh for this panel: no can_partial)

    LONG_MS = 600  # D held this long is UP
    DEBOUNCE_MS = 20  # polled buttons only; keypad debounces itself
    RETRY_MS = 250  # after a "Refresh too soon" although time_to_refresh was 0
    POLL_MS = 5  # serial_read's wait step (buttons and the panel checked each step)
    BATTERY_MS = 30000  # read the battery at most this often
    FLASH_DIR = "/deckahedron"
    SLEEP_AFTER_MS = 100  # no input this long (no host): deep sleep
    DEEP_WAKE_OLD = ("A", "B")  # the wake buttons where CircuitPython allows only two

    def __init__(self, flash_dir=None, display=None, clock_ms=None, sleep_ms=None, use_keypad=True):
        import board
        import digitalio
        import displayio

        self._board = board
        self.clock_ms = clock_ms or _monotonic_ms
        self.sleep_ms = sleep_ms or _sleep_ms
        self.flash_dir = self.FLASH_DIR if flash_dir is None else flash_dir
        self.read_only = self._check_writable()

        # the screen: built once, updated in place
        self.display = display if display is not None else board.DISPLAY
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
        self.surface = Surface(self.bitmap)
        self.pending = None  # the refresh mode of a frame waiting for the panel
        self.retry_at = 0
        self.refreshes = {"full": 0, "fast": 0, "partial": 0}
        self.too_soon = 0  # refresh() refusals caught

        # buttons
        self._digitalio = digitalio
        self.pins = (board.BUTTON_A, board.BUTTON_B, board.BUTTON_C, board.BUTTON_D)
        self.map = ButtonMap(self.LONG_MS)
        self.use_keypad = use_keypad
        self._pressed = []
        self.woke = None
        try:
            import alarm

            self._woken(self._alarm_key(alarm.wake_alarm))  # a restart after deep sleep
        except ImportError:
            pass
        self._make_keys()

        self.indicator = _Indicator(board, digitalio)

        self._open_link()

        self._adc = None
        self._volts = None
        self._volts_at = None

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

    def _alarm_key(self, a):
        """The button (0..3) a pin alarm names, else None."""
        p = getattr(a, "pin", None)
        return self.pins.index(p) if p in self.pins else None

    def _woken(self, k):
        """Button k woke the board: its press acts. Still held, the scan
        reports it (keypad and the polled keys start from "all up"); a tap
        already over is reported here, D's as a short press (DOWN)."""
        if k is None:
            return
        self.woke = "button"
        io = self._digitalio.DigitalInOut(self.pins[k])
        io.switch_to_input(pull=self._digitalio.Pull.UP)
        held = not io.value
        io.deinit()
        if not held:
            now = self.clock_ms()
            self.map.event(k, True, now, self._pressed)
            self.map.event(k, False, now, self._pressed)

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
        events = []
        self.keys.read(now, events)
        for k, pressed, t in events:
            self.map.event(k, pressed, t, self._pressed)
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

    # ---------------------------------------------------------------- power

    def battery(self):
        """Battery volts (VOLTAGE_MONITOR through its 1:2 divider), read at
        most every BATTERY_MS."""
        now = self.clock_ms()
        if self._volts_at is not None and now - self._volts_at < self.BATTERY_MS:
            return self._volts
        try:
            if self._adc is None:
                import analogio

                self._adc = analogio.AnalogIn(self._board.VOLTAGE_MONITOR)
            self._volts = round(self._adc.value / 65535 * 3.3 * 2, 2)
        except Exception:
            self._volts = None
        self._volts_at = now
        return self._volts

    def entropy(self):
        n = 0
        for b in os.urandom(8):
            n = (n << 8) | b
        return n

    def sleep_after_ms(self):
        """SLEEP_AFTER_MS with no host on the data port; None with one
        (the app's long idle power-off)."""
        port = self.port
        return None if port is not None and port.connected else self.SLEEP_AFTER_MS

    def sleep_loses_ram(self):
        return True  # deep sleep: CircuitPython starts code.py again

    def power_off(self):
        """Show the pending screen, let the panel finish, then deep-sleep
        until a button (never returns on a board: code.py starts again)."""
        self.flush()
        end = self.clock_ms() + 3000
        while getattr(self.display, "busy", False) and self.clock_ms() < end:
            self.sleep_ms(50)  # let the panel finish drawing it before the power goes
        try:
            import alarm
        except ImportError:
            return  # no deep sleep here: stay awake
        self.keys.deinit()
        self.indicator.set(False)
        try:
            wake = [alarm.pin.PinAlarm(pin=p, value=False, pull=True) for p in self.pins]
            alarm.exit_and_deep_sleep_until_alarms(*wake)
        except ValueError:  # CircuitPython before 9.1: two low pins at most
            wake = [alarm.pin.PinAlarm(pin=self.pins[PHYSICAL.index(b)], value=False, pull=True)
                    for b in self.DEEP_WAKE_OLD]
            alarm.exit_and_deep_sleep_until_alarms(*wake)

Board = MagTagBoard

"""Pimoroni Badger 2040 and Badger 2040 W, on Pimoroni's MicroPython firmware.

The panel is a 2.9" 296 x 128 UC8151, driven through Pimoroni's
``badger2040`` module (badger2040.Badger2040(), which wraps a PicoGraphics
DISPLAY_INKY_PACK). Facts this module relies on (Pimoroni's badger2040
reference and sources):

* Update speeds: UPDATE_NORMAL 0, UPDATE_MEDIUM 1, UPDATE_FAST 2,
  UPDATE_TURBO 3, set with set_update_speed(). Badger2040.update() blocks
  and pads every update to 4700 / 2600 / 900 / 250 ms per speed; the UC8151
  driver's own update times are 4500 / 2000 / 800 / 250 ms. Changing the
  speed re-runs the controller setup (a reset): never while it refreshes.
* partial_update(x, y, w, h): y and h must be multiples of 8; x, w any.
  It uses the current speed.
* PicoGraphics supports the buffer protocol: memoryview(display) is its
  4736-byte frame buffer. The Badger uses the "1BitY" layout: byte
  x * 16 + y // 8, bit 7 - y % 8, 1 = white (pen 15), 0 = black (pen 0).
* display.is_busy() (UC8151 BUSY, GPIO26, low = busy) and
  display.set_blocking(False): update() then starts the refresh and returns.
* Buttons A 12, B 13, C 14, UP 15, DOWN 11 (pull-down, 1 = pressed),
  read with badger.pressed(pin), which also reports, once, the button that
  woke the board (badger2040.pressed_to_wake_get_once);
  reset_pressed_to_wake() forgets that.
* Power: ENABLE_3V3 (GPIO10) holds the power latch on battery; halt() /
  turn_off() drives it low, which powers the board off; a button press (or,
  on the 2040 W, the PCF85063A RTC alarm on GPIO8) powers it on again and
  main.py runs from the start. On USB power nothing turns off: Pimoroni's
  turn_off() then spins until a button or the alarm.
* Badger 2040 battery: VBAT / 3 on GPIO29 (ADC3) measured against a 1.24 V
  reference on GPIO28 (ADC2) that GPIO27 switches on:
  vdd = 1.24 * 65535 / ref; vbat = bat / 65535 * 3 * vdd.
  The 2040 W has no such circuit and Pimoroni's module offers no reading
  (the Pico W's own VSYS sense shares GPIO29 with the Wi-Fi chip): None.
* 2040 W: badger2040.is_wireless() is True; the module's ``rtc`` is a
  pcf85063a.PCF85063A (datetime(), set_alarm(second, minute, hour),
  enable_alarm_interrupt(), clear_alarm_flag()); woken_by_rtc().

Frames. The app's frame (296 x 128 MONO_HLSB, 1 = black) is converted in
place into the PicoGraphics buffer: one framebuf blit into a MONO_VLSB
scratch buffer (8 vertical pixels per byte, top pixel in bit 0), then a
loop that moves each byte to x * 16 + band through a table that reverses
its bits and inverts them (4736 steps, no allocation).

Refresh. show() never starts an update while the panel is busy or sooner
than the speed's padded time after the previous start (it waits, bounded by
BUSY_TIMEOUT_MS, sampling buttons and feeding the watchdog, then raises
PanelTimeout); with set_blocking(False) the refresh runs while the app goes
on. "partial" sends only the changed area (rows widened to multiples of 8)
at UPDATE_TURBO; when more than PARTIAL_MAX of the panel changed it becomes
a full-screen fast update, and when nothing changed nothing is sent.
"""

from boards.usbserial import BoardBase

from drivers.vlsb import HlsbToVlsb

WIDTH = 296
HEIGHT = 128
BANDS = HEIGHT // 8
FRAME_BYTES = WIDTH * HEIGHT // 8  # 4736

BUTTON_NAMES = ("A", "B", "C", "UP", "DOWN")
BUTTON_CONSTS = ("BUTTON_A", "BUTTON_B", "BUTTON_C", "BUTTON_UP", "BUTTON_DOWN")

ENABLE_3V3 = 10
RTC_ALARM = 8  # 2040 W: the PCF85063A interrupt (high = alarm)
PIN_VREF_POWER = 27
PIN_1V2_REF = 28
PIN_VBAT = 29


class PanelTimeout(Exception):
    """The Badger's panel stayed busy longer than it ever should."""


def _rev_inv_table():
    t = bytearray(256)
    for b in range(256):
        r = 0
        for k in range(8):
            if b & (1 << k):
                r |= 0x80 >> k
        t[b] = r ^ 0xFF
    return bytes(t)


def detect():
    """The board name from Pimoroni's module: "badger2040w", "badger2040",
    or None when there is no badger2040 module."""
    try:
        import badger2040
    except ImportError:
        return None
    wireless = getattr(badger2040, "is_wireless", None)
    if wireless is not None:
        return "badger2040w" if wireless() else "badger2040"
    try:
        import network  # noqa: F401
        return "badger2040w"
    except ImportError:
        return "badger2040"


class Badger2040Board(BoardBase):
    name = "badger2040"
    can_partial = True

    # Tunables (class attributes): which speed each refresh mode uses, and
    # the padded time of each speed, indexed by speed.
    MODE_SPEED = {"full": "UPDATE_NORMAL", "fast": "UPDATE_FAST", "partial": "UPDATE_TURBO"}
    UPDATE_MS = (4700, 2600, 900, 250)
    BUSY_TIMEOUT_MS = 6000  # longest wait for the panel (the slowest update is 4.7 s)
    PARTIAL_MAX = 0.5  # a partial update larger than this share of the panel goes fast
    POWER_OFF_SETTLE_MS = 50
    POWER_POLL_MS = 20
    BATTERY_SENSE = True

    def __init__(self, flash_dir="", clock=None, serial=None):
        import badger2040
        import machine

        self.machine = machine
        self.vendor = badger2040
        if hasattr(badger2040, "woken_by_rtc") and badger2040.woken_by_rtc():
            self.woke = "rtc"
        elif hasattr(badger2040, "woken_by_button") and badger2040.woken_by_button():
            self.woke = "button"
        else:
            self.woke = None
        if hasattr(badger2040, "reset_pressed_to_wake"):
            badger2040.reset_pressed_to_wake()  # the wake press is not a command
        self.badger = badger2040.Badger2040()
        self.display = self.badger.display
        self.fb = memoryview(self.display)
        if len(self.fb) != FRAME_BYTES:
            raise ValueError("PicoGraphics buffer is %d bytes, expected %d" % (len(self.fb), FRAME_BYTES))
        self._is_busy = getattr(self.display, "is_busy", None)
        self.blocking = True
        if hasattr(self.display, "set_blocking"):
            self.display.set_blocking(False)
            self.blocking = False
        self.speeds = {}
        for mode in self.MODE_SPEED:
            self.speeds[mode] = getattr(badger2040, self.MODE_SPEED[mode])
        self.speed = None  # unknown until we set one
        self.started = 0
        self.ready_after = 0  # ms after self.started before the next update
        self.counts = {"full": 0, "fast": 0, "partial": 0, "skipped": 0}
        self.can_partial = self.can_partial and hasattr(self.display, "partial_update")
        self.vlsb = bytearray(FRAME_BYTES)
        self._vlsb_conv = HlsbToVlsb(self.vlsb, WIDTH, HEIGHT, ink=1)
        self._table = _rev_inv_table()
        self.pins = [getattr(badger2040, c) for c in BUTTON_CONSTS]
        self.enable = machine.Pin(ENABLE_3V3, machine.Pin.OUT)
        self._setup(flash_dir, clock, serial, BUTTON_NAMES, self._read_button)
        if self.BATTERY_SENSE:
            self._vref_en = machine.Pin(PIN_VREF_POWER, machine.Pin.OUT, value=0)
            self._adc_ref = machine.ADC(PIN_1V2_REF)
            self._adc_bat = machine.ADC(PIN_VBAT)

    def _read_button(self, i):
        return self.badger.pressed(self.pins[i])

    # -- panel -----------------------------------------------------------
    def busy(self):
        if self.ready_after and self.clock.ticks_diff(self.clock.ticks_ms(), self.started) < self.ready_after:
            return True
        return self._is_busy is not None and bool(self._is_busy())

    def wait_ready(self):
        """Wait until the panel may take the next update: the previous one's
        padded time is over and BUSY is released. Bounded: PanelTimeout."""
        t0 = self.clock.ticks_ms()
        while self.busy():
            waited = self.clock.ticks_diff(self.clock.ticks_ms(), t0)
            if waited >= self.BUSY_TIMEOUT_MS:
                raise PanelTimeout("Badger panel stayed busy for %d ms" % self.BUSY_TIMEOUT_MS)
            self.idle(min(self.POLL_MS, self.BUSY_TIMEOUT_MS - waited))
        self.ready_after = 0

    def _to_vlsb(self, frame):
        self._vlsb_conv.convert(frame)

    def _convert(self):
        """The VLSB frame into the PicoGraphics buffer, in place."""
        fb = self.fb
        v = self.vlsb
        t = self._table
        k = 0
        for x in range(WIDTH):
            j = x
            for _ in range(BANDS):
                fb[k] = t[v[j]]
                j += WIDTH
                k += 1

    def _convert_changes(self):
        """As _convert, returning the changed area (x0, x1, band0, band1) or None."""
        fb = self.fb
        v = self.vlsb
        t = self._table
        x0 = WIDTH
        x1 = -1
        b0 = BANDS
        b1 = -1
        k = 0
        for x in range(WIDTH):
            j = x
            for band in range(BANDS):
                n = t[v[j]]
                if fb[k] != n:
                    fb[k] = n
                    if x < x0:
                        x0 = x
                    x1 = x
                    if band < b0:
                        b0 = band
                    if band > b1:
                        b1 = band
                j += WIDTH
                k += 1
        if x1 < 0:
            return None
        return x0, x1, b0, b1

    def _set_speed(self, speed):
        if speed != self.speed:
            self.badger.set_update_speed(speed)  # resets the controller: panel is idle here
            self.speed = speed

    def show(self, buf, mode):
        """Push a frame with a "full", "fast" or "partial" update; returns the
        update done ("partial" may become "fast", or "skipped" if nothing
        changed)."""
        if mode not in self.speeds:
            raise ValueError("update mode must be full, fast or partial, not %r" % (mode,))
        if len(buf) != FRAME_BYTES:
            raise ValueError("a frame is %d bytes, not %d" % (FRAME_BYTES, len(buf)))
        self.wait_ready()
        self._to_vlsb(buf)
        region = None
        if mode == "partial":
            region = self._convert_changes()
            if region is None:
                self.counts["skipped"] += 1
                return "skipped"
            x0, x1, b0, b1 = region
            w = x1 - x0 + 1
            h = (b1 - b0 + 1) * 8
            if not self.can_partial or w * h > self.PARTIAL_MAX * WIDTH * HEIGHT:
                mode = "fast"
        else:
            self._convert()
        speed = self.speeds[mode]
        self._set_speed(speed)
        self.started = self.clock.ticks_ms()
        if mode == "partial":
            self.display.partial_update(x0, b0 * 8, w, h)
        elif self.blocking:
            self.badger.update()  # Pimoroni's: blocks and pads to the speed's time
        else:
            self.display.update()  # starts the refresh and returns
        self.ready_after = self.UPDATE_MS[speed]
        self.counts[mode] += 1
        return mode

    # -- power -------------------------------------------------------------
    def _alarm_fired(self):
        return False

    def clear_wake_alarm(self):
        pass

    def power_off(self):
        """Power down after inactivity; the caller has already saved the state.

        Does what Pimoroni's halt() does (ENABLE_3V3 low): on battery the
        board loses power here and the next button press boots it again
        from main.py. On USB power (or while a button holds the latch on)
        halt() cannot cut the power; then this BLOCKS until a button is
        pressed (2040 W: or the RTC alarm set by set_wake_alarm fires, or
        serial input arrives), feeding the watchdog all the while (halt()'s
        own loop would not), and RETURNS with self.woke = "button", "rtc"
        or "serial"; the wake press is not reported by buttons(). The
        caller redraws and carries on."""
        self.wait_ready()
        self.clock.sleep_ms(self.POWER_OFF_SETTLE_MS)
        self.enable.value(0)
        while True:
            self.feed()
            if self.debouncer.any_down():
                self.woke = "button"
                break
            if self._alarm_fired():
                self.woke = "rtc"
                self.clear_wake_alarm()
                break
            if self.serial.readable():
                self.woke = "serial"
                break
            self.clock.sleep_ms(self.POWER_POLL_MS)
        self.enable.value(1)  # keep the latch on, as Pimoroni's launcher does
        self.debouncer.prime()

    def battery(self):
        """Battery volts (VBAT sense against the 1.24 V reference)."""
        if not self.BATTERY_SENSE:
            return None
        self._vref_en.value(1)
        ref = self._adc_ref.read_u16()
        bat = self._adc_bat.read_u16()
        self._vref_en.value(0)
        if ref <= 0:
            return None
        vdd = 1.24 * 65535 / ref
        return bat * 3 * vdd / 65535


class Badger2040WBoard(Badger2040Board):
    """The 2040 W: the same panel and buttons, no battery sense, and a
    PCF85063A RTC that can power the board up at a set time."""

    name = "badger2040w"
    BATTERY_SENSE = False

    def __init__(self, flash_dir="", clock=None, serial=None):
        Badger2040Board.__init__(self, flash_dir, clock, serial)
        self.rtc = getattr(self.vendor, "rtc", None)
        self.alarm_pin = self.machine.Pin(RTC_ALARM, self.machine.Pin.IN)
        self.alarm_set = False

    def _alarm_fired(self):
        return self.alarm_set and bool(self.alarm_pin.value())

    def set_wake_alarm(self, seconds):
        """Wake (power up, or end power_off() on USB) in about seconds
        (2 to 86399), through the PCF85063A alarm, as Pimoroni's sleep_for()
        does but to the second. Returns False when there is no RTC."""
        if self.rtc is None:
            return False
        seconds = int(seconds)
        if seconds < 2:
            seconds = 2  # never an alarm that may already have passed
        if seconds > 86399:
            raise ValueError("the RTC alarm reaches at most 23:59:59 ahead")
        t = self.rtc.datetime()  # (year, month, day, hour, minute, second, weekday)
        at = (t[3] * 3600 + t[4] * 60 + t[5] + seconds) % 86400
        self.rtc.clear_alarm_flag()
        self.rtc.set_alarm(at % 60, (at // 60) % 60, at // 3600)
        self.rtc.enable_alarm_interrupt(True)
        self.alarm_set = True
        return True

    def clear_wake_alarm(self):
        if self.rtc is not None and self.alarm_set:
            self.rtc.enable_alarm_interrupt(False)
            self.rtc.clear_alarm_flag()
        self.alarm_set = False

"""Adafruit MagTag (ESP32-S2, 2.9" 296 x 128 grayscale e-ink, four buttons)
on CircuitPython. Started by code.py; boot.py must have run first (it
enables the second USB serial port and makes CIRCUITPY writable for code).

What every CircuitPython board does (the bitmap the renderer draws into,
the pending frame, keypad, the link on usb_cdc.data, the drive) is
boards/circuitpython.py's; here is the MagTag's own.

Screen: ``board.DISPLAY``, which refuses a refresh sooner than 5 s after
the last. While a frame waits the player sees the board's red LED and a dim
amber NeoPixel ("the screen is coming"); both go out when it is shown.

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

Battery: ``board.VOLTAGE_MONITOR`` sits behind a divide-by-two resistor
divider.

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

from boards.circuitpython import CircuitPythonBoard

PHYSICAL = ("A", "B", "C", "D")  # left to right: BUTTON_A (D15), B (D14), C (D12), D (D11)


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


class MagTagBoard(CircuitPythonBoard):
    name = "magtag"
    can_sleep = True  # deep sleep (CircuitPython has one refresh for this panel: no can_partial)

    LONG_MS = 600  # D held this long is UP
    SLEEP_AFTER_MS = 100  # no input this long (no host): deep sleep
    DEEP_WAKE_OLD = ("A", "B")  # the wake buttons where CircuitPython allows only two

    def __init__(self, flash_dir=None, display=None, clock_ms=None, sleep_ms=None, use_keypad=True):
        import board
        import digitalio
        import displayio

        self._setup(board, flash_dir, clock_ms, sleep_ms)
        self._make_screen(displayio, display if display is not None else board.DISPLAY)
        self._buttons(digitalio, (board.BUTTON_A, board.BUTTON_B, board.BUTTON_C, board.BUTTON_D),
                      ButtonMap(self.LONG_MS), use_keypad)
        try:
            import alarm

            self._woken(self._alarm_key(alarm.wake_alarm))  # a restart after deep sleep
        except ImportError:
            pass
        self._make_keys()

        self.indicator = _Indicator(board, digitalio)
        self._open_link()

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

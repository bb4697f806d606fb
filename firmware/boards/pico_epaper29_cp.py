"""Raspberry Pi Pico + Waveshare Pico-ePaper-2.9 on CircuitPython (registry
key pico-epaper29-cp): the same parts and pins as pico-epaper29, for players
who prefer CircuitPython's CIRCUITPY drive. Started by code.py (boot.py
first: two USB serial ports, the drive writable by code).

What differs from the MagTag (boards/magtag.py); the screen, refresh,
link and save logic both have is boards/circuitpython.py's:

- the panel is not built in: Adafruit's ``adafruit_ssd1680`` driver (its
  module in lib/ on CIRCUITPY, as CircuitPython users install it; the
  flasher copies it) over ``busio.SPI`` + ``fourwire.FourWire`` on the
  Waveshare module's pins, the panel's BUSY line given so CircuitPython
  refuses a refresh while the panel works ("Refresh too soon", caught);
- five buttons, A B C UP DOWN on GP2-GP6 to GND, each a press of its own
  (no long-press split: keypad.Keys debounces them in the background);
- the battery on GP29 (VSYS/3, the Pico's own divider), the red LED the
  Pico's GP25 while a frame waits;
- no deep sleep: it stays awake (the app's idle power-off just lets the
  panel finish), so the RAM and the game's screens survive.
"""

from boards import spec
from boards.circuitpython import CircuitPythonBoard

NAME = "pico-epaper29-cp"
WIDTH, HEIGHT = 296, 128


class ButtonNames:
    """Physical key events (index, pressed, t) -> the app's button names:
    each button acts on its press."""

    def __init__(self, names):
        self.names = names

    def event(self, k, pressed, t, out):
        if pressed:
            out.append(self.names[k])

    def tick(self, t, out):
        pass


class _Led:
    """The Pico's LED (GP25) lit while a frame waits for the panel."""

    def __init__(self, board, digitalio):
        self.on = False
        try:
            self.led = digitalio.DigitalInOut(board.LED)
            self.led.switch_to_output(value=False)
        except Exception:  # noqa: BLE001
            self.led = None

    def set(self, on):
        if on != self.on and self.led is not None:
            self.led.value = on
        self.on = on


class PicoEpaper29CPBoard(CircuitPythonBoard):
    name = NAME
    # the app's idle "sleep" runs (the save, the battery notices): power_off() lets the
    # panel finish and the board stays awake
    can_sleep = True
    SPI_BAUD = 20000000  # the SSD1680's limit for writes; the RP2040 gives 15.6 MHz
    # EPaperDisplay refuses a refresh sooner than this after the last one
    # started, and while BUSY is high (the panel's own time: ~3 s full)
    SECONDS_PER_FRAME = 0.5
    # after its reset pulse the SSD1680 holds BUSY ~1-3 ms; EPaperDisplay's default
    # start_up_time (0) sends the start sequence's soft reset into it (the
    # emulated panel flagged it): wait 10 ms first
    START_UP_S = 0.01
    ROTATION = 90  # the landscape the MicroPython driver draws (gate = x, source = 127 - y): 270 was upside down
    SLEEP_AFTER_MS = None
    # glyph runs the surface keeps (surface.py): the MagTag's 256 took ~150 KB
    # and the Pico's heap ran out drawing its first home screen (MemoryError)
    GLYPH_RUNS = 0

    def __init__(self, flash_dir=None, display=None, clock_ms=None, sleep_ms=None, use_keypad=True):
        import board
        import digitalio
        import displayio

        pins = spec(NAME)["pins"]
        self._setup(board, flash_dir, clock_ms, sleep_ms)
        import microcontroller

        # microcontroller.pin names every GPIO (board has no GP29: it is VOLTAGE_MONITOR)
        gp = lambda n: getattr(microcontroller.pin, "GPIO%d" % n)  # noqa: E731
        if display is None:
            display = self._make_display(pins["panel"], gp, displayio)
        self._make_screen(displayio, display, self.GLYPH_RUNS)
        self._buttons(digitalio, tuple(gp(b[1]) for b in pins["buttons"]), ButtonNames([b[0] for b in pins["buttons"]]),
                      use_keypad)
        self._make_keys()
        self.indicator = _Led(board, digitalio)
        self._open_link()
        battery = pins.get("battery")
        self._battery_pin = gp(battery[0]) if battery else None
        self._divider = battery[1] if battery else None

    def _make_display(self, p, gp, displayio):
        import busio
        import fourwire
        from adafruit_ssd1680 import SSD1680

        displayio.release_displays()  # a display from an earlier run of code.py holds the pins
        spi = busio.SPI(gp(p["sck"]), MOSI=gp(p["mosi"]))
        bus = fourwire.FourWire(spi, command=gp(p["dc"]), chip_select=gp(p["cs"]), reset=gp(p["rst"]),
                                baudrate=self.SPI_BAUD)
        return SSD1680(bus, width=WIDTH, height=HEIGHT, rotation=self.ROTATION, busy_pin=gp(p["busy"]),
                       colstart=0, seconds_per_frame=self.SECONDS_PER_FRAME, start_up_time=self.START_UP_S)

    def deinit(self, max_ms=5000):
        """Let the panel finish, then release it. CircuitPython 10 keeps a
        display across a soft reload (reset_displays: its release waits for
        CircuitPython 11), but its start, stop and refresh sequences are bytes of
        adafruit_ssd1680 in the heap the reload frees: the background's end
        of a refresh, or the next run's release_displays(), would send the
        stop sequence from whatever the new run put there (issue 28's
        stray bytes). Released here, the reload finds no display."""
        import displayio

        end = self.clock_ms() + max_ms
        while self.display.busy and self.clock_ms() < end:  # .busy also sends the stop sequence when done
            self.sleep_ms(20)
        displayio.release_displays()

    def battery(self):
        """VSYS volts through the Pico's divider on GP29, at most every BATTERY_MS."""
        if self._battery_pin is None:
            return None
        now = self.clock_ms()
        if self._volts_at is not None and now - self._volts_at < self.BATTERY_MS:
            return self._volts
        try:
            if self._adc is None:
                import analogio

                self._adc = analogio.AnalogIn(self._battery_pin)
            self._volts = self._adc.value / 65535 * 3.3 * self._divider
        except Exception:  # noqa: BLE001
            self._volts = None
        self._volts_at = now
        return self._volts

    def sleep_after_ms(self):
        return None  # awake: the app's long idle power-off only

    def sleep_loses_ram(self):
        return False

    def power_off(self):
        """Let the pending frame reach the panel; the board stays awake."""
        self.flush()


Board = PicoEpaper29CPBoard

"""Raspberry Pi Pico + Waveshare Pico-ePaper-2.9 (SSD1680, 296 x 128 b/w),
with push buttons and an optional battery, on stock MicroPython for rp2.

Panel pins are the Waveshare module's (its Pico example: RST GP12, DC GP8,
CS GP9, BUSY GP13, on SPI1 with CLK GP10 and DIN GP11). The project's own
driver (drivers/ssd1680.py) runs it: full and fast updates, the panel kept
ready between presses while the board is awake and in deep sleep while it
sleeps, bounded BUSY waits (PanelTimeout).

SPI1's default MISO on rp2 MicroPython is GP8, which the module uses as DC:
the SPI bus is therefore set up first and the DC pin after it, which turns
GP8 back into a plain output (the panel never talks back).

Buttons: momentary switches from a GPIO to GND, the Pico's internal
pull-ups, pressed = 0. BUTTON_PINS names them (from the registry,
boards/boards.json); the GPIOs avoid the panel's
(8-13), GP0/GP1 (UART0), GP23-GP25 and GP29 (the Pico's SMPS mode, VBUS
sense, LED, VSYS sense). Three buttons (A, B, C) are enough: the app maps
UP and DOWN when present. Debounced by boards.usbserial.Debouncer
(DEBOUNCE_MS).

Battery (optional): a LiPo feeding VSYS (through a charger / diode, see
hardware/). The Pico measures VSYS through its own 200k/100k divider on
GPIO29 (ADC3): volts = raw / 65535 * 3.3 * 3. BATTERY = (adc_gpio,
divider) says where; set it to (26, 2.0) for an external 1:1 divider on
GP26, or None for no reading. On a Pico W GPIO29 is shared with the
wireless chip's SPI clock, and GPIO25 is that chip's chip select: with
GPIO25 driven high (chip deselected; it is unused here) GPIO29 reads VSYS/3
as on a Pico (Pico W datasheet, "Using the ADC"). battery() therefore
drives GPIO25 high around the reading on every Pico; on a plain Pico
GPIO25 is the LED, lit for the microseconds of the reading.

Power: between presses the board sleeps (BoardBase: DORMANT on battery,
woken by a button's press edge, the press acts, or by VBUS rising on GP24,
the Pico's VBUS sense). power_off() lets the panel finish and sleep first.
With a USB host attached the board stays awake until the app's idle
power-off, then sleeps in machine.lightsleep(SLEEP_SLICE_MS) slices (rp2
keeps the USB clock in a timed lightsleep once a host configured the
port), which serial input or a press ends; on USB power with no host
sending frames it waits awake, so a host that comes back finds it. (On a
Pico W GP24 belongs to the wireless chip, off here: it reads low, and the
board goes DORMANT whenever no host sends frames.)
"""

from boards import spec
from boards.usbserial import BoardBase, peripheral_clock_from_sys

# The pins are in the board registry (boards/boards.json, "pico-epaper29").
_PINS = spec("pico-epaper29")["pins"]
# (name, GPIO): buttons to GND, internal pull-up, 0 = pressed.
BUTTON_PINS = tuple((b[0], b[1]) for b in _PINS["buttons"])
# Waveshare Pico-ePaper-2.9 wiring (fixed by the module's header).
PANEL_SPI = _PINS["panel"]["spi"]
PANEL_PINS = dict((k, v) for k, v in _PINS["panel"].items() if k != "spi")


class PicoEpaper29Board(BoardBase):
    name = "pico-epaper29"
    can_partial = False  # the SSD1680's fast update already drives only changed pixels
    can_sleep = True

    # The SSD1680's limit for writes (its serial clock cycle is at least
    # 50 ns); the RP2040 divides its 125 MHz peripheral clock (from clk_sys:
    # boards.usbserial.peripheral_clock_from_sys) down to
    # 15.6 MHz, the nearest rate under it. Waveshare's example runs 4 MHz: a
    # frame's 4,736 bytes took 9.5 ms, now 2.4 ms.
    SPI_BAUD = 20000000
    BATTERY = tuple(_PINS["battery"]) if _PINS["battery"] else None  # (ADC GPIO, divider ratio)
    ADC_VREF = 3.3
    BATTERY_SAMPLES = 4
    SLEEP_SLICE_MS = 100
    WL_CS = 25  # Pico W: the wireless chip's chip select; Pico: the LED
    DEBOUNCE_MS = 30

    def __init__(self, flash_dir="", clock=None, serial=None, buttons=BUTTON_PINS):
        import machine
        from drivers.ssd1680 import SSD1680

        self.machine = machine
        Pin = machine.Pin
        p = PANEL_PINS
        peripheral_clock_from_sys(machine)
        spi = machine.SPI(PANEL_SPI, baudrate=self.SPI_BAUD, polarity=0, phase=0,
                          sck=Pin(p["sck"]), mosi=Pin(p["mosi"]))
        cs = Pin(p["cs"], Pin.OUT, value=1)
        dc = Pin(p["dc"], Pin.OUT, value=0)  # after the SPI: GP8 is SPI1's default MISO
        rst = Pin(p["rst"], Pin.OUT, value=1)
        busy = Pin(p["busy"], Pin.IN, Pin.PULL_UP)
        self.button_names = tuple(b[0] for b in buttons)
        self.button_gpios = tuple(b[1] for b in buttons)
        self.button_pins = [Pin(b[1], Pin.IN, Pin.PULL_UP) for b in buttons]
        self._setup(flash_dir, clock, serial, self.button_names, self._read_button, _PINS.get("vbus"))
        self.catch_edges(self.button_pins, Pin.IRQ_FALLING)
        self.epd = SSD1680(spi, cs, dc, rst, busy, clock=self.clock, idle=self.idle)
        if self._draw_on(self.epd) is not None:
            self.epd.native_invert()  # the frame's bits flipped on its way out, natively too
        self.adc = None
        self.vsys_select = None  # GPIO25 (Pico W: the wireless chip's CS) high while reading GPIO29
        if self.BATTERY is not None:
            self.adc = machine.ADC(self.BATTERY[0])
            if self.BATTERY[0] == 29:
                self.vsys_select = Pin(self.WL_CS, Pin.OUT, value=0)

    def _read_button(self, i):
        return self.button_pins[i].value() == 0

    def service(self):
        self.epd.poll()  # notices an update's end; powers a panel idle READY_MS off

    def buttons(self):
        pressed = BoardBase.buttons(self)
        if pressed:
            self.epd.wake()  # a panel asleep powers up while the press is worked out (drivers/ssd1680.py)
        return pressed

    def show(self, buf, mode):
        """Starts the update and returns (the panel refreshes while the app
        goes on); waits first, bounded, for a previous one still running."""
        return self.epd.show(buf, mode)

    def battery(self):
        if self.adc is None:
            return None
        sel = self.vsys_select
        if sel is not None:
            sel.value(1)
        total = 0
        for _ in range(self.BATTERY_SAMPLES):
            total += self.adc.read_u16()
        if sel is not None:
            sel.value(0)
        return total / self.BATTERY_SAMPLES / 65535 * self.ADC_VREF * self.BATTERY[1]

    def power_off(self):
        """Sleep until a press (or serial input); the caller has saved the
        state. The panel finishes and sleeps first; a press made meanwhile
        ends it at once. RETURNS with self.woke = "button" (the press is
        reported by buttons(): it acts) or "serial" (see BoardBase)."""
        self.epd.finish()
        self.wait_for_press(self.SLEEP_SLICE_MS)

"""Pimoroni Badger 2040 and Badger 2040 W on the project's base image (stock
MicroPython for rp2), with the project's UC8151 driver (drivers/uc8151.py):
plain ``machine``, no Pimoroni module.

Pins: the registry's "badger2040" / "badger2040w" entries
(boards/boards.json, read with boards.spec(self.name)); their "pin_notes"
give the sources. What the code relies on:

* Panel on SPI0, BUSY low = busy. The unused MISO is named so the SPI does
  not claim SPI0's default MISO, GP4, the 2040 W's I2C SDA.
* Buttons to 3V3 with the RP2040's pull-downs, pressed = 1 (unlike the
  Pico build). A press also powers a switched-off Badger up.
* The power latch (ENABLE_3V3): on battery the board runs only while it is
  high (or a button is held). main.py takes it high first thing (the
  hold= line of deckahedron.cfg); this module takes it again at once and
  drives it low in power_off(), which is how a Badger switches itself off
  (Pimoroni's turn_off()). On USB power nothing turns off.
* Between presses (on battery; on USB power it stays awake, BoardBase;
  the 2040 W senses no VBUS: no USB host sending frames) the
  board sleeps in one of two modes, SLEEP_MODES, chosen by ``sleep=`` in
  deckahedron.cfg (set_sleep): "off" (the default) drops the latch, so
  on battery the board is off and every press boots it into its save;
  main.py reads every GPIO right after it takes the latch again
  (woken_by), so the press that powered the board up acts, as Pimoroni's
  pressed_to_wake latch does. "dormant" keeps the power and RAM and stops
  the RP2040's crystal until a press edge (boards/rp2_sleep.py): no boot,
  a quicker answer, more current asleep. The 2040 W's RTC alarm
  (set_wake_alarm) can power it up or end a sleep too.
* The activity LED is lit while the panel refreshes.
* Battery, 2040 only: VBAT / divider measured against a reference of
  vref_volts that vref_enable switches on: vdd = vref_volts * 65535 / ref;
  V = bat / 65535 * divider * vdd. The 2040 W has no such circuit: None.
* 2040 W: a PCF85063A RTC whose alarm powers a switched-off board up:
  boards/badger2040w.py, its own module (a 2040 never loads it).

Refresh (drivers/uc8151.py): full = the panel's OTP waveform (~4.5 s),
fast = a register waveform (0.93 s), partial = a shorter one over the
changed gates only (0.26 s): can_partial is True, refresh.py picks the mode.
"""

from boards import spec
from boards.usbserial import BoardBase, peripheral_clock_from_sys

class Badger2040Board(BoardBase):
    name = "badger2040"
    can_partial = True
    can_sleep = True

    SPI_BAUD = 12000000  # Pimoroni's rate for this panel
    PRESS_EDGE = 8  # buttons read high when pressed: wake on the rising edge
    SLEEP_MODES = ("off", "dormant")
    sleep_mode = "off"
    POWER_OFF_SETTLE_MS = 50  # as Pimoroni's turn_off(), before the latch drops
    POWER_POLL_MS = 20

    def __init__(self, flash_dir="", clock=None, serial=None):
        import machine

        Pin = machine.Pin
        pins = spec(self.name)["pins"]
        self.enable = Pin(pins["power_latch"], Pin.OUT, value=1)  # first: keeps a battery board on
        from drivers.uc8151 import BANDS, CHUNK, UC8151

        self.machine = machine
        self.pins = pins
        self.button_names = tuple(b[0] for b in pins["buttons"])
        self.button_gpios = tuple(b[1] for b in pins["buttons"])
        self.button_pins = [Pin(b[1], Pin.IN, Pin.PULL_DOWN) for b in pins["buttons"]]
        p = pins["panel"]
        peripheral_clock_from_sys(machine)
        spi = machine.SPI(p["spi"], baudrate=self.SPI_BAUD, polarity=0, phase=0,
                          sck=Pin(p["sck"]), mosi=Pin(p["mosi"]), miso=Pin(p["miso"]))
        cs = Pin(p["cs"], Pin.OUT, value=1)
        dc = Pin(p["dc"], Pin.OUT, value=0)
        rst = Pin(p["rst"], Pin.OUT, value=1)
        busy = Pin(p["busy"], Pin.IN, Pin.PULL_UP)
        self.led = Pin(pins["led"], Pin.OUT, value=0)
        # One scratch buffer for the serial port's reads and the panel's RAM
        # bytes, never in use at once (each only inside its own call): 0.5 KB
        # of the heap
        scratch = bytearray(CHUNK * BANDS)
        self._setup(flash_dir, clock, serial, self.button_names, self._read_button, pins.get("vbus"), scratch)
        self.catch_edges(self.button_pins, Pin.IRQ_RISING)
        # A button still held now is the press that powered the board up: it
        # acts (the debouncer, primed above, would not report it by itself).
        held = [self.button_names[i] for i in range(len(self.button_pins)) if self._read_button(i)]
        self.debouncer.add(held)
        self.woke = "button" if held else None
        self.epd = UC8151(spi, cs, dc, rst, busy, clock=self.clock, idle=self.idle, chunk=scratch)
        self._draw_on(self.epd)  # its column-byte layout (drivers/uc8151.py)
        self.sense = pins["battery"]  # None on the 2040 W
        if self.sense:
            self._vref_en = Pin(self.sense["vref_enable"], Pin.OUT, value=0)
            self._adc_ref = machine.ADC(self.sense["vref_adc"])
            self._adc_bat = machine.ADC(self.sense["vbat_adc"])

    def _read_button(self, i):
        return self.button_pins[i].value() == 1

    def service(self):
        if self.epd.poll():  # an update ended: the panel ready for the next, or asleep
            self.led.value(0)

    def show(self, buf, mode):
        """Starts the update and returns the one done (see UC8151.show); the
        panel refreshes while the app goes on. Waits first, bounded, for a
        previous one still running."""
        done = self.epd.show(buf, mode)
        if self.epd.updating is not None:
            self.led.value(1)
        return done

    def battery(self):
        """Battery volts (VBAT sense against the reference), None without."""
        if not self.sense:
            return None
        self._vref_en.value(1)
        ref = self._adc_ref.read_u16()
        bat = self._adc_bat.read_u16()
        self._vref_en.value(0)
        if ref <= 0:
            return None
        return bat * self.sense["divider"] * (self.sense["vref_volts"] * 65535 / ref) / 65535

    # -- power -------------------------------------------------------------
    def set_sleep(self, mode):
        """The sleep between presses: "off" or "dormant" (deckahedron.cfg
        sleep=); anything else keeps the current mode and returns False."""
        if mode not in self.SLEEP_MODES:
            return False
        self.sleep_mode = mode
        return True

    def sleep_loses_ram(self):
        return self.sleep_mode == "off"

    def woken_by(self, gpio_in):
        """Every GPIO's level as main.py read it right after taking the
        latch: a button held then powered the board up, and its press acts
        even if it was let go before this module started."""
        for i, g in enumerate(self.button_gpios):
            name = self.button_names[i]
            if gpio_in >> g & 1 and name not in self.debouncer.pending:
                self.debouncer.add([name])
                self.woke = "button"

    def _rtc_woke(self):
        """"rtc" when the RTC's alarm ended a sleep (the 2040 W), else None."""
        return None

    def power_off(self):
        """Sleep until the next press; the caller has saved the state. The
        panel finishes and sleeps first (a press made meanwhile ends this at
        once). "off": ENABLE_3V3 goes low, and on battery the board is off
        here: the next press boots it into its save and acts. On USB (or
        while a button holds the power on) it stays up and, like "dormant",
        waits (BoardBase.wait_for_press) for a button (2040 W: or the RTC
        alarm; or serial input), takes the latch again and RETURNS with
        self.woke = "button", "rtc" or "serial"; a press is reported by
        buttons() and acts."""
        self.epd.finish()
        self.led.value(0)
        if self.sleep_mode == "off" and not self.debouncer.pending:
            self.clock.sleep_ms(self.POWER_OFF_SETTLE_MS)
            self.enable.value(0)
        self.wait_for_press(self.POWER_POLL_MS, self._rtc_woke)
        self.enable.value(1)

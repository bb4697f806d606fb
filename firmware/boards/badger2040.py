"""Pimoroni Badger 2040 and Badger 2040 W on the project's base image (stock
MicroPython for rp2), with the project's UC8151 driver (drivers/uc8151.py):
plain ``machine``, no Pimoroni module.

Pins (pico-sdk's board header pimoroni_badger2040.h, Pimoroni's
libraries/badger2040 and their badger2040 MicroPython modules):

* Panel on SPI0: SCK GP18, MOSI GP19, CS GP17, DC GP20, RST GP21, BUSY
  GP26 (low = busy). MISO is GP16 (the header's INKY_MISO, unused): named
  so the SPI does not claim SPI0's default MISO, GP4, the 2040 W's I2C SDA.
* Buttons A GP12, B GP13, C GP14, UP GP15, DOWN GP11: switches to 3V3 with
  the RP2040's pull-downs, pressed = 1 (unlike the Pico build). A press
  also powers a switched-off Badger up.
* ENABLE_3V3 GP10: the power latch. On battery the board runs only while
  it is high (or a button is held): taken high first thing, and driven low
  by power_off(), which is how a Badger switches itself off (Pimoroni's
  turn_off()). On USB power nothing turns off.
* Activity LED: GP25 on the 2040 (pico-sdk header; Pimoroni's C++ library
  agrees), GP22 on the 2040 W (GP23-25 and GP29 belong to its Wi-Fi chip).
  It is lit while the panel refreshes.
* Battery, 2040 only: VBAT / 3 on GP29 (ADC3) measured against a 1.24 V
  reference on GP28 (ADC2) that GP27 switches on (Pimoroni's battery
  example): vdd = 1.24 * 65535 / ref; V = bat / 65535 * 3 * vdd. The 2040 W
  has no such circuit: None.
* 2040 W: a PCF85063A RTC at 0x51 on I2C0 (SDA GP4, SCL GP5); its alarm
  reaches GP8 (high = alarm; Pimoroni's turn_off() watches it) and powers
  a switched-off board up. Registers (Pimoroni's pcf85063a driver, the
  NXP datasheet): 0x00 control 1 (0 = running, 24 h), 0x01 control 2 (bit
  7 alarm interrupt enable, bit 6 alarm flag, cleared by writing 0), 0x04-
  0x06 seconds / minutes / hours in BCD (bit 7 of seconds: oscillator
  stopped), 0x0B-0x0F the second / minute / hour / day / weekday alarm in
  BCD, bit 7 set = that field ignored.

Refresh: full = the panel's OTP waveform (~4.5 s), fast = a register
waveform (~0.9 s), partial = a shorter one over the changed gates only
(~0.3 s): can_partial is True, refresh.py picks the mode.
"""

from boards.usbserial import BoardBase

BUTTON_PINS = (("A", 12), ("B", 13), ("C", 14), ("UP", 15), ("DOWN", 11))
PANEL_SPI = 0
PANEL_PINS = {"sck": 18, "mosi": 19, "miso": 16, "cs": 17, "dc": 20, "rst": 21, "busy": 26}
ENABLE_3V3 = 10
VREF_POWER = 27
REF_1V2 = 28
VBAT_SENSE = 29
RTC_I2C = (0, 4, 5)  # (bus, SDA, SCL)
RTC_ADDR = 0x51
RTC_ALARM = 8

try:
    from micropython import const
except ImportError:  # CPython tests
    def const(x):
        return x

_CONTROL_1 = const(0x00)
_CONTROL_2 = const(0x01)
_SECONDS = const(0x04)
_SECOND_ALARM = const(0x0B)
_AIE = const(0x80)
_AF = const(0x40)


def _bcd(n):
    return (n // 10) << 4 | n % 10


def _unbcd(b):
    return (b >> 4) * 10 + (b & 0x0F)


class Badger2040Board(BoardBase):
    name = "badger2040"
    can_partial = True

    LED_PIN = 25
    BATTERY_SENSE = True
    REF_VOLTS = 1.24
    SPI_BAUD = 12000000  # Pimoroni's rate for this panel
    POWER_OFF_SETTLE_MS = 50  # as Pimoroni's turn_off(), before the latch drops
    POWER_POLL_MS = 20

    def __init__(self, flash_dir="", clock=None, serial=None):
        import machine
        from drivers.uc8151 import UC8151

        self.machine = machine
        Pin = machine.Pin
        self.enable = Pin(ENABLE_3V3, Pin.OUT, value=1)  # first: keeps a battery board on
        self.button_names = tuple(b[0] for b in BUTTON_PINS)
        self.button_pins = [Pin(b[1], Pin.IN, Pin.PULL_DOWN) for b in BUTTON_PINS]
        p = PANEL_PINS
        spi = machine.SPI(PANEL_SPI, baudrate=self.SPI_BAUD, polarity=0, phase=0,
                          sck=Pin(p["sck"]), mosi=Pin(p["mosi"]), miso=Pin(p["miso"]))
        cs = Pin(p["cs"], Pin.OUT, value=1)
        dc = Pin(p["dc"], Pin.OUT, value=0)
        rst = Pin(p["rst"], Pin.OUT, value=1)
        busy = Pin(p["busy"], Pin.IN, Pin.PULL_UP)
        self.led = Pin(self.LED_PIN, Pin.OUT, value=0)
        self._setup(flash_dir, clock, serial, self.button_names, self._read_button)
        # A button still held now is the press that powered the board up; the
        # debouncer (primed above) does not report it.
        self.woke = "button" if self.debouncer.any_down() else None
        self.epd = UC8151(spi, cs, dc, rst, busy, clock=self.clock, idle=self.idle)
        if self.BATTERY_SENSE:
            self._vref_en = Pin(VREF_POWER, Pin.OUT, value=0)
            self._adc_ref = machine.ADC(REF_1V2)
            self._adc_bat = machine.ADC(VBAT_SENSE)

    def _read_button(self, i):
        return self.button_pins[i].value() == 1

    def service(self):
        if self.epd.poll():  # the panel sleeps as soon as an update ended
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
        """Battery volts (VBAT sense against the 1.24 V reference)."""
        if not self.BATTERY_SENSE:
            return None
        self._vref_en.value(1)
        ref = self._adc_ref.read_u16()
        bat = self._adc_bat.read_u16()
        self._vref_en.value(0)
        if ref <= 0:
            return None
        return bat * 3 * (self.REF_VOLTS * 65535 / ref) / 65535

    # -- power -------------------------------------------------------------
    def _alarm_fired(self):
        return False

    def clear_wake_alarm(self):
        pass

    def power_off(self):
        """Switch off; the caller has saved the state. The panel finishes and
        sleeps, then ENABLE_3V3 goes low: on battery the board is off here
        and the next press boots it into its save. On USB (or while a button
        holds the power on) it stays up: this then waits, feeding the
        watchdog, for a button (2040 W: or the RTC alarm; or serial input),
        takes the latch again and RETURNS with self.woke = "button", "rtc"
        or "serial"; the wake press is not reported by buttons()."""
        self.epd.finish()
        self.led.value(0)
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
        self.enable.value(1)
        self.debouncer.prime()


class Badger2040WBoard(Badger2040Board):
    """The 2040 W: the same panel and buttons, the LED on GP22, no battery
    sense, and a PCF85063A RTC whose alarm can power the board up."""

    name = "badger2040w"
    LED_PIN = 22
    BATTERY_SENSE = False

    def __init__(self, flash_dir="", clock=None, serial=None):
        Badger2040Board.__init__(self, flash_dir, clock, serial)
        m = self.machine
        bus, sda, scl = RTC_I2C
        self.i2c = m.I2C(bus, sda=m.Pin(sda), scl=m.Pin(scl), freq=100000)
        self.alarm_pin = m.Pin(RTC_ALARM, m.Pin.IN, m.Pin.PULL_DOWN)
        self._reg = bytearray(1)
        self.alarm_set = False
        if self.alarm_pin.value():
            self.woke = "rtc"
        self.has_rtc = True
        try:
            self._set(_CONTROL_1, 0x00)  # make sure the clock runs, as Pimoroni's module does
            self.clear_wake_alarm()  # a fired alarm would hold GP8 high
        except OSError:  # no answer at 0x51: play on without the alarm
            self.has_rtc = False

    def _get(self, reg, n=1):
        return self.i2c.readfrom_mem(RTC_ADDR, reg, n)

    def _set(self, reg, value):
        self._reg[0] = value
        self.i2c.writeto_mem(RTC_ADDR, reg, self._reg)

    def _alarm_fired(self):
        return self.alarm_set and self.alarm_pin.value() == 1

    def set_wake_alarm(self, seconds):
        """Wake (power up, or end power_off() on USB) in about seconds, 2 to
        86399, through the RTC's alarm on second, minute and hour. False
        when the RTC did not answer at start."""
        if not self.has_rtc:
            return False
        seconds = int(seconds)
        if seconds > 86399:
            raise ValueError("the RTC alarm reaches at most 23:59:59 ahead")
        seconds = max(seconds, 2)  # never an alarm that may already have passed
        t = self._get(_SECONDS, 3)
        now = _unbcd(t[2] & 0x3F) * 3600 + _unbcd(t[1] & 0x7F) * 60 + _unbcd(t[0] & 0x7F)
        at = (now + seconds) % 86400
        self.i2c.writeto_mem(RTC_ADDR, _SECOND_ALARM, bytes((
            _bcd(at % 60), _bcd(at // 60 % 60), _bcd(at // 3600), 0x80, 0x80)))
        self._set(_CONTROL_2, (self._get(_CONTROL_2)[0] | _AIE) & ~_AF)
        self.alarm_set = True
        return True

    def clear_wake_alarm(self):
        if not self.has_rtc:
            return
        self._set(_CONTROL_2, self._get(_CONTROL_2)[0] & ~(_AIE | _AF))
        self.i2c.writeto_mem(RTC_ADDR, _SECOND_ALARM, b"\x80\x80\x80\x80\x80")
        self.alarm_set = False

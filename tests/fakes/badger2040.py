"""A fake of Pimoroni's ``badger2040`` MicroPython module (Badger 2040 and
2040 W firmware), with the constraints of the real one.

The API mirrors Pimoroni's lib/badger2040.py: constants (BUTTON_*, UPDATE_*,
SYSTEM_*, ENABLE_3V3, BUSY, RTC_ALARM, LED, WIDTH, HEIGHT), the module
functions (is_wireless, woken_by_button, woken_by_rtc, pressed_to_wake,
reset_pressed_to_wake, pressed_to_wake_get_once, system_speed, turn_on,
turn_off, sleep_for), the module's ``rtc`` on the 2040 W, and the
Badger2040 class (display = a PicoGraphics DISPLAY_INKY_PACK; update() pads
to 4700/2600/900/250 ms per speed; set_update_speed; halt; keepalive;
pressed; pressed_any; __getattr__ to the display).

The fake PicoGraphics is a 4736-byte buffer (memoryview(display) works, as
on the real one) in the UC8151 "1BitY" layout: byte x * 16 + y // 8, bit
7 - y % 8, 1 = white. Its update() / partial_update() record every update
with its speed and region and copy what they send to ``sim.glass`` (what the
panel shows, as a landscape MONO_HLSB frame, 1 = black, to compare with the
app's frame). They REFUSE (PanelOverlap) an update started while the
previous one still runs (UC8151 update_time: 4500/2000/800/250 ms per
speed) or sooner than the speed's padded time after it, and a speed change
(which resets the controller) during a refresh. partial_update() refuses a
region whose y or height is not a multiple of 8, or that leaves the panel.
With set_blocking(True) (the default) an update blocks for its time; a
BUSY line stuck low (sim.hang) makes it spin forever: FakeHang.

Power: ENABLE_3V3 going low on battery with no button held cuts the power
(PowerCut: nothing after it runs); on USB, turn_off() spins until a button
or the RTC alarm, advancing the simulated clock.
"""

import machine
import pcf85063a

BUTTON_DOWN = 11
BUTTON_A = 12
BUTTON_B = 13
BUTTON_C = 14
BUTTON_UP = 15
BUTTON_USER = 23
BUTTON_MASK = 0b11111 << 11

SYSTEM_VERY_SLOW = 0
SYSTEM_SLOW = 1
SYSTEM_NORMAL = 2
SYSTEM_FAST = 3
SYSTEM_TURBO = 4

UPDATE_NORMAL = 0
UPDATE_MEDIUM = 1
UPDATE_FAST = 2
UPDATE_TURBO = 3

RTC_ALARM = 8
LED = 22
ENABLE_3V3 = 10
BUSY = 26
WIDTH = 296
HEIGHT = 128
DISPLAY_INKY_PACK = 9

DRIVER_MS = (4500, 2000, 800, 250)  # UC8151::update_time() per speed
PADDED_MS = (4700, 2600, 900, 250)  # Badger2040.update() waits this long per speed
SETUP_MS = 20  # set_update_speed: controller reset + LUT upload
FRAME_BYTES = WIDTH * HEIGHT // 8


class PanelOverlap(Exception):
    """The code drove the panel while it was busy or too soon."""


class PowerCut(Exception):
    """ENABLE_3V3 went low on battery: the board is off from here."""


class _Sim:
    def __init__(self):
        self.wireless = False
        self.on_battery = False
        self.hang = False
        self.updates = []
        self.speed_changes = []
        self.glass = bytearray(FRAME_BYTES)  # landscape MONO_HLSB, 1 = black
        self.busy_until = 0
        self.ready_at = 0
        self.old_firmware = False
        self.wake_mask = 0
        self.woken_by_rtc = False
        self.halts = []
        self.power_cuts = 0
        self.system_speed = None


sim = _Sim()

BUTTONS = {
    BUTTON_DOWN: machine.Pin(BUTTON_DOWN, machine.Pin.IN, machine.Pin.PULL_DOWN),
    BUTTON_A: machine.Pin(BUTTON_A, machine.Pin.IN, machine.Pin.PULL_DOWN),
    BUTTON_B: machine.Pin(BUTTON_B, machine.Pin.IN, machine.Pin.PULL_DOWN),
    BUTTON_C: machine.Pin(BUTTON_C, machine.Pin.IN, machine.Pin.PULL_DOWN),
    BUTTON_UP: machine.Pin(BUTTON_UP, machine.Pin.IN, machine.Pin.PULL_DOWN),
    BUTTON_USER: machine.Pin(BUTTON_USER, machine.Pin.IN, machine.Pin.PULL_UP),
}
WAKEUP_MASK = 0
rtc = None
i2c = None


def _any_button_held():
    for pin in BUTTONS:
        if pin == BUTTON_USER:
            if not BUTTONS[pin].value():
                return True
        elif BUTTONS[pin].value():
            return True
    return False


def _enable_written(level):
    if level == 0:
        sim.halts.append(machine.clock.now)
        if sim.on_battery and not _any_button_held():
            sim.power_cuts += 1
            raise PowerCut("ENABLE_3V3 low on battery: the Badger is off")


machine.on_write(ENABLE_3V3, _enable_written)
enable = machine.Pin(ENABLE_3V3, machine.Pin.OUT)
enable.on()


def configure(wireless=False, on_battery=False, old_firmware=False, wake_buttons=(), woken_by_rtc=False):
    """Set the fake up as a 2040 or 2040 W, on battery or USB, with or
    without PicoGraphics.set_blocking, woken by these buttons or the RTC."""
    global BUTTON_USER, rtc, i2c, LED
    sim.wireless = wireless
    sim.on_battery = on_battery
    sim.old_firmware = old_firmware
    sim.woken_by_rtc = woken_by_rtc and wireless
    mask = 0
    for b in wake_buttons:
        mask |= 1 << b
    sim.wake_mask = mask
    if wireless:
        if BUTTON_USER in BUTTONS:
            del BUTTONS[BUTTON_USER]
        BUTTON_USER = None
        LED = 22
        i2c = machine.I2C(0)
        rtc = pcf85063a.PCF85063A(i2c, RTC_ALARM)


def is_wireless():
    return sim.wireless


def woken_by_rtc():
    return sim.woken_by_rtc


def woken_by_button():
    return sim.wake_mask & BUTTON_MASK > 0


def pressed_to_wake(button):
    return sim.wake_mask & (1 << button) > 0


def reset_pressed_to_wake():
    sim.wake_mask = 0


def pressed_to_wake_get_once(button):
    global WAKEUP_MASK
    if button is None or button == BUTTON_USER:
        return False
    result = (sim.wake_mask & ~WAKEUP_MASK & (1 << button)) > 0
    WAKEUP_MASK |= 1 << button
    return result


def system_speed(speed):
    sim.system_speed = speed


def turn_on():
    enable.on()


def turn_off():
    machine.clock.advance(50)
    enable.off()
    alarm = machine.Pin(RTC_ALARM)
    while True:
        if sim.wireless and alarm.value():
            return
        if _any_button_held():
            return
        machine.clock.advance(1)


def sleep_for(minutes):
    if not sim.wireless:
        raise RuntimeError("Badger 2040 does not include an RTC.")
    y, mo, d, h, mi, s, dow = rtc.datetime()
    mi += minutes
    while mi >= 60:
        mi -= 60
        h += 1
    h %= 24
    rtc.clear_alarm_flag()
    rtc.set_alarm(0, mi, h)
    rtc.enable_alarm_interrupt(True)
    turn_off()


def _decode(fb, x0, y0, w, h):
    """Copy a region of the 1BitY buffer onto sim.glass (HLSB, 1 = black)."""
    glass = sim.glass
    for x in range(x0, x0 + w):
        col = x * (HEIGHT // 8)
        gbyte = x >> 3
        gbit = 0x80 >> (x & 7)
        for y in range(y0, y0 + h):
            white = (fb[col + (y >> 3)] >> (7 - (y & 7))) & 1
            i = y * (WIDTH // 8) + gbyte
            if white:
                glass[i] &= 0xFF ^ gbit
            else:
                glass[i] |= gbit


class _PicoGraphicsOld(bytearray):
    """PicoGraphics for DISPLAY_INKY_PACK without set_blocking (old firmware)."""

    def _setup(self):
        self.speed = 0
        self.blocking = True
        self.pen = 0

    def _busy(self):
        return sim.hang or machine.clock.now < sim.busy_until

    def is_busy(self):
        return self._busy()

    def set_update_speed(self, speed):
        if not isinstance(speed, int) or not 0 <= speed <= 3:
            raise ValueError("update speed not supported")
        if self._busy():
            raise PanelOverlap("set_update_speed() resets the UC8151 while it is refreshing")
        self.speed = speed
        sim.speed_changes.append((machine.clock.now, speed))
        machine.clock.advance(SETUP_MS)

    def _start(self, kind, region):
        now = machine.clock.now
        if self._busy():
            raise PanelOverlap("%s started while the panel is still refreshing (%s)" % (
                kind, "BUSY stuck" if sim.hang else "%d ms left" % (sim.busy_until - now)))
        if now < sim.ready_at:
            raise PanelOverlap("%s started %d ms too soon after the previous update" % (kind, sim.ready_at - now))
        sim.updates.append({"kind": kind, "speed": self.speed, "t": now, "region": region,
                            "blocking": self.blocking})
        if region is None:
            _decode(self, 0, 0, WIDTH, HEIGHT)
        else:
            _decode(self, region[0], region[1], region[2], region[3])
        sim.busy_until = now + DRIVER_MS[self.speed]
        sim.ready_at = now + PADDED_MS[self.speed]
        if self.blocking:
            if sim.hang:
                raise machine.FakeHang("PicoGraphics.%s() spins forever: BUSY is stuck" % kind)
            machine.clock.advance(sim.busy_until - now)

    def update(self):
        self._start("update", None)

    def partial_update(self, x, y, w, h):
        for v in (x, y, w, h):
            if not isinstance(v, int):
                raise TypeError("partial_update takes ints")
        if y % 8 or h % 8:
            raise ValueError("partial_update: y and h must be multiples of 8 (got y=%d h=%d)" % (y, h))
        if x < 0 or y < 0 or w <= 0 or h <= 0 or x + w > WIDTH or y + h > HEIGHT:
            raise ValueError("partial_update: region %r leaves the panel" % ((x, y, w, h),))
        self._start("partial", (x, y, w, h))

    def set_pen(self, pen):
        self.pen = pen

    def clear(self):
        v = 0xFF if self.pen >= 8 else 0x00
        for i in range(len(self)):
            self[i] = v

    def get_bounds(self):
        return (WIDTH, HEIGHT)


class _PicoGraphics(_PicoGraphicsOld):
    def set_blocking(self, blocking):
        self.blocking = bool(blocking)


def PicoGraphics(display, rotate=-1, **kw):
    if display != DISPLAY_INKY_PACK:
        raise ValueError("Unsupported display!")
    pg = (_PicoGraphicsOld if sim.old_firmware else _PicoGraphics)(FRAME_BYTES)
    pg._setup()
    return pg


class Badger2040:
    def __init__(self):
        self.display = PicoGraphics(DISPLAY_INKY_PACK)
        self._led = machine.PWM(machine.Pin(LED))
        self._led.freq(1000)
        self._led.duty_u16(0)
        self._update_speed = 0

    def __getattr__(self, item):
        return getattr(self.display, item)

    def update(self):
        t0 = machine.clock.now
        self.display.update()
        elapsed = machine.clock.now - t0
        delay = PADDED_MS[self._update_speed]
        if elapsed < delay:
            machine.clock.advance(delay - elapsed)

    def set_update_speed(self, speed):
        self.display.set_update_speed(speed)
        self._update_speed = speed

    def led(self, brightness):
        self._led.duty_u16(int(max(0, min(255, brightness)) * 256))

    def invert(self, invert):
        raise RuntimeError("Display invert not supported in PicoGraphics.")

    def thickness(self, thickness):
        raise RuntimeError("Thickness not supported in PicoGraphics.")

    def halt(self):
        turn_off()

    def keepalive(self):
        turn_on()

    def pressed(self, button):
        level = BUTTONS[button].value()
        held = level == 0 if button == BUTTON_USER else level == 1
        return held or pressed_to_wake_get_once(button)

    def pressed_any(self):
        return _any_button_held()

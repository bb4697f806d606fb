"""A fake of MicroPython's ``machine`` module for rp2 (RP2040), for the board
tests on CPython and on the MicroPython unix port.

It keeps real constraints where a board module could get them wrong:

* Pin: modes IN / OUT / OPEN_DRAIN, pulls PULL_UP / PULL_DOWN; an input
  reads what the test injects (set_input, a schedule of (time, level) steps,
  or a function of the time, e.g. a panel's BUSY), else its pull; an output
  reads back its latch. A pin taken by the SPI peripheral (sck/mosi/miso,
  when the SPI is created) ignores Pin writes until a Pin() call with a mode
  gives it back to plain I/O, as gpio_set_function does on the RP2040.
* SPI(id, ...): rp2 pin rules (SPI0 on GP0-7/16-23, SPI1 on GP8-15/24-29;
  SCK GPn with n%4==2, MOSI n%4==3, MISO n%4==0; defaults SPI1 = 10/11/8);
  write() records (bytes, DC level, CS level) for the pins a device on the
  bus named, and hands the bytes to that device.
* ADC(gpio 26-29 or channel 0-3 or Pin): read_u16() of an injected value.
* WDT(timeout <= 8388 ms, rp2040's limit): records feeds on the simulated
  clock; check() fails if a gap between feeds exceeded the timeout (the
  real one would have reset the board).
* lightsleep(ms): advances the simulated clock; without a time it is
  DORMANT until a GPIO event armed through mem32 (FakeHang if none comes).
* mem32: IO_BANK0's raw interrupts, core 0's interrupt enables (Pin.irq
  sets them; a dormant wake runs the pins' handlers, acknowledging their
  edges, as rp2's GPIO interrupt does once lightsleep() returns) and
  dormant wake registers, and the USB controller's SIE_STATUS
  (set_usb_host: a host attached, or none).
  deepsleep(): on rp2 a lightsleep then a reset: raises MachineReset.
* I2C(id): writeto_mem / readfrom_mem reach the device attached at that
  address (attach_i2c), else OSError(EIO). RTC, unique_id, freq, PWM.

Time is a SimClock (``clock``) shared by every fake: the boards are given
it, and sleeping advances it instantly. It refuses to run past
clock.limit_ms (FakeHang): nothing in a test may wait forever.
"""

IS_FAKE = True


class FakeHang(Exception):
    """The code under test would wait forever (or past the test's limit)."""


class MachineReset(Exception):
    """machine.reset(), deepsleep() or a watchdog timeout: the board restarts."""


class SimClock:
    def __init__(self, limit_ms=600000):
        self.now = 0
        self.limit_ms = limit_ms
        self.slept = 0

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, ms):
        self.advance(ms)

    def advance(self, ms):
        if ms <= 0:
            return
        self.now += int(ms)
        self.slept += int(ms)
        if self.now > self.limit_ms:
            raise FakeHang("simulated time passed %d ms: something waits forever" % self.limit_ms)


clock = SimClock()


# -- pins --------------------------------------------------------------------
class PinState:
    def __init__(self, pid):
        self.id = pid
        self.mode = None
        self.pull = None
        self.latch = 0
        self.function = "sio"
        self.input = None  # constant level, or None
        self.schedule = None  # [(t, level), ...] sorted
        self.provider = None  # f(now) -> level
        self.hooks = []  # f(level) called on every effective write
        self.writes = []  # (t, level)
        self.ignored_writes = 0
        self.irq = None

    def level(self):
        if self.mode == Pin.OUT and self.function == "sio":
            return self.latch
        if self.provider is not None:
            return 1 if self.provider(clock.now) else 0
        if self.schedule:
            level = None
            for t, v in self.schedule:
                if t <= clock.now:
                    level = v
                else:
                    break
            if level is not None:
                return level
        if self.input is not None:
            return self.input
        if self.pull == Pin.PULL_UP:
            return 1
        return 0


PINS = {}


def pin_state(pid):
    if pid not in PINS:
        PINS[pid] = PinState(pid)
    return PINS[pid]


def set_input(pid, level):
    pin_state(pid).input = level


def schedule(pid, steps):
    """Input levels over simulated time: [(t_ms, level), ...]."""
    st = pin_state(pid)
    st.schedule = sorted(list(st.schedule or []) + list(steps))


def drive(pid, provider):
    pin_state(pid).provider = provider


def on_write(pid, hook):
    pin_state(pid).hooks.append(hook)


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, pid, mode=-1, pull=-1, value=None):
        if isinstance(pid, Pin):
            pid = pid.id
        if not isinstance(pid, (int, str)):
            raise TypeError("Pin id must be an int or a name")
        if isinstance(pid, int) and not 0 <= pid <= 29:
            raise ValueError("invalid pin %d" % pid)
        self.id = pid
        self.state = pin_state(pid)
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        st = self.state
        if mode != -1:
            st.mode = mode
            st.function = "sio"
        if pull != -1:
            st.pull = pull
        if value is not None:
            self._write(value)

    def _write(self, v):
        st = self.state
        v = 1 if v else 0
        if st.function != "sio":
            st.ignored_writes += 1
            return
        st.latch = v
        st.writes.append((clock.now, v))
        for hook in st.hooks:
            hook(v)

    def value(self, v=None):
        if v is None:
            return self.state.level()
        self._write(v)
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self._write(1)

    def off(self):
        self._write(0)

    def high(self):
        self._write(1)

    def low(self):
        self._write(0)

    def toggle(self):
        self._write(1 - self.state.latch)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        """Enables the pin's interrupt for core 0 (IO_BANK0 PROC0_INTE, as
        rp2's gpio_set_irq_enabled does): dormant wakes run it (lightsleep)."""
        self.state.irq = (handler, trigger)
        if isinstance(self.id, int):
            reg, shift = PROC0_INTE0 + 4 * (self.id // 8), 4 * (self.id % 8)
            events = trigger & 0xF if handler is not None else 0
            regs = _MEM.regs  # the chip's, even where a test swapped mem32 for a recorder
            regs[reg] = regs.get(reg, 0) & ~(0xF << shift) | events << shift
        return None


# -- SPI ---------------------------------------------------------------------
SPI_DEFAULTS = {0: (6, 7, 4), 1: (10, 11, 8)}
BUSES = {}  # spi id -> {"devices": [...], "log": [...], "dc": pin, "cs": pin}


def bus(spi_id):
    if spi_id not in BUSES:
        BUSES[spi_id] = {"devices": [], "log": [], "dc": None, "cs": None, "spi": None}
    return BUSES[spi_id]


def attach(spi_id, device, dc=None, cs=None):
    """A device on SPI bus spi_id: device.spi_write(data, dc_level, cs_level)."""
    b = bus(spi_id)
    b["devices"].append(device)
    if dc is not None:
        b["dc"] = dc
    if cs is not None:
        b["cs"] = cs


def _pin_no(p):
    if isinstance(p, Pin):
        return p.id
    return p


class SPI:
    MSB = 0
    LSB = 1

    def __init__(self, spi_id, baudrate=1000000, *, polarity=0, phase=0, bits=8, firstbit=0,
                 sck=None, mosi=None, miso=None):
        if spi_id not in (0, 1):
            raise ValueError("SPI(%d) doesn't exist" % spi_id)
        d = SPI_DEFAULTS[spi_id]
        sck = d[0] if sck is None else _pin_no(sck)
        mosi = d[1] if mosi is None else _pin_no(mosi)
        miso = d[2] if miso is None else _pin_no(miso)
        for pin, rem, what in ((sck, 2, "SCK"), (mosi, 3, "MOSI"), (miso, 0, "MISO")):
            if pin % 4 != rem or ((pin & 8) >> 3) != spi_id:
                raise ValueError("bad %s pin" % what)
        if firstbit == SPI.LSB:
            raise NotImplementedError("LSB")
        self.id = spi_id
        self.pins = (sck, mosi, miso)
        self.baudrate = baudrate
        self.divided_from = _FREQ[1]  # the clk_peri its divider was worked out for
        self.polarity = polarity
        self.phase = phase
        for pin in self.pins:
            pin_state(pin).function = "spi"
        bus(spi_id)["spi"] = self

    def init(self, baudrate=None, **kw):
        if baudrate is not None:
            self.baudrate = baudrate
            self.divided_from = _FREQ[1]

    def deinit(self):
        pass

    def write(self, data):
        b = bus(self.id)
        dc = pin_state(b["dc"]).level() if b["dc"] is not None else None
        cs = pin_state(b["cs"]).level() if b["cs"] is not None else None
        data = bytes(data)
        b["log"].append((data, dc, cs))
        for dev in b["devices"]:
            dev.spi_write(data, dc, cs)
        return None


# -- ADC -----------------------------------------------------------------------
ADC_VALUES = {}  # gpio -> u16


def set_adc(gpio, value):
    ADC_VALUES[gpio] = value


class ADC:
    CORE_TEMP = 4

    def __init__(self, src):
        if isinstance(src, Pin):
            src = src.id
        if 0 <= src <= 3:
            src += 26
        if src not in (26, 27, 28, 29, 30):
            raise ValueError("Pin doesn't have ADC capabilities")
        self.gpio = src
        self.reads = 0

    def read_u16(self):
        self.reads += 1
        return ADC_VALUES.get(self.gpio, 0)


# -- watchdog ----------------------------------------------------------------
WDTS = []


class WDT:
    MAX_MS = 8388

    def __init__(self, id=0, timeout=5000):
        if WDTS:
            raise RuntimeError("the fake allows one WDT, as a board has one")
        if timeout > self.MAX_MS:
            raise ValueError("timeout exceeds %d ms" % self.MAX_MS)
        if timeout < 1:
            raise ValueError("timeout too small")
        self.timeout = timeout
        self.feeds = [clock.now]
        self.paused = []  # (start, end): dormant spans, when its counter stands still
        WDTS.append(self)

    def feed(self):
        self.feeds.append(clock.now)

    def max_gap(self, until=None):
        times = self.feeds + [clock.now if until is None else until]
        gap = 0
        for i in range(1, len(times)):
            span = times[i] - times[i - 1]
            for a, b in self.paused:
                lo, hi = max(a, times[i - 1]), min(b, times[i])
                if hi > lo:
                    span -= hi - lo
            if span > gap:
                gap = span
        return gap

    def check(self):
        """Raise MachineReset if a gap between feeds exceeded the timeout."""
        gap = self.max_gap()
        if gap > self.timeout:
            raise MachineReset("watchdog: %d ms without a feed (timeout %d ms)" % (gap, self.timeout))


# -- sleep, reset, misc --------------------------------------------------------
SLEEPS = []  # ("light" | "deep", ms)


def lightsleep(ms=None):
    """With a time: the timer wakes the chip. Without one, rp2 (v1.28) goes
    DORMANT: the crystal stops (the clock, the timer and the watchdog with
    it) until a GPIO event armed in IO_BANK0's DORMANT_WAKE_INTE registers
    (mem32) happens; none armed, or none in the pins' schedules: FakeHang."""
    if ms is not None:
        SLEEPS.append(("light", ms))
        clock.advance(ms)
        return
    armed = []  # (gpio, events: 1 level low, 2 level high, 4 edge low, 8 edge high)
    for gpio in range(30):
        ev = mem32.regs.get(DORMANT_WAKE_INTE0 + 4 * (gpio // 8), 0) >> (4 * (gpio % 8)) & 0xF
        if ev:
            armed.append((gpio, ev))
    if not armed:
        raise FakeHang("lightsleep() without a time is DORMANT: no GPIO wake is armed, it never wakes")
    best = None
    for gpio, ev in armed:
        t = _first_event(pin_state(gpio), ev)
        if t is not None and (best is None or t < best[0]):
            best = (t, gpio)
    if best is None:
        raise FakeHang("DORMANT: no armed GPIO event ever comes (pins %s)" % [g for g, _ in armed])
    t0 = clock.now
    clock.advance(best[0] - t0)
    for w in WDTS:
        w.paused.append((t0, clock.now))  # its tick comes from the stopped crystal
    for gpio, ev in armed:
        st = pin_state(gpio)
        before, after = _level_at(st, t0), st.level()
        if before != after or _first_event(st, ev & 12, t0, clock.now) is not None:
            edge = 4 if after == 0 else 8
            reg = INTR0 + 4 * (gpio // 8)
            mem32.regs[reg] = mem32.regs.get(reg, 0) | edge << (4 * (gpio % 8))
    SLEEPS.append(("dormant", best[1]))
    _gpio_irq()


def _gpio_irq():
    """rp2's GPIO interrupt handler (machine_pin.c gpio_irq), which runs as
    soon as lightsleep() turns interrupts back on: for every GPIO with a
    latched event its core-0 interrupt enables, it acknowledges all of that
    GPIO's events (clearing the edge bits of INTR) and runs the pin's
    handler if the events match its trigger."""
    for gpio in range(30):
        reg, shift = INTR0 + 4 * (gpio // 8), 4 * (gpio % 8)
        latched = mem32.regs.get(reg, 0) >> shift & 0xF
        if latched & (mem32.regs.get(PROC0_INTE0 + 4 * (gpio // 8), 0) >> shift & 0xF):
            mem32.regs[reg] &= ~(latched << shift)
            irq = pin_state(gpio).irq
            if irq is not None and irq[0] is not None and latched & irq[1]:
                irq[0](Pin(gpio))


def _level_at(st, t):
    now = clock.now
    clock.now = t
    try:
        return st.level()
    finally:
        clock.now = now


def _first_event(st, ev, start=None, end=None):
    """The first time from `start` (now) to `end` when pin state st meets
    the armed events ev, or None."""
    start = clock.now if start is None else start
    level = _level_at(st, start)
    if ev & 1 and level == 0 or ev & 2 and level == 1:
        return start
    for t, v in st.schedule or ():
        if t <= start or (end is not None and t > end):
            continue
        if v != level and (ev & 4 and v == 0 or ev & 8 and v == 1 or ev & 1 and v == 0 or ev & 2 and v == 1):
            return t
        level = v
    return None


# -- registers through machine.mem32 -------------------------------------------
IO_BANK0 = 0x40014000
INTR0 = IO_BANK0 + 0x0F0  # raw GPIO interrupts; edge bits are write-1-to-clear
PROC0_INTE0 = IO_BANK0 + 0x100  # the GPIO interrupts core 0 takes
DORMANT_WAKE_INTE0 = IO_BANK0 + 0x160
DORMANT_WAKE_INTS0 = IO_BANK0 + 0x180
USB_SIE_STATUS = 0x50110050
SIO_GPIO_IN = 0xD0000004  # every GPIO's input level, one bit each
SIE_CONNECTED = 1 << 16
SIE_SUSPENDED = 1 << 4


class _Mem32:
    """The registers the firmware touches: SIO GPIO_IN (the pins' levels),
    IO_BANK0's raw interrupts and
    dormant wake (with the atomic set +0x2000 / clear +0x3000 aliases) and
    the USB controller's SIE_STATUS (set_usb_host). Others read 0."""

    def __init__(self):
        self.regs = {USB_SIE_STATUS: SIE_CONNECTED}  # a host attached, as on the bench
        self.log = []

    def __getitem__(self, addr):
        if addr == SIO_GPIO_IN:
            return sum(st.level() << g for g, st in PINS.items() if isinstance(g, int))
        if DORMANT_WAKE_INTS0 <= addr < DORMANT_WAKE_INTS0 + 16:
            i = addr - DORMANT_WAKE_INTS0
            return self.regs.get(INTR0 + i, 0) & self.regs.get(DORMANT_WAKE_INTE0 + i, 0)
        return self.regs.get(addr, 0)

    def __setitem__(self, addr, value):
        value &= 0xFFFFFFFF
        self.log.append((addr, value))
        base, op = addr & ~0x3000, addr & 0x3000
        if INTR0 <= base < INTR0 + 16 and op == 0:
            self.regs[base] = self.regs.get(base, 0) & ~value
        elif op == 0x2000:
            self.regs[base] = self.regs.get(base, 0) | value
        elif op == 0x3000:
            self.regs[base] = self.regs.get(base, 0) & ~value
        else:
            self.regs[addr] = value


mem32 = _MEM = _Mem32()


def set_usb_host(attached):
    """A USB host that has configured the device and sends frames (True),
    or none: no frames, so the controller reports the bus suspended."""
    mem32.regs[USB_SIE_STATUS] = SIE_CONNECTED if attached else SIE_SUSPENDED


def deepsleep(ms=None):
    SLEEPS.append(("deep", ms))
    if ms is None:
        raise FakeHang("deepsleep() without a time never wakes on rp2")
    clock.advance(ms)
    raise MachineReset("deepsleep: rp2 resets after the sleep")


def reset():
    raise MachineReset("machine.reset()")


def soft_reset():
    raise MachineReset("machine.soft_reset()")


def reset_cause():
    return 1


PWRON_RESET = 1
WDT_RESET = 3

_UID = b"\xe6\x61\x41\x04\x03\x2b\x6a\x2c"


def unique_id():
    return _UID


_FREQ = [125000000, 48000000]  # clk_sys, clk_peri as rp2 MicroPython boots them


def freq(hz=None, peri=None):
    """rp2: freq(sys) also moves clk_peri to 48 MHz; freq(sys, peri) takes
    peri = 48 MHz or = sys, else ValueError (ports/rp2/modmachine.c)."""
    if hz is None:
        return _FREQ[0]
    if peri is not None and peri not in (48000000, hz):
        raise ValueError("peripheral freq must be 48_000_000 or the same as the MCU freq")
    _FREQ[0] = hz
    _FREQ[1] = 48000000 if peri is None else peri
    return None


def peri_freq():
    """clk_peri (tests): what an SPI made now divides its baud rate from."""
    return _FREQ[1]


def idle():
    clock.advance(1)


class RTC:
    _dt = [(2024, 1, 1, 0, 0, 0, 0, 0)]

    def datetime(self, dt=None):
        if dt is None:
            return RTC._dt[0]
        RTC._dt[0] = tuple(dt)
        return None


I2C_DEVICES = {}  # (bus id, address) -> device with i2c_read(reg, n) / i2c_write(reg, data)


def attach_i2c(bus_id, address, device):
    I2C_DEVICES[(bus_id, address)] = device


class I2C:
    """Memory-style transfers to the devices attached at an address; no
    device there is OSError(EIO), as an unanswered address is on rp2."""

    def __init__(self, id=0, *args, **kw):
        if id not in (0, 1):
            raise ValueError("I2C(%d) doesn't exist" % id)
        self.id = id
        self.sda = _pin_no(kw["sda"]) if "sda" in kw else None  # None: the port's default pins
        self.scl = _pin_no(kw["scl"]) if "scl" in kw else None
        self.writes = []

    def _device(self, addr):
        dev = I2C_DEVICES.get((self.id, addr))
        if dev is None:
            raise OSError(5)
        return dev

    def writeto_mem(self, addr, reg, data):
        self.writes.append((addr, reg, bytes(data)))
        self._device(addr).i2c_write(reg, bytes(data))

    def readfrom_mem(self, addr, reg, n):
        return bytes(self._device(addr).i2c_read(reg, n))


class PWM:
    def __init__(self, pin, **kw):
        self.pin = pin
        self._freq = 0
        self._duty = 0

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f
        return None

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d
        return None

    def deinit(self):
        pass

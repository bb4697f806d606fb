"""Sleeping between presses on an RP2040 board (BoardBase.wait_for_press,
which explains when it lightsleeps, waits or goes DORMANT): loaded when the
board first sleeps, so a board that is being played keeps this code out of
its heap on the official MicroPython image. ``self`` is the board."""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# RP2040 registers (usbserial.py's comment gives the datasheet sections).
_INTR0 = const(0x400140F0)
_PROC0_INTE0 = const(0x40014100)  # the pin interrupts of core 0
_DORMANT_INTE0 = const(0x40014160)
_DORMANT_INTS0 = const(0x40014180)
_ALIAS_SET = const(0x2000)
_ALIAS_CLR = const(0x3000)


def dormant(self):
    """DORMANT until a button's press edge (or VBUS rising): the names
    of the buttons that woke the board (their presses), [] for any
    other wake."""
    mem = self.machine.mem32
    masks = [0, 0, 0, 0]
    for g in self.button_gpios:
        masks[g // 8] |= self.PRESS_EDGE << 4 * (g % 8)
    if self.vbus_gpio is not None:
        masks[self.vbus_gpio // 8] |= self.VBUS_EDGE << 4 * (self.vbus_gpio % 8)
    irqs = [0, 0, 0, 0]  # the pin interrupts' press edges, held off while asleep
    for i in range(4):
        if masks[i]:
            irqs[i] = mem[_PROC0_INTE0 + 4 * i] & masks[i]
            mem[_PROC0_INTE0 + 4 * i + _ALIAS_CLR] = irqs[i]
            mem[_INTR0 + 4 * i] = masks[i]  # forget edges from before
            mem[_DORMANT_INTE0 + 4 * i + _ALIAS_SET] = masks[i]
    self.machine.lightsleep()
    hits = [0, 0, 0, 0]
    for i in range(4):
        if masks[i]:
            hits[i] = mem[_DORMANT_INTS0 + 4 * i] & masks[i]
            mem[_DORMANT_INTE0 + 4 * i + _ALIAS_CLR] = masks[i]
            mem[_INTR0 + 4 * i] = hits[i]  # counted here: not again by the pin interrupt
            mem[_PROC0_INTE0 + 4 * i + _ALIAS_SET] = irqs[i]
    woke = []
    for i, g in enumerate(self.button_gpios):
        if hits[g // 8] & self.PRESS_EDGE << 4 * (g % 8):
            woke.append(self.debouncer.names[i])
    return woke

def wait_for_press(self, slice_ms, check=None):
    """Low power until a press, serial input or check() (a wake reason or
    None): with a host sending frames, lightsleep(slice_ms) slices with
    the USB link kept; on USB power without one, POLL_MS steps with the
    clocks running; with neither, DORMANT. The buttons are sampled and
    the watchdog fed in between. Sets and returns self.woke; a press
    stays in the debouncer, so buttons() reports it: the press that
    woke the board acts."""
    deb = self.debouncer
    self.woke = None
    while self.woke is None:
        self.feed()
        deb.sample()
        if deb.pending:
            self.woke = "button"
        elif self.serial.readable():
            self.woke = "serial"
        elif check is not None:
            self.woke = check()
        if self.woke is not None:
            break
        if self.host_attached():
            self.machine.lightsleep(slice_ms)
            self.sleeps += 1
        elif self.usb_powered():
            self.clock.sleep_ms(self.POLL_MS)
        else:
            woke = dormant(self)
            self.dormancies += 1
            deb.prime()  # levels now; an edge before this is the press below
            deb.add(woke)
    return self.woke

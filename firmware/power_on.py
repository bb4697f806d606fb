"""What runs once at power-on, before play (start.py releases it then: on
the official MicroPython image every module's code sits in the heap): the
board named in deckahedron.cfg (``board=NAME``, written by ``deckahedron
flash``), else the one detected (see detect()); the file may also give
``hold=PIN``, a power latch driven high first thing (Badger),
``sleep=MODE``, how the board sleeps between presses (Badger: off or
dormant, see boards/badger2040.py), and ``seed=N`` and ``id=NAME`` (the
emulated Pico's host writes them), which the command line overrides; and
the way out to the REPL: A and C held at power-on."""

import sys

CONFIG = "deckahedron.cfg"
# Which module and class run each board: boards/boards.json, the registry
# the host reads too (boards.spec). CircuitPython boards start from code.py.


def _args(argv):
    out = {"board": None, "dir": None, "id": None, "seed": None}
    i = 0
    while i < len(argv):
        key = argv[i][2:] if argv[i].startswith("--") else None
        if key not in out or i + 1 >= len(argv):
            raise SystemExit("usage: main.py [--board NAME] [--dir FLASHDIR] [--id NAME] [--seed N]")
        out[key] = argv[i + 1]
        i += 2
    return out


def config(path=CONFIG):
    """The config file's ``key=value`` lines as a dict ({} without one):
    board, and on an emulated or test board seed and id."""
    out = {}
    try:
        with open(path) as f:
            for line in f:
                key, eq, value = line.strip().partition("=")
                if eq and value.strip():
                    out[key.strip()] = value.strip()
    except OSError:
        pass
    return out


def configured(path=CONFIG):
    """The board named in the config file, or None."""
    return config(path).get("board")


def detect():
    """The board this firmware runs on when no config names it (the config
    the image and the flasher write always does): on an RP2040 the panel's
    wiring tells (_probe), else the Pico + Pico-ePaper-2.9 as before."""
    if sys.implementation.name == "circuitpython":
        return "magtag"
    if sys.platform == "rp2":
        try:
            return _probe(getattr(sys.implementation, "_machine", ""))
        except Exception:  # noqa: BLE001 - a probe that fails must not stop the boot
            return "pico-epaper29"
    return "sim"


# _probe's pins, boards/boards.json's (tests/device/test_boot.py checks them):
# the Pico-ePaper-2.9's SSD1680 BUSY, the Badger's UC8151 RST and BUSY, and
# the Badger 2040 W's PCF85063A RTC (I2C bus, SDA, SCL, address).
PROBE_PINS = (13, 21, 26, (0, 4, 5, 0x51))


def _probe(machine_name):
    """Which RP2040 board this is, by reading pins only where nothing can
    be harmed: GP13 with a pull-up reads low only when the Pico-ePaper's
    SSD1680 drives its BUSY low (on a Badger it is button B, to 3V3); with
    the UC8151's RST (GP21: free on the Pico) held high, GP26 with a
    pull-down reads high only when the Badger's UC8151 drives its BUSY_N
    high, ready (free on the Pico). A Badger is a 2040 W when MicroPython
    was built for a Pico W or its RTC answers on I2C0. Neither panel seen:
    the Pico + Pico-ePaper-2.9."""
    from machine import Pin

    ssd_busy, uc_rst, uc_busy, rtc = PROBE_PINS
    pico = "pico-epaper29"
    _sleep_ms(1)
    if not Pin(ssd_busy, Pin.IN, Pin.PULL_UP).value():
        return pico
    rst = Pin(uc_rst, Pin.OUT, value=1)
    busy = Pin(uc_busy, Pin.IN, Pin.PULL_DOWN)
    for _ in range(50):  # a UC8151 just out of reset is busy for a few ms
        _sleep_ms(1)
        if busy.value():
            break
    else:
        rst.init(Pin.IN)
        return pico
    if "Pico W" in machine_name:
        return "badger2040w"
    try:
        from machine import I2C

        I2C(rtc[0], sda=Pin(rtc[1]), scl=Pin(rtc[2]), freq=100000).readfrom_mem(rtc[3], 0, 1)
        return "badger2040w"
    except OSError:  # no RTC answers: the Badger 2040
        return "badger2040"


def _sleep_ms(ms):
    import time

    sleep = getattr(time, "sleep_ms", None)
    if sleep is None:
        time.sleep(ms / 1000)  # CPython's tests
    else:
        sleep(ms)


SIO_GPIO_IN = 0xD0000004  # RP2040: every GPIO's level, one bit each


def _hold(pin):
    """Drive the power latch high (``hold=PIN``, the registry's power_latch
    written into the config by the flasher): a Badger on battery stays on
    only while its button is held until this pin is high, so it comes
    before anything slow (the registry, the app). Returns every GPIO's
    level read right after (None without a latch): the button that powered
    the board up, latched as Pimoroni's pressed_to_wake does, so that press
    acts even when it is released before the board module starts."""
    if pin is None:
        return None
    try:
        from machine import Pin, mem32

        Pin(int(pin), Pin.OUT, value=1)
        return mem32[SIO_GPIO_IN]
    except (ImportError, ValueError):
        return None  # the sim, or a config line that is no pin number


def make_board(name, flash_dir=None):
    from boards import spec

    try:
        entry = spec(name)
    except ValueError as e:
        raise SystemExit(str(e))
    cls = entry["class"]
    board_cls = getattr(__import__(entry["module"], None, None, [cls]), cls)
    if name == "sim":
        return board_cls(flash_dir or "flash")
    return board_cls() if flash_dir is None else board_cls(flash_dir)


def _device_id(board, given):
    if given:
        return given
    try:
        import machine
        import binascii
        return binascii.hexlify(machine.unique_id()).decode()
    except (ImportError, AttributeError):
        return board.name


def setup(argv):
    """The board to play on, its device id and seed, from the config, the
    command line and the pins; None when A and C are held (the REPL)."""
    cfg = config()
    levels = _hold(cfg.get("hold"))
    args = _args(argv)
    for key in ("board", "seed", "id"):
        if args[key] is None:
            args[key] = cfg.get(key)
    name = args["board"] or detect()
    board = make_board(name, args["dir"])
    if levels is not None:
        board.woken_by(levels)
    if cfg.get("sleep"):
        board.set_sleep(cfg["sleep"])  # an unknown mode keeps the board's default
    if _escape_held(board):
        print("deckahedron: A and C held at power-on: the app is not started, the REPL is free")
        return None
    seed = int(args["seed"]) if args["seed"] is not None else None
    return board, _device_id(board, args["id"]), seed


def _escape_held(board):
    """Buttons A and C held at power-on: no app, so mpremote can get in."""
    return board.held("A") and board.held("C")

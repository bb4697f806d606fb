"""Emulated boards: MicroPython's rp2 image running the current device code in
rp2040js (host_tools/sim/emu/, a Node package), one Node process per board,
each behind its own pseudo-terminal.

    with EmuBoard("p1", "boards/p1", seed=7) as board:
        print(board.port)          # /dev/pts/5: open it with pyserial like /dev/ttyACM0
        board.press("B")           # the board's own button, on its GPIO
        board.panel_image()        # what the e-paper glass shows (296 x 128 MONO_HLSB)

An EmuBoard offers what host_tools.sim.unixport.SimBoard offers (name, port,
flash_dir, start/stop/kill/restart/close/is_alive) plus the emulated
hardware: press/release a button, the panel's image and counters, the
emulated time, a reset, a power cut right after the n-th flash erase or
program, the USB host taken away and given back (host_away, host_back)
and the chip's DORMANT counters (chip).

Each start puts together the chip's flash from
- the base image and the bootrom in the cache folder (host_tools/flashing/rp2040.py;
  rp2040.ImageError when they are absent),
- the ROMFS image of the device code as it is in this checkout now,
- the board's littlefs partition, kept in ``<flash_dir>/littlefs.img``: made
  on the first start with ``main.py`` and ``deckahedron.cfg`` (board, seed,
  id), which later starts refresh; the emulator writes every erase and
  program through to it, so saves survive resets, power cuts and restarts.

The host owns the pty (its slave side stays open in raw mode, as for
SimBoard, so the path never changes across restarts) and copies bytes both
ways between it and a socket the Node process has as the USB CDC link:
nothing is translated, 0x03 and 0x04 included. The Node process's stderr
goes to ``<flash_dir>/../<name>.log``.

A board whose registry entry runs CircuitPython (pico-epaper29-cp) runs
CircuitPython's image for the Pico instead (host_tools/sim/circuitpython.py):
its CIRCUITPY drive, a FAT12 image in ``<flash_dir>/circuitpy.img`` laid at
flash offset 0x100000 and written through like the littlefs partition,
holds the game's files as `deckahedron flash --board pico-epaper29-cp`
copies them, and deckahedron.cfg; its two USB serial ports (boot.py) are
two ptys: ``port``, usb_cdc.data, the link, and ``console_port``, the REPL.
"""

import base64
import hashlib
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import threading
import time
import tty

from host_tools import FIRMWARE_MAIN, boards
from host_tools.sim import circuitpython
from host_tools.flashing import rp2040, files
from host_tools.sim.unixport import PtyBoard, SimError
from host_tools.sim.unixport import device_id as persistent_id

EMU_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "emu")
LFS_BLOCK = 4096  # rp2's littlefs geometry (its _boot.py)
LFS_PROG = 256
NS = 1e-9
ANSWER_TIMEOUT = 30.0  # wall s: an emulator on a loaded machine can be slow to get to its input
STOP_GRACE = 3.0
CONSOLE_KEPT = 16384  # bytes of CircuitPython's console an EmuBoard keeps (console_text)

# Panel controllers the harness models (host_tools/sim/emu/panels.mjs), by the
# registry's name for them; a board whose panel is here can be emulated.
# Not modelled: the Badger 2040 W's PCF85063A RTC on I2C. Nothing answers
# at its address, so the W's board module plays on without the wake alarm.
PANEL_MODELS = ("SSD1680", "UC8151")


class EmuError(SimError):
    """The emulated board cannot start or did not answer."""


def emulated_boards():
    """The registry's boards the emulator can run, sorted."""
    return sorted(k for k, v in boards.real_boards().items() if _emulable(v))


def _emulable(entry):
    return (entry["runtime"] in ("micropython", "circuitpython")
            and entry.get("panel", {}).get("controller") in PANEL_MODELS)


def _battery(sense):
    """The registry's battery sense as the emulator takes it: [adc gpio,
    divider] (the Pico: VSYS/3 against the 3.3 V ADC reference) or {vbat_adc,
    vref_adc, vref_volts, divider, ...} (the Badger 2040: VBAT/3 read against
    a 1.24 V reference on another ADC pin)."""
    if not sense:
        return None
    if isinstance(sense, dict):
        return {"gpio": sense["vbat_adc"], "divider": sense["divider"],
                "vref": sense["vref_adc"], "vrefVolts": sense["vref_volts"]}
    return {"gpio": sense[0], "divider": sense[1]}


def board_pins(board):
    """{"panel": {kind, spi, sck, mosi, cs, dc, rst, busy}, "buttons": {NAME:
    gpio}, "pressed": the level a pressed button reads (0: to GND with a
    pull-up, 1: to 3V3 with a pull-down), "latch": the power latch's gpio or
    None, "vbus": the VBUS-sense gpio or None, "battery": {gpio,
    divider[, vref, vrefVolts]} or None} of a board, from the board
    registry (firmware/boards/boards.json), which the firmware reads too."""
    try:
        entry = boards.board(board)
    except KeyError as e:
        raise EmuError(e.args[0])
    if not _emulable(entry):
        raise EmuError("no emulated board %r (known: %s)" % (board, ", ".join(emulated_boards())))
    pins = entry["pins"]
    return {"panel": dict(pins["panel"], kind=entry["panel"]["controller"].lower()),
            "buttons": dict((name, gpio) for name, gpio in pins["buttons"]),
            "pressed": pins.get("buttons_pressed", 0),
            "latch": pins.get("power_latch"),
            "vbus": pins.get("vbus"),
            "battery": _battery(pins.get("battery"))}


def find_node():
    node = shutil.which("node")
    if node is None:
        raise EmuError("Node.js is not installed: the emulated Pico runs in rp2040js "
                       "(install node and npm, then `make setup`)")
    if not os.path.isdir(os.path.join(EMU_DIR, "node_modules", "rp2040js")):
        raise EmuError("rp2040js is not installed in host_tools/sim/emu: run `make setup`")
    return node


# What an emulated board's flash starts from: "romfs", the game's base image
# with the device code in ROMFS (what `deckahedron image` and a release
# UF2 give), or "stock", the official MicroPython image with the device code
# as .mpy files on littlefs (what `deckahedron flash --port` gives a board
# that runs it).
# "circuitpython": CircuitPython's image with the game on its CIRCUITPY drive
# (a board whose registry entry runs CircuitPython).
FIRMWARES = ("romfs", "stock", "circuitpython")


def firmware_image(firmware):
    """The UF2 a firmware starts from (checked); rp2040.ImageError when absent."""
    if firmware == "circuitpython":
        return circuitpython.image_path()
    return (rp2040.stock_image_path if firmware == "stock" else rp2040.base_image_path)()


def unavailable(firmware="romfs"):
    """Why emulated boards cannot run on this machine (the base image, the
    bootrom or Node.js with rp2040js missing), or None."""
    try:
        firmware_image(firmware)
        rp2040.bootrom_path()
        find_node()
    except (rp2040.ImageError, EmuError) as e:
        return str(e)
    return None


# What the emulator lays into a board's flash from the device code (a ROMFS
# image, .mpy files), made once per content of the board's sources.
_built = {}
_built_lock = threading.Lock()


def built_from_sources(kind, board, make):
    """make() (the `kind` of thing `board`'s flash gets from the device code),
    made again only when a file `deckahedron flash` would put on the board
    changed: the emulator always runs the code as it is now."""
    h = hashlib.sha256(kind.encode() + b"\0" + board.encode())
    for s in files.device_files(board):
        h.update(s.board_path.encode() + b"\0" + s.local.read_bytes())
    key = h.hexdigest()
    with _built_lock:
        if key not in _built:
            _built[key] = make()
        return _built[key]


def current_romfs(board):
    """The ROMFS image of the device code as it is now (bytes)."""
    return built_from_sources("romfs", board, lambda: rp2040.build_romfs(board))


def config_text(board, seed, device_id, settings=None):
    """deckahedron.cfg as `deckahedron flash` writes it (hold= first, then
    board=, then the player's settings, {"sleep": MODE}), plus the seed and
    id the host gives an emulated board."""
    lines = [files.config_text(board, settings=settings).rstrip("\n")]
    if seed is not None:
        lines.append("seed=%d" % seed)
    if device_id is not None:
        lines.append("id=%s" % device_id)
    return "\n".join(lines) + "\n"


def _littlefs(blocks):
    import littlefs

    return littlefs.LittleFS(block_size=LFS_BLOCK, block_count=blocks, prog_size=LFS_PROG, mount=False)


def _mounted(path):
    """The littlefs image at `path`, mounted with the block count its size
    gives: a board folder made before the flash map changed (1408 KiB of
    littlefs until 2026-11-27) keeps working."""
    with open(path, "rb") as f:
        data = f.read()
    fs = _littlefs(len(data) // LFS_BLOCK)
    fs.context.buffer[:] = data
    fs.mount()
    return fs


def stock_files(board):
    """{path: bytes} the stock route puts on the board's littlefs: the
    device code as `deckahedron flash --port` copies it onto a board that
    runs the official MicroPython (flashing.running's plan for a board with
    no ROMFS partition), less main.py and deckahedron.cfg, which the
    emulated board writes itself. Compiled once per content of the sources."""
    from host_tools.flashing import running

    def make():
        info = {"impl": "micropython", "version": rp2040.MICROPYTHON_VERSION[1:], "platform": "rp2",
                "mpy": 6 | (3 << 8), "romfs": 0, "files": {}, "cfg": None}
        copies = running.make_plan(board, info).copies
        return dict((p, d) for p, d in copies.items() if p not in ("main.py", files.CONFIG))

    return built_from_sources("stock", board, make)


def _moved(old, fs_bytes=rp2040.FS_BYTES):
    """A fresh littlefs of `fs_bytes` holding every file of `old`."""
    fs = _littlefs(fs_bytes // LFS_BLOCK)
    fs.format()
    fs.mount()
    for root, dirs, names in old.walk("/"):
        for d in dirs:
            fs.makedirs(root.rstrip("/") + "/" + d, exist_ok=True)
        for name in names:
            path = root.rstrip("/") + "/" + name
            with old.open(path, "rb") as f, fs.open(path, "wb") as g:
                g.write(f.read())
    return fs


def prepare_littlefs(path, files, fs_bytes=rp2040.FS_BYTES):
    """Make the littlefs image at `path` (rp2's geometry, `fs_bytes` long)
    or, when it exists, mount it and rewrite those of `files` ({name:
    bytes}) that differ; the player's save and everything else stay (moved
    into a partition of this size if the image is of another flash map)."""
    changed = not os.path.exists(path)
    if changed:
        fs = _littlefs(fs_bytes // LFS_BLOCK)
        fs.format()
        fs.mount()
    else:
        fs = _mounted(path)
        if len(fs.context.buffer) != fs_bytes:
            fs, changed = _moved(fs, fs_bytes), True
    for name, data in files.items():
        parent = name.rsplit("/", 1)[0] if "/" in name else ""
        if parent:
            fs.makedirs(parent, exist_ok=True)
        try:
            with fs.open(name, "rb") as f:
                same = f.read() == data
        except FileNotFoundError:
            same = False
        if not same:
            with fs.open(name, "wb") as f:
                f.write(data)
            changed = True
    if changed:
        with open(path + ".tmp", "wb") as f:
            f.write(fs.context.buffer)
        os.replace(path + ".tmp", path)


def read_littlefs(path, name):
    """A file's bytes from a board's littlefs image (None if absent)."""
    fs = _mounted(path)
    try:
        with fs.open(name, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


class EmuBoard(PtyBoard):
    """One emulated board: a Node process running rp2040js, on a pty that
    outlives it."""

    def __init__(self, name, flash_dir, seed=None, board="pico-epaper29", device_id=None, battery_volts=3.9,
                 settings=None, flash_timing=False, firmware="romfs", bare=False, safe_mode_window=False):
        self.pins = board_pins(board)
        if boards.board(board)["runtime"] == "circuitpython":
            firmware = "circuitpython"
        if firmware not in FIRMWARES:
            raise EmuError("no firmware %r for an emulated board (known: %s)" % (firmware, ", ".join(FIRMWARES)))
        self.name = name
        self.board = board
        self.firmware = firmware
        # bare: a board fresh from the official UF2, nothing of the game on it
        # (the stock route's `deckahedron flash --port` puts it there)
        self.bare = bare and firmware == "stock"
        self.circuitpython = firmware == "circuitpython"
        self.fs_start = rp2040.STOCK_FS_START if firmware == "stock" else rp2040.FS_START
        if self.circuitpython:
            self.fs_start = rp2040.FLASH_BASE + circuitpython.FS_OFFSET
        self.fs_bytes = rp2040.STOCK_FS_BYTES if firmware == "stock" else rp2040.FS_BYTES
        # the flash chip's erase and program times charged (host_tools/sim/emu/flash.mjs):
        # a board's pace, for figures; off, the tests run faster
        self.flash_timing = flash_timing
        # CircuitPython waits a second at power-on for a press into safe mode, in a busy loop
        # (4-6 s of a host core a boot); the chip then says it was started by a debugger's rescue
        # reset, which it starts from at once (host_tools/sim/emu/reset.mjs). True: a real
        # power-on, for the boot-time figures. MicroPython has no such window.
        self.reset_cause = "power-on" if safe_mode_window or not self.circuitpython else "rescue"
        self.settings = settings  # the player's choices in deckahedron.cfg: {"sleep": "dormant"}
        self.flash_dir = os.path.abspath(flash_dir)
        self.seed = seed
        # Like a simulated board: an id made once and kept with its flash, so a
        # table tells two emulated Picos (and runs) apart, not all "p1".
        self.device_id = device_id if device_id is not None else persistent_id(self.flash_dir)
        self.battery_volts = battery_volts  # what the battery sense reads (a charged LiPo)
        self.log_path = os.path.join(os.path.dirname(self.flash_dir), "%s.log" % name)
        self.fs_path = os.path.join(self.flash_dir, "circuitpy.img" if self.circuitpython else "littlefs.img")
        self.romfs_path = os.path.join(self.flash_dir, "romfs.img")
        self.proc = None
        self.port = None
        self.wanted = False
        self.starts = 0
        self.events = []  # every event of the current run, in order
        self.refusals = []  # the panel's violations over every run, [{t, msg}]
        self._master = self._slave = None
        self.console_port = None  # CircuitPython's console (the REPL), a second pty
        self._console = None  # its (master, slave)
        self._heard = bytearray()  # the console's last CONSOLE_KEPT bytes, over every run
        self._log = None
        self._sock = None
        self._answers = {}
        self._next_id = 0
        self._cond = threading.Condition()
        self._lock = threading.RLock()
        self._threads = []

    def __repr__(self):
        return "EmuBoard(%r, %s, port=%r, pid=%r)" % (self.name, self.board, self.port, self.pid)

    @property
    def pid(self):
        return self.proc.pid if self.proc is not None else None

    # -- life ----------------------------------------------------------------

    def _open_pty(self):
        if self._master is None:
            master, slave = os.openpty()
            tty.setraw(slave)
            self._master, self._slave = master, slave
            self.port = os.ttyname(slave)
        if self.circuitpython and self._console is None:
            master, slave = os.openpty()
            tty.setraw(slave)
            os.set_blocking(master, False)  # no one at the REPL: its words are dropped, the board goes on
            self._console = (master, slave)
            self.console_port = os.ttyname(slave)

    def _prepare_flash(self):
        os.makedirs(self.flash_dir, exist_ok=True)
        with open(FIRMWARE_MAIN, "rb") as f:
            main = f.read()
        cfg = config_text(self.board, self.seed, self.device_id, self.settings).encode()
        wanted = {"main.py": main, "deckahedron.cfg": cfg}
        if self.circuitpython:
            if not os.path.exists(self.fs_path) or os.path.getsize(self.fs_path) != circuitpython.FS_BYTES:
                circuitpython.make_fat(self.fs_path + ".tmp")
                os.replace(self.fs_path + ".tmp", self.fs_path)
            wanted = dict(circuitpython.game_files(self.board), **{files.CONFIG: cfg})
            circuitpython.put_files(self.fs_path, wanted)
            return
        if self.bare:
            prepare_littlefs(self.fs_path, {}, self.fs_bytes)
            return
        if self.firmware == "stock":
            wanted.update(stock_files(self.board))
            prepare_littlefs(self.fs_path, wanted, self.fs_bytes)
            return
        prepare_littlefs(self.fs_path, wanted)
        romfs = current_romfs(self.board)
        with open(self.romfs_path + ".tmp", "wb") as f:
            f.write(romfs)
        os.replace(self.romfs_path + ".tmp", self.romfs_path)

    def start(self, wake=None):
        """Power the board on (a no-op while it runs); ``wake``: (button,
        ms), a button held from power-on for ms of emulated time (the press
        that powers a switched-off Badger up). Raises rp2040.ImageError
        without the base image or bootrom (or with a damaged CIRCUITPY
        drive), EmuError without Node or rp2040js."""
        with self._lock:
            if self.is_alive():
                self.wanted = True
                return self
            image = firmware_image(self.firmware)
            bootrom = rp2040.bootrom_path()
            node = find_node()
            self._prepare_flash()
            self._open_pty()
            if self._log is None:
                self._log = open(self.log_path, "ab")
            self._drain()
            ours, theirs = socket.socketpair()
            console = socket.socketpair() if self._console is not None else None
            config = {
                "bootrom": str(bootrom), "image": str(image),
                "romfs": None if self.firmware in ("stock", "circuitpython") else self.romfs_path,
                "romfsOffset": rp2040.ROMFS_START - rp2040.FLASH_BASE,
                "fs": self.fs_path, "fsOffset": self.fs_start - rp2040.FLASH_BASE,
                "cdcFd": theirs.fileno(), "consoleFd": console[1].fileno() if console else None, "panel": self.pins["panel"], "buttons": self.pins["buttons"],
                "pressed": self.pins["pressed"], "latch": self.pins["latch"], "vbus": self.pins["vbus"],
                "battery": self.pins["battery"] and dict(self.pins["battery"], volts=self.battery_volts),
                "wake": {"button": wake[0], "ms": wake[1]} if wake else None,
                "flashTiming": self.flash_timing, "resetCause": self.reset_cause,
            }
            self._log.write(("--- %s start %d: %s %s\n" % (time.strftime("%H:%M:%S"), self.starts + 1,
                                                           self.name, self.board)).encode())
            self._log.flush()
            with self._cond:
                self.events = []
                self._answers = {}
            try:
                self.proc = subprocess.Popen([node, os.path.join(EMU_DIR, "main.mjs"), json.dumps(config)],
                                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
                                             cwd=EMU_DIR, start_new_session=True,
                                             pass_fds=(theirs.fileno(),) + ((console[1].fileno(),) if console else ()))
            except OSError as e:
                ours.close()
                if console:
                    console[0].close()
                raise EmuError("cannot start %s: %s" % (self.name, e))
            finally:
                theirs.close()
                if console:
                    console[1].close()
            self._sock = ours
            self._csock = console[0] if console else None
            self._threads = [threading.Thread(target=self._read_control, args=(self.proc,), daemon=True),
                             threading.Thread(target=self._bridge, args=(ours,), daemon=True)]
            if console:
                self._threads.append(threading.Thread(target=self._bridge, args=(console[0], self._console[0], True),
                                                      daemon=True))
            for t in self._threads:
                t.start()
            self.starts += 1
            self.wanted = True
            return self

    def _drain(self):
        """Bytes written to the port while the board was off are lost, as
        on a real board (the pty kept them)."""
        for master in [self._master] + ([self._console[0]] if self._console else []):
            while select.select([master], [], [], 0)[0]:
                if not os.read(master, 65536):
                    break

    def is_alive(self):
        """The Node process runs and the board has power."""
        return self.proc is not None and self.proc.poll() is None and not self.powered_off

    @property
    def powered_off(self):
        with self._cond:
            return any(e.get("ev") == "power_cut" for e in self.events)

    @property
    def returncode(self):
        return self.proc.poll() if self.proc is not None else None

    def kill(self, sig=signal.SIGKILL):
        """Signal the emulator as a crash would; down until restart()."""
        with self._lock:
            self.wanted = False
            if self.proc is not None and self.proc.poll() is None:
                try:
                    self.proc.send_signal(sig)
                    self.proc.wait(STOP_GRACE)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    pass
            self._join()

    def stop(self, grace=STOP_GRACE):
        """Stop the emulator; the flash file and the pty stay."""
        with self._lock:
            self.wanted = False
            proc = self.proc
            if proc is None:
                return
            if proc.poll() is None:
                try:
                    proc.stdin.close()  # the emulator exits when its control channel closes
                    proc.wait(grace)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(grace)
                except (ProcessLookupError, BrokenPipeError, OSError):
                    pass
            self._join()

    def _join(self):
        socks = [s for s in (self._sock, getattr(self, "_csock", None)) if s is not None]
        for sock in socks:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        for t in self._threads:
            t.join(STOP_GRACE)
        self._threads = []
        for sock in socks:
            sock.close()
        self._sock = self._csock = None

    def close(self):
        PtyBoard.close(self)
        if self._console is not None:
            for fd in self._console:
                try:
                    os.close(fd)
                except OSError:
                    pass
            self._console = None

    reset = PtyBoard.restart  # a power-on reset: the chip starts from its flash as it is

    # -- the threads ------------------------------------------------------------

    def _read_control(self, proc):
        for line in proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            with self._cond:
                if "id" in msg and msg["id"] is not None:
                    self._answers[msg["id"]] = msg
                else:
                    self.events.append(msg)
                    if msg.get("ev") == "violation":
                        self.refusals.append(msg)
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    def _bridge(self, sock, master=None, heard=False):
        """pty master <-> the emulator's CDC socket, bytes untouched; with
        `heard`, what the board says is kept too (console_text)."""
        master = self._master if master is None else master
        while True:
            try:
                ready, _, _ = select.select([master, sock], [], [], 0.5)
            except (OSError, ValueError):
                return
            if sock in ready:
                try:
                    data = sock.recv(65536)
                except OSError:
                    return
                if not data:
                    return
                if heard:
                    with self._cond:
                        self._heard += data
                        del self._heard[:-CONSOLE_KEPT]
                try:
                    os.write(master, data)
                except BlockingIOError:  # the console's pty is full: no one reads it
                    pass
            if master in ready:
                try:
                    data = os.read(master, 65536)
                    sock.sendall(data)
                except OSError:
                    return

    # -- the control channel ----------------------------------------------------

    def control(self, op, timeout=ANSWER_TIMEOUT, **args):
        """One request to the emulator; its answer (a dict)."""
        proc = self.proc
        if proc is None or proc.poll() is not None:
            raise EmuError("%s is not running" % self.name)
        with self._cond:
            self._next_id += 1
            rid = self._next_id
        try:
            proc.stdin.write((json.dumps(dict(args, id=rid, op=op)) + "\n").encode())
            proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EmuError("%s: the emulator is gone (%s)" % (self.name, e))
        end = time.monotonic() + timeout
        with self._cond:
            while rid not in self._answers:
                left = end - time.monotonic()
                if left <= 0 or proc.poll() is not None:
                    raise EmuError("%s: no answer to %s from the emulator" % (self.name, op))
                self._cond.wait(left)
            answer = self._answers.pop(rid)
        if not answer.get("ok"):
            raise EmuError("%s: %s" % (self.name, answer.get("error")))
        return answer

    def wait_event(self, pred, timeout=60.0, since=0):
        """The first event from index `since` on for which pred(event) holds;
        EmuError after `timeout` wall seconds."""
        end = time.monotonic() + timeout
        with self._cond:
            while True:
                for e in self.events[since:]:
                    if pred(e):
                        return e
                left = end - time.monotonic()
                if left <= 0 or self.proc is None or self.proc.poll() is not None:
                    raise EmuError("%s: the awaited event did not come (events: %s)"
                                   % (self.name, self.events[since:][-5:]))
                self._cond.wait(min(left, 0.5))

    def event_count(self):
        with self._cond:
            return len(self.events)

    def events_since(self, since):
        """The events of the current run from index `since` on (a copy)."""
        with self._cond:
            return self.events[since:]

    def time(self):
        """Emulated seconds since power-on."""
        return self.control("time")["t"] * NS

    def press(self, button, ms=120):
        """Press a button and release it `ms` emulated ms later; returns the
        emulated time of the press (s)."""
        return self.control("tap", button=button, ms=ms)["t"] * NS

    def lapse(self, seconds, step=1.0, timeout=60.0):
        """Let the next `seconds` of emulated time pass as a time-lapse
        (host_tools/sim/emu/dormant.mjs): each wait of the core lasts `step`
        seconds, so an idle board runs a pass of its loop a step. Returns
        when they have passed (the emulated time then, s); EmuError after
        `timeout` wall seconds."""
        since = self.event_count()
        self.control("lapse", ns=int(seconds * 1e9), step=int(step * 1e9))
        return self.wait_event(lambda e: e.get("ev") == "lapsed", timeout=timeout, since=since)["t"] * NS

    def send_at(self, data, t=0.0, port="link"):
        """Bytes on the board's USB port at emulated second `t` (now when it
        is past), as if written to the pty then; they wait, as the pty's
        do, until the board's port is up. port="console": CircuitPython's
        console port. Returns the emulated time now (s)."""
        return self.control("send", hex=bytes(data).hex(), at=int(t * 1e9), port=port)["t"] * NS

    def hold(self, button):
        return self.control("press", button=button)["t"] * NS

    def release(self, button):
        return self.control("release", button=button)["t"] * NS

    def panel(self):
        """The panel's counters: full, fast, commands, resets, sleeps, asleep,
        busy, violations (count), updates [{kind, t}], image (bytes)."""
        answer = self.control("panel")
        answer["image"] = base64.b64decode(answer["image"])
        return answer

    def panel_image(self):
        """What the glass shows: 296 x 128 MONO_HLSB bytes, 1 = black."""
        return self.panel()["image"]

    def console_text(self):
        """What CircuitPython's console port said (its banners, a reload's
        "soft reboot", an error it printed), the last CONSOLE_KEPT bytes
        over every run, whether or not anyone opened console_port."""
        with self._cond:
            return self._heard.decode("utf-8", "replace")

    def violations(self):
        """Every command the panel would not have accepted since this
        EmuBoard was made (over resets and restarts): [{ev, t, msg}]."""
        with self._cond:
            return list(self.refusals)

    def flash_ops(self, log=False):
        """{ops, erases, programs[, log: [[ns, 'e'|'p', offset, bytes(, the
        programmed page after it, base64)]...]]}: the log since the last
        one taken."""
        return self.control("flash", log=log)

    def cut_power(self, after_ops=None, then=None, timeout=120.0):
        """Cut the power now, or right after `after_ops` more flash erases or
        programs: the cut is armed, then `then()` runs (a press, say), then
        this waits up to `timeout` wall seconds for it (False if it did not
        come). The board stays off until restart()."""
        since = self.event_count()
        if after_ops is None:
            self.control("cut")
        else:
            self.control("cut_after", ops=after_ops)
        if then is not None:
            then()
        try:
            self.wait_event(lambda e: e.get("ev") == "power_cut", timeout=timeout, since=since)
        except EmuError:
            return False
        return True

    HOST_STATES = ("suspended", "unplugged", "attached")

    def host_away(self, how="suspended"):
        """Take the USB host away: "suspended" (it stops sending frames, as
        a laptop going to sleep; what it sends waits) or "unplugged" (the
        cable is out: bytes written to the port are lost). The board's
        controller sees the bus suspended 3 ms later. Returns the emulated
        time (s)."""
        if how not in self.HOST_STATES[:2]:
            raise EmuError("host_away: %s, not %r" % (" or ".join(self.HOST_STATES[:2]), how))
        return self.control("host", state=how)["t"] * NS

    def host_back(self):
        """Give the USB host back: a suspended one resumes the bus, a
        plugged-in one enumerates the board afresh 100 ms later; either
        resets and enumerates a board that does not answer (DORMANT) and
        gives up after a few seconds (host_tools/sim/emu/usbhost.mjs). Returns
        the emulated time (s)."""
        return self.control("host", state="attached")["t"] * NS

    def chip(self):
        """{"dormant": {dormant (now), entries, wakes, ns (emulated time
        halted, all entries), lightsleeps (clk_sys dropped to the crystal:
        MicroPython's lightsleep(), timed slices and DORMANT alike)},
        "usb": {host, link, suspended, clocked, held, dropped, away, back,
        resumes, enumerations, retries, gave_up}}."""
        answer = self.control("chip")
        return {"dormant": answer["dormant"], "usb": answer["usb"]}

    def read_file(self, name):
        """A file from the board's littlefs (CIRCUITPY's FAT) as the flash holds it now."""
        if self.circuitpython:
            return circuitpython.read_file(self.fs_path, name)
        return read_littlefs(self.fs_path, name)


def random_walk(board, presses, seed, buttons=("A", "A", "B", "B", "C", "C", "UP", "DOWN")):
    """Random presses of `buttons` (every one the boards have, the buttons
    that act most weighted twice), each waited on until its panel update or
    a quiet emulated second: a player's fingers over every menu. Returns
    the resets seen (a crash resets the board into its save)."""
    import random

    rng = random.Random(seed)
    resets = 0
    for _ in range(presses):
        since = board.event_count()
        t = board.press(rng.choice(buttons), ms=60)
        while board.time() < t + 1.0:
            if any(e.get("ev") in ("update", "reset") for e in board.events_since(since)):
                break
            time.sleep(0.05)
        resets += sum(1 for e in board.events_since(since) if e.get("ev") == "reset")
    return resets


class EmuTableBoards:
    """Makes EmuBoards for host_tools.sim.unixport.SimTable (board pK, its seed)."""

    def __init__(self, board="pico-epaper29"):
        board_pins(board)  # an unknown board fails here, before anything starts
        self.board = board

    def __call__(self, name, flash_dir, seed):
        return EmuBoard(name, flash_dir, seed=seed, board=self.board)

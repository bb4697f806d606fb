"""The real device on CPython, behind a transport the tests can damage.

The firmware's own App (firmware/app.py: the endpoint, the save, the UI, the
renderer) runs in a thread on firmware/boards/sim.py's Board, whose serial
port is a pair of pipes to a transport thread; the transport passes bytes
between those pipes and the master side of a pty, and the host opens the
pty's slave like /dev/ttyACM0. Nothing here decides how the device answers:
every reply, event and state comes from the App.

    with DeviceDouble(name="p1", seed=3) as dev:
        link = DeviceLink(dev.port)          # a symlink to the pty slave
        dev.press("B")                       # a button on the device itself
        dev.game, dev.app, dev.panel         # the App's game, the App, the panel

What the transport does to the frames it passes (counters of what to do to
the next matching frames; requests are matched to their ops by the ids of
the Q frames it passed in):
``drop_reply[op]`` (the App acted and remembered, the reply is lost),
``corrupt_reply[op]`` (the reply arrives with one bit flipped),
``corrupt_incoming`` (the next N lines to the device arrive damaged),
``drop_events`` / ``corrupt_events`` (the next N events lost or damaged the
first time the App sends them; its replays pass),
``after_op[op]`` (a function called with the double once, when the reply to
the next ``op`` passes, before it is sent on: a button pressed between two
parts of a backup, say).
What it saw: ``received`` (every readable line to the device, decoded),
``bad_lines`` (unreadable ones by reason), ``acks``; and from the App itself,
``applied`` (rules commands the App really ran, by op) and ``pending`` (its
unacknowledged events).

``replug()`` swaps in a new pty under the same port path (a USB cable pulled
and plugged in again: the host's open port fails; the board, on its
battery, keeps running). ``stop()`` closes the App's port, so the sim
board's serial_read ends the App with SystemExit as it does when its host
goes away, and joins both threads.

As a program, ``python tests/host/device_double.py --board sim --dir D --id N
[--seed N]`` is the App on CPython on stdin/stdout, the way
``micropython firmware/entry/main.py`` runs a simulated board (host_tools.sim.unixport
can run it in place of MicroPython).
"""

import collections
import os
import select
import sys
import tempfile
import threading
import tty

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:  # run as a program from anywhere
    sys.path.insert(0, ROOT)
from host_tools import firmware_importable  # noqa: E402

firmware_importable()
from app import App, LeaveApp  # noqa: E402
from boards.sim import Board  # noqa: E402
from start import _crashed, _play  # noqa: E402
from tests.device.support import kept  # noqa: E402
from surface import Surface  # noqa: E402
from shared_rules import protocol as P  # noqa: E402

WAIT = 5.0  # seconds a press may take to be handled by the App


class Bitmap:
    """A 2-colour bitmap indexed ``[x, y]`` (the part of displayio.Bitmap
    surface.Surface uses): CPython has no framebuf, so the renderer draws on
    a Surface over this, as it does on a MagTag."""

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.px = bytearray(width * height)

    def __getitem__(self, xy):
        return self.px[xy[1] * self.width + xy[0]]

    def __setitem__(self, xy, c):
        self.px[xy[1] * self.width + xy[0]] = c

    def fill(self, c):
        self.px[:] = bytes([c]) * len(self.px)


class DoubleBoard(Board):
    """The sim board on given streams, drawing on a Surface, with buttons a
    test presses (``push``) and its log kept (``logged``)."""

    def __init__(self, flash_dir, port=None):
        Board.__init__(self, flash_dir, port)
        self.surface = Surface(Bitmap(self.width, self.height))
        # Blinka's bitmaptools, if installed, fills and blits only its own Bitmap
        self.surface._fill_region = self.surface._glyph_blit = None
        self.panel = None  # the last picture shown, MONO_HLSB bytes
        self.logged = []
        self._lock = threading.Condition()
        self._presses = []
        self._loops = 0  # serial_read calls: one per turn of the App's loop
        self._taken = {}  # press number -> the loop that took it

    def show(self, buf, mode):
        frame = bytes(buf.to_bytes())  # buf is the renderer's Surface: the picture as the sim board writes it
        Board.show(self, frame, mode)
        self.panel = frame

    def serial_read(self, timeout_ms):
        with self._lock:
            self._loops += 1
            self._lock.notify_all()
        return Board.serial_read(self, timeout_ms)

    def buttons(self):
        with self._lock:
            out = [b for _, b in self._presses]
            for n, _ in self._presses:
                self._taken[n] = self._loops
            self._presses = []
            return out

    def push(self, button, number):
        """Queue a press at the start of a turn of the App's loop (as a
        person's press comes after the request they saw answered, not inside
        its turn), then wait until the loop has taken it and come round again
        (so its command, save and events are done)."""
        with self._lock:
            turn = self._loops
            if not self._lock.wait_for(lambda: self._loops > turn, WAIT):
                raise TimeoutError("the device's loop stopped")
            self._presses.append((number, button))
            ok = self._lock.wait_for(lambda: number in self._taken and self._loops > self._taken[number], WAIT)
        if not ok:
            raise TimeoutError("the device did not take the press of %s within %gs" % (button, WAIT))

    def wait_loop(self, n):
        """Wait until the App's loop has asked for input n times (once: it has booted)."""
        with self._lock:
            return self._lock.wait_for(lambda: self._loops >= n, WAIT)

    def log(self, text):
        self.logged.append(text)
        sys.stderr.write(text)


class RecordingApp(App):
    """The App, counting the rules commands it really ran (``applied``, a
    Counter kept across its restarts)."""

    def __init__(self, board, device_id, seed, applied):
        App.__init__(self, board, device_id, seed)
        self.applied = applied

    def command(self, op, args, source="button"):
        result = App.command(self, op, args, source)
        self.applied[op] += 1
        return result


class DeviceDouble:
    """One device: the App on a DoubleBoard, a transport thread, a pty (see
    the module's docstring)."""

    def __init__(self, name="p1", seed=1, flash_dir=None):
        self.name = name
        self.seed = seed
        self._own_flash = flash_dir is None
        self.flash_dir = flash_dir or tempfile.mkdtemp(prefix="double-flash-")
        self.applied = collections.Counter()
        self.received = []  # (kind, num, payload) of every readable line to the device
        self.bad_lines = collections.Counter()  # reason -> unreadable lines to the device
        self.acks = []
        self.drop_reply = collections.Counter()
        self.corrupt_reply = collections.Counter()
        self.corrupt_incoming = 0
        self.drop_events = 0
        self.corrupt_events = 0
        self.after_op = {}
        self.app = None
        self.board = None
        self.port = None  # the stable path: a symlink to the current pty slave
        self.tty_path = None
        self._ops = {}  # request id -> op, from the Q frames passed in
        self._sent_events = set()  # seqs the App has sent at least once
        self._presses = 0
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._replug = threading.Event()
        self._replugged = threading.Event()
        self._master = self._slave = None
        self._link_dir = None
        self._threads = []

    # -- what the tests look at ------------------------------------------------
    @property
    def game(self):
        return self.app.game

    @property
    def pending(self):
        """The App's unacknowledged events as [number, frame or None, offset, size]."""
        return kept(self.app.link)

    @property
    def panel(self):
        return self.board.panel

    def press(self, button):
        """Press a button on the device; returns the seqs of the events the
        App made for it, once it has handled it."""
        if button not in P.BUTTONS:
            raise ValueError("a button is one of %s" % ", ".join(P.BUTTONS))
        before = self.app.link.seq
        self._presses += 1
        self.board.push(button, self._presses)
        return list(range(before + 1, self.app.link.seq + 1))

    def send(self, line):
        """Bytes on the wire to the host as if the device sent them."""
        self._to_host(line.encode() if isinstance(line, str) else line)

    # -- life ------------------------------------------------------------------
    def start(self):
        self._open_pty()
        app_in, wire_out = os.pipe()  # transport -> App
        wire_in, app_out = os.pipe()  # App -> transport
        self._wire_out, self._wire_in = wire_out, wire_in
        self.board = DoubleBoard(self.flash_dir, (open(app_in, "rb", buffering=0), open(app_out, "wb")))
        self._stop.clear()
        self._threads = [threading.Thread(target=self._run_app, name="double-app-%s" % self.name, daemon=True),
                         threading.Thread(target=self._transport, name="double-wire-%s" % self.name, daemon=True)]
        for t in self._threads:
            t.start()
        if not self.board.wait_loop(1):
            self.stop()
            raise RuntimeError("the device double did not boot within %gs" % WAIT)
        return self

    def _run_app(self):
        """The App's life on the board, as firmware/start.py's _play runs it:
        an uncaught error is logged and the App starts again from its save;
        the port closing (SystemExit from the sim board) ends it."""
        while True:
            app = self.app = RecordingApp(self.board, self.name, self.seed, self.applied)
            try:
                app.run()
            except (SystemExit, LeaveApp):
                break
            except Exception as e:
                _crashed(self.board, e)
        for f in (self.board._in, self.board._out):
            f.close()

    def stop(self):
        """Stop the App and the transport; release the pty and the flash
        folder the double made."""
        self._stop.set()
        for t in self._threads:
            t.join(WAIT)
        if self.running:
            raise RuntimeError("the device double's threads did not stop: %r" % self.running)
        self._close_pty()
        if self._link_dir is not None:
            for name in os.listdir(self._link_dir):
                os.unlink(os.path.join(self._link_dir, name))
            os.rmdir(self._link_dir)
            self._link_dir = None
        if self._own_flash and self.flash_dir and os.path.isdir(self.flash_dir):
            import shutil

            shutil.rmtree(self.flash_dir, ignore_errors=True)

    @property
    def running(self):
        """The App's and the transport's threads, while either is alive."""
        return [t for t in self._threads if t.is_alive()]

    def replug(self):
        """Unplug (the host's open port fails) and plug in again under the
        same port path. The board keeps running: nothing of its memory goes."""
        self._replugged.clear()
        self._replug.set()
        if not self._replugged.wait(WAIT):
            raise RuntimeError("the transport did not replug within %gs" % WAIT)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    # -- the pty ---------------------------------------------------------------
    def _open_pty(self):
        if self._link_dir is None:
            self._link_dir = tempfile.mkdtemp(prefix="double-")
            self.port = os.path.join(self._link_dir, "ttyDOUBLE")
        # our own slave fd keeps the pty raw and the master free of EIO while no host has it open
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.tty_path = os.ttyname(self._slave)
        tmp = self.port + ".new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(self.tty_path, tmp)
        os.replace(tmp, self.port)

    def _close_pty(self):
        with self._write_lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    try:
                        os.close(fd)
                    except OSError:
                        pass
            self._master = self._slave = None

    # -- the transport -----------------------------------------------------------
    def _transport(self):
        to_app = b""  # the line being passed to the App (for corrupt_incoming)
        corrupt_this = False
        from_app = b""
        try:
            while not self._stop.is_set():
                if self._replug.is_set():
                    self._close_pty()
                    self._open_pty()
                    to_app, corrupt_this = b"", False
                    self._replug.clear()
                    self._replugged.set()
                master = self._master
                try:
                    ready, _, _ = select.select([master, self._wire_in], [], [], 0.05)
                except (OSError, ValueError):
                    break
                if self._wire_in in ready:
                    data = os.read(self._wire_in, 4096)
                    if not data:
                        break  # the App is gone
                    from_app += data
                    while b"\n" in from_app:
                        line, from_app = from_app.split(b"\n", 1)
                        self._from_app(line + b"\n")
                if master in ready:
                    try:
                        data = os.read(master, 4096)
                    except OSError:
                        data = b""
                    out = bytearray()
                    for b in data:
                        if not to_app and self.corrupt_incoming:
                            self.corrupt_incoming -= 1
                            corrupt_this = True
                        if corrupt_this and len(to_app) == 4:
                            b = ord("#")
                        to_app += bytes([b])
                        out.append(b)
                        if b == 10:
                            self._to_app_line(to_app)
                            to_app, corrupt_this = b"", False
                    if out:
                        os.write(self._wire_out, bytes(out))
        finally:
            os.close(self._wire_out)  # the App's serial_read sees the hang-up and ends
            self._wire_out = None
            for t in self._threads:
                if t is not threading.current_thread():
                    t.join(WAIT)
            os.close(self._wire_in)

    def _to_app_line(self, line):
        try:
            kind, num, payload = P.decode(line)
        except P.FrameError as e:
            if line[:1] in (b"Q", b"R", b"E", b"A"):
                self.bad_lines[e.code] += 1
            else:
                self.bad_lines["noise"] += 1
            return
        self.received.append((kind, num, payload))
        if kind == "Q":
            self._ops[num] = payload[0]
        elif kind == "A":
            self.acks.append(num)

    def _from_app(self, line):
        try:
            kind, num, payload = P.decode(line)
        except P.FrameError:
            self._to_host(line)
            return
        if kind == "R":
            op = self._ops.get(num)
            hook = self.after_op.pop(op, None)
            if hook is not None:
                hook(self)
            if self.drop_reply[op] > 0:
                self.drop_reply[op] -= 1
                return
            if self.corrupt_reply[op] > 0:
                self.corrupt_reply[op] -= 1
                bad = bytearray(line)
                bad[len(bad) // 2] ^= 0x01
                line = bytes(bad)
        elif kind == "E" and num not in self._sent_events:
            self._sent_events.add(num)
            if self.drop_events > 0:
                self.drop_events -= 1
                return
            if self.corrupt_events > 0:
                self.corrupt_events -= 1
                line = line.replace(b'"op"', b'"oq"', 1)
        self._to_host(line)

    def _to_host(self, data):
        """As a USB CDC port does: data with no room at the host is dropped."""
        with self._write_lock:
            if self._master is None:
                return
            try:
                if not select.select([], [self._master], [], 0)[1]:
                    return
                while data:
                    data = data[os.write(self._master, data):]
            except OSError:
                pass


def main(argv=None):
    """Stand in for `micropython firmware/entry/main.py --board sim ...` (CPython)."""
    import argparse

    parser = argparse.ArgumentParser(description="the Deckahedron App on CPython, on stdin/stdout")
    parser.add_argument("--board", default="sim", choices=["sim"])
    parser.add_argument("--dir", required=True)
    parser.add_argument("--id", default="sim")
    parser.add_argument("--seed", type=int)
    args = parser.parse_args(argv)
    # unbuffered: a buffered stdin would keep bytes the sim board's poll cannot see
    board = DoubleBoard(args.dir, (open(0, "rb", buffering=0, closefd=False), sys.stdout.buffer))
    sys.stderr.write("device double %s: the App on CPython, serving stdin/stdout\n" % args.id)
    sys.stderr.flush()
    _play(board, args.id, args.seed)  # firmware/start.py's play mode
    return 0


if __name__ == "__main__":
    sys.exit(main())

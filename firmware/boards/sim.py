"""The simulated board: the real firmware in the MicroPython unix port.

Its flash is a folder; its serial port is stdin/stdout, which the host tool
connects to a pseudo-terminal (host_tools/simboards.py) so clients open it
with pyserial exactly like /dev/ttyACM0; its buttons are pressed over the
link (the "press" command); its panel is the renderer's buffer, which the
host fetches with "screen" and which is also written to the flash folder as
panel.pbm after every update (its comment line counts the refreshes).
"""

import os
import select
import sys

import boards


class Board(boards.Board):
    name = "sim"

    def __init__(self, flash_dir, port=None):
        """``port``: the serial link as (input, output) binary streams with a
        fileno(); stdin and stdout unless given (the host's tests run the
        app on CPython behind their own transport)."""
        self.flash_dir = flash_dir
        try:
            os.mkdir(flash_dir)
        except OSError:
            pass  # already there
        if port is None:
            port = (sys.stdin.buffer, sys.stdout.buffer)
        self._in, self._out = port
        self._poll_in = select.poll()
        self._poll_in.register(self._in, select.POLLIN)
        self._poll_out = select.poll()
        self._poll_out.register(self._out, select.POLLOUT)
        self.refreshes = {"fast": 0, "full": 0, "partial": 0}
        self.dropped_writes = 0

    def serial_read(self, timeout_ms):
        data = b""
        events = self._poll_in.poll(timeout_ms)
        while events:
            flags = events[0][1]
            if flags & select.POLLIN:
                byte = self._in.read(1)
                if not byte:
                    break
                data += byte
                if len(data) >= 512:
                    break
            elif flags & (select.POLLHUP | select.POLLERR):
                # The host keeps the pty's other end open for the board's
                # whole life; a hang-up means it is gone, so stop rather
                # than linger as an orphan.
                raise SystemExit("sim board: the host closed the port")
            events = self._poll_in.poll(0)
        return data

    def serial_write(self, text):
        # A USB CDC port with no host reading drops data rather than block;
        # do the same so a full pty buffer never hangs the device.
        if not self._poll_out.poll(0):
            self.dropped_writes += 1
            return
        self._out.write(text.encode())
        try:
            self._out.flush()
        except AttributeError:
            pass

    def buttons(self):
        return ()

    def show(self, buf, mode):
        self.refreshes[mode] += 1
        with open(self.flash_dir + "/panel.pbm", "wb") as f:
            r = self.refreshes
            f.write(b"P4\n# refreshes: full %d fast %d partial %d\n%d %d\n"
                    % (r["full"], r["fast"], r["partial"], self.width, self.height))
            f.write(buf)

    # The power the host set (host_tools/sim/unixport.py, SimBoard.set_power):
    # POWER_FILE in the flash folder holds the cell's volts and/or "usb";
    # none: no cell, and the board cannot tell about USB.
    POWER_FILE = "power.txt"

    def _power(self):
        try:
            with open(self.flash_dir + "/" + self.POWER_FILE) as f:
                words = f.read().split()
        except OSError:
            return None, None
        volts = None
        for w in words:
            if w != "usb":
                try:
                    volts = float(w)
                except ValueError:
                    pass
        return volts, "usb" in words

    def battery(self):
        return self._power()[0]

    def usb_powered(self):
        return self._power()[1]

    def log(self, text):
        """The board's log: stderr, which the host sends to <name>.log (never
        stdout, the serial link)."""
        sys.stderr.write(text)

    def entropy(self):
        b = os.urandom(8)
        n = 0
        for x in b:
            n = (n << 8) | x
        return n

"""Fake usb_cdc: enable() as boot.py calls it, and a data Serial the tests
feed (``feed``) and read back (``sent``)."""


class Serial:
    def __init__(self):
        self.inbox = bytearray()
        self.sent = bytearray()
        self.timeout = None  # CircuitPython's initial value: wait forever
        self.write_timeout = None
        self.connected = True

    def feed(self, data):
        self.inbox.extend(data)

    @property
    def in_waiting(self):
        return len(self.inbox)

    def read(self, size=1):
        if self.timeout is None and len(self.inbox) < size:
            raise AssertionError("a read with timeout None would block the device")
        out = bytes(self.inbox[:size])
        del self.inbox[:size]
        return out

    def write(self, buf):
        self.sent.extend(buf)
        return len(buf)


console = Serial()
data = None  # disabled until boot.py enables it (as on the board)
enabled = None


def enable(*, console=True, data=False):
    global enabled
    enabled = {"console": console, "data": data}


def disable():
    enable(console=False, data=False)

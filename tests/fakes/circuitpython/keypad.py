"""Fake keypad: Keys(pins) turns level changes of the pins into events.
The real module scans in the background; here a scan happens when a test
calls ``scan()`` (the moment the press "happened") or when the queue is
read. Events carry ``timestamp`` = supervisor.ticks_ms() of their scan."""

import supervisor


class Event:
    def __init__(self, key_number, pressed, timestamp=None):
        self.key_number = key_number
        self.pressed = pressed
        self.released = not pressed
        self.timestamp = timestamp


class _Queue:
    def __init__(self, keys):
        self._keys = keys
        self._q = []
        self.overflowed = False

    def get(self):
        self._keys.scan()
        return self._q.pop(0) if self._q else None

    def __len__(self):
        self._keys.scan()
        return len(self._q)


class Keys:
    instances = []

    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.02, max_events=64):
        self.pins = tuple(pins)
        for p in self.pins:
            if p.in_use:
                raise ValueError("%r in use" % p)
            p.in_use = True
        self.value_when_pressed = value_when_pressed
        self.state = [False] * len(self.pins)
        self.events = _Queue(self)
        self.deinited = False
        Keys.instances.append(self)

    def scan(self):
        for k, p in enumerate(self.pins):
            down = p.level == self.value_when_pressed
            if down != self.state[k]:
                self.state[k] = down
                self.events._q.append(Event(k, down, supervisor.ticks_ms()))

    def deinit(self):
        self.deinited = True
        for p in self.pins:
            p.in_use = False

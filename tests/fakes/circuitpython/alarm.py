"""Fake alarm: deep sleep raises DeepSleep so a test can see it was asked
for; light sleep returns the alarm a test queued in ``wakes`` (a pin: that
pin's PinAlarm, pressed for ``hold_ms`` first; "time": the TimeAlarm),
advancing the shared clock by ``after_ms``. ``wake_alarm`` is what woke
the board before code.py started (None: a power-on)."""

from _clock import CLOCK


class DeepSleep(Exception):
    pass


class _PinAlarm:
    def __init__(self, pin, value, edge=False, pull=False):
        if pin.in_use:
            raise ValueError("%r in use" % pin)
        if edge:
            raise ValueError("Cannot wake on pin edge. Only level.")  # the ESP32-S2's words
        self.pin = pin
        self.value = value
        self.pull = pull


class pin:  # noqa: N801 -- a module in CircuitPython: alarm.pin.PinAlarm
    PinAlarm = _PinAlarm


class _TimeAlarm:
    def __init__(self, monotonic_time=None, epoch_time=None):
        self.monotonic_time = monotonic_time


class time:  # noqa: N801 -- alarm.time.TimeAlarm
    TimeAlarm = _TimeAlarm


wake_alarm = None
wakes = []  # (pin or "time", after_ms, hold_ms): what ends each light sleep
light_sleeps = []  # the alarms of each light sleep


def light_sleep_until_alarms(*alarms):
    light_sleeps.append(alarms)
    if not wakes:
        raise RuntimeError("fake alarm: light sleep with nothing queued to wake it")
    what, after_ms, hold_ms = wakes.pop(0)
    CLOCK.advance(after_ms)
    for a in alarms:
        if what == "time" and isinstance(a, _TimeAlarm) or a is not None and getattr(a, "pin", None) is what:
            if what != "time":
                what.level = a.value  # pressed now; released after hold_ms (a test's schedule)
                if hold_ms == 0:
                    what.level = not a.value  # a tap already over when the code runs again
            return a
    raise RuntimeError("fake alarm: %r is not among the alarms" % (what,))


def exit_and_deep_sleep_until_alarms(*alarms):
    raise DeepSleep(alarms)

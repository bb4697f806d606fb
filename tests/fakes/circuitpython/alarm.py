"""Fake alarm: deep sleep raises DeepSleep so a test can see it was asked
for (more low pins than MAX_LOW_PINS: ValueError, as CircuitPython says);
``wake_alarm`` is what woke the board before code.py started (None: a
power-on)."""


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


wake_alarm = None


MAX_LOW_PINS = 4  # CircuitPython 9.1+ on the ESP32-S2; 2 before (set by a test)


def exit_and_deep_sleep_until_alarms(*alarms):
    if len([a for a in alarms if isinstance(a, _PinAlarm)]) > MAX_LOW_PINS:
        raise ValueError("Can only alarm on two low pins from deep sleep.")
    raise DeepSleep(alarms)

"""Fake alarm: deep sleep raises DeepSleep so a test can see it was asked for."""


class DeepSleep(Exception):
    pass


class _PinAlarm:
    def __init__(self, pin, value, edge=False, pull=False):
        if pin.in_use:
            raise ValueError("%r in use" % pin)
        self.pin = pin
        self.value = value
        self.pull = pull


class pin:  # noqa: N801 -- a module in CircuitPython: alarm.pin.PinAlarm
    PinAlarm = _PinAlarm


def exit_and_deep_sleep_until_alarms(*alarms):
    raise DeepSleep(alarms)

"""Pimoroni Badger 2040 W: the Badger 2040 (boards/badger2040.py) with its
own LED pin, no battery sense, and a PCF85063A RTC whose alarm can power
the board up (drivers/pcf85063a.py). In a module of its own: a Badger 2040
never loads the RTC's code.
"""

from boards.badger2040 import Badger2040Board


class Badger2040WBoard(Badger2040Board):
    """The 2040 W: the same panel and buttons, its own LED pin, no battery
    sense, and a PCF85063A RTC whose alarm can power the board up."""

    name = "badger2040w"

    def __init__(self, flash_dir="", clock=None, serial=None):
        Badger2040Board.__init__(self, flash_dir, clock, serial)
        m = self.machine
        rtc = self.pins["rtc"]
        self.i2c = m.I2C(rtc["i2c"], sda=m.Pin(rtc["sda"]), scl=m.Pin(rtc["scl"]), freq=100000)
        self.alarm_pin = m.Pin(rtc["alarm"], m.Pin.IN, m.Pin.PULL_DOWN)
        self.alarm_set = False
        if self.alarm_pin.value():
            self.woke = "rtc"
        self.has_rtc = True
        try:
            self._rtc("start")
        except OSError:  # no answer at 0x51: play on without the alarm
            self.has_rtc = False

    def _rtc(self, what, *args):
        """drivers/pcf85063a.py's ``what`` on this board's bus, the driver
        loaded for that moment only: a session that sets no alarm (the game
        sets none today) carries none of its code."""
        import sys  # here, not at the top: one name less in the module for the whole session

        import drivers.pcf85063a as rtc

        try:
            return getattr(rtc, what)(self.i2c, *args)
        finally:
            del rtc
            sys.modules.pop("drivers.pcf85063a", None)
            try:
                delattr(sys.modules["drivers"], "pcf85063a")
            except (KeyError, AttributeError):
                pass

    def _rtc_woke(self):
        if self.alarm_set and self.alarm_pin.value() == 1:
            self._rtc("clear_alarm")
            self.alarm_set = False
            return "rtc"
        return None

    def set_wake_alarm(self, seconds):
        """Wake (power up, or end power_off() on USB) in about seconds, 2 to
        86399, through the RTC's alarm on second, minute and hour. False
        when the RTC did not answer at start."""
        if not self.has_rtc:
            return False
        self._rtc("set_alarm", int(seconds))
        self.alarm_set = True
        return True

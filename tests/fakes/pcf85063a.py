"""A fake of Pimoroni's ``pcf85063a`` module (the Badger 2040 W's RTC).

PCF85063A(i2c): datetime() -> (year, month, day, hour, minute, second,
weekday), datetime(tuple) sets it; set_alarm(second, minute, hour, day)
(-1 = field unused), enable_alarm_interrupt(bool), read_alarm_flag(),
clear_alarm_flag(), unset_alarm(); set_timer(ticks 0-255, ttp 0-3),
enable_timer_interrupt(enable, flag_only=False) and friends. The clock runs
on the shared simulated clock; when the alarm matches and its interrupt is
enabled, INT (Badger 2040 W: GPIO8, RTC_ALARM) goes high.
"""

import machine

TIMER_TICK_4096HZ = 0
TIMER_TICK_64HZ = 1
TIMER_TICK_1HZ = 2
TIMER_TICK_1_OVER_60HZ = 3
PARAM_UNUSED = -1


class PCF85063A:
    def __init__(self, i2c, int_pin=8):
        self.i2c = i2c
        self.base = (2024, 6, 1, 12, 0, 0, 5)  # at simulated time 0
        self.base_ms = 0
        self.alarm = None
        self.due_ms = None
        self.alarm_enabled = False
        self.alarm_flag = False
        self.timer = None
        self.timer_interrupt = False
        self.calls = []
        machine.drive(int_pin, self._int_level)

    def _seconds_now(self):
        y, mo, d, h, mi, s, wd = self.base
        return h * 3600 + mi * 60 + s + (machine.clock.now - self.base_ms) // 1000

    def datetime(self, dt=None):
        if dt is not None:
            self.base = tuple(dt)
            self.base_ms = machine.clock.now
            return None
        y, mo, d, h, mi, s, wd = self.base
        total = self._seconds_now()
        days = total // 86400
        total %= 86400
        return (y, mo, d + days, total // 3600, (total // 60) % 60, total % 60, (wd + days) % 7)

    def set_alarm(self, second=PARAM_UNUSED, minute=PARAM_UNUSED, hour=PARAM_UNUSED, day=PARAM_UNUSED):
        for v, top, what in ((second, 59, "second"), (minute, 59, "minute"), (hour, 23, "hour")):
            if v != PARAM_UNUSED and not 0 <= v <= top:
                raise ValueError("%s out of range" % what)
        self.alarm = (second, minute, hour, day)
        self.calls.append(("set_alarm", second, minute, hour))
        # The next simulated time (to the second) when the fields match.
        now_s = self._seconds_now()
        self.due_ms = None
        for ahead in range(1, 86401):
            t = (now_s + ahead) % 86400
            if ((second == PARAM_UNUSED or second == t % 60) and (minute == PARAM_UNUSED or minute == (t // 60) % 60)
                    and (hour == PARAM_UNUSED or hour == t // 3600)):
                self.due_ms = machine.clock.now - (machine.clock.now - self.base_ms) % 1000 + ahead * 1000
                break

    def enable_alarm_interrupt(self, enable):
        self.alarm_enabled = bool(enable)

    def _check_alarm(self):
        if self.alarm is not None and self.due_ms is not None and machine.clock.now >= self.due_ms:
            self.alarm_flag = True

    def read_alarm_flag(self):
        self._check_alarm()
        return self.alarm_flag

    def clear_alarm_flag(self):
        self.alarm_flag = False

    def unset_alarm(self):
        self.alarm = None

    def _int_level(self, now):
        self._check_alarm()
        return 1 if (self.alarm_flag and self.alarm_enabled) else 0

    def set_timer(self, ticks, ttp=TIMER_TICK_1HZ):
        if not 0 <= ticks <= 255:
            raise ValueError("ticks out of range. Expected 0 to 255")
        if not 0 <= ttp <= 3:
            raise ValueError("ttp out of range. Expected 0 to 3")
        self.timer = (ticks, ttp)

    def enable_timer_interrupt(self, enable, flag_only=False):
        self.timer_interrupt = bool(enable)

    def read_timer_flag(self):
        return False

    def clear_timer_flag(self):
        pass

    def unset_timer(self):
        self.timer = None

    def reset(self):
        self.alarm = None
        self.timer = None

"""Fake analogio: AnalogIn(pin).value is pin.analog (0..65535)."""


class AnalogIn:
    def __init__(self, pin):
        self.pin = pin
        self.reference_voltage = 3.3

    @property
    def value(self):
        return self.pin.analog

    def deinit(self):
        pass

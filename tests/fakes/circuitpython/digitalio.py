"""Fake digitalio over microcontroller.Pin objects (pin.level)."""


class Direction:
    INPUT = "input"
    OUTPUT = "output"


class Pull:
    UP = "up"
    DOWN = "down"


class DriveMode:
    PUSH_PULL = "push_pull"
    OPEN_DRAIN = "open_drain"


class DigitalInOut:
    def __init__(self, pin):
        if pin.in_use:
            raise ValueError("%r in use" % pin)
        pin.in_use = True
        self.pin = pin
        self.direction = Direction.INPUT
        self.pull = None
        self.deinited = False

    def switch_to_input(self, pull=None):
        self.direction = Direction.INPUT
        self.pull = pull

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self.direction = Direction.OUTPUT
        self.pin.level = value

    @property
    def value(self):
        return self.pin.level

    @value.setter
    def value(self, v):
        if self.direction != Direction.OUTPUT:
            raise AttributeError("Cannot set value when direction is input.")
        self.pin.level = bool(v)

    def deinit(self):
        self.pin.in_use = False
        self.deinited = True

"""Fake microcontroller: Pin and cpu.uid."""


class Pin:
    def __init__(self, name):
        self.name = name
        self.level = True  # input level; buttons are pulled up, so high = not pressed
        self.analog = 0
        self.in_use = False

    def __repr__(self):
        return "board.%s" % self.name


class _Cpu:
    uid = bytearray(b"\x7c\xdf\xa1\x00\x4d\x2e")


cpu = _Cpu()

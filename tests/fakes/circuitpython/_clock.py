"""A settable clock shared by the fakes (milliseconds): ``CLOCK`` drives
supervisor.ticks_ms() and keypad's event timestamps; tests hand the same
clock to the board and the fake display."""


class Clock:
    def __init__(self, t=1000):
        self.t = t

    def __call__(self):
        return self.t

    def sleep(self, ms):
        self.t += ms

    def advance(self, ms):
        self.t += ms


CLOCK = Clock()

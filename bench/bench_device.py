"""Device firmware benchmark, run under the MicroPython unix port.

    micropython bench/bench_device.py flip N      # firmware work per flip
    micropython [-X heapsize=..] bench/bench_device.py session N [--lib DIR]

``flip``: N flips as a player makes them (press B, press A), each press
through the whole app: command handling, rules, save to flash, render of the
panel; prints the median per flip and the split per stage.
``session``: N random commands (legal and illegal) arriving as request
frames, each answered, saved and drawn; prints "session ok" at the end.
"""

import gc
import os
import sys

sys.path.insert(0, ".")
sys.path.insert(0, "firmware")

from time import ticks_diff, ticks_us  # noqa: E402

from boards import Board  # noqa: E402


class BenchBoard(Board):
    name = "bench"

    def __init__(self, folder):
        self.flash_dir = folder
        try:
            os.mkdir(folder)
        except OSError:
            pass
        self.sent = 0

    def serial_read(self, timeout_ms):
        return b""

    def serial_write(self, text):
        self.sent += 1

    def buttons(self):
        return ()

    def show(self, buf, mode):
        pass

    def entropy(self):
        return 1


def _folder(tag):
    for p in ("build", "build/bench"):
        try:
            os.mkdir(p)
        except OSError:
            pass
    path = "build/bench/" + tag
    try:
        for f in os.listdir(path):
            os.remove(path + "/" + f)
    except OSError:
        pass
    return path


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def bench_flip(n):
    from app import App

    app = App(BenchBoard(_folder("flip")), "bench", 1)
    app.boot()
    app.show()
    total, rules, save, render = [], [], [], []
    for i in range(n):
        t0 = ticks_us()
        for button in ("B", "A"):
            a = ticks_us()
            app.ui.press(button)  # command handling + rules
            b = ticks_us()
            app.commit()  # save (and events out)
            c = ticks_us()
            app.show()  # render the panel
            d = ticks_us()
            rules.append(ticks_diff(b, a))
            save.append(ticks_diff(c, b))
            render.append(ticks_diff(d, c))
        total.append(ticks_diff(ticks_us(), t0))
        if app.ui.stack:  # a message or the critical-success menu: leave it
            app.ui.home()
            if app.game.s.flip is not None:
                app.command("end_flip", {})
                app.commit()
    print("device_flip: %.2f ms" % (median(total) / 1000))
    print("device_press_rules: %.2f ms" % (median(rules) / 1000))
    print("device_press_save: %.2f ms" % (median(save) / 1000))
    print("device_press_render: %.2f ms" % (median(render) / 1000))


def bench_session(n):
    from app import App
    from shared_rules import protocol as P
    from shared_rules.prng import Rng
    from shared_rules.deck.walk import random_command

    app = App(BenchBoard(_folder("session")), "bench", 2)
    app.boot()
    r = Rng(5)
    t0 = ticks_us()
    for i in range(n):
        op, args = random_command(app.game, r)
        if app.link.feed(P.request(i + 1, op, args).encode(), app.handle):
            app.need_save = True
        app.commit()
        app.show()
        if app.game.s.incapacitated and i % 7 == 0:
            app.new_game(i)
    gc.collect()
    print("device_session_time: %.1f ms" % (ticks_diff(ticks_us(), t0) / 1000))
    print("session ok")


MODES = {"flip": bench_flip, "session": bench_session}

if __name__ == "__main__":
    argv = list(sys.argv[1:])
    if "--lib" in argv:  # compiled .mpy files, as a board would load them
        i = argv.index("--lib")
        lib = argv[i + 1]
        del argv[i:i + 2]
        sys.path.insert(0, lib)
        sys.path.insert(0, lib + "/firmware")
    if len(argv) != 2 or argv[0] not in MODES:
        print("usage: bench_device.py flip|session N [--lib DIR]")
        sys.exit(2)
    MODES[argv[0]](int(argv[1]))

"""A device played alone: N button flips, no host, through the real main loop.

    micropython -X heapsize=56k tests/device/solo_heap.py [FLIPS]    (from the repo root)

Each flip goes through App.poll exactly as on a board: the buttons, the
rules, the save, the frame drawn. Nobody acknowledges the events. Prints
``ok FLIPS flips, save N bytes, heap_low N`` and exits 0, or dies with the
error (MemoryError in a heap a Pico would not have). tests/host/
test_device_heap.py runs it in a small heap.
"""

import gc
import sys

sys.path.insert(0, ".")
sys.path.insert(0, "firmware")  # the firmware's modules before anything of this script's folder

from tests.device.support import FakeBoard, make_app, solo_flip  # noqa: E402


class SoloBoard(FakeBoard):
    """Buttons pressed one per poll; the frame is drawn and dropped."""

    def __init__(self):
        FakeBoard.__init__(self)
        self.queue = []

    def buttons(self):
        if self.queue:
            return [self.queue.pop(0)]
        return []

    def serial_write(self, text):
        pass  # no host: nothing keeps what the device sends


def main(flips):
    board = SoloBoard()
    app = make_app(board, seed=11)
    low = None

    def push(b):
        board.queue.append(b)
        app.poll(0)

    for i in range(flips):
        solo_flip(app, push)
        if i % 25 == 0:
            gc.collect()
            free = gc.mem_free() if hasattr(gc, "mem_free") else 0
            low = free if low is None or free < low else low
    import os

    size = os.stat(board.flash_dir + "/deck.sav")[6]
    print("ok %d flips, %d events sent, save %d bytes, heap_low %s" % (flips, app.link.seq, size, low))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)

"""A frame's bits flipped in place, in native code (viper): the SSD1680's
RAM has 1 for white where our canvas has 1 for ink, so drivers/ssd1680.py
flips the canvas, writes it to the panel and flips it back (vlsb.invert is
the same without native code). A word at a time: the 4,736-byte frame in
0.3 ms on a Pico, where framebuf's palette blit took ~6.7 ms.

A module of its own: only the SSD1680 boards need it, and its machine code
lives in the heap of a board that imports it (496 B with the module, on
the emulated Pico; mpy-cross -march=armv6m, like drivers/ink.py).
"""

import micropython


@micropython.viper
def invert(buf):
    """Every bit of buf (a bytearray on a word boundary, a whole number of
    words long: a frame buffer) flipped."""
    a = int(ptr8(buf))
    n = int(len(buf))
    if (a | n) & 3:
        raise ValueError("invert: not whole words")
    end = a + n
    while a < end:
        ptr32(a)[0] = ptr32(a)[0] ^ -1
        a += 4

"""Fake neopixel_write: remembers the last bytes written per pin."""

written = {}


def neopixel_write(digitalinout, buf):
    written[digitalinout.pin.name] = bytes(buf)

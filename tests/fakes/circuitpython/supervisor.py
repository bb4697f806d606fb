"""Fake supervisor: ticks_ms() from the shared test clock, wrapping at 2**29."""

from _clock import CLOCK


def ticks_ms():
    return CLOCK() & ((1 << 29) - 1)

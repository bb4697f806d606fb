"""A fake EPaperDisplay with the MagTag's timing, enforcing CircuitPython's
rules: ``time_to_refresh`` (fractional seconds) until the next refresh is
allowed, ``refresh()`` raising RuntimeError("Refresh too soon") before that.
Each refresh composes ``root_group`` with Blinka's displayio (Group ->
TileGrid -> Palette, as a display does) into a 1-bit picture of what the
panel shows, kept in ``frames`` with the time in ``times``."""

import time


def _real_ms():
    return time.monotonic_ns() // 1000000


class FakeEPaperDisplay:
    width = 296
    height = 128

    def __init__(self, clock_ms=None, seconds_per_frame=5.0, refresh_time=1.0, refuse_extra_ms=0):
        self.clock_ms = clock_ms or _real_ms
        self.seconds_per_frame = seconds_per_frame
        self.refresh_time = refresh_time
        self.refuse_extra_ms = refuse_extra_ms  # refuse this long past time_to_refresh == 0
        self.last = None
        self.root_group = None
        self.frames = []
        self.times = []
        self.refused = 0

    def show(self, group):  # CircuitPython < 8.1
        self.root_group = group

    @property
    def time_to_refresh(self):
        if self.last is None:
            return 0
        left = self.seconds_per_frame * 1000 - (self.clock_ms() - self.last)
        return left / 1000 if left > 0 else 0

    @property
    def busy(self):
        return self.last is not None and self.clock_ms() - self.last < self.refresh_time * 1000

    def refresh(self):
        now = self.clock_ms()
        if self.last is not None and now - self.last < self.seconds_per_frame * 1000 + self.refuse_extra_ms:
            self.refused += 1
            raise RuntimeError("Refresh too soon")
        self.last = now
        self.frames.append(compose(self.root_group, self.width, self.height))
        self.times.append(now)

    @property
    def panel(self):
        return self.frames[-1] if self.frames else None


def compose(group, width, height):
    """The group as the panel would get it: displayio fills the area pixel
    by pixel through the TileGrid's palette (8-bit grey here), then dark
    pixels become ink. Returns a MONO_HLSB buffer, bit 1 = ink."""
    from displayio._area import Area
    from displayio._structs import ColorspaceStruct, TransformStruct

    stride = (width + 7) // 8
    out = bytearray(stride * height)
    if group is None:
        return out
    group._update_transform(TransformStruct())
    cs = ColorspaceStruct(depth=8, grayscale=True, grayscale_bit=0)
    n = width * height
    grey = bytearray(b"\xff") * (n + (-n) % 4)  # no layer covers a pixel: white paper
    mask = memoryview(bytearray((n // 32 + 1) * 4)).cast("I")
    group._fill_area(cs, Area(0, 0, width, height), mask, memoryview(grey).cast("I"))
    for y in range(height):
        row = y * width
        o = y * stride
        for x in range(width):
            if grey[row + x] < 128:
                out[o + (x >> 3)] |= 0x80 >> (x & 7)
    return out

"""Fake board module for the Adafruit MagTag (pin names as CircuitPython
defines them for adafruit_magtag_2.9_grayscale) and its DISPLAY."""

from microcontroller import Pin

from _epaper import FakeEPaperDisplay

_NAMES = ("BUTTON_A", "BUTTON_B", "BUTTON_C", "BUTTON_D", "LED", "NEOPIXEL", "NEOPIXEL_POWER",
          "VOLTAGE_MONITOR", "LIGHT", "SPEAKER", "SPEAKER_ENABLE", "ACCELEROMETER_INTERRUPT",
          "EPD_BUSY", "EPD_RESET", "EPD_DC", "EPD_CS", "EPD_MOSI", "EPD_SCK", "EPD_MISO", "A1", "D10")
for _n in _NAMES:
    globals()[_n] = Pin(_n)
D15, D14, D12, D11, D13, D1 = BUTTON_A, BUTTON_B, BUTTON_C, BUTTON_D, LED, NEOPIXEL  # noqa: F821
BATTERY = VOLTAGE_MONITOR  # noqa: F821

DISPLAY = FakeEPaperDisplay()


def pins():
    return [globals()[n] for n in _NAMES]

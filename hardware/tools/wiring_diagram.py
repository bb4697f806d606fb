"""Draws the wiring diagram of the Pico + Waveshare Pico-ePaper-2.9 build.

    .venv/bin/python hardware/tools/wiring_diagram.py [OUT.png]

Writes hardware/pico-epaper29-wiring.png (1200 px wide) unless told
otherwise. The panel's signals, the buttons and the battery-sense pin come
from the board registry (firmware/boards/boards.json, "pico-epaper29"),
which the firmware reads too; the Pico's pin-out and the module's header
are drawn from the tables here. tests/host/test_power.py checks that every
GPIO in the guide's pin table is in labels().
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "hardware" / "pico-epaper29-wiring.png"
REGISTRY = ROOT / "firmware" / "boards" / "boards.json"


def _pins():
    with open(REGISTRY, encoding="utf-8") as f:
        return json.load(f)["boards"]["pico-epaper29"]["pins"]

# Raspberry Pi Pico pin-out (Pico datasheet / "Pico-R3-A4-Pinout"): physical
# pin -> name, USB end at the top, pin 1 top left, pin 40 top right.
PICO_PINS = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11",
    16: "GP12", 17: "GP13", 18: "GND", 19: "GP14", 20: "GP15",
    21: "GP16", 22: "GP17", 23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21",
    28: "GND", 29: "GP22", 30: "RUN", 31: "GP26", 32: "GP27", 33: "AGND", 34: "GP28",
    35: "ADC_VREF", 36: "3V3(OUT)", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}
PIN_OF = {}
for _n, _name in PICO_PINS.items():
    PIN_OF.setdefault(_name, _n)

# Waveshare Pico-ePaper-2.9: the module's header pin -> the registry's
# panel signal (None: power), and what it does. SPI1 on the Pico.
EPAPER_SIGNALS = [
    ("VCC", None, "VSYS", "power input"),
    ("GND", None, "GND", "ground"),
    ("DIN", "mosi", None, "SPI1 MOSI"),
    ("CLK", "sck", None, "SPI1 SCK"),
    ("CS", "cs", None, "chip select, low active"),
    ("DC", "dc", None, "data/command"),
    ("RST", "rst", None, "reset, low active"),
    ("BUSY", "busy", None, "busy (panel working)"),
]


def epaper():
    """(module pin, Pico pin name, note) of every wire to the e-paper module."""
    panel = _pins()["panel"]
    return [(m, power or "GP%d" % panel[sig], note) for m, sig, power, note in EPAPER_SIGNALS]


EPAPER_PIN_NUMBERS = {"VSYS": 39, "GND": 38}  # the module's own VCC/GND header pins

# GPIO29 (ADC3) reads VSYS through the Pico's own divider (Pico datasheet:
# VSYS/3; 200 kOhm over 100 kOhm): nothing to wire. An external divider
# on GP26-GP28 would be two equal resistors for a ratio of 2.
INTERNAL_SENSE_GPIO = 29
EXTERNAL_DIVIDER = ("100 kΩ", "100 kΩ")  # top (BAT+ to the ADC pin), bottom (ADC pin to GND)


def button_pins():
    """UI button -> GPIO number."""
    return dict((str(name), int(gpio)) for name, gpio in _pins()["buttons"])


def battery():
    """(ADC GPIO, divider ratio) of the battery reading, or None."""
    value = _pins().get("battery")
    return None if not value else (int(value[0]), float(value[1]))


def battery_adc_pin():
    b = battery()
    return None if b is None else b[0]


def connections():
    """Every wire as (from, to, note): what the picture draws."""
    wires = [("e-paper " + m, "Pico %s (pin %d)" % (p, EPAPER_PIN_NUMBERS.get(p) or PIN_OF[p]), note)
             for m, p, note in epaper()]
    for ui, gp in button_pins().items():
        wires.append(("button " + ui, "Pico GP%d (pin %d)" % (gp, PIN_OF["GP%d" % gp]), "other leg to GND"))
    wires.append(("LiPo SHIM VSYS/GND", "Pico VSYS (pin 39) / GND (pin 38)", "soldered on the header"))
    adc = battery_adc_pin()
    if adc is not None and adc != INTERNAL_SENSE_GPIO:
        wires.append(("divider mid-point", "Pico GP%d (pin %d)" % (adc, PIN_OF["GP%d" % adc]),
                      "%s from BAT+, %s to GND" % EXTERNAL_DIVIDER))
    return wires


def labels():
    """Every text the diagram prints that names a pin or a part (for the
    tests: each GPIO of the guide's pin map must be here)."""
    out = ["%s %d" % (name, n) for n, name in PICO_PINS.items()]
    for m, p, note in epaper():
        out += [m, p, note]
    for ui, gp in button_pins().items():
        out.append("%s  (GP%d)" % (ui, gp))
    adc = battery_adc_pin()
    if adc == INTERNAL_SENSE_GPIO:
        out += ["GP29 = ADC3 (inside the Pico)", "VSYS / 3"]
    elif adc is not None:
        out += ["GP%d = ADC%d" % (adc, adc - 26), "R1 " + EXTERNAL_DIVIDER[0], "R2 " + EXTERNAL_DIVIDER[1]]
    out += ["LiPo SHIM for Pico", "LiPo 3.7 V", "VSYS", "GND"]
    return out


def gpios():
    """The GPIO names (GPn) the diagram shows in use."""
    used = {p for _, p, _ in epaper() if p.startswith("GP")}
    used |= {"GP%d" % gp for gp in button_pins().values()}
    adc = battery_adc_pin()
    if adc is not None:
        used.add("GP%d" % adc)
    return used


# ------------------------------------------------------------------ drawing
W, H = 1200, 900
COL = {
    "bg": (255, 255, 255), "ink": (25, 25, 25), "pico": (46, 139, 87), "pcb": (228, 242, 233),
    "epd": (60, 60, 60), "gnd": (20, 20, 20), "pwr": (200, 30, 30), "spi": (30, 90, 200),
    "ctl": (150, 60, 170), "btn": (220, 120, 0), "adc": (0, 140, 140), "grey": (110, 110, 110),
}
WIRE_COLOUR = {"VCC": "pwr", "GND": "gnd", "DIN": "spi", "CLK": "spi", "CS": "spi",
               "DC": "ctl", "RST": "ctl", "BUSY": "ctl"}


def _font(size, bold=False):
    from PIL import ImageFont

    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for path in (name, "/usr/share/fonts/truetype/dejavu/" + name):
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            pass
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1
        return ImageFont.load_default()


def draw(out=OUT):
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (W, H), COL["bg"])
    d = ImageDraw.Draw(img)
    f_title, f_small, f_bold = _font(26, True), _font(15), _font(17, True)

    d.text((30, 16), "Deckahedron: Raspberry Pi Pico + Waveshare Pico-ePaper-2.9", font=f_title, fill=COL["ink"])
    d.text((30, 52), "Top view of the Pico, USB at the top. Each button goes between its GPIO and GND "
                     "(the firmware turns on the internal pull-ups).", font=f_small, fill=COL["grey"])

    # --- the Pico, pins 1-20 down the left, 40-21 down the right
    px0, px1, py0, pitch = 470, 730, 120, 36
    py1 = py0 + 20 * pitch + 16
    d.rounded_rectangle((px0, py0, px1, py1), radius=12, fill=COL["pcb"], outline=COL["pico"], width=4)
    cx = (px0 + px1) // 2
    d.rectangle((cx - 32, py0 - 20, cx + 32, py0 + 12), fill=(200, 200, 200), outline=COL["ink"], width=2)
    d.text((cx - 17, py0 - 17), "USB", font=f_small, fill=COL["ink"])
    for i, line in enumerate(("Raspberry", "Pi Pico")):
        tw = d.textlength(line, font=f_bold)
        d.text((cx - tw / 2, py0 + 398 + i * 22), line, font=f_bold, fill=COL["pico"])

    pin_xy = {}
    for n in range(1, 41):
        x = px0 if n <= 20 else px1
        y = py0 + 26 + ((n - 1) if n <= 20 else (40 - n)) * pitch
        pin_xy[n] = (x, y)
        d.ellipse((x - 7, y - 7, x + 7, y + 7), fill=(212, 175, 55), outline=COL["ink"])
        label = "%s %d" % (PICO_PINS[n], n)
        tw = d.textlength(label, font=f_small)
        d.text((x + 12 if n <= 20 else x - 12 - tw, y - 9), label, font=f_small, fill=COL["ink"])

    def wire(points, colour, width=4):
        d.line(points, fill=colour, width=width, joint="curve")
        for p in (points[0], points[-1]):
            d.ellipse((p[0] - 5, p[1] - 5, p[0] + 5, p[1] + 5), fill=colour)

    def flag(x, y, text, colour, right=True):
        tw = d.textlength(text, font=f_small)
        box = (x, y - 12, x + tw + 16, y + 12) if right else (x - tw - 16, y - 12, x, y + 12)
        d.rectangle(box, outline=colour, width=2, fill=(255, 255, 255))
        d.text((box[0] + 8, y - 9), text, font=f_small, fill=colour)

    # --- buttons (top left): GND bus -> switch -> GPIO, one per row of its pin
    bpins = button_pins()
    bus_x, sw_x = 44, 150
    d.text((30, 84), "Push buttons (6 x 6 mm tactile)", font=f_bold, fill=COL["btn"])
    rows = []
    for ui, gp in bpins.items():
        tx, ty = pin_xy[PIN_OF["GP%d" % gp]]
        rows.append(ty)
        d.line([(bus_x, ty), (sw_x, ty)], fill=COL["gnd"], width=3)
        d.line([(sw_x, ty), (sw_x + 34, ty - 13)], fill=COL["ink"], width=3)  # the lever
        d.line([(sw_x + 26, ty - 22), (sw_x + 26, ty - 10)], fill=COL["ink"], width=2)
        d.line([(sw_x + 16, ty - 22), (sw_x + 36, ty - 22)], fill=COL["ink"], width=3)
        wire([(sw_x + 40, ty), (tx, ty)], COL["btn"], 4)
        d.text((sw_x + 56, ty - 21), "%s  (GP%d)" % (ui, gp), font=f_bold, fill=COL["btn"])
    g3 = pin_xy[3]
    top = min(rows + [g3[1]])
    d.line([(bus_x, top), (bus_x, max(rows))], fill=COL["gnd"], width=3)
    wire([(bus_x, g3[1]), g3], COL["gnd"], 3)
    d.text((bus_x + 8, g3[1] - 21), "GND bus -> GND pin 3", font=f_small, fill=COL["gnd"])

    # --- the Waveshare module (lower left): each signal on the row of its pin
    sig = sorted((PIN_OF[p], m, p) for m, p, _ in epaper() if p.startswith("GP"))
    y_first, y_last = pin_xy[sig[0][0]][1], pin_xy[sig[-1][0]][1]
    g13 = pin_xy[13]
    vcc_y = y_last + 2 * pitch
    mx0, mx1 = 40, 295
    d.rounded_rectangle((mx0, y_first - 54, mx1, vcc_y + 30), radius=10, fill=(245, 245, 245),
                        outline=COL["epd"], width=3)
    d.text((mx0 + 12, y_first - 44), "Waveshare Pico-ePaper-2.9", font=_font(15, True), fill=COL["epd"])
    for n, m, p in sig:
        tx, ty = pin_xy[n]
        d.text((mx0 + 14, ty - 10), m, font=f_bold, fill=COL["ink"])
        wire([(mx1, ty), (tx, ty)], COL[WIRE_COLOUR[m]], 4)
        d.text((mx1 + 14, ty - 21), "%s -> %s" % (m, p), font=f_small, fill=COL[WIRE_COLOUR[m]])
    d.text((mx0 + 14, g13[1] - 10), "GND", font=f_bold, fill=COL["ink"])
    wire([(mx1, g13[1]), g13], COL["gnd"], 4)
    d.text((mx1 + 14, g13[1] - 21), "GND -> GND (any)", font=f_small, fill=COL["gnd"])
    d.text((mx0 + 14, vcc_y - 10), "VCC", font=f_bold, fill=COL["ink"])
    d.line([(mx1, vcc_y), (mx1 + 40, vcc_y)], fill=COL["pwr"], width=4)
    flag(mx1 + 40, vcc_y, "to VSYS, pin 39", COL["pwr"])
    d.text((mx0, vcc_y + 46), "Plugged straight onto the Pico, the module's\n"
                              "header makes these eight connections itself.", font=f_small, fill=COL["grey"])

    # --- battery (right): LiPo SHIM on VSYS/GND, divider to the ADC pin
    rx = 955
    v39, v38 = pin_xy[39], pin_xy[38]
    d.text((rx - 20, 84), "Battery (optional)", font=f_bold, fill=COL["pwr"])
    d.rounded_rectangle((rx, 130, rx + 230, 250), radius=10, fill=(255, 240, 240), outline=COL["pwr"], width=3)
    d.text((rx + 12, 138), "LiPo SHIM for Pico", font=f_bold, fill=COL["pwr"])
    d.text((rx + 12, 162), "Pimoroni PIM557:", font=f_small, fill=COL["ink"])
    d.text((rx + 12, 182), "charger + power button,", font=f_small, fill=COL["ink"])
    d.text((rx + 12, 202), "solders onto the Pico's", font=f_small, fill=COL["ink"])
    d.text((rx + 12, 222), "header at the USB end", font=f_small, fill=COL["ink"])
    wire([(rx, v39[1]), v39], COL["pwr"])
    d.text((px1 + 40, v39[1] - 22), "VSYS (e-paper VCC too)", font=f_small, fill=COL["pwr"])
    wire([(rx, v38[1]), v38], COL["gnd"])
    d.text((px1 + 40, v38[1] + 2), "GND", font=f_small, fill=COL["gnd"])
    d.rounded_rectangle((rx + 25, 272, rx + 215, 326), radius=8, fill=(250, 250, 210), outline=COL["ink"], width=2)
    d.text((rx + 64, 278), "LiPo 3.7 V", font=f_bold, fill=COL["ink"])
    d.text((rx + 42, 300), "1200 mAh, JST-PH", font=f_small, fill=COL["ink"])
    d.line([(rx + 120, 272), (rx + 120, 250)], fill=COL["pwr"], width=4)

    adc = battery_adc_pin()
    if adc == INTERNAL_SENSE_GPIO:
        # the Pico's own divider: drawn inside a dashed box, nothing to wire
        bx0, by0 = px1 + 40, 400
        d.text((bx0, by0), "Battery sense: nothing to wire", font=f_bold, fill=COL["adc"])
        lines = ["GP29 = ADC3 (inside the Pico)", "reads VSYS / 3 through the Pico's",
                 "own 200 kΩ + 100 kΩ divider.", "With the SHIM, VSYS is the battery:",
                 "4.2 V full -> 1.40 V at the ADC,", "3.0 V empty -> 1.00 V."]
        for i, line in enumerate(lines):
            d.text((bx0, by0 + 28 + i * 21), line, font=f_small, fill=COL["adc"] if i == 0 else COL["ink"])
        # a small schematic of it, hanging off VSYS (pin 39)
        r_x = rx + 100
        v_y = by0 + 172
        d.rectangle((r_x - 150, v_y - 14, r_x + 95, v_y + 160), outline=COL["grey"], width=1)
        d.text((r_x - 144, v_y - 10), "on the Pico board:", font=f_small, fill=COL["grey"])
        d.text((r_x + 12, v_y - 4), "VSYS", font=f_small, fill=COL["pwr"])

        def resistor(x, y0, y1, label):
            d.line([(x, y0), (x, y0 + 10)], fill=COL["ink"], width=3)
            d.rectangle((x - 8, y0 + 10, x + 8, y1 - 10), outline=COL["ink"], width=2)
            d.line([(x, y1 - 10), (x, y1)], fill=COL["ink"], width=3)
            d.text((x + 14, (y0 + y1) // 2 - 9), label, font=f_small, fill=COL["ink"])

        resistor(r_x, v_y + 12, v_y + 72, "200 kΩ")
        resistor(r_x, v_y + 72, v_y + 132, "100 kΩ")
        d.ellipse((r_x - 4, v_y + 68, r_x + 4, v_y + 76), fill=COL["adc"])
        d.line([(r_x, v_y + 72), (r_x - 70, v_y + 72)], fill=COL["adc"], width=3)
        d.text((r_x - 144, v_y + 46), "GP29/ADC3", font=f_small, fill=COL["adc"])
        for i, half in enumerate((12, 7, 2)):
            d.line([(r_x - half, v_y + 136 + i * 5), (r_x + half, v_y + 136 + i * 5)], fill=COL["gnd"], width=2)
    elif adc is not None:
        tadc = pin_xy[PIN_OF["GP%d" % adc]]
        node_y = tadc[1]
        r_x = rx + 60
        d.text((px1 + 40, node_y - 126), "Battery sense", font=f_bold, fill=COL["adc"])
        d.text((r_x + 12, node_y - 98), "BAT+", font=f_bold, fill=COL["pwr"])

        def resistor(x, y0, y1, label):
            d.line([(x, y0), (x, y0 + 12)], fill=COL["ink"], width=3)
            d.rectangle((x - 9, y0 + 12, x + 9, y1 - 12), outline=COL["ink"], width=3)
            d.line([(x, y1 - 12), (x, y1)], fill=COL["ink"], width=3)
            d.text((x + 16, (y0 + y1) // 2 - 9), label, font=f_small, fill=COL["ink"])

        resistor(r_x, node_y - 88, node_y, "R1 " + EXTERNAL_DIVIDER[0])
        resistor(r_x, node_y, node_y + 88, "R2 " + EXTERNAL_DIVIDER[1])
        for i, half in enumerate((15, 9, 3)):
            yy = node_y + 94 + i * 6
            d.line([(r_x - half, yy), (r_x + half, yy)], fill=COL["gnd"], width=3)
        wire([(r_x, node_y), tadc], COL["adc"])
        d.text((px1 + 60, node_y - 22), "GP%d = ADC%d" % (adc, adc - 26), font=f_small, fill=COL["adc"])

    # legend
    items = [("power", "pwr"), ("ground", "gnd"), ("SPI", "spi"), ("panel control", "ctl"),
             ("buttons", "btn"), ("battery sense", "adc")]
    lx, ly = 860, H - 112
    d.text((lx, ly - 28), "Wire colours", font=f_bold, fill=COL["ink"])
    for i, (name, c) in enumerate(items):
        xx, yy = lx + (i % 2) * 170, ly + (i // 2) * 26
        d.line([(xx, yy + 9), (xx + 36, yy + 9)], fill=COL[c], width=5)
        d.text((xx + 44, yy), name, font=f_small, fill=COL["ink"])

    Path(out).parent.mkdir(parents=True, exist_ok=True)
    img.save(out, optimize=True)
    return out


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    print(draw(target))

"""The battery-life model (host_tools/power.py) and the build guides that
quote it: the arithmetic by hand for one board, monotonicity, the refresh
mix against firmware/refresh.py, the guides' figures against the model, and
the Pico build's wiring diagram against its guide."""

import importlib.util
import math
import re
from pathlib import Path

import pytest

from host_tools import power

ROOT = Path(__file__).resolve().parents[2]
HW = ROOT / "hardware"
GUIDES = {
    "badger2040": HW / "badger2040.md",
    "pico-epaper29": HW / "pico-epaper29.md",
    "magtag": HW / "magtag.md",
}


# ------------------------------------------------------------ the refresh mix
def test_the_policy_is_the_firmwares_and_refreshes_fully_every_ninth_update():
    assert power.RefreshPolicy.FULL_EVERY == 8  # firmware/refresh.py; the counts below assume it
    p = power.RefreshPolicy()
    modes = [p.mode("flip") for _ in range(19)]
    assert [i for i, m in enumerate(modes) if m == "full"] == [0, 9, 18]


def test_mix_without_shuffles_one_screen_per_flip_is_ceil_100_over_9_full():
    # updates 0..99 from power-on: full at 0, 9, ..., 99 -> ceil(100/9) = 12
    mix = power.refresh_mix(100, shuffle_every=None, screens=("flip",))
    assert mix == {"full": 12, "fast": 88, "partial": 0}
    assert mix["full"] == math.ceil(100 / 9)


def test_mix_without_shuffles_two_screens_per_flip():
    # 200 updates: full at 0, 9, ..., 198 -> 23
    assert power.refresh_mix(100, shuffle_every=None) == {"full": 23, "fast": 177, "partial": 0}


def test_mix_with_a_shuffle_every_15_flips_the_guides_session():
    # By hand: updates 2(i-1) (flip screen) and 2(i-1)+1 (home) for flip i;
    # full at 0, 9, 18, 27, then the reshuffling flips 15, 30, ..., 90 force
    # their flip screen (update 28, 58, 88, 118, 148, 178) and restart the
    # count of 9: 0 9 18 27 28 37 46 55 58 67 76 85 88 97 106 115 118 127 136
    # 145 148 157 166 175 178 187 196 -> 27 full.
    mix = power.refresh_mix()
    assert power.SHUFFLE_EVERY_FLIPS == 15 and power.SCREENS_PER_FLIP == ("flip", "home")
    assert mix == {"full": 27, "fast": 173, "partial": 0}


def test_a_board_that_wakes_for_every_flip_draws_home_fully_first():
    # each flip: wake -> home (full), B -> flip (fast, or full on the six
    # reshuffling flips), A -> home (fast): 100 + 6 full, 300 updates
    assert power.refresh_mix(wake_each_flip=True) == {"full": 106, "fast": 194, "partial": 0}
    assert power.refresh_mix(wake_each_flip=True, shuffle_every=None) == {"full": 100, "fast": 200, "partial": 0}


def test_the_idle_power_off_is_read_from_the_firmware():
    text = (ROOT / "firmware" / "app.py").read_text()
    expr = re.search(r"^\s*IDLE_OFF_MS\s*=\s*([0-9 *+]+)", text, re.M).group(1)
    assert power.IDLE_OFF_S == eval(expr, {"__builtins__": {}}) / 1000  # digits, * and + only
    assert power.IDLE_OFF_S > 60  # so at 60 flips/hour the board stays awake between flips


# ------------------------------------------------------ arithmetic by hand
def test_pico_estimate_by_hand():
    hours, bd = power.estimate_hours("pico-epaper29", flips_per_hour=60)
    # 60 flips -> 120 updates: 0.27 x 60 = 16.2 full, 1.73 x 60 = 103.8 fast
    t_full, t_fast = 16.2 * 3.0, 103.8 * 0.5               # 48.6 s, 51.9 s of panel
    panel_ma = 26.4 / 3.3 * 3.3 / (3.7 * 0.90)             # 8 mA on the rail, through the buck-boost
    t_panel_wake = 120 * 0.1                               # the SSD1680 woken before each update
    t_fw = 120 * 0.002 * 50                                # 2 ms per press on the PC, x50
    t_idle = 3600 - (t_full + t_fast) - t_panel_wake - t_fw  # awake in the poll loop the rest
    mah = ((t_full + t_fast) * (20 + panel_ma) + (t_panel_wake + t_fw + t_idle) * 20) / 3600
    assert bd["mix_per_100_flips"] == {"full": 27, "fast": 173, "partial": 0}
    assert not bd["sleeps_between_flips"]
    assert bd["average_ma"] == pytest.approx(mah, rel=1e-9)
    assert hours == pytest.approx(1200 * 0.85 / mah, rel=1e-9)
    assert hours == pytest.approx(50.44, abs=0.01)
    assert bd["mah_per_hour"]["panel_full"] == pytest.approx(t_full * panel_ma / 3600)
    assert bd["panel_mj"]["full"] == pytest.approx(26.4 * 3.0)  # mW x s = mJ
    assert bd["panel_mj"]["fast"] == pytest.approx(26.4 * 0.5)


def test_badger_sleeping_between_flips_by_hand():
    hours, bd = power.estimate_hours("badger2040", flips_per_hour=60, idle_off_s=15)
    assert bd["sleeps_between_flips"]
    panel_ma = 8.0 * 3.3 / (3.7 * 0.9)
    # per 100 flips 106 full, 194 fast (the home screen after each wake is full)
    t_upd = 60 * (1.06 * 4.5 + 1.94 * 0.93)  # our UC8151 driver: OTP 4.5 s, 93 frames at 100 Hz
    wake = 60 * (0.5 + 0.0055 * 50) * 20         # boot after the halt, mA*s
    t_fw = 120 * 0.1
    t_idle = 60 * 15
    t_sleep = 3600 - t_upd - t_fw - 60 * (0.5 + 0.275) - t_idle
    mah = (t_upd * (20 + panel_ma) + t_fw * 20 + wake + t_idle * 20 + t_sleep * 0.005) / 3600
    assert hours == pytest.approx(500 * 0.85 / mah, rel=1e-9)


# ---------------------------------------------------------------- monotonic
@pytest.mark.parametrize("board", sorted(power.BOARDS))
@pytest.mark.parametrize("idle_off", [None, 0, 15])
def test_more_flips_an_hour_means_fewer_hours(board, idle_off):
    rates = [1, 5, 10, 12, 13, 30, 60, 90, 120]
    hours = [power.estimate_hours(board, r, idle_off_s=idle_off)[0] for r in rates]
    assert all(a > b for a, b in zip(hours, hours[1:])), list(zip(rates, hours))


@pytest.mark.parametrize("board", sorted(power.BOARDS))
def test_a_bigger_battery_means_more_hours(board):
    small = power.estimate_hours(board, 60, battery_mah=300)[0]
    big = power.estimate_hours(board, 60, battery_mah=1200)[0]
    assert big > small and big == pytest.approx(4 * small)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        power.estimate_hours("magtag", 0)
    with pytest.raises(ValueError):
        power.estimate_hours("magtag", 60, battery_mah=-1)
    with pytest.raises(ValueError):  # the panel cannot refresh that often
        power.estimate_hours("badger2040", 3000)


# ------------------------------------------------ the guides quote the model
def _figure(text, pattern, what):
    m = re.search(pattern, text)
    assert m, "no %s found in the guide (pattern %r)" % (what, pattern)
    return m.group(1)


@pytest.mark.parametrize("board", sorted(GUIDES))
def test_each_guide_quotes_the_models_figures(board):
    text = GUIDES[board].read_text()
    q = power.quoted(board)
    assert int(_figure(text, r"Estimated battery life: \*\*(\d+) hours\*\*", "battery life")) == q["hours"]
    assert int(_figure(text, r"slept between flips: \*\*(\d+) hours\*\*", "what-if figure")) == q["hours_if_sleeping"]
    assert _figure(text, r"Standby, untouched: \*\*([^*]+)\*\*", "standby") == q["standby"]


def test_the_badger_w_figures_in_the_badger_guide():
    text = GUIDES["badger2040"].read_text()
    q = power.quoted("badger2040w")
    assert int(_figure(text, r"Badger 2040 W: \*\*(\d+) hours\*\*", "W battery life")) == q["hours"]


def test_the_hardware_readme_table_quotes_the_model():
    text = (HW / "README.md").read_text()
    rows = {"badger2040": r"\[Badger 2040 / 2040 W\]\(badger2040\.md\)",
            "pico-epaper29": r"\[Pico \+ Pico-ePaper-2\.9\]\(pico-epaper29\.md\)",
            "magtag": r"\[MagTag\]\(magtag\.md\)"}
    for board, name in rows.items():
        m = re.search(name + r"[^\n]*?\*\*(\d+) h\*\*", text)
        assert m, "no hours figure in the README row of " + board
        assert int(m.group(1)) == power.quoted(board)["hours"]


def test_the_badger_refresh_times_are_our_drivers_and_the_guides_quote_them():
    from host_tools import boards

    for name in ("badger2040", "badger2040w"):
        upd = boards.board(name)["power"]["update_s"]
        # fast = 93 and partial = 26 frames at 100 Hz (tests/device/test_board_badger.py
        # counts them on the fake panel); full = the OTP waveform, ~4.5 s
        assert upd == {"full": 4.5, "fast": 0.93, "partial": 0.26}, name
    b = power.BOARDS["badger2040"]
    text = GUIDES["badger2040"].read_text()
    m = re.search(r"counts a full refresh as ([\d.]+) s and a fast one\s+as ([\d.]+) s", text)
    assert m and (float(m.group(1)), float(m.group(2))) == (b.full_s, b.fast_s)
    m = re.search(r"a full refresh is (\d+) mJ, a fast one\s+(\d+) mJ", text)
    assert m and (int(m.group(1)), int(m.group(2))) == (round(b.panel_mj("full")), round(b.panel_mj("fast")))
    row = re.search(r"^\| \[Badger 2040 / 2040 W\][^\n]*\| ([\d.]+) s / ([\d.]+) s \|", (HW / "README.md").read_text(), re.M)
    assert row and (float(row.group(1)), float(row.group(2))) == (b.fast_s, b.full_s)


# ---------------------------------------------- the Pico build's wiring diagram
def _load_diagram():
    spec = importlib.util.spec_from_file_location("_wiring_diagram", HW / "tools" / "wiring_diagram.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pin_map_section(text):
    m = re.search(r"^## Pin map\n(.*?)(?=^## )", text, re.S | re.M)
    assert m, "the Pico guide has no '## Pin map' section"
    return m.group(1)


def test_the_diagram_draws_and_shows_every_gpio_of_the_guides_pin_map(tmp_path):
    wd = _load_diagram()
    out = wd.draw(tmp_path / "wiring.png")
    from PIL import Image

    with Image.open(out) as img:
        assert img.size[0] == 1200
    guide_gpios = set(re.findall(r"\bGP\d+\b", _pin_map_section(GUIDES["pico-epaper29"].read_text())))
    labels = " ".join(wd.labels())
    for gp in guide_gpios:
        assert re.search(r"\b%s\b" % gp, labels), gp + " is in the guide but not in the diagram"
    assert guide_gpios == wd.gpios()  # and the diagram wires nothing the guide leaves out


def test_the_guides_button_rows_are_the_diagrams_and_the_firmwares():
    wd = _load_diagram()
    section = _pin_map_section(GUIDES["pico-epaper29"].read_text())
    rows = dict(re.findall(r"^\|\s*button (A|B|C|UP|DOWN)\s*\|\s*GP(\d+)\b", section, re.M))
    assert {k: int(v) for k, v in rows.items()} == wd.button_pins()
    assert re.search(r"\bGP%d\b" % wd.battery_adc_pin(), section)


def test_the_committed_diagram_is_there():
    from PIL import Image

    with Image.open(HW / "pico-epaper29-wiring.png") as img:
        assert img.size[0] == 1200


# ------------------------------------------------ the guides' pins, from the registry
def test_the_badger_guides_button_gpios_are_the_registrys():
    from host_tools import boards

    section = _section(GUIDES["badger2040"].read_text(), "Pin map")
    rows = re.findall(r"^\|[^|]*\|\s*(A|B|C|UP|DOWN) \([^|]*\|\s*GPIO(\d+)\s*\|", section, re.M)
    for name in ("badger2040", "badger2040w"):
        assert {k: int(v) for k, v in rows} == dict(boards.board(name)["pins"]["buttons"])
    panel = boards.board("badger2040")["pins"]["panel"]
    assert "GPIO%d / %d / %d / %d / %d / %d" % tuple(panel[k] for k in ("busy", "rst", "dc", "cs", "sck", "mosi")) \
        in section


def _badger_row(section, what):
    m = re.search(r"^\| — \| %s[^|]*\|([^|]*)\|([^|]*)\|" % re.escape(what), section, re.M)
    assert m, "no '%s' row in the Badger guide's pin map" % what
    return m.group(1), m.group(2)


def test_the_badger_guides_other_pins_are_the_registrys():
    """Every pin the Badger module takes from the registry is in the guide's
    pin map with the registry's number."""
    from host_tools import boards

    section = _section(GUIDES["badger2040"].read_text(), "Pin map")
    b, w = boards.board("badger2040")["pins"], boards.board("badger2040w")["pins"]
    for key in ("panel", "power_latch"):
        assert b[key] == w[key], key  # one row for both boards
    assert "MISO is GPIO%d" % b["panel"]["miso"] in _badger_row(section, "panel BUSY")[1]
    assert _badger_row(section, "power latch")[0].strip() == "GPIO%d" % b["power_latch"]
    assert _badger_row(section, "activity LED")[0].strip() == \
        "GPIO%d (Badger 2040), GPIO%d (Badger 2040 W)" % (b["led"], w["led"])
    bat = b["battery"]
    assert _badger_row(section, "battery sense")[0].strip() == \
        "GPIO%d (VBAT/%d) against a %s V reference on GPIO%d, switched by GPIO%d" % (
            bat["vbat_adc"], bat["divider"], bat["vref_volts"], bat["vref_adc"], bat["vref_enable"])
    assert w["battery"] is None and "W gives no battery reading" in _badger_row(section, "battery sense")[1]
    rtc = w["rtc"]
    assert _badger_row(section, "RTC")[0].strip() == "I2C%d: SDA GPIO%d, SCL GPIO%d; alarm GPIO%d" % (
        rtc["i2c"], rtc["sda"], rtc["scl"], rtc["alarm"])
    assert "rtc" not in b and "led" in b


def test_the_magtag_guides_buttons_are_the_registrys():
    from host_tools import boards

    section = _section(GUIDES["magtag"].read_text(), "Pin map")
    rows = dict(re.findall(r"^\| ([ABCD]) \([^|]*\| D(\d+) \|", section, re.M))
    rows.update(re.findall(r"^\| ([ABCD]) \| D(\d+) \|", section, re.M))
    assert {k: int(v) for k, v in rows.items()} == dict(boards.board("magtag")["pins"]["buttons"])


def test_the_power_model_is_the_registrys():
    from host_tools import boards

    for name, entry in boards.real_boards().items():
        b = power.BOARDS[name]
        assert (b.battery_mah, b.full_s, b.sleep_ma) == (entry["power"]["battery_mah"],
                                                          entry["power"]["update_s"]["full"],
                                                          entry["power"]["sleep_ma"])


def _section(text, title):
    m = re.search(r"^## %s\n(.*?)(?=^## )" % title, text, re.S | re.M)
    assert m, "no '## %s' section" % title
    return m.group(1)

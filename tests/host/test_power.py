"""The battery model (host_tools/power.py) and the build guides that quote
it: a session's arithmetic by hand per kind of wake, monotonicity, the
refresh mix against firmware/refresh.py, the guides' sessions per board and
mode against the model, and the Pico build's wiring diagram against its
guide."""

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
    "pico-epaper29-cp": HW / "pico-epaper29-cp.md",
}


# ------------------------------------------------------------ the refresh mix
def test_the_policy_is_the_firmwares_and_refreshes_fully_every_seventeenth_update():
    assert power.RefreshPolicy.FULL_EVERY == 16  # firmware/refresh.py; the counts below assume it
    p = power.RefreshPolicy()
    modes = [p.mode("flip", 0) for _ in range(35)]
    assert [i for i, m in enumerate(modes) if m == "full"] == [0, 17, 34]


def test_mix_without_shuffles_one_screen_per_flip_is_ceil_100_over_17_full():
    # updates 0..99 from power-on: full at 0, 17, ..., 85 -> ceil(100/17) = 6
    mix = power.refresh_mix(100, shuffle_every=None, screens=("flip",))
    assert mix == {"full": 6, "fast": 94, "partial": 0, "clean": 0}
    assert mix["full"] == math.ceil(100 / 17)


def test_mix_without_shuffles_two_screens_per_flip():
    # 200 updates: full at 0, 17, ..., 187 -> 12
    assert power.refresh_mix(100, shuffle_every=None) == {"full": 12, "fast": 188, "partial": 0, "clean": 0}


def test_mix_with_a_shuffle_every_15_flips_the_guides_session():
    # By hand: updates 2(i-1) (flip screen) and 2(i-1)+1 (home) for flip i;
    # the reshuffling flips 15, 30, ..., 90 force their flip screen (update
    # 28, 58, 88, 118, 148, 178) and restart the count of 17:
    # 0 17 28 45 58 75 88 105 118 135 148 165 178 195 -> 14 full.
    mix = power.refresh_mix()
    assert power.SHUFFLE_EVERY_FLIPS == 15 and power.SCREENS_PER_FLIP == ("flip", "home")
    assert mix == {"full": 14, "fast": 186, "partial": 0, "clean": 0}


def test_awake_every_pause_past_the_threshold_after_a_fast_update_brings_one_clean_refresh():
    # pauses of 10^6 s on average (each past 180 s): every flip's home screen is cleaned once
    # (flips 15 and 30 reshuffle: their flip screen is full)
    mix = power.refresh_mix(30, pause_s=1e6)
    assert mix == {"full": 1 + 2 + 30, "fast": 60 - 3, "partial": 0, "clean": 30}
    assert power.refresh_mix(30, pause_s=1e-3) == power.refresh_mix(30)  # no pause long enough: none


def test_a_sessions_full_refreshes_are_reported_asleep_and_awake(capsys):
    """Issue 29: the 400 presses of a session, asleep between them (a
    battery: no clean after idle) and awake (a host's USB power), where
    the pauses past 180 s (8 % at a 72 s mean) each bring a clean refresh."""
    (asleep_what, asleep), (awake_what, awake) = power.session_refreshes()
    assert asleep == power.refresh_mix(200) == {"full": 27, "fast": 373, "partial": 0, "clean": 0}
    assert awake["full"] + awake["fast"] == 400 + awake["clean"]
    assert 200 * 0.04 < awake["clean"] < 200 * 0.12 and awake["full"] > asleep["full"]
    assert power.session("pico-epaper29")["mix"] == asleep  # the battery boards' sessions: no clean after idle
    assert power.session("pico-epaper29-cp")["mix"] == awake  # a board that never sleeps sees its pauses
    power.main([])
    out = capsys.readouterr().out
    assert "%s: %d full (0 of them after idle)" % (asleep_what, asleep["full"]) in out
    assert "%s: %d full (%d of them after idle)" % (awake_what, awake["full"], awake["clean"]) in out


def test_the_sleep_after_a_press_is_the_firmwares():
    for path, name in (("firmware/boards/usbserial.py", "SLEEP_AFTER_MS"), ("firmware/boards/magtag.py", "SLEEP_AFTER_MS")):
        m = re.search(r"^\s*%s = (\d+)" % name, (ROOT / path).read_text(), re.M)
        assert m and int(m.group(1)) / 1000 == power.SLEEP_AFTER_S, path


# ------------------------------------------------------ arithmetic by hand
def _by_hand(b, mix, wake_s, wake_q, sleep_ma, flips=200, hours=4):
    presses = 2 * flips
    t_upd = mix["full"] * b.full_s + mix["fast"] * b.fast_s
    awake = presses * (wake_s + 0.1) + t_upd
    q = presses * (wake_q + 0.1 * b.awake_ma) + t_upd * (b.awake_ma + b.panel_ma) + (hours * 3600 - awake) * sleep_ma
    if b.panel_ready:  # kept powered from the update to the board's sleep, at most the refresh's current
        q += presses * 0.1 * b.panel_ma
    return q / 3600


def test_pico_dormant_session_by_hand():
    b = power.BOARDS["pico-epaper29"]
    r = power.session("pico-epaper29")
    assert r["mode"] == "dormant" and r["measured"] and r["presses"] == 400
    mix = power.refresh_mix(200)
    assert r["mix"] == mix and mix["full"] + mix["fast"] == 400
    panel_ma = 26.4 / 3.3 * 3.3 / (3.7 * 0.90)  # 8 mA on the rail, through the buck-boost
    assert b.panel_ma == pytest.approx(panel_ma)
    mah = _by_hand(b, mix, b.press_s, b.press_s * 20.0, 1.3)
    assert r["mah"] == pytest.approx(mah, rel=1e-9)
    assert r["sessions_per_1000"] == pytest.approx(1000 * 0.85 / mah)
    assert r["sessions"] == pytest.approx(1200 * 0.85 / mah)
    assert r["press_to_pixels"]["fast"] == pytest.approx(b.press_s + 0.28)


def test_badger_off_boots_for_every_press_by_hand():
    b = power.BOARDS["badger2040"]
    r = power.session("badger2040", "off")
    mah = _by_hand(b, power.refresh_mix(200), b.boot_s, b.boot_s * 20.0, 0.005)
    assert r["mah"] == pytest.approx(mah, rel=1e-9)
    assert r["press_to_pixels"]["fast"] == pytest.approx(b.boot_s + 0.26)
    dormant = power.session("badger2040", "dormant")
    assert dormant["press_to_pixels"]["fast"] < r["press_to_pixels"]["fast"]  # no boot


def test_magtag_restarts_circuitpython_for_every_press_by_hand():
    """A press's wake: the PPK2's cold boot, not its 1.054 s safe-mode wait
    (CircuitPython 7.0-10.2 skip it when a pin alarm woke the board), then
    the firmware's own boot from compiled modules."""
    b = power.BOARDS["magtag"]
    r = power.session("magtag")
    boot = 0.0055 * 30
    wake_s = 1.329 + boot
    wake_q = 1.329 * 34.91 + boot * 29.0
    assert not r["measured"] and b.panel_ma == pytest.approx(8.0)  # a linear regulator
    assert r["mah"] == pytest.approx(_by_hand(b, power.refresh_mix(200), wake_s, wake_q, 0.25), rel=1e-9)


def test_every_board_and_mode_has_a_row_and_the_goal_is_stated():
    rows = power.table()
    assert [(r["board"], r["mode"]) for r in rows] == [
        (k, m) for k, b in power.BOARDS.items() for m in b.modes]
    for r in rows:
        assert r["meets_goal"] == (r["sessions_per_1000"] >= power.GOAL_SESSIONS == 50)


# ---------------------------------------------------------------- monotonic
@pytest.mark.parametrize("board, mode", [(k, m) for k, b in sorted(power.BOARDS.items()) for m in b.modes])
def test_more_flips_cost_more_and_a_bigger_battery_holds_more_sessions(board, mode):
    mahs = [power.session(board, mode, flips=f)["mah"] for f in (1, 50, 200, 400, 800)]
    assert all(a < b for a, b in zip(mahs, mahs[1:]))
    small = power.session(board, mode, battery_mah=300)["sessions"]
    assert power.session(board, mode, battery_mah=1200)["sessions"] == pytest.approx(4 * small)


def test_bad_arguments_are_refused():
    for kw in ({"flips": 0}, {"hours": 0}, {"battery_mah": -1}, {"mode": "hibernate"}):
        with pytest.raises(ValueError):
            power.session("magtag", **kw)
    with pytest.raises(ValueError):  # the panel cannot refresh that often
        power.session("badger2040", flips=100000)


# ------------------------------------------------ the guides quote the model
def _figure(text, pattern, what):
    m = re.search(pattern, text, re.M)
    assert m, "no %s found in the guide (pattern %r)" % (what, pattern)
    return m.groups()


GUIDE_BOARDS = {"badger2040": ("badger2040", "badger2040w"), "pico-epaper29": ("pico-epaper29",),
                "magtag": ("magtag",), "pico-epaper29-cp": ("pico-epaper29-cp",)}


@pytest.mark.parametrize("guide", sorted(GUIDES))
def test_each_guide_quotes_the_models_sessions_per_board_and_mode(guide):
    text = GUIDES[guide].read_text()
    for board in GUIDE_BOARDS[guide]:
        b = power.BOARDS[board]
        for mode in b.modes:
            q = power.quoted(board, mode)
            row = r"^\| %s, %s\b[^|]*\| \*\*(\d+)\*\* \| (\d+) \| ([\d.]+ s) \| ([^|]+?) \|" % (
                re.escape(b.short), mode)
            got = _figure(text, row, "%s %s row" % (board, mode))
            assert (int(got[0]), int(got[1]), got[2], got[3]) == (
                q["sessions_per_1000"], q["sessions"], q["press_to_pixels"], q["standby"]), (board, mode)
    assert "%d four-hour sessions of %d flips" % (power.GOAL_SESSIONS, power.SESSION_FLIPS) in text


def test_the_hardware_readme_table_quotes_the_model():
    text = (HW / "README.md").read_text()
    rows = {"badger2040": r"\[Badger 2040 / 2040 W\]\(badger2040\.md\)",
            "pico-epaper29": r"\[Pico \+ Pico-ePaper-2\.9\]\(pico-epaper29\.md\)",
            "magtag": r"\[MagTag\]\(magtag\.md\)",
            "pico-epaper29-cp": r"\[Pico \+ Pico-ePaper-2\.9 on CircuitPython\]\(pico-epaper29-cp\.md\)"}
    for board, name in rows.items():
        m = re.search(name + r"[^\n]*?\*\*(\d+) sessions\*\*", text)
        assert m, "no sessions figure in the README row of " + board
        assert int(m.group(1)) == power.quoted(board)["sessions_per_1000"]
    dormant = re.search(r"\[Badger 2040 / 2040 W\][^\n]*?; (\d+) dormant\)", text)
    assert dormant and int(dormant.group(1)) == power.quoted("badger2040", "dormant")["sessions_per_1000"]


def test_the_badger_refresh_times_are_our_drivers_and_the_guides_quote_them():
    from host_tools import boards

    for name in ("badger2040", "badger2040w"):
        upd = boards.board(name)["power"]["update_s"]
        # fast and partial = 26 frames at 100 Hz (tests/device/board_modules/test_badger.py
        # counts them on the fake panel); full = the OTP waveform, ~4.5 s
        assert upd == {"full": 4.5, "fast": 0.26, "partial": 0.26}, name
    b = power.BOARDS["badger2040"]
    text = GUIDES["badger2040"].read_text()
    m = re.search(r"counts a full refresh as ([\d.]+) s and a fast one\s+as ([\d.]+) s", text)
    assert m and (float(m.group(1)), float(m.group(2))) == (b.full_s, b.fast_s)
    m = re.search(r"a full refresh is (\d+) mJ, a fast one\s+(\d+) mJ", text)
    assert m and (int(m.group(1)), int(m.group(2))) == (round(b.panel_mj("full")), round(b.panel_mj("fast")))
    row = re.search(r"^\| \[Badger 2040 / 2040 W\][^\n]*\| ([\d.]+) s / ([\d.]+) s \|", (HW / "README.md").read_text(), re.M)
    assert row and (float(row.group(1)), float(row.group(2))) == (b.fast_s, b.full_s)


def test_the_pico_guide_says_a_pico_w_reads_its_battery():
    text = GUIDES["pico-epaper29"].read_text()
    assert "reads no battery voltage" not in text
    assert re.search(r"GPIO25[^.]*high", text) and "VSYS/3" in text


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
        p = entry["power"]
        assert (b.battery_mah, b.full_s) == (p["battery_mah"], p["update_s"]["full"])
        assert list(b.modes) == list(p["modes"])
        for key, m in p["modes"].items():
            assert (b.modes[key].sleep_ma, b.modes[key].wake) == (m["sleep_ma"], m["wake"])
        if entry["image"] == "rp2040-romfs":  # measured on the emulated Pico, not assumed
            assert b.measured and "press_s" in p and "slowdown" not in p


def test_the_badgers_sleep_settings_are_the_board_modules():
    text = (ROOT / "firmware" / "boards" / "badger2040.py").read_text()
    modes = re.search(r"SLEEP_MODES = \(([^)]*)\)", text).group(1)
    assert [m.strip().strip('"') for m in modes.split(",") if m.strip()] == list(power.BOARDS["badger2040"].modes)
    for key, m in power.BOARDS["badger2040"].modes.items():
        assert m.setting == "sleep=" + key


def _section(text, title):
    m = re.search(r"^## %s\n(.*?)(?=^## )" % title, text, re.S | re.M)
    assert m, "no '## %s' section" % title
    return m.group(1)

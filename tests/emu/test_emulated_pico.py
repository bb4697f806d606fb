"""The real MicroPython rp2 image, running the current device code from its
ROMFS partition, on an emulated Pico + Waveshare Pico-ePaper-2.9: boot,
buttons on GPIO, the link over USB CDC, the panel on SPI with its BUSY
line, littlefs on the flash. One board is booted for the module; the tests
run in order on it.
"""

import time

import pytest
import serial

from host_tools.link import DeviceLink, LinkError
from host_tools.sim.emulated import NS
from tests.emu.conftest import PRESS_WALL, WATCHDOG_S, hello, is_update, press_and_wait, press_and_settle, same_as_twin, settle_flash, \
    unfrozen_names

HUNG = 10.0  # emulated s the core is held: longer than the watchdog's timeout


def test_the_rp2_image_boots_the_game_to_its_home_screen(pico, twin):
    info = hello(pico)
    assert info["board"] == "pico-epaper29" and info["device"] == pico.device_id != "p1"
    if "platform" in info:
        assert info["platform"] == "rp2"
    # issue 27: the battery the ADC reads through the board's divider (3.9 V), and its VBUS sense
    assert abs(info["battery_mv"] - pico.battery_volts * 1000) <= 30 and info["usb"] in (True, False)
    panel = pico.panel()
    assert panel["full"] == 1, "power-on draws the home screen with one full update: %s" % panel["updates"]
    assert any(panel["image"]), "the glass is blank after boot"
    same_as_twin(pico, twin, "the home screen")


def test_a_flip_by_the_boards_buttons_shows_on_the_panel(pico, twin):
    before = hello(pico)
    home = pico.panel_image()
    press_and_wait(pico, "B")
    twin.request("press", button="B")
    assert pico.panel_image() != home, "B flips: the panel must change"
    after = same_as_twin(pico, twin, "after B (flip)")
    assert after["count"] == before["count"] + 1
    assert after["events"] == before["events"] + 1, "the press is an event kept for the host"
    press_and_wait(pico, "A")
    twin.request("press", button="A")
    after = same_as_twin(pico, twin, "after A (end the flip)")
    assert after["count"] == before["count"] + 2


def test_a_flip_over_the_link_shows_on_the_panel(pico, twin):
    count = hello(pico)["count"]
    for op, args in (("flip", {"suit": "blade", "net": 1}), ("end_flip", {})):
        since = pico.event_count()
        with DeviceLink(pico.port, timeout=10.0) as link:
            answer = link.request(op, **args)
        assert answer == twin.request(op, **args), "%s: the two runtimes answer differently" % op
        pico.wait_event(is_update, timeout=PRESS_WALL, since=since)
        same_as_twin(pico, twin, "after %s over the link" % op)
    assert hello(pico)["count"] == count + 2


def test_a_save_survives_a_reset(pico):
    settle_flash(pico)
    before = hello(pico)
    pico.reset()
    pico.wait_event(is_update, timeout=PRESS_WALL)
    after = hello(pico)
    assert (after["digest"], after["count"], after["events"]) == (before["digest"], before["count"],
                                                                    before["events"])


def test_a_board_whose_loop_hangs_is_restarted_by_its_watchdog_into_its_save(pico):
    """Play mode starts rp2's watchdog (8 s; each pass of the loop feeds
    it). A firmware that hangs (here the core held in one wait for 10 s:
    the emulator's time-lapse with a 10 s step) is reset by it within its
    timeout and boots back into its save, the game as it was."""
    settle_flash(pico)
    before = hello(pico)
    since = pico.event_count()
    start = pico.time()
    pico.lapse(HUNG, step=HUNG, timeout=PRESS_WALL)
    bite = pico.wait_event(lambda e: e.get("ev") == "reset", timeout=PRESS_WALL, since=since)
    assert 0 < bite["t"] * NS - start <= WATCHDOG_S, "reset %.2f s after the hang" % (bite["t"] * NS - start)
    pico.wait_event(is_update, timeout=PRESS_WALL, since=since)  # booted again: its screen drawn
    after = hello(pico)
    assert (after["digest"], after["count"], after["events"]) == (before["digest"], before["count"],
                                                                    before["events"])


def test_ctrl_c_and_ctrl_d_on_the_usb_port_do_not_stop_the_game(pico):
    """0x03 is MicroPython's keyboard interrupt and 0x04 its soft reset in
    the REPL; in play mode both are just bytes on the link."""
    hello(pico)
    for byte in (b"\x03", b"\x04", b"\x03\x03\x04"):
        start = pico.time()
        with serial.Serial(pico.port, 115200, timeout=0.1) as port:
            port.write(byte)
            port.flush()
        while pico.time() < start + 0.5:  # let the firmware see it
            time.sleep(0.1)
        pico.send_at(b"\n")  # ends the line the byte began, or the first hello is noise left to its timeout
        try:
            with DeviceLink(pico.port, timeout=5.0, retries=2) as link:
                info = link.hello()
        except LinkError as e:
            raise AssertionError("%r on the USB port stopped the game: %s" % (byte, e))
        count = info["count"]
        # B flips (or, when a critical success asks the player first,
        # answers that): the buttons still reach the rules; A ends the
        # screen. Exact counts per press depend on the deck, not on the bytes.
        press_and_wait(pico, "B")
        after_b = hello(pico)["count"]
        assert after_b > count, "%r on the port: the buttons no longer play" % byte
        press_and_settle(pico, "A")
        assert hello(pico)["count"] >= after_b


def test_the_panel_never_got_a_command_it_would_refuse(pico):
    """Nothing while BUSY, in deep sleep or in reset; no unknown commands,
    wrong lengths or RAM writes outside the window (the checks of
    tests/fakes/ssd1680_panel.py) over everything this module did."""
    panel = pico.panel()
    assert panel["full"] + panel["fast"] >= 1
    assert pico.violations() == []


def test_the_base_image_holds_the_device_codes_names(emulator):
    """Each name the image lacks takes heap at boot (~1,100 of them: ~8 KB,
    and new strings slow down): docs/rp2040.md, "The base image". The
    image's names lag the device code, which costs heap, never
    correctness: more than 5% missing is a one-line skip saying to
    rebuild, not a failure. What must hold: the names module this checkout
    writes for a rebuild holds every name the image lacks."""
    from host_tools.flashing import rp2040

    missing, names, why = unfrozen_names()
    assert set(missing) <= set(rp2040.mpy_names(rp2040.names_mpy(names))), \
        "the names module `deckahedron image --base-names` writes lacks names the device code uses"
    if why:
        pytest.skip(why)


ASK_HEAP = 1536  # bytes an answered ask may add: its module, and its names where the base image lacks them


def test_an_asked_flip_on_the_rp2_image_costs_little_heap(pico):
    """Issue 27: the ask screen, loaded on first use, shown and declined on
    the RP2040 image. Its heap is measured against the boot's (the 64 KB
    budget is bench/bench_pico.py's, with a base image whose names are the
    device code's: a stale one's missing names cost heap, never correctness)."""
    from host_tools.link import DeviceLink

    with DeviceLink(pico.port, timeout=30.0) as link:
        link.request("new_game", confirm=True, seed=7)  # home, whatever the tests before left open
    before = hello(pico)
    with DeviceLink(pico.port, timeout=30.0) as link:
        assert link.request("ask", ask=5, attr="dex", net=1, reason="climb the wall", **{"from": "GM"}) == {"shown": 5}
    press_and_wait(pico, "C")  # declined: home again
    info = hello(pico)
    print("heap after an ask on the emulated Pico: %s used, %s free, lowest free %s"
          % (info["heap_used"], info["heap_free"], info["heap_low"]))
    assert info["heap_used"] - before["heap_used"] <= ASK_HEAP

"""CircuitPython boot file for the Adafruit MagTag and the Pico +
Pico-ePaper-2.9 on CircuitPython (button A: the MagTag's BUTTON_A, the
Pico's GP2, from the board registry when deckahedron.cfg names the board):
runs once at power-on
and at reset (not when code.py reloads), before USB starts.

1. Two USB serial ports: ``usb_cdc.enable(console=True, data=True)``. The
   first stays the REPL; the host link (the table hub, ``deckahedron``)
   uses the second, ``usb_cdc.data``, so a stray byte from the hub never
   interrupts the firmware and the REPL stays free.

2. Saving. CIRCUITPY is one FAT drive that only one side may write: the
   computer (CircuitPython's default) or the code. The game must save after
   every command, so this file gives the drive to the code
   (``storage.remount("/", readonly=False)``); the computer then sees it
   read-only.

   To copy new firmware from a computer, give the drive back for one
   session: hold button A (the leftmost) while pressing reset (or while
   plugging in), and keep holding for a second. The red LED blinks twice,
   the computer can write CIRCUITPY again, and the device shows "USB drive
   mode" instead of the game (it cannot save then). Press reset without
   holding A to play again. Not after a deep sleep: a press on A that
   wakes the board (boot.py runs at every wake) is a move in the game, and
   the player may still be holding it. If this file is ever broken, the board's safe
   mode (press reset again while the LED blinks yellow at start-up) skips
   boot.py and code.py and leaves the drive to the computer.
"""

import time

import board
import digitalio
import storage
import usb_cdc

usb_cdc.enable(console=True, data=True)


def _a_held():
    """Button A held down now, at power-on or reset; False at a wake from
    deep sleep (the waking press is the game's) and if anything fails."""
    try:
        import alarm

        if alarm.wake_alarm is not None:
            return False
    except ImportError:
        pass
    try:
        button = digitalio.DigitalInOut(_button_a())
        button.switch_to_input(pull=digitalio.Pull.UP)
        held = not button.value  # low = held down
        button.deinit()
        return held
    except Exception:  # noqa: BLE001 -- whatever goes wrong, still boot
        return False


def _button_a():
    """The MagTag's BUTTON_A; on another board, button A's GPIO from the
    registry entry deckahedron.cfg names."""
    pin = getattr(board, "BUTTON_A", None)
    if pin is not None:
        return pin
    name = None
    with open("deckahedron.cfg") as f:
        for line in f:
            key, _, value = line.strip().partition("=")
            if key.strip() == "board":
                name = value.strip()
    import json

    with open("boards/boards.json") as f:
        buttons = json.load(f)["boards"][name]["pins"]["buttons"]
    import microcontroller

    return getattr(microcontroller.pin, "GPIO%d" % dict(buttons)["A"])


usb_mode = _a_held()
if usb_mode:
    try:
        led = digitalio.DigitalInOut(board.LED)
        led.switch_to_output(value=False)
        for _ in range(2):
            led.value = True
            time.sleep(0.15)
            led.value = False
            time.sleep(0.15)
        led.deinit()
    except Exception:  # noqa: BLE001
        pass
else:
    storage.remount("/", readonly=False)

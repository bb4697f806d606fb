"""Device entry point on CircuitPython (the Adafruit MagTag). Copy the
firmware (app.py, render.py, ... and boards/), shared_rules/, this file and
boot.py to the CIRCUITPY drive; CircuitPython runs boot.py at reset, then
this file.

It builds the MagTag board (boards/magtag.py), a renderer that draws into
the board's displayio bitmap (CircuitPython has no framebuf: surface.py),
and runs the same App as main.py does on MicroPython. When boot.py left the
drive to the computer (button A held at reset), the game cannot be saved:
the panel says so and the game does not start.
"""

import sys


def _paths():
    # On the board everything sits at the drive root, already on sys.path;
    # from a repo checkout (tests) firmware/ and the repo root are added.
    try:
        here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    except NameError:
        here = "."
    if here not in sys.path:
        sys.path.insert(0, here)
    if here + "/.." not in sys.path:
        sys.path.append(here + "/..")


def device_id():
    try:
        import binascii
        import microcontroller

        return binascii.hexlify(microcontroller.cpu.uid).decode()
    except (ImportError, AttributeError):
        return "magtag"


def make_board():
    from boards.magtag import MagTagBoard

    return MagTagBoard()


def notice(board, renderer, title, lines):
    """A message screen straight on the panel (no App needed)."""
    renderer.render({"screen": "message", "title": title, "lines": lines, "hint": ""})
    board.show(renderer.buf, "full")
    board.flush()


def usb_mode(board, renderer):
    """The drive belongs to the computer: say so and wait for a reset."""
    lines = ["The computer may write", "CIRCUITPY now, so this", "device cannot save a", "game. Press reset",
             "(without holding A)", "to play."]
    if board.port is None:
        lines = ["boot.py did not run:", "copy it to CIRCUITPY", "with code.py, then", "press reset."]
    notice(board, renderer, "USB drive mode", lines)
    while True:
        board.serial_read(1000)
        board.buttons()  # presses do nothing here


def main():
    _paths()
    board = make_board()
    from render import Renderer

    renderer = Renderer(fb=board.surface)
    if board.read_only:
        usb_mode(board, renderer)
    from app import App

    app = App(board, device_id())
    app.renderer = renderer  # draw into the MagTag's bitmap (no framebuf here)
    try:
        app.run()
    except Exception as e:  # show it on the panel, then let CircuitPython report it
        try:
            notice(board, renderer, "Firmware error", [type(e).__name__, str(e)[:34], "", "Press reset."])
        except Exception:  # noqa: BLE001
            pass
        raise


if __name__ == "__main__":
    main()

"""Device entry point on CircuitPython (the Adafruit MagTag; the Pico +
Pico-ePaper-2.9 on CircuitPython). Copy the firmware (app.py, render.py, ...
and boards/), shared_rules/, this file and boot.py to the CIRCUITPY drive
(`deckahedron flash --board BOARD` does); CircuitPython runs boot.py at
reset, then this file.

It builds the board deckahedron.cfg names (``board=``; the MagTag without
one) from the board registry, a renderer that draws into the board's displayio
bitmap (CircuitPython has no framebuf: surface.py), and runs the same App as
main.py does on MicroPython, with the file's ``seed=`` and ``id=`` where an
emulated board's host wrote them. When boot.py left the drive to the
computer (button A held at reset), the game cannot be saved: the panel says
so and the game does not start. A 0x03 on the console port (the REPL's
Ctrl-C: CircuitPython has no micropython.kbd_intr to turn it off) raises
KeyboardInterrupt in the game: code.py reloads (a whole heap) and the game
goes on from its save, as after a crash.
"""

import gc
import sys


def _paths():
    # On the board everything sits at the drive root, already on sys.path;
    # from a repo checkout (tests: firmware/entry/code.py) firmware/ and the
    # repo root are added.
    try:
        here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    except NameError:
        here = "."
    if here.endswith("entry"):
        here += "/.."
    if here not in sys.path:
        sys.path.insert(0, here)
    if here + "/.." not in sys.path:
        sys.path.append(here + "/..")


CONFIG = "deckahedron.cfg"


def config(path=CONFIG):
    """deckahedron.cfg's ``key=value`` lines as a dict ({} without one).
    start.config's twin: importing start.py here would put all its code in
    CircuitPython's heap (its .mpy is loaded into RAM) for these lines."""
    out = {}
    try:
        with open(path) as f:
            for line in f:
                key, eq, value = line.strip().partition("=")
                if eq and value.strip():
                    out[key.strip()] = value.strip()
    except OSError:
        pass
    return out


def device_id():
    given = config().get("id")
    if given:
        return given
    try:
        import binascii
        import microcontroller

        return binascii.hexlify(microcontroller.cpu.uid).decode()
    except (ImportError, AttributeError):
        return "magtag"


def make_board():
    name = config().get("board") or "magtag"
    from boards import spec

    cls = spec(name)["class"]
    return getattr(__import__(spec(name)["module"], None, None, [cls]), cls)()


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

    seed = config().get("seed")
    while True:
        app = App(board, device_id(), None if seed is None else int(seed))
        app.renderer = renderer  # draw into the board's bitmap (no framebuf here)
        try:
            # after a crash's reload, the table of names at the home screen: a session that
            # crashed asking for it from a cut-up heap gets past that press from the same save
            app.run(board.make_name_table if _reloaded() else None)
            return
        except KeyboardInterrupt:
            # a 0x03 on the console port: go on from the save, with a whole heap (a new App
            # beside the old one's leftovers ran out of memory answering the next request)
            app = None
            _reload(board)
        except Exception as e:
            app = None  # the game's screens and objects, freed for the crash log's writing
            _crashed(board, renderer, e)


def _reloaded():
    """True when code.py runs again after its own reload (a crash's, a
    Ctrl-C's), not after a power-on or a reset."""
    try:
        import supervisor

        return supervisor.runtime.run_reason == supervisor.RunReason.SUPERVISOR_RELOAD
    except (ImportError, AttributeError):  # CPython (the tests' fakes)
        return False


def _reload(board):
    """CircuitPython's soft reload: ends code.py (a ReloadException) and
    runs it again, the USB link up, the board first letting go of its panel.
    Where there is none (CPython's tests), a collection and back to the
    caller."""
    try:
        import supervisor
    except ImportError:
        supervisor = None
    if supervisor is not None and hasattr(supervisor, "reload"):
        try:
            board.deinit()
        except Exception:  # noqa: BLE001 - the reload matters more
            pass
        supervisor.reload()
    gc.collect()


def _crashed(board, renderer, e):
    """As a MicroPython board does (start._crashed): the error into crash.log
    on the drive, then a soft reload, which starts the game again from its
    save with a whole heap (the USB link stays up). Where the log cannot be
    written (no room left), the error on the console, as CircuitPython's
    own errors are; where no reload comes (CPython's tests), on the panel."""
    try:
        gc.collect()  # a MemoryError's crash: what the failed press held goes first
        import traceback

        from app import crash_cause
        from saves import log_crash

        e = crash_cause(e)
        log_crash(board.flash_dir, "".join(traceback.format_exception(e)))
    except Exception:  # noqa: BLE001 - out of memory or of drive: the reload matters more
        try:
            print("crash.log not written:", type(e).__name__, e)  # the console (the REPL) keeps the cause
        except Exception:  # noqa: BLE001
            pass
    _reload(board)
    try:
        notice(board, renderer, "Firmware error", [type(e).__name__, str(e)[:34], "", "Press reset."])
    except Exception:  # noqa: BLE001
        pass
    raise e


if __name__ == "__main__":
    main()

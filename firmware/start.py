"""What main.py starts on a MicroPython board (and in the simulator):
power_on.py picks the board (the config, the pins, A and C held for the
REPL) and is dropped again, then play mode (_play) runs until the host asks
for the REPL.

It is a module of its own, not main.py, so that on an RP2040 board its
bytecode stays in flash with the rest of the device code (ROMFS):
MicroPython compiles main.py into RAM at every boot.
"""

import gc
import sys

# On the official MicroPython image (no ROMFS) every module's code is copied
# into the heap as it loads, and boot's modules and their passing objects
# leave the free heap in pieces: the first menu a player opened could not be
# loaded (1,280 B refused with 87 KB free, on the emulated Pico). A block
# taken before anything else loads and given back once the home screen is
# up (_give_back) keeps one run of 16 KB whole for the modules loaded on
# first use. From ROMFS the code stays in flash: no block.
_reserve = None if __file__.startswith("/rom/") else bytearray(16 * 1024)


def main(argv):
    chosen = _power_on(argv)
    if chosen is not None:
        _play(*chosen)


def _power_on(argv):
    """power_on.setup, its module dropped once it has answered: its code
    leaves the heap (the names it interned stay)."""
    import power_on

    try:
        return power_on.setup(argv)
    finally:
        sys.modules.pop("power_on", None)


def _keyboard(on):
    """A 0x03 byte on the USB port raises KeyboardInterrupt unless this is
    off: off in play mode, on again for the REPL."""
    try:
        import micropython

        micropython.kbd_intr(3 if on else -1)
    except (ImportError, AttributeError):
        pass


def _play(board, device_id, seed):
    """Play mode: the app runs until the host asks for the REPL (op repl).
    An uncaught error is logged (crash.log on the flash; the sim board's
    log too) and the board resets into its save; tracebacks never go onto
    the serial link, which belongs to the protocol."""
    from app import App, LeaveApp

    while True:
        _keyboard(False)
        try:
            App(board, device_id, seed).run(_give_back)
        except LeaveApp:
            board.stop_watchdog()  # else it resets the board under mpremote
            _keyboard(True)
            return
        except KeyboardInterrupt:
            pass  # a 0x03 let through where kbd_intr is missing: go on from the save
        except Exception as e:
            _crashed(board, e)


def _give_back():
    global _reserve
    _reserve = None
    gc.collect()


def _crashed(board, e):
    try:
        from app import crash_cause

        text = _traceback(crash_cause(e))
        from saves import log_crash

        log_crash(board.flash_dir, text)
        board.log(text)
    except Exception:  # out of memory or flash: resetting matters more
        pass
    board.reset()  # machine.reset() on a board: does not return
    import time

    time.sleep(0.2)  # the sim board restarts in-process; never a tight loop


def _traceback(e):
    try:
        import io

        buf = io.StringIO()
        sys.print_exception(e, buf)  # MicroPython
        return buf.getvalue()
    except AttributeError:  # CPython
        import traceback

        return "".join(traceback.format_exception(type(e), e, e.__traceback__))


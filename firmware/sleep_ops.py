"""What the app does before the board sleeps (App.sleep): loaded when the
board first sleeps, so a board being played keeps this code out of its heap
on the official MicroPython image."""

import json

from app import _ticks


def sleep(app):
    """Sleep until the next press, the state saved. The panel keeps the
    last screen (e-ink needs no power for that) and the press that
    wakes the board acts on it: the board reports it from buttons(),
    and its refresh policy goes on where it was (the panel's image was
    not lost). Where the sleep loses the RAM (a Badger switched off, a
    MagTag), an open menu is closed first (redrawn) and the home
    screen's choices are kept in a file (keep_rest). A low battery is
    said on the panel first, once; an empty one stays on the panel,
    with no play, until it is charged."""
    app.commit()
    if app.board.sleep_loses_ram():
        if app.ui.stack and app.game is not None:  # the panel shows what the waking press acts on
            app.ui.home()
            app.show()
        keep_rest(app)
    volts = app._volts()
    if volts is not None and app.BATTERY_EMPTY_V <= volts < app.BATTERY_LOW_V and not app.battery_said:
        app.battery_said = True
        app.ui.notice("Battery low", ["%.2f V: charge it soon." % volts, "Your game is saved", "after every press."])
        app.show()
    if volts is not None and volts < app.BATTERY_EMPTY_V:
        app.ui.notice("Battery empty", ["%.2f V. Charge it:" % volts, "your game is saved", "and waits for you."],
                      sticky=True)
        app.show()
        while volts is not None and volts < app.BATTERY_EMPTY_V:
            app.board.power_off()  # on battery a Badger is off here; others wake to look again
            app.board.buttons()  # no play on an empty cell
            volts = app._volts()
        app.ui.pop()
        app.dirty = True
    else:
        app.board.power_off()  # on battery: power is cut (Badger "off"); else returns at the next press
    app.last_input = _ticks()


def keep_rest(app):
    """The Ui's resting state in its file (App.REST_FILE), written only when it changed."""
    rest = app._rest()
    if rest == app._rest_kept:
        return
    path = app.board.flash_dir + "/" + app.REST_FILE
    with open(path, "w") as f:
        f.write(json.dumps(rest))
    app._rest_kept = rest

"""A device's power as the GM sees it (the console's status, the page),
from what its hello and state carry (shared_rules/protocol.py: battery_mv,
usb). Low is the level at which the device warns its player too."""

from shared_rules import protocol as P

CABLE_MV = 4300  # above a charged LiPo's 4.2 V: a cable, not a cell, feeds the board


def on_cable(state):
    return state.get("usb") is True or (state.get("battery_mv") or 0) > CABLE_MV


def percent(mv):
    """A cell's charge from empty to full, 0..100, linear in volts (a guide, not a gauge)."""
    empty, _, full = P.BATTERY_MV
    return max(0, min(100, (mv - empty) * 100 // (full - empty)))


def is_low(state):
    mv = state.get("battery_mv")
    return mv is not None and not on_cable(state) and mv < P.BATTERY_MV[1]


def battery_words(state):
    """One short phrase: 'USB power', '62% (3.80 V)', '6% (3.35 V), low',
    'no battery sensed', or 'not reported' by a device without the fields."""
    if on_cable(state):
        return "USB power"
    mv = state.get("battery_mv")
    if mv is None:
        return "no battery sensed" if "battery_mv" in state else "not reported"
    return "%d%% (%.2f V)%s" % (percent(mv), mv / 1000, ", low" if is_low(state) else "")

"""A device's power as the GM sees it (issue 27, 'Battery, seen by the GM'):
the words the console's status and the page show, when it is low, and what
the hub accepts of the fields (an older device has none)."""

from host_tools.table import check as V
from host_tools.table.battery import battery_words, is_low
from shared_rules import protocol as P


def test_usb_power_is_said_as_such_not_as_a_percentage():
    assert battery_words({"battery_mv": 4100, "usb": True}) == "USB power"
    assert battery_words({"battery_mv": 4700, "usb": None}) == "USB power"  # over a LiPo's 4.2 V: a cable
    assert not is_low({"battery_mv": 3000, "usb": True})


def test_a_cell_is_said_in_percent_and_volts_and_low_where_the_device_warns_its_player():
    assert battery_words({"battery_mv": 4100, "usb": False}) == "100% (4.10 V)"
    assert battery_words({"battery_mv": 3700, "usb": None}) == "50% (3.70 V)"
    low = P.BATTERY_MV[1] - 1
    assert is_low({"battery_mv": low}) and battery_words({"battery_mv": low}).endswith(", low")
    assert not is_low({"battery_mv": P.BATTERY_MV[1]})


def test_an_older_device_without_the_fields_is_not_reported_and_never_low():
    assert battery_words({"digest": "x"}) == "not reported" and not is_low({"digest": "x"})
    assert battery_words({"battery_mv": None, "usb": None}) == "no battery sensed"


def test_the_hub_refuses_power_fields_that_are_not_what_the_wire_says():
    hello = {"device": "d1", "battery_mv": 3900, "usb": False}
    assert V.hello_problem(hello) == ""
    assert V.hello_problem({"device": "d1"}) == ""  # an older device
    assert "battery_mv" in V.hello_problem(dict(hello, battery_mv="3.9"))
    assert "battery_mv" in V.hello_problem(dict(hello, battery_mv=True))
    assert "usb" in V.hello_problem(dict(hello, usb="yes"))

"""Playing alone: button presses with no host to acknowledge their events,
on the emulated Pico. Every command a press makes is an event kept for the
host (or counted as dropped) and written into the save; the game must keep
going with its memory and its save bounded, and end where the unix-port
board ends with the same presses. The long run (500 flips) is in
`make bench` (bench/bench_pico.py): a press costs ~0.7 s of emulated
RP2040 time, ~2.5 s of wall time here.
"""

from tests.emu.conftest import hello, press_and_settle

# B flips at home and flips again from a flip; UP raises the odds at home,
# moves a tie's or a critical success's cursor (to "No thanks") and does
# nothing on an open flip: the game never sticks in a menu.
PATTERN = ("B", "UP")
PRESSES = 12


def test_flips_with_no_host_keep_the_game_going(pico, twin):
    start = hello(pico)
    assert start["digest"] == twin.hello()["digest"]
    for i in range(PRESSES):
        button = PATTERN[i % len(PATTERN)]
        press_and_settle(pico, button)
        twin.request("press", button=button)
    info, other = hello(pico), twin.hello()
    made = info["count"] - start["count"]
    assert made >= PRESSES // 2, "%d presses made only %d commands: the board stopped playing" % (PRESSES, made)
    assert (info["digest"], info["count"]) == (other["digest"], other["count"]), (
        "after the same %d presses the emulated Pico and the unix-port board differ: presses lost or doubled"
        % PRESSES)
    assert info["events"] + info["events_dropped"] - start["events"] == made, (
        "every command made by a button is an event kept for the host or counted as dropped")
    if "heap_low" in info:
        print("lowest free heap after %d presses with no host: %d B" % (PRESSES, info["heap_low"]))
    assert pico.violations() == []

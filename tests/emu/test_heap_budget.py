"""The device's heap budget on every emulated RP2040 board: <= 64 KB in use
after boot and at the peak of a session of rules commands over the link
(shared/design.md section 3; docs/benchmarks.md has today's figures, make
bench the 200-command session). It holds when the base image's frozen names
match the code: with an image whose names lag, each missing name costs heap
and the test skips saying so."""

import pytest

from bench.bench_pico import session_commands
from host_tools.link import DeviceLink
from tests.emu.conftest import booted, hello, unfrozen_names

HEAP_BUDGET = 64 * 1024
SESSION = 60  # commands: flips, ties chosen, flips ended (make bench: 200)


@pytest.fixture(scope="module")
def fresh_names(emulator):
    missing, _, why = unfrozen_names()
    if missing:
        pytest.skip(why or "the base image lacks %d of the device code's names (%s, ...): each costs heap; "
                           "rebuild it with `make base-image` to measure the budget" % (len(missing), ", ".join(missing[:3])))


@pytest.mark.slow
@pytest.mark.parametrize("board", ("pico-epaper29", "badger2040", "badger2040w"))
def test_heap_in_use_stays_within_the_budget(fresh_names, tmp_path, board):
    for emu in booted(tmp_path, board=board):
        boot = hello(emu)
        assert boot["heap_used"] <= HEAP_BUDGET, (board, "after boot", boot["heap_used"])
        with DeviceLink(emu.port, timeout=30.0) as link:
            session_commands(link, SESSION)
            end = link.hello()
        peak = end["heap_used"] + end["heap_free"] - end["heap_low"]
        print("%s: heap in use after boot %d B, at the session's peak %d B" % (board, boot["heap_used"], peak))
        assert peak <= HEAP_BUDGET, (board, "session's peak", peak)

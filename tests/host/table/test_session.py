"""A whole table end to end: four simulated boards running the real firmware
over real pseudo-terminals, driven through the GM's hub.

A seeded session of 240+ commands across every rules area, with flips made
by button presses arriving at the host as events; afterwards every device's
state is sound (loaded from its backup, so card conservation is checked),
the shared supply is consistent across players, and the log holds every
command and event.
"""

import random
import time

import pytest

from host_tools.link import DeviceError
from host_tools.sim.unixport import SimTable
from host_tools.table.errors import TableError
from shared_rules.deck import cards as C
from shared_rules.deck.game import Game
from tests.host.conftest import seated_table, wait_hello

NAMES = ("Ann", "Bo", "Cy", "Di")
AREAS = ("flip", "choose", "end_flip", "flashback", "bump", "reshuffle", "reveal", "damage", "take_blessing",
         "take_wound", "breather", "rest", "seek_help", "set_attr", "set_move", "study", "mercy_flashback",
         "minigame_start", "minigame_exhaust", "minigame_end", "teamwork", "press", "set_edition", "gain_xp")


@pytest.fixture
def table(firmware, tmp_path):
    with seated_table(4, tmp_path, 11, NAMES) as (hub, sims):
        yield hub, sims


def _finish_flip(hub, name, rng, counts):
    p = hub.player(name)
    f = p.state.get("flip")
    if f is None:
        return
    if f["phase"] == "choose":
        hub.command(name, "choose", card=rng.choice(f["tied"]))
        counts["choose"] += 1
        f = hub.player(name).state["flip"]
    if rng.random() < 0.25 and p.state.get("xp", 0) >= 2 and not f["flashback"]:
        f = hub.command(name, "flashback")
        counts["flashback"] += 1
        if f["phase"] == "choose":
            hub.command(name, "choose", card=f["tied"][0])
        if hub.player(name).state["flip"]["level"] < 4:
            hub.command(name, "bump")
            counts["bump"] += 1
    f = hub.player(name).state["flip"]
    args = {}
    if C.CARDS[f["resolving"]].crit == "success":
        args["crit"] = "blessing"
    hub.command(name, "end_flip", **args)
    counts["end_flip"] += 1


def _act(hub, name, rng, counts):
    """One step of the session for one player; refusals are part of play."""
    p = hub.player(name)
    s = p.state
    roll = rng.random()
    if s.get("incapacitated"):
        hub.command(name, "seek_help", keep="worst")
        counts["seek_help"] += 1
        return
    if roll < 0.35:
        hub.command(name, "flip", attr=rng.choice(("str", "dex", "int")), net=rng.randint(-3, 3),
                    fast=rng.random() < 0.1)
        counts["flip"] += 1
        _finish_flip(hub, name, rng, counts)
    elif roll < 0.45:
        hub.command(name, "press", button="B")
        counts["press"] += 1
        f = hub.player(name).state.get("flip")
        if f and f["phase"] == "choose":
            hub.command(name, "press", button="B")
        hub.command(name, "press", button="A")
        f = hub.player(name).state.get("flip")
        if f is not None:  # a critical success menu is open: take the Blessing (second row)
            hub.command(name, "press", button="DOWN")
            hub.command(name, "press", button="B")
            hub.command(name, "press", button="A")  # the Blessing taken (or the refusal) is on screen until a press
    elif roll < 0.52:
        power = rng.randint(1, 7)
        how = rng.choice(({}, {}, {"wounds": 1}, {"harm": 1}))
        if "harm" in how and power < 3:
            how = {}
        hub.deal_damage(name, power, **how)
        counts["damage"] += 1
    elif roll < 0.56:
        hub.command(name, "reveal", kind=rng.choice(("d4", "d6", "d10")))
        counts["reveal"] += 1
    elif roll < 0.60:
        hub.command(name, "breather", tokens=0, facedown=min(2, s.get("exhaustion", 0)) or 1)
        counts["breather"] += 1
    elif roll < 0.63:
        hub.command(name, "rest", keep="worst")
        counts["rest"] += 1
    elif roll < 0.65:
        hub.command(name, "seek_help", keep="worst", hearth=rng.random() < 0.3)
        counts["seek_help"] += 1
    elif roll < 0.68:
        hub.command(name, "take_blessing")
        counts["take_blessing"] += 1
    elif roll < 0.70:
        hub.command(name, "take_wound")
        counts["take_wound"] += 1
    elif roll < 0.73:
        hub.command(name, "reshuffle")
        counts["reshuffle"] += 1
    elif roll < 0.76:
        hub.command(name, "gain_xp", n=2)
        counts["gain_xp"] += 1
        move = rng.choice(("Defy Danger", "Mix It Up"))
        hub.command(name, "study", move=move)
        counts["study"] += 1
    elif roll < 0.78:
        hub.command(name, "set_move", name="Volley", level=rng.choice(("wild", "novice", "base", "expert")))
        counts["set_move"] += 1
    elif roll < 0.80:
        hub.command(name, "set_attr", attr=rng.choice(("str", "dex", "int")), suit=rng.choice(C.SUITS))
        counts["set_attr"] += 1
    elif roll < 0.82:
        hub.command(name, "mercy_flashback")
        counts["mercy_flashback"] += 1
    elif roll < 0.87:
        hub.command(name, "minigame_start", kind=rng.choice(("pick_locks", "magic")))
        counts["minigame_start"] += 1
        table = hub.player(name).state["table"]
        hub.command(name, "minigame_exhaust", card=rng.choice(table))
        counts["minigame_exhaust"] += 1
        try:
            hub.command(name, "minigame_end")
        except DeviceError:
            hub.command(name, "minigame_end", abandon=True)
        counts["minigame_end"] += 1
    elif roll < 0.95:
        others = [n for n in NAMES if n != name and not hub.player(n).state.get("incapacitated")]
        if others:
            hub.teamwork(name, rng.sample(others, min(2, len(others))), attr="dex")
            counts["teamwork"] += 1
    else:
        hub.command(name, "set_edition", campaign=rng.choice(("9h", "30h")))
        counts["set_edition"] += 1


def _device_state(hub, name):
    """The device's real state, loaded from its backup (which re-checks
    conservation and the save's check value)."""
    return Game.load(hub.player(name).link.backup())


def test_four_boards_play_a_long_session(table):
    hub, sims = table
    rng = random.Random(2024)
    counts = {a: 0 for a in AREAS}
    refused = 0
    for name in NAMES:
        hub.command(name, "set_edition", campaign="9h")
    step = 0
    while sum(counts.values()) < 240 or min(counts[a] for a in AREAS) == 0:
        name = NAMES[step % 4]
        step += 1
        assert step < 2000, "the session did not reach every rules area: %r" % counts
        try:
            _act(hub, name, rng, counts)
        except (DeviceError, TableError):
            refused += 1
            for n in NAMES:  # never leave a flip or mini-game open after a refusal
                hub.refresh(hub.player(n))
                st = hub.player(n).state
                if st.get("flip"):
                    hub.command(n, "end_flip", **({"resolved": False} if st["flip"].get("team") else {}))
                if st.get("minigame"):
                    hub.command(n, "minigame_end", abandon=True)
        hub.poll(0)
        assert hub.conflicts() == []
        if step % 25 == 0:
            for n in NAMES:
                assert _device_state(hub, n).s.conservation_error() is None
    hub.poll(0.5)

    # every device sound, and the host's mirror current
    for n in NAMES:
        g = _device_state(hub, n)
        assert g.digest() == hub.player(n).link.hello()["digest"] == hub.player(n).state["digest"]
        assert hub.player(n).link.hello()["events"] == 0  # every event acknowledged

    # the shared supply: every supply card is with exactly one player or in the supply
    held = [cid for cards in hub.holdings().values() for cid in cards]
    assert sorted(held + hub.supply()) == sorted(C.SUPPLY_SETS["print"][0] + C.SUPPLY_SETS["print"][1])
    assert len(held) == len(set(held))

    # the log: every host command, every button event, every flip
    rows = hub.db.execute("SELECT kind, COUNT(*) FROM log WHERE session = ? GROUP BY kind", (hub.session,)).fetchall()
    kinds = dict(rows)
    assert kinds.get("event", 0) >= 2 * counts["press"]  # a button flip and its end, at least
    button_flips = hub.db.execute("SELECT COUNT(*) FROM flips WHERE source = 'buttons'").fetchone()[0]
    assert button_flips >= counts["press"] - refused
    assert kinds["command"] + kinds.get("refused", 0) >= sum(counts.values())
    seqs = hub.db.execute("SELECT player, seq FROM log WHERE kind = 'event' ORDER BY id").fetchall()
    for n in NAMES:
        mine = [s for p, s in seqs if p == n]
        assert mine == sorted(set(mine)), "%s: events logged twice or out of order" % n
    assert sum(counts.values()) >= 240


def test_a_replacement_device_takes_a_players_backup(table, tmp_path):
    """The host keeps a backup of every device and restores it onto a
    replacement mid-session."""
    hub, sims = table
    hub.flip("Ann", attr="str", net=1)
    hub.command("Ann", "take_blessing")
    before = hub.player("Ann").state["digest"]
    spare = SimTable(1, str(tmp_path / "spare"), seed=99)
    spare.start()
    try:
        wait_hello(spare.boards[0].port)
        sims.boards[0].kill()  # Ann's device breaks
        hub.restore("Ann", spare.boards[0].port)
        assert hub.player("Ann").state["digest"] == before
        assert hub.player("Ann").link.hello()["name"] == "Ann"
        hub.flip("Ann", attr="str")  # play goes on
        assert hub.conflicts() == []
    finally:
        spare.stop()


def test_shadow_points_and_supply_at_the_table(table):
    hub, sims = table
    for _ in range(12):
        for n in NAMES:
            try:
                hub.flip(n, attr="int", net=-1)
            except DeviceError:
                pass
    earned, spent, left = hub.shadow()
    assert earned == sum(hub.player(n).state["shadow"] for n in NAMES) and earned > 0
    hub.spend_shadow(1, "a GM move")
    assert hub.shadow() == (earned, 1, earned - 1)
    with pytest.raises(TableError):
        hub.spend_shadow(earned + 5)
    # six blessings for four players: the seventh draw finds the supply empty
    taken = []
    for i in range(7):
        try:
            taken.append(hub.command(NAMES[i % 4], "take_blessing")["card"])
        except DeviceError as e:
            assert e.code == "supply_empty" and i == 6
    assert len(set(taken)) == len(taken) == 6 and hub.conflicts() == []
    time.sleep(0)

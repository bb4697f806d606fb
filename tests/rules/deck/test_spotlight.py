"""The spotlight: one FAST move a moment, and Player vs Player combat.

Card levels (anvil blade crown dragon): 4 = 2234, 5 = 2323, 11 = 4444,
14 = 3434, 18 = 3434.
"""

from shared_rules.deck.game import Game
from tests.rules.support import do, refused, stacked


def test_one_fast_move_per_moment_in_the_spotlight():
    """MD *Moves tagged FAST*: "Characters will trigger at most one FAST move
    during their moment in the spotlight"; MD *Shields*: "players may not
    make more than one FAST move per turn in the spotlight"."""
    g = stacked(["4", "5", "14", "18", "11"])
    do(g, "flip", suit="crown")  # Mix It Up
    do(g, "end_flip")
    do(g, "flip", suit="crown", fast=True)  # Where It Hurts
    do(g, "end_flip")
    refused(g, "flip", "fast_used", suit="crown", fast=True)
    do(g, "spotlight")  # the spotlight moves on and comes back
    do(g, "flip", suit="crown", fast=True)
    do(g, "end_flip")
    do(g, "flip", suit="crown")  # a new move opens a new moment
    do(g, "end_flip")
    do(g, "flip", suit="crown", fast=True)


def test_a_supporter_flip_is_not_the_players_moment():
    g = stacked(["4", "5", "14"])
    do(g, "flip", suit="crown", fast=True)
    do(g, "end_flip")
    do(g, "flip", team="support")
    do(g, "end_flip")
    assert g.s.spot == "F"
    refused(g, "flip", "fast_used", suit="crown", fast=True)


def test_attack_power_is_not_rolled_against_another_player():
    """MD *Player vs Player*, *Combat*: "Attack power is not rolled. Instead
    of rolling attack power, the defender alone describes the negative
    consequences"."""
    g = stacked(["4", "5", "14", "18"])
    do(g, "flip", suit="crown", pvp=True)
    do(g, "end_flip")
    refused(g, "reveal", "pvp", kind="d10")
    h = Game.load(g.dump())  # the mark survives a power cut
    refused(h, "reveal", "pvp", kind="d10")
    do(g, "flip", suit="crown", fast=True)  # a FAST move in the same moment
    do(g, "end_flip")
    refused(g, "reveal", "pvp", kind="d10")
    do(g, "spotlight")
    do(g, "reveal", kind="d10")


def test_spotlight_marks_leave_old_saves_alone():
    g = stacked()
    text = g.dump()
    assert "spot" not in text and Game.load(text).s.spot == ""

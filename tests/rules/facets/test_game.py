"""Facets (seed 002): each rule with the seed sentence it comes from.

Portable (CPython and MicroPython): plain test functions, no pytest. Dice
are scripted where a rule needs a known face (Scripted below).
"""

from shared_rules.errors import RulesError
from shared_rules.facets.game import Game, FacetsState, band_of, parse_check, roll_faces
from shared_rules.prng import Rng
from tests.rules.support import raises


class Scripted(Rng):
    """An Rng whose dice come from a list of faces (each below(n) gives the
    next face - 1), so a test knows what a roll shows."""

    def __init__(self, faces):
        Rng.__init__(self, 1)
        self.faces = list(faces)

    def below(self, n):
        face = self.faces.pop(0)
        assert 1 <= face <= n, "scripted face %d is off a d%d" % (face, n)
        return face - 1


def game(faces=(), **options):
    g = Game.new(seed=7, **options)
    g.s.rng = Scripted(faces)
    return g


def do(g, op, **args):
    return g.do(op, args)


def refused(g, op, code, **args):
    before = g.dump()
    e = raises(RulesError, g.do, op, args)
    assert g.dump() == before, "refused %s changed the state" % op
    assert e.code == code, "expected %s, got %s: %s" % (code, e.code, e)
    return e


# "Characters in this game have nine attributes ... Strength S, Finesse F,
# Endurance E, Intellect I, Wit W, Resolve R, Presence P, Guile G, Composure C"
# "Each attribute ... is rated d4 through d20."
def test_nine_attributes_rated_d4_to_d20():
    g = game()
    assert sorted(g.summary()["attrs"]) == sorted("SFEIWRPGC")
    do(g, "set_attr", attr="Finesse", die="d12")
    do(g, "set_attr", attr="w", die=20)
    do(g, "set_attr", attr="str", die=6)  # three letters or more of the name
    assert g.s.attrs["S"] == 6
    assert g.s.attrs["F"] == 12 and g.s.attrs["W"] == 20
    refused(g, "set_attr", "bad_die", attr="F", die=7)
    refused(g, "set_attr", "bad_die", attr="F", die=2)
    refused(g, "set_attr", "bad_attr", attr="Luck", die=8)


# "Meeting the target number of a test means the goal is accomplished. Missing
# by up to 5 ... introduces a cost. Missing by up to 10 means it's just failed
# ... Missing my more than that means the character failed and incurred a
# cost. Exceeding a TN by 5 or more grants an advantage"
def test_bands_by_margin():
    assert [band_of(m) for m in (9, 5, 4, 0, -1, -5, -6, -10, -11, -30)] == [
        "advantage", "advantage", "success", "success", "cost", "cost", "fail", "fail",
        "fail_cost", "fail_cost"]


# "Many actions grant an advantage per every five by which the target is exceeded."
def test_one_advantage_per_five_over():
    g = game([8, 8, 4])  # d8 explodes twice: 20
    r = do(g, "roll", attr="F", tn=8)["roll"]
    assert r["total"] == 20 and r["band"] == "advantage" and r["advantages"] == 2  # margin 12
    assert g.s.last["rolls"][0]["margin"] == 12


# "Rolled dice explode, meaning that a die that rolls its highest result ...
# is rolled again and the result is added."
def test_highest_face_explodes_and_chains():
    g = game([6, 6, 2])
    do(g, "set_attr", attr="S", die=6)
    r = do(g, "roll", attr="S", tn=8)["roll"]
    assert r["faces"] == [6, 6, 2] and r["total"] == 14
    assert g.s.last["rolls"][0]["faces"] == [6, 6, 2]


def test_attribute_die_is_rolled():
    g = game([20, 3])
    do(g, "set_attr", attr="S", die=20)
    r = do(g, "roll", attr="S", tn=8)["roll"]
    assert r["die"] == 20 and r["faces"] == [20, 3]


# "Rolls made under pressure don't explode."
def test_pressure_does_not_explode():
    g = game([8, 5])
    r = do(g, "roll", attr="F", tn=8, mode="pressure")["roll"]
    assert r["faces"] == [8] and r["total"] == 8 and r["band"] == "success"


# "Some abilities may cause a die to explode on a lower result than its highest."
def test_ability_explodes_lower():
    g = game([7, 8, 1])
    r = do(g, "roll", attr="F", tn=8, explode=7)["roll"]
    assert r["faces"] == [7, 8, 1] and r["total"] == 16
    refused(g, "roll", "bad_args", attr="F", tn=8, explode=4)  # our side: above half the die


# "taking half the die's highest result rather than rolling (i.e., 3 on a d6, 5 on a d10, etc.)"
def test_calm_takes_half_the_highest():
    g = game([])  # no die is rolled
    do(g, "set_attr", attr="I", die=6)
    r = do(g, "roll", attr="I", tn=3, mode="calm")["roll"]
    assert r["total"] == 3 and r["faces"] == [3]
    do(g, "set_attr", attr="I", die=10)
    assert do(g, "roll", attr="I", tn=3, mode="calm")["roll"]["total"] == 5


# "A character might gain a +2 bonus to their checks when attempting to lose a tail"
def test_trait_bonus_adds_to_its_attribute():
    g = game([5, 5])
    do(g, "trait_add", name="lose-a-tail", attr="F", bonus=2)
    r = do(g, "roll", attr="F", tn=7, trait="lose-a-tail")["roll"]
    assert r["total"] + r["bonus"] == 7 and r["band"] == "success"
    refused(g, "roll", "trait_attr", attr="S", tn=7, trait="lose-a-tail")
    refused(g, "trait_add", "trait_exists", name="lose-a-tail", attr="S", bonus=1)


# "That looks like [Finesse 8 - 2/5 - 30s] ... they need to make two successes
# on one or more checks. They have five chances to do so, so failing four
# times makes the task impossible."
def test_extended_task_notation():
    assert parse_check("[Finesse 8 - 2/5 - 30s]") == {"attr": "F", "tn": 8, "need": 2, "attempts": 5, "secs": 30}
    assert raises(RulesError, parse_check, "[Finesse eight]").code == "bad_check"


def test_four_failures_of_five_make_it_impossible():
    g = game([1, 1, 1, 1])
    do(g, "task_start", check="[Finesse 8 - 2/5 - 30s]")
    states = [do(g, "task_roll")["task"] for _ in range(4)]
    assert states == ["open", "open", "open", "impossible"]
    assert g.s.task["elapsed"] == 120
    refused(g, "task_roll", "no_task")


def test_task_done_after_two_successes():
    g = game([8, 2, 1, 7])
    do(g, "task_start", attr="F", tn=8, need=2, attempts=5, secs=30)
    assert do(g, "task_roll")["task"] == "open"  # 10: a success
    assert do(g, "task_roll")["task"] == "open"  # 1: a failure
    assert do(g, "task_roll")["task"] == "done"  # 7: success with a cost counts
    assert g.s.task["wins"] == 2 and g.s.task["costs"] == 1
    refused(g, "task_start", "bad_args", attr="F", tn=8, need=6, attempts=5)


# "can take double the usual time per check to make a check calmly"
def test_calm_attempt_takes_double_time():
    g = game([])
    do(g, "task_start", check="[Intellect 4 - 1/3 - 5m]")
    assert do(g, "task_roll", mode="calm")["task"] == "done"
    assert g.s.task["elapsed"] == 600


# "When a character fails a test they earn a point of effort. They earn two on a critical failure."
def test_effort_earned_on_failures():
    g = game([2, 1, 7])
    do(g, "roll", attr="F", tn=10)  # margin -8: failure
    assert g.s.effort == 1
    do(g, "roll", attr="F", tn=13)  # margin -12: failure with a cost (our critical failure)
    assert g.s.effort == 3
    do(g, "roll", attr="F", tn=8)  # a success with a cost is no failure
    assert g.s.effort == 3


# "Effort can be spent to improve rolls" (our side: +2 a point, before the roll)
def test_effort_spent_adds_two_a_point():
    g = game([3, 3])
    do(g, "effort", delta=2)
    r = do(g, "roll", attr="F", tn=7, effort=2)["roll"]
    assert r["total"] + r["bonus"] == 7 and g.s.effort == 0
    refused(g, "roll", "no_effort", attr="F", tn=7, effort=1)


# "A character that attempts to withdraw and is prevented earns three extra points of Effort."
def test_prevented_withdrawal_earns_three():
    g = game()
    do(g, "withdraw", prevented=True)
    assert g.s.effort == 3
    do(g, "withdraw")
    assert g.s.effort == 3


# "Characters start with 10 of each, which may be increased or decreased"
# "When a character's health or cool is reduced to 0 they are taken out."
def test_health_cool_and_taken_out():
    g = game([4])
    assert g.s.points == {"health": 10, "cool": 10}
    do(g, "set_max", track="health", value=12)
    do(g, "damage", track="health", amount=7, armor=2)  # "reduces the damage by ... their armor rating"
    assert g.s.points["health"] == 5
    do(g, "damage", track="health", amount=1, armor=3)  # "to a minimum of 0"
    assert g.s.points["health"] == 5
    assert do(g, "damage", track="health", amount=9)["taken_out"]
    assert g.s.out == "health"
    refused(g, "roll", "taken_out", attr="F", tn=8)


# "A physical conflict results in a character being hurt, while a social conflict leaves the character weary."
# "picks an attribute ... Endurance, by default - and suffer a penalty ... reduces the die size by two steps"
def test_hurt_takes_endurance_two_steps_down():
    g = game()
    do(g, "damage", track="health", amount=10)
    do(g, "taken_out", how="consequence")
    assert g.summary()["ladders"]["health"]["word"] == "hurt"
    assert g.die_for("E") == 4 and g.die_for("S") == 8
    do(g, "damage", track="cool", amount=10)
    do(g, "taken_out", how="consequence", attr="G", penalty="effort")
    assert g.summary()["ladders"]["cool"]["word"] == "weary"
    assert g.penalties("G") == ["effort"]


# "An injured character takes another penalty ..., then applies that penalty
# to both the already-affected attribute and a second attribute. A crippled
# character does it again, applying three penalties to all three physical attributes."
def test_injured_then_crippled_spread():
    g = game()
    g.s.points["health"] = 0
    g.s.out = "health"
    do(g, "taken_out", attr="S")
    g.s.points["health"], g.s.out = 0, "health"
    refused(g, "taken_out", "bad_args", attr="S")  # the second attribute must differ
    do(g, "taken_out", attr="F", penalty="cost")
    assert g.penalties("S") == ["step", "cost"] and g.penalties("F") == ["cost"]
    assert g.die_for("S") == 4 and g.die_for("F") == 8
    g.s.points["health"], g.s.out = 0, "health"
    do(g, "taken_out", penalty="step")
    assert g.summary()["ladders"]["health"]["word"] == "crippled"
    for a in "SFE":
        assert g.penalties(a) == ["step", "cost", "step"]
        assert g.die_for(a) == 4
    assert g.penalties("I") == []


# "A crippled character that gets taken out dies." / "rather than becoming crippled a character simply dies."
def test_death():
    g = game()
    for _ in range(3):
        g.s.points["health"], g.s.out = 0, "health"
        do(g, "taken_out", attr="S" if g.s.ladders["health"][0] == 0 else "F")
    g.s.points["health"], g.s.out = 0, "health"
    assert do(g, "taken_out")["dead"]
    refused(g, "roll", "dead", attr="F", tn=8)
    h = game()
    for attr in ("E", "F"):
        h.s.points["health"], h.s.out = 0, "health"
        do(h, "taken_out", attr=attr)
    h.s.points["health"], h.s.out = 0, "health"
    assert do(h, "taken_out", deadly=True)["dead"]


# "Resisting a deal like that means they spend a point of effort, regain one
# Health, are hurt, and stay in the fight ... If they can't spend the effort,
# they can't resist - they take the deal."
def test_resist_the_deal():
    g = game()
    do(g, "damage", track="health", amount=10)
    refused(g, "taken_out", "no_effort", how="resist")
    g.s.effort = 1
    do(g, "taken_out", how="resist")
    assert g.s.points["health"] == 1 and g.s.effort == 0 and g.s.out == ""
    assert g.summary()["ladders"]["health"]["word"] == "hurt"
    h = game()
    do(h, "damage", track="health", amount=10)
    do(h, "taken_out", how="deal")
    assert h.s.ladders["health"][0] == 0 and h.s.out == ""


# "A character can remove the hurt condition ... with a day of rest. An injured
# character needs a week ... a crippled character needs a month ... Professional assistance halves the time."
def test_condition_recovery_times():
    g = game()
    g.s.ladders["health"] = [3, ["step", "step", "cost"], ["E", "S"]]
    assert do(g, "recover", track="health")["days"] == "30"
    assert do(g, "recover", track="health", professional=True)["days"] == "3.5"
    assert do(g, "recover", track="health")["days"] == "1"
    refused(g, "recover", "no_condition", track="health")


# "A healthy character recovers all their Health or Cool when they have ten
# minutes" / "it's recommended that if it's been longer than 10 minutes but
# less than 4 hours, characters regain up to half" / "An injured character
# regains ... one-third per day ... two days if ... resting" / "Crippled
# characters regain one point of Health per day, two if resting, or three"
def test_regaining_points_by_condition():
    g = game()
    g.s.points["health"] = 2
    do(g, "regain", track="health", minutes=10)
    assert g.s.points["health"] == 10
    g.s.ladders["health"] = [1, ["step"], ["E"]]
    g.s.points["health"] = 2
    do(g, "regain", track="health", hours=1)
    assert g.s.points["health"] == 7
    do(g, "regain", track="health", hours=4)
    assert g.s.points["health"] == 10
    g.s.ladders["health"] = [2, ["step", "step"], ["E", "S"]]
    g.s.points["health"] = 0
    do(g, "regain", track="health", days=1)
    assert g.s.points["health"] == 3
    do(g, "regain", track="health", days=2, resting=True)
    assert g.s.points["health"] == 10
    g.s.ladders["health"] = [3, ["step", "step", "step"], ["E", "S"]]
    g.s.points["health"] = 0
    do(g, "regain", track="health", days=2, resting=True, care=True)
    assert g.s.points["health"] == 6


# "roll initiative: Finesse or Wit - for physical fights or social fights"
def test_initiative_attribute():
    g = game([3, 5])
    do(g, "set_attr", attr="W", die=6)
    assert do(g, "initiative")["roll"]["attr"] == "F"
    r = do(g, "initiative", kind="social")["roll"]
    assert r["attr"] == "W" and r["die"] == 6 and "band" not in r


# "medium weapon ... deals 3 points ... light ... 1 ... Heavy weapons ... 5"
# "adding an extra point of damage for every 5 by which it exceeded the target's defense"
# "Success with a Cost: the attack lands and deals damage, but the defender earns a token"
def test_attack_damage_and_tokens():
    g = game([8, 8, 2, 3, 5])
    r = do(g, "attack", attr="S", tn=8, weapon="heavy")
    assert r["damage"] == 5 + 2 and r["target_tokens"] == 0  # 18: two advantages
    r = do(g, "attack", attr="S", tn=8, weapon="medium")
    assert r["damage"] == 3 and r["target_tokens"] == 1  # 3: cost
    r = do(g, "attack", attr="S", tn=8, weapon="light")
    assert r["damage"] == 1 and r["target_tokens"] == 1


# "When they do so they decrease their by two steps ... A character using a
# heavy weapon cannot do this. A character using only light weapons ...
# reduces their die size by only one step instead."
def test_two_attacks_lose_die_steps():
    g = game([1, 1, 1, 1])
    r = do(g, "attack", attr="S", tn=4, weapon="medium", double=True)
    assert [x["die"] for x in r["rolls"]] == [4, 4]
    r = do(g, "attack", attr="S", tn=4, weapon="light", double=True)
    assert [x["die"] for x in r["rolls"]] == [6, 6]
    refused(g, "attack", "heavy_pair", attr="S", tn=4, weapon="heavy", double=True)


# "If you make only one approach and it's a light approach, you gain a token
# ... If you use a heavy approach and it's unsuccessful, your opponent earns a token"
def test_social_approach_tokens():
    g = game([4, 1])
    r = do(g, "attack", attr="P", tn=4, weapon="light", kind="social")
    assert r["tokens"] == 1 and g.s.tokens == 1
    r = do(g, "attack", attr="P", tn=8, weapon="heavy", kind="social")
    assert r["damage"] == 0 and r["target_tokens"] == 1


# "If you defend against a light attack using Strength you increase your die
# size by one step; if you defend with Finesse you reduce it by one step. The
# reverse is true with heavy weapons."  (only with the optional rule on)
def test_specific_defenses_switch():
    g = game([1, 1, 1, 1, 1])
    assert do(g, "defend", attr="S", weapon="light")["roll"]["die"] == 8
    do(g, "set_rule", rule="specific", on=True)
    assert do(g, "defend", attr="S", weapon="light")["roll"]["die"] == 10
    assert do(g, "defend", attr="F", weapon="light")["roll"]["die"] == 6
    assert do(g, "defend", attr="F", weapon="heavy")["roll"]["die"] == 10
    assert do(g, "defend", attr="S", weapon="heavy")["roll"]["die"] == 6


# "Attacks against characters that have already acted in the exchange get a +1 bonus." (optional)
def test_positioning_switch():
    g = game([4, 4], positioning=True)
    assert do(g, "attack", attr="F", tn=5, acted=True)["rolls"][0]["bonus"] == 1
    do(g, "set_rule", rule="positioning", on=False)
    assert "bonus" not in do(g, "attack", attr="F", tn=5, acted=True)["rolls"][0]


# "imposes a cost on the first success in a scene"
def test_cost_condition_on_first_success_of_a_scene():
    g = game([6, 6, 6])
    g.s.ladders["cool"] = [1, ["cost"], ["P"]]
    assert do(g, "roll", attr="P", tn=6)["roll"]["condition_cost"]
    assert "condition_cost" not in do(g, "roll", attr="P", tn=6)["roll"]
    do(g, "new_scene")
    assert do(g, "roll", attr="P", tn=6)["roll"]["condition_cost"]


# "prevents a player from spending effort on those rolls as long as they're hurt"
def test_effort_condition_blocks_spending():
    g = game([5])
    g.s.effort = 2
    g.s.ladders["health"] = [1, ["effort"], ["F"]]
    refused(g, "roll", "no_effort", attr="F", tn=5, effort=1)
    do(g, "roll", attr="S", tn=5, effort=1)


def test_text_form_round_trip_and_defects():
    g = Game.new(seed=11, attrs={"Finesse": "d12", "C": 6}, health=12)
    do(g, "trait_add", name="swift", attr="F", bonus=2)
    do(g, "task_start", check="[Finesse 8 - 2/5 - 30s]")
    do(g, "task_roll", trait="swift")
    do(g, "attack", attr="S", tn=6, weapon="light", double=True)
    text = g.dump()
    h = Game.load(text)
    assert h.dump() == text and h.summary() == g.summary() and h.digest() == g.digest()
    for bad in (text.replace("attrs 8", "attrs 9"), text[:-3] + "00\n", text.replace("facets 1", "facets 2"), ""):
        assert raises(RulesError, Game.load, bad).code == "bad_save"


def test_refusals_change_nothing():
    g = game([3])
    refused(g, "fly", "bad_op")
    refused(g, "roll", "bad_args", attr="F", tn=0)
    refused(g, "roll", "bad_args", attr="F", tn=8, mode="sleepy")
    refused(g, "roll", "bad_args", attr="F", tn=8, colour="red")
    refused(g, "effort", "no_effort", delta=-1)
    refused(g, "new_scene", "bad_args", extra=1)
    assert raises(RulesError, Game.new, seed=1, luck=3).code == "bad_args"
    assert g.s.count == 0


def test_rolls_are_counted():
    g = game([3, 4])
    assert g.s.rolls == 0
    do(g, "roll", attr="F", tn=8)
    do(g, "damage", track="cool", amount=1)
    do(g, "defend", attr="F")
    assert g.s.rolls == 2 and g.summary()["rolls"] == 2
    refused(g, "roll", "bad_args", attr="F", tn=0)
    assert g.s.rolls == 2


def test_same_seed_same_dice():
    a = Game.new(seed=99)
    b = Game.new(seed=99)
    for _ in range(20):
        assert do(a, "roll", attr="F", tn=8) == do(b, "roll", attr="F", tn=8)
    assert a.dump() == b.dump() and a.s.game == b.s.game


def test_roll_faces_stays_on_the_die():
    rng = Rng(5)
    for die in (4, 6, 8, 10, 12, 20):
        for _ in range(200):
            faces = roll_faces(rng, die, die, "normal")
            assert all(1 <= f <= die for f in faces)
            assert all(f == die for f in faces[:-1]) and faces[-1] < die


def test_state_check_catches_broken_ladders():
    s = FacetsState()
    s.ladders["health"] = [2, ["step"], ["E"]]
    assert raises(RulesError, s.check).code == "bad_state"


# "When you want to maneuver you determine whether you're seeking an advantage
# or attempting to hinder another character. If you're seeking an advantage"
# (cut off; our side: a token on a hit, one more per advantage)
def test_maneuver_seeking_an_advantage():
    g = game([8, 7, 2, 1])
    r = do(g, "maneuver", attr="W", tn=8, aim="advantage")  # 15: one advantage
    assert r["tokens"] == 2 and g.s.tokens == 2
    r = do(g, "maneuver", attr="W", tn=8, aim="hinder")  # 2: a failure
    assert r["tokens"] == 0 and not r["hindered"] and g.s.tokens == 2 and g.s.effort == 1
    assert do(g, "maneuver", attr="W", tn=1, aim="hinder")["hindered"]
    refused(g, "maneuver", "bad_args", attr="W", tn=8, aim="dance")


# "A character can use Endurance to defend, but rather than eliminating damage
# on a success it instead gives the defending character 1 armor against the
# attack on a success (+1 per shift)."
def test_endurance_defence_turns_a_miss_into_armour():
    g = game([2, 1, 4])
    r = do(g, "attack", attr="S", tn=10, weapon="heavy", endurance=True)  # 2: margin -8, a miss
    assert r["damage"] == 5 - 1
    r = do(g, "attack", attr="S", tn=17, weapon="heavy", endurance=True)  # 1: margin -16, two shifts more
    assert r["damage"] == 5 - 3
    r = do(g, "attack", attr="S", tn=4, weapon="medium", endurance=True)  # a hit lands in full
    assert r["damage"] == 3
    text = g.dump()
    assert Game.load(text).summary() == g.summary() and "medium/E" in text
    refused(g, "attack", "bad_args", attr="P", tn=4, kind="social", endurance=True)


def test_a_result_fits_the_link():
    # A paired attack with long explosions and every note still fits a
    # 480-byte reply frame (the protocol's MAX_LINE), digest and all.
    import json

    g = game([6, 6, 6, 6, 1, 6, 6, 6, 2], positioning=True)
    do(g, "effort", delta=3)
    r = do(g, "attack", attr="S", tn=30, weapon="light", double=True, effort=1, bonus=-3, acted=True)
    r["digest"], r["system"] = "0123456789abcdef", "facets"
    assert len(json.dumps(r)) + 40 <= 480, len(json.dumps(r))

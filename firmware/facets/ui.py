"""Buttons -> screens -> Facets commands (seed 002), for the five buttons.

Home is the check being set up: A the next attribute, UP/DOWN the target
number, B rolls, C the menu. With an extended task open, home is the task
([Finesse 8 - 2/5 - 30s] and its attempts) and B attempts it. A roll's
dice stay on screen (explosions chained, the band word big) until a
press. Taken out, the device asks for the consequence before anything else.
The Ui keeps the interface of ui.Ui that the app uses.
"""

from shared_rules.facets import game as FX
from shared_rules.facets.results import band_word
from shared_rules.errors import RulesError

from menu_widgets import Menu, NameEntry, NumberPick, Shown, confirm_new, help_pages
from widgets import Screens, _wrap

MODE_WORDS = {"normal": "", "pressure": "PRESSURE", "calm": "CALM"}
TIMES = (("no time", 0), ("6 seconds", 6), ("30 seconds", 30), ("1 minute", 60), ("10 minutes", 600),
         ("1 hour", 3600), ("1 day", 86400))
PENALTY_ROWS = (("Die 2 steps down", "step"), ("Cost on 1st success", "cost"), ("No effort on it", "effort"))


class Ui(Screens):
    SYSTEM = "facets"

    def main_menu(self):
        return MainMenu(self)

    def reset(self):
        self.attr = "F"
        self.tn = 8
        self.bonus = 0
        self.effort = 0
        self.mode = "normal"
        self.explode = 0  # 0: the die's highest face
        self.trait = ""
        self.stack = []
        self.result = None  # the roll on screen until a press
        self.last = None  # the last roll's view (Last roll)
        self.again = None  # (op, args) of the roll B repeats
        self._base = None
        g = self.game
        self.seen = g.s.rolls if g is not None else 0  # the rolls already shown

    def status(self):
        """The footer: H Health, C Cool, E Effort, T tokens, the rungs."""
        g = self.game
        st = {"system": "facets", "battery": self.app.board.battery(), "name": self.app.name, "footer": ""}
        if g is not None:
            s = g.s
            rungs = [g.rung(t).upper() for t in FX.TRACKS if g.rung(t)]
            st["footer"] = " ".join(["H%d/%d C%d/%d E%d T%d" % (s.points["health"], s.maxes["health"], s.points["cool"],
                                                                 s.maxes["cool"], s.effort, s.tokens)] + rungs)
        return st

    def base(self):
        g = self.game
        if g is not None and g.s.rolls != self.seen:
            self.result = self.last = stored_view(self)  # a roll the host made on this device: the newest
            self.seen = g.s.rolls
        kind = Home
        if g is not None and g.s.out and not g.s.dead:
            kind = TakenOut
        elif self.result is not None:
            kind = RollScreen
        if not isinstance(self._base, kind):
            self._base = kind(self)
        return self._base

    # -- rolling ----------------------------------------------------------------
    def options(self):
        """The roll settings (menu: Roll settings) as command arguments."""
        args = {"bonus": self.bonus, "mode": self.mode}
        if self.effort:
            args["effort"] = self.effort
        if self.explode:
            args["explode"] = self.explode
        if self.trait:
            args["trait"] = self.trait
        return args

    def roll(self, op, args, title=""):
        """Run a rolling command and show its dice; effort set for one roll
        is spent (it goes back to 0)."""
        def then(result):
            self.effort = 0
            self.seen = self.game.s.rolls
            self.again = (op, args)
            self.result = roll_view(self, op, result, title)
            self.last = self.result

        self.run(op, args, then)

    def check(self):
        args = self.options()
        k = self.game.s.task if self.game else None
        if k is not None:
            if self.game.task_state() != "open":
                self.run("task_end", {})
                return
            self.roll("task_roll", args, FX.check_text(k))
            return
        args["attr"], args["tn"] = self.attr, self.tn
        self.roll("roll", args)


def roll_view(u, op, result, title):
    """The roll screen: each roll's dice, its band word, and notes."""
    said = result.get("rolls") or [result["roll"]]  # the result's brief rolls
    rolls = u.game.s.last["rolls"]  # the full records, to draw
    kind = u.game.s.last["kind"]
    notes = []
    for r in said:
        if r.get("effort_gained"):
            notes.append("effort +%d" % r["effort_gained"])
        if r.get("condition_cost"):
            notes.append("a condition: this success costs")
    if op == "attack":
        notes.append("deal %d damage" % result["damage"] + (" (or a token per extra)" if result["damage"] and
                                                          any(r["advantages"] for r in rolls) else ""))
        if result.get("target_tokens"):
            notes.append("target +%d token" % result["target_tokens"])
    if result.get("tokens"):
        notes.append("you +%d token" % result["tokens"])
    if result.get("hindered"):
        notes.append("target hindered")
    if op == "defend":
        notes.append("attacker's TN is %d" % rolls[0]["result"])
        if result.get("then"):
            notes.append(result["then"])
    if op == "task_roll":
        k = u.game.s.task
        notes.append("task %d/%d, %d of %d tries: %s" % (k["wins"], k["need"], k["tries"], k["attempts"],
                                                         result["task"]))
    word = ""
    r0 = rolls[0]
    if "band" in r0:
        word = band_word(r0["band"], r0["advantages"])
    elif kind == "initiative":
        word = "INIT %d" % r0["result"]
    else:
        word = "TOTAL %d" % r0["result"]
    if op == "attack" and len(rolls) == 2:
        word = "%d DAMAGE" % result["damage"]  # each roll's band is on its row
    if op == "task_roll" and result["task"] in ("done", "impossible"):
        notes.insert(0, "this attempt: " + word.lower())
        word = result["task"].upper()
    return {"screen": "facets_roll", "kind": kind, "title": title or _roll_title(kind, r0), "rolls": rolls,
            "word": word, "notes": notes[:3], "hint": "A back  B again  C menu"}


def stored_view(u):
    """The roll screen of the game's last roll, from the state alone (a
    roll the host made, or the last one after a restart)."""
    g = u.game
    last = g.s.last
    rolls = last["rolls"]
    r0 = rolls[0]
    kind = last["kind"]
    if kind == "attack" and len(rolls) == 2:
        word = "%d DAMAGE" % (rolls[0]["damage"] + rolls[1]["damage"])
    elif "band" in r0:
        word = band_word(r0["band"], r0["advantages"])
    else:
        word = "TOTAL %d" % r0["result"]
    notes = []
    if kind == "attack":
        notes.append("deal %d damage" % sum([r["damage"] for r in rolls]))
    title = FX.check_text(g.s.task) if kind == "task" and g.s.task is not None else _roll_title(kind, r0)
    return {"screen": "facets_roll", "kind": kind, "title": title, "rolls": rolls, "word": word, "notes": notes,
            "hint": "any button: back"}


def _roll_title(kind, r):
    name = FX.attr_name(r["attr"])
    if r.get("tn") is None:
        return "%s %s" % (kind[:1].upper() + kind[1:], name)
    return "%s vs TN %d" % (name, r["tn"])


class Home:
    def __init__(self, ui):
        self.ui = ui

    def view(self):
        u = self.ui
        g = u.game
        if g is None:
            return {"screen": "facets_home", "attr": u.attr, "name": FX.attr_name(u.attr), "die": 8, "tn": u.tn,
                    "hint": "C menu: New character"}
        k = g.s.task
        v = {"screen": "facets_home", "mode": MODE_WORDS[u.mode], "bonus": u.bonus, "effort": u.effort,
             "explode": u.explode, "trait": u.trait}
        if k is not None:
            state = g.task_state()
            fails = k["tries"] - k["wins"]
            marks = "S" * (k["wins"] - k["costs"]) + "C" * k["costs"] + "X" * fails
            marks += "." * (k["attempts"] - k["tries"])
            v.update({"attr": k["attr"], "name": FX.attr_name(k["attr"]), "die": g.die_for(k["attr"]),
                      "base_die": g.s.attrs[k["attr"]], "tn": k["tn"],
                      "task": {"text": FX.check_text(k), "marks": marks, "state": state, "wins": k["wins"],
                               "need": k["need"], "elapsed": FX.duration(k["elapsed"])},
                      "hint": "B attempt  A odds  C menu" if state == "open" else "B close the task  C menu"})
        else:
            v.update({"attr": u.attr, "name": FX.attr_name(u.attr), "die": g.die_for(u.attr),
                      "base_die": g.s.attrs[u.attr], "tn": u.tn, "hint": "A attr UP/DN TN B roll C menu"})
        if k is None or g.task_state() == "open":
            v["chance"] = chance(u, v["attr"], v["tn"])
        return v

    def press(self, b):
        u = self.ui
        g = u.game
        task = g is not None and g.s.task is not None
        if b == "C":
            u.open_menu()
        elif g is None:
            return
        elif b == "B":
            u.check()
        elif b == "A":
            if task:
                show_odds(u)
            else:
                u.attr = FX.ATTRS[(FX.ATTRS.index(u.attr) + 1) % len(FX.ATTRS)]
        elif b in ("UP", "DOWN") and not task:
            u.tn = max(1, min(FX.MAX_POINTS, u.tn + (1 if b == "UP" else -1)))


class RollScreen:
    """A roll's dice, shown until a press: A back, B the same roll again,
    C the menu."""

    def __init__(self, ui):
        self.ui = ui

    def view(self):
        return dict(self.ui.result)

    def press(self, b):
        u = self.ui
        u.result = None
        if b == "B" and u.again is not None:
            op, args = u.again
            if op in ("roll", "task_roll"):
                u.check()
            else:
                u.roll(op, args)
        elif b == "C":
            u.open_menu()


class TakenOut(Menu):
    """Health or Cool at 0: the consequence, the attacker's deal, or resist."""

    def __init__(self, ui):
        g = ui.game
        t = g.s.out
        level = g.s.ladders[t][0]
        nxt = "dead" if level == 3 and t == "health" else FX.LADDERS[t][min(level, 2)]
        items = [("Take it: %s" % nxt, lambda: consequence(ui, t, "consequence")),
                 ("Take their deal", lambda: ui.run("taken_out", {"how": "deal"})),
                 ("Resist (1 effort)", lambda: consequence(ui, t, "resist"))]
        Menu.__init__(self, ui, "Taken out! (%s 0)" % t, items, keep=True)

    def press(self, b):
        if b != "A":  # no way back: the consequence comes first
            Menu.press(self, b)


def consequence(u, t, how):
    """Pick the attribute (first two rungs) and the penalty, then apply."""
    g = u.game
    level = g.s.ladders[t][0]

    def penalty(attr, deadly=False):
        rows = [(w, (lambda k=k: u.run("taken_out", {"how": how, "attr": attr, "penalty": k, "deadly": deadly})))
                for w, k in PENALTY_ROWS]
        u.push(Menu(u, "Which penalty?", rows))

    if level == 0:
        first = FX.DEFAULT_HURT[t]
        order = [first] + [a for a in FX.ATTRS if a != first]
        u.push(Menu(u, "Penalty on (%s)" % FX.LADDERS[t][0], [
            (FX.attr_name(a), (lambda a=a: penalty(a))) for a in order]))
    elif level == 1:
        had = g.s.ladders[t][2][0]
        u.push(Menu(u, "Also on (%s)" % FX.LADDERS[t][1], [
            (FX.attr_name(a), (lambda a=a: penalty(a))) for a in FX.ATTRS if a != had]))
    elif level == 2 and t == "health":
        u.push(Menu(u, "Crippled, or death?", [("Crippled", lambda: penalty("")),
                                                ("Death (deadly)", lambda: penalty("", True))]))
    elif level == 2:
        penalty("")
    else:
        u.run("taken_out", {"how": how})


class Sheet:
    """The character: nine dice (conditions applied), Health and Cool, the
    ladders. UP/DOWN pick an attribute, B sets its die, A back."""

    def __init__(self, ui):
        self.ui = ui
        self.cursor = 0

    def view(self):
        g = self.ui.game
        s = g.s
        attrs = []
        for a in FX.ATTRS:
            attrs.append([a, s.attrs[a], g.die_for(a), len(g.penalties(a))])
        ladders = []
        for t in FX.TRACKS:
            ladders.append([t, s.points[t], s.maxes[t], s.ladders[t][0], list(s.ladders[t][1])])
        return {"screen": "facets_sheet", "attrs": attrs, "selected": self.cursor, "ladders": ladders,
                "dead": s.dead, "effort": s.effort, "tokens": s.tokens,
                "traits": ["%s %s%+d" % (n, a, b) for n, a, b in s.traits],
                "hint": "UP/DN attr  B set die  A back"}

    def press(self, b):
        u = self.ui
        if b == "UP":
            self.cursor = (self.cursor - 1) % len(FX.ATTRS)
        elif b == "DOWN":
            self.cursor = (self.cursor + 1) % len(FX.ATTRS)
        elif b == "A":
            u.pop()
        elif b == "B":
            a = FX.ATTRS[self.cursor]
            now = u.game.s.attrs[a]
            u.push(Menu(u, FX.attr_name(a) + " die", [
                (("* d%d" if d == now else "  d%d") % d, (lambda d=d: u.run("set_attr", {"attr": a, "die": d})))
                for d in FX.DICE]))


def odds_args(u, attr, tn):
    """The odds query for the check on screen, with the roll settings."""
    args = {"attr": attr, "tn": tn, "bonus": u.bonus + FX.EFFORT_BONUS * u.effort, "mode": u.mode,
            "explode": u.explode}
    if u.trait:
        try:
            args["bonus"] += u.game.trait_bonus(u.trait, attr)
        except RulesError:
            pass
    return args


def chance(u, attr, tn):
    """[the TN met, success with a cost] as percentages, for home."""
    try:
        o = u.game.odds_query(odds_args(u, attr, tn))
    except RulesError:
        return None
    return [o["met"], o["percent"]["cost"]]


def show_odds(u, attr=None, tn=None):
    g = u.game
    k = g.s.task
    if attr is None:
        attr, tn = (k["attr"], k["tn"]) if k is not None else (u.attr, u.tn)
    args = odds_args(u, attr, tn)
    try:
        o = g.odds_query(args)
    except RulesError as e:
        u.notice("Not now", _wrap(e.message))
        return
    rows = []
    for b in FX.BANDS:
        rows.append([b, o["bands"][b], o["percent"][b]])
    u.push(Shown(u, {"screen": "facets_odds", "title": "%s d%d vs TN %d%s" % (
        FX.attr_name(attr), o["die"], tn, (" %+d" % args["bonus"]) if args["bonus"] else ""),
        "mode": MODE_WORDS[o["mode"]], "rows": rows, "hint": "any button: back"}))


def pick_number(u, title, value, lo, hi, done, unit=""):
    u.push(NumberPick(u, title, value, lo, hi, done, unit))


def roll_settings(u):
    g = u.game
    die = g.die_for(u.attr)

    def set_(name, value):
        setattr(u, name, value)

    rows = [
        ("Mode: %s" % u.mode, lambda: u.push(Menu(u, "Mode", [
            (("* " if m == u.mode else "  ") + m, (lambda m=m: set_("mode", m))) for m in FX.MODES]))),
        ("Bonus: %+d" % u.bonus, lambda: pick_number(u, "Bonus", u.bonus, -20, 20, lambda n: set_("bonus", n))),
        ("Effort: %d (+%d each)" % (u.effort, FX.EFFORT_BONUS),
         lambda: pick_number(u, "Effort to spend", u.effort, 0, g.s.effort, lambda n: set_("effort", n))),
        ("Explode on: %s" % (u.explode or "highest"),
         lambda: pick_number(u, "Explode on (ability)", u.explode or die, die // 2 + 1, die,
                             lambda n: set_("explode", 0 if n == die else n))),
        ("Trait: %s" % (u.trait or "none"), lambda: u.push(Menu(u, "Trait", [("none", lambda: set_("trait", ""))] + [
            ("%s %s%+d" % (n, a, b), (lambda n=n: set_("trait", n))) for n, a, b in g.s.traits]))),
        ("Reset settings", lambda: (set_("mode", "normal"), set_("bonus", 0), set_("effort", 0),
                                    set_("explode", 0), set_("trait", ""))),
    ]
    u.push(Menu(u, "Roll settings", rows))


def task_flow(u):
    g = u.game
    if g.s.task is not None:
        u.push(Menu(u, "Task " + g.task_state(), [("End the task", lambda: u.run("task_end", {})),
                                                  ("Keep it", lambda: None)]))
        return

    def need(n_need):
        pick_number(u, "Attempts allowed", max(n_need, 5), n_need, 20, lambda n: times(n_need, n))

    def times(n_need, n_att):
        u.push(Menu(u, "Time per attempt", [
            (w, (lambda secs=secs: u.run("task_start", {"attr": u.attr, "tn": u.tn, "need": n_need,
                                                        "attempts": n_att, "secs": secs})))
            for w, secs in TIMES]))

    pick_number(u, "%s %d: successes" % (FX.attr_name(u.attr), u.tn), 2, 1, 20, need)


def conflict_menu(u):
    g = u.game
    rows = [
        ("Initiative (Finesse)", lambda: u.roll("initiative", {"kind": "physical"})),
        ("Initiative (Wit)", lambda: u.roll("initiative", {"kind": "social"})),
        ("Attack vs TN %d" % u.tn, lambda: attack_flow(u, "physical")),
        ("Social approach", lambda: attack_flow(u, "social")),
        ("Defend", lambda: defend_flow(u)),
        ("Maneuver vs TN %d" % u.tn, lambda: u.push(Menu(u, "Maneuver", [
            ("Seek an advantage", lambda: u.roll("maneuver", dict(u.options(), attr=u.attr, tn=u.tn, aim="advantage"))),
            ("Hinder someone", lambda: u.roll("maneuver", dict(u.options(), attr=u.attr, tn=u.tn, aim="hinder")))]))),
        ("Withdraw", lambda: u.push(Menu(u, "Withdraw", [
            ("Got away", lambda: u.run("withdraw", {})),
            ("Prevented (+3 effort)", lambda: u.run("withdraw", {"prevented": True}))]))),
        ("Tokens: %d" % g.s.tokens, lambda: u.push(Menu(u, "Tokens", [
            ("Gain a token", lambda: u.run("token", {"delta": 1})),
            ("Use a token", lambda: u.run("token", {"delta": -1}))]))),
        ("New scene", lambda: u.run("new_scene", {})),
    ]
    u.push(Menu(u, "Conflict", rows))


def attack_flow(u, kind):
    """Weapon (or approach) weight, then one attack or two at a die-step loss."""
    g = u.game

    def go(weapon, double, acted, endurance):
        args = dict(u.options(), attr=u.attr, tn=u.tn, weapon=weapon, double=double, kind=kind, acted=acted)
        if endurance:
            args["endurance"] = True
        u.roll("attack", args)

    def how(weapon):
        rows = [("One attack", lambda: when(weapon, False, False))]
        two = "Two (-%d step%s)" % (FX.DOUBLE_STEPS.get(weapon, 0), "s" if weapon == "medium" else "")
        if weapon != "heavy":
            rows.append((two, lambda: when(weapon, True, False)))
        if kind == "physical":
            rows.append(("One, vs Endurance", lambda: when(weapon, False, True)))
            if weapon != "heavy":
                rows.append((two + " vs End", lambda: when(weapon, True, True)))
        u.push(Menu(u, "%s %s" % (weapon, "approach" if kind == "social" else "weapon"), rows))

    def when(weapon, double, endurance):
        if not g.s.rules["positioning"]:
            go(weapon, double, False, endurance)
            return
        u.push(Menu(u, "Target acted yet?", [("No", lambda: go(weapon, double, False, endurance)),
                                               ("Yes (+1)", lambda: go(weapon, double, True, endurance))]))

    u.push(Menu(u, "Approach" if kind == "social" else "Weapon", [
        ("%s (%d)" % (w, d), (lambda w=w: how(w))) for w, d in FX.WEAPONS]))


def defend_flow(u):
    def go(attr, weapon):
        u.roll("defend", dict(u.options(), attr=attr, weapon=weapon))

    def weapon(attr):
        u.push(Menu(u, "Against", [("%s attack" % w, (lambda w=w: go(attr, w))) for w, d in FX.WEAPONS]))

    u.push(Menu(u, "Defend with", [
        ("Finesse (dodge)", lambda: weapon("F")), ("Strength (block)", lambda: weapon("S")),
        ("Endurance (armour)", lambda: weapon("E")), ("%s (social)" % FX.attr_name(u.attr), lambda: weapon(u.attr))]))


def health_menu(u):
    g = u.game

    def track_then(title, then):
        u.push(Menu(u, title, [("Health %d/%d" % (g.s.points["health"], g.s.maxes["health"]), lambda: then("health")),
                               ("Cool %d/%d" % (g.s.points["cool"], g.s.maxes["cool"]), lambda: then("cool"))]))

    def damage(t):
        pick_number(u, "%s damage" % t, 3, 0, FX.MAX_POINTS,
                    lambda n: pick_number(u, "Armour", 0, 0, 20,
                                          lambda a: u.run("damage", {"track": t, "amount": n, "armor": a})))

    def regain(t):
        u.push(Menu(u, "Time to recover", [
            ("10 minutes", lambda: u.run("regain", {"track": t, "minutes": 10})),
            ("1 hour", lambda: u.run("regain", {"track": t, "hours": 1})),
            ("4 hours", lambda: u.run("regain", {"track": t, "hours": 4})),
            ("1 day", lambda: u.run("regain", {"track": t, "days": 1})),
            ("1 day resting", lambda: u.run("regain", {"track": t, "days": 1, "resting": True})),
            ("1 day, rest + care", lambda: u.run("regain", {"track": t, "days": 1, "resting": True, "care": True}))]))

    def recover(t):
        u.push(Menu(u, "Rested enough?", [
            ("Yes, resting", lambda: u.run("recover", {"track": t}, lambda r: u.notice(
                "Recovered", ["after %s days of rest" % r["days"], "now: %s" % (r["rung"] or "healthy")]))),
            ("Yes, with help (half)", lambda: u.run("recover", {"track": t, "professional": True}, lambda r: u.notice(
                "Recovered", ["after %s days of rest" % r["days"], "now: %s" % (r["rung"] or "healthy")])))]))

    rows = [
        ("Take damage", lambda: track_then("Damage to", damage)),
        ("Heal points", lambda: track_then("Heal", lambda t: pick_number(
            u, "Heal %s" % t, 1, 0, FX.MAX_POINTS, lambda n: u.run("heal", {"track": t, "amount": n})))),
        ("Regain over time", lambda: track_then("Regain", regain)),
        ("Recover a condition", lambda: track_then("Condition", recover)),
        ("Set maximum", lambda: track_then("Maximum of", lambda t: pick_number(
            u, "Max %s" % t, g.s.maxes[t], 1, FX.MAX_POINTS, lambda n: u.run("set_max", {"track": t, "value": n})))),
    ]
    u.push(Menu(u, "Health & Cool", rows))


def help_menu(u):
    pages = (
        ("Buttons at home", ["A: next attribute", "UP/DOWN: target number", "B: roll  C: menu",
                             "After a roll: A back,", "B again, C menu"]),
        ("Results", ["+5 over: ADVANTAGE (one", "per 5); meet TN: SUCCESS;", "miss by 1-5: SUCCESS,",
                     "COST; 6-10: FAILURE;", "more: FAILURE, COST"]),
        ("Dice", ["Highest face explodes:", "roll again and add.", "Pressure: no explosions.",
                  "Calm: half the highest.", "Effort: +%d a point." % FX.EFFORT_BONUS]),
        ("The footer", ["H: Health  C: Cool", "E: Effort  T: tokens", "then any condition"]),
    )
    help_pages(u, "Help", pages)


def rules_menu(u):
    g = u.game
    rows = []
    for rule, word in (("specific", "Specific Defenses"), ("positioning", "Positioning")):
        on = g.s.rules[rule]
        rows.append(("%s %s" % ("*" if on else " ", word),
                     (lambda rule=rule, on=on: u.run("set_rule", {"rule": rule, "on": not on}))))
    u.push(Menu(u, "Optional rules (* on)", rows))


def name_entry(u):
    def done(name):
        mutating, ok, result = u.app.handle("set_name", {"name": name[:16]})
        if not ok:
            u.notice("Not now", _wrap(result[1]))

    u.push(NameEntry(u, "Your name", done))


def show_last(u):
    if u.last is None and u.game.s.last is not None:
        u.last = stored_view(u)  # the last roll before a restart
    if u.last is None:
        u.notice("No roll yet", ["Roll with B at home."])
    else:
        u.push(Shown(u, u.last))


class MainMenu(Menu):
    def __init__(self, ui):
        g = ui.game
        if g is None:
            Menu.__init__(self, ui, "No game", [("New character", lambda: confirm_new(ui)),
                                                ("Help", lambda: help_menu(ui))])
            return
        items = [
            ("Last roll", lambda: show_last(ui)),
            ("Roll settings", lambda: roll_settings(ui)),
            ("Odds of this check", lambda: show_odds(ui)),
            ("Extended task", lambda: task_flow(ui)),
            ("Conflict", lambda: conflict_menu(ui)),
            ("Health & Cool", lambda: health_menu(ui)),
            ("Character sheet", lambda: ui.push(Sheet(ui))),
            ("Effort: %d" % g.s.effort, lambda: ui.push(Menu(ui, "Effort", [
                ("Earned (+1)", lambda: ui.run("effort", {"delta": 1})),
                ("Spent on an ability", lambda: ui.run("effort", {"delta": -1}))]))),
            ("Optional rules", lambda: rules_menu(ui)),
            ("Help", lambda: help_menu(ui)),
            ("Name", lambda: name_entry(ui)),
            ("New character", lambda: confirm_new(ui)),
        ]
        Menu.__init__(self, ui, "Menu", items)

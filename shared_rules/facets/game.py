"""Facets (seed 002): one character's sheet, checks and conflicts.

``Game.do(op, args)`` is the single entry for commands, as for the
Deckahedron's Game: a refused command (RulesError) leaves the state exactly
as it was. Rules are quoted from the seed in docs/rules.md (Facets); where
the seed is cut or silent the side taken is written there and in a comment.

Portable: CPython and MicroPython. The result words live in results.py, the
host's words (describe, say, summary_problem) in words.py and the odds in
odds.py, so a board loads them only when it shows them.
"""

from shared_rules.atomic import Atomic, check_game_id, deep_copy, text_digest
from shared_rules.errors import RulesError
from shared_rules.prng import Rng

FORMAT = "facets 1"
ATTRS = ("S", "F", "E", "I", "W", "R", "P", "G", "C")
ATTR_NAMES = ("Strength", "Finesse", "Endurance", "Intellect", "Wit", "Resolve",
              "Presence", "Guile", "Composure")
PHYSICAL = ("S", "F", "E")
SOCIAL = ("P", "G", "C")
DICE = (4, 6, 8, 10, 12, 20)  # the die steps, lowest first
BANDS = ("advantage", "success", "cost", "fail", "fail_cost")
MODES = ("normal", "pressure", "calm")
TRACKS = ("health", "cool")
# The condition ladders: health (physical) and cool (social), level 1..3.
LADDERS = {"health": ("hurt", "injured", "crippled"), "cool": ("weary", "drained", "exhausted")}
GROUPS = {"health": PHYSICAL, "cool": SOCIAL}  # the three attributes of level 3
DEFAULT_HURT = {"health": "E", "cool": "C"}  # "Endurance, by default"; Composure for cool (our side)
# Seed: "reduces the die size by two steps, imposes a cost on the first
# success in a scene, or prevents a player from spending effort".
PENALTIES = ("step", "cost", "effort")
WEAPONS = (("light", 1), ("medium", 3), ("heavy", 5))
DOUBLE_STEPS = {"light": 1, "medium": 2}  # heavy cannot pair
RULES = ("specific", "positioning")  # the optional rules, off unless switched on
EFFORT_BONUS = 2  # what one point of Effort adds to a roll (the seed is silent; docs/rules.md)
MAX_POINTS = 99  # health, cool, effort, tokens, TN
MAX_BONUS = 50
MAX_TRAITS = 12
MAX_FACES = 200  # an exploding chain longer than this has odds far below 2**-100


def attr_key(value):
    """'F', 'f', 'fin' or 'Finesse' (a letter, or 3 or more letters of the
    name) -> 'F'; anything else is refused."""
    if isinstance(value, str):
        v = value.strip()
        for i in range(len(ATTRS)):
            if v.upper() == ATTRS[i] or (len(v) >= 3 and ATTR_NAMES[i].lower().startswith(v.lower())):
                return ATTRS[i]
    raise RulesError("bad_attr", "an attribute is one of %s (or its name), not %r" % (" ".join(ATTRS), value))


def attr_name(key):
    return ATTR_NAMES[ATTRS.index(key)]


def check_die(value):
    if isinstance(value, str) and value[:1] in ("d", "D"):
        value = value[1:]
    try:
        die = int(value)
    except (TypeError, ValueError):
        die = 0
    if die not in DICE:
        raise RulesError("bad_die", "a die is d4, d6, d8, d10, d12 or d20, not %r" % (value,))
    return die


def step_die(die, steps):
    """The die ``steps`` steps up (+) or down (-) the ladder d4..d20, held
    at its ends (the seed names no die below d4 or above d20)."""
    i = DICE.index(die) + steps
    if i < 0:
        i = 0
    if i >= len(DICE):
        i = len(DICE) - 1
    return DICE[i]


def whole(value, name, low, high):
    if type(value) is not int or not low <= value <= high:
        raise RulesError("bad_args", "%s must be a whole number from %d to %d" % (name, low, high))
    return value


def flag(value, name):
    if value is True or value is False:
        return value
    raise RulesError("bad_args", "%s must be true or false" % name)


def choice(value, options, name):
    if value not in options:
        raise RulesError("bad_args", "%s is one of %s, not %r" % (name, ", ".join(options), value))
    return value


def band_of(margin):
    """Seed: exceeding by 5 or more is an advantage; meeting the TN a
    success; missing by up to 5 a success with a cost; by up to 10 a
    failure; by more a failure with a cost."""
    if margin >= 5:
        return "advantage"
    if margin >= 0:
        return "success"
    if margin >= -5:
        return "cost"
    if margin >= -10:
        return "fail"
    return "fail_cost"


def advantages(margin):
    """One advantage per full 5 over the TN ("an advantage per every five")."""
    return margin // 5 if margin >= 5 else 0


def roll_faces(rng, die, explode, mode):
    """The faces of one roll: a chain while faces explode. Calm takes half
    the die's highest result instead of rolling; pressure never explodes."""
    if mode == "calm":
        return [die // 2]
    faces = []
    while True:
        face = rng.below(die) + 1
        faces.append(face)
        if mode == "pressure" or face < explode or len(faces) >= MAX_FACES:
            return faces


def parse_check(text):
    """'[Finesse 8 - 2/5 - 30s]' -> {attr, tn, need, attempts, secs}; the
    seed's notation for an extended task (time as s, m, h or d)."""
    t = text.strip()
    if t[:1] == "[" and t[-1:] == "]":
        t = t[1:-1]
    parts = [p.strip() for p in t.split(" - ")]
    try:
        name, tn = parts[0].split()
        out = {"attr": attr_key(name), "tn": int(tn), "need": 1, "attempts": 1, "secs": 0}
        if len(parts) > 1:
            need, attempts = parts[1].split("/")
            out["need"], out["attempts"] = int(need), int(attempts)
        if len(parts) > 2:
            unit = parts[2][-1:]
            scale = {"s": 1, "m": 60, "h": 3600, "d": 86400}[unit]
            out["secs"] = int(parts[2][:-1]) * scale
        if len(parts) > 3:
            raise ValueError
    except (ValueError, KeyError, IndexError):
        raise RulesError("bad_check", "a check looks like [Finesse 8 - 2/5 - 30s], not %r" % (text,))
    return out


def duration(secs):
    """30 -> '30s', 90 -> '1m30s', 7200 -> '2h': the device's short time."""
    if secs == 0:
        return "0s"
    out = ""
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if secs >= size:
            out += "%d%s" % (secs // size, unit)
            secs %= size
    return out


def check_text(task):
    return "[%s %d - %d/%d - %s]" % (attr_name(task["attr"]), task["tn"], task["need"],
                                     task["attempts"], duration(task["secs"]))


class FacetsState:
    """Plain data; the text form is one line per field in a fixed order."""

    def __init__(self):
        self.game = ""
        self.count = 0
        self.rng = Rng(0)
        self.attrs = {}
        for a in ATTRS:
            self.attrs[a] = 8
        self.points = {"health": 10, "cool": 10}
        self.maxes = {"health": 10, "cool": 10}
        self.effort = 0
        self.tokens = 0
        # ladder: [level 0..3, penalty kinds (one per level), chosen attrs (<= 2)]
        self.ladders = {"health": [0, [], []], "cool": [0, [], []]}
        self.dead = False
        self.out = ""  # "health"/"cool" while taken out and the consequence is not chosen
        self.rules = {"specific": False, "positioning": False}
        self.traits = []  # [name, attr, bonus]
        self.scene = []  # attrs whose first success this scene already paid the "cost" penalty
        self.task = None  # dict: attr tn need attempts secs wins tries costs elapsed
        self.last = None  # dict: kind weapon rolls(list of roll dicts) - the roll on screen
        self.rolls = 0  # rolling commands so far: a screen tells a new roll (the host's too) from the last

    # -- the validity check (the system's conservation) --------------------
    def check(self):
        for a in ATTRS:
            if self.attrs.get(a) not in DICE:
                raise RulesError("bad_state", "attribute %s has no die" % a)
        for t in TRACKS:
            if not 1 <= self.maxes[t] <= MAX_POINTS or not 0 <= self.points[t] <= self.maxes[t]:
                raise RulesError("bad_state", "%s is out of range" % t)
            level, kinds, chosen = self.ladders[t]
            if not 0 <= level <= 3 or len(kinds) != level or len(chosen) != (level if level < 3 else 2):
                raise RulesError("bad_state", "the %s ladder is inconsistent" % t)
            for k in kinds:
                choice(k, PENALTIES, "a penalty")
            for a in chosen:
                attr_key(a)
            if len(chosen) == 2 and chosen[0] == chosen[1]:
                raise RulesError("bad_state", "the %s ladder names one attribute twice" % t)
        if self.dead and self.ladders["health"][0] != 3:
            raise RulesError("bad_state", "only a crippled (or deadly injured) character dies")
        if self.out not in ("", "health", "cool") or (self.out and self.points[self.out]):
            raise RulesError("bad_state", "taken out with points left")
        for n, name in ((self.effort, "effort"), (self.tokens, "tokens")):
            if not 0 <= n <= MAX_POINTS:
                raise RulesError("bad_state", "%s is out of range" % name)
        if len(self.traits) > MAX_TRAITS:
            raise RulesError("bad_state", "too many traits")
        for a in self.scene:
            attr_key(a)
        if self.task is not None:
            k = self.task
            if not (0 <= k["wins"] <= k["tries"] <= k["attempts"] and 1 <= k["need"] <= k["attempts"]):
                raise RulesError("bad_state", "the extended task's count is inconsistent")
        if self.rolls < 0 or (self.last is None) != (self.rolls == 0):
            raise RulesError("bad_state", "the roll count and the last roll disagree")
        if self.last is not None:
            for r in self.last["rolls"]:
                if not 0 < len(r["faces"]) <= MAX_FACES or r["die"] not in DICE:
                    raise RulesError("bad_state", "a roll has no sane dice")
                for f in r["faces"]:
                    if not 1 <= f <= r["die"]:
                        raise RulesError("bad_state", "a face is off its die")

    # -- the text form ---------------------------------------------------------
    def body(self):
        lines = [FORMAT, "game %s" % self.game, "rng %s" % self.rng.state_hex(),
                 "attrs %s" % " ".join("%d" % self.attrs[a] for a in ATTRS)]
        for t in TRACKS:
            level, kinds, chosen = self.ladders[t]
            lines.append("%s %d %d %d %s %s" % (t, self.points[t], self.maxes[t], level,
                                                ",".join(kinds) or "-", ",".join(chosen) or "-"))
        lines.append("effort %d\ntokens %d\ndead %d\nout %s" % (self.effort, self.tokens,
                                                                1 if self.dead else 0, self.out or "-"))
        lines.append("rules %d %d" % (1 if self.rules["specific"] else 0, 1 if self.rules["positioning"] else 0))
        lines.append("traits %s" % (";".join("%s:%s:%d" % (n, a, b) for n, a, b in self.traits) or "-"))
        lines.append("scene %s" % ("".join(self.scene) or "-"))
        k = self.task
        lines.append("task -" if k is None else "task %s %d %d %d %d %d %d %d %d" % (
            k["attr"], k["tn"], k["need"], k["attempts"], k["secs"], k["wins"], k["tries"],
            k["costs"], k["elapsed"]))
        lines.append("rolls %d" % self.rolls)
        lines.append("last %s" % _last_text(self.last))
        lines.append("count %d" % self.count)
        return "\n".join(lines) + "\n"

    def dump(self):
        body = self.body()
        return body + "check %s\n" % text_digest(body)

    @classmethod
    def load(cls, text):
        try:
            return cls._load(text)
        except RulesError as e:
            if e.code == "bad_save":
                raise
            raise RulesError("bad_save", "not a sound Facets save: %s" % e)
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            raise RulesError("bad_save", "not a sound Facets save: a line is malformed")

    @classmethod
    def _load(cls, text):
        if not isinstance(text, str) or not text.endswith("\n"):
            raise RulesError("bad_save", "a Facets save is text ending in a newline")
        lines = text[:-1].split("\n")
        if lines[0] != FORMAT:
            raise RulesError("bad_save", "a Facets save starts with %r" % FORMAT)
        last = lines[-1]
        body = "\n".join(lines[:-1]) + "\n"
        if last != "check %s" % text_digest(body):
            raise RulesError("bad_save", "the save's check line does not match (torn or edited)")
        f = {}
        order = []
        for line in lines[1:-1]:
            i = line.find(" ")
            key, value = line[:i], line[i + 1:]
            if i < 1 or key in f:
                raise ValueError
            f[key] = value
            order.append(key)
        s = cls()
        s.game = check_game_id(f["game"])
        s.rng.set_state_hex(f["rng"])
        dice = f["attrs"].split()
        if len(dice) != len(ATTRS):
            raise ValueError
        for i in range(len(ATTRS)):
            s.attrs[ATTRS[i]] = check_die(dice[i])
        for t in TRACKS:
            p, m, level, kinds, chosen = f[t].split()
            s.points[t], s.maxes[t] = int(p), int(m)
            s.ladders[t] = [int(level), [] if kinds == "-" else kinds.split(","),
                            [] if chosen == "-" else [attr_key(a) for a in chosen.split(",")]]
        s.effort, s.tokens = int(f["effort"]), int(f["tokens"])
        s.dead = _bit(f["dead"])
        s.out = "" if f["out"] == "-" else f["out"]
        sp, po = f["rules"].split()
        s.rules = {"specific": _bit(sp), "positioning": _bit(po)}
        if f["traits"] != "-":
            for item in f["traits"].split(";"):
                n, a, b = item.split(":")
                s.traits.append([check_trait_name(n), attr_key(a), whole(int(b), "a bonus", -MAX_BONUS, MAX_BONUS)])
        s.scene = [] if f["scene"] == "-" else [attr_key(c) for c in f["scene"]]
        if f["task"] != "-":
            w = f["task"].split()
            nums = [int(x) for x in w[1:]]
            if len(nums) != 8:
                raise ValueError
            s.task = {"attr": attr_key(w[0]), "tn": nums[0], "need": nums[1], "attempts": nums[2],
                      "secs": nums[3], "wins": nums[4], "tries": nums[5], "costs": nums[6], "elapsed": nums[7]}
        s.rolls = int(f["rolls"])
        s.last = _last_parse(f["last"])
        s.count = int(f["count"])
        if order != list(KEYS):
            raise RulesError("bad_save", "the save's lines are not in the Facets order")
        s.check()
        return s


KEYS = ("game", "rng", "attrs", "health", "cool", "effort", "tokens", "dead", "out", "rules",
        "traits", "scene", "task", "rolls", "last", "count")


def _bit(text):
    if text not in ("0", "1"):
        raise ValueError
    return text == "1"


def check_trait_name(name):
    """A trait's name: 1..16 letters, digits or '-' (it sits in the text form)."""
    ok = isinstance(name, str) and 0 < len(name) <= 16
    if ok:
        for ch in name:
            if not (ch.isalpha() or ch.isdigit() or ch == "-") or ord(ch) > 126:
                ok = False
    if not ok:
        raise RulesError("bad_args", "a trait's name is 1 to 16 letters, digits or '-'")
    return name


# A roll in the text form: attr:die:explode:mode:bonus:tn:faces (faces dot-separated, tn -1 when none).
def _last_text(last):
    if last is None:
        return "-"
    rolls = []
    for r in last["rolls"]:
        rolls.append("%s:%d:%d:%s:%d:%d:%s" % (r["attr"], r["die"], r["explode"], r["mode"], r["bonus"],
                                               -1 if r["tn"] is None else r["tn"],
                                               ".".join("%d" % x for x in r["faces"])))
    weapon = (last["weapon"] + ("/E" if last.get("endurance") else "")) or "-"
    return "%s %s %s" % (last["kind"], weapon, " ".join(rolls))


def _last_parse(text):
    if text == "-":
        return None
    w = text.split()
    weapon = "" if w[1] == "-" else w[1]
    last = {"kind": choice(w[0], ("check", "task", "initiative", "attack", "defend"), "a roll's kind"),
            "weapon": weapon.split("/")[0], "rolls": []}
    if weapon.endswith("/E"):
        last["endurance"] = True
    for item in w[2:]:
        a, die, ex, mode, bonus, tn, faces = item.split(":")
        r = make_roll(attr_key(a), check_die(die), int(ex), choice(mode, MODES, "mode"),
                      int(bonus), None if tn == "-1" else int(tn), [int(x) for x in faces.split(".")])
        if last["kind"] == "attack":
            r["damage"] = attack_damage(last["weapon"], r, last.get("endurance", False))
        last["rolls"].append(r)
    if not 1 <= len(last["rolls"]) <= 2:
        raise ValueError
    return last


def make_roll(attr, die, explode, mode, bonus, tn, faces):
    """A roll's record with its total, margin, band and advantages."""
    total = faces[0] if mode == "calm" else sum(faces)
    r = {"attr": attr, "die": die, "explode": explode, "mode": mode, "bonus": bonus, "tn": tn,
         "faces": faces, "total": total, "result": total + bonus}
    if tn is not None:
        r["margin"] = total + bonus - tn
        r["band"] = band_of(r["margin"])
        r["advantages"] = advantages(r["margin"])
    return r


def brief(r):
    """A roll as a command's result carries it: what was rolled and read,
    defaults left out, so a reply fits the link's 480-byte frame (the full
    record is the state's ``last``)."""
    out = {"attr": r["attr"], "die": r["die"], "faces": r["faces"], "total": r["total"]}
    for key, default in (("bonus", 0), ("tn", None), ("band", None), ("advantages", 0), ("damage", 0),
                         ("effort_gained", 0), ("condition_cost", False)):
        if r.get(key, default) != default:
            out[key] = r[key]
    if r["mode"] != "normal":
        out["mode"] = r["mode"]
    if r["explode"] != r["die"]:
        out["explode"] = r["explode"]
    return out


def attack_damage(weapon, r, endurance=False):
    """Seed: a hit (success, advantage, or success with a cost) deals the
    weapon's damage (light 1, medium 3, heavy 5), "adding an extra point of
    damage for every 5 by which it exceeded the target's defense". Against
    an Endurance defence a miss still lands, less 1 armour and 1 more per 5
    it missed by beyond a failure's first point (seed: "rather than
    eliminating damage on a success it instead gives the defending
    character 1 armor against the attack on a success (+1 per shift)")."""
    for w, d in WEAPONS:
        if w == weapon:
            if r["band"] in ("advantage", "success", "cost"):
                return d + r["advantages"]
            if endurance:
                return max(0, d - 1 - (-r["margin"] - 6) // 5)
            return 0
    raise RulesError("bad_args", "weapon is light, medium or heavy, not %r" % (weapon,))


# Fields of FacetsState that commands change in place.
MUTABLE = ("attrs", "points", "maxes", "ladders", "rules", "traits", "scene", "task", "last")


class Game(Atomic):
    STATE = FacetsState
    MUTABLE = MUTABLE
    SYSTEM = "facets"
    FORMAT = FORMAT
    COMMANDS = ("set_attr", "set_max", "set_rule", "trait_add", "trait_drop", "roll", "task_start",
                "task_roll", "task_end", "initiative", "attack", "defend", "maneuver", "damage", "heal",
                "taken_out", "recover", "regain", "effort", "token", "withdraw", "new_scene")

    OPTIONS = ("attrs", "health", "cool", "specific", "positioning")

    @classmethod
    def new(cls, seed=0, **options):
        """A fresh character: every attribute d8 unless ``attrs`` says (a
        map of letters or names to dice), 10 Health and 10 Cool unless
        ``health``/``cool`` say, optional rules ``specific``/``positioning``."""
        for k in options:
            if k not in cls.OPTIONS:
                raise RulesError("bad_args", "a Facets character takes %s, not %r" % (", ".join(cls.OPTIONS), k))
        s = FacetsState()
        s.rng.seed(seed)
        s.game = "%08x" % s.rng.next32()
        for t in TRACKS:
            s.maxes[t] = s.points[t] = whole(options.get(t, 10), t, 1, MAX_POINTS)
        for rule in RULES:
            s.rules[rule] = flag(options.get(rule, False), rule)
        attrs = options.get("attrs")
        if attrs is not None:
            if type(attrs) is not dict:
                raise RulesError("bad_args", "attrs is a map of attribute to die")
            for k in attrs:
                s.attrs[attr_key(k)] = check_die(attrs[k])
        s.check()
        return cls(s)

    # -- guards ------------------------------------------------------------
    def _able(self, what):
        if self.s.dead:
            raise RulesError("dead", "your character is dead and cannot %s" % what)
        if self.s.out:
            raise RulesError("taken_out", "your character is taken out (%s 0): choose the consequence first" % self.s.out)

    def _not_out(self):
        if self.s.out:
            raise RulesError("taken_out", "choose the consequence of being taken out first")

    def _track(self, track):
        return choice(track, TRACKS, "track")

    # -- the sheet -----------------------------------------------------------
    def set_attr(self, attr, die):
        a = attr_key(attr)
        self.s.attrs[a] = check_die(die)
        self.event("attr", a, "d%d" % self.s.attrs[a])

    def set_max(self, track, value):
        t = self._track(track)
        s = self.s
        s.maxes[t] = whole(value, "a maximum", 1, MAX_POINTS)
        if s.points[t] > s.maxes[t]:
            s.points[t] = s.maxes[t]
        self.event(t, "max", value)

    def set_rule(self, rule, on):
        self.s.rules[choice(rule, RULES, "rule")] = flag(on, "on")
        self.event("rule", rule, "on" if on else "off")

    def trait_add(self, name, attr, bonus):
        s = self.s
        check_trait_name(name)
        for t in s.traits:
            if t[0] == name:
                raise RulesError("trait_exists", "there is already a trait %s" % name)
        if len(s.traits) >= MAX_TRAITS:
            raise RulesError("too_many", "a sheet holds at most %d traits" % MAX_TRAITS)
        s.traits.append([name, attr_key(attr), whole(bonus, "a bonus", -MAX_BONUS, MAX_BONUS)])
        self.event("trait", name)

    def trait_drop(self, name):
        s = self.s
        for i in range(len(s.traits)):
            if s.traits[i][0] == name:
                s.traits.pop(i)
                self.event("trait dropped", name)
                return
        raise RulesError("no_trait", "there is no trait %r" % (name,))

    # -- the dice ----------------------------------------------------------------
    def penalties(self, attr):
        """The condition penalties on ``attr``: a list of kinds. Seed: hurt
        puts one on the chosen attribute; injured a second on it and on a
        second attribute; crippled (exhausted) all three on all three."""
        out = []
        for t in TRACKS:
            level, kinds, chosen = self.s.ladders[t]
            if level == 3:
                if attr in GROUPS[t]:
                    out += kinds
            else:
                if level >= 1 and attr == chosen[0]:
                    out.append(kinds[0])
                if level == 2 and attr in chosen:
                    out.append(kinds[1])
        return out

    def die_for(self, attr, steps=0):
        """The attribute's die after its conditions (two steps down per
        'step' penalty) and ``steps`` (paired attacks, Specific Defenses)."""
        down = 0
        for k in self.penalties(attr):
            if k == "step":
                down += 2
        return step_die(self.s.attrs[attr], steps - down)

    def trait_bonus(self, trait, attr):
        if not trait:
            return 0
        for n, a, b in self.s.traits:
            if n == trait:
                if a != attr:
                    raise RulesError("trait_attr", "trait %s is for %s, not %s" % (n, attr_name(a), attr_name(attr)))
                return b
        raise RulesError("no_trait", "there is no trait %r" % (trait,))

    def _roll(self, attr, tn, bonus, effort, mode, explode, steps, trait):
        """One roll on ``attr`` (not recorded): the shared part of every check."""
        s = self.s
        whole(bonus, "bonus", -MAX_BONUS, MAX_BONUS)
        whole(effort, "effort", 0, MAX_POINTS)
        choice(mode, MODES, "mode")
        die = self.die_for(attr, steps)
        explode = whole(explode, "explode", 0, 20) or die
        if not die // 2 < explode <= die:
            raise RulesError("bad_args", "a d%d explodes on a face from %d to %d" % (die, die // 2 + 1, die))
        if effort:
            if "effort" in self.penalties(attr):
                raise RulesError("no_effort", "a condition keeps you from spending effort on %s" % attr_name(attr))
            if effort > s.effort:
                raise RulesError("no_effort", "you have %d effort, not %d" % (s.effort, effort))
        total_bonus = bonus + self.trait_bonus(trait, attr) + EFFORT_BONUS * effort
        return make_roll(attr, die, explode, mode, total_bonus, tn, roll_faces(s.rng, die, explode, mode))

    def _settle(self, r, spent):
        """After a rolled test: effort earned on a failure ("one on a
        failure, two on a critical failure" - fail_cost is our critical
        failure) and the 'cost' condition on the first success of a scene."""
        s = self.s
        band = r.get("band")
        gain = {"fail": 1, "fail_cost": 2}.get(band, 0)
        if gain:
            s.effort = min(MAX_POINTS, s.effort + gain)
            self.event("effort +%d" % gain)
        r["effort_gained"] = gain
        r["condition_cost"] = False
        if band in ("success", "advantage") and "cost" in self.penalties(r["attr"]) and r["attr"] not in s.scene:
            s.scene.append(r["attr"])
            r["condition_cost"] = True
            self.event("condition cost", r["attr"])

    def _spend(self, effort):
        if effort:
            self.s.effort -= effort
            self.event("effort -%d" % effort)

    def _record(self, kind, weapon, rolls):
        # The stored record keeps only what the text form can give back.
        kept = []
        for r in rolls:
            k = deep_copy(r)
            k.pop("effort_gained", None)
            k.pop("condition_cost", None)
            kept.append(k)
        self.s.last = {"kind": kind, "weapon": weapon, "rolls": kept}
        self.s.rolls += 1

    def roll(self, attr, tn, bonus=0, effort=0, mode="normal", explode=0, trait=""):
        """A check of ``attr`` against ``tn``."""
        self._able("roll")
        a = attr_key(attr)
        whole(tn, "the target number", 1, MAX_POINTS)
        r = self._roll(a, tn, bonus, effort, mode, explode, 0, trait)
        self._spend(effort)
        self._settle(r, effort)
        self._record("check", "", [r])
        return {"roll": brief(r)}

    # -- extended tasks ------------------------------------------------------------
    def task_state(self):
        """'open', 'done' or 'impossible' (seed: "failing four times makes
        the task impossible" for 2/5: too few attempts left for the
        successes still needed)."""
        k = self.s.task
        if k is None:
            return ""
        if k["wins"] >= k["need"]:
            return "done"
        if k["attempts"] - k["tries"] < k["need"] - k["wins"]:
            return "impossible"
        return "open"

    def task_start(self, attr=None, tn=None, need=1, attempts=1, secs=0, check=None):
        """An extended task, from its parts or the seed's notation
        ``check="[Finesse 8 - 2/5 - 30s]"``."""
        self._able("start a task")
        if self.task_state() == "open":
            raise RulesError("task_open", "finish or end the current task first")
        if check is not None:
            if not isinstance(check, str):
                raise RulesError("bad_args", "check is text like [Finesse 8 - 2/5 - 30s]")
            k = parse_check(check)
        else:
            k = {"attr": attr_key(attr), "tn": tn, "need": need, "attempts": attempts, "secs": secs}
        whole(k["tn"], "the target number", 1, MAX_POINTS)
        whole(k["attempts"], "attempts", 1, MAX_POINTS)
        whole(k["need"], "successes needed", 1, k["attempts"])
        whole(k["secs"], "time per attempt", 0, 30 * 86400)
        k["wins"] = k["tries"] = k["costs"] = k["elapsed"] = 0
        self.s.task = k
        self.event("task", check_text(k))
        return {"task": check_text(k)}

    def task_roll(self, bonus=0, effort=0, mode="normal", explode=0, trait=""):
        """One attempt at the task. A success, an advantage or a success
        with a cost counts one success (a cost is noted: "the task is
        accomplished, but only halfway or with complications")."""
        self._able("roll")
        k = self.s.task
        if k is None or self.task_state() != "open":
            raise RulesError("no_task", "there is no open task to attempt")
        r = self._roll(k["attr"], k["tn"], bonus, effort, mode, explode, 0, trait)
        self._spend(effort)
        self._settle(r, effort)
        k["tries"] += 1
        # Seed: a calm check takes "double the usual time per check".
        k["elapsed"] += k["secs"] * (2 if mode == "calm" else 1)
        if r["band"] in ("advantage", "success", "cost"):
            k["wins"] += 1
            if r["band"] == "cost":
                k["costs"] += 1
        self._record("task", "", [r])
        state = self.task_state()
        self.event("task", "%d/%d" % (k["wins"], k["need"]), "after", k["tries"], state)
        return {"roll": brief(r), "task": state}

    def task_end(self):
        if self.s.task is None:
            raise RulesError("no_task", "there is no task to end")
        self.event("task ended", self.task_state())
        self.s.task = None

    # -- conflicts -------------------------------------------------------------------
    def initiative(self, kind="physical", bonus=0, mode="normal"):
        """Seed: "Finesse or Wit - for physical fights or social fights"."""
        self._able("roll initiative")
        a = "F" if choice(kind, ("physical", "social"), "kind") == "physical" else "W"
        r = self._roll(a, None, bonus, 0, mode, 0, 0, "")
        self._record("initiative", "", [r])
        return {"roll": brief(r)}

    def attack(self, attr, tn, weapon="medium", double=False, kind="physical", bonus=0, effort=0,
                  mode="normal", acted=False, trait="", endurance=False):
        """An attack (weapon) or approach (social) against the defence total
        ``tn``; ``double`` pairs two attacks at a die-step loss; ``acted``:
        the target has already acted this exchange (Positioning, +1);
        ``endurance``: the target defended with Endurance."""
        self._able("attack")
        s = self.s
        a = attr_key(attr)
        whole(tn, "the target number", 1, MAX_POINTS)
        choice(weapon, ("light", "medium", "heavy"), "weapon")
        choice(kind, ("physical", "social"), "kind")
        flag(double, "double")
        flag(acted, "acted")
        if flag(endurance, "endurance") and kind == "social":
            raise RulesError("bad_args", "an Endurance defence is against physical attacks")
        if double and weapon == "heavy":
            raise RulesError("heavy_pair", "a heavy weapon or approach cannot be paired with another")
        if acted and s.rules["positioning"]:
            bonus += 1
            self.event("positioning +1")
        steps = -DOUBLE_STEPS[weapon] if double else 0
        rolls = [self._roll(a, tn, bonus, effort, mode, 0, steps, trait)]
        if double:
            rolls.append(self._roll(a, tn, bonus, effort, mode, 0, steps, trait))
        self._spend(effort)
        deal = to_them = to_me = 0
        for r in rolls:
            self._settle(r, effort)
            b = r["band"]
            r["damage"] = attack_damage(weapon, r, endurance)
            deal += r["damage"]
            if b in ("cost", "fail_cost"):
                to_them += 1
            if kind == "social" and weapon == "heavy" and b in ("fail", "fail_cost"):
                to_them += 1  # "If you use a heavy approach and it's unsuccessful"
        if kind == "social" and weapon == "light" and not double:
            to_me = 1  # "only one approach and it's a light approach"
            s.tokens = min(MAX_POINTS, s.tokens + 1)
            self.event("token +1")
        self._record("attack", weapon, rolls)
        if endurance:
            self.s.last["endurance"] = True
        self.event("deal", deal, "tokens to target", to_them)
        return {"rolls": [brief(r) for r in rolls], "damage": deal, "target_tokens": to_them, "tokens": to_me}

    def defend(self, attr, weapon="medium", bonus=0, effort=0, mode="normal", trait=""):
        """A defence roll: its result is the attacker's target number. With
        Specific Defenses, Strength against light and Finesse against heavy
        go one die step up, the other way round one step down."""
        self._able("defend")
        a = attr_key(attr)
        choice(weapon, ("light", "medium", "heavy"), "weapon")
        steps = 0
        if self.s.rules["specific"] and weapon != "medium":
            good = "S" if weapon == "light" else "F"
            bad = "F" if weapon == "light" else "S"
            steps = 1 if a == good else (-1 if a == bad else 0)
        r = self._roll(a, None, bonus, effort, mode, 0, steps, trait)
        self._spend(effort)
        self._record("defend", weapon, [r])
        # What the defence gives if it holds (the attacker's roll says): a
        # token for Strength, armour instead of a dodge for Endurance.
        then = {"S": "a miss gives you a token", "E": "a miss still hits, less 1+ armour"}.get(a, "")
        return {"roll": brief(r), "then": then}

    def maneuver(self, attr, tn, aim="advantage", bonus=0, effort=0, mode="normal", trait=""):
        """Seed: "you determine whether you're seeking an advantage or
        attempting to hinder another character" (the text stops there; our
        side, docs/rules.md): a check; a hit (cost included) seeking an
        advantage gains a token and one more per advantage; a hinder that
        hits puts on the target the penalty the GM names."""
        self._able("maneuver")
        a = attr_key(attr)
        whole(tn, "the target number", 1, MAX_POINTS)
        choice(aim, ("advantage", "hinder"), "aim")
        r = self._roll(a, tn, bonus, effort, mode, 0, 0, trait)
        self._spend(effort)
        self._settle(r, effort)
        hit = r["band"] in ("advantage", "success", "cost")
        gained = 1 + r["advantages"] if hit and aim == "advantage" else 0
        if gained:
            self.s.tokens = min(MAX_POINTS, self.s.tokens + gained)
            self.event("token +%d" % gained)
        self._record("check", "", [r])
        return {"roll": brief(r), "tokens": gained, "hindered": hit and aim == "hinder"}

    def damage(self, track, amount, armor=0):
        """Seed: damage is reduced by the armor rating, to a minimum of 0;
        at 0 the character is taken out."""
        self._able("take damage")
        t = self._track(track)
        s = self.s
        whole(amount, "damage", 0, MAX_POINTS)
        whole(armor, "armor", 0, MAX_POINTS)
        lost = min(s.points[t], max(0, amount - armor))
        s.points[t] -= lost
        self.event(t, "-%d" % lost)
        if s.points[t] == 0:
            s.out = t
            self.event("taken out")
        return {"lost": lost, "taken_out": s.points[t] == 0}

    def heal(self, track, amount):
        t = self._track(track)
        s = self.s
        if s.dead:
            raise RulesError("dead", "your character is dead")
        whole(amount, "amount", 0, MAX_POINTS)
        self._not_out()
        s.points[t] = min(s.maxes[t], s.points[t] + amount)
        self.event(t, "+%d" % amount)

    def taken_out(self, how="consequence", attr="", penalty="step", deadly=False):
        """The end of being taken out. ``how``: "consequence" (the next rung
        of the ladder: hurt, injured, crippled, dead / weary, drained,
        exhausted), "deal" (the attacker's offer, say knocked out, instead of
        the consequence) or "resist" (seed: "spend a point of effort, regain
        one Health, are hurt, and stay in the fight"). ``attr``: the
        attribute the penalty falls on (the first rung: Endurance or
        Composure by default; the second: a second attribute); ``deadly``:
        death instead of crippled (seed: "rather than becoming crippled a
        character simply dies")."""
        s = self.s
        if s.dead:
            raise RulesError("dead", "your character is dead")
        t = s.out
        if not t:
            raise RulesError("not_out", "your character is not taken out")
        choice(how, ("consequence", "deal", "resist"), "how")
        flag(deadly, "deadly")
        if how == "deal":
            s.out = ""
            self.event("took the deal")
            return {"rung": self.rung(t)}
        if how == "resist":
            if s.effort < 1:
                # "If they can't spend the effort, they can't resist - they take the deal."
                raise RulesError("no_effort", "resisting costs a point of effort and you have none")
            s.effort -= 1
            s.points[t] = 1
            self.event("resisted", "effort -1", t, "+1")
        else:
            s.out = ""
        self._worsen(t, attr, choice(penalty, PENALTIES, "penalty"), deadly)
        if how == "resist":
            s.out = ""
        return {"rung": self.rung(t), "dead": s.dead}

    def rung(self, track):
        level = self.s.ladders[track][0]
        if track == "health" and self.s.dead:
            return "dead"
        return LADDERS[track][level - 1] if level else ""

    def _worsen(self, t, attr, penalty, deadly):
        s = self.s
        level, kinds, chosen = s.ladders[t]
        if level == 3 or (level == 2 and deadly and t == "health"):
            if t == "health":
                # "A crippled character that gets taken out dies."
                if level == 2:
                    kinds.append(penalty)
                    s.ladders[t][0] = 3
                s.dead = True
                self.event("dead")
                return
            # Our side: the seed has no social death; exhausted stays exhausted.
            self.event(LADDERS[t][2], "again")
            return
        if level == 0:
            chosen.append(attr_key(attr) if attr else DEFAULT_HURT[t])
        elif level == 1:
            if not attr:
                raise RulesError("bad_args", "name the second attribute the new penalty falls on")
            a = attr_key(attr)
            if a == chosen[0]:
                raise RulesError("bad_args", "the second penalty falls on %s and a second attribute" % attr_name(a))
            chosen.append(a)
        kinds.append(penalty)
        s.ladders[t][0] = level + 1
        self.event(LADDERS[t][level], penalty, ",".join(chosen) if level < 2 else ",".join(GROUPS[t]))

    # Seed: a day of rest removes hurt, a week turns injured to hurt, a month
    # crippled to injured; "Professional assistance halves the time."
    RECOVERY_DAYS = (1, 7, 30)

    def recover(self, track, professional=False):
        """The condition one rung better after its rest."""
        t = self._track(track)
        s = self.s
        if s.dead:
            raise RulesError("dead", "your character is dead")
        level, kinds, chosen = s.ladders[t]
        if level == 0:
            raise RulesError("no_condition", "there is no %s condition to recover from" % t)
        days = self.RECOVERY_DAYS[level - 1]
        half = flag(professional, "professional")
        kinds.pop()
        if level <= 2:
            chosen.pop()
        s.ladders[t][0] = level - 1
        took = ("%d.5" % (days // 2) if days % 2 else "%d" % (days // 2)) if half else "%d" % days
        self.event(LADDERS[t][level - 1], "recovered after", took, "days of rest")
        return {"days": took, "rung": self.rung(t)}

    def regain(self, track, minutes=0, hours=0, days=0, resting=False, care=False):
        """Health or Cool back over time, by the track's rung (seed: all
        after ten minutes when healthy; all after four hours when hurt,
        half the maximum after 10 minutes to 4 hours; injured a third a day,
        all in three days, two resting, one with good care; crippled one a
        day, two resting, three resting with care)."""
        t = self._track(track)
        s = self.s
        if s.dead:
            raise RulesError("dead", "your character is dead")
        self._not_out()
        whole(minutes, "minutes", 0, 100000)
        whole(hours, "hours", 0, 100000)
        whole(days, "days", 0, 10000)
        resting, care = flag(resting, "resting"), flag(care, "care")
        mins = minutes + 60 * hours + 1440 * days
        m = s.maxes[t]
        level = s.ladders[t][0]
        if level == 0:
            gain = m if mins >= 10 else 0
        elif level == 1:
            gain = m if mins >= 240 else (m // 2 if mins >= 10 else 0)
        elif level == 2:
            whole_in = 1 if (resting and care) else (2 if resting else 3)
            d = mins // 1440
            gain = m if d >= whole_in else d * (m // whole_in)
        else:
            d = mins // 1440
            gain = d * (3 if resting and care else (2 if resting else 1))
        before = s.points[t]
        s.points[t] = min(m, before + gain)
        self.event(t, "+%d" % (s.points[t] - before))
        return {"gained": s.points[t] - before}

    def effort(self, delta):
        """Effort earned by roleplay (+) or spent on an ability (-)."""
        s = self.s
        whole(delta, "delta", -MAX_POINTS, MAX_POINTS)
        if not 0 <= s.effort + delta <= MAX_POINTS:
            raise RulesError("no_effort", "effort would be %d: it stays from 0 to %d" % (s.effort + delta, MAX_POINTS))
        s.effort += delta
        self.event("effort", "%+d" % delta if delta else "0")

    def token(self, delta):
        s = self.s
        whole(delta, "delta", -MAX_POINTS, MAX_POINTS)
        if not 0 <= s.tokens + delta <= MAX_POINTS:
            raise RulesError("no_token", "tokens would be %d" % (s.tokens + delta))
        s.tokens += delta
        self.event("tokens", s.tokens)

    def withdraw(self, prevented=False):
        """Seed: withdrawing leaves the conflict with no consequence; "A
        character that attempts to withdraw and is prevented earns three
        extra points of Effort"."""
        self._able("withdraw")
        if flag(prevented, "prevented"):
            self.s.effort = min(MAX_POINTS, self.s.effort + 3)
            self.event("withdrawal prevented", "effort +3")
        else:
            self.event("withdrew")

    def new_scene(self):
        self.s.scene = []
        self.event("new scene")

    # -- summary and odds -------------------------------------------------------------
    def summary(self):
        s = self.s
        attrs = {}
        dice = {}
        for a in ATTRS:
            attrs[a] = s.attrs[a]
            dice[a] = self.die_for(a)
        ladders = {}
        for t in TRACKS:
            level, kinds, chosen = s.ladders[t]
            ladders[t] = {"level": level, "word": LADDERS[t][level - 1] if level else "",
                          "penalties": list(kinds), "attrs": list(chosen)}
        task = None
        if s.task is not None:
            task = dict(s.task)
            task["text"] = check_text(s.task)
            task["state"] = self.task_state()
        return {"system": "facets", "count": s.count, "game": s.game, "attrs": attrs, "dice": dice,
                "health": [s.points["health"], s.maxes["health"]], "cool": [s.points["cool"], s.maxes["cool"]],
                "effort": s.effort, "tokens": s.tokens, "ladders": ladders, "dead": s.dead, "out": s.out,
                "rules": dict(s.rules), "traits": [list(t) for t in s.traits], "task": task,
                "rolls": s.rolls, "last": deep_copy(s.last)}

    def odds_query(self, args):
        """Exact band odds: {die|attr, tn, bonus, mode, explode}. With an
        attribute, its die as the conditions leave it."""
        from shared_rules.facets.odds import odds

        args = args or {}
        if args.get("attr"):
            die = self.die_for(attr_key(args["attr"]))
        else:
            die = check_die(args.get("die", 8))
        mode = choice(args.get("mode", "normal"), MODES, "mode")
        tn = whole(args.get("tn", 8), "the target number", 1, MAX_POINTS)
        bonus = whole(args.get("bonus", 0), "bonus", -MAX_BONUS, MAX_BONUS)
        explode = whole(args.get("explode", 0), "explode", 0, 20) or die
        if not die // 2 < explode <= die:
            raise RulesError("bad_args", "a d%d explodes on a face from %d to %d" % (die, die // 2 + 1, die))
        return odds(die, tn, bonus, mode, explode)

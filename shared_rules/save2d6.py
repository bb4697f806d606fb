"""SAVE's 2d6 resolution (seed 003, "Playing the Game"): one hero's device.

Before a roll the device shows which faces pass (pass_faces); two d6 are
rolled from the portable PRNG and read: both pass = complete success, one =
mixed result, none = complete failure. A two that comes up before anyone has
assisted sets the roll aside (result "pending") until another hero's
assisting action is known (``assist``) or the player resolves it as rolled
(``decline``). Health, destiny, pursuit and history are kept here; clocks
live on the hub and are only mirrored (``set_clocks``) so every device shows
them. docs/rules.md (SAVE) cites the seed sentence behind each rule and the
side taken wherever the seed is silent.

``SaveGame.do(op, args)`` is atomic like shared_rules.game.Game.do: a
refused command leaves the state exactly as it was.
"""

import json

from shared_rules.atomic import Atomic, snapshot
from shared_rules.errors import RulesError
from shared_rules.prng import Rng
from shared_rules.state import text_digest

FORMAT = "save2d6 1"
HEALTH = ("strong", "fair", "shaken", "hurt", "down")
RESULTS = ("complete", "mixed", "failure")
RESULT_WORDS = {"complete": "complete success", "mixed": "mixed result", "failure": "complete failure"}
# An assisting action's outcome as a roll knows it: "" no one has assisted,
# "yes" assisted with a complete or mixed result (word unknown), or the word.
ASSISTS = ("", "yes", "complete", "mixed", "failure")
DESTINY_USES = ("complete", "fact", "restore", "restore_other")
CLOCK_KINDS = ("progress", "setback")
MAX_TEXT = 40  # characters of a pursuit or a history item
MAX_HISTORY = 40
MAX_CLOCKS = 6
MAX_CLOCK_NAME = 16
MIN_SEGMENTS, MAX_SEGMENTS = 2, 12
MAX_COUNT = 10 ** 9

# The last roll, saved as a JSON list in this order (JSON objects would not
# keep their key order on every runtime).
ROLL_FIELDS = ("dice", "faces", "rolled", "result", "preferred", "expertise", "assist",
               "nick", "injury", "harm", "assisting", "pursuit", "destiny")
OPTIONS = ("pursuit", "history", "health")


def pass_faces(preferred=False, expertise=False, assisted=False, health="strong"):
    """The faces that pass, lowest first (seed: "Sixes always pass" ...
    "Ones always fail")."""
    faces = []
    if assisted:
        faces.append(2)
    if health in ("strong", "fair"):
        faces.append(3)
    if expertise:
        faces.append(4)
    if preferred:
        faces.append(5)
    faces.append(6)
    return faces


def read(dice, faces):
    """complete / mixed / failure for two dice and a pass set."""
    passed = 0
    for d in dice:
        if d in faces:
            passed += 1
    return RESULTS[2 - passed]


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def fraction(a, b):
    """'a/b' reduced (MicroPython has no fractions module)."""
    g = _gcd(a, b) or 1
    return "%d/%d" % (a // g, b // g)


def odds(faces):
    """Exact odds of each result for a pass set: out of the 36 equally
    likely rolls, n*n pass both, 2*n*(6-n) one, (6-n)**2 none."""
    n = len(faces)
    return {"complete": fraction(n * n, 36), "mixed": fraction(2 * n * (6 - n), 36),
            "failure": fraction((6 - n) * (6 - n), 36)}


def _flag(value, name):
    if value is True or value is False:
        return value
    raise RulesError("bad_args", "%s must be true or false" % name)


def check_health(value):
    if value not in HEALTH:
        raise RulesError("bad_health", "health is one of strong, fair, shaken, hurt, down (not %r)" % (value,))
    return value


def check_assist(value):
    """An assisted= argument: true/false, or the assisting action's result."""
    if value is True:
        return "yes"
    if value is False or value is None:
        return ""
    if value in RESULTS:
        return value
    raise RulesError("bad_args", "assisted is true, false, complete, mixed or failure (not %r)" % (value,))


def check_text(value, what, empty_ok=True):
    if not isinstance(value, str) or len(value) > MAX_TEXT or (not empty_ok and not value):
        raise RulesError("bad_text", "%s is %s to %d characters" % (what, "0" if empty_ok else "1", MAX_TEXT))
    for ch in value:
        if not " " <= ch <= "~":
            raise RulesError("bad_text", "%s uses printable ASCII only" % what)
    return value


def check_clock(c):
    """[name, kind, segments, filled] from a clock dict or list; RulesError if bad."""
    if isinstance(c, dict):
        try:
            c = [c["name"], c.get("kind", "progress"), c["segments"], c.get("filled", 0)]
        except KeyError as e:
            raise RulesError("bad_clock", "a clock needs a name and segments (missing %s)" % (e,))
    if not isinstance(c, list) or len(c) != 4:
        raise RulesError("bad_clock", "a clock is a name, a kind, segments and filled segments")
    name, kind, segments, filled = c
    if not isinstance(name, str) or not 0 < len(name) <= MAX_CLOCK_NAME:
        raise RulesError("bad_clock", "a clock's name is 1 to %d characters" % MAX_CLOCK_NAME)
    check_text(name, "a clock's name")
    if kind not in CLOCK_KINDS:
        raise RulesError("bad_clock", "a clock is a progress or a setback clock (not %r)" % (kind,))
    if type(segments) is not int or not MIN_SEGMENTS <= segments <= MAX_SEGMENTS:
        raise RulesError("bad_clock", "a clock has %d to %d segments" % (MIN_SEGMENTS, MAX_SEGMENTS))
    if type(filled) is not int or not 0 <= filled <= segments:
        raise RulesError("bad_clock", "a clock's filled segments are 0 to its %d segments" % segments)
    return [name, kind, segments, filled]


def roll_dict(values):
    out = {}
    for k, v in zip(ROLL_FIELDS, values):
        out[k] = v
    return out


class SaveState:
    """Plain data: one hero. ``roll`` is the last roll (a ROLL_FIELDS dict)
    or None; ``clocks`` the hub's clocks as [name, kind, segments, filled]."""

    def __init__(self):
        self.rng = Rng(0)
        self.game = ""
        self.health = "strong"
        self.destiny = "ready"  # "spent" until the pursuit is exercised
        self.pursuit = ""
        self.history = []
        self.session = 0  # sessions ended (each may add one history item)
        self.rolls = 0  # rolls made: a screen knows a new one from it
        self.roll = None
        self.clocks = []
        self.count = 0

    def check(self):
        """The validity check ("conservation" of this system), after every
        command and on load."""
        check_health(self.health)
        if self.destiny not in ("ready", "spent"):
            raise RulesError("invalid", "destiny is ready or spent")
        check_text(self.pursuit, "the pursuit")
        if not isinstance(self.history, list) or len(self.history) > MAX_HISTORY:
            raise RulesError("invalid", "history is a list of at most %d items" % MAX_HISTORY)
        for item in self.history:
            check_text(item, "a history item", False)
        for n, what in ((self.session, "session"), (self.rolls, "rolls"), (self.count, "count")):
            if type(n) is not int or not 0 <= n <= MAX_COUNT:
                raise RulesError("invalid", "%s must be a whole number of 0 or more" % what)
        _check_game_id(self.game)
        if not isinstance(self.clocks, list) or len(self.clocks) > MAX_CLOCKS:
            raise RulesError("invalid", "at most %d clocks" % MAX_CLOCKS)
        names = []
        for c in self.clocks:
            check_clock(c)
            if c[0] in names:
                raise RulesError("bad_clock", "two clocks are named %s" % c[0])
            names.append(c[0])
        if self.roll is not None:
            _check_roll(self.roll)

    def dump(self):
        roll = "-"
        if self.roll is not None:
            roll = json.dumps([self.roll[k] for k in ROLL_FIELDS])
        body = ("%s\nrng %s\nhealth %s\ndestiny %s\npursuit %s\nhistory %s\nsession %d\nrolls %d\nroll %s"
                "\nclocks %s\ncount %d\ngame %s\n") % (
            FORMAT, self.rng.state_hex(), self.health, self.destiny, json.dumps(self.pursuit),
            json.dumps(self.history), self.session, self.rolls, roll, json.dumps(self.clocks), self.count, self.game)
        return body + "check %s\n" % text_digest(body)

    @classmethod
    def load(cls, text):
        if not isinstance(text, str):
            raise RulesError("bad_save", "a save is text")
        lines = text.split("\n")
        if not lines or lines[0] != FORMAT:
            raise RulesError("bad_save", "not a SAVE 2d6 save (first line must be %r)" % FORMAT)
        keys = ("rng", "health", "destiny", "pursuit", "history", "session", "rolls", "roll", "clocks",
                "count", "game", "check")
        if len(lines) != len(keys) + 2 or lines[-1] != "":
            raise RulesError("bad_save", "a SAVE 2d6 save has %d lines" % (len(keys) + 1))
        f = {}
        for key, line in zip(keys, lines[1:]):
            if not line.startswith(key + " "):
                raise RulesError("bad_save", "line %r should start with %r" % (line[:20], key))
            f[key] = line[len(key) + 1:]
        body = text[:text.rfind("check ")]
        if f["check"] != text_digest(body):
            raise RulesError("bad_save", "the save's check value does not match (torn or edited)")
        s = cls()
        try:
            s.rng.set_state_hex(f["rng"])
            s.health = f["health"]
            s.destiny = f["destiny"]
            s.pursuit = json.loads(f["pursuit"])
            s.history = json.loads(f["history"])
            s.session = int(f["session"])
            s.rolls = int(f["rolls"])
            if f["roll"] != "-":
                values = json.loads(f["roll"])
                if not isinstance(values, list) or len(values) != len(ROLL_FIELDS):
                    raise RulesError("bad_save", "the last roll needs %d values" % len(ROLL_FIELDS))
                s.roll = roll_dict(values)
            s.clocks = json.loads(f["clocks"])
            s.count = int(f["count"])
            s.game = f["game"]
            s.check()
        except RulesError as e:
            raise RulesError("bad_save", "saved state is invalid: %s" % e)
        except (ValueError, TypeError, KeyError, IndexError) as e:
            raise RulesError("bad_save", "saved state is invalid: %s %s" % (type(e).__name__, e))
        return s


def _check_game_id(text):
    if not isinstance(text, str) or not 0 < len(text) <= 16 or not _alnum(text):
        raise RulesError("invalid", "a game id is 1 to 16 letters and digits")


def _alnum(text):
    for ch in text:
        if not ("0" <= ch <= "9" or "a" <= ch <= "z" or "A" <= ch <= "Z"):
            return False
    return True


def _check_roll(r):
    dice = r["dice"]
    if not isinstance(dice, list) or len(dice) != 2:
        raise RulesError("invalid", "a roll has two dice")
    for d in dice:
        if type(d) is not int or not 1 <= d <= 6:
            raise RulesError("invalid", "a die shows 1 to 6")
    faces = r["faces"]
    if not isinstance(faces, list) or 6 not in faces or 1 in faces or sorted(faces) != faces:
        raise RulesError("invalid", "a pass set holds 6, never 1, lowest first")
    for f in faces:
        if f not in (2, 3, 4, 5, 6) or faces.count(f) != 1:
            raise RulesError("invalid", "a pass set holds each of 2..6 at most once")
    if r["rolled"] not in RESULTS or r["rolled"] != read(dice, _faces_as_rolled(r)):
        raise RulesError("invalid", "the roll as rolled does not match its dice")
    for k in ("preferred", "expertise", "nick", "injury", "assisting", "pursuit"):
        if r[k] is not True and r[k] is not False:
            raise RulesError("invalid", "a roll's %s is true or false" % k)
    if r["assist"] not in ASSISTS or r["destiny"] not in ("", "before", "after"):
        raise RulesError("invalid", "a roll's assist or destiny is out of range")
    if type(r["harm"]) is not int or not 0 <= r["harm"] <= 2:
        raise RulesError("invalid", "a roll's harm is 0 to 2 levels")
    result = r["result"]
    if result == "pending":
        if 2 not in dice or r["assist"] or r["destiny"] or r["harm"]:
            raise RulesError("invalid", "only a roll with a two and no assist yet waits for one")
    elif result not in RESULTS:
        raise RulesError("invalid", "a roll's result is pending, complete, mixed or failure")
    elif r["destiny"]:
        if result != "complete":
            raise RulesError("invalid", "destiny makes a complete success")
    elif result != read(dice, faces):
        raise RulesError("invalid", "the roll's result does not match its dice and pass set")


def _faces_as_rolled(r):
    # A two passed after the roll only through assistance in the nick of time.
    if r["nick"]:
        return [f for f in r["faces"] if f != 2]
    return r["faces"]


# Fields of SaveState that commands change in place (atomic.snapshot copies them).
MUTABLE = ("history", "clocks", "roll")


class SaveGame(Atomic):
    SYSTEM = "save"
    FORMAT = FORMAT
    COMMANDS = ("roll", "assist", "decline", "destiny", "pursue", "injure", "rest", "set_health",
                "set_pursuit", "end_session", "set_clocks")

    def __init__(self, state):
        self.s = state
        self.events = []

    @classmethod
    def new(cls, seed=0, **options):
        """A fresh hero, Strong with destiny ready (seed: "A hero starts
        out Strong"). Options: pursuit (text), history (the role's early and
        relationship history items), health."""
        for k in options:
            if k not in OPTIONS:
                raise RulesError("bad_args", "a SAVE hero takes pursuit, history and health, not %r" % (k,))
        s = SaveState()
        s.rng.seed(seed)
        s.game = "%08x" % s.rng.next32()
        s.pursuit = check_text(options.get("pursuit", ""), "the pursuit")
        history = options.get("history", [])
        if not isinstance(history, list):
            raise RulesError("bad_args", "history is a list of items")
        s.history = [check_text(h, "a history item", False) for h in history]
        s.health = check_health(options.get("health", "strong"))
        try:
            s.check()
        except RulesError as e:
            raise RulesError("bad_args", str(e))
        return cls(s)

    @classmethod
    def load(cls, text):
        return cls(SaveState.load(text))

    def dump(self):
        return self.s.dump()

    def digest(self):
        return text_digest(self.s.dump())

    def do(self, op, args=None):
        """Apply one command atomically; returns its result dict."""
        if op not in self.COMMANDS:
            raise RulesError("bad_op", "unknown command %r" % (op,))
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise RulesError("bad_args", "a command's arguments are an object")
        return self.apply(op, getattr(self, op), args, snapshot(self.s, MUTABLE))

    # -- rolling ---------------------------------------------------------
    def faces_now(self, preferred=False, expertise=False, assisted=False):
        return pass_faces(preferred, expertise, assisted, self.s.health)

    def roll(self, preferred=False, expertise=False, assisted=False, injury=False, assisting=False,
             pursuit=False, destiny=False):
        """Roll 2d6 for an action. preferred/expertise: fives/fours pass;
        assisted: an earlier assisting action's result (true = complete or
        mixed); injury: the setback is an injury; assisting: this action
        assists another hero; pursuit: it exercises the hero's pursuit;
        destiny: complete success declared before the roll."""
        s = self.s
        preferred, expertise = _flag(preferred, "preferred"), _flag(expertise, "expertise")
        injury, assisting = _flag(injury, "injury"), _flag(assisting, "assisting")
        pursuit, destiny = _flag(pursuit, "pursuit"), _flag(destiny, "destiny")
        assist = check_assist(assisted)
        if s.roll is not None and s.roll["result"] == "pending":
            raise RulesError("pending", "a roll is set aside for an assist: resolve it first (assist or decline)")
        if s.health == "down":
            raise RulesError("down", "a hero who is Down cannot affect the story (rest or destiny restores them)")
        if destiny:
            self._spend_destiny()
        faces = pass_faces(preferred, expertise, assist in ("yes", "complete", "mixed"), s.health)
        dice = [s.rng.below(6) + 1, s.rng.below(6) + 1]
        s.rolls += 1
        rolled = read(dice, faces)
        s.roll = roll_dict([dice, faces, rolled, "pending", preferred, expertise, assist, False, injury, 0,
                            assisting, pursuit, "before" if destiny else ""])
        self.event("roll", dice[0], dice[1], "pass", "".join(str(f) for f in faces))
        if destiny:
            self.event("destiny declares complete success")
            self._resolve("complete")
        elif 2 in dice and not assist and not assisting:
            self.event("two: set aside for an assist")
        else:
            self._resolve(rolled)
        return self.roll_result()

    def assist(self, result):
        """The assisting hero's result in the nick of time: with complete or
        mixed the set-aside roll is read again with twos passing."""
        r = self._pending("assist")
        if result not in RESULTS:
            raise RulesError("bad_args", "an assisting action's result is complete, mixed or failure")
        r["assist"], r["nick"] = result, True
        if result != "failure" and 2 not in r["faces"]:
            r["faces"] = [2] + r["faces"]
        self.event("assist", result)
        self._resolve(read(r["dice"], r["faces"]))
        return self.roll_result()

    def decline(self):
        """No assist in the nick of time: the set-aside roll as rolled."""
        r = self._pending("decline")
        self.event("no assist")
        self._resolve(r["rolled"])
        return self.roll_result()

    def _pending(self, what):
        r = self.s.roll
        if r is None or r["result"] != "pending":
            raise RulesError("no_pending", "no roll is set aside, so there is nothing to %s" % what)
        return r

    def _resolve(self, result):
        s, r = self.s, self.s.roll
        r["result"] = result
        self.event("result", result)
        if r["injury"] and result != "complete":
            r["harm"] = self._lower(1 if result == "mixed" else 2)
        if r["pursuit"] and s.destiny == "spent":
            s.destiny = "ready"
            self.event("pursuit exercised: destiny ready")

    def _lower(self, levels):
        """Health down by levels (floor Down); returns the levels taken."""
        s = self.s
        i = HEALTH.index(s.health)
        j = min(i + levels, len(HEALTH) - 1)
        s.health = HEALTH[j]
        if j != i:
            self.event("health", s.health)
        return j - i

    def roll_result(self):
        r = dict(self.s.roll)
        r["health"] = self.s.health
        r["destiny_now"] = self.s.destiny
        return r

    # -- destiny, pursuit, history ----------------------------------------
    def _spend_destiny(self):
        if self.s.destiny != "ready":
            raise RulesError("destiny_spent", "destiny is spent until the hero exercises their pursuit")
        self.s.destiny = "spent"

    def destiny(self, use, because="pursuit"):
        """Use destiny: complete (the last roll, or one set aside, becomes a
        complete success), fact, restore (this hero to Strong) or
        restore_other (another hero: the hub rests their device). because:
        "pursuit" or the number of the history item relied on."""
        s = self.s
        if use not in DESTINY_USES:
            raise RulesError("bad_args", "destiny is used for complete, fact, restore or restore_other")
        if because != "pursuit" and (type(because) is not int or not 1 <= because <= len(s.history)):
            raise RulesError("bad_args", "destiny relies on the pursuit or a history item 1 to %d" % len(s.history))
        if use == "complete":
            r = s.roll
            if r is None or r["result"] == "complete":
                raise RulesError("nothing_to_turn", "there is no failed or mixed roll to turn into a complete success")
            self._spend_destiny()
            r["destiny"] = "after"
            if r["result"] == "pending":
                self._resolve("complete")
            else:
                if r["harm"]:
                    # The injury that result brought is undone with it.
                    s.health = HEALTH[HEALTH.index(s.health) - r["harm"]]
                    r["harm"] = 0
                    self.event("health", s.health)
                r["result"] = "complete"
                self.event("result complete")
        elif use in ("restore", "restore_other"):
            if use == "restore" and s.health == "strong":
                raise RulesError("already_strong", "the hero is already Strong")
            self._spend_destiny()
            if use == "restore":
                s.health = "strong"
                self.event("health strong")
        else:
            self._spend_destiny()
        self.event("destiny", use, "because", because if because == "pursuit" else "history %d" % because)
        out = {"use": use, "health": s.health, "destiny_now": s.destiny}
        if s.roll is not None:
            out["roll"] = self.roll_result()
        return out

    def pursue(self):
        """The hero exercised their pursuit (a request another hero may
        refuse, or a task resolved another way): destiny is ready again."""
        self.s.destiny = "ready"
        self.event("pursuit exercised: destiny ready")
        return {"destiny_now": "ready"}

    def set_pursuit(self, text):
        self.s.pursuit = check_text(text, "the pursuit")
        self.event("pursuit set")
        return {"pursuit": text}

    def end_session(self, item=""):
        """The end of a session: the player may add one history item."""
        s = self.s
        if item:
            check_text(item, "a history item", False)
            if len(s.history) >= MAX_HISTORY:
                raise RulesError("history_full", "the history holds %d items already" % MAX_HISTORY)
            s.history.append(item)
            self.event("history added")
        s.session += 1
        self.event("session", s.session, "ended")
        return {"session": s.session, "history": list(s.history)}

    # -- health ------------------------------------------------------------
    def injure(self, levels=1):
        """An injury outside a roll (the GM's call): health down 1 or 2 levels."""
        if levels not in (1, 2) or type(levels) is not int:
            raise RulesError("bad_args", "an injury lowers health by 1 or 2 levels")
        if self.s.health == "down":
            raise RulesError("down", "the hero is already Down")
        self._lower(levels)
        return {"health": self.s.health}

    def rest(self):
        """Quiet rest out of danger restores Strong."""
        self.s.health = "strong"
        self.event("health strong")
        return {"health": "strong"}

    def set_health(self, health):
        self.s.health = check_health(health)
        self.event("health", health)
        return {"health": health}

    # -- clocks (kept by the hub, shown here) --------------------------------
    def set_clocks(self, clocks):
        if not isinstance(clocks, list) or len(clocks) > MAX_CLOCKS:
            raise RulesError("bad_clock", "clocks are a list of at most %d" % MAX_CLOCKS)
        self.s.clocks = [check_clock(c) for c in clocks]
        self.event("clocks", len(clocks))
        return {"clocks": len(clocks)}

    # -- queries -----------------------------------------------------------
    def summary(self):
        s = self.s
        return {"system": self.SYSTEM, "count": s.count, "game": s.game, "health": s.health,
                "destiny": s.destiny, "pursuit": s.pursuit, "history": list(s.history),
                "session": s.session, "rolls": s.rolls, "roll": None if s.roll is None else roll_dict([s.roll[k] for k in ROLL_FIELDS]),
                "clocks": [{"name": c[0], "kind": c[1], "segments": c[2], "filled": c[3]} for c in s.clocks],
                "pass_faces": pass_faces(health=s.health)}

    def odds_query(self, args=None):
        """Exact odds for a roll: args preferred/expertise/assisted (true or
        false) and health (default: the hero's own)."""
        args = args or {}
        for k in args:
            if k not in ("preferred", "expertise", "assisted", "health"):
                raise RulesError("bad_args", "odds take preferred, expertise, assisted and health, not %r" % (k,))
        return odds_for(_flag(args.get("preferred", False), "preferred"),
                        _flag(args.get("expertise", False), "expertise"),
                        _flag(args.get("assisted", False), "assisted"),
                        check_health(args.get("health", self.s.health)))


def odds_for(preferred=False, expertise=False, assisted=False, health="strong"):
    faces = pass_faces(preferred, expertise, assisted, health)
    return {"system": "save", "pass_faces": faces, "results": odds(faces)}


def _cap(word):
    return word[:1].upper() + word[1:]


def _faces_words(faces):
    return " ".join(str(f) for f in faces)


def describe(summary):
    """The hero's state in short lines (<= 40 characters)."""
    lines = ["Health %s, destiny %s" % (_cap(summary["health"]), summary["destiny"])]
    if summary.get("pursuit"):
        lines.append(("Pursuit: " + summary["pursuit"])[:40])
    r = summary.get("roll")
    if r:
        word = "set aside" if r["result"] == "pending" else r["result"]
        lines.append("Roll %d %d (pass %s): %s" % (r["dice"][0], r["dice"][1], _faces_words(r["faces"]), word)[:40])
    for c in summary.get("clocks", []):
        lines.append(("%s clock %s %d/%d" % (_cap(c["kind"]), c["name"], c["filled"], c["segments"]))[:40])
    if summary.get("history"):
        lines.append("History: %d item%s" % (len(summary["history"]), "" if len(summary["history"]) == 1 else "s"))
    return lines


def say(op, args, result):
    """One sentence for the session log about a command and its result."""
    args = args or {}
    result = result or {}
    if op in ("roll", "assist", "decline") and "dice" in result:
        d = result["dice"]
        text = "rolled %d and %d, pass %s: " % (d[0], d[1], _faces_words(result["faces"]))
        res = result["result"]
        if res == "pending":
            text += "a two came up, the roll is set aside for an assist"
        else:
            text += RESULT_WORDS[res]
        if result.get("nick"):
            text += " (assist in the nick of time: %s)" % result["assist"]
        if result.get("destiny") == "before":
            text += " (destiny declared)"
        if result.get("harm"):
            text += ", health now %s" % _cap(result["health"])
        return _cap(text) + "."
    if op == "destiny":
        use = args.get("use", "")
        return "Used destiny (%s); destiny is spent until the pursuit is exercised." % {
            "complete": "complete success", "fact": "declare a fact", "restore": "restore to Strong",
            "restore_other": "restore another hero to Strong"}.get(use, use)
    if op == "injure":
        return "Injured %s level%s: health %s." % (args.get("levels", 1), "" if args.get("levels", 1) == 1 else "s",
                                                  _cap(result.get("health", "")))
    if op == "rest":
        return "Rested: health Strong."
    if op == "set_health":
        return "Health set to %s." % _cap(str(args.get("health", "")))
    if op == "pursue":
        return "Exercised the pursuit: destiny is ready."
    if op == "set_pursuit":
        return "Pursuit: %s." % args.get("text", "")
    if op == "end_session":
        return "Session ended%s." % (": history gains %r" % args["item"] if args.get("item") else "")
    if op == "set_clocks":
        return "Clocks shown: %d." % len(args.get("clocks", []))
    return "%s done." % op


def summary_problem(summary):
    """"" or one line saying why a SAVE summary from a device is malformed."""
    if not isinstance(summary, dict):
        return "summary is not an object"
    for key, kind in (("count", int), ("game", str), ("health", str), ("destiny", str), ("pursuit", str),
                      ("history", list), ("session", int), ("rolls", int), ("clocks", list), ("pass_faces", list)):
        value = summary.get(key)
        if not isinstance(value, kind) or value is True or value is False:
            return "summary %s is missing or not %s" % (key, "a number" if kind is int else "a " + kind.__name__)
    if summary["health"] not in HEALTH:
        return "summary health %r is not a SAVE health level" % (summary["health"],)
    if summary["destiny"] not in ("ready", "spent"):
        return "summary destiny %r is neither ready nor spent" % (summary["destiny"],)
    try:
        check_text(summary["pursuit"], "summary pursuit")
        for item in summary["history"]:
            check_text(item, "a summary history item", False)
        for c in summary["clocks"]:
            check_clock(c)
    except RulesError as e:
        return str(e)
    r = summary.get("roll")
    if r is not None:
        if not isinstance(r, dict):
            return "summary roll is not an object"
        try:
            for k in ROLL_FIELDS:
                r[k]
            _check_roll(r)
        except KeyError as e:
            return "summary roll lacks %s" % (e,)
        except (RulesError, TypeError, ValueError) as e:
            return "summary roll: %s" % e
    return ""

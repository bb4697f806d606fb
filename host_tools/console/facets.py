"""The GM's console commands for Facets (seed 002), a mixin of TableConsole.

    table> facets Ann roll finesse 8 bonus=2
    table> facets Ann task "[Finesse 8 - 2/5 - 30s]"
    table> facets Ann task try
    table> facets Bo attack str 11 heavy
    table> facets Cy damage health 5 armor=1

One command, ``facets NAME WHAT ...``, so no Facets word shadows a
Deckahedron or SAVE command of the same name (roll, damage, attr ...). Each
goes to the device through the hub (TableHub.command) and is said in
Facets' words (shared_rules.facets.words.say), with its events and what changed.
"""

import shlex

from shared_rules.facets import game as FX
from shared_rules.facets import words as FW

from host_tools.console.typed import Usage

# what -> (rules op, positional argument names, flag words, help line)
WHATS = (
    ("roll", "roll", ("attr", "tn"), ("pressure", "calm"),
     "roll ATTR TN [bonus=N] [effort=N] [pressure|calm] [explode=F] [trait=T]"),
    ("task", None, (), (), 'task "[Finesse 8 - 2/5 - 30s]" | task try [bonus=N ...] | task end'),
    ("init", "initiative", (), ("social",), "init [social]   (Finesse, or Wit for a social conflict)"),
    ("attack", "attack", ("attr", "tn", "weapon"), ("double", "social", "acted", "endurance", "pressure", "calm"),
     "attack ATTR TN light|medium|heavy [double] [social] [acted] [endurance] [bonus=N] [effort=N]"),
    ("defend", "defend", ("attr", "weapon"), ("pressure", "calm"), "defend ATTR light|medium|heavy [bonus=N]"),
    ("maneuver", "maneuver", ("attr", "tn"), ("hinder",), "maneuver ATTR TN [hinder] [bonus=N]"),
    ("damage", "damage", ("track", "amount"), (), "damage health|cool N [armor=N]"),
    ("heal", "heal", ("track", "amount"), (), "heal health|cool N"),
    ("out", "taken_out", ("how",), ("deadly",), "out consequence|deal|resist [attr=A] [penalty=step|cost|effort] [deadly]"),
    ("recover", "recover", ("track",), ("professional",), "recover health|cool [professional]"),
    ("regain", "regain", ("track",), ("resting", "care"),
     "regain health|cool [minutes=N] [hours=N] [days=N] [resting] [care]"),
    ("effort", "effort", ("delta",), (), "effort +N|-N"),
    ("token", "token", ("delta",), (), "token +N|-N"),
    ("withdraw", "withdraw", (), ("prevented",), "withdraw [prevented]"),
    ("scene", "new_scene", (), (), "scene   (a new scene: condition costs apply again)"),
    ("attr", "set_attr", ("attr", "die"), (), "attr ATTR d4|d6|d8|d10|d12|d20"),
    ("max", "set_max", ("track", "value"), (), "max health|cool N"),
    ("rule", "set_rule", ("rule", "on"), (), "rule specific|positioning on|off"),
    ("trait", None, (), (), "trait add NAME ATTR BONUS | trait drop NAME"),
    ("odds", None, (), ("pressure", "calm"), "odds ATTR TN [bonus=N] [pressure|calm]"),
    ("show", None, (), (), "show   (the character in words)"),
)
WHAT_NAMES = tuple(w[0] for w in WHATS)


def _value(text):
    """'8' -> 8, '+2' -> 2, 'on' -> True, anything else stays text."""
    t = text.strip()
    if t in ("on", "true", "yes"):
        return True
    if t in ("off", "false", "no"):
        return False
    body = t[1:] if t[:1] in "+-" else t
    if body.isdigit():
        return int(t)
    return t


class Commands:
    """do_facets for players whose devices play Facets."""

    def facets_player(self, word):
        name = self.who(word)
        system = (self.hub.player(name).state or {}).get("system")
        if system != "facets":
            raise Usage("%s's device does not play Facets (newgame %s yes system=facets starts a Facets character)"
                        % (name, name))
        return name

    def facets_run(self, who, op, **args):
        """One Facets command on a device, said in one line in Facets' words
        with the lines of the sheet it changed. Returns the result.
        (``who``, not ``name``: trait_add takes a ``name`` argument.)"""
        p = self.hub.player(who)
        before = dict(p.state or {})
        r = self.hub.command(who, op, **args)
        self.tell(op, p, r, before, args)
        return r

    @staticmethod
    def facets_args(words, names, flags):
        """Positional words by ``names``, key=value pairs and bare flags."""
        args = {}
        rest = list(names)
        for w in words:
            key, eq, value = w.partition("=")
            if eq and key:
                args[key] = _value(value)
            elif w in flags:
                args[w] = True
            elif rest:
                args[rest.pop(0)] = _value(w)
            else:
                raise Usage("what is %r? (the words here: %s, key=value)" % (w, ", ".join(flags) or "none"))
        if rest:
            raise Usage("missing %s" % " ".join(r.upper() for r in rest))
        return args

    def do_facets(self, arg):
        """facets NAME WHAT [...]
        A Facets character's check, conflict or sheet (NAME's device plays Facets).
          WHAT is one of the words below, then its own words, e.g. facets Ann show
          roll ATTR TN [bonus=N] [effort=N] [pressure|calm] [explode=F] [trait=T]   e.g. facets Ann roll finesse 8 bonus=2
          task "[Finesse 8 - 2/5 - 30s]" | task try | task end   an extended task, e.g. facets Ann task "[Wit 10 - 3/6 - 1m]"
          init [social]                          initiative: Finesse, or Wit, e.g. facets Ann init
          attack ATTR TN light|medium|heavy [double] [social] [acted] [endurance]   e.g. facets Bo attack str 11 heavy
                                                 (endurance: the target defended with Endurance)
          defend ATTR light|medium|heavy         the total is the attacker's TN, e.g. facets Cy defend finesse heavy
          maneuver ATTR TN [hinder]              seek an advantage (a token) or hinder, e.g. facets Ann maneuver wit 9
          damage health|cool N [armor=N]         e.g. facets Cy damage health 5 armor=1
          heal health|cool N                     e.g. facets Cy heal cool 2
          out consequence|deal|resist [attr=A] [penalty=step|cost|effort] [deadly]   e.g. facets Cy out consequence attr=E
          recover health|cool [professional]     a condition one rung better, e.g. facets Cy recover health
          regain health|cool [minutes=N] [hours=N] [days=N] [resting] [care]   e.g. facets Cy regain health hours=4
          effort +N|-N  /  token +N|-N           e.g. facets Ann effort +1
          withdraw [prevented]  /  scene         e.g. facets Ann withdraw prevented
          attr ATTR dN  /  max health|cool N  /  rule specific|positioning on|off   e.g. facets Ann attr finesse d10
          trait add NAME ATTR BONUS | trait drop NAME   e.g. facets Ann trait add swift finesse 2
          odds ATTR TN [bonus=N] [pressure|calm]  exact bands from the device, e.g. facets Ann odds finesse 8
          show                                   the character in words, e.g. facets Ann show"""
        self._facets(shlex.split(arg))  # nothing returned: a true value would end cmd's loop

    def _facets(self, words):
        if len(words) < 2:
            raise Usage("facets NAME WHAT [...] (help facets says more)")
        name = self.facets_player(words[0])
        what, rest = words[1], words[2:]
        if what not in WHAT_NAMES:
            raise Usage("facets %s: what is %r? (%s)" % (name, what, ", ".join(WHAT_NAMES)))
        row = WHATS[WHAT_NAMES.index(what)]
        if what == "task":
            return self._facets_task(name, rest)
        if what == "trait":
            return self._facets_trait(name, rest)
        if what == "show":
            for line in FW.describe(self.hub.player(name).state):
                self.say("%s: %s" % (name, line))
            return None
        args = self.facets_args(rest, row[2] if what != "odds" else ("attr", "tn"), row[3])
        self._facets_modes(args)
        if what == "odds":
            return self._facets_odds(name, args)
        if what == "init" and args.pop("social", False):
            args["kind"] = "social"
        if what == "attack" and args.pop("social", False):
            args["kind"] = "social"
        if what == "maneuver" and args.pop("hinder", False):
            args["aim"] = "hinder"
        return self.facets_run(name, row[1], **args)

    @staticmethod
    def _facets_modes(args):
        if args.pop("pressure", False):
            args["mode"] = "pressure"
        if args.pop("calm", False):
            if args.get("mode"):
                raise Usage("a roll is under pressure or calm, not both")
            args["mode"] = "calm"

    def _facets_task(self, name, rest):
        if not rest:
            raise Usage('facets NAME task "[Finesse 8 - 2/5 - 30s]" | task try | task end')
        if rest[0] == "end":
            return self.facets_run(name, "task_end")
        if rest[0] == "try":
            args = self.facets_args(rest[1:], (), ("pressure", "calm"))
            self._facets_modes(args)
            return self.facets_run(name, "task_roll", **args)
        return self.facets_run(name, "task_start", check=" ".join(rest))

    def _facets_trait(self, name, rest):
        if rest[:1] == ["add"] and len(rest) == 4:
            return self.facets_run(name, "trait_add", name=rest[1], attr=rest[2], bonus=_value(rest[3]))
        if rest[:1] == ["drop"] and len(rest) == 2:
            return self.facets_run(name, "trait_drop", name=rest[1])
        raise Usage("facets NAME trait add NAME ATTR BONUS | trait drop NAME")

    def odds_facets(self, name, words):
        """``odds NAME ATTR TN ...`` for a Facets character: facets NAME odds."""
        self._facets([name, "odds"] + list(words))

    def _facets_odds(self, name, args):
        r = self.hub.command(name, "odds", **args)
        self.say("%s: d%d against TN %d%s%s:" % (name, r["die"], r["tn"], " %+d" % r["bonus"] if r["bonus"] else "",
                                                 "" if r["mode"] == "normal" else ", " + r["mode"]))
        for b in FX.BANDS:
            self.say("  %-20s %6s%%  %s" % (b, r["percent"][b], r["bands"][b]))
        return r

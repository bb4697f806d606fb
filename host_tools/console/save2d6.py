"""The GM's console commands for SAVE 2d6 (seed 003), a mixin of TableConsole.

    table> save Freya roll preferred injury
    table> save Freya assist Bran expertise  (Freya's roll was set aside on a two)
    table> save clock new Ritual 6
    table> save Bran roll clock=Ritual

One command, ``save NAME WHAT ...`` (``save clock ...`` for the table's
clocks), as Facets has ``facets NAME WHAT ...``: the Deckahedron, the default
system, has the top-level words, and no SAVE word shadows one of them.

Each command goes to a device through the hub (TableHub.command) and is said
in SAVE's words (shared_rules.save2d6.words.say). Clocks are the table's, kept by
the hub (host_tools/table/save2d6_clocks.py) and pushed to every SAVE device after each
change; ``clock`` alone lists them and tells any device that missed one.
"""

import shlex

from shared_rules.save2d6 import game as S
from shared_rules.save2d6.results import RESULT_WORDS

from host_tools.odds import save2d6 as odds_save
from host_tools.table.save2d6_clocks import ClockError, Clocks, describe_clock
from host_tools.console.typed import Usage
from host_tools.table.errors import TableError

ROLL_FLAGS = ("preferred", "expertise", "assisted", "injury", "assisting", "pursuit", "destiny")


class Commands:
    """do_* commands for players whose devices play SAVE."""

    def save_clocks(self):
        c = getattr(self, "_save_clocks", None)
        if c is None or c.hub is not self.hub:
            c = self._save_clocks = Clocks(self.hub)
        return c

    def save_player(self, word):
        name = self.who(word)
        system = (self.hub.player(name).state or {}).get("system")
        if system != "save":
            raise Usage("%s's device does not play SAVE (newgame %s yes system=save starts a SAVE hero)" % (name, name))
        return name

    def save_run(self, name, op, **args):
        """One SAVE command on a device, said in one line in SAVE's words with
        what it changed. Returns the result."""
        p = self.hub.player(name)
        before = dict(p.state or {})
        r = self.hub.command(name, op, **args)
        self.tell(op, p, r, before, args)
        return r

    def odds_save(self, name, words):
        """The exact odds of a SAVE hero's roll, from the device."""
        args = {}
        for w in words:
            key, eq, value = w.partition("=")
            if not eq and key in odds_save.FLAGS:
                args[key] = True
            elif key == "health" and eq:
                args["health"] = value
            else:
                raise Usage("odds %s takes %s and health=H (a SAVE hero), not %r"
                            % (name, ", ".join(odds_save.FLAGS), w))
        r = self.hub.command(name, "odds", **args)
        self.say("%s: a roll passes on %s:" % (name, " ".join(str(f) for f in r["pass_faces"])))
        for k in S.RESULTS:
            a, b = (int(x) for x in r["results"][k].split("/"))
            self.say("  %-17s %5.1f%%  %s" % (RESULT_WORDS[k], 100.0 * a / b, r["results"][k]))
        return r

    def save_flags(self, words, allowed=ROLL_FLAGS):
        """Roll switches from words: bare flags, assisted=RESULT, clock=NAME."""
        args = {}
        clock = None
        for w in words:
            key, _, value = w.partition("=")
            if key == "clock" and value:
                clock = value
            elif key == "assisted" and value and "assisted" in allowed:
                if value not in S.RESULTS:
                    raise Usage("assisted= is complete, mixed or failure (the assisting action's result), not %r" % value)
                args["assisted"] = value
            elif w in allowed:
                args[w] = True
            else:
                raise Usage("what is %r? (the switches here: %s, clock=CLOCK)" % (w, ", ".join(allowed)))
        if clock is not None:
            self.save_clocks().get(clock)  # a clock the table has, before anything is rolled
        return args, clock

    def save_after(self, name, r, clock):
        """A resolved roll ticks the clock it was for; a set-aside one says what next."""
        if r.get("result") == "pending":
            self.say("%s rolled a two and no one has assisted yet: the roll is set aside. "
                     "save %s assist HELPER [switches] lets another hero help in the nick of time; "
                     "save %s decline resolves it as rolled." % (name, name, name))
            return
        if clock is not None:
            self.tick_clock(clock, result=r["result"])

    def tick_clock(self, clock, ticks=None, result=None):
        c, full = self.save_clocks().tick(clock, ticks, result)
        self.say(describe_clock(c) + ("  FULL: %s" % ("the goal is reached" if c["kind"] == "progress"
                                                       else "the undesired event occurs") if full else ""))
        self.push_clocks()

    def save_tick(self):
        """While the console waits: a SAVE device that joined or came back
        since the clocks last changed is told them (one of the console's
        ticks). Returns the lines to say."""
        if not any((p.state or {}).get("system") == "save" for p in self.hub.players.values()):
            return []
        return ["%s's device now shows the clocks" % n for n, why in self.save_clocks().push(True).items() if not why]

    def push_clocks(self, only_stale=False):
        for name, why in self.save_clocks().push(only_stale).items():
            if why:
                self.warn("%s's device did not get the clocks (%s): save clock tells it later" % (name, why))

    # -- commands: save NAME WHAT ... | save clock ... ------------------------------
    WHATS = ("roll", "assist", "decline", "destiny", "health", "pursue", "history")

    def do_save(self, arg):
        """save NAME WHAT [...] | save clock [...]
        A SAVE 2d6 hero's roll, assist, health or destiny (NAME's device plays SAVE), or the table's clocks.
          WHAT is one of the words below, then its own words (help save WHAT says it in full), e.g. help save roll
          roll [preferred] [expertise] [assisted] [injury] [assisting] [pursuit] [destiny] [clock=CLOCK]   e.g. save Freya roll preferred
          assist HELPER [preferred] [expertise] [injury] [pursuit] [clock=CLOCK]   a set-aside roll, e.g. save Freya assist Bran
          decline [clock=CLOCK]                  no assist: the set-aside roll as rolled, e.g. save Freya decline
          destiny complete|fact|restore [OTHER] [because=N]   e.g. save Freya destiny restore Bran
          health rest|injure [1|2]|LEVEL         e.g. save Freya health injure 2
          pursue [TEXT]                          destiny ready again (or a new pursuit), e.g. save Freya pursue
          history [ITEM]                         end of session: one history item, e.g. save Freya history "drove off a specter"
          clock [new CLOCK SEGMENTS [setback] | tick CLOCK TICKS | remove CLOCK]   the table's clocks, e.g. save clock new Ritual 6"""
        words = shlex.split(arg)
        if words and words[0] == "clock":
            self.save_clock(shlex.join(words[1:]))
            return  # nothing returned: a true value would end cmd's loop
        if len(words) < 2 or words[1] not in self.WHATS:
            raise Usage("save NAME %s [...] | save clock [...] (help save says more)" % "|".join(self.WHATS))
        getattr(self, "save_" + words[1])(shlex.join(words[:1] + words[2:]))

    def save_word_help(self, what):
        """``help save WHAT``: that word's full help."""
        return getattr(self, "save_" + what).__doc__ if what in self.WHATS + ("clock",) else None

    def save_roll(self, arg):
        """save NAME roll [preferred] [expertise] [assisted|assisted=RESULT] [injury] [assisting] [pursuit] [destiny] [clock=CLOCK]
        NAME rolls 2d6 for an action; the device says which faces passed and the result.
          preferred          a preferred action: fives pass, e.g. save Freya roll preferred
          expertise          the hero's expertise applies: fours pass, e.g. save Freya roll expertise
          assisted|assisted=RESULT   an earlier assist was complete or mixed: twos pass (RESULT names it), e.g. save Freya roll assisted=failure
          injury             the announced setback is an injury (-1 health mixed, -2 failure), e.g. save Freya roll injury
          assisting          this action assists another hero, e.g. save Bran roll assisting
          pursuit            it exercises the hero's pursuit: destiny comes back, e.g. save Freya roll pursuit
          destiny            complete success declared before the roll, e.g. save Freya roll destiny
          clock=CLOCK        tick that clock by the result, e.g. save Freya roll clock=Ritual"""
        words = self.words(arg, 1, "save NAME roll [switches]")
        name = self.save_player(words[0])
        args, clock = self.save_flags(words[1:])
        r = self.save_run(name, "roll", **args)
        self.save_after(name, r, clock)

    def save_assist(self, arg):
        """save NAME assist HELPER [preferred] [expertise] [injury] [pursuit] [clock=CLOCK]
        In the nick of time: NAME's roll was set aside on a two; HELPER rolls an assisting
        action (with the switches given), and NAME's roll is read again, twos passing if that
        assist was complete or mixed.
          HELPER             another hero at the table, e.g. save Freya assist Bran
          preferred          HELPER's action is a preferred one, e.g. save Freya assist Bran preferred
          expertise          HELPER's expertise applies, e.g. save Freya assist Bran expertise
          injury             HELPER's setback is an injury, e.g. save Freya assist Bran injury
          pursuit            it exercises HELPER's pursuit, e.g. save Freya assist Bran pursuit
          clock=CLOCK        tick that clock by NAME's result, e.g. save Freya assist Bran clock=Ritual"""
        words = self.words(arg, 2, "save NAME assist HELPER [switches]")
        name, helper = self.save_player(words[0]), self.save_player(words[1])
        if name == helper:
            raise Usage("another hero assists: %s cannot assist %s" % (name, name))
        roll = (self.hub.player(name).state or {}).get("roll") or {}
        if roll.get("result") != "pending":
            raise Usage("%s has no roll set aside: an assist in the nick of time follows a two" % name)
        args, clock = self.save_flags(words[2:], ("preferred", "expertise", "injury", "pursuit"))
        args["assisting"] = True
        h = self.save_run(helper, "roll", **args)
        r = self.save_run(name, "assist", result=h["result"])
        self.save_after(name, r, clock)

    def save_decline(self, arg):
        """save NAME decline [clock=CLOCK]
        no one assists in the nick of time: NAME's set-aside roll is read as rolled.
          clock=CLOCK        tick that clock by the result, e.g. save Freya decline clock=Ritual"""
        words = self.words(arg, 1, "save NAME decline [clock=CLOCK]")
        name = self.save_player(words[0])
        _, clock = self.save_flags(words[1:], ())
        r = self.save_run(name, "decline")
        self.save_after(name, r, clock)

    def save_destiny(self, arg):
        """save NAME destiny USE [OTHER] [because=N]
        NAME uses destiny; it is spent until NAME exercises their pursuit.
          USE                complete (the last roll becomes a complete success), fact or restore, e.g. save Freya destiny complete
          OTHER              restore another hero instead of NAME, e.g. save Freya destiny restore Bran
          because=N          relies on history item N (default: the pursuit), e.g. save Freya destiny complete because=1"""
        words = self.words(arg, 2, "save NAME destiny USE [OTHER] [because=N]")
        name = self.save_player(words[0])
        use = words[1]
        if use not in ("complete", "fact", "restore"):
            raise Usage("destiny is used for complete, fact or restore, not %r" % use)
        other, because = None, "pursuit"
        for w in words[2:]:
            if w.startswith("because="):
                n = w[8:]
                because = int(n) if n.isdigit() else n
            elif use == "restore" and other is None:
                other = self.save_player(w)
            else:
                raise Usage("what is %r? (save NAME destiny complete|fact|restore [OTHER] [because=N])" % w)
        if other is not None and other != name:
            self.save_run(name, "destiny", use="restore_other", because=because)
            self.save_run(other, "rest")
            return
        self.save_run(name, "destiny", use=use, because=because)

    def save_health(self, arg):
        """save NAME health WHAT [N]
        NAME's health.
          WHAT               rest (back to Strong), injure, or a level to set (strong ... down), e.g. save Freya health shaken
          N                  levels an injury takes, 1 or 2 (default 1), e.g. save Freya health injure 2"""
        words = self.words(arg, 2, "save NAME health rest|injure [1|2]|LEVEL")
        name = self.save_player(words[0])
        what = words[1]
        if what == "rest" and len(words) == 2:
            self.save_run(name, "rest")
        elif what == "injure" and len(words) <= 3:
            levels = words[2] if len(words) == 3 else "1"
            if levels not in ("1", "2"):
                raise Usage("an injury lowers health by 1 or 2 levels, not %r" % levels)
            self.save_run(name, "injure", levels=int(levels))
        elif what in S.HEALTH and len(words) == 2:
            self.save_run(name, "set_health", health=what)
        else:
            raise Usage("save NAME health rest|injure [1|2]|strong|fair|shaken|hurt|down")

    def save_pursue(self, arg):
        """save NAME pursue [TEXT]
        NAME exercised their pursuit (a request another hero could refuse): destiny is ready
        again. With TEXT, NAME's pursuit becomes TEXT instead.
          TEXT               the new pursuit (40 characters), e.g. save Freya pursue "avenge the village\""""
        words = self.words(arg, 1, "save NAME pursue [TEXT]")
        name = self.save_player(words[0])
        if len(words) > 1:
            self.save_run(name, "set_pursuit", text=" ".join(words[1:]))
        else:
            self.save_run(name, "pursue")

    def save_history(self, arg):
        """save NAME history [ITEM]
        At the end of a session: NAME may add one item to their hero's history.
          ITEM               what happened (40 characters), e.g. save Freya history "drove off the barrow specter\""""
        words = self.words(arg, 1, "save NAME history [ITEM]")
        name = self.save_player(words[0])
        item = " ".join(words[1:])
        self.save_run(name, "end_session", **({"item": item} if item else {}))

    def save_clock(self, arg):
        """save clock [new CLOCK SEGMENTS [setback] | tick CLOCK TICKS | remove CLOCK]
        The table's clocks, kept by the table and shown on every SAVE device. Alone: list them (and tell
        any device that missed a change).
          new CLOCK SEGMENTS [setback]   a progress (or setback) clock of 2 to 12 segments, e.g. save clock new Ritual 6
          tick CLOCK TICKS               TICKS: N segments (negative takes back), e.g. save clock tick Ritual 2, or a result
                                         (complete, mixed, failure) as it marks that clock, e.g. save clock tick Torches mixed
          remove CLOCK                   e.g. save clock remove Ritual"""
        words = self.words(arg, 0, "save clock [new|tick|remove ...]")
        clocks = self.save_clocks()
        try:
            if not words:
                have = clocks.all()
                self.say(*([describe_clock(c) for c in have] or ["no clocks (save clock new CLOCK SEGMENTS makes one)"]))
                self.push_clocks(only_stale=True)
                return
            what = words[0]
            if what == "new" and len(words) in (3, 4):
                kind = "progress"
                if len(words) == 4:
                    if words[3] not in ("setback", "progress"):
                        raise Usage("a clock is progress or setback, not %r" % words[3])
                    kind = words[3]
                if not words[2].isdigit():
                    raise Usage("segments must be a whole number from 2 to 12, like 6; not %r" % words[2])
                c = clocks.create(words[1], int(words[2]), kind)
                self.say("new " + describe_clock(c))
                self.push_clocks()
            elif what == "tick" and len(words) == 3:
                n = words[2]
                if n in S.RESULTS:
                    self.tick_clock(words[1], result=n)
                elif n.lstrip("-").isdigit():
                    self.tick_clock(words[1], int(n))
                else:
                    raise Usage("tick by a number of segments or by complete, mixed or failure, not %r" % n)
            elif what == "remove" and len(words) == 2:
                clocks.remove(words[1])
                self.say("clock %s removed" % words[1])
                self.push_clocks()
            else:
                raise Usage("save clock [new CLOCK SEGMENTS [setback] | tick CLOCK N|RESULT | remove CLOCK]")
        except ClockError as e:
            raise TableError(str(e))

"""The GM's console: one command per player action, typed plainly.

    table> flip Ann str +1
    table> damage Di 9 wounds=1
    table> help damage

A ``cmd.Cmd``: each command is a ``do_X`` method whose docstring is its help
(the first line its syntax, then what it does, every argument with an
example). Every answer is in words, the device's own for a result. Text that
comes from a device or the hub (names, problems, error messages) is printed
with rich markup off, so ``[/]`` in it prints as ``[/]``.

The loop (``TableConsole.loop``) reads the GM's lines in a thread (readline
editing and Tab completion of commands, players, suits, attributes, buttons)
while the main thread keeps polling the devices, so presses on the boards
show up while the GM is typing. Every hub call stays on the main thread.
"""

import cmd
import json
import shlex
import sys
import time

from rich.console import Console
from rich.table import Table

from shared_rules import cards as C
from shared_rules import systems
from shared_rules.editions import CAMPAIGNS, EDITION_KEYS
from shared_rules.state import ATTRS, MOVE_LEVELS

from host_tools import outfiles, record, replies
from host_tools.console_facets import FacetsCommands
from host_tools.do_cmd import OPS, Usage, coerce, parse_pairs
from host_tools.link import DeviceError, LinkError
from host_tools.table import TableError
from host_tools.console_save import SaveCommands

BUTTONS = ("A", "B", "C", "UP", "DOWN")
CRITS = ("blessing", "levelup", "bonus_move")
MINIGAMES = ("pick_locks", "magic")
REVEALS = ("d4", "d6", "d10")
# Arguments that are whole numbers, with an example value for the message.
NUMBERS = {"net": 1, "power": 9, "harm": 1, "wounds": 1, "absorb": 2, "levels": 1, "tokens": 2, "facedown": 1,
           "n": 1, "points": 1, "seed": 42, "encumbrance": 2, "cardio": 1, "capacity": 3, "weight": 2}
# The rules' op names that are console commands under a plainer name.
ALIASES = {"end_flip": "end", "take_wound": "wound", "take_harm": "harm", "take_blessing": "blessing",
           "lose_stamina": "lose", "set_attr": "attr", "set_move": "move", "mercy_flashback": "mercy",
           "gain_xp": "xp", "set_edition": "edition", "new_game": "newgame", "minigame_start": "minigame",
           "exit": "quit"}


def make_console(file=None, width=None):
    """The rich console for the table: markup, emoji codes and highlighting
    off, since most of what it prints comes from devices."""
    return Console(file=file, width=width, markup=False, emoji=False, highlight=False)


def status_table(hub):
    t = Table(title="Table")
    for col in ("player", "device", "last flip", "deck/disc/exh", "XP", "Harm/Wnd/Exh tok", "supply cards", "state"):
        t.add_column(col)
    for name, p in hub.players.items():
        s = p.state or {}
        system = s.get("system", systems.DEFAULT)
        if s and system != systems.DEFAULT:  # another system: its state in its own words
            t.add_row(str(name), "%s\n%s" % (p.device, p.port), "-", "-", "-", "-", "-",
                      "\n".join([systems.name(system) + (" (offline)" if not p.online else "")] +
                                 systems.module(system).describe(s)))
            continue
        f = p.last_flip
        last = "-"
        if f and f.get("level"):
            glyphs = replies.rules_of(s)["level_glyphs"]
            last = "%s %+d: %s -> %s %s %s" % (replies.title(f.get("suit") or "?"), f.get("net") or 0,
                                               ",".join(str(c) for c in f.get("cards", [])), f.get("resolving"),
                                               replies.WORDS.get(f["level"], f["level"]),
                                               glyphs[f["level"] - 1] if f["level"] in (1, 2, 3, 4) else "")
        tokens = s.get("tokens") or {}
        state = "INCAPACITATED (%s)" % s["incapacitated"] if s.get("incapacitated") else (
            "offline" if not p.online else "ok")
        if s:
            state += "\n" + replies.rules_of(s)["label"]
        if p.error and not s:
            state = p.error
        t.add_row(str(name), "%s\n%s" % (p.device, p.port), last,
                  "%s/%s/%s" % (s.get("draw", "?"), s.get("discard", "?"), s.get("exhaustion", "?")),
                  str(s.get("xp", "?")),
                  "%s/%s/%s" % (tokens.get("harm", "?"), tokens.get("wound", "?"), tokens.get("exhaustion", "?")),
                  ",".join(str(c) for c in s.get("held", [])) or "-", str(state))
    earned, spent, left = hub.shadow()
    first = next(iter(hub.players.values())).state if hub.players else {}
    t.caption = "Shared supply: %s   ·   GM %s points: %d earned, %d spent, %d left" % (
        ",".join(hub.supply()) or "empty", replies.rules_of(first)["gm_points"], earned, spent, left)
    return t


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def number(text, what, example):
    """A whole number typed by the GM, or a sentence saying what it should be."""
    try:
        return int(text, 10)
    except (TypeError, ValueError):
        raise Usage("%s must be a whole number, like %s; not %r" % (what, example, text))


def signed(word):
    """'+2' or '-1' as a net advantage, else None."""
    if len(word) > 1 and word[0] in "+-" and word[1:].isdigit():
        return int(word)
    return None


class TableConsole(FacetsCommands, SaveCommands, cmd.Cmd):
    prompt = "table> "
    doc_header = "commands"

    def __init__(self, hub, out=None, run_dir="."):
        cmd.Cmd.__init__(self)
        self.hub = hub
        self.out = out or make_console()
        self.run_dir = run_dir
        self.pursuits = {}  # player name -> shared_rules.minigames.Pursuit in progress
        self.failed = False  # the last command was refused (the scripted scene says so)
        self.ticks = [self.save_tick]  # called on the hub's thread while the loop waits; each returns lines to say (the page)
        self.shown = {}  # what the last command showed, for the page to act on (undo: the plan it asks about)

    # -- printing ---------------------------------------------------------
    def say(self, *lines, style=None):
        for line in lines:
            self.out.print(line, style=style)

    def warn(self, text):
        self.out.print(text, style="red")

    # -- the command machinery ----------------------------------------------
    def precmd(self, line):
        words = line.split(None, 1)
        if words and words[0] in ALIASES:
            return " ".join([ALIASES[words[0]]] + words[1:])
        return line

    def onecmd(self, line):
        """One line; errors are said in a sentence, never raised."""
        self.failed = False
        self.shown = {}
        try:
            return cmd.Cmd.onecmd(self, self.precmd(line))
        except DeviceError as e:
            self.failed = True
            self.warn("the device says no: %s" % (e.message or e.code))
        except (TableError, LinkError, Usage) as e:
            self.failed = True
            self.warn(str(e))
        except ValueError as e:  # shlex: an unclosed quote
            self.failed = True
            self.warn("cannot read that line: %s" % e)
        except Exception as e:  # a device that answers nonsense must not take the table down
            self.failed = True
            self.warn("that failed: %s: %s" % (type(e).__name__, e))
        return False

    def capture(self, line):
        """Run ``line`` as if typed, its words kept instead of printed: (refused, lines).
        For the live page (host_tools/web), on the hub's thread."""
        import io

        saved, text = self.out, io.StringIO()
        self.out = make_console(file=text, width=saved.width)
        try:
            self.onecmd(line)
        finally:
            self.out = saved
        return self.failed, text.getvalue().rstrip("\n").split("\n") if text.getvalue().strip() else []

    def emptyline(self):
        return False  # not cmd.Cmd's repeat of the last command

    def default(self, line):
        self.failed = True
        self.warn("unknown command %r: type help for the list" % line.split()[0])

    def commands(self):
        return sorted(n[3:] for n in self.get_names() if n.startswith("do_") and n != "do_EOF")

    def completenames(self, text, *ignored):
        return [c for c in self.commands() + sorted(ALIASES) if c.startswith(text)]

    # Words that may follow a command's NAME, for Tab completion.
    WORDS = {
        "flip": ATTRS + C.SUITS + ("fast", "pvp", "open", "move=", "crit=", "levels="),
        "team": ATTRS + C.SUITS + ("net=", "pick=", "crit="),
        "press": BUTTONS,
        "reveal": REVEALS,
        "damage": ("wounds=", "harm=", "armour", "absorb=", "cardio=", "reshuffle"),
        "wound": ("armour",), "harm": ("armour",),
        "gear": ("add", "drop", "damage", "kind=", "slots=", "capacity=", "weight="),
        "breather": ("tokens=", "cards=", "facedown="),
        "rest": ("keep=",), "seek_help": ("keep=", "hearth"),
        "end": ("crit=", "move=", "levels=", "resolved=false"),
        "attr": ATTRS + C.SUITS, "move": MOVE_LEVELS,
        "minigame": MINIGAMES + ("swap", "done", "abandon"),
        "pursuit": ("encumbrance=", "round", "won", "lost", "helper=", "end"),
        "edition": EDITION_KEYS + CAMPAIGNS,
        "odds": ATTRS + C.SUITS,
        "do": OPS + ("--json",),
        "shadow": ("spend",),
    }
    NO_PLAYER = ("shadow", "log", "status", "help", "quit", "EOF")

    def completedefault(self, text, line, begidx, endidx):
        words = line[:begidx].split()
        if not words:
            return []
        command = ALIASES.get(words[0], words[0])
        players = list(self.hub.players)
        if command in self.NO_PLAYER:
            pool = self.WORDS.get(command, ())
        elif len(words) == 1 or command == "team":
            pool = players + (list(self.WORDS.get(command, ())) if command == "team" else [])
        elif command == "do" and len(words) == 2:
            pool = OPS
        else:
            pool = self.WORDS.get(command, ())
        return [w for w in pool if w.startswith(text)]

    def complete_help(self, text, *ignored):
        return [c for c in self.commands() if c.startswith(text)]

    # -- help ---------------------------------------------------------------
    def usage(self, command):
        doc = getattr(self, "do_" + command).__doc__ or command
        return doc.strip().splitlines()[0].strip()

    def do_help(self, arg):
        """help [COMMAND]
        Every command with its arguments, or one command in full.
          COMMAND   a command name, e.g. help flip"""
        arg = arg.strip()
        if arg:
            command = ALIASES.get(arg, arg)
            method = getattr(self, "do_" + command, None)
            if method is None or command == "EOF":
                raise Usage("no command %r: type help for the list" % arg)
            lines = [line.strip() for line in (method.__doc__ or command).strip().splitlines()]
            self.say(lines[0], style="bold")
            for line in lines[1:]:
                self.say("  " + line if line else "")
            also = sorted(a for a, c in ALIASES.items() if c == command)
            if also:
                self.say("  (also: %s)" % ", ".join(also))
            return
        self.say("Commands (NAME is a player at the table; [..] is optional; help COMMAND says more):", style="bold")
        for command in self.commands():
            self.say("  " + self.usage(command))
        self.say("Players: %s" % (", ".join(self.hub.players) or "nobody yet"))

    # -- reading the line -------------------------------------------------------
    def words(self, arg, least, syntax):
        words = shlex.split(arg)
        if len(words) < least:
            raise Usage("%s (help %s says more)" % (syntax, syntax.split()[0]))
        return words

    def who(self, word):
        """A player by name; a name in another case is taken too."""
        if word in self.hub.players:
            return word
        folded = [n for n in self.hub.players if n.lower() == word.lower()]
        if len(folded) == 1:
            return folded[0]
        return self.hub.player(word).name  # raises TableError naming who is there

    def options(self, words, flags=(), positional=None):
        """key=value words as arguments, bare flags as true; ``positional``
        maps any other word to (key, value) or raises Usage."""
        args = {}
        for w in words:
            if "=" in w:
                key, value = parse_pairs([w]).popitem()
                if key in NUMBERS and not _is_int(value):
                    raise Usage("%s must be a whole number, like %s=%d; not %r" % (key, key, NUMBERS[key], value))
                if key in args:
                    raise Usage("%s is given twice" % key)
                args[key] = value
            elif w in flags:
                args[w] = True
            elif positional is not None:
                key, value = positional(w)
                if key in args:
                    raise Usage("%s is given twice (%r)" % (key, w))
                args[key] = value
            else:
                raise Usage("what is %r? (%s)" % (w, "the flags here: " + ", ".join(flags) if flags else "key=value"))
        return args

    # -- running device commands -------------------------------------------------
    def run(self, who, op, **args):
        """Send one command; say what it did and what changed. Returns the reply."""
        p = self.hub.player(who)
        before = dict(p.state or {})
        r = self.hub.command(who, op, **args)
        self.tell(op, p, r, before)
        return r

    def tell(self, op, p, r, before, extra=(), words=True):
        if words:
            self.say(*replies.say(op, p.name, r, p.state))
        self.say(*extra)
        for event in (r.get("events") or []) if isinstance(r, dict) else []:
            self.say("  · %s" % event, style="dim")
        self.say(*replies.changes(p.name, before, p.state))

    # ======================================================================
    # Flips
    @staticmethod
    def flip_word(w):
        """(key, value) of a word naming what a flip uses: str/dex/int, a
        suit, +N/-N; None for any other word."""
        if w in ATTRS:
            return "attr", w
        if w in C.SUITS:
            return "suit", w
        n = signed(w)
        return ("net", n) if n is not None else None

    def flip_words(self, w):
        got = self.flip_word(w)
        if got is not None:
            return got
        if w.isdigit():
            return "net", int(w)
        raise Usage("what is %r? A flip takes str/dex/int or a suit, +N or -N, fast, pvp, open, key=value" % w)

    def do_flip(self, arg):
        """flip NAME [str|dex|int|SUIT] [+N|-N] [fast] [pvp] [open] [move=MOVE] [crit=blessing|levelup|bonus_move] [levels=N]
        Flip on NAME's device and resolve it: the result in the device's words.
          NAME                 a player, e.g. flip Ann str
          str|dex|int|SUIT     the attribute, or a suit (anvil blade crown dragon), e.g. flip Ann dex, flip Ann crown
          +N|-N                advantage or disadvantage (net=N too), e.g. flip Ann str +1, flip Ann int -2
          fast                 a FAST move: a miss gives the GM 2 Shadow, e.g. flip Bo dex fast
          pvp                  against another player: no XP, no level-up, e.g. flip Cy str pvp
          open                 leave the flip open for choose/flashback/bump/end, e.g. flip Ann str open
          move=MOVE            add a move's level from the sheet, e.g. flip Ann str move=Sneak
          crit=blessing|levelup|bonus_move   the Critical Success reward, e.g. flip Ann str crit=blessing
          levels=N             with crit=levelup: how many levels, e.g. flip Ann str crit=levelup levels=2"""
        words = self.words(arg, 1, "flip NAME [str|dex|int|SUIT] [+N|-N] ...")
        who = self.who(words[0])
        args = self.options(words[1:], ("fast", "pvp", "open"), self.flip_words)
        keep_open = args.pop("open", False)
        end = {k: args.pop(k) for k in ("crit", "levels") if k in args}
        self.flip_and_end(who, args, end, keep_open)

    def flip_and_end(self, who, args, end, keep_open=False):
        p = self.hub.player(who)
        before = dict(p.state or {})
        r = self.hub.command(who, "flip", **args)
        lines = replies.flip_view(p.name, r, p.state, args.get("attr"))
        if keep_open:
            self.say(*lines)
            self.tell("", p, {"events": r.get("events")}, before,
                      ["the flip is open: choose, flashback, bump or end %s" % p.name], words=False)
            return r
        self.say(*lines[:-1])  # the resolving card is said with the result
        for event in r.get("events") or []:
            self.say("  · %s" % event, style="dim")
        if r.get("phase") == "choose":
            first = r["tied"][0]
            self.say("a tie that matters between %s: the first, %s, resolves it (flip ... open, then choose, "
                     "to pick another)" % (replies.cards(r["tied"]), first))
            self.hub.command(who, "choose", card=first)
        if "move" in args and end.get("crit") == "levelup":
            end.setdefault("move", args["move"])
        e = self.hub.command(who, "end_flip", **end)
        self.tell("end_flip", p, e, before)
        return e

    def do_choose(self, arg):
        """choose NAME CARD
        Pick which tied card resolves NAME's open flip.
          CARD   one of the tied cards the flip named, e.g. choose Ann 12"""
        words = self.words(arg, 2, "choose NAME CARD")
        self.run(self.who(words[0]), "choose", card=words[1])

    def do_flashback(self, arg):
        """flashback NAME
        Spend 1 XP: NAME's open flip is ignored and flipped again, e.g. flashback Ann"""
        words = self.words(arg, 1, "flashback NAME")
        self.run(self.who(words[0]), "flashback")

    def do_bump(self, arg):
        """bump NAME
        After a flashback, 1 XP raises the result one step, e.g. bump Ann"""
        words = self.words(arg, 1, "bump NAME")
        self.run(self.who(words[0]), "bump")

    def do_end(self, arg):
        """end NAME [crit=blessing|levelup|bonus_move] [move=MOVE] [levels=N] [resolved=false]
        Resolve NAME's open flip: XP, Shadow, the critical success reward.
          crit=blessing|levelup|bonus_move   the reward of a Critical Success, e.g. end Ann crit=blessing
          move=MOVE         the move a level-up raises, e.g. end Ann crit=levelup move=Sneak
          levels=N          how many levels up, e.g. end Ann crit=levelup move=Sneak levels=2
          resolved=false    a teamwork flip won by another player's card, e.g. end Bo resolved=false"""
        words = self.words(arg, 1, "end NAME [crit=...]")
        self.run(self.who(words[0]), "end_flip", **self.options(words[1:]))

    def team_words(self, w):
        return self.flip_word(w) or ("_player", w)

    def do_team(self, arg):
        """team LEAD SUPPORTER... [str|dex|int|SUIT] [+N|-N] [pick=NAME] [crit=blessing|levelup]
        A teamwork flip: the lead flips, each supporter flips one Anvil, the best card resolves.
          LEAD SUPPORTER...   players, the lead first, e.g. team Cy Ann Bo
          str|dex|int|SUIT    the lead's attribute or suit (attr=, suit= too), e.g. team Cy Ann dex
          +N|-N               the lead's advantage (net=N too), e.g. team Cy Ann str +1
          pick=NAME           whose card resolves a tie for best, e.g. team Cy Ann Bo pick=Ann
          crit=blessing|levelup   the reward if the Critical Success card wins, e.g. team Cy Ann crit=blessing"""
        words = self.words(arg, 2, "team LEAD SUPPORTER... [attr] [+N]")
        names, rest = [], []
        for w in words:
            kind = self.team_words(w) if "=" not in w else ("", w)
            (names if kind[0] == "_player" else rest).append(w)
        if len(names) < 2:
            raise Usage("a teamwork flip needs a lead and at least one supporter, e.g. team Cy Ann Bo dex")
        names = [self.who(n) for n in names]
        args = self.options(rest, (), self.team_words)
        for key in ("pick",):
            if key in args:
                args[key] = self.who(args[key])
        r = self.hub.teamwork(names[0], names[1:], **args)
        self.say("teamwork led by %s: %s's card %s resolves it: %s" % (
            names[0], r["resolved_by"], r["card"], replies.level_words(r["level"])))
        for entry in r["entries"]:
            self.say("  %s: card %s, %s" % (entry["player"], entry["card"], replies.WORDS.get(entry["level"])))
        for n, e in r["results"].items():
            gains = replies.end_flip(n, e)[1:]
            if gains:
                self.say("  %s: %s" % (n, "; ".join(gains)))

    def do_pursuit(self, arg):
        """pursuit NAME [encumbrance=N] [open] | pursuit NAME round won|lost [helper=int|str|dex] | pursuit NAME end
        The Pursuit mini-game with NAME as the rabbit: the flip from Str + Dex - encumbrance, and the rounds.
          encumbrance=N     Item and Pack cards carried, e.g. pursuit Ann encumbrance=2
          open              leave the flip open, e.g. pursuit Ann open
          round won|lost    record a round: did the rabbit get away? e.g. pursuit Ann round won
          helper=int|str|dex   a helper's attribute in rounds 2-4, e.g. pursuit Ann round lost helper=int
          end               forget the pursuit, e.g. pursuit Ann end"""
        from shared_rules.minigames import Pursuit, pursuit_flip

        words = self.words(arg, 1, "pursuit NAME [encumbrance=N]")
        who = self.who(words[0])
        if words[1:2] == ["end"]:
            self.pursuits.pop(who, None)
            self.say("%s's pursuit is over" % who)
            return
        chase = self.pursuits.setdefault(who, Pursuit())
        if words[1:2] == ["round"]:
            if len(words) < 3 or words[2] not in ("won", "lost"):
                raise Usage("say whether the rabbit got away: pursuit %s round won, or pursuit %s round lost" % (who, who))
            helper = self.options(words[3:]).get("helper")
            try:
                chase.record_round(words[2] == "won", helper)
            except ValueError as e:  # RulesError: a sentence
                raise Usage(str(e))
            self.say("round %d: %s; rabbit %d, pursuers %d" % (
                len(chase.rounds), "the rabbit got away" if words[2] == "won" else "the pursuers gained",
                chase.rabbit_wins, chase.pursuer_wins))
            if chase.winner:
                self.say("the %s win the pursuit" % chase.winner, style="bold")
                self.pursuits.pop(who, None)
            elif chase.pursuers_two_in_a_row:
                self.say("the pursuers won two in a row: they may make a move")
            if not chase.winner and chase.helpers_available():
                self.say("round %d may be helped with %s" % (chase.next_round, ", ".join(chase.helpers_available())))
            return
        args = self.options(words[1:], ("open",))
        attrs = self.hub.player(who).state.get("attrs") or {}
        try:
            row = pursuit_flip(C.SUITS.index(attrs.get("str")) + 1, C.SUITS.index(attrs.get("dex")) + 1,
                               args.get("encumbrance", 0))
        except ValueError as e:
            raise Usage(str(e))
        self.say("pursuit round %d: Str %s (%d) + Dex %s (%d) - encumbrance %d = %d: %s %+d%s" % (
            chase.next_round or 1, replies.title(attrs.get("str")), C.SUITS.index(attrs.get("str")) + 1,
            replies.title(attrs.get("dex")), C.SUITS.index(attrs.get("dex")) + 1, args.get("encumbrance", 0), row["value"],
            replies.title(row["suit"]), row["net"], " (beyond the table: the GM rules on it)" if row["beyond_table"] else ""))
        self.flip_and_end(who, {"suit": row["suit"], "net": row["net"]}, {}, args.get("open", False))

    # ======================================================================
    # Buttons
    def do_press(self, arg):
        """press NAME A|B|C|UP|DOWN
        Press a button on NAME's device, as the player would; says what it did.
          A|B|C|UP|DOWN   the button, e.g. press Bo B (on the home screen: flip)"""
        words = self.words(arg, 2, "press NAME A|B|C|UP|DOWN")
        who, button = self.who(words[0]), words[1].upper()
        if button not in BUTTONS:
            raise Usage("a button is A, B, C, UP or DOWN, not %r" % words[1])
        p = self.hub.player(who)
        before, last = dict(p.state or {}), p.last_flip
        r = self.hub.command(who, "press", button=button)
        self.hub.poll(0.2)  # a press that ran a rules command sends its event now
        self.say("%s pressed %s: the screen shows %s" % (p.name, button, r.get("screen")))
        f = (p.state or {}).get("flip")
        if f:
            self.say(*replies.flip_view(p.name, f, p.state))
        if p.last_flip is not last and p.last_flip:
            lf = p.last_flip
            self.say("%s's flip %s %+d (%s): %s from card %s" % (
                p.name, replies.title(lf.get("suit")), lf.get("net") or 0, replies.cards(lf.get("cards")),
                replies.level_words(lf.get("level")), lf.get("resolving")))
        self.say(*replies.changes(p.name, before, p.state))

    # ======================================================================
    # Combat
    def do_damage(self, arg):
        """damage NAME POWER [wounds=N] [harm=N] [armour] [absorb=N] [cardio=N] [reshuffle]
        Deal attack power; the player's choice of how to take it, the rest as Stamina.
          POWER       attack power, a whole number, e.g. damage Di 4
          wounds=N    Wounds that absorb it, e.g. damage Di 9 wounds=1
          harm=N      Harm tokens, 3 power each (longer campaigns), e.g. damage Di 7 harm=2
          armour      the armour takes those Wound and Harm tokens, e.g. damage Di 9 wounds=1 armour
          absorb=N    points taken on move or item cards as Exhaustion tokens, e.g. damage Di 5 absorb=2
          cardio=N    points as tokens in Good Cardio's slots, e.g. damage Di 5 cardio=1
          reshuffle   reshuffle before losing Stamina, e.g. damage Di 4 reshuffle"""
        words = self.words(arg, 2, "damage NAME POWER [wounds=N] [harm=N] [armour] [absorb=N]")
        who = self.who(words[0])
        power = number(words[1], "attack power", "damage %s 9" % who)
        args = self.options(words[2:], ("reshuffle", "armour"))
        if args.pop("reshuffle", False):
            args["reshuffle_first"] = True
        if args.pop("armour", False):
            for key in ("wounds", "harm"):
                if args.get(key):
                    args["armour_" + key] = args[key]
        self.run(who, "damage", power=power, **args)

    def do_reveal(self, arg):
        """reveal NAME [d4|d6|d10]
        Reveal attack power from the top of NAME's Deckahedron.
          d4|d6|d10   the triangle, the square, or both (default d10), e.g. reveal Ann d6"""
        words = self.words(arg, 1, "reveal NAME [d4|d6|d10]")
        kind = words[1] if len(words) > 1 else "d10"
        if kind not in REVEALS:
            raise Usage("reveal d4, d6 or d10, not %r" % kind)
        r = self.run(self.who(words[0]), "reveal", kind=kind)
        self.say("then: damage NAME %s [wounds=N] ..." % r.get("power"))

    def do_lose(self, arg):
        """lose NAME [N] [reshuffle]
        NAME loses or expends N Stamina (default 1).
          N           Stamina points, e.g. lose Bo 2
          reshuffle   reshuffle first, e.g. lose Bo 1 reshuffle"""
        words = self.words(arg, 1, "lose NAME [N]")
        rest = words[1:]
        points = 1
        if rest and rest[0] != "reshuffle" and "=" not in rest[0]:
            points = number(rest.pop(0), "Stamina points", "lose Bo 2")
        args = self.options(rest, ("reshuffle",))
        self.run(self.who(words[0]), "lose_stamina", points=points,
                 **({"reshuffle_first": True} if args.get("reshuffle") else {}))

    def do_wound(self, arg):
        """wound NAME [armour]
        NAME takes a Wound (a Wound token and a wound card from the shared supply), e.g. wound Bo
          armour      the armour takes the Wound instead, e.g. wound Bo armour"""
        words = self.words(arg, 1, "wound NAME [armour]")
        args = self.options(words[1:], ("armour",))
        self.run(self.who(words[0]), "take_wound", **args)

    def do_harm(self, arg):
        """harm NAME [armour]
        NAME takes a Harm token (9-hour and 30-hour campaigns), e.g. harm Bo
          armour      the armour takes the Harm token instead, e.g. harm Bo armour"""
        words = self.words(arg, 1, "harm NAME [armour]")
        args = self.options(words[1:], ("armour",))
        self.run(self.who(words[0]), "take_harm", **args)

    def do_gear(self, arg):
        """gear NAME add ITEM [kind=KIND] [slots=LETTERS] [capacity=N] [weight=N] | gear NAME drop ITEM | gear NAME damage ITEM
        NAME's item cards: write one, drop one, or damage one (the third damage destroys it).
          add ITEM       a new item card, e.g. gear Bo add Rope
          kind=KIND      item, weapon, armour, shield or magic, e.g. gear Bo add Leather kind=armour
          slots=LETTERS  armour slots, h = Harm, w = Harm or Wound, e.g. gear Bo add Plate kind=armour slots=www
          capacity=N     a magic item's charges (default 3), e.g. gear Bo add Wand kind=magic capacity=2;
                         a weapon with charges is a magic weapon, e.g. gear Bo add Blade kind=weapon capacity=3
          weight=N       how many items it counts as, e.g. gear Bo add Plate kind=armour weight=4
          drop ITEM      drop it, e.g. gear Bo drop Rope
          damage ITEM    a red card on it, e.g. gear Bo damage Sword"""
        words = self.words(arg, 3, "gear NAME add|drop|damage ITEM")
        who, what, item = self.who(words[0]), words[1], words[2]
        ops = {"add": "gear_add", "drop": "gear_drop", "damage": "item_damage"}
        if what not in ops:
            raise Usage("gear %s add, drop or damage, not %r" % (who, what))
        args = self.options(words[3:]) if what == "add" else {}
        self.run(who, ops[what], name=item, **args)

    def do_spotlight(self, arg):
        """spotlight NAME
        The spotlight moves on from NAME: a new FAST move is allowed, attack power may be revealed again, e.g. spotlight Bo"""
        words = self.words(arg, 1, "spotlight NAME")
        self.run(self.who(words[0]), "spotlight")

    def do_blessing(self, arg):
        """blessing NAME
        NAME takes a random Blessing from the shared supply, e.g. blessing Ann"""
        words = self.words(arg, 1, "blessing NAME")
        self.run(self.who(words[0]), "take_blessing")

    def do_revive(self, arg):
        """revive NAME
        The GM brings an incapacitated character back, e.g. revive Di"""
        words = self.words(arg, 1, "revive NAME")
        self.run(self.who(words[0]), "revive")

    # ======================================================================
    # Recovery
    def do_breather(self, arg):
        """breather NAME [N] [tokens=N] [cards=ID,ID] [facedown=N]
        Take a Breather: regain up to 4 Stamina. Without tokens/cards/facedown the
        console picks as the device does: tokens first, then face-up cards, then face-down ones.
          N              how many Stamina to regain (default: as many as it may), e.g. breather Bo 2
          tokens=N       Exhaustion tokens returned, e.g. breather Bo tokens=2
          cards=ID,ID    face-up Exhaustion cards, e.g. breather Bo cards=3,7
          facedown=N     face-down cards taken blind, e.g. breather Bo facedown=1"""
        words = self.words(arg, 1, "breather NAME [N] [tokens=N] [cards=ID,ID] [facedown=N]")
        who = self.who(words[0])
        rest = words[1:]
        want = None
        if rest and "=" not in rest[0]:
            want = number(rest.pop(0), "Stamina to regain", "breather %s 2" % who)
        args = coerce("breather", self.options(rest))
        if not any(k in args for k in ("tokens", "cards", "facedown")):
            args.update(breather_pick(self.hub.player(who).state, want))
        self.run(who, "breather", **args)

    def do_rest(self, arg):
        """rest NAME [keep=ID,ID|worst]
        A night's rest: tokens back, Exhaustion cards back but as many as Harm + Wound tokens.
          keep=ID,ID|worst   the Exhaustion cards kept (default: the worst, as the device does), e.g. rest Bo keep=19,4"""
        words = self.words(arg, 1, "rest NAME [keep=ID,ID]")
        args = coerce("rest", self.options(words[1:]))
        args.setdefault("keep", "worst")
        self.run(self.who(words[0]), "rest", **args)

    def do_seek_help(self, arg):
        """seek_help NAME [keep=ID,ID|worst] [hearth]
        Seek Help: tokens and Harm back, wound cards to the supply, keep as many Exhaustion cards as Wound tokens.
          keep=ID,ID|worst   the Exhaustion cards kept (default: the worst), e.g. seek_help Bo keep=19,4
          hearth       at The Hearth: the Wound tokens go too, e.g. seek_help Bo hearth"""
        words = self.words(arg, 1, "seek_help NAME [keep=ID,ID] [hearth]")
        args = coerce("seek_help", self.options(words[1:], ("hearth",)))
        args.setdefault("keep", "worst")
        self.run(self.who(words[0]), "seek_help", **args)

    def do_reshuffle(self, arg):
        """reshuffle NAME
        The optional reshuffle (not during a flip), e.g. reshuffle Ann"""
        words = self.words(arg, 1, "reshuffle NAME")
        self.run(self.who(words[0]), "reshuffle")

    # ======================================================================
    # The sheet and advancement
    def do_attr(self, arg):
        """attr NAME str|dex|int SUIT
        Which suit an attribute flips, on NAME's sheet.
          str|dex|int   the attribute, e.g. attr Ann dex blade
          SUIT          anvil, blade, crown or dragon, e.g. attr Ann str dragon"""
        words = self.words(arg, 3, "attr NAME str|dex|int SUIT")
        self.run(self.who(words[0]), "set_attr", attr=words[1], suit=words[2])

    def do_move(self, arg):
        """move NAME MOVE [wild|novice|base|expert|master]
        Write a move on NAME's sheet at a level (default base).
          MOVE     the move's name (quote it if it has spaces), e.g. move Ann Sneak
          wild|novice|base|expert|master   the level, e.g. move Ann "Pick Locks" expert"""
        words = self.words(arg, 2, "move NAME MOVE [LEVEL]")
        self.run(self.who(words[0]), "set_move", name=words[1], level=words[2] if len(words) > 2 else "base")

    def do_study(self, arg):
        """study NAME MOVE
        Study under a master: 2 XP to raise a move or learn a new one.
          MOVE   the move (quote it if it has spaces), e.g. study Ann Sneak"""
        words = self.words(arg, 2, "study NAME MOVE")
        self.run(self.who(words[0]), "study", move=words[1])

    def do_mercy(self, arg):
        """mercy NAME
        A mercy flashback: one XP for a forgotten action, e.g. mercy Ann"""
        words = self.words(arg, 1, "mercy NAME")
        self.run(self.who(words[0]), "mercy_flashback")

    def do_xp(self, arg):
        """xp NAME [N]
        NAME gains N XP from outside a flip (default 1), e.g. xp Ann 2"""
        words = self.words(arg, 1, "xp NAME [N]")
        n = number(words[1], "XP", "xp Ann 2") if len(words) > 1 else 1
        self.run(self.who(words[0]), "gain_xp", n=n)

    # ======================================================================
    # Mini-games
    def do_minigame(self, arg):
        """minigame NAME pick_locks|magic | minigame NAME swap CARD | minigame NAME done | minigame NAME abandon
        The corner-matching mini-games on NAME's device.
          pick_locks|magic   start one (3 or 4 cards), e.g. minigame Ann pick_locks
          swap CARD          exhaust a card and replace it from the deck, e.g. minigame Ann swap 7
          done               finish: the cards line up, a success, e.g. minigame Ann done
          abandon            give up: read it as a miss, e.g. minigame Ann abandon"""
        words = self.words(arg, 2, "minigame NAME pick_locks|magic|swap CARD|done|abandon")
        who, what = self.who(words[0]), words[1]
        if what in MINIGAMES:
            self.run(who, "minigame_start", kind=what)
        elif what == "swap":
            if len(words) < 3:
                raise Usage("say which card to swap, e.g. minigame %s swap 7" % who)
            self.run(who, "minigame_exhaust", card=words[2])
        elif what in ("done", "abandon"):
            self.run(who, "minigame_end", abandon=(what == "abandon"))
        else:
            raise Usage("minigame %s takes pick_locks, magic, swap CARD, done or abandon, not %r" % (who, what))

    # ======================================================================
    # Odds, editions, a new character
    def do_odds(self, arg):
        """odds NAME [str|dex|int|SUIT] [+N|-N]
        The exact odds of NAME's next flip from the cards left in the Deckahedron.
          str|dex|int|SUIT   attribute or suit (default str), e.g. odds Ann crown
          +N|-N              advantage, e.g. odds Ann dex +1
        A Facets character: odds NAME ATTR TN [bonus=N] [pressure|calm], e.g. odds Cy finesse 8
        A SAVE hero: odds NAME [preferred] [expertise] [assisted] [health=H], e.g. odds Di preferred"""
        words = self.words(arg, 1, "odds NAME [attr|SUIT] [+N]")
        who = self.who(words[0])
        system = (self.hub.player(who).state or {}).get("system")
        # Another system's odds, in its words (nothing returned: a true value ends cmd's loop).
        if system == "facets":
            self._facets([who, "odds"] + words[1:])
            return
        if system == "save":
            self._save_odds(who, words[1:])
            return
        args = self.options(words[1:], (), self.flip_words)
        suit = args.get("suit") or (self.hub.player(who).state.get("attrs") or {}).get(args.get("attr", "str"))
        r = self.hub.command(who, "odds", suit=suit, net=args.get("net", 0))
        self.say("%s's next flip, %s %+d (%s cards):" % (who, replies.title(suit), args.get("net", 0),
                                                          r.get("cards_flipped")))
        for level in (4, 3, 2, 1):
            self.say("  %-8s %s" % (replies.WORDS[level], percent((r.get("levels") or {}).get(str(level)))))
        self.say("  XP card  %s" % percent(r.get("xp")))
        note = replies.cap_note(args.get("net", 0), self.hub.player(who).state)
        if note:
            self.say(note)

    def do_edition(self, arg):
        """edition NAME [EDITION] [CAMPAIGN]
        Switch the rules between scenes.
          EDITION    md, v093, dw-lucky or dw-heroic, e.g. edition Ann v093
          CAMPAIGN   oneshot, 9h or 30h, e.g. edition Ann md 9h"""
        words = self.words(arg, 2, "edition NAME [EDITION] [CAMPAIGN]")
        args = {}
        for w in words[1:]:
            if w in EDITION_KEYS:
                args["edition_key"] = w
            elif w in CAMPAIGNS:
                args["campaign"] = w
            else:
                raise Usage("%r is neither an edition (%s) nor a campaign (%s)" % (
                    w, ", ".join(EDITION_KEYS), ", ".join(CAMPAIGNS)))
        self.run(self.who(words[0]), "set_edition", **args)

    def do_newgame(self, arg):
        """newgame NAME yes [system=SYSTEM] [edition=EDITION] [campaign=CAMPAIGN] [seed=N]
        A new character on NAME's device: the old one is lost (its backups stay).
          yes                  confirms it, e.g. newgame Ann yes
          system=SYSTEM        the resolution system, deck by default (docs/systems.md), e.g. newgame Ann yes system=save
          edition=EDITION      md, v093, dw-lucky, dw-heroic, e.g. newgame Ann yes edition=v093
          campaign=CAMPAIGN    oneshot, 9h, 30h, e.g. newgame Ann yes campaign=9h
          seed=N               shuffle seed, e.g. newgame Ann yes seed=42"""
        words = self.words(arg, 1, "newgame NAME yes")
        who = self.who(words[0])
        args = self.options(words[1:], ("yes",))
        if not args.pop("yes", False):
            raise Usage("starting over loses %s's character: newgame %s yes" % (who, who))
        self.run(who, "new_game", confirm=True, **args)

    # ======================================================================
    # The table
    def do_name(self, arg):
        """name NAME NEW
        Rename a player: at the table and on the device (one name, up to 16 characters).
          NEW   the new name, e.g. name Di Kresk (quote a name with spaces: name Di "Kresk the Bold")"""
        words = self.words(arg, 2, "name NAME NEW")
        who = self.who(words[0])
        self.hub.rename(who, words[1])
        self.say("%s is now %s, at the table and on the device" % (who, words[1]))

    def do_shadow(self, arg):
        """shadow [spend N]
        The GM's Shadow points: earned, spent, left; or spend some.
          spend N   spend N points, e.g. shadow spend 1"""
        words = self.words(arg, 0, "shadow [spend N]")
        if words:
            if words[0] != "spend" or len(words) != 2:
                raise Usage("shadow, or shadow spend N (e.g. shadow spend 1)")
            self.hub.spend_shadow(number(words[1], "Shadow points to spend", "shadow spend 1"))
        earned, spent, left = self.hub.shadow()
        self.say("Shadow: %d earned, %d spent, %d left" % (earned, spent, left))

    def do_backup(self, arg):
        """backup [NAME...]
        Back up each named device's state now (default: everyone), e.g. backup Ann"""
        for name in (shlex.split(arg) or list(self.hub.players)):
            who = self.who(name)
            self.say("%s backed up (%s)" % (who, self.hub.backup(self.hub.player(who))))

    def do_backups(self, arg):
        """backups NAME
        Every backup of NAME, newest first: its number, time, command count and digest;
        restore Ann backup=N puts one back, e.g. backups Ann"""
        who = self.who(self.words(arg, 1, "backups NAME")[0])
        rows = self.hub.backups(who)
        if not rows:
            self.say("there is no backup of %s yet" % who)
        for b in rows:
            self.say("#%d  %s  count %s  digest %s  device %s" % (
                b["id"], time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(b["t"])), b["count"], b["digest"],
                b["device"]))

    def do_restore(self, arg):
        """restore NAME [PORT] [backup=N]
        Put NAME's backup onto a device: the latest, or backup number N (see backups NAME).
          PORT       a replacement device's port, e.g. restore Ann /dev/ttyACM2;
                     without it, onto the device now on Ann's port, e.g. restore Ann
          backup=N   an earlier backup, e.g. restore Ann backup=12"""
        words = self.words(arg, 1, "restore NAME [PORT] [backup=N]")
        who = self.who(words[0])
        port, backup_id = None, None
        for w in words[1:]:
            if w.startswith("backup="):
                backup_id = number(w[7:], "backup", "backup=12")
            elif port is None:
                port = w
            else:
                raise Usage("restore NAME [PORT] [backup=N] (help restore says more)")
        digest = self.hub.restore(who, port, backup_id)
        self.say("%s restored onto %s (%s)" % (who, port or "the device on %s's port" % who, digest))

    def do_undo(self, arg):
        """undo NAME [yes [entry=N]]
        Undo NAME's last action: the device goes back to its backup from before it
        (a teamwork flip on every device in it); says what it would undo until yes, e.g. undo Ann yes;
          entry=N       only if it still undoes from entry N (the one shown), e.g. undo Ann yes entry=12"""
        words = self.words(arg, 1, "undo NAME [yes [entry=N]]")
        entry = None
        if len(words) == 3 and words[2].startswith("entry="):
            entry = number(words[2][6:], "entry", "undo Ann yes entry=12")
        elif len(words) > 2:
            words = None
        if words is None or (len(words) > 1 and words[1] != "yes"):
            raise Usage("undo NAME, then undo NAME yes to do it (e.g. undo Ann yes)")
        who = self.who(words[0])
        if len(words) == 1:
            plan = self.hub.undo(who)
            self.shown["undo"] = {"player": who, "entry": plan["players"][who], "text": plan["text"]}
            self.say("this would put %s; type undo %s yes to do it" % (plan["text"], who))
            return
        plan = self.hub.undo(who, confirm=True, entry=entry)
        self.say("undone: %s" % plan["text"])

    def do_take_as_new(self, arg):
        """take_as_new NAME NEWNAME
        The device now on NAME's port is not NAME's: it joins as a new player NEWNAME
        and NAME keeps its backups (NEWNAME = NAME: NAME plays on with it), e.g. take_as_new Ann Zoe"""
        words = self.words(arg, 2, "take_as_new NAME NEWNAME")
        who = self.who(words[0])
        self.hub.take_as_new(who, words[1])
        if words[1] == who:
            self.say("%s plays on with the device and game now on the port" % who)
        else:
            self.say("the device on %s's port plays as %s; %s waits for a restore" % (who, words[1], who))

    def do_leave_out(self, arg):
        """leave_out NAME
        Leave the device on NAME's port out of the table (a stranger or a faulty device):
        nothing is sent to it until restore Ann PORT brings Ann back, e.g. leave_out Ann"""
        who = self.who(self.words(arg, 1, "leave_out NAME")[0])
        self.hub.leave_out(who)
        self.say("%s's device is left out; restore %s onto a device to play on" % (who, who))

    def do_screen(self, arg):
        """screen NAME FILE.png [overwrite=yes]
        Save what NAME's panel shows as a PNG where you say (its folder must be there).
          FILE.png        where to write it, e.g. screen Ann ann.png
          overwrite=yes   replace a file that is there, e.g. screen Ann ann.png overwrite=yes"""
        words = self.words(arg, 2, "screen NAME FILE.png [overwrite=yes]")
        extra = words[2:]
        if extra not in ([], ["overwrite=yes"]):
            raise Usage("screen NAME FILE.png takes only overwrite=yes after the file, not %s" % " ".join(extra))
        try:
            path = save_screen(self.hub, self.who(words[0]), words[1], overwrite=bool(extra))
        except ValueError as e:  # outfiles: the extension, the folder, a file there already
            raise Usage(str(e))
        self.say("wrote %s" % path)

    def do_status(self, arg):
        """status
        Every player: device, last flip, piles, XP, tokens, supply cards, state, e.g. status"""
        self.out.print(status_table(self.hub))

    def do_log(self, arg):
        """log [N]
        The last N things that happened this session (default 20), in words, e.g. log 50"""
        words = self.words(arg, 0, "log [N]")
        n = number(words[0], "how many entries", "log 50") if words else 20
        for e in record.entries(self.hub.db, play_only=True, newest=n, session=self.hub.session):
            self.say("%s %-8s %s%s" % (time.strftime("%H:%M:%S", time.localtime(e["t"])), e["player"], e["text"],
                                       " (undone)" if e["undone"] else ""))

    def do_do(self, arg):
        """do NAME OP [key=value ...] [--json]
        Any device command (docs/protocol.md lists them), answered in words.
          OP            a rules or app op, e.g. do Bo breather
          key=value     its arguments; card lists plainly, e.g. do Bo seek_help keep=19,4
          --json        the reply as JSON, for programs, e.g. do Bo state --json"""
        words = self.words(arg, 2, "do NAME OP [key=value ...]")
        as_json = "--json" in words
        words = [w for w in words if w != "--json"]
        who, op = self.who(words[0]), words[1]
        if op not in OPS:
            raise Usage("unknown op %r (one of: %s)" % (op, ", ".join(OPS)))
        args = coerce(op, parse_pairs(words[2:]))
        if op == "breather" and not any(k in args for k in ("tokens", "cards", "facedown")):
            args.update(breather_pick(self.hub.player(who).state, None))
        p = self.hub.player(who)
        before = dict(p.state or {})
        if op == "state" and not args:
            r = p.link.state()
        else:
            r = self.hub.command(who, op, **args)
        if as_json:
            self.out.print(json.dumps(r, indent=2, sort_keys=True), soft_wrap=True)
        elif op in ("state", "hello", "stats", "ping", "events"):
            self.say(*(replies.plain(r) or ["(nothing)"]))
        else:
            self.tell(op, p, r, before)

    def do_quit(self, arg):
        """quit
        Leave the table (the devices keep their games; the session log stays), e.g. quit (or Ctrl-D)"""
        return True

    def do_EOF(self, arg):
        self.say("")
        return True

    # -- the interactive loop -------------------------------------------------------
    def poll(self):
        """Read the devices; say what changed on them (button presses)."""
        snap = {p: (dict(p.state or {}), p.last_flip) for p in self.hub.players.values()}
        changed = self.hub.poll(0)
        lines = []
        for p, (before, last) in snap.items():
            if p.name not in changed:
                continue
            if p.last_flip is not last and p.last_flip:
                lf = p.last_flip
                lines.append("%s flipped %s %+d (%s): %s from card %s" % (
                    p.name, replies.title(lf.get("suit")), lf.get("net") or 0, replies.cards(lf.get("cards")),
                    replies.level_words(lf.get("level")), lf.get("resolving")))
            system = (p.state or {}).get("system", systems.DEFAULT)
            if system != systems.DEFAULT:  # another system: its last entry and what changed, in its words
                entries = record.entries(self.hub.db, p.name, newest=1)
                if entries and entries[-1]["kind"] == "event":
                    lines.append("%s %s" % (p.name, entries[-1]["text"]))
                lines += replies.changes(p.name, before, p.state)
                continue
            f = (p.state or {}).get("flip")
            if f:
                lines += replies.flip_view(p.name, f, p.state)
            lines += replies.changes(p.name, before, p.state) or ["%s's device changed" % p.name]
        return lines

    def loop(self, every=0.3):
        """Read lines in a thread while polling the devices here."""
        import queue
        import threading

        restore_tty = _save_tty()
        got, ready = queue.Queue(), threading.Event()
        editing = _readline(self)

        def reader():
            while True:
                ready.wait()
                ready.clear()
                try:
                    line = input(self.prompt)
                except (EOFError, OSError, ValueError):
                    got.put(None)
                    return
                got.put(line)

        threading.Thread(target=reader, name="console-input", daemon=True).start()
        self.do_status("")
        self.say("type help for the commands, help COMMAND for one (Tab completes)")
        ready.set()
        try:
            while True:
                try:
                    line = got.get(timeout=every)
                except queue.Empty:
                    lines = self.poll()
                    for tick in self.ticks:
                        lines += tick()
                    if lines:
                        self.out.file.write("\r\x1b[K")
                        self.say(*lines, style="yellow")
                        self.out.file.write(self.prompt + (editing.get_line_buffer() if editing else ""))
                        self.out.file.flush()
                    continue
                if line is None or self.onecmd(line):
                    return 0
                self.hub.poll(0.1)
                ready.set()
        finally:
            restore_tty()


def percent(fraction):
    try:
        a, b = str(fraction).split("/")
        return "%5.1f%%" % (100.0 * int(a) / int(b))
    except (ValueError, ZeroDivisionError):
        return str(fraction)


def breather_pick(state, want):
    """What a Breather regains when the GM names no cards (on the device the
    player marks them): Exhaustion tokens first, then face-up cards (the
    latest first), then face-down ones taken blind; ``want`` Stamina
    (default the edition's most, from shared_rules.editions)."""
    state = state or {}
    most = replies.rules_of(state)["breather_max"]
    tokens_have = int((state.get("tokens") or {}).get("exhaustion") or 0)
    up = list(state.get("exhaustion_face_up") or [])
    down = max(0, int(state.get("exhaustion") or 0) - len(up))
    have = tokens_have + len(up) + down
    if have == 0:
        raise Usage("no Exhaustion tokens or cards: there is no Stamina to regain")
    n = min(most, have) if want is None else want
    tokens = min(n, tokens_have)
    left = n - tokens
    cards = up[-left:] if left > 0 and up else []
    left -= len(cards)
    return {"tokens": tokens, "cards": cards, "facedown": max(0, min(left, down))}


def save_screen(hub, name, path, scale=2, overwrite=False):
    """What ``name``'s panel shows, as a PNG at ``path`` (absolute, returned).
    The path is checked before anything is asked or written
    (host_tools/outfiles.py): ValueError in words."""
    from host_tools.screens import png_bytes

    path = outfiles.check_new(path, (".png",), overwrite)
    buf, (w, h) = hub.fetch_screen(name)
    return outfiles.write_new(path, png_bytes(buf, w, h, scale), overwrite)


def _save_tty():
    """A function that puts the terminal back as it is now: readline in a
    thread may be mid-line when the table quits."""
    try:
        import termios

        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
    except Exception:
        return lambda: None

    def restore():
        try:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        except Exception:
            pass
    return restore


def _readline(console):
    """Tab completion through readline where Python has it; the module or None."""
    try:
        import readline
    except ImportError:
        return None
    readline.set_completer(console.complete)
    readline.set_completer_delims(" \t")
    readline.parse_and_bind("tab: complete")
    return readline

"""The GM's console: one command per player action, typed plainly.

    table> flip Ann str +1
    table> damage Di 9 wounds=1
    table> help damage

The game systems have one shape: the Deckahedron, the default system, has
the top-level words (flip, damage, rest ...: console/deck.py); every other
system's commands go under its key, ``facets NAME WHAT ...`` and ``save NAME
WHAT ...`` (console/facets.py, console/save2d6.py), so no system's word
shadows another's. TableConsole takes each system's ``Commands`` by its key
(shared_rules.systems.KEYS); ``odds NAME`` asks the named player's system
(its ``odds_<key>``).

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
import io
import json
import shlex
import sys
import time

from rich.console import Console
from rich.table import Table

from shared_rules.deck import cards as C
from shared_rules import systems
from shared_rules.deck.editions import CAMPAIGNS, EDITION_KEYS
from shared_rules.deck.state import ATTRS, MOVE_LEVELS
from shared_rules.deck.results import WORDS
from shared_rules.deck.words import rules_of, title

from host_tools import system_module
from host_tools.console.deck import MINIGAMES, REVEALS, breather_pick
from host_tools.console.typed import OPS, Usage, coerce, number, parse_pairs
from host_tools.link import DeviceError, LinkError
from host_tools.table import outfiles, record, replies
from host_tools.table.battery import battery_words
from host_tools.table.errors import TableError

BUTTONS = ("A", "B", "C", "UP", "DOWN")
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
    for col in ("player", "device", "last flip", "state", "battery"):
        t.add_column(col)
    for name, p in hub.players.items():
        s = p.state or {}
        f = p.last_flip
        last = "-"
        if f and f.get("level"):
            glyphs = rules_of(s)["level_glyphs"]
            last = "%s %+d: %s -> %s %s %s" % (title(f.get("suit") or "?"), f.get("net") or 0,
                                               ",".join(str(c) for c in f.get("cards", [])), f.get("resolving"),
                                               WORDS.get(f["level"], f["level"]),
                                               glyphs[f["level"] - 1] if f["level"] in (1, 2, 3, 4) else "")
        if s:  # its state in its own system's words
            state = [systems.name(replies.system_of(s)) + ("" if p.online else " (offline)")]
            state += replies.words_of(s).describe(s)
        else:
            state = [p.error or ("offline" if not p.online else "ok")]
        t.add_row(str(name), "%s\n%s" % (p.device, p.port), last, "\n".join(state), battery_words(s) if s else "-")
    earned, spent, left = hub.shadow()
    first = next(iter(hub.players.values())).state if hub.players else {}
    t.caption = "Shared supply: %s   ·   GM %s points: %d earned, %d spent, %d left" % (
        ",".join(hub.supply()) or "empty", rules_of(first)["gm_points"], earned, spent, left)
    return t


def button_flip_line(lf, state=None):
    """A flip made with a device's buttons (the hub's last_flip), as the
    record says it: why, and whether it answers the GM's ask."""
    return "%s (buttons)%s%s" % (replies.say("flip", lf, state), record.reason_words(lf.get("reason")),
                                 " (as the GM asked)" if lf.get("ask") else "")


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


# Each system's commands: the Commands class of console/<its folder>.py, by key.
SYSTEM_COMMANDS = tuple(system_module("console", key).Commands for key in systems.KEYS)


class TableConsole(*SYSTEM_COMMANDS, cmd.Cmd):
    prompt = "table> "
    doc_header = "commands"

    def __init__(self, hub, out=None, run_dir="."):
        cmd.Cmd.__init__(self)
        self.hub = hub
        self.out = out or make_console()
        self.run_dir = run_dir
        self.pursuits = {}  # player name -> shared_rules.deck.minigames.Pursuit in progress
        self.failed = False  # the last command was refused (the scripted scene says so)
        self.ticks = [self.save_tick]  # called on the hub's thread while the loop waits; each returns lines to say (the page)
        self.shown = {}  # what the last command showed, for the page to act on (undo: the plan it asks about)
        self.undo_asked = {}  # player -> the entry `undo NAME` showed, which `undo NAME yes` does and only it

    # -- printing ---------------------------------------------------------
    def say(self, *lines, style=None):
        for line in lines:
            self.out.print(line, style=style, soft_wrap=True)  # one action, one line: the terminal wraps it

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
        return self.attempt(lambda: cmd.Cmd.onecmd(self, self.precmd(line)))

    def attempt(self, act):
        """``act()``, a command read from its line or one of the actions called with its arguments
        (the page's structured calls): errors are said in a sentence, never raised."""
        self.failed = False
        self.shown = {}
        try:
            return act()
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

    def capture(self, act):
        """Run ``act``, a line as if typed or a function of no arguments calling one of the actions,
        its words kept instead of printed: (refused, lines). For the live page (host_tools/web), on
        the hub's thread."""
        saved, text = self.out, io.StringIO()
        self.out = make_console(file=text, width=saved.width)
        try:
            self.onecmd(act) if isinstance(act, str) else self.attempt(act)
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

    # `help` lists the commands by what a GM does with them, not alphabetically;
    # a command in no group (a new one) is listed under "Other".
    HELP_GROUPS = (
        ("Flips", ("flip", "ask", "choose", "flashback", "bump", "end", "team", "odds", "press", "pursuit", "minigame",
                   "spotlight", "reshuffle")),
        ("Harm and recovery", ("damage", "reveal", "lose", "wound", "harm", "gear", "breather", "rest",
                               "seek_help", "revive", "mercy")),
        ("Supply and Shadow", ("blessing", "shadow")),
        ("The character", ("attr", "move", "study", "xp", "edition", "name", "newgame")),
        ("Other systems", ("facets", "save")),
        ("Players and devices", ("status", "screen", "backup", "backups", "restore", "take_as_new", "leave_out", "do")),
        ("The record", ("log", "undo")),
        ("The console", ("help", "quit")),
    )

    def help_groups(self):
        """[(title, [command])] of every command, each once, in HELP_GROUPS'
        order; the ones no group names last, under "Other"."""
        have = set(self.commands())
        groups = [(title, [c for c in names if c in have]) for title, names in self.HELP_GROUPS]
        named = set(c for _, names in groups for c in names)
        rest = [c for c in self.commands() if c not in named]
        return [g for g in groups if g[1]] + ([("Other", rest)] if rest else [])

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
            command, _, word = arg.partition(" ")
            command = ALIASES.get(command, command)
            method = getattr(self, "do_" + command, None)
            if method is None or command == "EOF":
                raise Usage("no command %r: type help for the list" % arg)
            doc = method.__doc__ or command
            if word.strip():  # help save roll: a system command's word in full
                words_help = getattr(self, command + "_word_help", None)
                doc = words_help(word.strip()) if words_help is not None else None
                if doc is None:
                    raise Usage("no help for %r: help %s lists its words" % (arg, command))
            lines = [line.strip() for line in doc.strip().splitlines()]
            self.say(lines[0], style="bold")
            for line in lines[1:]:
                self.say("  " + line if line else "")
            also = sorted(a for a, c in ALIASES.items() if c == command)
            if also:
                self.say("  (also: %s)" % ", ".join(also))
            return
        self.say("Commands (NAME is a player at the table; [..] is optional; help COMMAND says more):", style="bold")
        for group, commands in self.help_groups():
            self.say(group, style="bold")
            for command in commands:
                self.say("  " + self.usage(command))
        self.say("The Deckahedron's commands are the plain words; a Facets character's go under facets NAME, "
                 "a SAVE hero's under save NAME (help facets, help save).")
        self.say("Players: %s" % (", ".join(self.hub.players) or "nobody yet"))

    # -- reading the line -------------------------------------------------------
    def words(self, arg, least, syntax):
        words = shlex.split(arg)
        if len(words) < least:
            raise Usage("%s (help %s says more)" % (syntax, syntax.split()[0]))
        return words

    def words_and_reason(self, arg, least, syntax):
        """The line's words, and the one quoted as the reason (why a flip is
        made: flip Ann dex +1 "climb the wall"), "" when none is. The first
        word is the player's name, quoted or not (flip "Kresk the Bold" str)."""
        src = io.StringIO(arg)
        lex = shlex.shlex(src, posix=True)
        lex.whitespace_split, lex.commenters = True, ""
        words, reasons = [], []
        while True:
            at = src.tell()  # the lexer reads no further than the whitespace after a word
            word = lex.get_token()
            if word is None:
                break
            (reasons if words and arg[at:].lstrip()[:1] in "'\"" else words).append(word)
        if len(reasons) > 1:
            raise Usage("say one reason, in quotes: %s" % " ".join(shlex.quote(r) for r in reasons))
        if len(words) < least:
            raise Usage("%s (help %s says more)" % (syntax, syntax.split()[0]))
        return words, reasons[0] if reasons else ""

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
        """Send one command; say in one line what it did and what changed. Returns the reply."""
        p = self.hub.player(who)
        before = dict(p.state or {})
        r = self.hub.command(who, op, **args)
        self.tell(op, p, r, before, args=args)
        return r

    def tell(self, op, p, r, before, args=None, also=()):
        """The answer in one line (issue 27: one line per action): who, what
        the command did in its system's words, then what it changed on the
        device, and ``also`` what the console adds (the next step). The
        device's event words repeat the reply's: the record keeps them."""
        said = [replies.say(op, r, p.state, args)] + list(also)
        self.say(replies.line(p.name, said, replies.changes(before, p.state)))

    # ======================================================================
    # Buttons
    def do_press(self, arg):
        """press NAME A|B|C|UP|DOWN
        Press a button on NAME's device, as the player would; says what it did.
          A|B|C|UP|DOWN   the button, e.g. press Bo B (on the home screen: flip)"""
        words = self.words(arg, 2, "press NAME A|B|C|UP|DOWN")
        self.press(words[0], words[1])

    def press(self, player, button):
        """Press ``button`` (any case) on ``player``'s device: the page's board buttons too.
        Returns the device's reply (its ``screen`` after the press)."""
        who = self.who(player)
        if button.upper() not in BUTTONS:
            raise Usage("a button is A, B, C, UP or DOWN, not %r" % button)
        button = button.upper()
        p = self.hub.player(who)
        before, last, since = dict(p.state or {}), p.last_flip, self.last_entry()
        r = self.hub.command(who, "press", button=button)
        self.hub.poll(0.2)  # a press that ran a rules command sends its event now
        self.say(self.device_line(p, before, last, since, replies.say("press", r, p.state, {"button": button})))
        return r

    def last_entry(self):
        return self.hub.store.last_log_id().fetchone()[0] or 0

    def device_line(self, p, before, last, since, done=""):
        """What a device did with its buttons (or after a press), in one line:
        the press, the flip it made or opened (one it only kept open is not said
        again), else the commands its buttons ran since record entry ``since``;
        then what changed."""
        parts = [done] if done else []
        if p.last_flip is not last and p.last_flip:
            parts.append(button_flip_line(p.last_flip, p.state))
        f = (p.state or {}).get("flip")
        if f and f != before.get("flip"):  # opened or changed by this press, still open on the device
            parts.append(replies.say("flip", f, p.state))
        if len(parts) == bool(done):  # no flip: the commands the buttons ran, as the record says them
            parts += [e["text"] for e in record.entries(self.hub.db, p.name, newest=5)
                      if e["id"] > since and e["kind"] == "event"]
        return replies.line(p.name, parts, replies.changes(before, p.state)) or "%s's device changed" % p.name

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
        system = replies.system_of(self.hub.player(who).state)
        getattr(self, "odds_" + system)(who, words[1:])  # each system's odds, in its words

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
        if words and (words[0] != "spend" or len(words) != 2):
            raise Usage("shadow, or shadow spend N (e.g. shadow spend 1)")
        self.shadow(number(words[1], "Shadow points to spend", "shadow spend 1") if words else None)

    def shadow(self, spend=None):
        """The GM's Shadow points, once ``spend`` of them are spent (the page's Spend)."""
        if spend is not None:
            self.hub.spend_shadow(spend)
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
        """undo NAME [yes]
        Undo NAME's last action: the device goes back to its backup from before it
        (a teamwork flip on every device in it); says what it would undo, then
        undo NAME yes does exactly that (refused if NAME acted since), e.g. undo Ann yes"""
        words = self.words(arg, 1, "undo NAME [yes [entry=N]]")
        entry = None  # entry=N: the page's confirm names the entry its question showed
        if len(words) == 3 and words[2].startswith("entry="):
            entry = number(words[2][6:], "entry", "undo Ann yes entry=12")
        elif len(words) > 2:
            words = None
        if words is None or (len(words) > 1 and words[1] != "yes"):
            raise Usage("undo NAME, then undo NAME yes to do it (e.g. undo Ann yes)")
        self.undo(words[0], confirm=len(words) > 1, entry=entry)

    def undo(self, player, confirm=False, entry=None):
        """Say what undoing ``player``'s last action would put back; ``confirm``: do it, only the
        undo shown (``entry``, the page's; else the one undo NAME showed last)."""
        who = self.who(player)
        if not confirm:
            plan = self.hub.undo(who)
            self.shown["undo"] = {"player": who, "entry": plan["players"][who], "text": plan["text"]}
            self.undo_asked[who] = plan["players"][who]
            self.say("this would put %s; type undo %s yes to do it" % (plan["text"], who))
            return
        if entry is None:
            entry = self.undo_asked.get(who)
        plan = self.hub.undo(who, confirm=True, entry=entry)
        self.undo_asked.pop(who, None)
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
            self.tell(op, p, r, before, args)

    def do_quit(self, arg):
        """quit
        Leave the table (the devices keep their games; the session log stays), e.g. quit (or Ctrl-D)"""
        return True

    def do_EOF(self, arg):
        self.say("")
        return True

    # -- the interactive loop -------------------------------------------------------
    def poll(self):
        """Read the devices; say what changed on them (button presses), a
        line for each device."""
        snap = {p: (dict(p.state or {}), p.last_flip) for p in self.hub.players.values()}
        since = self.last_entry()
        changed = self.hub.poll(0)
        return [self.device_line(p, before, last, since) for p, (before, last) in snap.items() if p.name in changed]

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


def save_screen(hub, name, path, scale=2, overwrite=False):
    """What ``name``'s panel shows, as a PNG at ``path`` (absolute, returned).
    The path is checked before anything is asked or written
    (host_tools/table/outfiles.py): ValueError in words."""
    from host_tools.screens.core import png_bytes

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

"""The device app, independent of the board: input -> command -> rules ->
state saved -> screen updated.

The save file holds the game (shared_rules.deck.state text form) and the link's
memory (remembered replies, unacknowledged events) so both survive a power
cut together: a command's new state and its reply are saved before the reply
leaves, so a retried request gets that reply instead of a second action.
"""

import gc
import json
import sys

from shared_rules import protocol as P
from shared_rules.errors import RulesError
from shared_rules import systems
from shared_rules.atomic import text_digest

from endpoint import MAX_MEMORY, Endpoint
from refresh import RefreshPolicy
from saves import Storage

FIRMWARE = "0.1.0"
QUERY_OPS = ("hello", "state", "screen", "backup", "events", "odds", "ping", "stats", "crashlog")
RARE_QUERIES = ("stats", "crashlog")  # answered by link_ops.py, loaded when asked
# The save (saves.Storage writes it in pieces, never as one string):
#   the game's text form (shared_rules.deck.state, ending with its check line)
#   name NAME                    the player's name shown at the table
#   seq NEXT DROPPED             the link's event counters
#   reply RID <frame line>       remembered replies (endpoint.REMEMBER)
#   event SEQ <frame line>       unacknowledged events (endpoint.MAX_EVENTS)
#   end CRC                      written by saves.Storage
# An older save carries the link memory as one "link {json}" line instead.
MAX_STATE = 4096  # characters of a game's text form: 40 moves of 32 characters fit with room
MAX_SAVE = MAX_STATE + 32 + MAX_MEMORY
RESTORE_PARTS = 64  # parts of a restore upload (the host cuts them smaller only for escapes)

# Modules a board loads when a player first opens a menu away from the home
# screen, which nothing keeps once the player is back home (and with them
# the rules' code loaded on first use: game.release_code). On the official
# MicroPython image (no ROMFS: the device code is .mpy files whose bytecode
# is copied into the heap) they are dropped there when the free heap runs
# below RELEASE_BELOW, and loaded again when next opened (~0.1 s): the
# stock route's heap is otherwise filled and cut into pieces by every menu
# a session opens, until an import fails (docs/rp2040.md, "The stock route").
RELEASABLE = ("deck.menus", "deck.harm_menus", "deck.sheet", "deck.minigame_menus", "deck.gear_menus",
              "deck.flip_menus", "deck.ask", "menu_widgets", "shared_rules.deck.odds", "menu_screens", "link_ops", "shared_rules.deck.load",
              "shared_rules.deck.creation")
RELEASE_BELOW = 96 * 1024
# Code only power-on runs (reading the save back, the game's again on a
# restore; a first character): dropped once the game is up.
BOOT_ONLY = ("boot_game", "save_reader", "boards.slot_reader", "shared_rules.deck.load", "shared_rules.deck.creation")



# The clocks, imported once: on a board an import inside a function
# searches sys.path for a file extending the built-in module, ~8 ms a time
# on a Pico (and the loop asks the clock on every poll).
try:
    from time import ticks_diff, ticks_ms, ticks_us  # MicroPython
except ImportError:  # CircuitPython, CPython
    from time import monotonic

    ticks_diff = ticks_us = None
    try:
        from supervisor import ticks_ms  # CircuitPython: wraps at 2**29 like ticks_ms
    except ImportError:  # CPython, for tests
        def ticks_ms():
            return int(monotonic() * 1000)


def _us():
    if ticks_us is not None:
        return ticks_us()
    return int(monotonic() * 1000000)


def _us_since(t0):
    if ticks_diff is not None:
        return ticks_diff(_us(), t0)
    return _us() - t0


class Crash(Exception):
    """An error inside a request, already answered: the app resets."""


def crash_cause(e):
    """What a crash log names: the error a Crash carries (answered already,
    that error is the news), else `e` itself."""
    return e.args[0] if isinstance(e, Crash) and e.args else e


class LeaveApp(Exception):
    """The host asked for the REPL (op repl): main() leaves the app."""


class App:
    def __init__(self, board, device_id, seed=None):
        self.board = board
        self.device_id = device_id
        self.seed = seed
        self.name = ""
        self.game = None
        self.problem = ""
        self.storage = (board.save_store or Storage)(board.flash_dir)
        self.link = Endpoint(board.serial_write, self.storage.open_saved)
        self.ui = None  # the system's screens, once boot() knows the system (fit_ui)
        self.renderer = None
        self.refresh = RefreshPolicy(board.can_partial)
        self.dirty = True
        self.replay = False
        self.restoring = None
        self._text_key = self._text = None  # see game_text()
        self.need_save = False
        self.outbox = []  # event lines, sent once the state that made them is saved
        self.unsealed = None  # a button command's event, before its digest (seal)
        self.last_input = _ticks()
        self.panel_error = ""
        self.crashed = None  # an error inside a request, raised once it is answered
        self.leave = False  # the repl op: leave the app once the reply is out
        self.work = {}  # the last press's firmware work in microseconds (stats)
        self.heap_low = None
        self.heap_due = False  # a command ran since heap_low was last sampled
        self.battery_said = False  # the low-battery notice, once per power-up
        self.asked = None  # the GM's ask (op ask) the open button flip answers: its events carry it
        self._rest_kept = None  # the Ui's resting state as last written (sleep_ops.keep_rest)

    # -- boot and save -------------------------------------------------
    def boot(self):
        """The game from the save, or a new one (boot_game.py: power-up's
        code, dropped from the heap once done, app.BOOT_ONLY)."""
        from boot_game import boot

        boot(self)
        release_modules(0, BOOT_ONLY)

    def new_game(self, seed, system="deck", options=None):
        """A new character of ``system`` with that system's options (the
        Deckahedron's: edition_key, campaign, supply_set)."""
        self.seal()
        self.game = systems.new(system, seed, options)
        self.problem = ""
        self.fit_ui()
        self.ui.reset()
        self.need_save = True

    def fit_ui(self):
        """The UI of the game's system (the Deckahedron's with no game),
        imported on first use: a board loads the screens of one system."""
        key = self.game.SYSTEM if self.game is not None else systems.DEFAULT
        if self.ui is None or self.ui.SYSTEM != key:
            from render import system_module

            self.ui = system_module(key, "ui").Ui(self)

    def game_text(self):
        """The game's text form, made once per state: a reply's digest and
        the save share it (dumping is the costliest step after the flash
        write). Every change goes through Game.do, which counts it; a
        refused command restores a state with the very same text."""
        s = self.game.s
        key = (id(s), s.count)
        if key != self._text_key:
            self._text_key, self._text = key, self.game.dump()
        return self._text

    def digest(self):
        return text_digest(self.game_text())

    def save(self):
        if self.game is not None:
            self.storage.save(self.save_pieces())
            self.link.stored()
            # saved: the text (up to MAX_STATE characters) leaves the heap;
            # a later query makes it again
            self._text_key = self._text = None

    def save_pieces(self):
        text = self.game_text()
        name = "name %s\n" % self.name
        yield text
        yield name
        for piece in self.link.save_pieces(self.storage.new_head + len(text) + len(name)):
            yield piece

    # -- commands ----------------------------------------------------------
    def command(self, op, args, source="button"):
        """Run one rules command; on success save, and for a button press
        record an event for the host. Raises RulesError unchanged."""
        if self.game is None:
            raise RulesError("no_game", "there is no game: start a new character")
        self.seal()
        flip = self.game.flip_view() if op == "end_flip" and self.game.s.flip is not None else None
        result = systems.stamp(self.game, self.game.do(op, args))
        if op == "end_flip" and flip is not None:
            # shown until the player's next press when the host resolved it
            self.ui.result = None if source == "button" else {
                "cards": flip["cards"], "suit": flip["suit"], "net": flip["net"],
                "level": result["level"], "resolving": result["resolving"]}
        if source == "button":
            # Its digest and event line wait for seal(): poll() puts the
            # press's screen on the panel first (the bookkeeping, ~5 ms on
            # a Pico, runs while the panel refreshes)
            payload = {"op": op, "args": args, "result": result, "n": self.game.s.count}
            if self.asked is not None:
                payload["ask"] = self.asked
                if op == "end_flip":
                    self.asked = None
            if flip is not None:
                payload["flip"] = {"cards": flip["cards"], "suit": flip["suit"], "net": flip["net"],
                                   "level": result.get("level"), "resolving": result.get("resolving")}
            self.unsealed = payload
        else:
            result["digest"] = self.digest()
        self.need_save = True
        for e in result.get("events", ()):
            if "reshuffle" in e:  # (no joined str: each new str costs a board ~0.1 ms)
                self.refresh.clean_next()  # a clean refresh on every shuffle
                break
        self.dirty = True
        return result

    def seal(self):
        """The digest and event of the last button command, which wait for
        the press's screen (command, poll): made before anything else can
        change the game, read the link's events or save."""
        payload = self.unsealed
        if payload is not None:
            self.unsealed = None
            payload["digest"] = payload["result"]["digest"] = self.digest()
            self.outbox.append(self.link.add_event(payload))

    def decline(self, ask, why):
        """The player did not flip the GM's ask (``why``: declined, or
        refused by the rules): an event, so the GM hears of it."""
        self.seal()
        self.outbox.append(self.link.add_event({"op": "decline", "ask": ask, "why": why, "digest": self.digest(),
                                                "n": self.game.s.count}))
        self.need_save = True
        self.dirty = True

    def handle(self, op, args):
        """A request from the host: (mutating, ok, result or (code, msg))."""
        try:
            if op in QUERY_OPS:
                return False, True, self.query(op, args)
            if op == "press":
                button = args.get("button")
                if button not in P.BUTTONS:
                    raise RulesError("bad_args", "button must be one of A, B, C, UP, DOWN")
                self.press(button)
                self.seal()  # its event before anything else this read asks
                shown = self.ui.view()["screen"]  # the app's Ui: a new character of another system brings its own
                return True, True, {"screen": shown, "digest": self.digest() if self.game else None}
            if op == "new_game":
                if args.get("confirm") is not True:
                    raise RulesError("confirm", "starting over discards this character: send confirm=true")
                options = {}
                for k in args:
                    if k not in ("confirm", "seed", "system"):
                        options["edition_key" if k == "edition" else k] = args[k]
                self.new_game(args.get("seed", self.board.entropy()), args.get("system", systems.DEFAULT), options)
                self.refresh.clean_next()
                self.dirty = True
                return True, True, {"digest": self.digest()}
            if op == "set_name":
                name = args.get("name")
                if not isinstance(name, str) or not 0 < len(name) <= 16:
                    raise RulesError("bad_args", "a name is 1 to 16 characters")
                P.check_ascii(name)
                self.name = name
                self.dirty = True
                return True, True, {"name": name}
            if op == "restore":
                from link_ops import restore_part

                return restore_part(self, args)
            if op == "ask":
                offer = getattr(self.ui, "ask", None)
                if offer is None:
                    raise RulesError("not_for_system", "this system takes no asked flips: roll it from the host")
                return False, True, offer(args)
            if op == "repl":
                if args.get("confirm") is not True:
                    raise RulesError("confirm", "this stops the game until the board restarts: send confirm=true")
                self.leave = True
                return False, True, {"repl": True}
            if op in systems.game_class(self.game.SYSTEM if self.game else systems.DEFAULT).COMMANDS:
                if op == "set_edition" and "edition" in args:
                    args = dict(args)
                    args["edition_key"] = args.pop("edition")
                return True, True, self.command(op, args, source="host")
            raise RulesError("bad_op", "unknown command %r" % (op,))
        except RulesError as e:
            return False, False, (e.code, e.message)
        except P.FrameError as e:
            return False, False, ("bad_args", e.message)
        except Exception as e:  # a firmware bug: answer, then log it and reset (see poll)
            self.crashed = e
            return False, False, ("internal", "firmware error %s; the device restarts into its save "
                                              "(deckahedron do crashlog)" % type(e).__name__)

    def query(self, op, args):
        g = self.game
        if op == "ping":
            return {}
        if op == "hello":
            self.replay = True
            used, free = self.heap()
            return self.power({"device": self.device_id, "firmware": FIRMWARE, "protocol": P.VERSION,
                               "board": self.board.name, "platform": sys.platform, "name": self.name,
                               "system": g.SYSTEM if g else None,
                               "edition": getattr(g.s, "edition", None) if g else None,
                               "campaign": getattr(g.s, "campaign", None) if g else None,
                               "digest": self.digest() if g else None, "count": g.s.count if g else 0,
                               "game": g.s.game if g else None,
                               "events": self.link.events_kept(), "seq": self.link.replay_after(),
                               "events_dropped": self.link.dropped,
                               "problem": self.problem, "panel_error": self.panel_error,
                               "heap_used": used, "heap_free": free, "heap_low": self.heap_low})
        if op in RARE_QUERIES:
            return getattr(__import__("link_ops"), op)(self, args)
        if op == "events":
            self.replay = True
            return {"pending": self.link.events_kept(), "seq": self.link.replay_after()}
        if g is None:
            raise RulesError("no_game", "there is no game: start a new character")
        if op == "state":
            # Unbounded (moves, supply lists): JSON text in parts like a screen.
            out = g.summary()
            out["digest"] = self.digest()
            out["name"] = self.name
            out["device"] = self.device_id  # the host checks who it mirrors on every read
            out["selected"] = getattr(self.ui, "attr", None)  # the attribute the home screen has chosen
            self.power(out)
            return self.part(json.dumps(out), args, {"digest": out["digest"]})
        if op == "odds":
            return g.odds_query(args)
        if op == "screen":
            from link_ops import screen

            return screen(self, args)
        return self.part(self.game_text(), args, {"digest": self.digest()})  # backup

    def power(self, out):
        """``out`` with the power fields hello and state carry (battery_mv,
        usb: shared_rules/protocol.py)."""
        v = self._volts()
        out["battery_mv"] = None if v is None else int(v * 1000 + 0.5)
        out["usb"] = self.board.usb_powered()
        return out

    def part(self, text, args, extra):
        parts = P.chunks(text)
        i = part_asked(args, len(parts))
        extra.update({"part": i, "parts": len(parts), "data": parts[i]})
        return extra

    # -- the loop ------------------------------------------------------------
    # No button and no host request this long: sleep. A board with a
    # sleep_after_ms() (no USB host: it sleeps between presses) says how
    # long; with a host, or on a board without one, IDLE_OFF_MS.
    IDLE_OFF_MS = 5 * 60 * 1000
    WATCHDOG_MS = 8000  # rp2's WDT allows at most ~8.3 s
    # A 1-cell LiPo at rest: ~3.5 V has about a tenth of its charge left,
    # and its protection cuts at 3.0 V; below BATTERY_EMPTY_V the board
    # stops waking for play (the game is saved after every press anyway).
    # The figures are the wire's (protocol.BATTERY_MV): the GM's view says
    # low where the player's notice does.
    BATTERY_LOW_V = P.BATTERY_MV[1] / 1000
    BATTERY_EMPTY_V = P.BATTERY_MV[0] / 1000
    BATTERY_NONE_V = P.BATTERY_NONE_MV / 1000

    def poll(self, timeout_ms=20):
        data = self.board.serial_read(timeout_ms)
        if data and self.link.feed(data, self.handle):
            self.need_save = True
        if data:
            self.commit()  # the host's replies out, never after a wait for the panel
        pressed = self.board.buttons()
        for button in pressed:
            self.press(button)
        if data or pressed:
            self.last_input = _ticks()
        if pressed and self.dirty:
            # What the player pressed for goes to the panel first; the save
            # and the event follow while it refreshes. A power cut between
            # leaves the save as it was: the press is lost, never half-kept
            # (the same press then turns the same cards: the deck's order is
            # in the save).
            self.show()
        self.commit()
        if self.crashed is not None:
            raise Crash(self.crashed)  # answered; main() logs it and resets into the save
        if self.leave:
            raise LeaveApp()
        if self.dirty:
            self.show()
        elif self.refresh.idle(_elapsed(self.refresh.shown)):
            self.show()  # the same screen, cleaned while nobody waits (refresh.py)
        if data or pressed:
            self.heap_due = True
        elif self.heap_due:
            # heap_low, sampled after each command once the port and buttons
            # are quiet: a collection costs ~50 ms on a Pico, not for a press
            self.heap_due = False
            t0 = _us()
            self.heap()
            self.work["gc"] = _us_since(t0)
        self.board.feed()
        if self.board.can_sleep and _elapsed(self.last_input) > self.sleep_after_ms():
            self.sleep()

    def sleep_after_ms(self):
        ms = self.board.sleep_after_ms()
        if ms is None:
            return self.IDLE_OFF_MS
        if self.ui.stack and self.board.sleep_loses_ram():
            return max(ms, self.MENU_IDLE_MS)  # a menu would not survive the sleep: give it time
        return ms

    # The Ui's resting state that a sleep without RAM (a Badger switched off,
    # a MagTag's deep sleep) would lose and the next press needs (the
    # attribute and advantage chosen on the home screen, ...): kept in a
    # small file, written only when it changed, read back at a wake boot.
    # Each system's Ui names its fields (Ui.REST); the file names the system.
    REST_FILE = "rest.json"
    MENU_IDLE_MS = 60 * 1000

    def _rest(self):
        out = {"system": self.ui.SYSTEM}
        for k in getattr(self.ui, "REST", ()):
            v = getattr(self.ui, k, None)
            if isinstance(v, (str, int)):  # bool is an int
                out[k] = v
        return out

    def press(self, button):
        """A button, pressed or sent by the host: the rules part of its work is timed (stats)."""
        self.work = {}
        t0 = _us()
        self.ui.press(button)
        self.work["rules"] = _us_since(t0)
        self.dirty = True
        if not self.ui.stack and not _IN_ROM:
            release_modules()

    def heap(self):
        """(bytes in use, bytes free) after a collection, and the lowest free
        seen (heap_low); (None, None) where the runtime does not say."""
        gc.collect()
        try:
            used, free = gc.mem_alloc(), gc.mem_free()
        except AttributeError:  # CPython
            return None, None
        if self.heap_low is None or free < self.heap_low:
            self.heap_low = free
        return used, free

    def sleep(self):
        """Sleep until the next press, the state saved (sleep_ops.py, loaded
        when the board first sleeps)."""
        from sleep_ops import sleep

        sleep(self)

    def _volts(self):
        v = self.board.battery()
        return None if v is None or v < self.BATTERY_NONE_V else v

    def commit(self):
        """Save first, then let the reply and events out (design §5)."""
        if self.need_save:  # a command ran (and a button's left its event to seal)
            t0 = _us()
            self.need_save = False
            self.seal()
            self.save()
            self.work["save"] = _us_since(t0)  # with the press's digest and event line
        self.link.flush_reply()
        if self.outbox:  # a new list only when one was used: this runs on every idle pass
            for line in self.outbox:
                self.board.serial_write(line)
            self.outbox = []
        if self.replay:
            self.replay = False
            self.link.send_events()

    def render(self):
        if self.renderer is None:
            from render import Renderer

            # a CircuitPython board draws straight into its displayio surface
            self.renderer = Renderer(fb=self.board.surface)
        t0 = _us()
        view = self.ui.view()
        self.renderer.render(view)
        self.work["render"] = _us_since(t0)
        if self.renderer.error is not None:  # drawn as "Screen error": said in crash.log for the host
            error, self.renderer.error = self.renderer.error, None
            try:
                from saves import log_crash

                log_crash(self.board.flash_dir, "screen %s: %s\n" % (view.get("screen"), error))
            except Exception:  # noqa: BLE001 - out of memory or of drive: the panel says it already
                pass
        return view

    def show(self):
        """Redraw and push to the panel with the update the policy picks. A
        panel that fails (a BUSY line stuck past its timeout) must not take
        the link down with it: the game goes on over serial, and hello
        reports the fault."""
        self.dirty = False
        view = self.render()
        try:
            t0 = _us()
            self.board.show(self.renderer.buf, self.refresh.mode(view.get("screen"), _ticks()))
            self.work["show"] = _us_since(t0)
            self.panel_error = ""
        except Exception as e:  # a board's PanelTimeout (drivers/panel.py), or its own
            self.panel_error = "%s: %s" % (type(e).__name__, e)
            self.refresh.clean_next()  # try a clean full refresh next time

    def run(self, booted=None):
        """Play until the host asks for the REPL; booted(), if given, is
        called once the home screen is up (start.py gives back its reserve)."""
        self.boot()
        if booted is not None:
            booted()
        self.last_input = _ticks()
        self.board.start_watchdog(self.WATCHDOG_MS)  # play mode: a hung board restarts into its save
        while True:
            self.poll()


def _ticks():
    return ticks_ms()


def _elapsed(since):
    if ticks_diff is not None:
        return ticks_diff(ticks_ms(), since)
    # CircuitPython's supervisor.ticks_ms wraps at 2**29; CPython's never
    return (ticks_ms() - since) % (1 << 29)


# The device code's bytecode stays in flash when it was imported from ROMFS
# (/rom/app.mpy); elsewhere (the stock image's littlefs, the simulator) a
# module's code is in the heap for as long as it is loaded.
_IN_ROM = __file__.startswith("/rom/")


def part_asked(args, parts):
    """The part a request asks for (args' part, 0 if none) of `parts`."""
    i = args.get("part", 0)
    if not isinstance(i, int) or not 0 <= i < parts:
        raise RulesError("bad_args", "part must be 0 to %d" % (parts - 1))
    return i


def release_modules(below=None, names=RELEASABLE):
    """Drop the modules of `names` (RELEASABLE) that are loaded when the
    free heap is under `below` bytes (RELEASE_BELOW; 0: always) (each from
    sys.modules and from its package, which holds it as an attribute), then
    collect: their code leaves the heap. The names they interned stay
    (MicroPython never frees one), so the next import costs only the code.
    Returns how many went."""
    try:
        mem_free = gc.mem_free
    except AttributeError:  # CPython: nothing to gain, and a collection of a large heap costs ms at every boot
        return 0
    gc.collect()
    free = mem_free()
    if below != 0 and free >= (RELEASE_BELOW if below is None else below):
        return 0
    rules = sys.modules.get("shared_rules.deck.game")
    if names is RELEASABLE and rules is not None:  # the home screen's release, not boot's
        names += rules.release_code()  # the rarer commands' rules, loaded on first use
    gone = 0
    for name in names:
        if sys.modules.pop(name, None) is not None:
            gone += 1
            package, _, leaf = name.rpartition(".")
            if package in sys.modules:
                try:
                    delattr(sys.modules[package], leaf)
                except AttributeError:
                    pass
    gc.collect()
    return gone

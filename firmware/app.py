"""The device app, independent of the board: input -> command -> rules ->
state saved -> screen updated.

The save file holds the game (shared_rules.state text form) and the link's
memory (remembered replies, unacknowledged events) so both survive a power
cut together: a command's new state and its reply are saved before the reply
leaves, so a retried request gets that reply instead of a second action.
"""

import json

from shared_rules import protocol as P
from shared_rules.errors import RulesError
from shared_rules.game import Game
from shared_rules.state import PlayerState, text_digest

from endpoint import Endpoint
from refresh import RefreshPolicy
from saves import Storage
import ui as UI

FIRMWARE = "0.1.0"
QUERY_OPS = ("hello", "state", "screen", "backup", "events", "odds", "ping")


def _split(text):
    """(game text, link dict) of a save, or ValueError."""
    cut = text.rfind("\nlink ")
    end = text.rfind("end ")
    if cut < 0 or end < cut or not text.endswith("\n"):
        raise ValueError("save is truncated")
    if P.crc_hex(text[:end]) != text[end + 4:].strip():
        raise ValueError("save is damaged")
    link = json.loads(text[cut + 6:end])
    if not isinstance(link, dict):
        raise ValueError("link memory is not a record")
    return text[:cut + 1], link


def validate(text):
    game_text, _ = _split(text)
    try:
        PlayerState.load(game_text)
    except RulesError as e:
        raise ValueError(e.message)


class App:
    def __init__(self, board, device_id, seed=None):
        self.board = board
        self.device_id = device_id
        self.seed = seed
        self.name = ""
        self.game = None
        self.problem = ""
        self.storage = Storage(board.flash_dir, validate)
        self.link = Endpoint(board.serial_write)
        self.ui = UI.Ui(self)
        self.renderer = None
        self.refresh = RefreshPolicy(getattr(board, "can_partial", False))
        self.dirty = True
        self.replay = False
        self.restoring = None
        self._text_key = self._text = None  # see game_text()
        self.need_save = False
        self.outbox = []  # event lines, sent once the state that made them is saved
        self.last_input = _ticks()
        self.panel_error = ""

    # -- boot and save -------------------------------------------------
    def boot(self):
        text, status = self.storage.load()
        if text is not None:
            game_text, link = _split(text)
            self.game = Game.load(game_text)
            self.link.restore(link)
            self.name = link.get("name", "")
            if status == "recovered":
                self.ui.notice("Save recovered", ["The last save was", "finished after a", "power cut."])
        elif status == "new":
            self.new_game(self.seed if self.seed is not None else self.board.entropy())
            self.commit()
        else:
            self.problem = "damaged"
            self.ui.notice("Save damaged", ["The saved game could", "not be read. It is kept", "as deck.bad.",
                                            "Hold: menu > New", "character to start over."], sticky=True)
        self.refresh.power_on()
        self.dirty = True

    def new_game(self, seed, edition="md", campaign="oneshot", supply_set="print"):
        self.game = Game.new(seed=seed, edition_key=edition, campaign=campaign, supply_set=supply_set)
        self.problem = ""
        self.ui.reset()
        self.need_save = True

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

    def save_text(self):
        mem = self.link.memory()
        mem["name"] = self.name
        body = self.game_text() + "link " + json.dumps(mem) + "\n"
        return body + "end " + P.crc_hex(body) + "\n"

    def save(self):
        if self.game is not None:
            self.storage.save(self.save_text())

    # -- commands ----------------------------------------------------------
    def command(self, op, args, source="button"):
        """Run one rules command; on success save, and for a button press
        record an event for the host. Raises RulesError unchanged."""
        if self.game is None:
            raise RulesError("no_game", "there is no game: start a new character")
        flip = self.game.flip_view() if op == "end_flip" and self.game.s.flip is not None else None
        result = self.game.do(op, args)
        result["digest"] = self.digest()
        if op == "end_flip" and flip is not None:
            # shown until the player's next press when the host resolved it
            self.ui.result = None if source == "button" else {
                "cards": flip["cards"], "suit": flip["suit"], "net": flip["net"],
                "level": result["level"], "resolving": result["resolving"]}
        if source == "button":
            payload = {"op": op, "args": args, "result": result, "digest": result["digest"], "n": self.game.s.count}
            if flip is not None:
                payload["flip"] = {"cards": flip["cards"], "suit": flip["suit"], "net": flip["net"],
                                   "level": result.get("level"), "resolving": result.get("resolving")}
            self.outbox.append(self.link.add_event(payload))
        self.need_save = True
        if "reshuffle" in " ".join(result.get("events", [])):
            self.refresh.shuffled()  # a clean refresh on every shuffle
        self.dirty = True
        return result

    def handle(self, op, args):
        """A request from the host: (mutating, ok, result or (code, msg))."""
        try:
            if op in QUERY_OPS:
                return False, True, self.query(op, args)
            if op == "press":
                button = args.get("button")
                if button not in P.BUTTONS:
                    raise RulesError("bad_args", "button must be one of A, B, C, UP, DOWN")
                shown = self.ui.press(button)
                self.dirty = True
                return True, True, {"screen": shown, "digest": self.digest() if self.game else None}
            if op == "new_game":
                if args.get("confirm") is not True:
                    raise RulesError("confirm", "starting over discards this character: send confirm=true")
                self.new_game(args.get("seed", self.board.entropy()), args.get("edition", "md"),
                              args.get("campaign", "oneshot"), args.get("supply_set", "print"))
                self.refresh.shuffled()
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
                return self.restore_part(args)
            if op in Game.COMMANDS:
                if op == "set_edition" and "edition" in args:
                    args = dict(args)
                    args["edition_key"] = args.pop("edition")
                return True, True, self.command(op, args, source="host")
            raise RulesError("bad_op", "unknown command %r" % (op,))
        except RulesError as e:
            return False, False, (e.code, e.message)
        except P.FrameError as e:
            return False, False, ("bad_args", e.message)

    def query(self, op, args):
        g = self.game
        if op == "ping":
            return {}
        if op == "hello":
            self.replay = True
            return {"device": self.device_id, "firmware": FIRMWARE, "protocol": P.VERSION,
                    "board": self.board.name, "name": self.name,
                    "edition": g.s.edition if g else None, "campaign": g.s.campaign if g else None,
                    "digest": self.digest() if g else None, "count": g.s.count if g else 0,
                    "events": len(self.link.events), "events_dropped": self.link.dropped,
                    "problem": self.problem, "panel_error": self.panel_error}
        if op == "events":
            self.replay = True
            return {"pending": len(self.link.events)}
        if g is None:
            raise RulesError("no_game", "there is no game: start a new character")
        if op == "state":
            # Unbounded (moves, supply lists): JSON text in parts like a screen.
            out = g.summary()
            out["digest"] = self.digest()
            out["name"] = self.name
            out["count"] = g.s.count
            return self.part(json.dumps(out), args, {"digest": out["digest"]})
        if op == "odds":
            return g.odds(args.get("suit"), args.get("net", 0))
        if op == "screen":
            return self.part(self.screen_b64(), args, {"w": self.board.width, "h": self.board.height})
        return self.part(self.game_text(), args, {"digest": self.digest()})  # backup

    def part(self, text, args, extra):
        parts = P.chunks(text)
        i = args.get("part", 0)
        if not isinstance(i, int) or not 0 <= i < len(parts):
            raise RulesError("bad_args", "part must be 0 to %d" % (len(parts) - 1))
        extra.update({"part": i, "parts": len(parts), "data": parts[i]})
        return extra

    def screen_b64(self):
        import binascii

        self.render()
        return binascii.b2a_base64(self.renderer.frame_bytes()).decode().replace("\n", "")

    def restore_part(self, args):
        i, n, data, digest = args.get("part"), args.get("parts"), args.get("data"), args.get("digest")
        if not (isinstance(i, int) and isinstance(n, int) and isinstance(data, str) and isinstance(digest, str)):
            raise RulesError("bad_args", "restore needs part, parts, data and digest")
        if i == 0:
            self.restoring = [n, digest, []]
        if self.restoring is None or self.restoring[0] != n or self.restoring[1] != digest or len(self.restoring[2]) != i:
            self.restoring = None
            raise RulesError("bad_restore", "restore parts out of order: start again from part 0")
        self.restoring[2].append(data)
        if i < n - 1:
            return False, True, {"restored": False, "part": i}
        text = "".join(self.restoring[2])
        self.restoring = None
        g = Game.load(text)  # RulesError for a damaged upload
        if g.digest() != digest:
            raise RulesError("bad_restore", "the uploaded state does not match its digest")
        self.game = g
        self.problem = ""
        self.ui.reset()
        self.refresh.shuffled()
        self.dirty = True
        return True, True, {"restored": True, "digest": g.digest()}

    # -- the loop ------------------------------------------------------------
    IDLE_OFF_MS = 5 * 60 * 1000  # no button and no host request this long: power off
    WATCHDOG_MS = 8000  # rp2's WDT allows at most ~8.3 s

    def poll(self, timeout_ms=20):
        data = self.board.serial_read(timeout_ms)
        if data and self.link.feed(data, self.handle):
            self.need_save = True
        pressed = self.board.buttons()
        for button in pressed:
            self.ui.press(button)
            self.dirty = True
        if data or pressed:
            self.last_input = _ticks()
        self.commit()
        if self.dirty:
            self.show()
        feed = getattr(self.board, "feed", None)
        if feed is not None:
            feed()
        if _elapsed(self.last_input) > self.IDLE_OFF_MS and hasattr(self.board, "power_off"):
            self.sleep()

    def sleep(self):
        """Power off after inactivity, the state already saved; the panel
        keeps showing the last screen (e-ink needs no power for that), with a
        note that a button wakes the device."""
        self.commit()
        self.ui.notice("Sleeping", ["Press any button", "to wake up."])
        self.show()
        self.board.power_off()  # on battery: power is cut; on USB: returns at the next press
        self.ui.pop()
        self.refresh.power_on()  # clean the panel after waking
        self.last_input = _ticks()
        self.dirty = True

    def commit(self):
        """Save first, then let the reply and events out (design §5)."""
        if self.need_save:
            self.need_save = False
            self.save()
        self.link.flush_reply()
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
            self.renderer = Renderer(fb=getattr(self.board, "surface", None))
        view = self.ui.view()
        self.renderer.render(view)
        return view

    def show(self):
        """Redraw and push to the panel with the update the policy picks. A
        panel that fails (a BUSY line stuck past its timeout) must not take
        the link down with it: the game goes on over serial, and hello
        reports the fault."""
        self.dirty = False
        view = self.render()
        try:
            self.board.show(self.renderer.buf, self.refresh.mode(view.get("screen")))
            self.panel_error = ""
        except Exception as e:  # each board raises its own PanelTimeout
            self.panel_error = "%s: %s" % (type(e).__name__, e)
            self.refresh.power_on()  # try a clean full refresh next time

    def run(self):
        self.boot()
        self.last_input = _ticks()
        start = getattr(self.board, "start_watchdog", None)
        if start is not None:
            start(self.WATCHDOG_MS)  # play mode: a hung board restarts into its save
        while True:
            self.poll()


def _ticks():
    try:
        from time import ticks_ms  # MicroPython
        return ticks_ms()
    except ImportError:
        pass
    try:
        from supervisor import ticks_ms  # CircuitPython: wraps at 2**29 like ticks_ms
        return ticks_ms()
    except ImportError:  # CPython, for tests
        from time import monotonic
        return int(monotonic() * 1000)


def _elapsed(since):
    try:
        from time import ticks_diff
        return ticks_diff(_ticks(), since)
    except ImportError:
        # CircuitPython's supervisor.ticks_ms wraps at 2**29; CPython's never
        return (_ticks() - since) % (1 << 29)

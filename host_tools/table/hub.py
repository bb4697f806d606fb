"""The table hub: every player's device seen from the GM's laptop.

The host is the authority for what belongs to the table (design §5): the
shared supply of blessing and wound cards, the GM's Shadow points, the
session log, and a backup of every device's state. Each device stays the
authority for its own deck; the hub only sends it commands.

    hub = TableHub("session.db")
    hub.join("Ann", "/dev/ttyACM0")
    hub.command("Ann", "flip", attr="str", net=1)
    hub.poll()          # button flips arrive as events and are logged

Not thread-safe: drive a hub from one thread (a silent device's background
probe, _Probe, touches only that device's link).
"""

import contextlib
import json
import select
import sqlite3
import threading
import time

from shared_rules import protocol as P
from shared_rules.deck import cards as C
from shared_rules import systems
from shared_rules.deck.state import ATTRS
from shared_rules.deck.table import held_supply_cards
from shared_rules.deck.teamwork import best

from shared_rules.atomic import text_digest

from host_tools.table import check as V
from host_tools.table import record, replies
from host_tools.table import store
from host_tools.table.errors import TableError
from host_tools.link import DeviceError, DeviceLink, LinkError

# A device that stops answering (sent to its REPL, crashed, unplugged with no
# disconnect) is offline at once and asked again in the background: a ping
# every PROBE_EVERY seconds that waits PROBE_TIMEOUT seconds, on a thread of
# its own, so the rest of the table never waits for it.
PROBE_EVERY = 2.0
PROBE_TIMEOUT = 1.0
POLL_STEP = 0.05  # seconds poll() waits on the ports at a time: how often its deadline is checked
MAX_REASON = 120  # characters of the reason a flip may carry (the record, the page, a device's request)

_FAILED = object()  # _from_device(): the device could not be asked

# Commands after which a player's holdings of supply cards may have changed.
SUPPLY_OPS = ("take_blessing", "take_wound", "damage", "take_harm", "seek_help", "end_flip", "new_game",
              "restore", "press")


# The steps of a flip after its deal: undo takes the flip back whole.
FLIP_STEPS = ("choose", "flashback", "bump", "end_flip")


class Player:
    """One player at the table and the device on their port.

    ``faulty``: "" or a one-line reason: the device sent something the hub
    cannot accept (table_check); it is no longer commanded, mirrored or
    backed up until a backup is restored onto it (or it is left out).

    ``question``: None, or what the hub found on this player's port instead
    of their device and game, for the GM to decide (take_as_new, restore,
    leave_out): {"kind": "other_device" | "other_game", "text": one line,
    "device": its id, "game": its game id, "count": its command count}.
    Until then the player is not commanded, mirrored or backed up, and
    events from that device are logged under its own id, not the player's.

    ``lineage``: the last device state this player was known at:
    {"game", "count", "digest"} (None: not known yet, the next one is taken).
    """

    def __init__(self, name, port, link):
        self.name = name
        self.port = port
        self.link = link
        self.device = None
        self.state = {}
        self.last_flip = None
        self.backup_digest = None
        self.online = True
        self.error = ""
        self.dirty = False  # an event arrived: read the device again
        self.faulty = ""
        self.question = None
        self.lineage = None
        self.checking = False  # hellos are checked against the player (off while joining, restoring)
        self.chain = None  # the digest after the player's last logged action: the next one's "before"
        self.silent = None  # time.time() the device stopped answering (offline, probed in the background)
        self.probe = None  # the background probe of a silent device (_Probe)
        self.unrecorded = False  # the device acted but the record could not be written: _catch_up


class TableHub:
    def __init__(self, db_path=":memory:", link_factory=DeviceLink, notify=None):
        self.db = store.open_session_db(db_path)
        self.store = store.Store(self.db)
        self.db_path = db_path
        self.record_error = None  # why the session record cannot be written now, or None
        store.upgrade(self.db)
        cur = self.store.new_session(time.time(), "")
        self.session = cur.lastrowid
        self.db.commit()
        self.players = {}  # name -> Player, in join order
        self.link_factory = link_factory
        self.notify = notify or (lambda text: None)
        row = self.store.supply_set().fetchone()
        self.supply_set = row[0] if row else None
        self.interrupted = self._close_interrupted_teamwork()

    # -- players ---------------------------------------------------------
    def join(self, name, port, names=()):
        """Connect the device on ``port`` as player ``name``. With name None
        the hub names it: the name this table knows the device by, else the
        first of ``names`` nobody has, else P1, P2...

        A name the table knows with another device or game joins with a
        ``question`` (nothing is taken from the device until the GM decides);
        a device that sends what the hub cannot accept joins ``faulty``.
        Raises LinkError/DeviceError when the port or hello fails."""
        if name is not None and name in self.players:
            raise TableError("%s is already at the table" % name)
        if name is not None and V.name_problem(name):
            raise TableError(V.name_problem(name))
        player = Player(name or "", port, None)
        player.link = self._connect(player, port)
        try:
            info = player.link.hello()
        except Exception:
            player.link.close()
            raise
        reason = V.hello_problem(info)
        device = info.get("device") if not reason else None
        if name is None:
            name = self._choose_name(device, names)
        player.name = name
        self.players[name] = player
        known = self._known(name)
        if known is not None:
            player.device = known["device"]
            player.lineage = known["lineage"]
        if reason:
            self._log(player, "join", None, "hello", {}, {"faulty": reason}, None)
            self._fault(player, reason)
            return player
        if player.device is None:
            player.device = device
        self._log(player, "join", None, "hello", {}, info, info.get("digest"))
        # the next entry starts where the table last knew this game: the events of
        # presses made while the hub was away come next, and lead to the hello's state
        player.chain = (player.lineage or {}).get("digest") or info.get("digest")
        player.checking = True
        question = self._lineage_question(player, info)
        if question:
            self._ask(player, question)
            return player
        player.device = device
        if info.get("problem"):
            player.error = "device reports: %s save" % info["problem"]
            self.notify("%s: the device reports a %s save; restore a backup or start a new character" % (name, info["problem"]))
        elif info.get("name") != name:
            self._request(player, "set_name", name=name[:16])
        if not player.error and not player.faulty:
            self.refresh(player)
            self._finish_interrupted(player)
            self.sync_supply()
        return player

    def _choose_name(self, device, names):
        known = self.name_for(device) if device else None
        if known and known not in self.players and not V.name_problem(known):  # (an older table took any name)
            return known
        taken = set(self.players)
        taken.update(r[0] for r in self.store.names_of_other_devices(device))
        for n in names:
            if n not in taken:
                return n
        i = 1
        while "P%d" % i in taken or "P%d" % i in self.players:
            i += 1
        return "P%d" % i

    def name_for(self, device):
        """The name this table last knew ``device`` by (across restarts), or None."""
        row = self.store.name_of_device(device).fetchone()
        return row[0] if row else None

    def _known(self, name):
        row = self.store.known_player(name).fetchone()
        if row is None:
            return None
        lineage = None
        if row[2] is not None:
            lineage = {"game": row[1] or "", "count": row[2], "digest": row[3]}
        return {"device": row[0], "lineage": lineage}

    def _remember(self, p):
        """Keep what the table knows of a player in the session database."""
        lin = p.lineage or {}
        held = p.state.get("held") if p.state else None
        self.store.remember_player(p.name, p.device, lin.get("game"), lin.get("count"), lin.get("digest"), p.port,
                                   json.dumps(held) if held is not None else None,
                                   p.state.get("shadow") if p.state else None, time.time())
        self.db.commit()

    def _connect(self, player, port):
        holder = []
        link = self.link_factory(port, on_event=lambda seq, payload: self._on_event(player, seq, payload, holder[0]))
        holder.append(link)
        self._bind(player, link)
        return link

    def _bind(self, player, link):
        link.on_event = lambda seq, payload: self._on_event(player, seq, payload, link)
        link.on_hello = lambda info: self._on_hello(player, info)

    def player(self, name):
        p = self.players.get(name)
        if p is None:
            raise TableError("no player named %r (at the table: %s)" % (name, ", ".join(self.players) or "nobody"))
        return p

    def close(self):
        for p in self.players.values():
            try:
                if p.link is not None:
                    p.link.close()
            except Exception:
                pass
        self.db.commit()
        self.db.close()

    # -- who is on the port ------------------------------------------------
    def _lineage_question(self, p, seen):
        """None when ``seen`` (a hello or a state: device, game, count,
        digest) is this player's device and game, else the question for the GM.

        The same game: the same game id, and a command count no lower than
        the table last knew; at the very same count, the same digest. A
        count that grew is the game moving on (the player pressed buttons
        while the hub was away: those presses come as events, replayed
        from the device). A lower count, or another state at the same count,
        is another branch of the game (an older save put back some other
        way), so the GM decides. A save older than game ids has the id ""."""
        device = seen.get("device") or p.device
        game = seen.get("game") or ""
        count = seen.get("count", 0)
        q = {"device": device, "game": game, "count": count}
        if p.device is not None and device != p.device:
            q["kind"] = "other_device"
            q["text"] = "%s's port has another device: %s (game %s, %d commands), not %s" % (
                p.name, device, game or "-", count, p.device)
            return q
        lin = p.lineage
        if lin is None:
            return None
        if game != lin["game"]:
            q["kind"] = "other_game"
            q["text"] = "%s's device holds another game: %s (%d commands), not %s" % (
                p.name, game or "-", count, lin["game"] or "-")
        elif count < lin["count"]:
            q["kind"] = "other_game"
            q["text"] = "%s's device went back to command %d of game %s (the table knew %d)" % (
                p.name, count, game or "-", lin["count"])
        elif count == lin["count"] and lin.get("digest") and seen.get("digest") and seen["digest"] != lin["digest"]:
            q["kind"] = "other_game"
            q["text"] = "%s's device holds another state of game %s at command %d" % (p.name, game or "-", count)
        else:
            return None
        return q

    def _ask(self, p, question):
        first = p.question is None or p.question.get("device") != question["device"] or \
            p.question.get("game") != question["game"]
        p.question = question
        p.online = False
        if first:
            self._log(p, "question", None, question["kind"], {}, question, None)
            self.notify("%s. Choose: take it as a new player (take_as_new %s NAME), restore %s's backup onto it "
                        "(restore %s), or leave it out (leave_out %s)"
                        % (question["text"], p.name, p.name, p.name, p.name))

    def _question_error(self, p):
        q = p.question
        return TableError("%s: nothing is sent to it until you choose: take_as_new %s NAME (a new player), "
                          "restore %s (put %s's backup onto it) or leave_out %s"
                          % (q["text"], p.name, p.name, p.name, p.name))

    def _on_hello(self, p, info):
        """Every hello on a player's link, also the one the link sends after
        a reconnect, before anything else goes to the device."""
        if not p.checking:
            return
        reason = V.hello_problem(info)
        if reason:
            self._fault(p, reason)
            raise TableError("%s's device is faulty: %s" % (p.name, reason))
        question = self._lineage_question(p, info)
        if question:
            self._ask(p, question)
            raise self._question_error(p)
        if p.question is not None:
            p.question = None
            p.online = True
            self.notify("%s's own device and game are back on %s" % (p.name, p.port))

    def _fault(self, p, reason):
        reason = " ".join(str(reason).split())[:200]
        if p.faulty == reason:
            return
        p.faulty = reason
        p.online = False
        p.error = "faulty: " + reason
        self._log(p, "faulty", None, None, {}, {"reason": reason}, None)
        self.notify("%s's device is faulty: %s. It is left alone: restore %s onto a device, or leave_out %s"
                    % (p.name, reason, p.name, p.name))

    def _usable(self, p):
        """The player's device may be commanded; else TableError saying why."""
        if p.faulty:
            raise TableError("%s's device is faulty (%s): restore %s onto a device, or leave_out %s"
                             % (p.name, p.faulty, p.name, p.name))
        if p.question is not None:
            raise self._question_error(p)
        if p.link is None:
            raise TableError("%s has no device: restore %s onto one (restore %s PORT)" % (p.name, p.name, p.name))
        if p.silent is not None:
            raise TableError("%s's device has not answered since %s: it is offline and asked again every few "
                             "seconds; the rest of the table plays on" % (p.name, _clock(p.silent)))

    def _request(self, p, op, **args):
        """One request to a player's device; an error reply the hub cannot
        show makes the device faulty, no answer makes it silent."""
        try:
            return p.link.request(op, **args)
        except LinkError as e:
            self._silence(p, e)
            raise
        except DeviceError as e:
            reason = V.error_problem(e.code, e.message, echoed=args.values())
            if reason:
                self._fault(p, reason)
                raise TableError("%s's device is faulty: %s" % (p.name, reason))
            raise

    # -- a device that stops answering -------------------------------------
    def _silence(self, p, error):
        """``p``'s device did not answer, or its port went away: offline at
        once, skipped by every sweep (poll, state reads, supply syncs, the
        page's screen reads) and asked again in the background (_probe)."""
        p.online = False
        p.error = "offline: %s" % error
        if p.silent is None:
            p.silent = time.time()
            self.notify("%s's device does not answer (%s): it is offline and asked again in the background; "
                        "the rest of the table plays on" % (p.name, error))

    def _probe(self, p):
        """Start a silent device's probe when one is due; take the device
        back once it answered (on this, the hub's, thread)."""
        probe = p.probe
        if probe is not None and probe.is_alive():
            return
        if probe is not None and probe.answered:
            p.probe = None
            self._revive(p)
        elif probe is None or time.monotonic() >= probe.finished + PROBE_EVERY:
            p.probe = _Probe(p.link)
            p.probe.start()

    def _revive(self, p):
        """The silent device answered a probe: hello first (the link checks
        who is on the port, on_hello), then its state and the supply."""
        try:
            p.link.hello()
        except LinkError as e:
            p.error = "offline: %s" % e  # silent again: the next probe is due in PROBE_EVERY
            return
        except (DeviceError, TableError):  # a fault or a question: marked and said already
            p.silent = None
            return
        p.silent = None
        p.online = True
        p.error = ""
        self.notify("%s's device answers again" % p.name)
        self.refresh(p)
        self.sync_supply()

    def fetch_screen(self, name):
        """(buffer, (w, h)) of what ``name``'s panel shows now (screens.to_image
        reads it). TableError for a device that cannot be asked (offline,
        faulty, a question open); a device that does not answer goes silent."""
        p = self.player(name)
        self._usable(p)
        try:
            buf = p.link.fetch_screen()
        except LinkError as e:
            self._silence(p, e)
            raise
        return buf, p.link.screen_size

    # -- the session record can be written, or nothing is sent ----------------
    def _down(self, error, told=False):
        """The session record could not be written: the sentence that says
        so. The GM is told once an outage (``told``: the caller's refusal
        says it); _intend says when it can be written again."""
        if self.record_error is None and not told:
            self.notify("the session record %s cannot be written (%s): nothing is sent to the devices until it "
                        "can be" % (self.db_path, error))
        self.record_error = str(error)
        return "the session record cannot be written (%s)" % error

    def _record_soon(self, step, p):
        """``step(p)`` of a sweep (poll): a record that cannot be written
        leaves the mirror read and its backup for the next refresh, and the
        GM is told once, not the sweep stopped."""
        try:
            step(p)
        except sqlite3.Error as e:
            self._down(e)

    def _intend(self, p, op, args):
        """Write the intent of an action (a log row of kind "intent", which
        _log(replaces=) turns into what happened) before the device hears
        of it: a record that cannot be written refuses the action here, so
        no device changes behind it. Returns the row's id."""
        try:
            self._catch_up()
            cur = self.store.log_intent(self.session, time.time(), p.name, p.device, "intent", op,
                                        json.dumps(args, sort_keys=True))
            self.db.commit()
        except sqlite3.Error as e:
            self.db.rollback()
            raise TableError("%s: nothing was sent to %s's device" % (self._down(e, told=True), p.name))
        if self.record_error is not None:
            self.record_error = None
            self.notify("the session record can be written again: the table goes on")
        return cur.lastrowid

    @contextlib.contextmanager
    def _acting(self, p, op, args):
        """Around one action on ``p``'s device: its intent is written first
        (or it is refused); a write that fails after the device acted leaves
        the mirror up to date and the player ``unrecorded`` for _catch_up."""
        intent = self._intend(p, op, args)
        try:
            yield intent
        except sqlite3.Error as e:
            raise self._unrecorded(p, op, e) from e

    def _unrecorded(self, p, op, error):
        """A write failed after ``p``'s device did ``op``: the mirror is read
        again and _catch_up records the device as it is once writes work.
        Returns the TableError that says so."""
        p.unrecorded = True
        with contextlib.suppress(sqlite3.Error, LinkError, DeviceError, TableError):
            self.refresh(p)  # the mirror: its state is set before the writes that fail
        return TableError("%s's device did %s, but %s: it is written when it can be" % (
            p.name, op, self._down(error, told=True)))

    def _catch_up(self):
        """Once writes work again: each device that acted while they failed
        is taken as it is now (a backup and a "reconcile" row, which replay
        goes on from, as from a restore)."""
        for p in list(self.players.values()):
            if not p.unrecorded or p.link is None or p.faulty or p.question is not None or p.silent is not None:
                continue
            self.refresh(p)
            digest = p.state.get("digest")
            if not p.online or digest != p.backup_digest:  # not read now: caught up later
                continue
            self._log(p, "reconcile", None, "reconcile", {}, {"digest": digest}, digest)
            p.unrecorded = False

    # -- reading devices ---------------------------------------------------
    def refresh(self, player):
        """Read the device's state; back it up when it changed. Nothing is
        taken from a faulty device or from one that is not the player's."""
        if player.link is None or player.faulty or player.question is not None or player.silent is not None:
            return
        state = self._from_device(player, player.link.state)  # joined from its parts
        if state is _FAILED:
            return
        reason = V.state_problem(state)
        if reason:
            self._fault(player, reason)
            return
        question = self._lineage_question(player, state)
        if question:
            self._ask(player, question)
            return
        player.state = state
        player.online = True
        player.lineage = {"game": state.get("game", ""), "count": state.get("count", 0), "digest": state["digest"]}
        self._remember(player)
        if self.supply_set is None and shares_table(state):
            blessing = [cid for cid in player.state.get("supply", []) + player.state.get("held", [])
                        if C.CARDS[cid].kind == "blessing"]
            self.supply_set = "web" if blessing and blessing[0].startswith("b") else "print"
            self.store.set_supply_set(self.supply_set)
            self.db.commit()
        named = player.state.get("name")
        if named and named != player.name[:16]:  # renamed on the device (set_name, its name screen)
            self.rename(player.name, named, tell_device=False)
        if player.state.get("digest") != player.backup_digest:
            self.backup(player)

    def backup(self, player):
        """Store the device's save text as a new version of the player's
        backup (never over an earlier one); returns its digest."""
        self._usable(player)
        try:
            text = player.link.backup()
        except LinkError as e:
            self._silence(player, e)
            raise
        digest = text_digest(text)
        fields = _save_fields(text)
        game, count = fields.get("game", ""), int(fields.get("count", 0))
        question = self._lineage_question(player, {"device": player.device, "game": game, "count": count,
                                                   "digest": digest})
        if question:  # changed between the state read and the backup: not this player's
            self._ask(player, question)
            raise self._question_error(player)
        self.store.add_backup(self.session, time.time(), player.name, player.device, digest, text, game, count)
        self.db.commit()
        player.backup_digest = digest
        return digest

    def backups(self, name):
        """Every backup of a player, newest first: dicts with id, t (time),
        count, digest, device and game."""
        rows = self.store.backups_of(name).fetchall()
        return [{"id": r[0], "t": r[1], "count": r[2], "digest": r[3], "device": r[4], "game": r[5]}
                for r in rows]

    def latest_backup(self, name):
        row = self.store.latest_backup(name).fetchone()
        if row is None:
            raise TableError("there is no backup of %s yet" % name)
        return row

    def rename(self, old, new, tell_device=True):
        """One name per player: the table's and the device's (`set_name`).
        The player's backups follow the name, so a restore finds them."""
        p = self.player(old)
        if new == old:
            return p
        known = self._known(new)
        taken = new in self.players or (known is not None and known.get("device") not in (None, p.device))
        problem = V.name_problem(new)
        if tell_device and (problem or taken):
            raise TableError(problem or ("%s is already at the table" % new if new in self.players
                                         else "%s is a player this table knows on another device" % new))
        if problem or taken:  # the device's own name (its name screen, or a hostile one): refused at the edge
            self.notify("%s's device called itself %s, but %s: it is %s again"
                        % (old, new, problem or "that name is taken at this table", old))
            p.link.request("set_name", name=old[:16])  # back to the table's name, so it is said once
            p.state["name"] = old[:16]
            return p
        if tell_device:
            p.link.request("set_name", name=new)  # the device refuses a name it cannot show
        self.players = {(new if n == old else n): q for n, q in self.players.items()}  # a new dict: safe mid-loop
        p.name = new
        self.store.forget_player(new)  # a stale row of this same device
        self.store.rename_player(new, old)
        self.store.rename_backups(new, old)
        # the record follows too: one player's entries under one name, for replay and undo
        self.store.rename_log(new, old)
        self.store.rename_flips(new, old)
        self.db.commit()
        self._log(p, "rename", None, "set_name", {"old": old}, {"name": new}, None)
        return p

    # -- commands ------------------------------------------------------------
    def command(self, who, op, reason="", **args):
        """Send one command to a player's device, log it, refresh the mirror.
        (``who``, not ``name``: set_move takes a ``name`` argument.)
        ``reason``: why, as the GM says it (a flip's context in the record)."""
        p = self.player(who)
        reason = _reason(reason)
        self._usable(p)
        if op == "flip" and not {"attr", "suit", "item"} & set(args) and args.get("team") != "support":
            args = dict(args, attr=self.selected_attr(p))
        if op in ("take_blessing", "take_wound", "damage", "take_harm"):
            self.sync_supply()  # the device draws only what nobody else holds
        with self._acting(p, op, args) as intent:
            try:
                result = self._request(p, op, **args)
            except DeviceError as e:
                self._log(p, "refused", None, op, args, {"code": e.code, "message": str(e)}, None, replaces=intent)
                raise
            problem = V.result_problem(op, result)
            if problem:
                self._fault(p, problem)
                raise TableError("%s's device is faulty: %s" % (p.name, problem))
            row = self._log(p, "command", None, op, args, result, result.get("digest"), replaces=intent,
                            reason=reason)
            if op == "end_flip" and p.state.get("flip"):
                self._record_flip(p, "host", p.state["flip"], result, row, reason)
        if op in ("new_game", "restore"):
            p.lineage = None  # the GM started this game here: it is the player's from now on
        self.refresh(p)
        if p.question is not None:  # the port's device changed under the link without a disconnect
            raise self._question_error(p)
        if op in SUPPLY_OPS:
            self.sync_supply()
        return result

    def selected_attr(self, p):
        """The attribute ``p``'s device has selected on its home screen (its
        state's ``selected``, read now: choosing one sends no event), for a
        flip the GM gave none."""
        self.refresh(p)
        selected = (p.state or {}).get("selected")
        if selected in ATTRS:  # the Deckahedron's attributes (another system's are not flipped)
            return selected
        raise TableError("%s's device does not say which attribute it has selected (older firmware): say which, "
                         "e.g. flip %s str" % (p.name, p.name))

    def flip(self, name, reason="", **args):
        """Flip and resolve it at once, choosing the first tied card when the
        choice matters (the GM console's quick flip)."""
        r = self.command(name, "flip", reason=reason, **args)
        if r.get("phase") == "choose":
            r = self.command(name, "choose", card=r["tied"][0])
        return self.command(name, "end_flip", reason=reason)

    def ask(self, name, attr, net=0, reason="", asker="GM"):
        """Ask ``name``'s device for a flip (op ask): the request is recorded
        first (a log row of kind "ask", whose id is the ask's number), then
        shown on the device. Returns the number; the flip's events come
        back tagged with it (_on_event). DeviceError when the device
        refuses (busy, out, not for this system): recorded as refused."""
        p = self.player(name)
        reason = _reason(reason)
        if attr not in ATTRS:
            raise TableError("ask for a flip of str, dex or int, not %r" % (attr,))
        if not isinstance(net, int) or isinstance(net, bool) or not -3 <= net <= 3:
            raise TableError("an asked flip's advantage is -3 to +3, not %r" % (net,))
        self._usable(p)
        args = {"attr": attr, "net": net}
        try:
            self._catch_up()
            cur = self.store.log_entry(self.session, time.time(), p.name, p.device, "ask", None, "ask",
                                       json.dumps(args, sort_keys=True), "{}", None, None, reason or None)
            self.db.commit()
        except sqlite3.Error as e:
            self.db.rollback()
            raise TableError("%s: nothing was sent to %s's device" % (self._down(e, told=True), p.name))
        ask = cur.lastrowid
        try:
            self._request(p, "ask", ask=ask, attr=attr, net=net, reason=reason[:P.ASK_REASON], **{"from": asker})
        except DeviceError as e:
            self._log(p, "refused", None, "ask", dict(args, ask=ask), {"code": e.code, "message": str(e)}, None,
                      reason=reason)
            raise
        return ask

    def ask_all(self, attr, net=0, reason=""):
        """Ask every player at the table for the same flip (everyone flip
        Dex): {name: the ask's number, or the sentence why not}."""
        out = {}
        for name in list(self.players):
            try:
                out[name] = self.ask(name, attr, net, reason)
            except (DeviceError, LinkError, TableError) as e:
                out[name] = str(e)
        return out

    def deal_damage(self, name, power, **reduce):
        return self.command(name, "damage", power=power, **reduce)

    def teamwork(self, lead, supporters, pick=None, crit=None, **flip_args):
        """MD *Teamwork Flips*: the lead flips as usual, each supporter flips
        one Anvil, the best card resolves and only its owner gets its XP.
        ``pick`` names the player whose card resolves when several tie;
        ``crit`` is that player's choice if it is the Critical Success card
        ("blessing", or "levelup" with the lead's move; none = declined).

        The flip is in the session database while it runs: a hub stopped
        in the middle closes it on its next start (see _close_interrupted_teamwork)."""
        names = [lead] + list(supporters)
        if len(set(names)) != len(names):
            raise TableError("a player can take one part in a teamwork flip")
        for n in names:
            self._usable(self.player(n))
        try:
            with self.db:
                tid = self.store.open_teamwork(self.session, time.time(), lead, json.dumps(list(supporters))).lastrowid
        except sqlite3.Error as e:
            raise TableError("%s: nothing was sent to the devices" % self._down(e, told=True))
        outcome = "abandoned"
        try:
            summary = self._teamwork(lead, supporters, names, pick, crit, flip_args)
            outcome = "resolved by %s" % summary["resolved_by"]
            return summary
        finally:
            self.store.close_teamwork(time.time(), outcome, tid)
            self.db.commit()

    def _teamwork(self, lead, supporters, names, pick, crit, flip_args):
        flips = {}
        try:
            flips[lead] = self.command(lead, "flip", team="lead", **flip_args)
            for s in supporters:
                flips[s] = self.command(s, "flip", team="support")
        except (DeviceError, TableError, LinkError):
            for n in flips:  # undo nothing, but do not leave flips open
                self._abandon(n)
            raise
        entries = []
        for n in names:
            f = flips[n]
            if f.get("phase") == "choose":
                f = self.command(n, "choose", card=f["tied"][0])
            entries.append({"player": n, "card": f["resolving"], "level": f["level"]})
        outcome = best(entries)
        winner = outcome["tied"][0]
        if pick is not None:
            chosen = [e for e in outcome["tied"] if e["player"] == pick]
            if not chosen:
                for n in names:
                    self._abandon(n)
                raise TableError("%s's card is not among the best (%s)" % (pick, ", ".join(e["player"] for e in outcome["tied"])))
            winner = chosen[0]
        results = {}
        for n in names:
            extra = {}
            if n == winner["player"] and crit is not None and C.CARDS[winner["card"]].crit == "success":
                extra["crit"] = crit
            results[n] = self.command(n, "end_flip", resolved=(n == winner["player"]), **extra)
        summary = {"level": outcome["level"], "resolved_by": winner["player"], "card": winner["card"],
                   "entries": entries, "results": results}
        self._log(self.player(lead), "teamwork", None, "teamwork", {"lead": lead, "supporters": list(supporters)},
                  summary, None)
        return summary

    def _abandon(self, name):
        try:
            flip = self.player(name).state.get("flip") or {}
            if flip.get("phase") == "choose" and flip.get("tied"):
                self.command(name, "choose", card=flip["tied"][0])  # a flip ends once its card is chosen
            self.command(name, "end_flip", resolved=False)
        except (DeviceError, LinkError, TableError):
            pass

    def _close_interrupted_teamwork(self):
        """Teamwork flips a stopped hub left open: closed now, with a word to
        the GM; their players' open flips end unresolved as they join."""
        rows = self.store.open_teamworks().fetchall()
        names = set()
        for tid, lead, supporters in rows:
            others = json.loads(supporters or "[]")
            names.add(lead)
            names.update(others)
            self.store.close_teamwork(time.time(), "interrupted: the hub stopped", tid)
            self.notify("the teamwork flip %s led (with %s) was interrupted when the hub stopped: it is closed, "
                        "no card resolved it; flips still open end unresolved as the players join"
                        % (lead, ", ".join(others) or "nobody"))
        self.db.commit()
        return names

    def _finish_interrupted(self, p):
        if p.name not in self.interrupted:
            return
        self.interrupted.discard(p.name)
        if p.state.get("flip"):  # a teamwork flip (resolved=False is refused for any other: left alone)
            self._abandon(p.name)
            if not p.state.get("flip"):
                self.notify("%s's flip from the interrupted teamwork is ended, unresolved" % p.name)

    # -- restore, and what to do with a stranger on a player's port -------------
    def restore(self, name, port=None, backup_id=None):
        """Put a backup of player ``name`` onto a device; returns its digest.

        ``port`` None: onto the device now on the player's port (the answer
        to a question: "restore this player's backup onto it"), else onto
        the device on ``port`` (a replacement). ``backup_id`` None: the latest
        backup, else that one (see backups(name)): an earlier version of the
        game, which the table then follows. What the device held before is
        backed up under its own device id first, so nothing is lost."""
        p = self.player(name)
        if backup_id is None:
            row = self.store.latest_backup_with_id(name).fetchone()
            if row is None:
                raise TableError("there is no backup of %s yet" % name)
        else:
            row = self.store.backup_of(name, backup_id).fetchone()
            if row is None:
                raise TableError("%s has no backup %r (see backups %s)" % (name, backup_id, name))
        _, text, digest = row
        target = p.port if port is None else port
        if target is None:
            raise TableError("%s has no port: name the device's port (restore %s PORT)" % (name, name))
        reuse = p.link is not None and target == p.port
        link = p.link if reuse else self._connect(p, target)
        p.checking = False
        try:
            info = link.hello()
            reason = V.hello_problem(info)
            if reason:
                raise TableError("the device on %s cannot take a backup: %s" % (target, reason))
            self._keep_strangers_state(link, info, p)
            args = {"port": target, "backup": row[0]}
            intent = self._intend(p, "restore", args)
            link.restore(text)
        except Exception:
            if not reuse:
                link.close()
            p.checking = p.link is not None and not p.faulty
            raise
        if not reuse:
            if p.link is not None:
                try:
                    p.link.close()
                except Exception:
                    pass
            p.link, p.port = link, target
        info = link.hello()
        p.device = info.get("device")
        p.error = p.faulty = ""
        p.question = None
        fields = _save_fields(text)
        p.lineage = {"game": fields.get("game", ""), "count": int(fields.get("count", 0)), "digest": digest}
        p.backup_digest = digest
        p.checking = True
        p.online = True
        p.silent = p.probe = None
        self._request(p, "set_name", name=name[:16])
        try:
            self._log(p, "restore", None, "restore", args, {"digest": digest}, digest, replaces=intent)
        except sqlite3.Error as e:
            raise self._unrecorded(p, "restore", e) from e
        self.refresh(p)
        self.sync_supply()
        return digest

    # -- undo ------------------------------------------------------------------
    def undo(self, name, confirm=False, entry=None):
        """Undo ``name``'s last action: put back the backup of the state before it.

        Without ``confirm`` nothing changes: returns what would be undone,
        {"players": {player: log id of the first entry undone}, "text": one
        line}. With it, does so and logs an ``undo`` row per player; with
        ``entry`` too (``players[name]`` of the plan the GM was shown), only
        if that is still what would be undone: a player may press a button
        between the question and the answer. An action
        of a teamwork flip undoes the whole flip on every device in it; a
        supply card the action moved is handed back through the supply (the
        other devices are told). Refused (TableError, nothing changed) when a
        device involved cannot take it, a supply card it would hold is held by
        someone else now, the Shadow points it earned are spent, or another
        player of the teamwork flip has acted since."""
        plan = self._undo_plan(name)
        if not confirm:
            return plan
        if entry is not None and plan["players"][name] != entry:
            raise TableError("%s has acted since that undo was shown: it would now put %s; ask again"
                             % (name, plan["text"]))
        for who, (rid, op, backup_id, _) in list(plan["rows"].items()):
            digest = self.restore(who, backup_id=backup_id)
            self._log(self.player(who), "undo", None, "undo", {"entry": rid, "op": op, "entries": plan["rows"][who][3]},
                      {"digest": digest}, digest)
        if plan["teamwork"]:  # the page's Teamwork box reads the teamwork table: it says undone too
            self.store.undo_teamwork(plan["teamwork"])
            self.db.commit()
        self.sync_supply()
        return plan

    def _last_action(self, name):
        """(log id, op, before) of ``name``'s last rules action not undone yet, or None."""
        undone, undo_restore = set(), False
        for rid, kind, op, args, before in self.store.undoable_entries(name):
            if kind == "undo":  # an earlier undo: step over what it undid, and the restore it made
                undone.update(json.loads(args).get("entries", []))
                undo_restore = True
                continue
            if kind == "restore" and undo_restore:
                undo_restore = False
                continue
            if kind in ("restore", "take_as_new", "reconcile") or (kind == "command" and op == "new_game"
                                                                   and rid not in undone):
                return None  # the game was put back or begun here: the table holds nothing before it to undo to
            if rid in undone or op in ("supply_sync", "press"):
                continue
            return rid, op, before
        return None

    def _undo_plan(self, name):
        p = self.player(name)
        self._usable(p)
        self.poll()  # a press just made is the last action, not the one before it
        last = self._last_action(name)
        if last is None:
            raise TableError("%s has nothing to undo this table knows the state before" % name)
        rid, op, before = last
        if op in FLIP_STEPS:  # a flip is undone whole: back to before its cards were dealt
            start = self.store.flip_start(name, rid).fetchone()
            if start is not None:
                last = tuple(start)
        steps, lead, team_row = {name: last}, None, None
        team = self.store.teamwork_after(rid).fetchone()
        if team is not None and op in FLIP_STEPS + ("flip",):
            who = json.loads(team[1])
            names = [who["lead"]] + who["supporters"]
            if name in names:
                lead, team_row = who["lead"], team[0]
                started = self.store.teamwork_started(who["lead"]).fetchone()[0]
                for n in names:
                    self._usable(self.player(n))
                    first = self.store.first_command_since(n, started, team[0]).fetchone()
                    later = self._last_action(n)
                    if first is None or later is None or later[0] > team[0]:
                        raise TableError("%s has acted since the teamwork flip %s led: it cannot be undone on every "
                                         "device in it" % (n, who["lead"]))
                    steps[n] = first
        rows, holds = {}, {}
        for n, (first_id, first_op, first_before) in steps.items():
            row = self.store.backup_with_digest(n, first_before).fetchone() if first_before else None
            if row is None:
                raise TableError("there is no backup of %s's state before %s: it cannot be undone" % (n, first_op))
            undone = [r[0] for r in self.store.entries_from(n, first_id)]
            if n == lead:  # the teamwork flip's own row goes with it: the record marks it undone too
                undone.append(team_row)
            rows[n] = (first_id, first_op, row[0], undone)
            holds[n] = systems.load(row[1])
        others = self.holdings()
        for n, g in holds.items():
            if not replies.shares_table(g.SYSTEM):  # no supply cards, no Shadow
                continue
            for cid in held_supply_cards(g):
                owner = [m for m, cards in others.items() if m not in holds and cid in cards]
                if owner:
                    raise TableError("undoing it gives %s supply card %s back, but %s holds it now" % (n, cid, owner[0]))
        earned = sum(int(self.player(n).state.get("shadow", 0)) - g.s.shadow for n, g in holds.items()
                     if replies.shares_table(g.SYSTEM))
        if earned > self.shadow()[2]:
            raise TableError("the Shadow points it earned are spent (%d left): it cannot be undone" % self.shadow()[2])
        text = "; ".join("%s back to before %s" % (n, r[1]) for n, r in rows.items())
        return {"players": {n: r[0] for n, r in rows.items()}, "text": text, "rows": rows, "teamwork": lead}

    def _keep_strangers_state(self, link, info, p):
        """Before a restore overwrites a device that is not the player's own
        game, keep its save under its device id (player ""), and the events
        it still holds (logged under its id as they arrive)."""
        if p.question is None and info.get("device") == p.device:
            return
        if not info.get("digest"):
            return
        try:
            link.request("events")
            link.poll(0.2)
            text = link.backup()
        except (LinkError, DeviceError):
            return
        fields = _save_fields(text)
        self.store.add_backup(self.session, time.time(), "", info.get("device"), text_digest(text), text,
                              fields.get("game", ""), int(fields.get("count", 0) or 0))
        self.db.commit()

    def take_as_new(self, name, new_name):
        """The device now on ``name``'s port joins as a new player
        ``new_name``; ``name`` stays known (its backups kept), offline, until
        a backup is restored onto a device. ``new_name`` may be ``name``
        itself: the player goes on with this device and game (their earlier
        backups stay listed). Events the device sent meanwhile become the
        new player's."""
        p = self.player(name)
        if p.link is None or (p.question is None and not p.faulty):
            raise TableError("%s's port has no other device or game to take" % name)
        if V.name_problem(new_name):
            raise TableError(V.name_problem(new_name))
        if len(new_name) > 16 or not new_name.isascii():
            raise TableError("a name is 1 to 16 letters, digits or spaces, not %r" % (new_name,))
        if new_name != name and new_name in self.players:
            raise TableError("%s is already at the table" % new_name)
        info = p.link.info or {}
        device = (p.question or {}).get("device") or info.get("device")
        if new_name == name:
            new = p
        else:
            new = Player(new_name, p.port, p.link)
            self._bind(new, p.link)
            p.link = None
            p.online = False
            p.error = "offline: %s's port has another device" % name
            self.players[new_name] = new
        new.question = None
        new.faulty = ""
        new.device = device
        new.lineage = None
        new.state = {}
        new.backup_digest = None
        new.checking = True
        new.online = True
        new.error = ""
        self.store.claim_log(new_name, device)
        self.store.claim_flips(new_name, device)
        self.db.commit()
        self._request(new, "set_name", name=new_name[:16])
        self.refresh(new)
        # the game this player follows from now on starts at the device's state
        self._log(new, "take_as_new", None, "take_as_new", {"from": name}, {"device": device},
                  new.state.get("digest"))
        self.sync_supply()
        return new

    def leave_out(self, name):
        """The device on ``name``'s port is left out: the hub lets go of its
        port (nothing is sent to it, nothing taken from it). The player is
        offline until a backup is restored (restore NAME [PORT])."""
        p = self.player(name)
        if p.link is not None:
            try:
                p.link.close()
            except Exception:
                pass
        self._log(p, "leave_out", None, "leave_out", {}, {"question": p.question, "faulty": p.faulty}, None)
        p.link = None
        p.question = None
        p.faulty = ""
        p.online = False
        p.error = "left out: restore %s onto a device to play on" % name
        return p

    # -- the shared supply -------------------------------------------------
    def holdings(self):
        """Supply cards each player holds: as their device says now, or as
        the table last knew (a player offline, or known from an earlier run)."""
        out = {}
        for n, p in self.players.items():
            if p.state:
                out[n] = list(p.state.get("held", []))
        for n, held in self.store.holdings().fetchall():
            if n not in out:
                try:
                    cards = json.loads(held)
                except ValueError:
                    continue
                if isinstance(cards, list):
                    out[n] = [c for c in cards if c in C.CARDS]
        return out

    def supply(self):
        """Cards in the shared supply: the set minus what anyone holds."""
        if self.supply_set is None:
            return []
        held = set()
        for cards in self.holdings().values():
            held.update(cards)
        b, w = C.SUPPLY_SETS[self.supply_set]
        return [cid for cid in b + w if cid not in held]

    def conflicts(self):
        """Cards two players both hold (it must never happen)."""
        seen, out = {}, []
        for n, cards in self.holdings().items():
            for cid in cards:
                if cid in seen:
                    out.append((cid, seen[cid], n))
                seen[cid] = n
        return out

    def sync_supply(self):
        """Tell each device which supply cards the other players hold."""
        held = self.holdings()
        for n, p in list(self.players.items()):
            if not p.state or not p.online or p.link is None or p.faulty or p.question is not None:
                continue
            if not shares_table(p.state):  # only such a system has supply cards
                continue
            others = sorted(set(cid for m, cards in held.items() if m != n for cid in cards))
            if sorted(self._elsewhere(p)) == others:
                continue
            args = {"elsewhere": others}
            try:
                with self._acting(p, "supply_sync", args) as intent:
                    result = self._request(p, "supply_sync", **args)
                    self._log(p, "command", None, "supply_sync", args, result, result.get("digest"), replaces=intent)
            except DeviceError as e:
                self.notify("supply conflict at %s: %s" % (n, e))
                continue
            except (TableError, LinkError):  # the record or the device cannot be reached: synced later
                continue
            self.refresh(p)  # the device's state (and digest) changed
        bad = self.conflicts()
        if bad:
            self.notify("supply conflict: %s" % "; ".join("%s held by %s and %s" % c for c in bad))

    def _elsewhere(self, p):
        """The supply cards ``p``'s device counts as held by others: its state
        says which are in its supply and which it holds; the rest of the set."""
        if "elsewhere" in p.state or self.supply_set is None:
            return p.state.get("elsewhere", [])
        b, w = C.SUPPLY_SETS[self.supply_set]
        mine = set(p.state.get("supply", [])) | set(p.state.get("held", []))
        return [cid for cid in b + w if cid not in mine]

    # -- Shadow points -----------------------------------------------------------
    def shadow(self):
        """(earned from the players' flips, spent by the GM, available), for
        the table: every player it knows (offline ones as last seen) and
        every spend in the session database, over restarts."""
        earned = 0
        for n, p in self.players.items():
            if p.state:
                earned += int(p.state.get("shadow", 0))
        for n, points in self.store.shadow_earned().fetchall():
            if n not in self.players or not self.players[n].state:
                earned += int(points)
        spent = -(self.store.shadow_spent().fetchone()[0])
        return earned, spent, earned - spent

    def spend_shadow(self, n, reason=""):
        if not isinstance(n, int) or n < 1:
            raise TableError("spend 1 or more Shadow points")
        if n > self.shadow()[2]:
            raise TableError("only %d Shadow points available" % self.shadow()[2])
        try:
            with self.db:
                self.store.add_shadow(self.session, time.time(), -n, reason)
        except sqlite3.Error as e:
            raise TableError("%s: no Shadow point was spent" % self._down(e, told=True))
        return self.shadow()

    # -- events and the log ------------------------------------------------------
    def poll(self, timeout=0.0):
        """Read every device for button presses for up to ``timeout`` seconds
        in all, the devices waited on together (a table of 16 boards is read
        in the time of one: each used to have the whole timeout in turn);
        returns the players that changed. A silent device is not read: its
        probe (a thread of its own) is looked at once a call."""
        until = time.monotonic() + timeout
        for p in list(self.players.values()):
            if p.link is not None and not p.faulty and p.silent is not None:
                self._record_soon(self._probe, p)
        changed = []
        ready = list(filter(self._heard, self.players.values()))
        while True:
            for p in ready:
                if self._heard(p):  # not silenced meanwhile
                    self._read(p, changed)
            left = until - time.monotonic()
            if left <= 0:
                break
            ready = self._wait_for_bytes(left)
        if changed:
            self.sync_supply()
        return changed

    @staticmethod
    def _heard(p):
        """Whether the hub reads ``p``'s device: joined, not faulty, not silent."""
        return p.link is not None and not p.faulty and p.silent is None

    def _wait_for_bytes(self, left):
        """The players heard from whose port has bytes to read, after
        waiting up to ``left`` seconds (at most POLL_STEP, so the caller's
        deadline holds) for any of them. A link with no file descriptor
        (a platform without one, a test's stand-in) is read every step."""
        fds, blind = {}, []
        for p in filter(self._heard, self.players.values()):
            fd = p.link.wait_fd() if hasattr(p.link, "wait_fd") else None
            if fd is None:
                blind.append(p)
            else:
                fds[fd] = p
        step = min(left, POLL_STEP)
        if not fds:
            time.sleep(step)
            return blind
        try:
            readable = select.select(list(fds), [], [], step)[0]
        except (OSError, ValueError):  # a port closed under us: its read says so
            return blind + list(fds.values())
        return blind + [fds[fd] for fd in readable]

    def _from_device(self, p, ask):
        """``ask()``, a call on ``p``'s link, or _FAILED once the player says
        why: silent after a LinkError, offline with the device's error, or
        a reconnect that found another device or game (the GM is asked)."""
        try:
            return ask()
        except LinkError as e:
            self._silence(p, e)
        except DeviceError as e:
            p.online = False
            p.error = str(e)
        except TableError:
            pass
        return _FAILED

    def _read(self, p, changed):
        """Take what ``p``'s device has sent (events, a reconnect's hello),
        adding its name to ``changed`` when its state moved."""
        before = p.state.get("digest")
        if self._from_device(p, lambda: p.link.poll(0)) is _FAILED:
            return
        if p.question is None:
            p.online = True
        if p.dirty:
            self._record_soon(self.refresh, p)
            p.dirty = False
            if p.state.get("digest") != before and p.name not in changed:
                changed.append(p.name)

    def _on_event(self, player, seq, payload, link=None):
        """A button event from a player's device: stored exactly once.

        The key of an event is (device, seq, digest) (the log_event index):
        a device re-sends an event it holds until the hub's acknowledgement
        arrives, and a hub killed between storing and acknowledging gets it
        again after its restart, with the same payload, so the same digest:
        INSERT OR IGNORE keeps one row. A device whose flash was wiped keeps
        its id (a board's chip id) but numbers its events from 1 again; those
        are new events, and their digests differ from the old ones with the
        same numbers (a digest covers the whole state with its command count,
        which only grows in one game, and the game id), so they are stored.
        A button flip's row in ``flips`` is written in the same transaction,
        only when its event's row is new.

        Events from a device that is not the player's (a question is open,
        or a restore is checking a replacement) are stored under that
        device's id with no player; a faulty device's events stay on it (an
        exception leaves them unacknowledged)."""
        if player.faulty:
            raise TableError("%s's device is faulty" % player.name)
        reason = V.event_problem(seq, payload)
        if reason:
            self._fault(player, reason)
            raise TableError(reason)
        stranger = player.question is not None or not player.checking or (link is not None and link is not player.link)
        name = "" if stranger else player.name
        device = player.device
        if stranger:
            device = player.question["device"] if player.question else ((link and link.info) or {}).get("device")
        flip = payload.get("flip")
        result = payload.get("result") or {}
        ask = payload.get("ask")
        asked = self.store.asked(ask).fetchone() if ask else None  # (player, args, reason) of the GM's ask
        reason = asked[2] if asked else None
        if payload.get("op") == "decline":
            result = {"why": payload.get("why")}
        with self.db:
            cur = self.store.log_event(self.session, time.time(), name, device, "event", seq, payload.get("op"),
                                       json.dumps(payload.get("args"), sort_keys=True),
                                       json.dumps(result, sort_keys=True), payload.get("digest"),
                                       None if stranger else player.chain, payload.get("n"), reason, ask)
            new = cur.rowcount == 1
            if new and not stranger and payload.get("digest"):
                player.chain = payload["digest"]
            if new and flip:
                self._insert_flip(name, device, "buttons", flip, result, cur.lastrowid, reason)
        if stranger:
            return
        if new and flip:
            player.last_flip = _flip_view(flip, result, "buttons")
            player.last_flip.update(reason=reason or "", ask=ask)
        if new and payload.get("op") == "decline":
            what = _asked_words(asked)
            self.notify("%s %s" % (player.name, "declines the GM's ask" + what if result["why"] != "refused" else
                                   "could not flip as the GM asked%s: the rules refused it (the device says why)" % what))
        player.dirty = True

    def _record_flip(self, player, source, flip, result, event=None, reason=""):
        self._insert_flip(player.name, player.device, source, flip, result, event, reason)
        self.db.commit()
        player.last_flip = _flip_view(flip, result, source)

    def _insert_flip(self, name, device, source, flip, result, event, reason=""):
        self.store.add_flip(self.session, time.time(), name, device, source, flip.get("suit"), flip.get("net"),
                            ",".join(flip.get("cards", [])), result.get("level", flip.get("level")),
                            result.get("resolving", flip.get("resolving")), result.get("xp", 0),
                            result.get("shadow", 0), event, reason or None)

    def _log(self, player, kind, seq, op, args, result, digest, replaces=None, reason=""):
        """One row of the session record; returns its id. A row with a
        digest carries the player's previous one as ``before`` (proof of
        roll); a press's own row does not move that chain on (the rules
        commands a press runs come as events, each with its digests).
        ``replaces``: the action's intent row (_intend), deleted in the same
        transaction; the row itself goes last, after any event that arrived
        while the device acted, as the device did them."""
        before = player.chain if digest else None
        with self.db:
            cur = self.store.log_entry(self.session, time.time(), player.name, player.device, kind, seq, op,
                                       json.dumps(args, sort_keys=True), json.dumps(result, sort_keys=True), digest,
                                       before, reason or None)
            if replaces is not None:
                self.store.delete_log_entry(replaces)
        if digest and op != "press":
            player.chain = digest
        return cur.lastrowid

    def log_rows(self, limit=20):
        return self.store.log_rows(self.session, limit).fetchall()[::-1]

    def flip_rows(self):
        return self.store.flip_rows(self.session).fetchall()


def shares_table(state):
    """Whether a device's summary is of a system that shares the supply,
    Shadow and teamwork (the default's summary names no system)."""
    return replies.shares_table(replies.system_of(state))


def _flip_view(flip, result, source):
    return {"cards": list(flip.get("cards", [])), "suit": flip.get("suit"), "net": flip.get("net"),
            "level": result.get("level", flip.get("level")),
            "resolving": result.get("resolving", flip.get("resolving")), "source": source}


def _save_fields(text):
    """The ``count`` and ``game`` lines of a save's text form (shared_rules.deck.state)."""
    out = {}
    for row in text.split("\n"):
        key, _, value = row.partition(" ")
        if key in ("count", "game"):
            out[key] = value
    return out


def _asked_words(asked):
    """' to flip Dex +1 for "climb the wall"' from an ask's row (player, args, reason)."""
    if not asked:
        return ""
    try:
        a = json.loads(asked[1] or "{}")
    except ValueError:
        a = {}
    return " to flip %s %+d%s" % (str(a.get("attr", "?")).capitalize(), a.get("net") or 0,
                                  record.reason_words(asked[2]))


def _reason(text):
    """Why a flip was made, as the record keeps it: one line of printable
    text, its spaces collapsed; TableError for anything else."""
    if not isinstance(text, str):
        raise TableError("a reason is text, not %r" % (text,))
    text = " ".join(text.split())
    if len(text) > MAX_REASON or not text.isprintable():
        raise TableError("a reason is one line of up to %d printable characters" % MAX_REASON)
    return text


def _clock(t):
    return time.strftime("%H:%M:%S", time.localtime(t))


class _Probe(threading.Thread):
    """Whether a silent device answers again (DeviceLink.probe), asked on a
    thread of its own: the hub's thread never waits for it, and nothing
    else uses that link meanwhile (the player is skipped while silent)."""

    def __init__(self, link):
        super().__init__(name="probe %s" % link.port, daemon=True)
        self.link = link
        self.answered = False
        self.finished = None  # time.monotonic() it gave up

    def run(self):
        try:
            self.answered = self.link.probe(PROBE_TIMEOUT)
        finally:
            self.finished = time.monotonic()

"""The table hub: every player's device seen from the GM's laptop.

The host is the authority for what belongs to the table (design §5): the
shared supply of blessing and wound cards, the GM's Shadow points, the
session log, and a backup of every device's state. Each device stays the
authority for its own deck; the hub only sends it commands.

    hub = TableHub("session.db")
    hub.join("Ann", "/dev/ttyACM0")
    hub.command("Ann", "flip", attr="str", net=1)
    hub.poll()          # button flips arrive as events and are logged

Not thread-safe: drive a hub from one thread.
"""

import json
import sqlite3
import time

from shared_rules import cards as C
from shared_rules.teamwork import best

from shared_rules.state import text_digest

from host_tools.link import DeviceError, DeviceLink, LinkError

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (id INTEGER PRIMARY KEY, started REAL, note TEXT);
CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY, session INTEGER, t REAL, player TEXT,
    device TEXT, kind TEXT, seq INTEGER, op TEXT, args TEXT, result TEXT, digest TEXT);
CREATE TABLE IF NOT EXISTS flips (id INTEGER PRIMARY KEY, session INTEGER, t REAL, player TEXT,
    device TEXT, source TEXT, suit TEXT, net INTEGER, cards TEXT, level INTEGER, resolving TEXT,
    xp INTEGER, shadow INTEGER);
CREATE TABLE IF NOT EXISTS backups (id INTEGER PRIMARY KEY, session INTEGER, t REAL, player TEXT,
    device TEXT, digest TEXT, state TEXT);
CREATE TABLE IF NOT EXISTS shadow (id INTEGER PRIMARY KEY, session INTEGER, t REAL, delta INTEGER,
    reason TEXT);
"""

# Commands after which a player's holdings of supply cards may have changed.
SUPPLY_OPS = ("take_blessing", "take_wound", "damage", "take_harm", "seek_help", "end_flip", "new_game",
              "restore", "press")


class TableError(Exception):
    """A table command that cannot be done; the message says why."""


class Player:
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


class TableHub:
    def __init__(self, db_path=":memory:", link_factory=DeviceLink, notify=None):
        self.db = sqlite3.connect(db_path)
        self.db.executescript(SCHEMA)
        cur = self.db.execute("INSERT INTO sessions (started, note) VALUES (?, ?)", (time.time(), ""))
        self.session = cur.lastrowid
        self.db.commit()
        self.players = {}  # name -> Player, in join order
        self.link_factory = link_factory
        self.notify = notify or (lambda text: None)
        self.supply_set = None

    # -- players ---------------------------------------------------------
    def join(self, name, port):
        if name in self.players:
            raise TableError("%s is already at the table" % name)
        player = Player(name, port, None)
        player.link = self._connect(player, port)
        self.players[name] = player
        info = player.link.hello()
        player.device = info.get("device")
        if info.get("problem"):
            player.error = "device reports: %s save" % info["problem"]
            self.notify("%s: the device reports a %s save; restore a backup or start a new character" % (name, info["problem"]))
        elif info.get("name") != name:
            player.link.request("set_name", name=name[:16])
        self._log(player, "join", None, "hello", {}, info, info.get("digest"))
        if not player.error:
            self.refresh(player)
            self.sync_supply()
        return player

    def _connect(self, player, port):
        return self.link_factory(port, on_event=lambda seq, payload: self._on_event(player, seq, payload))

    def player(self, name):
        p = self.players.get(name)
        if p is None:
            raise TableError("no player named %r (at the table: %s)" % (name, ", ".join(self.players) or "nobody"))
        return p

    def close(self):
        for p in self.players.values():
            try:
                p.link.close()
            except Exception:
                pass
        self.db.commit()
        self.db.close()

    # -- reading devices ---------------------------------------------------
    def refresh(self, player):
        """Read the device's state; back it up when it changed."""
        try:
            player.state = player.link.state()  # joined from its parts
            player.online = True
        except (LinkError, DeviceError) as e:
            player.online = False
            player.error = str(e)
            return
        if self.supply_set is None:
            blessing = [cid for cid in player.state.get("supply", []) + player.state.get("held", [])
                        if C.CARDS[cid].kind == "blessing"]
            self.supply_set = "web" if blessing and blessing[0].startswith("b") else "print"
        named = player.state.get("name")
        if named and named != player.name[:16]:  # renamed on the device (set_name, its name screen)
            self.rename(player.name, named, tell_device=False)
        if player.state.get("digest") != player.backup_digest:
            self.backup(player)

    def backup(self, player):
        text = player.link.backup()
        digest = text_digest(text)
        self.db.execute("INSERT INTO backups (session, t, player, device, digest, state) VALUES (?,?,?,?,?,?)",
                        (self.session, time.time(), player.name, player.device, digest, text))
        self.db.commit()
        player.backup_digest = digest
        return digest

    def latest_backup(self, name):
        row = self.db.execute("SELECT state, digest FROM backups WHERE player = ? ORDER BY id DESC LIMIT 1",
                              (name,)).fetchone()
        if row is None:
            raise TableError("there is no backup of %s yet" % name)
        return row

    def rename(self, old, new, tell_device=True):
        """One name per player: the table's and the device's (`set_name`).
        The player's backups follow the name, so a restore finds them."""
        p = self.player(old)
        if not isinstance(new, str) or not new.strip() or new != new.strip():
            raise TableError("a name is 1 to 16 letters, digits or spaces, not %r" % (new,))
        if new == old:
            return p
        if new in self.players:
            if tell_device:
                raise TableError("%s is already at the table" % new)
            self.notify("%s's device called itself %s, but %s is already at the table: it is %s again"
                        % (old, new, new, old))
            p.link.request("set_name", name=old[:16])  # back to the table's name, so it is said once
            p.state["name"] = old[:16]
            return p
        if tell_device:
            p.link.request("set_name", name=new)  # the device refuses a name it cannot show
        self.players = {(new if n == old else n): q for n, q in self.players.items()}  # a new dict: safe mid-loop
        p.name = new
        self.db.execute("UPDATE backups SET player = ? WHERE player = ?", (new, old))
        self._log(p, "rename", None, "set_name", {"old": old}, {"name": new}, None)
        return p

    # -- commands ------------------------------------------------------------
    def command(self, who, op, **args):
        """Send one command to a player's device, log it, refresh the mirror.
        (``who``, not ``name``: set_move takes a ``name`` argument.)"""
        p = self.player(who)
        if op in ("take_blessing", "take_wound", "damage", "take_harm"):
            self.sync_supply()  # the device draws only what nobody else holds
        try:
            result = p.link.request(op, **args)
        except DeviceError as e:
            self._log(p, "refused", None, op, args, {"code": e.code, "message": str(e)}, None)
            raise
        self._log(p, "command", None, op, args, result, result.get("digest"))
        if op == "end_flip" and p.state.get("flip"):
            self._record_flip(p, "host", p.state["flip"], result)
        self.refresh(p)
        if op in SUPPLY_OPS:
            self.sync_supply()
        return result

    def flip(self, name, **args):
        """Flip and resolve it at once, choosing the first tied card when the
        choice matters (the GM console's quick flip)."""
        r = self.command(name, "flip", **args)
        if r.get("phase") == "choose":
            r = self.command(name, "choose", card=r["tied"][0])
        return self.command(name, "end_flip")

    def deal_damage(self, name, power, **reduce):
        return self.command(name, "damage", power=power, **reduce)

    def teamwork(self, lead, supporters, pick=None, crit=None, **flip_args):
        """MD *Teamwork Flips*: the lead flips as usual, each supporter flips
        one Anvil, the best card resolves and only its owner gets its XP.
        ``pick`` names the player whose card resolves when several tie;
        ``crit`` is that player's choice if it is the Critical Success card
        ("blessing", or "levelup" with the lead's move; none = declined)."""
        names = [lead] + list(supporters)
        if len(set(names)) != len(names):
            raise TableError("a player can take one part in a teamwork flip")
        for n in names:
            self.player(n)
        flips = {}
        try:
            flips[lead] = self.command(lead, "flip", team="lead", **flip_args)
            for s in supporters:
                flips[s] = self.command(s, "flip", team="support")
        except DeviceError:
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
            self.command(name, "end_flip", resolved=False)
        except (DeviceError, LinkError, TableError):
            pass

    def restore(self, name, new_port):
        """Put a player's last backup onto a replacement device."""
        p = self.player(name)
        text, digest = self.latest_backup(name)
        old = p.link
        link = self._connect(p, new_port)
        try:
            link.hello()
            link.restore(text)
        except Exception:
            link.close()
            raise
        try:
            old.close()
        except Exception:
            pass
        p.link, p.port = link, new_port
        info = link.hello()
        p.device = info.get("device")
        p.error = ""
        link.request("set_name", name=name[:16])
        self._log(p, "restore", None, "restore", {"port": new_port}, {"digest": digest}, digest)
        self.refresh(p)
        self.sync_supply()
        return digest

    # -- the shared supply -------------------------------------------------
    def holdings(self):
        return {n: list(p.state.get("held", [])) for n, p in self.players.items() if p.state}

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
        for n, p in self.players.items():
            if not p.state or not p.online:
                continue
            others = sorted(set(cid for m, cards in held.items() if m != n for cid in cards))
            if sorted(p.state.get("elsewhere", [])) == others:
                continue
            try:
                p.link.request("supply_sync", elsewhere=others)
            except DeviceError as e:
                self.notify("supply conflict at %s: %s" % (n, e))
                continue
            self.refresh(p)  # the device's state (and digest) changed
        bad = self.conflicts()
        if bad:
            self.notify("supply conflict: %s" % "; ".join("%s held by %s and %s" % c for c in bad))

    # -- Shadow points -----------------------------------------------------------
    def shadow(self):
        """(earned from the players' flips, spent by the GM, available)."""
        earned = sum(int(p.state.get("shadow", 0)) for p in self.players.values())
        spent = -(self.db.execute("SELECT COALESCE(SUM(delta), 0) FROM shadow WHERE session = ? AND delta < 0",
                                  (self.session,)).fetchone()[0])
        return earned, spent, earned - spent

    def spend_shadow(self, n, reason=""):
        if not isinstance(n, int) or n < 1:
            raise TableError("spend 1 or more Shadow points")
        if n > self.shadow()[2]:
            raise TableError("only %d Shadow points available" % self.shadow()[2])
        self.db.execute("INSERT INTO shadow (session, t, delta, reason) VALUES (?,?,?,?)",
                        (self.session, time.time(), -n, reason))
        self.db.commit()
        return self.shadow()

    # -- events and the log ------------------------------------------------------
    def poll(self, timeout=0.0):
        """Read every device for button presses; returns players that changed."""
        changed = []
        for p in list(self.players.values()):
            before = p.state.get("digest")
            try:
                p.link.poll(timeout)
                p.online = True
            except (LinkError, DeviceError) as e:
                p.online = False
                p.error = str(e)
                continue
            if p.dirty:
                p.dirty = False
                self.refresh(p)
                if p.state.get("digest") != before:
                    changed.append(p.name)
        if changed:
            self.sync_supply()
        return changed

    def _on_event(self, player, seq, payload):
        self._log(player, "event", seq, payload.get("op"), payload.get("args"), payload.get("result"),
                  payload.get("digest"))
        if payload.get("flip"):
            self._record_flip(player, "buttons", payload["flip"], payload.get("result") or {})
        player.dirty = True

    def _record_flip(self, player, source, flip, result):
        self.db.execute(
            "INSERT INTO flips (session, t, player, device, source, suit, net, cards, level, resolving, xp, shadow)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (self.session, time.time(), player.name, player.device, source, flip.get("suit"), flip.get("net"),
             ",".join(flip.get("cards", [])), result.get("level", flip.get("level")),
             result.get("resolving", flip.get("resolving")), result.get("xp", 0), result.get("shadow", 0)))
        self.db.commit()
        player.last_flip = {"cards": list(flip.get("cards", [])), "suit": flip.get("suit"), "net": flip.get("net"),
                            "level": result.get("level", flip.get("level")),
                            "resolving": result.get("resolving", flip.get("resolving")), "source": source}

    def _log(self, player, kind, seq, op, args, result, digest):
        self.db.execute("INSERT INTO log (session, t, player, device, kind, seq, op, args, result, digest)"
                        " VALUES (?,?,?,?,?,?,?,?,?,?)",
                        (self.session, time.time(), player.name, player.device, kind, seq, op,
                         json.dumps(args, sort_keys=True), json.dumps(result, sort_keys=True), digest))
        self.db.commit()

    def log_rows(self, limit=20):
        return self.db.execute("SELECT t, player, kind, seq, op, args, result FROM log WHERE session = ?"
                               " ORDER BY id DESC LIMIT ?", (self.session, limit)).fetchall()[::-1]

    def flip_rows(self):
        return self.db.execute("SELECT player, source, suit, net, cards, level, resolving FROM flips"
                               " WHERE session = ? ORDER BY id", (self.session,)).fetchall()

"""The live table page: an aiohttp server on its own thread and event loop.

    GET  /                  the page (static/index.html; app.js, style.css beside it)
    GET  /events            server-sent events: the table view (JSON) now and at every change
    GET  /api/table         the table view now (JSON)
    GET  /screen/NAME.png   NAME's device screen, the panel's pixels (2x)
    GET  /api/history       the session record's newest entries (JSON); ?player=NAME for one player's
    GET  /record.md|csv|json  the session record to download (as `deckahedron replay --export`); ?player=NAME
    POST /api/action        a GM action as JSON, run as a console line on the hub's thread:
                            {"action": "flip", "player": "Ann", "attr": "str", "net": 1}
                            {"action": "line", "line": "damage Di 9 wounds=1"}
                            {"action": "undo", "player": "Ann"}: what would be undone ("undo": the plan),
                            then {"action": "undo", "player": "Ann", "confirm": true, "entry": 12} does it
                            answers {"ok": true|false, "line": ..., "lines": [the console's words]}:
                            200 done, 422 refused (the words say why, as on the console),
                            400 a request that is not an action, 403 from another site's page,
                            415 not JSON, 503 the hub did not answer

Nothing here touches the hub: see bridge.py for the hand-over.
"""

import asyncio
import json
import os
import re
import shlex
import threading
import time

from aiohttp import web

from host_tools import record
from host_tools.web.view import history_view, record_names

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
DEFAULT_PORT = 8765
ANSWER_WITHIN = 60.0  # seconds the page waits for the hub's thread (a teamwork flip of 16 boards is slow)
KEEPALIVE = 15.0  # seconds between SSE comments, so proxies and browsers keep the stream
NOT_FROM_PAGE = ("quit", "exit", "EOF")
MEDIA = {"md": "text/markdown", "csv": "text/csv", "json": "application/json"}


class BadAction(ValueError):
    """A request that is not an action; the message says what one looks like."""


def _word(body, key, required=True):
    value = body.get(key)
    if value is None or value == "":
        if required:
            raise BadAction("%s: say %s" % (body.get("action"), key))
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise BadAction("%s must be a word or a whole number, not %s" % (key, json.dumps(value)))
    return str(value)


def _net(body):
    value = _word(body, "net", required=False)
    if value is None or value in ("0", "+0", "-0"):
        return []
    return [value if value[0] in "+-" else "+" + value]


def action_line(body):
    """The console line for a page action (each word quoted as the console reads it)."""
    if not isinstance(body, dict):
        raise BadAction('send a JSON object, e.g. {"action": "flip", "player": "Ann", "attr": "str"}')
    action = body.get("action")
    if action == "line":
        line = body.get("line")
        if not isinstance(line, str) or not line.strip():
            raise BadAction('a line action needs the console line, e.g. {"action": "line", "line": "status"}')
        if line.split()[0] in NOT_FROM_PAGE:
            raise BadAction("the table is closed at the console, not from the page")
        return line.strip()
    player = lambda: _word(body, "player")  # noqa: E731
    if action == "flip":
        words = ["flip", player()]
        how = _word(body, "attr", required=False)
        words += [how] if how else []
        words += _net(body)
        words += ["fast"] if body.get("fast") is True else []
    elif action == "damage":
        words = ["damage", player(), _word(body, "power")]
        for key in ("wounds", "harm", "absorb"):
            value = _word(body, key, required=False)
            if value not in (None, "0"):
                words.append("%s=%s" % (key, value))
    elif action in ("blessing", "wound", "harm"):
        words = [action, player()]
    elif action == "press":
        words = ["press", player(), _word(body, "button")]
    elif action == "shadow_spend":
        words = ["shadow", "spend", _word(body, "points")]
    elif action == "undo":  # asks first; does it only when confirmed with the entry it showed
        words = ["undo", player()]
        confirm = body.get("confirm", False)
        if confirm is True:
            entry = _word(body, "entry", required=False)
            if entry is None or not entry.isdigit():
                raise BadAction("undo: confirm with the entry that was shown, e.g. "
                                '{"action": "undo", "player": "Ann", "confirm": true, "entry": 12}')
            words += ["yes", "entry=" + entry]
        elif confirm is not False:
            raise BadAction("undo: confirm is true or false, not %s" % json.dumps(confirm))
    elif action == "team":
        supporters = body.get("supporters")
        if not isinstance(supporters, list) or not supporters:
            raise BadAction("team: say the supporters, a list of players, e.g. [\"Ann\", \"Bo\"]")
        words = ["team", _word(body, "lead")] + [_word({"supporter": s}, "supporter") for s in supporters]
        how = _word(body, "attr", required=False)
        words += [how] if how else []
        words += _net(body)
    else:
        raise BadAction("unknown action %s (flip, damage, blessing, wound, harm, press, shadow_spend, team, undo, "
                        "line)"
                        % json.dumps(action))
    return " ".join(shlex.quote(w) for w in words)


def export_name(fmt, player=None, day=None):
    """A download's file name: deckahedron-record-2026-11-23[-Ann].md (a name's odd letters as -)."""
    name = "deckahedron-record-" + (day or time.strftime("%Y-%m-%d"))
    if player:
        name += "-" + (re.sub(r"[^A-Za-z0-9_]+", "-", player).strip("-") or "player")
    return name + "." + fmt


class WebServer:
    """The page's server on a thread of its own; ``start()`` returns once it listens."""

    def __init__(self, bridge, host="127.0.0.1", port=DEFAULT_PORT):
        self.bridge = bridge
        self.host = host
        self.port = port
        self.loop = None
        self.thread = None
        self.clients = set()  # one asyncio.Queue per open event stream
        self._runner = None
        self._ready = threading.Event()
        self._error = None

    @property
    def url(self):
        host = "[%s]" % self.host if ":" in self.host else self.host
        return "http://%s:%d/" % (host, self.port)

    # -- the app ---------------------------------------------------------------
    def app(self):
        app = web.Application()
        app.router.add_get("/", self.index)
        app.router.add_get("/events", self.events)
        app.router.add_get("/api/table", self.table)
        app.router.add_get("/screen/{name}.png", self.screen)
        app.router.add_get("/api/history", self.history)
        app.router.add_get("/record.{fmt}", self.export)
        app.router.add_post("/api/action", self.action)
        app.router.add_static("/static/", STATIC)
        return app

    async def index(self, request):
        return web.FileResponse(os.path.join(STATIC, "index.html"))

    async def table(self, request):
        text = self.bridge.latest()
        if text is None:
            return web.json_response({"error": "the table is not read yet"}, status=503)
        return web.Response(text=text, content_type="application/json")

    async def screen(self, request):
        got = self.bridge.screen(request.match_info["name"])
        if got is None:
            return web.json_response({"error": "no screen of %s yet" % request.match_info["name"]}, status=404)
        return web.Response(body=got[1], content_type="image/png", headers={"Cache-Control": "no-store"})

    async def _on_hub(self, fn):
        """fn() run on the hub's thread (it reads the session database); its result."""
        future = self.bridge.submit(fn)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), ANSWER_WITHIN)
        except asyncio.TimeoutError:
            future.cancel()
            raise

    async def history(self, request):
        player = request.query.get("player") or None
        try:
            view = await self._on_hub(lambda: history_view(self.bridge.hub, player))
        except ValueError as e:
            return web.json_response({"error": str(e)}, status=404)
        except asyncio.TimeoutError:
            return web.json_response({"error": "the table did not answer; the console may be busy"}, status=503)
        return web.json_response(view)

    async def export(self, request):
        """The record as a file (host_tools/record.py writes it, as `deckahedron replay --export`)."""
        fmt, player = request.match_info["fmt"], request.query.get("player") or None
        try:
            record.check_format(fmt)
            text = await self._on_hub(lambda: self._export(player, fmt))
        except ValueError as e:
            return web.Response(text=str(e) + "\n", status=404, content_type="text/plain")
        except asyncio.TimeoutError:
            return web.Response(text="the table did not answer; the console may be busy\n", status=503,
                                content_type="text/plain")
        return web.Response(text=text, content_type=MEDIA[fmt], charset="utf-8", headers={
            "Content-Disposition": 'attachment; filename="%s"' % export_name(fmt, player),
            "Cache-Control": "no-store"})

    def _export(self, player, fmt):
        """On the hub's thread: the record's text; ValueError for a name that is in neither."""
        hub = self.bridge.hub
        record_names(hub, player)
        return record.export(record.entries(hub.db, player), fmt)

    async def events(self, request):
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
        await response.prepare(request)
        mine = asyncio.Queue(maxsize=1)
        self.clients.add(mine)
        try:
            text = self.bridge.latest()
            if text is not None:
                await response.write(b"data: " + text.encode() + b"\n\n")
            while True:
                try:
                    text = await asyncio.wait_for(mine.get(), KEEPALIVE)
                except asyncio.TimeoutError:
                    await response.write(b": still here\n\n")
                    continue
                if text is None:  # the server stops
                    break
                await response.write(b"data: " + text.encode() + b"\n\n")
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.clients.discard(mine)
        return response

    async def action(self, request):
        # Only the page itself may act: JSON (another site's plain form cannot send it without the
        # browser asking first, and this server never says yes) from the page's own origin.
        origin = request.headers.get("Origin")
        if origin is not None and origin != "%s://%s" % (request.scheme, request.host):
            return web.json_response({"ok": False, "lines": ["actions come from the table's own page, not %s"
                                                             % origin]}, status=403)
        if request.content_type != "application/json":
            return web.json_response({"ok": False, "lines": ["send the action as JSON (Content-Type: application/json)"]},
                                     status=415)
        try:
            body = await request.json()
        except ValueError:
            return web.json_response({"ok": False, "lines": ["send the action as JSON"]}, status=400)
        try:
            line = action_line(body)
        except BadAction as e:
            return web.json_response({"ok": False, "lines": [str(e)]}, status=400)
        future = self.bridge.submit(line)
        try:
            answer = await asyncio.wait_for(asyncio.wrap_future(future), ANSWER_WITHIN)
        except asyncio.TimeoutError:
            future.cancel()
            return web.json_response({"ok": False, "line": line, "lines": [
                "the table did not answer within %d s; the console may be busy" % ANSWER_WITHIN]}, status=503)
        except Exception as e:
            return web.json_response({"ok": False, "line": line, "lines": ["that failed: %s" % e]}, status=500)
        answer["line"] = line
        return web.json_response(answer, status=200 if answer["ok"] else 422)

    # -- pushing --------------------------------------------------------------------
    def _fan_out(self, text):
        for q in list(self.clients):
            if q.full():  # a slow browser gets only the newest view
                q.get_nowait()
            q.put_nowait(text)

    def _on_view(self, text):
        """Called on the hub's thread with each new view."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._fan_out, text)

    # -- the thread -----------------------------------------------------------------
    def start(self):
        self.thread = threading.Thread(target=self._serve, name="table-web", daemon=True)
        self.thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        self.bridge.listeners.append(self._on_view)
        return self.url

    def _serve(self):
        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._listen())
        except BaseException as e:
            self._error = e
            self._ready.set()
            self.loop.close()
            return
        self._ready.set()
        try:
            self.loop.run_forever()
        finally:
            self.loop.run_until_complete(self._runner.cleanup())
            self.loop.close()

    async def _listen(self):
        self._runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]

    def stop(self):
        if self._on_view in self.bridge.listeners:
            self.bridge.listeners.remove(self._on_view)
        if self.loop is None or self.thread is None or not self.thread.is_alive():
            return
        def end():
            for q in list(self.clients):
                if q.full():
                    q.get_nowait()
                q.put_nowait(None)
            self.loop.stop()
        self.loop.call_soon_threadsafe(end)
        self.thread.join(10)

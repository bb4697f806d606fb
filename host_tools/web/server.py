"""The live table page: an aiohttp server on its own thread and event loop.

    GET  /?token=T          the page (static/index.html; app.js, style.css beside it); sets the token's cookie
    GET  /events            server-sent events: the table view (JSON) now and at every change
    GET  /api/table         the table view now (JSON)
    GET  /screen/NAME.png   NAME's device screen, the panel's pixels (2x)
    GET  /api/history       the session record's newest entries (JSON); ?player=NAME for one player's
    GET  /record.md|csv|json  the session record to download (as `deckahedron replay --export`); ?player=NAME
    POST /api/action        a GM action as JSON (actions.py), on the hub's thread: a call of the console's
                            action, or a console line read as typed:
                            {"action": "flip", "player": "Ann", "attr": "str", "net": 1}
                            {"action": "line", "line": "damage Di 9 wounds=1"}
                            {"action": "undo", "player": "Ann"}: what would be undone ("undo": the plan),
                            then {"action": "undo", "player": "Ann", "confirm": true, "entry": 12} does it
                            {"action": "line", "line": "newgame Ann yes"}: asks ("confirm": the line),
                            then the same with "confirm": true runs it (CONFIRM)
                            answers {"ok": true|false, "line": ..., "lines": [the console's words]}:
                            200 done, 422 refused (the words say why, as on the console),
                            400 a request that is not an action the page may send, 408 a body too slow,
                            415 not JSON, 503 the hub did not answer

Every route but /static/ needs the run's token (guard.Access: 401 without it, 403 from another
name or site); guard.py says who may reach the page and how much of it they can hold.
Nothing here touches the hub: see bridge.py for the hand-over.
"""

import asyncio
import json
import logging
import os
import re
import secrets
import socket
import threading
import time

from aiohttp import web

from host_tools.table import record
from host_tools.web import DEFAULT_PORT
from host_tools.web.actions import Ask, BadAction, page_action
from host_tools.web.guard import (LOOPBACK, WILDCARD, Access, Gate, Limits, PathLog, add_headers, check_text,
                                  log_to, plain, unlog)
from host_tools.web.view import history_view, record_names

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
ANSWER_WITHIN = 60.0  # seconds the page waits for the hub's thread (a teamwork flip of 16 boards is slow)
KEEPALIVE = 15.0  # seconds between SSE comments, so proxies and browsers keep the stream
MEDIA = {"md": "text/markdown", "csv": "text/csv", "json": "application/json"}


def lan_address():
    """This machine's address on its network (the one a packet out would leave from; none is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: only the route is looked up
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def qr_code(text):
    """``text`` as a QR code for a terminal (ANSI colours, so light and dark themes both read), or None
    without segno."""
    try:
        import segno
    except ImportError:
        return None
    import io

    out = io.StringIO()
    segno.make(text, error="l").terminal(out=out)
    return out.getvalue()


def export_name(fmt, player=None, day=None):
    """A download's file name: deckahedron-record-2026-11-23[-Ann].md (a name's odd letters as -)."""
    name = "deckahedron-record-" + (day or time.strftime("%Y-%m-%d"))
    if player:
        name += "-" + (re.sub(r"[^A-Za-z0-9_]+", "-", player).strip("-") or "player")
    return name + "." + fmt


class WebServer:
    """The page's server on a thread of its own; ``start()`` returns once it listens.

    ``limits`` (guard.Limits) bound the connections; ``log`` is the file for aiohttp's own
    messages (default: web.log in the console's run folder)."""

    def __init__(self, bridge, host="127.0.0.1", port=DEFAULT_PORT, limits=Limits(), log=None):
        self.bridge = bridge
        self.host = host
        self.port = port
        self.limits = limits
        self.token = secrets.token_urlsafe(24)  # this run's: in the printed URL only, never in a log
        self.log = log or os.path.join(bridge.console.run_dir, "web.log")
        self.gate = Gate(limits.connections)
        self.access = None  # once it listens (the port may be a free one)
        self.loop = None
        self.thread = None
        self.clients = set()  # one asyncio.Queue per open event stream
        self._runner = None
        self._server = None
        self._log_handler = None
        self._ready = threading.Event()
        self._error = None

    @property
    def base(self):
        """The page's address for a browser on this machine (the first of every interface's)."""
        host = "127.0.0.1" if self.host in WILDCARD else self.host
        return "http://%s:%d/" % ("[%s]" % host if ":" in host else host, self.port)

    @property
    def url(self):
        """The page with this run's token: the URL printed at start."""
        return "%s?token=%s" % (self.base, self.token)

    def announce(self, out):
        """Print where the page is; served on a network, the URL for a phone there, as a QR code too."""
        out.print("live table page: %s" % self.url, style="bold")
        if self.host in LOOPBACK:
            return
        phone = self.url.replace(self.base, "http://%s:%d/" % (lan_address(), self.port)) \
            if self.host in WILDCARD else self.url
        out.print("warning: the page is served on %s: anyone on that network who has its URL (the token in it) "
                  "can act as the GM. On a phone there: %s" % (self.host, phone), style="red")
        code = qr_code(phone)
        if code:
            out.file.write(code)
            out.file.flush()

    # -- the app ---------------------------------------------------------------
    def app(self):
        # An action is a few hundred bytes: a bigger body is refused (413) before it is read whole.
        app = web.Application(middlewares=[self.guard], client_max_size=64 * 1024)
        app.on_response_prepare.append(add_headers)
        app.router.add_get("/", self.index)
        app.router.add_get("/events", self.events)
        app.router.add_get("/api/table", self.table)
        app.router.add_get("/screen/{name}.png", self.screen)
        app.router.add_get("/api/history", self.history)
        app.router.add_get("/record.{fmt}", self.export)
        app.router.add_post("/api/action", self.action)
        app.router.add_static("/static/", STATIC)
        return app

    @web.middleware
    async def guard(self, request, handler):
        """Every request: busy while answered (its connection is not closed to make room), and
        refused unless it names this server and carries the token (guard.Access)."""
        with self.gate.busy(request.transport):
            refused = self.access.refusal(request)
            if refused is not None:
                return plain(*refused)
            return await handler(request)

    async def index(self, request):
        response = web.FileResponse(os.path.join(STATIC, "index.html"), headers={"Cache-Control": "no-store"})
        if "token" in request.query:  # the first load: the page's own requests carry the cookie from now on
            response.set_cookie(self.access.cookie, self.token, httponly=True, samesite="Strict", path="/")
        return response

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
        """The record as a file (host_tools/table/record.py writes it, as `deckahedron replay --export`)."""
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
        if len(self.clients) >= self.limits.streams:
            return plain(503, "the table's page has %d event streams open (one for each open page): close one"
                         % len(self.clients))
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
        # JSON only: another site's plain form cannot send it without the browser asking first, and
        # this server never says yes (guard.Access refuses other origins and requests with no token).
        if request.content_type != "application/json":
            return web.json_response({"ok": False, "lines": ["send the action as JSON (Content-Type: application/json)"]},
                                     status=415)
        try:
            action = page_action(await self._body(request))
        except asyncio.TimeoutError:
            response = web.json_response({"ok": False, "lines": [
                "the action did not arrive within %g s" % self.limits.body]}, status=408)
            response.force_close()
            return response
        except Ask as ask:
            return web.json_response({"ok": True, "line": ask.line, "lines": [str(ask)], "confirm": ask.line})
        except BadAction as e:
            return web.json_response({"ok": False, "lines": [str(e)]}, status=400)
        future = self.bridge.submit(action)
        try:
            answer = await asyncio.wait_for(asyncio.wrap_future(future), ANSWER_WITHIN)
        except asyncio.TimeoutError:
            future.cancel()
            return web.json_response({"ok": False, "line": action.line, "lines": [
                "the table did not answer within %d s; the console may be busy" % ANSWER_WITHIN]}, status=503)
        except Exception as e:
            return web.json_response({"ok": False, "line": action.line, "lines": ["that failed: %s" % e]}, status=500)
        return web.json_response(answer, status=200 if answer["ok"] else 422)

    async def _body(self, request):
        """The action's JSON, read within ``limits.body`` seconds; BadAction in words for bytes that are not
        UTF-8 JSON, JSON nested deeper than an action (json's own recursion ends in RecursionError) or text
        that is not plain (guard.check_text)."""
        raw = await asyncio.wait_for(request.read(), self.limits.body)
        try:
            body = json.loads(raw.decode("utf-8"))
        except RecursionError:
            raise BadAction("an action is an object of words, not JSON nested that deep") from None
        except ValueError:
            raise BadAction("send the action as JSON") from None
        try:
            check_text(body)
        except ValueError as e:
            raise BadAction(str(e)) from None
        return body

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
        self._log_handler = log_to(self.log)
        self.loop.set_exception_handler(lambda loop, context: logging.getLogger("aiohttp.server").error(
            context.get("message"), exc_info=context.get("exception")))  # e.g. out of files: the log, not the terminal
        try:
            self.loop.run_until_complete(self._listen())
        except BaseException as e:
            self._error = e
            self._ready.set()
            self.loop.close()
            unlog(self._log_handler)
            return
        self._ready.set()
        try:
            self.loop.run_forever()
        finally:
            self._server.close()
            self.loop.run_until_complete(self._runner.cleanup())
            self.loop.close()
            unlog(self._log_handler)

    async def _listen(self):
        self._runner = web.AppRunner(self.app(), access_log_class=PathLog, access_log=logging.getLogger("aiohttp.access"),
                                     keepalive_timeout=self.limits.idle, shutdown_timeout=1.0)
        await self._runner.setup()
        # Not aiohttp's TCPSite: each connection goes through the Gate, which bounds how many are open.
        self._server = await self.loop.create_server(self.gate.protocol(self._runner.server), self.host or None,
                                                     self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        self.access = Access(self.host, self.port, self.token)

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

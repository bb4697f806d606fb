"""Who may use the live table page, and how much of the server anyone can hold
(docs/web.md, "Who can reach the page").

- ``Access``: a request must name this server in its Host (and Origin, if
  any): a page of another site whose name was rebound to this address is
  refused. Every route but the static files needs the run's token, from
  the URL printed at start (``?token=``) or the cookie the page gets with it.
- ``HEADERS``: on every response; the page is never framed, sniffed or told
  where it came from (its first URL holds the token).
- ``check_text``, ``printable``: text from the page is plain text, and what
  the terminal shows of it is escaped.
- ``Gate``: at most ``Limits.connections`` open connections; idle and slow
  ones give way to new ones, so the GM's browser always gets in.
"""

import asyncio
import hmac
import ipaddress
import logging
import re
import time
from typing import NamedTuple
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger


class Limits(NamedTuple):
    connections: int = 64  # open at once; beyond, the longest idle is closed (or, all busy, the new one)
    streams: int = 16  # event streams at once (each is a page kept open)
    idle: float = 10.0  # seconds a connection may wait for its request's headers, or between requests
    body: float = 10.0  # seconds a request's body may take to arrive


HEADERS = {
    # The page loads only its own files (no inline script or style) and is never framed.
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARD = ("", "0.0.0.0", "::")
MAX_DEPTH = 3  # an action is an object of words and at most one list of words (team's supporters)
# What the page may not send and the terminal does not show raw: control characters (ESC, a newline,
# DEL, C1), lone surrogates (not text: printing one ends the table), line separators and bidi overrides
# (they make a line read as another).
ODD = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def plain(status, text):
    """A refusal in words, as plain text."""
    return web.Response(status=status, text=text + "\n", content_type="text/plain")


async def add_headers(request, response):
    """aiohttp's on_response_prepare: HEADERS on every response, refusals and static files too."""
    response.headers.update(HEADERS)


def _name_port(netloc):
    """(lower-case host name without brackets, port) of a Host header's value; None if it is not one."""
    if "@" in netloc:
        return None
    try:
        parts = urlsplit("//" + netloc)
        return parts.hostname, parts.port or 80
    except ValueError:
        return None


def _is_ip(name):
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


class Access:
    """The names this server answers to, and its token."""

    def __init__(self, host, port, token):
        self.port = port
        self.token = token
        self.names = set(LOOPBACK) | {host.strip("[]").lower()}
        # Served on every interface: any of this machine's addresses, which are IP literals. A page of
        # another site has a name in its Host; an IP literal cannot be rebound.
        self.any_ip = host in WILDCARD
        self.cookie = "deckahedron-%d" % port  # per port: two tables on one machine keep their own

    def host_ok(self, netloc):
        got = _name_port(netloc or "")
        if got is None or got[1] != self.port or not got[0]:
            return False
        return got[0] in self.names or (self.any_ip and _is_ip(got[0]))

    def origin_ok(self, origin):
        return origin.startswith("http://") and "/" not in origin[7:] and self.host_ok(origin[7:])

    def token_ok(self, given):
        return given is not None and hmac.compare_digest(given.encode("utf-8", "replace"), self.token.encode())

    def given(self, request):
        """The token a request carries: in its query (a script, the page's first load) or its cookie."""
        return request.query.get("token") or request.cookies.get(self.cookie)

    def refusal(self, request):
        """None for a request this server takes, else (status, sentence)."""
        host, origin = request.headers.get("Host"), request.headers.get("Origin")
        if not self.host_ok(host):
            return 403, "this is the table's page for 127.0.0.1:%d (or the address the table printed), not %s" % (
                self.port, printable(host or "no Host"))
        if origin is not None and not self.origin_ok(origin):
            return 403, "the table's page takes requests from its own page only, not from %s" % printable(origin)
        if not request.path.startswith("/static/") and not self.token_ok(self.given(request)):
            return 401, ("this needs the table's token: open the URL the table printed at its start "
                         "(http://127.0.0.1:%d/?token=...); each run has a new one" % self.port)
        return None


def check_text(body):
    """ValueError with a sentence for JSON the page must not send: nested deeper than an action,
    or text that is not plain (see ODD). Walks without recursion, so any depth is refused in words."""
    todo = [(body, 1, "the action")]
    while todo:
        value, depth, where = todo.pop()
        if depth > MAX_DEPTH:
            raise ValueError("an action is an object of words, not JSON nested %d deep" % depth)
        if isinstance(value, dict):
            todo += [(k, depth, "a key") for k in value] + [(v, depth + 1, k) for k, v in value.items()]
        elif isinstance(value, list):
            todo += [(v, depth + 1, where) for v in value]
        elif isinstance(value, str) and ODD.search(value):
            c = ODD.search(value).group()
            raise ValueError("%s holds U+%04X, %s: the page sends plain words on one line" % (
                printable(str(where))[:40], ord(c), "not a character (a lone surrogate)" if "\ud800" <= c <= "\udfff"
                else "a control character"))


def printable(text):
    """Text as the terminal may show it: each ODD character written as an escape (\\x1b, \\n, \\ud800)."""
    return ODD.sub(lambda m: ascii(m.group())[1:-1], text)


class PathLog(AbstractAccessLogger):
    """aiohttp's access log without the query string: the token is never written to a log."""

    def log(self, request, response, time):
        self.logger.info("%s %s %s %s %.3fs", request.remote, request.method, printable(request.path),
                         response.status, time)


def log_to(path):
    """aiohttp's and the event loop's messages go to ``path`` (the run folder's web.log), not the
    GM's terminal. Returns the handler, for ``unlog``."""
    handler = logging.FileHandler(path, encoding="utf-8", delay=True)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    log = logging.getLogger("aiohttp")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    return handler


def unlog(handler):
    logging.getLogger("aiohttp").removeHandler(handler)
    handler.close()


def busy_reply(status="503 Service Unavailable",
               text="the table's page has too many connections open; try again in a moment\n"):
    """The bytes of a whole HTTP response, for a connection refused before aiohttp sees it."""
    head = ["HTTP/1.1 " + status, "Content-Type: text/plain; charset=utf-8", "Connection: close",
            "Content-Length: %d" % len(text.encode())] + ["%s: %s" % h for h in HEADERS.items()]
    return ("\r\n".join(head) + "\r\n\r\n" + text).encode()


class Gate:
    """The open connections: transport -> since when it has been idle (None while a request is being
    answered). One more than ``most`` closes the one idle longest (a browser opens another when it
    needs one), or is answered 503 and closed when every one is busy."""

    def __init__(self, most):
        self.most = most
        self.open = {}
        self.evicted = self.refused = 0  # counts, for tests and figures

    def protocol(self, make):
        """A protocol factory for loop.create_server: ``make()``'s protocol (aiohttp's), counted."""
        return lambda: _Counted(make(), self)

    def admit(self, transport):
        """True if ``transport`` may go on (after closing the idlest if need be)."""
        if len(self.open) >= self.most:
            idle = [(since, t) for t, since in self.open.items() if since is not None]
            if not idle:
                self.refused += 1
                transport.write(busy_reply())
                transport.close()
                return False
            victim = min(idle, key=lambda i: i[0])[1]
            self.open.pop(victim)
            self.evicted += 1
            victim.close()
        self.open[transport] = time.monotonic()
        return True

    def busy(self, transport):
        """A context manager: ``transport`` is answering a request (it is not closed to make room)."""
        return _Busy(self, transport)


class _Busy:
    def __init__(self, gate, transport):
        self.gate, self.transport = gate, transport

    def __enter__(self):
        if self.transport in self.gate.open:
            self.gate.open[self.transport] = None

    def __exit__(self, *exc):
        if self.transport in self.gate.open:
            self.gate.open[self.transport] = time.monotonic()


class _Counted(asyncio.Protocol):
    """aiohttp's protocol for one connection, with the Gate told when it opens and closes."""

    def __init__(self, inner, gate):
        self.inner, self.gate, self.transport = inner, gate, None

    def connection_made(self, transport):
        if not self.gate.admit(transport):
            self.inner = None
            return
        self.transport = transport
        self.inner.connection_made(transport)

    def connection_lost(self, exc):
        self.gate.open.pop(self.transport, None)
        if self.inner is not None:
            self.inner.connection_lost(exc)

    def data_received(self, data):
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self):
        return self.inner.eof_received() if self.inner is not None else False

    def pause_writing(self):
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self):
        if self.inner is not None:
            self.inner.resume_writing()

"""Only the GM's own browser acts as the GM, and no input kills or stalls the
table (issue 25, the page's part): the Host and Origin a request names, the
run's token, the headers of every response, which console commands the page
may run and which it asks to confirm, text that is not plain, JSON nested
deep, and idle, slow or too many connections. Most run on an empty table (no
boards: the server refuses before the hub sees anything); the last one runs
`deckahedron table` at a terminal."""

import json
import re
import socket
import time
import urllib.error
import urllib.request

import pytest

from host_tools.web.guard import HEADERS, ODD, Access, Limits
from tests.host.web.web_table import serving

pytestmark = pytest.mark.slow

LIMITS = Limits(connections=16, streams=2, idle=1.0, body=1.0)  # lowered so the tests end within seconds
ROUTES = ("", "events", "api/table", "api/history", "record.json", "screen/Ann.png")


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("guard"), limits=LIMITS) as t:
        yield t


def get(url, headers=None, data=None):
    """(status, headers, text) of a request, with no token unless the URL or headers carry it."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers or {}), timeout=10) as f:
            return f.status, f.headers, f.read(2000).decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode()


def cookie(table):
    return {"Cookie": "%s=%s" % (table.server.access.cookie, table.server.token)}


def line(table, text, **more):
    return table.post(dict({"action": "line", "line": text}, **more))


# -- 1. DNS rebinding: the Host and Origin must name this server ------------------------------------------
@pytest.mark.parametrize("path", ROUTES + ("static/app.js",))
def test_a_request_for_another_name_is_refused_on_every_route(table, path):
    """A page at http://evil.example:PORT, its name rebound to 127.0.0.1, sends its own name as Host."""
    port = table.server.port
    status, _, text = get(table.url + path, dict(cookie(table), Host="evil.example:%d" % port))
    assert status == 403
    assert text == "this is the table's page for 127.0.0.1:%d (or the address the table printed), not " \
                   "evil.example:%d\n" % (port, port)


def test_an_action_from_another_origin_is_refused_even_with_the_token(table):
    status, answer = table.post({"action": "line", "line": "status"}, headers=dict(
        cookie(table), **{"Content-Type": "application/json", "Origin": "http://evil.example:%d" % table.server.port}))
    assert (status, answer) == (403, "the table's page takes requests from its own page only, not from "
                                     "http://evil.example:%d\n" % table.server.port)


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "[::1]"])
def test_the_loopback_names_are_served(table, name):
    status, _, _ = get(table.url + "api/table", dict(cookie(table), Host="%s:%d" % (name, table.server.port)))
    assert status == 200


@pytest.mark.parametrize("host, netloc, ok", [
    ("127.0.0.1", "127.0.0.1:8765", True), ("127.0.0.1", "LOCALHOST:8765", True),
    ("127.0.0.1", "127.0.0.1:8766", False), ("127.0.0.1", "127.0.0.1", False), ("127.0.0.1", "", False),
    ("127.0.0.1", "192.168.1.5:8765", False), ("127.0.0.1", "evil.example@127.0.0.1:8765", False),
    ("192.168.1.5", "192.168.1.5:8765", True), ("192.168.1.5", "evil.example:8765", False),
    # on every interface: any of the machine's addresses (an IP literal cannot be rebound), no other name
    ("0.0.0.0", "10.0.0.7:8765", True), ("0.0.0.0", "[fe80::1]:8765", True),
    ("0.0.0.0", "rebind.evil.example:8765", False),
])
def test_the_names_a_server_answers_to(host, netloc, ok):
    assert Access(host, 8765, "t").host_ok(netloc) is ok


# -- 2. the run's token ------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ROUTES)
def test_every_route_but_the_static_files_needs_the_token(table, path):
    port = table.server.port
    for headers in ({}, {"Cookie": "%s=%s" % (table.server.access.cookie, "guessed")}):
        status, _, text = get(table.url + path, headers)
        assert status == 401
        assert text == ("this needs the table's token: open the URL the table printed at its start "
                        "(http://127.0.0.1:%d/?token=...); each run has a new one\n" % port)
    status, _, _ = get(table.url + "static/app.js")
    assert status == 200


def test_an_action_without_the_token_is_refused(table):
    body = json.dumps({"action": "line", "line": "newgame Ann yes", "confirm": True}).encode()
    status, _, text = get(table.url + "api/action", {"Content-Type": "application/json"}, data=body)
    assert status == 401 and text.startswith("this needs the table's token")


def test_the_page_keeps_the_token_in_a_strict_httponly_cookie_and_scripts_may_send_it_in_the_query(table):
    status, headers, text = get(table.page)
    assert status == 200 and "Deckahedron table" in text
    set_cookie = headers["Set-Cookie"]
    assert set_cookie.startswith("%s=%s;" % (table.server.access.cookie, table.server.token))
    assert {"HttpOnly", "Path=/", "SameSite=Strict"} <= {p.strip() for p in set_cookie.split(";")}
    assert get(table.url + "api/table", cookie(table))[0] == 200
    assert get(table.url + "api/history?player=&token=" + table.server.token)[0] == 200


def test_the_token_is_in_no_log_nor_the_session_record(table):
    get(table.page)
    get(table.url + "api/table?token=" + table.server.token)
    line(table, "shadow")
    base = table.server.log.rsplit("/", 1)[0]
    log = open(table.server.log, encoding="utf-8").read()
    assert "GET /api/table 200" in log, "aiohttp's access log is in the run folder's web.log"
    for name in ("web.log", "console.txt", "session.db"):
        assert table.server.token.encode() not in open("%s/%s" % (base, name), "rb").read(), name


# -- 3. headers ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path, with_token, status", [
    ("", True, 200), ("static/app.js", False, 200), ("static/style.css", False, 200), ("api/table", True, 200),
    ("record.md", True, 200), ("api/table", False, 401), ("nothing", True, 404), ("record.pdf", True, 404),
])
def test_every_response_forbids_framing_sniffing_and_referrers(table, path, with_token, status):
    got, headers, _ = get(table.url + path, cookie(table) if with_token else {})
    assert got == status
    assert {k: headers[k] for k in HEADERS} == HEADERS


# -- 4. the page's powers --------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, words", [
    ("do Ann repl", "do is for the console only: it sends any device command, the REPL too"),
    ("restore Ann /etc/passwd", "restore is for the console only: it opens any path as a device's port"),
    ("screen Ann shots/x.png", "screen is for the console only: it writes a file"),
    ("exit", "quit is for the console only: the table is closed at the console, not from the page"),
    ("?", "unknown command '?': type help for the list"),
    ("flip;screen Ann x.png", "unknown command 'flip;screen': type help for the list"),
])
def test_a_console_only_line_from_the_page_is_refused_in_words(table, text, words):
    status, answer = line(table, text, confirm=True)
    assert (status, answer["lines"]) == (400, [words])


@pytest.mark.parametrize("text", ["newgame Ann yes", "new_game Ann yes", "leave_out Ann", "take_as_new Ann Zoe"])
def test_a_line_that_loses_a_game_runs_only_once_confirmed(table, text):
    status, asked = line(table, text)
    assert status == 200 and asked["confirm"] == text, asked
    assert asked["lines"][0].startswith("this would run %s: it " % text) and asked["lines"][0].endswith(
        "; confirm to do it")
    status, done = line(table, text, confirm=True)  # run: the empty table has no Ann, the console says so
    assert (status, done["line"], done["lines"]) == (422, text, ["no player named 'Ann' (at the table: nobody)"])


def test_every_console_command_is_either_the_pages_or_the_consoles_only():
    from host_tools.console.core import TableConsole
    from host_tools.web.actions import CONFIRM, CONSOLE_ONLY, PAGE_COMMANDS

    commands = set(TableConsole(hub=None).commands())
    assert set(PAGE_COMMANDS) | set(CONSOLE_ONLY) == commands
    assert not set(PAGE_COMMANDS) & set(CONSOLE_ONLY) and set(CONFIRM) <= set(PAGE_COMMANDS)


# -- 5. text that is not plain ----------------------------------------------------------------------------------
@pytest.mark.parametrize("raw, words", [
    (b'{"action": "line", "line": "\\ud800"}', "line holds U+D800, not a character (a lone surrogate)"),
    (b'{"action": "flip", "player": "\\udfff"}', "player holds U+DFFF, not a character (a lone surrogate)"),
    (b'{"action": "line", "line": "status \\u001b[2J"}', "line holds U+001B, a control character"),
    (b'{"action": "line", "line": "status\\nflip Ann"}', "line holds U+000A, a control character"),
    (b'{"action": "team", "lead": "Cy", "supporters": ["Ann\\u202e"]}', "supporters holds U+202E, a control"),
    (b'{"action": "flip", "player": "Ann", "\\u0007": 1}', "a key holds U+0007, a control character"),
])
def test_text_that_is_not_plain_is_refused_in_words(table, raw, words):
    status, answer = table.post(None, raw=raw)
    assert status == 400 and answer["lines"][0].startswith(words), answer


def test_what_the_terminal_shows_of_a_page_line_is_escaped(tmp_path):
    """Past the check too: the (page) echo is printable and encodable (a lone surrogate there raised
    UnicodeEncodeError in the console's loop, which ended the table)."""
    from host_tools.console.core import TableConsole, make_console
    from host_tools.table.hub import TableHub
    from host_tools.web import Bridge
    from host_tools.web.actions import Action

    hub = TableHub(str(tmp_path / "s.db"))
    try:
        bridge = Bridge(TableConsole(hub, make_console(file=open(str(tmp_path / "c.txt"), "w")), str(tmp_path)))
        future = bridge.submit(Action("status \x1b[2J\ud800\nflip Ann"))
        said = bridge.tick()
        assert future.result(0)["ok"]
    finally:
        hub.close()
    assert said[0] == "(page) status \\x1b[2J\\ud800\\nflip Ann"
    assert not [s for s in said if ODD.search(s)]
    "\n".join(said).encode("utf-8")


# -- 6. JSON nested deep, bodies too big ----------------------------------------------------------------------------
@pytest.mark.parametrize("raw, status, words", [
    (b"[" * 30000 + b"]" * 30000, 400, "an action is an object of words, not JSON nested that deep"),
    (b"[" * 100000 + b"]" * 100000, 413, None),  # bigger than any action (64 KiB): not read at all
    (b'{"action": "team", "lead": "Cy", "supporters": [["Ann"]]}', 400,
     "an action is an object of words, not JSON nested 4 deep"),
    (b'{"action": "line", "line": "status", "pad": "' + b"x" * 100000 + b'"}', 413, None),
])
def test_json_nested_deep_or_too_big_is_refused_in_words(table, raw, status, words):
    got, answer = table.post(None, raw=raw)
    assert got == status, answer
    if words:
        assert answer["lines"] == [words]
    assert table.post({"action": "line", "line": "shadow"})[0] == 200


# -- 7. connections -----------------------------------------------------------------------------------------------
def closed(sock, within):
    """True when the server closes ``sock`` (whatever it says first) within ``within`` seconds."""
    sock.settimeout(within)
    try:
        while sock.recv(4096):
            pass
        return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def test_idle_connections_give_way_to_the_gm_and_are_closed(table):
    port, most = table.server.port, LIMITS.connections
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(200)]
    try:
        time.sleep(0.3)
        assert len(table.server.gate.open) <= most
        started = time.monotonic()
        status, answer = line(table, "shadow")  # the GM's action while 200 sockets are open
        assert status == 200 and answer["lines"][0].startswith("Shadow: ")
        assert time.monotonic() - started < 2
        end = time.monotonic() + LIMITS.idle + 5
        shut = sum(closed(s, max(0.05, end - time.monotonic())) for s in idle)
        assert shut == len(idle), "%d of %d idle connections closed within %g s" % (shut, len(idle), LIMITS.idle + 5)
    finally:
        for s in idle:
            s.close()


def test_a_slow_sender_is_cut_off(table):
    """A slowloris: a header line a byte at a time; and a body that does not come."""
    port = table.server.port
    slow = socket.create_connection(("127.0.0.1", port))
    started = time.monotonic()
    slow.sendall(b"GET /api/table HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port)
    gone = False
    while not gone and time.monotonic() - started < LIMITS.idle + 5:
        try:
            slow.sendall(b"X")
        except OSError:
            gone = True
        gone = gone or closed(slow, 0.2)
    assert gone, "a header sent a byte at a time kept its connection %g s" % (time.monotonic() - started)
    slow.close()
    body = socket.create_connection(("127.0.0.1", port))
    body.sendall(b"POST /api/action HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nCookie: %s=%s\r\n"
                 b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{" % (
                     port, table.server.access.cookie.encode(), table.server.token.encode()))
    body.settimeout(LIMITS.body + 5)
    reply = body.recv(4096).decode()
    body.close()
    assert reply.startswith("HTTP/1.1 408 ") and "the action did not arrive within 1 s" in reply


def test_event_streams_are_capped(table):
    streams = [table.open("events", timeout=10) for _ in range(LIMITS.streams)]
    try:
        for s in streams:
            assert s.readline().startswith(b"data: ")
        status, _, text = get(table.url + "events", cookie(table))
        assert (status, text) == (503, "the table's page has 2 event streams open (one for each open page): "
                                       "close one\n")
    finally:
        for s in streams:
            s.close()


# -- the table at a terminal ------------------------------------------------------------------------------------
def test_odd_text_or_deep_json_from_the_page_never_ends_the_table_nor_reaches_its_terminal(tmp_path):
    from tests.host.conftest import Terminal
    from tests.host.web.test_cli import free_port

    port = free_port()
    gm = Terminal("table", "--sim", "1", "--seed", "4", "--dir", str(tmp_path), "--web-port", str(port))
    url = "http://127.0.0.1:%d/" % port
    try:
        gm.until("live table page: " + url)
        token = re.match(r"\?token=([\w-]+)\s", gm.until("table> ")).group(1)

        def post(raw):
            return get(url + "api/action?token=" + token, {"Content-Type": "application/json"}, data=raw)[0]

        assert post(b'{"action": "line", "line": "\\ud800"}') == 400
        assert post(b'{"action": "line", "line": "status \\u001b[2J"}') == 400
        assert post(b"[" * 30000 + b"]" * 30000) == 400
        assert post(b"[" * 100000 + b"]" * 100000) == 413
        assert post(b'{"action": "line", "line": "shadow"}') == 200
        seen = gm.until("(page) shadow")
        assert gm.proc.poll() is None
        assert "Traceback" not in seen and "\x1b[2J" not in seen and "RecursionError" not in seen
        assert "POST /api/action 400" in (tmp_path / "web.log").read_text()
        gm.type("quit")
        assert gm.proc.wait(timeout=30) == 0
    finally:
        gm.close()

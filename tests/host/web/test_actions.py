"""The live table page over plain HTTP (no browser): the GM's actions run
the console's commands on the hub's thread and answer in its words; refusals
are the console's sentences and change nothing; the view, the event stream
and the screens are what the page shows. tests/host/web/test_browser.py
opens it in Chromium."""

import csv
import io
import json
import re
import socket
import urllib.error
import urllib.request

import pytest

from host_tools.console.core import TableConsole, make_console
from host_tools.table.hub import TableHub
from host_tools.commands.table import start_page
from host_tools.web.server import qr_code
from tests.host.web.web_table import flip_to_the_end, live_table, press_flip

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    with live_table(tmp_path_factory.mktemp("web")) as t:
        yield t


def test_the_view_shows_four_players_with_their_state_and_the_table(table):
    v = table.view()
    assert [p["name"] for p in v["players"]] == ["Ann", "Bo", "Cy", "Di"]
    for p in v["players"]:
        assert p["connection"] == "ok" and p["known"]
        assert p["draw"] == 20 and p["xp"] == 0 and p["edition"] == "md"
        assert p["screen"], "each player's screen is read"
    assert v["shadow"]["left"] == v["shadow"]["earned"] - v["shadow"]["spent"]
    assert v["supply"]["blessings"] and v["supply"]["wounds"]


def test_a_flip_from_the_page_reaches_the_device_and_answers_in_the_consoles_words(table):
    before = table.on_hub(lambda hub: hub.player("Ann").link.state()["discard"])
    status, answer = table.post({"action": "flip", "player": "Ann", "attr": "dex", "net": 1})
    assert status == 200 and answer["ok"], answer
    assert answer["line"] == "flip Ann dex +1"
    assert answer["lines"][0].startswith("Ann flips Dexterity (")
    assert any("resolves it: " in line for line in answer["lines"])
    after = table.on_hub(lambda hub: hub.player("Ann").link.state())  # the device itself, not the mirror
    assert after["discard"] > before
    v = table.player("Ann")
    assert v["flips"][0]["source"] == "host" and v["flips"][0]["word"] in ("MISS", "PARTIAL", "SUCCESS", "TRIUMPH")


def test_a_flip_from_the_page_carries_its_reason_into_the_record(table):
    """Issue 27: the page's flip says why; the player's last flips and the history show it."""
    status, answer = table.post({"action": "flip", "player": "Bo", "attr": "str", "reason": "Bo's rope holds"})
    assert status == 200 and answer["ok"], answer
    assert table.player("Bo")["flips"][0]["reason"] == "Bo's rope holds"
    with table.open("api/history?player=Bo", timeout=10) as f:
        texts = [e["text"] for e in json.load(f)["entries"]]
    assert sum(t.endswith(' for "Bo\'s rope holds"') for t in texts) == 2  # the flip and its end


def test_an_ask_from_the_page_is_on_the_device_and_its_decline_in_the_history(table):
    """Issue 27: the GM asks from the page; the device shows it; C declines, and the history says so."""
    status, answer = table.post({"action": "ask", "player": "Cy", "attr": "int", "net": -1, "reason": "read the runes"})
    assert status == 200 and answer["ok"], answer
    assert " ".join(" ".join(answer["lines"]).split()) == (
        'asked Cy to flip Int -1 for "read the runes" (on their device: B flips, C declines)')
    status, answer = table.post({"action": "press", "player": "Cy", "button": "C"})
    assert status == 200 and answer["ok"], answer
    with table.open("api/history?player=Cy", timeout=10) as f:
        texts = [e["text"] for e in json.load(f)["entries"]]
    assert texts[0] == "declines the GM's ask (buttons) for \"read the runes\" (as the GM asked)"
    assert texts[1] == 'asked by the GM to flip Intelligence -1 for "read the runes"'


def test_damage_blessing_and_wound_from_the_page_change_the_device(table):
    status, answer = table.post({"action": "damage", "player": "Bo", "power": 2})
    assert status == 200, answer
    assert answer["lines"][0].startswith("Bo takes 2 damage")
    assert table.player("Bo")["exhaustion"] == 2
    status, answer = table.post({"action": "blessing", "player": "Bo"})
    assert status == 200, answer
    status, answer = table.post({"action": "wound", "player": "Bo"})
    assert status == 200, answer
    bo = table.player("Bo")
    assert len(bo["blessings"]) == 1 and len(bo["wound_cards"]) == 1 and bo["wound_tokens"] == 1
    supply = table.view()["supply"]
    assert bo["blessings"][0] not in supply["blessings"] and bo["wound_cards"][0] not in supply["wounds"]


def test_a_refused_action_says_the_consoles_sentence_and_changes_nothing(table):
    before = table.view()
    status, answer = table.post({"action": "damage", "player": "Zed", "power": 4})
    assert status == 422 and not answer["ok"]
    assert answer["lines"] == ["no player named 'Zed' (at the table: Ann, Bo, Cy, Di)"]
    status, answer = table.post({"action": "shadow_spend", "points": 99})
    assert status == 422
    assert answer["lines"] == ["only %d Shadow points available" % before["shadow"]["left"]]
    after = table.view()
    assert after["shadow"] == before["shadow"]
    assert [p["draw"] for p in after["players"]] == [p["draw"] for p in before["players"]]


def test_a_request_that_is_not_an_action_is_refused_in_words(table):
    status, answer = table.post(None, raw=b"flip Ann")
    assert status == 400 and answer["lines"] == ["send the action as JSON"]
    status, answer = table.post({"action": "dance", "player": "Ann"})
    assert status == 400 and answer["lines"][0].startswith('unknown action "dance"')
    status, answer = table.post({"action": "line", "line": "quit"})
    assert status == 400 and "closed at the console" in answer["lines"][0]
    status, answer = table.post({"action": "flip", "player": {"name": "Ann"}})
    assert status == 400 and answer["lines"] == ['player must be a word or a whole number, not {"name": "Ann"}']
    status, answer = table.post({"action": "damage", "player": "Cy", "power": "lots"})
    assert status == 400 and answer["lines"] == ['power must be a whole number, not "lots"']


def test_only_the_tables_own_page_may_act(table):
    """Another site open in the GM's browser cannot act: a plain form post
    (no JSON) and a request from another origin are refused, and nothing
    changes."""
    before = table.player("Ann")
    body = json.dumps({"action": "line", "line": "newgame Ann yes"}).encode()
    status, answer = table.post(None, raw=body, headers={"Content-Type": "text/plain"})
    assert status == 415 and answer["lines"] == ["send the action as JSON (Content-Type: application/json)"]
    status, answer = table.post(None, raw=body, headers={"Content-Type": "application/json",
                                                         "Origin": "http://evil.example"})
    assert status == 403 and answer == "the table's page takes requests from its own page only, not from " \
                                       "http://evil.example\n"
    own = table.url.rstrip("/")
    status, answer = table.post(None, raw=json.dumps({"action": "line", "line": "shadow"}).encode(),
                                headers={"Content-Type": "application/json", "Origin": own})
    assert status == 200, answer
    after = table.player("Ann")
    assert (after["draw"], after["discard"], after["flips"]) == (before["draw"], before["discard"], before["flips"])


def test_a_console_line_runs_from_the_page(table):
    status, answer = table.post({"action": "line", "line": "shadow"})
    assert status == 200 and answer["lines"][0].startswith("Shadow: ")
    status, answer = table.post({"action": "line", "line": "frobnicate Ann"})
    assert status == 400 and answer["lines"] == ["unknown command 'frobnicate': type help for the list"]


def test_a_teamwork_flip_from_the_page(table):
    status, answer = table.post({"action": "team", "lead": "Cy", "supporters": ["Ann", "Di"], "attr": "str"})
    assert status == 200, answer
    assert answer["lines"][0].startswith("teamwork led by Cy: ")
    v = table.view()
    assert v["teamwork"]["recent"][0].startswith("Cy leads, with Ann, Di: resolved by ")
    assert not v["teamwork"]["in_progress"]


def test_a_button_flip_on_a_board_reaches_the_view(table):
    flips = len(table.player("Di")["flips"])
    screen, _ = table.on_hub(lambda hub: press_flip(hub, "Di"))
    v = table.wait_view(lambda v: len(next(p for p in v["players"] if p["name"] == "Di")["flips"]) > flips)
    di = next(p for p in v["players"] if p["name"] == "Di")
    assert di["flips"][0]["source"] == "buttons"


def test_the_event_stream_sends_the_view_at_once(table):
    with table.open("events", timeout=10) as f:
        assert f.headers["Content-Type"].startswith("text/event-stream")
        line = f.readline().decode()
    assert line.startswith("data: ")
    assert [p["name"] for p in json.loads(line[6:])["players"]] == ["Ann", "Bo", "Cy", "Di"]


def test_the_screen_is_the_panels_pixels(table):
    from PIL import Image

    with table.open("screen/Ann.png", timeout=10) as f:
        img = Image.open(io.BytesIO(f.read()))
    assert img.size == (296 * 2, 128 * 2)
    try:
        table.open("screen/Zed.png", timeout=10)
        raise AssertionError("a screen of nobody was served")
    except urllib.error.HTTPError as e:
        assert e.code == 404


def test_another_interface_is_served_only_with_a_warning_and_a_taken_port_falls_back(tmp_path):
    hub = TableHub(str(tmp_path / "s.db"))
    text = io.StringIO()
    out = make_console(file=text, width=200)
    console = TableConsole(hub, out, str(tmp_path))
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    taken = busy.getsockname()[1]
    servers = []
    try:
        servers.append(start_page(console, "127.0.0.1", taken, out))
        assert servers[0].port != taken
        assert "cannot listen on 127.0.0.1 port %d" % taken in text.getvalue()
        assert "live table page: http://127.0.0.1:%d/" % servers[0].port in text.getvalue()
        assert "anyone on that network" not in text.getvalue()
        servers.append(start_page(console, "0.0.0.0", 0, out))
        assert "warning: the page is served on 0.0.0.0: anyone on that network who has its URL (the token in it) " \
               "can act as the GM. On a phone there: http://" in text.getvalue()
        phone = re.search(r"On a phone there: (http://[\d.]+:%d/\?token=%s)\n" % (servers[1].port, servers[1].token),
                          text.getvalue()).group(1)
        assert qr_code(phone) in text.getvalue(), "and its QR code, for the phone's camera"
    finally:
        busy.close()
        for s in servers:
            if s is not None:
                s.stop()
        hub.close()


@pytest.mark.parametrize("make, word, text", [
    (lambda p: setattr(p, "faulty", "sent a state with no digest"), "faulty", "faulty: sent a state with no digest"),
    (lambda p: setattr(p, "question", {"text": "Ann's port has another device: d2 (game g, 3 commands), not d1"}),
     "question", "Ann's port has another device: d2 (game g, 3 commands), not d1"),
    (lambda p: (setattr(p, "online", False), setattr(p, "error", "/dev/ttyACM0: no reply")), "offline",
     "/dev/ttyACM0: no reply"),
    (lambda p: (setattr(p, "link", None), setattr(p, "error", "left out: restore Ann onto a device to play on")),
     "none", "left out: restore Ann onto a device to play on"),
])
def test_a_devices_connection_is_shown_in_the_hubs_words(make, word, text):
    from host_tools.table.hub import Player
    from host_tools.web.view import player_view

    p = Player("Ann", "/dev/ttyACM0", link=object())
    p.online = True
    assert player_view(p, {}, None)["connection"] == "ok"
    make(p)
    v = player_view(p, {}, None)
    assert (v["connection"], v["connection_text"]) == (word, text)
    assert not v["known"] and v["flips"] == []


def _digest(table, name):
    """The device's own state digest (not the hub's mirror)."""
    return table.on_hub(lambda hub: hub.player(name).link.state()["digest"])


def test_undo_from_the_page_asks_first_then_puts_the_device_back_and_the_history_shows_it(table):
    start = _digest(table, "Ann")
    flip_to_the_end(table, "Ann")  # a -k selection of this module drew card 11, a critical success
    flipped = _digest(table, "Ann")
    status, answer = table.post({"action": "undo", "player": "Ann"})
    assert status == 200 and answer["line"] == "undo Ann", answer
    assert answer["lines"] == ["this would put %s; type undo Ann yes to do it" % answer["undo"]["text"]]
    assert answer["undo"]["text"] == "Ann back to before flip"  # no entry number: it means nothing to a GM
    assert _digest(table, "Ann") == flipped, "asking changed nothing"
    status, done = table.post({"action": "undo", "player": "Ann", "confirm": True, "entry": answer["undo"]["entry"]})
    assert status == 200 and done["line"] == "undo Ann yes entry=%d" % answer["undo"]["entry"], done
    assert done["lines"] == ["undone: %s" % answer["undo"]["text"]]
    assert _digest(table, "Ann") == start
    assert table.player("Ann")["flips"][0]["undone"]
    with table.open("api/history?player=Ann", timeout=10) as f:
        history = json.load(f)
    assert history["entries"][0]["text"] == "undo: back to before flip"
    assert any(e["undone"] and e["op"] == "end_flip" for e in history["entries"][1:])


def test_an_undo_confirmed_after_the_player_acted_again_is_refused_and_changes_nothing(table):
    table.post({"action": "flip", "player": "Bo", "attr": "dex"})
    status, asked = table.post({"action": "undo", "player": "Bo"})
    assert status == 200, asked
    table.post({"action": "flip", "player": "Bo", "attr": "int"})  # between the question and the confirm
    now = _digest(table, "Bo")
    status, answer = table.post({"action": "undo", "player": "Bo", "confirm": True, "entry": asked["undo"]["entry"]})
    assert status == 422 and not answer["ok"]
    said = " ".join(" ".join(answer["lines"]).split())  # one sentence, wrapped as the console wraps it
    assert said == "Bo has acted since that undo was shown: it would now put Bo back to before flip; ask again"
    assert _digest(table, "Bo") == now


@pytest.mark.parametrize("body, status, words", [
    ({"action": "undo", "player": "Zed"}, 422, "no player named 'Zed' (at the table: Ann, Bo, Cy, Di)"),
    ({"action": "undo", "player": "Cy", "confirm": True}, 400, "undo: confirm with the entry that was shown, e.g. "),
    ({"action": "undo", "player": "Cy", "confirm": True, "entry": "last"}, 400, "undo: confirm with the entry "),
    ({"action": "undo", "player": "Cy", "confirm": "yes", "entry": 3}, 400, 'undo: confirm is true or false, not "yes"'),
])
def test_a_bad_undo_is_refused_in_a_sentence_and_changes_nothing(table, body, status, words):
    before = {n: _digest(table, n) for n in ("Cy", "Di")}
    got, answer = table.post(body)
    assert got == status and not answer["ok"]
    assert " ".join(" ".join(answer["lines"]).split()).startswith(words)
    assert {n: _digest(table, n) for n in ("Cy", "Di")} == before


def _get(table, path):
    """(status, headers, body text) of a GET."""
    try:
        with table.open(path, timeout=30) as f:
            return f.status, f.headers, f.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode()


def test_the_record_downloads_in_each_format_by_the_same_writer_as_replay_export(table, tmp_path, capsys):
    from host_tools.cli import main

    table.post({"action": "flip", "player": "Di", "attr": "dex"})
    status, headers, md = _get(table, "record.md")
    assert status == 200 and headers["Content-Type"].startswith("text/markdown")
    assert re.fullmatch(r'attachment; filename="deckahedron-record-\d{4}-\d\d-\d\d\.md"', headers["Content-Disposition"])
    assert md.startswith("# Session record") and "**Di** ends the flip (" in md and "resolved by" in md
    status, headers, text = _get(table, "record.csv?player=Bo")
    assert status == 200 and headers["Content-Disposition"].endswith('-Bo.csv"')
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and {r["player"] for r in rows} == {"Bo"}
    status, headers, text = _get(table, "record.json?player=Ann")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    served = json.loads(text)
    assert served and {e["player"] for e in served} == {"Ann"}
    path = table.on_hub(lambda hub: hub.db.execute("PRAGMA database_list").fetchone()[2])
    assert main(["replay", path, "--export", "json", "--player", "Ann"]) == 0
    assert json.loads(capsys.readouterr().out) == served


@pytest.mark.parametrize("path, words", [
    ("record.pdf", "export format is md, csv or json, not 'pdf'"),
    ("record.md?player=Zed", "no player named 'Zed' in the session record (Ann, Bo, Cy, Di)"),
    ("api/history?player=Zed", "no player named 'Zed' in the session record (Ann, Bo, Cy, Di)"),
])
def test_an_export_or_history_of_nobody_or_in_no_format_is_a_404_with_a_sentence(table, path, words):
    status, _, text = _get(table, path)
    assert status == 404
    assert (json.loads(text)["error"] if path.startswith("api/") else text.strip()) == words


def test_the_history_is_filtered_by_player_and_leaves_out_bookkeeping(table):
    everyone = json.loads(_get(table, "api/history")[2])
    assert everyone["players"] == ["Ann", "Bo", "Cy", "Di"]
    assert {e["player"] for e in everyone["entries"]} == {"Ann", "Bo", "Cy", "Di"}
    assert not [e for e in everyone["entries"] if e["op"] in ("supply_sync", "press")]
    ids = [e["id"] for e in everyone["entries"]]
    assert ids == sorted(ids, reverse=True), "newest first"
    bo = json.loads(_get(table, "api/history?player=Bo")[2])
    assert bo["player"] == "Bo" and bo["entries"] and {e["player"] for e in bo["entries"]} == {"Bo"}
    assert [e for e in everyone["entries"] if e["player"] == "Bo"] == bo["entries"][:len(
        [e for e in everyone["entries"] if e["player"] == "Bo"])]

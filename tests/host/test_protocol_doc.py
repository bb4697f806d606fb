"""docs/protocol.md stays in step with shared_rules/protocol.py and Game.COMMANDS.

The doc's machine-checked parts:
- the "Limits" table: `VERSION`, `MAX_LINE`, `CHUNK`, `MAX_ID` with their values;
- the "Error codes" table: every protocol.LINK_ERRORS code;
- the "App ops" and "Rules commands" tables: exactly APP_OPS and Game.COMMANDS,
  each rules command's row naming every argument of its method;
- ```frames blocks: every line is a frame that protocol.decode accepts (and
  every Q frame names a real op); ```damaged blocks: every line is rejected.
"""

import inspect
import re
from pathlib import Path

import pytest

from shared_rules import protocol as P
from shared_rules.deck.game import Game

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


@pytest.fixture(scope="module")
def doc():
    assert DOC.exists(), "docs/protocol.md is missing"
    return DOC.read_text(encoding="utf-8")


def sections(text):
    """{heading text: body} for every ## and ### heading."""
    out = {}
    name, lines = None, []
    for line in text.splitlines():
        m = re.match(r"^#{2,3} (.+?)\s*$", line)
        if m:
            if name is not None:
                out[name] = "\n".join(lines)
            name, lines = m.group(1), []
        else:
            lines.append(line)
    if name is not None:
        out[name] = "\n".join(lines)
    return out


def table_rows(body):
    """Rows of the markdown tables in body as lists of cells (header and rule rows skipped)."""
    rows = []
    for line in body.splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if all(re.match(r"^:?-+:?$", c) for c in cells):
            continue
        rows.append(cells)
    return rows[1:] if rows else rows  # the first row is the header


def first_cell_names(body):
    names = []
    for cells in table_rows(body):
        m = re.match(r"^`([A-Za-z_]+)`$", cells[0])
        assert m, "a table row should start with a `name` cell: %r" % (cells,)
        names.append(m.group(1))
    return names


def fenced(text, lang):
    return re.findall(r"^```%s\n(.*?)^```" % re.escape(lang), text, flags=re.M | re.S)


def section(doc, name):
    s = sections(doc)
    assert name in s, "docs/protocol.md has no section %r (it has: %s)" % (name, ", ".join(s))
    return s[name]


def test_limits_match_the_code(doc):
    rows = {}
    for cells in table_rows(section(doc, "Limits")):
        rows[cells[0].strip("`")] = cells[1]
    for name in ("VERSION", "MAX_LINE", "CHUNK", "MAX_ID"):
        assert name in rows, "the Limits table lacks %s" % name
        assert rows[name] == str(getattr(P, name)), \
            "docs/protocol.md says %s = %s, shared_rules/protocol.py says %s" % (name, rows[name], getattr(P, name))


def test_every_link_error_code_is_documented(doc):
    codes = first_cell_names(section(doc, "Error codes"))
    missing = [c for c in P.LINK_ERRORS if c not in codes]
    assert not missing, "error codes missing from docs/protocol.md: %s" % missing
    unknown = [c for c in codes if c not in P.LINK_ERRORS]
    assert not unknown, "docs/protocol.md documents link error codes the code lacks: %s" % unknown


def test_app_ops_table_is_exactly_app_ops(doc):
    ops = first_cell_names(section(doc, "App ops"))
    assert sorted(ops) == sorted(P.APP_OPS), \
        "App ops table: missing %s, not in the code %s" % (
            sorted(set(P.APP_OPS) - set(ops)), sorted(set(ops) - set(P.APP_OPS)))
    assert len(ops) == len(set(ops)), "an app op is listed twice"


def test_rules_table_is_exactly_game_commands(doc):
    body = section(doc, "Rules commands")
    ops = first_cell_names(body)
    assert sorted(ops) == sorted(Game.COMMANDS), \
        "Rules commands table: missing %s, not in the code %s" % (
            sorted(set(Game.COMMANDS) - set(ops)), sorted(set(ops) - set(Game.COMMANDS)))
    assert len(ops) == len(set(ops)), "a rules command is listed twice"
    for cells in table_rows(body):
        op = cells[0].strip("`")
        params = list(inspect.signature(Game.command_function(op)).parameters)[1:]  # self, or the Game
        documented = set(re.findall(r"`([A-Za-z_]+)`", cells[1]))
        for name in params:
            assert name in documented, "docs/protocol.md: %s's arguments should name `%s`" % (op, name)
        extra = documented - set(params)
        assert not extra, "docs/protocol.md: %s lists arguments it does not take: %s" % (op, sorted(extra))


def test_no_op_in_the_doc_that_the_code_lacks(doc):
    known = set(P.APP_OPS) | set(Game.COMMANDS)
    for name in ("App ops", "Rules commands"):
        for op in first_cell_names(section(doc, name)):
            assert op in known, "docs/protocol.md documents op %r that the code lacks" % op
    for block in fenced(doc, "frames"):
        for line in block.splitlines():
            kind, _, payload = P.decode(line)
            if kind == "Q":
                assert payload[0] in known, "example request uses unknown op %r: %s" % (payload[0], line)
    for m in re.finditer(r"deckahedron do --port \S+ ([a-z_]+)", doc):
        assert m.group(1) in known, "example command uses unknown op %r" % m.group(1)


def test_every_example_frame_decodes(doc):
    blocks = fenced(doc, "frames")
    assert blocks, "docs/protocol.md has no ```frames example blocks"
    kinds = set()
    count = 0
    for block in blocks:
        for line in block.splitlines():
            assert line.strip(), "blank line inside a ```frames block"
            try:
                kind, num, payload = P.decode(line)
            except P.FrameError as e:
                pytest.fail("example frame does not decode (%s): %s" % (e.code, line))
            assert P.decode(line + "\n") == (kind, num, payload)
            assert len(line) + 1 <= P.MAX_LINE, "example frame longer than MAX_LINE: %s" % line
            kinds.add(kind)
            count += 1
    assert kinds == set(P.TYPES), "examples should show every frame type, missing %s" % (set(P.TYPES) - kinds)
    assert count >= 10


def test_every_damaged_example_is_rejected(doc):
    blocks = fenced(doc, "damaged")
    assert blocks, "docs/protocol.md has no ```damaged example block"
    for block in blocks:
        for line in block.splitlines():
            with pytest.raises(P.FrameError):
                P.decode(line)


def test_examples_show_a_zero_id_reply_and_the_retry_story(doc):
    lines = [l for b in fenced(doc, "frames") for l in b.splitlines()]
    assert any(P.decode(l)[:2] == ("R", 0) for l in lines), "show an R 0 err example"
    for word in ("same id", "remembered", "replay", "hello", "reconnect"):
        assert word in doc.lower(), "docs/protocol.md should explain %r" % word

"""The errors' sentences taken out of the code of a board that loads its
modules into RAM (host_tools/flashing/messages.py): a player and the hub
read the same words as from the source, on MicroPython, and what is not a
sentence stays in the code."""

import subprocess
import sys

import pytest

from host_tools.flashing import files
from host_tools.flashing.messages import IMPORT, PATH, Messages
from host_tools.sim.unixport import find_micropython

# Errors a board raises for a player's or the hub's bad input, across the
# rules, the wire format and the systems' games.
TRIES = r"""
from shared_rules.deck import cards as C
from shared_rules.deck.game import Game
from shared_rules import protocol as P
from shared_rules import systems

def game():
    return Game.new(seed=1)

TRIES = (
    lambda: C.card("zz"),
    lambda: C.suit_index("spade"),
    lambda: game().do("flip", {"attr": "charm"}),
    lambda: game().do("dance", {}),
    lambda: game().do("damage", {"power": -1}),
    lambda: game().do("breather", {"tokens": 9}),
    lambda: game().do("gear_add", {"name": ""}),
    lambda: P.decode("not a frame"),
    lambda: systems.check_system("chess"),
)
for t in TRIES:
    try:
        t()
        print("no error")
    except Exception as e:
        print(type(e).__name__, getattr(e, "code", "-"), str(e))
"""


def test_every_sentence_comes_back_word_for_word_on_micropython(tmp_path):
    """The CircuitPython Pico's modules as the flasher takes them, run as
    source on the unix port with their messages.txt: each error reads as
    the untouched source's does on CPython."""
    mp = find_micropython()
    if mp is None:
        pytest.skip("no micropython command: `make setup` installs it")
    taken = Messages()
    for s in files.device_files("pico-epaper29-cp"):
        out = tmp_path / s.board_path
        out.parent.mkdir(parents=True, exist_ok=True)
        text = s.local.read_text(encoding="utf-8")
        out.write_text(text if s.entry or not s.board_path.endswith(".py") else taken.take(text, s.board_path))
    (tmp_path / PATH).write_bytes(taken.file())
    assert len(taken.texts) > 200
    assert "_m(" in (tmp_path / "shared_rules/deck/cards.py").read_text()
    (tmp_path / "tries.py").write_text(TRIES)
    on_board = subprocess.run([mp, "tries.py"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    source = subprocess.run([sys.executable, "-c", TRIES], cwd=files.ROOT, capture_output=True, text=True, timeout=60)
    assert on_board.returncode == 0, on_board.stdout + on_board.stderr
    said = on_board.stdout.splitlines()
    assert said == source.stdout.splitlines()
    assert len(said) == 9 and "no error" not in said and all(len(line.split(" ", 2)[2]) > 10 for line in said)


def test_codes_short_texts_and_f_strings_stay_in_the_code():
    source = '''"""A module."""

@decorated
def f(x):
    if x:
        raise RulesError("bad_thing_here_at_all", "a sentence long enough to take: %r" % (x,))
    raise ValueError("too short " + f"{x} is in an f-string and stays")
'''
    taken = Messages()
    out = taken.take(source, "m.py")
    assert taken.texts == ["a sentence long enough to take: %r"]
    assert 'RulesError("bad_thing_here_at_all", _m(0, 34) % (x,))' in out
    assert '"too short "' in out and 'f"{x} is in an f-string and stays"' in out
    assert out.index(IMPORT) + len(IMPORT) == out.index("@decorated")  # after the docstring, before the decorator
    compile(out, "m.py", "exec")


def test_the_same_sentence_is_placed_once_and_a_module_without_any_is_untouched():
    taken = Messages()
    first = 'def f():\n    raise ValueError("the first sentence to be raised")\n'
    twice = 'def f():\n    raise ValueError("the same words in two places")\n'
    taken.take(first, "a.py")
    assert taken.take(twice, "b.py") == IMPORT + 'def f():\n    raise ValueError(_m(32, 28))\n'
    assert taken.take(twice, "c.py") == taken.take(twice, "b.py")
    assert taken.file() == b"the first sentence to be raised\nthe same words in two places\n"
    none = '"""Doc."""\nX = "a sentence that is never raised"\n'
    assert taken.take(none, "d.py") == none


def test_a_missing_messages_file_still_raises_an_error_that_says_where_to_look(tmp_path, monkeypatch):
    from shared_rules import errors

    monkeypatch.chdir(tmp_path)
    assert errors.message(6, 9) == "error at 6 of shared_rules/messages.txt"
    (tmp_path / "shared_rules").mkdir()
    (tmp_path / PATH).write_text("first\nsecond %r\n")
    assert errors.message(6, 9) % ("x",) == "second 'x'"

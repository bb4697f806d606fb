"""shared_rules.systems: which system a save holds, and a new character of
a chosen system (docs/systems.md). Runs on CPython and MicroPython."""

from shared_rules import systems
from shared_rules.errors import RulesError
from shared_rules.deck.game import Game
from tests.rules.support import raises


def raises_code(code, fn, *args):
    e = raises(RulesError, fn, *args)
    assert e.code == code and e.message, (e.code, e.message)
    return e


def test_the_deckahedron_is_the_default_and_its_saves_load_as_before():
    g = systems.new(systems.DEFAULT, 11)
    assert isinstance(g, Game) and g.SYSTEM == "deck"
    text = g.dump()
    assert systems.system_of(text) == "deck"
    again = systems.load(text)
    assert again.digest() == g.digest() and again.dump() == text


def test_a_new_character_takes_its_systems_options():
    g = systems.new("deck", 3, {"edition_key": "v093", "campaign": "9h"})
    assert g.s.edition == "v093" and g.s.campaign == "9h"
    assert g.digest() == Game.new(seed=3, edition_key="v093", campaign="9h").digest()


def test_an_unknown_system_or_option_is_refused_with_a_sentence():
    raises_code("bad_system", systems.new, "dice", 1)
    raises_code("bad_system", systems.new, ["deck"], 1)  # not a word at all
    raises_code("bad_args", systems.new, "deck", 1, {"colour": "red"})
    raises_code("bad_system", systems.name, None)


def test_text_no_system_wrote_is_a_bad_save():
    for text in ("", "hello\n", "facets 99\ncheck 0\n", 5):
        raises_code("bad_save", systems.load, text)


def test_a_result_names_its_system_only_when_not_the_default():
    g = systems.new("deck", 1)
    assert "system" not in systems.stamp(g, {"events": []})

    class Other:
        SYSTEM = "other"

    assert systems.stamp(Other(), {})["system"] == "other"


def test_every_system_is_named():
    for key in systems.KEYS:
        assert systems.name(key) and systems.game_class(key).SYSTEM == key
    assert "deck" in raises_code("bad_system", systems.check_system, "deckahedron").message

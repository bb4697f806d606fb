"""The resolution systems a device can play, and which one a save holds:
the one registry of systems, for every layer.

A system is a key, and its code lives in folders named by the key's folder
(``folder(key)``): ``shared_rules/<folder>/game.py`` holds its class
``Game`` with one contract (docs/systems.md): ``new``, ``load``, ``dump``,
``digest``, ``do``, ``COMMANDS``, ``summary``, ``odds_query``, and a text
form whose first line names it; ``shared_rules/<folder>/words.py`` says its
results and state in words (``describe``, ``say``, ``summary_problem``).
Only the played system is imported, so a board pays heap for one at a time.
"""

from shared_rules.errors import RulesError

DEFAULT = "deck"
# key (on the wire and in saves) -> (its folder in every layer, first line
# of its text form, name a person reads, whether its players share the
# table's supply cards, the GM's Shadow points and teamwork flips); a system
# is added by a row here, one in KEYS and its folders (docs/systems.md).
SYSTEMS = {
    "deck": ("deck", "deckahedron-state 1", "Deckahedron", True),
    "facets": ("facets", "facets 1", "Facets", False),
    "save": ("save2d6", "save2d6 1", "SAVE 2d6", False),
}
KEYS = ("deck", "facets", "save")  # the order menus offer them


def check_system(key):
    if not isinstance(key, str) or key not in SYSTEMS:
        raise RulesError("bad_system", "system must be one of %s" % ", ".join(KEYS))
    return key


def name(key):
    return SYSTEMS[check_system(key)][2]


def folder(key):
    """The folder of system ``key`` in every layer (``save`` is save2d6)."""
    return SYSTEMS[check_system(key)][0]


def module(key, part="game"):
    """Module ``part`` of system ``key``, e.g. ``module("facets", "words")``
    is shared_rules.facets.words (imported on first use)."""
    # with a fromlist, __import__ gives the module itself, not the package
    return __import__("shared_rules.%s.%s" % (folder(key), part), None, None, [part])


def game_class(key):
    return module(key).Game


def system_of(text):
    """The system whose save ``text`` is, from its first line; RulesError
    ('bad_save') for text no system wrote."""
    if not isinstance(text, str):
        raise RulesError("bad_save", "saved state must be text")
    end = text.find("\n")
    first = text if end < 0 else text[:end]
    for key in KEYS:
        if SYSTEMS[key][1] == first:
            return key
    raise RulesError("bad_save", "not a saved game of any system this device plays (or an unknown version)")


def load(text):
    """The game a text form holds, whichever system wrote it."""
    return game_class(system_of(text)).load(text)


def stamp(game, result):
    """A command's result names its system when it is not the default, so
    the host reads it in that system's words (record, console, page)."""
    if game.SYSTEM != DEFAULT:
        result["system"] = game.SYSTEM
    return result


def new(key, seed=0, options=None):
    """A new character of system ``key``; ``options`` are that system's
    (the Deckahedron's: edition_key, campaign, supply_set, attrs)."""
    cls = game_class(key)
    try:
        return cls.new(seed=seed, **(options or {}))
    except TypeError as e:  # an option that system does not have
        raise RulesError("bad_args", "wrong options for a new %s character: %s" % (name(key), e))

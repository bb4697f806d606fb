"""The resolution systems a device can play, and which one a save holds.

A system is a game class with one contract (docs/systems.md): ``new``,
``load``, ``dump``, ``digest``, ``do``, ``COMMANDS``, ``summary``,
``odds_query``, and a text form whose first line names it. The Deckahedron
is the default; the others are imported only when a device plays them, so a
board pays heap for one system at a time.

A system's module also says its state in words for the host
(``describe(summary)``, ``say(op, args, result)``, ``summary_problem``).
"""

from shared_rules.errors import RulesError

DEFAULT = "deck"
# key -> (module, class, first line of its text form, name a person reads);
# a system is added by a row here, one in KEYS and its UI module in
# firmware/app.py's UI_MODULES (docs/systems.md).
SYSTEMS = {
    "deck": ("shared_rules.game", "Game", "deckahedron-state 1", "Deckahedron"),
    "facets": ("shared_rules.facets", "FacetsGame", "facets 1", "Facets"),
    "save": ("shared_rules.save2d6", "SaveGame", "save2d6 1", "SAVE 2d6"),
}
KEYS = ("deck", "facets", "save")  # the order menus offer them


def check_system(key):
    if not isinstance(key, str) or key not in SYSTEMS:
        raise RulesError("bad_system", "system must be one of %s" % ", ".join(KEYS))
    return key


def name(key):
    return SYSTEMS[check_system(key)][3]


def module(key):
    """The module holding system ``key`` (imported on first use)."""
    path = SYSTEMS[check_system(key)][0]
    mod = __import__(path)
    for part in path.split(".")[1:]:
        mod = getattr(mod, part)
    return mod


def game_class(key):
    return getattr(module(key), SYSTEMS[key][1])


def system_of(text):
    """The system whose save ``text`` is, from its first line; RulesError
    ('bad_save') for text no system wrote."""
    if not isinstance(text, str):
        raise RulesError("bad_save", "saved state must be text")
    end = text.find("\n")
    first = text if end < 0 else text[:end]
    for key in KEYS:
        if SYSTEMS[key][2] == first:
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


def all_commands():
    """Every op any system takes (the host's ``do`` command checks names)."""
    ops = []
    for key in KEYS:
        for op in game_class(key).COMMANDS:
            if op not in ops:
                ops.append(op)
    return tuple(ops)


def new(key, seed=0, options=None):
    """A new character of system ``key``; ``options`` are that system's
    (the Deckahedron's: edition_key, campaign, supply_set, attrs)."""
    cls = game_class(key)
    try:
        return cls.new(seed=seed, **(options or {}))
    except TypeError as e:  # an option that system does not have
        raise RulesError("bad_args", "wrong options for a new %s character: %s" % (name(key), e))

"""The GM's console: the core (core.py) plus one module per game system,
named for its folder (facets.py, save2d6.py), found by the system's key."""

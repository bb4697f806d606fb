"""The device's screens drawn on the host: the core (core.py), the MicroPython
script it runs (mp_render.py) and one module of documentation scenes per
game system (facets.py, save2d6.py)."""

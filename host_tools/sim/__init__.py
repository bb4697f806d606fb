"""Boards without hardware: the MicroPython unix port (unixport.py) and the
emulated Pico (emulated.py, rp2040js in emu/, CircuitPython's image in
circuitpython.py)."""

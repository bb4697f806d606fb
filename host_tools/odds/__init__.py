"""Exact odds per game system, one module each (found by the system's key);
`deckahedron odds` (host_tools/commands/odds.py) prints them."""

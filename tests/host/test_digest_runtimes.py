"""The text digest (a save's check value, the link's backup check, a game's
id) is the same on every runtime the device code runs on. CircuitPython's
hashlib has no sha256(), only new(name, data): there the digest once fell
back to FNV-1a, so a CircuitPython device's game ids differed from the same
seed elsewhere and every backup from it failed the host's digest check."""

import hashlib
import importlib.util
import sys
import types

import shared_rules.atomic as atomic

TEXTS = ("game 7", "", "deckahedron 1\nseed 3\n" * 40)


def _atomic_with(hashlib_module):
    """shared_rules/atomic.py loaded afresh with `hashlib_module` as hashlib."""
    spec = importlib.util.spec_from_file_location("atomic_on_other_runtime", atomic.__file__)
    module = importlib.util.module_from_spec(spec)
    saved = sys.modules.get("hashlib")
    sys.modules["hashlib"] = hashlib_module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules["hashlib"] = saved
    return module


def _circuitpython_hashlib():
    cp = types.ModuleType("hashlib")
    cp.new = lambda name, data=b"": hashlib.new(name, data)
    return cp


def test_circuitpythons_hashlib_gives_the_same_digest_as_cpythons():
    cp = _atomic_with(_circuitpython_hashlib())
    assert cp.sha256 is not None
    for text in TEXTS:
        assert cp.text_digest(text) == atomic.text_digest(text)
    assert cp.text_digest("game 7")[:8] == "fed76aa4"  # seed 7's game id, as the unix port and the RP2040 say


def test_without_any_hashlib_the_digest_is_fnv_and_still_16_hex_digits():
    bare = _atomic_with(types.ModuleType("hashlib"))
    assert bare.sha256 is None
    got = bare.text_digest("game 7")
    assert got == "6c72585c89c202d6" and got != atomic.text_digest("game 7")

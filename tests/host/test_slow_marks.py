"""The slow marks tests/conftest.py gives by name still name tests: a
renamed or moved test would otherwise slip into `make check` unnoticed."""

import ast
from pathlib import Path

from tests.conftest import SLOW_ELSEWHERE

TESTS = Path(__file__).resolve().parents[1]


def test_every_test_marked_slow_by_name_exists():
    for path, name in SLOW_ELSEWHERE:
        tree = ast.parse((TESTS / path).read_text())
        names = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        assert name in names, "tests/conftest.py marks %s::%s slow, and there is no such test" % (path, name)

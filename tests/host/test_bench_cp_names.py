"""bench/bench_cp_names.py reads what CircuitPython would intern and allocate from a
.mpy: checked on a module compiled here by the mpy-cross the flasher uses."""

import sys
from pathlib import Path

from host_tools.flashing import mpy

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import bench_cp_names as C  # noqa: E402

SOURCE = '''
def greet_player(player_name, *, loudly=False):
    if loudly:
        raise ValueError("a message long enough to stay a string constant")
    return ("first_command_x", "second_command_y"), player_name
'''


def test_a_modules_names_and_string_constants_are_read(tmp_path):
    src = tmp_path / "greet.py"
    src.write_text(SOURCE)
    names, strings = C.read_mpy(mpy.for_circuitpython(mpy.compile_module(src, "greet.py")))
    assert {"greet_player", "player_name", "loudly"} <= set(names)
    assert "a message long enough to stay a string constant" in strings
    assert {"first_command_x", "second_command_y"} <= set(strings)  # a constant tuple's items are str objects


def test_a_string_costs_its_object_and_its_text_in_16_byte_blocks():
    assert C.heap_of_string("x" * 15) == 16 + 16  # 15 characters and the NUL fill one block
    assert C.heap_of_string("x" * 16) == 16 + 32
    assert C.POOL_CLIFF == 1260

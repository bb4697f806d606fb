"""Error messages out of the heap of a board that loads its modules into RAM.

On the routes that copy .mpy files to a board's filesystem (the official
MicroPython image, CircuitPython) every string constant of a module is a
heap object for as long as the module is loaded, and most of the long ones
are the sentences an error carries ("unknown card id 'x': use 1-20, ..."),
which a board needs only when it raises one: ~3.7 KB of CircuitPython's
heap at boot. Before compiling such a route's modules the flasher puts each
of those sentences in one text file beside the rules (PATH, a line each)
and the code reads it back when it raises: ``_m(at, size)``, the sentence's
byte offset and length in the file (``shared_rules.errors.message``), one
seek and one read however late in the file. The player and the hub read
the same words; the source, the unix port and ROMFS images (whose
constants stay in flash) keep the literals.

Only literals inside a ``raise`` statement's expression are taken, and of
those only sentences (a space in them) of MIN_LEN characters or more:
error codes ("bad_suit") stay in the code, and a shorter text costs less
than the call that would fetch it.
"""

import ast
import functools
import re

from shared_rules.errors import MESSAGES

PATH = MESSAGES  # the board path the code reads (shared_rules/errors.py)
MIN_LEN = 20
IMPORT = "from shared_rules.errors import message as _m\n"
# Modules left as they are: the reader itself, and native code (viper), where
# a call in place of a constant is not worth the doubt.
SKIP = ("shared_rules/errors.py",)
NATIVE = ("@micropython.viper", "@micropython.native")


class Messages:
    """The sentences taken from one flash's modules, placed in the file in
    the order met (the same sentence once)."""

    def __init__(self):
        self.texts = []
        self._places = {}
        self._size = 0

    def place(self, text):
        """(byte offset, length) of `text` in the file, added if new."""
        at = self._places.get(text)
        if at is None:
            data = text.encode("utf-8")
            at = self._places[text] = (self._size, len(data))
            self.texts.append(text)
            self._size += len(data) + 1
        return at

    def take(self, source, board_path):
        """`source` (a module's text) with each error sentence replaced by
        ``_m(at, size)`` and the import of ``_m`` put before its first
        statement; the text as it was when there is none."""
        if board_path in SKIP or any(mark in source for mark in NATIVE):
            return source
        found = _spans(source)
        if found is None:
            return source
        spans, first = found
        data = source.encode("utf-8")
        for a, b, text in spans:  # from the end, so the offsets before stay right
            data = data[:a] + b"_m(%d, %d)" % self.place(text) + data[b:]
        return (data[:first] + IMPORT.encode() + data[first:]).decode("utf-8")

    def file(self):
        """messages.txt's bytes: a sentence a line, in the order placed."""
        return "".join(t + "\n" for t in self.texts).encode("utf-8")

    def put(self, files):
        """Add messages.txt to `files` ({board path: bytes}) when a sentence was taken."""
        if self.texts:
            files[PATH] = self.file()


@functools.lru_cache(maxsize=None)
def _spans(source):
    """Where `source`'s error sentences are, found once per text (a release
    or a test makes many flashes of the same modules in one process):
    ((start, end, sentence) in bytes, from the last), and where the import
    goes; None when there is none."""
    tree = ast.parse(source)
    nodes = sorted(_sentences(tree), key=lambda node: (node.lineno, node.col_offset), reverse=True)
    if not nodes:
        return None
    starts = _line_starts(source.encode("utf-8"))
    spans = tuple((starts[n.lineno - 1] + n.col_offset, starts[n.end_lineno - 1] + n.end_col_offset, n.value)
                  for n in nodes)
    return spans, starts[_first_statement(tree).lineno - 1]


def _sentences(tree):
    """The str constants inside raise statements that read as sentences."""
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Raise) or node.exc is None:
            continue
        inside_f = {id(n) for j in ast.walk(node.exc) if isinstance(j, ast.JoinedStr) for n in ast.walk(j)}
        for n in ast.walk(node.exc):
            if (isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in inside_f
                    and len(n.value) >= MIN_LEN and " " in n.value and "\n" not in n.value):
                out.append(n)
    return out


def _line_starts(data):
    return [0] + [m.end() for m in re.finditer(b"\n", data)]


def _first_statement(tree):
    """The module's first statement after its docstring."""
    body = tree.body
    first = body[1] if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(
        body[0].value.value, str) else body[0]
    return min([first] + list(getattr(first, "decorator_list", ())), key=lambda node: node.lineno)

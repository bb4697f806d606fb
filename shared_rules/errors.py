"""The one error type the rules core raises for bad input or an illegal move."""


class RulesError(ValueError):
    """A command that the rules (or its arguments) do not allow.

    ``code`` is a short machine word (``bad_suit``, ``empty_deck`` ...) for the
    wire protocol; ``str(err)`` is a sentence a player understands. A command
    that raises this leaves the game state exactly as it was.
    """

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self):
        return self.message


# Where a board loads its modules into RAM, the flasher takes the sentences
# of the errors raised out of the code into this file, a line each, and the
# code reads its own back when it raises (host_tools/flashing/messages.py).
MESSAGES = "shared_rules/messages.txt"


def message(at, size):
    """The sentence of ``size`` bytes at byte ``at`` of MESSAGES, read when
    an error is raised."""
    try:
        with open(MESSAGES, "rb") as f:
            f.seek(at)
            return f.read(size).decode("utf-8")
    except (OSError, UnicodeError):
        return "error at %d of %s" % (at, MESSAGES)

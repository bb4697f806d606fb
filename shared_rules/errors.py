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

"""The Deckahedron's result words: what the device shows big for a level
(1 MISS .. 4 TRIUMPH) and the note under it. The panel, the console, the
record, the page and the quick reference all say a result with these."""

WORDS = {1: "MISS", 2: "PARTIAL", 3: "SUCCESS", 4: "TRIUMPH"}
NOTES = {1: "GM makes a move", 2: "a little worse; GM +1 Shadow",
         3: "success with a complication", 4: "unfettered success"}


def level_words(level):
    """'SUCCESS (success with a complication)' for a level 1..4."""
    if level in WORDS:
        return "%s (%s)" % (WORDS[level], NOTES[level])
    return "no result yet (level %r)" % (level,)

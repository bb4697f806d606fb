"""SAVE 2d6's result words: what the device shows big for a roll's result
and the note under it, and the words a sentence says it in (the session
record, the console, the odds table). The device imports only this module;
the host's phrasing is words.py beside it."""

WORDS = {"complete": "COMPLETE", "mixed": "MIXED", "failure": "FAILURE", "pending": "A TWO!"}
NOTES = {"complete": "both dice pass: the goal, no setback",
         "mixed": "one passes: goal and a setback",
         "failure": "none pass: a setback instead"}
RESULT_WORDS = {"complete": "complete success", "mixed": "mixed result", "failure": "complete failure"}

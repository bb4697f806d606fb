"""The Deckahedron's result words: what the device shows big for a level
(1 MISS .. 4 TRIUMPH) and the note under it. The device imports only these;
the host says them through shared_rules/deck/words.py, so the panel, the
console, the record, the page and the quick reference never disagree."""

WORDS = {1: "MISS", 2: "PARTIAL", 3: "SUCCESS", 4: "TRIUMPH"}
NOTES = {1: "GM makes a move", 2: "a little worse; GM +1 Shadow",
         3: "success with a complication", 4: "unfettered success"}

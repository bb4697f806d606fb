"""Facets' result words: the band a check lands in, as the device shows it
big ('ADVANTAGE x2', 'SUCCESS, COST'), as a row of a narrow list shows it
(the odds screen, a paired roll), and as a sentence says it (the session
record, the console, the odds table). The device imports only this module;
the host's phrasing is words.py beside it."""

# band -> (the word shown big, the short label of a row, the words of a sentence)
BAND_WORDS = {"advantage": ("ADVANTAGE", "ADVANTAGE", "advantage"),
              "success": ("SUCCESS", "SUCCESS", "success"),
              "cost": ("SUCCESS, COST", "SUCCESS,COST", "success with a cost"),
              "fail": ("FAILURE", "FAILURE", "failure"),
              "fail_cost": ("FAILURE, COST", "FAIL,COST", "failure with a cost")}


def band_word(band, advantages=0):
    """The result word the device shows big: 'ADVANTAGE x2', 'SUCCESS, COST'."""
    if band == "advantage" and advantages > 1:
        return "ADVANTAGE x%d" % advantages
    return BAND_WORDS[band][0]


def band_label(band):
    """A band in a row of a narrow list: 'SUCCESS,COST' ("" for no band)."""
    return BAND_WORDS[band][1] if band in BAND_WORDS else ""


def band_words(band, advantages=0):
    """A band in a sentence: 'success with a cost', 'advantage x2'."""
    if band == "advantage" and advantages > 1:
        return "advantage x%d" % advantages
    return BAND_WORDS[band][2]

"""The host says levels and editions as shared_rules/deck/editions.py has them
(issue 10: no copies of the glyphs or labels in host_tools)."""

import io

from host_tools.console import core as console
from host_tools.odds import deck as odds_deck
from shared_rules.deck.editions import edition
from shared_rules.deck.results import WORDS


class _Player:
    def __init__(self, edition, level):
        self.state = {"edition": edition, "draw": 14, "discard": 4, "exhaustion": 2, "xp": 1,
                      "tokens": {"harm": 0, "wound": 0, "exhaustion": 0}, "held": [], "incapacitated": ""}
        self.last_flip = {"suit": "crown", "net": 0, "cards": ["4"], "resolving": "4", "level": level}
        self.device, self.port, self.online, self.error = "dev", "/dev/null", True, None


class _Hub:
    def __init__(self, players):
        self.players = players

    def shadow(self):
        return 0, 0, 0

    def supply(self):
        return []


def _table_text(hub):
    out = io.StringIO()
    c = console.make_console(file=out, width=200)
    c.print(console.status_table(hub))
    return out.getvalue()


def test_the_table_shows_each_players_edition_label_and_its_level_glyph():
    text = _table_text(_Hub({"Ann": _Player("md", 3), "Bo": _Player("dw-lucky", 3)}))
    assert edition("md")["label"] in text and edition("dw-lucky")["label"] in text
    assert "SUCCESS " + edition("md")["level_glyphs"][2] in text
    assert "SUCCESS " + edition("dw-lucky")["level_glyphs"][2] in text  # DW ticks differ from MD's


def test_the_odds_table_heads_its_columns_with_the_devices_result_words():
    assert odds_deck.LEVEL_HEADERS == tuple(WORDS[lv] for lv in (1, 2, 3, 4))

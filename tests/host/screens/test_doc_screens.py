"""Every PNG in docs/screens/ is what its name says and what its scene
draws now (host_tools/screens/, a module per system): the sheet is the sheet,
the tie's cursor stays where the README says (issue 27)."""

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from host_tools.screens import core as S

DOCS = Path(S.ROOT) / "docs" / "screens"

# name -> (the screen it is, its title when it has one): what the name says
SAYS = {
    "flip_single_crown": ("flip", None), "flip_advantage": ("flip", None), "flip_three_tie": ("flip", None),
    "flip_choose_tie": ("flip", None), "flip_crit_success": ("flip", None), "flip_crit_fail": ("flip", None),
    "flip_wound_stopped": ("flip", None), "flip_flashback": ("flip", None),
    "flip_blessing_wound_cards": ("flip", None), "flip_dw_edition": ("flip", None),
    "home": ("home", None), "home_advantage_kept": ("home", None), "home_incapacitated": ("message", "KNOCKED OUT"),
    "menu": ("menu", "Menu"), "menu_edition": ("menu", "Edition (* = now)"),
    "menu_edition_confirm": ("menu", "Switch rules mid-game?"), "help_footer": ("message", "The footer"),
    "number": ("number", "Attack power"), "message": ("message", "Crown +0: 1 card"),
    "message_blessing_taken": ("message", "Blessing taken"), "menu_special_flips": ("menu", "Special flips"),
    "menu_damage_ways": ("menu", "Attack power 10: take it as"),
    "menu_damage_armour": ("menu", "Attack power 10: take it as"),
    "menu_breather_pick": ("menu", "Breather: regain up to 4"), "menu_pursuit": ("menu", "Pursuit: you 0, them 0"),
    "entry_new_move": ("entry", "New move's name"), "menu_gear": ("menu", "Gear & rings"),
    "menu_gear_item": ("menu", "Orb of Ash"), "minigame_pick_locks": ("minigame", None),
    "minigame_magic": ("minigame", None), "sheet": ("sheet", None), "ask": ("message", "Flip asked"),
    "facets_home": ("facets_home", None), "facets_roll_explode": ("facets_roll", "Finesse vs TN 8"),
    "facets_roll_paired_attack": ("facets_roll", "Finesse vs TN 8"), "facets_task": ("facets_home", None),
    "facets_task_done": ("facets_home", None), "facets_taken_out": ("menu", "Taken out! (health 0)"),
    "facets_sheet": ("facets_sheet", None), "facets_odds": ("facets_odds", "Finesse d8 vs TN 12"),
    "facets_menu": ("menu", "Menu"), "facets_roll_defend": ("facets_roll", "Defend Strength"),
    "save_home": ("save_home", None), "save_roll_mixed": ("save_roll", None),
    "save_roll_set_aside": ("save_roll", None), "save_roll_assisted": ("save_roll", None),
    "save_roll_destiny": ("save_roll", None), "save_hero": ("save_hero", None), "save_clocks": ("save_clocks", None),
    "save_clocks_six": ("save_clocks", None), "save_odds": ("save_odds", None), "save_menu": ("menu", "Menu"),
    "save_menu_destiny": ("menu", "Destiny: which benefit?"),
}
CARD_SHEETS = ("all_cards", "all_cards_dw")  # every face, cut from flip screens (screens.card_sheet)


@pytest.fixture(scope="module")
def views():
    return S.doc_views()


def test_each_doc_screen_is_what_its_name_says(views):
    got = dict((name, (v["screen"], v.get("title"))) for name, v in views)
    assert got == SAYS
    assert sorted(p.stem for p in DOCS.glob("*.png")) == sorted(list(SAYS) + list(CARD_SHEETS))


def test_the_sheet_is_the_character_sheet_and_the_tie_cursor_is_under_card_1(views):
    v = dict(views)
    assert v["sheet"]["moves"] == [["Defy Danger", 1], ["Mix It Up", 0], ["Pick Pockets", -1], ["Volley", 2]]
    tie = v["flip_choose_tie"]
    assert tie["phase"] == "choose" and tie["cards"][tie["selected"]] == "1"  # as docs/screens/README.md says
    assert "`flip_choose_tie.png` | " in (DOCS / "README.md").read_text() and "cursor under card 1" in \
        (DOCS / "README.md").read_text()


def test_every_doc_png_is_what_its_scene_draws_now(tmp_path):
    """Regenerated (`python -m host_tools.screens.core docs/screens`), every PNG
    comes out the same pixels."""
    S.write_docs(tmp_path)
    for doc in sorted(DOCS.glob("*.png")):
        with Image.open(doc) as a, Image.open(tmp_path / doc.name) as b:
            assert a.size == b.size, doc.name
            assert ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None, doc.name

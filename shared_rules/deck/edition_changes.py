"""What each edition other than the default changes from the edition it is
based on (shared_rules/deck/editions.py holds the base, the markdown guide, and
what every switch means). A board loads this only when it plays one of
these editions. Sources: 000 = 1kFA playtest 0.93, 004 = Deckahedron World
(Lucky and Heroic Stamina modes); line numbers are the extracts'.
"""

from shared_rules.deck.editions import CAMPAIGNS

# key -> (the edition it is based on, its changes)
CHANGES = {
    "v093": ("md", {
        "name": "1kFA Player's Guide playtest 0.93",
        "label": "1kFA 0.93",
        "seed": "000",
        "incapacitation": "exhaust10",
        "stamina_loss": "top",
        # 0.93 l.147-148: any attack power becomes Exhaustion tokens or one
        # Wound; the extract has no Harm rules.
        "harm_rate": None,
        "harm_campaigns": (),
        "green_rings": None,
    }),
    "dw-lucky": ("md", {
        "name": "Deckahedron World, Lucky mode",
        "label": "DW Lucky",
        "seed": "004",
        "suit_names": ("Anchor", "Bulb", "Crescent", "Dart"),
        "level_glyphs": ("X", "\u2713", "\u2713\u2713", "\u2713\u2713\u2713"),
        "xp_name": "green token",
        "gm_points": "Bad Bank",
        "incapacitation": "exhaust10",
        "stamina_loss": "top",
        "harm_campaigns": CAMPAIGNS,  # DW: Harm in the one-shot too (l.341)
        "third_harm": "by_campaign",  # one-shot: incapacitated; longer: Wound
        "wound_rate": 6,  # l.373-384: exactly 6 attack power per Wound
        "wound_campaigns": ("9h", "30h"),  # "not used in the One-Shot"
        "wound_costs_card": True,  # l.386-402
        "blessing_returns": False,  # no return rule (l.956-960)
        "flashback_max_level": 3,  # the extract bumps X -> V -> VV
        "crit_options": ("levelup", "bonus_move"),  # l.516-533
        "breather_blind_facedown": False,  # "may choose any cards"
        "rest_blame_step": False,
        "seek_help_wounds": "one_wound_each",  # l.628-653
        "hearth_returns_wound_tokens": False,
        "starting_armour": "hh",
        "starting_pack": 0,
        "ongoing_rest": "no_stamina",
        "capacity_moves_charges": True,
        "green_rings": "level_cards",
        "ring_campaigns": CAMPAIGNS,  # "session 3 tends to be the first"
        "speed_tokens": 6,  # "You have 6 tokens" (l.460)
    }),
    "dw-heroic": ("dw-lucky", {
        "name": "Deckahedron World, Heroic mode",
        "label": "DW Heroic",
        "incapacitation": "no_stamina",  # l.420-450
        "stamina_loss": "heroic",
    }),
}

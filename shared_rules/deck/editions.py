"""Editions as data: one set of switches per rules text, read by one engine.

Every row of the reference's section 7 table is either a switch here or a
behaviour the editions share (and a test says so). Sources: 000 = 1kFA
playtest 0.93, 001 = the newer markdown guide (default), 004 = Deckahedron
World (Lucky and Heroic Stamina modes).

The default edition is the base every switch is defined in; the others are
its changes, in edition_changes.py, loaded when one is first asked for (a
board plays one edition: it keeps only the base in its heap until then).
"""

from shared_rules.errors import RulesError

CAMPAIGNS = ("oneshot", "9h", "30h")

# Keyword names, not string keys: a name is interned once, where a key of
# more than 10 characters is a str object of its own in each module's
# constants on the stock image's heap (with the rules' lookups of the same
# keys, ~0.9 KB).
_BASE = dict(
    name="1kFA Player's Guide (markdown)",
    label="1kFA",  # a few characters for the device's home screen and the host's tables
    seed="001",
    # names and glyphs
    suit_names=("Anvil", "Blade", "Crown", "Dragon"),
    level_glyphs=("\u2717", "\u2705", "\u2714\u2714", "\u2714\u2714\u2714"),
    level_ascii=("X", "V", "VV", "VVV"),
    xp_name="XP",
    gm_points="Shadow",
    # 7.1 reshuffle: optional outside a flip, mandatory at <= 5 (all seeds)
    mandatory_reshuffle_at=5,
    # 7.2 cards per flip: 1 + |net|, at most 3 (all seeds)
    max_cards=3,
    # 7.4 incapacitation: "bust3" (deck <= 3 after the chance to reshuffle),
    # "exhaust10" (Exhaustion pile reaches 10 cards), "no_stamina" (no
    # Stamina card left in deck or discard)
    incapacitation="bust3",
    bust_at=3,
    wounds_to_incapacitate=3,  # the 3rd Wound incapacitates
    # 7.5 losing Stamina: "reveal" (reveal until N symbols, all face-down to
    # Exhaustion), "top" (top card face-down + an Exhaustion token per point),
    # "heroic" (reveal to the next Stamina card: face-up + token, rest discard)
    stamina_loss="reveal",
    # 7.6 Harm: rate (None = no Harm), which campaigns use it, and what a
    # third Harm does ("incapacitate" or "wound")
    harm_rate=3,
    harm_campaigns=("9h", "30h"),
    third_harm="wound",
    # 7.7 a Wound absorbs all attack power (0) or exactly N of it
    wound_rate=0,
    wound_campaigns=CAMPAIGNS,
    # 7.9 taking a Wound also loses a card to Exhaustion
    wound_costs_card=False,
    # 7.8 a wound card in a flip stops the flip and costs 1 Stamina
    wound_card_stops_flip=True,
    # 7.10 a blessing that resolves a flip returns to the supply
    blessing_returns=True,
    # 7.11 teamwork supporters flip one card of this suit
    teamwork_suit="anvil",
    # 7.12 a flashback bump raises at most to this level
    flashback_max_level=4,
    # 7.13 what a critical success offers
    crit_options=("levelup", "blessing"),
    # 7.15 / 7.16 GM points
    single_check_points=1,
    fast_miss_points=2,
    # 7.17 a Breather may not turn face-down Exhaustion cards face up
    breather_blind_facedown=True,
    breather_max=4,
    # 7.18 Rest: step 5 (say whom you blame)
    rest_blame_step=True,
    # 7.19 Seek Help step 6: "all_wound_cards" or "one_wound_each"
    seek_help_wounds="all_wound_cards",
    hearth_returns_wound_tokens=True,
    # MD *Armour*: the starting armour "has 1 slot that can absorb a Harm or
    # a Wound"; DW (l.698): Leather Armour "has 2 slots for Harm tokens"
    starting_armour="w",
    # MD *Pack - Precious and regular* (and 0.93 l.186): "Your character
    # starts off with 2 Pack cards" (regular ones; precious Pack is found in
    # the fiction). DW has no Pack cards: its Pack tokens are placed from
    # the 6 Speed tokens as the player chooses (l.460).
    starting_pack=2,
    # An ONGOING magic item while its magic flows: MD *The ONGOING tag*: the
    # character is "not considered idle" for Rest and Seek Help ("refuse");
    # DW (l.773): they "may not regain Stamina points while using the Rest
    # or Seek Help moves" ("no_stamina": the moves run, Exhaustion tokens and
    # cards stay, l.549's two ways of regaining Stamina).
    ongoing_rest="refuse",
    # A magic item's charge capacity changing: MD *Charges and Capacity*
    # marks the new capacity only (False); DW (l.757-759) red cards on the
    # card: a permanent loss "loses a charge and its capacity ... decreases
    # by 1", a gain takes a black-side card off (True: charges move with it).
    capacity_moves_charges=False,
    # Advancement by green rings: "envelopes" (MD *30-hour Campaigns: Green
    # rings*: enveloped moves need rings to study), "level_cards" (DW *LEVEL
    # CARDS AND GREEN RINGS*), or None (0.93 has neither)
    green_rings="envelopes",
    ring_campaigns=("30h",),
    # DW *SPEED/WEALTH/PACK*: tokens shared by Speed, Pack, Wealth and item
    # cards, and the Speed below which UNENCUMBERED moves are refused; None:
    # the edition has no Speed
    speed_tokens=None,
    unencumbered_speed=4,
    # 7.20 / 7.21 mini-games
    pursuit_table=True,
    corner_games=True,
)


DEFAULT_EDITION = "md"
EDITION_KEYS = ("md", "v093", "dw-lucky", "dw-heroic")
_made = {DEFAULT_EDITION: _BASE}  # the editions built so far: the default is the base itself


def edition(key):
    """The switches of edition ``key`` (a dict, made once)."""
    e = _made.get(key)
    if e is None:
        if key not in EDITION_KEYS:
            raise RulesError("bad_edition", "unknown edition %r: choose md, v093, dw-lucky or dw-heroic" % (key,))
        from shared_rules.deck.edition_changes import CHANGES

        based_on, changes = CHANGES[key]
        e = dict(edition(based_on))
        e.update(changes)
        _made[key] = e
    return e


def check_campaign(campaign):
    if campaign not in CAMPAIGNS:
        raise RulesError("bad_campaign", "unknown campaign %r: choose oneshot, 9h or 30h" % (campaign,))
    return campaign

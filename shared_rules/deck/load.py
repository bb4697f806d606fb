"""Reading a saved state back (PlayerState.load): its check line, then
every field, each checked. Apart from state.py because a board reads a save
only at power-on and on a restore: it drops this module's code from its
heap once the game is up (app.BOOT_ONLY)."""

import json

from shared_rules.atomic import check_game_id, text_digest
from shared_rules.deck import cards as C
from shared_rules.deck.editions import CAMPAIGNS, edition
from shared_rules.deck.state import ATTRS, FLIP_FIELDS, FORMAT, MAX_RINGS, MAX_TOKENS, MAX_XP, check_move_name
from shared_rules.errors import RulesError


def parse(cls, text):
    """A ``cls`` (PlayerState) from its dump; any defect raises
    RulesError('bad_save') naming it."""
    if not isinstance(text, str):
        raise RulesError("bad_save", "saved state must be text")
    cut = text.rfind("check ")
    if cut < 0 or not text.endswith("\n"):
        raise RulesError("bad_save", "saved state is truncated (no check line)")
    body, check = text[:cut], text[cut + 6:].strip()
    if text_digest(body) != check:
        raise RulesError("bad_save", "saved state is damaged (check value does not match)")
    fields = {}
    rows = body.split("\n")
    if rows[0] != FORMAT:
        raise RulesError("bad_save", "not a Deckahedron save (or an unknown version)")
    for row in rows[1:]:
        if not row:
            continue
        sp = row.find(" ")
        key, value = (row, "") if sp < 0 else (row[:sp], row[sp + 1:])
        fields[key] = value
    s = cls()
    try:
        _fill(s, fields)
    except RulesError as e:
        raise RulesError("bad_save", "saved state is invalid: " + e.message)
    except (ValueError, TypeError, KeyError, IndexError) as e:
        raise RulesError("bad_save", "saved state is invalid: %s %s" % (type(e).__name__, e))
    return s

def _fill(self, f):
    """Every field of ``self`` from the dump's lines (``f``: key -> rest of the line)."""
    edition(f["edition"])
    self.edition = f["edition"]
    if f["campaign"] not in CAMPAIGNS:
        raise RulesError("bad_save", "unknown campaign")
    self.campaign = f["campaign"]
    if f["supply_set"] not in C.SUPPLY_SETS:
        raise RulesError("bad_save", "unknown supply set")
    self.supply_set = f["supply_set"]
    self.rng.set_state_hex(f["rng"])
    self.draw = _ids(f["draw"])
    self.discard = _ids(f["discard"])
    self.exhaustion = []
    for word in f["exhaustion"].split():
        up = word.startswith("^")
        self.exhaustion.append([C.card(word[1:] if up else word).id, up])
    self.table = _ids(f["table"])
    self.supply = _ids(f["supply"])
    self.elsewhere = _ids(f["elsewhere"])
    tok = [_int(w, 0, MAX_TOKENS) for w in f["tokens"].split()]
    if len(tok) != 3:
        raise RulesError("bad_save", "tokens needs three numbers")
    self.exh_tokens, self.harm, self.wound_tokens = tok
    self.xp = _int(f["xp"], 0, MAX_XP)
    self.shadow = _int(f["shadow"], 0, 10 ** 6)
    words = f["attrs"].split()
    if len(words) != 3:
        raise RulesError("bad_save", "attrs needs three suits")
    self.attrs = {}
    for a, suit in zip(ATTRS, words):
        self.attrs[a] = C.check_suit(suit)
    self.moves = {}
    for pair in json.loads(f["moves"]):
        self.moves[check_move_name(pair[0])] = _int(pair[1], -2, 2)
    self.incapacitated = json.loads(f["incapacitated"])
    if not isinstance(self.incapacitated, str):
        raise RulesError("bad_save", "incapacitated must be text")
    self.flip = None
    if f["flip"] != "-":
        values = json.loads(f["flip"])
        if isinstance(values, list) and len(values) == len(FLIP_FIELDS) - 1:
            values.append(None)  # a flip without a magic item
        if not isinstance(values, list) or len(values) != len(FLIP_FIELDS):
            raise RulesError("bad_save", "flip record has the wrong shape")
        self.flip = {}
        for k, v in zip(FLIP_FIELDS, values):
            self.flip[k] = v
        if not self.table:
            raise RulesError("bad_save", "a flip in progress with no cards on the table")
    self.minigame = "" if f["minigame"] == "-" else f["minigame"]
    if self.minigame not in ("", "pick_locks", "magic"):
        raise RulesError("bad_save", "unknown mini-game")
    if self.table and self.flip is None and not self.minigame:
        raise RulesError("bad_save", "cards on the table with no flip or mini-game")
    self.bonus_adv = _int(f["bonus"], 0, 1)
    self.count = _int(f["count"], 0, 1 << 30)
    self.game = check_game_id(f["game"]) if "game" in f else ""
    self.gear = []
    if "gear" in f:
        from shared_rules.deck.gear import check_gear_list

        self.gear = check_gear_list(json.loads(f["gear"]))
    pack = f.get("pack", "0 0").split()
    if len(pack) != 2:
        raise RulesError("bad_save", "pack needs two numbers")
    self.pack, self.precious = _int(pack[0], 0, MAX_TOKENS), _int(pack[1], 0, MAX_TOKENS)
    self.cardio = _int(f.get("cardio", "0"), 0, MAX_TOKENS)
    self.spot = f.get("spot", "")
    if self.spot not in ("", "F", "P", "FP"):
        raise RulesError("bad_save", "unknown spotlight marks")
    rings = f.get("rings", "0 0 0").split()
    if len(rings) != 3:
        raise RulesError("bad_save", "rings needs three numbers")
    self.rings, self.level_taken, self.envelope_due = _int(rings[0], 0, MAX_RINGS), _int(rings[1], 0, 1), _int(rings[2], 0, 1)
    self.unsealed = [check_move_name(m) for m in json.loads(f.get("unsealed", "[]"))]
    self.level_cards = [check_move_name(m) for m in json.loads(f.get("level_cards", "[]"))]
    self.wealth = _int(f.get("wealth", "0"), 0, MAX_TOKENS)
    self.pursuit = None
    if "pursuit" in f:
        from shared_rules.deck.minigames import Pursuit

        self.pursuit = Pursuit.from_list(json.loads(f["pursuit"])).to_list()
    self.check()


def _ids(text):
    return [C.card(w).id for w in text.split()]


def _int(text, lo, hi):
    v = int(text)
    if v < lo or v > hi:
        raise RulesError("bad_save", "number %d out of range %d..%d" % (v, lo, hi))
    return v

"""The GM's console commands for the Deckahedron (the default system): flips,
combat, recovery, the sheet and advancement, the mini-games.

    table> flip Ann str +1
    table> damage Di 9 wounds=1

The default system's commands are top-level words; every other system's go
under its key (``facets NAME WHAT``, ``save NAME WHAT``): help says so.
"""

from shared_rules.deck import cards as C
from shared_rules.deck.editions import DEFAULT_EDITION, edition
from shared_rules.deck.state import ATTRS
from shared_rules.deck.results import WORDS
from shared_rules.deck.words import cap_note, end_gains, level_words, rules_of, title

from host_tools.console.typed import Usage, coerce, number, signed
from host_tools.link import DeviceError, LinkError
from host_tools.table import record, replies
from host_tools.table.errors import TableError

CRITS = ("blessing", "levelup", "bonus_move")
MINIGAMES = ("pick_locks", "magic")
REVEALS = ("d4", "d6", "d10")
ASK_FOR = "ask for str, dex or int and an advantage, e.g. ask Ann dex +1 \"climb the wall\""


def breather_pick(state, want):
    """What a Breather regains when the GM names no cards (on the device the
    player marks them): Exhaustion tokens first, then face-up cards (the
    latest first), then face-down ones taken blind; ``want`` Stamina
    (default the edition's most, from shared_rules.deck.editions)."""
    state = state or {}
    most = rules_of(state)["breather_max"]
    tokens_have = int((state.get("tokens") or {}).get("exhaustion") or 0)
    up = list(state.get("exhaustion_face_up") or [])
    down = max(0, int(state.get("exhaustion") or 0) - len(up))
    have = tokens_have + len(up) + down
    if have == 0:
        raise Usage("no Exhaustion tokens or cards: there is no Stamina to regain")
    n = min(most, have) if want is None else want
    tokens = min(n, tokens_have)
    left = n - tokens
    cards = up[-left:] if left > 0 and up else []
    left -= len(cards)
    return {"tokens": tokens, "cards": cards, "facedown": max(0, min(left, down))}


def percent(fraction):
    try:
        a, b = str(fraction).split("/")
        return "%5.1f%%" % (100.0 * int(a) / int(b))
    except (ValueError, ZeroDivisionError):
        return str(fraction)


class Commands:
    """do_* commands for players whose devices play the Deckahedron."""

    # ======================================================================
    # Flips
    @staticmethod
    def flip_word(w):
        """(key, value) of a word naming what a flip uses: str/dex/int, a
        suit, +N/-N; None for any other word."""
        if w in ATTRS:
            return "attr", w
        if w in C.SUITS:
            return "suit", w
        n = signed(w)
        return ("net", n) if n is not None else None

    def flip_words(self, w):
        got = self.flip_word(w)
        if got is not None:
            return got
        if w.isdigit():
            return "net", int(w)
        raise Usage("what is %r? A flip takes str/dex/int or a suit, +N or -N, fast, pvp, open, key=value" % w)

    def do_flip(self, arg):
        """flip NAME [str|dex|int|SUIT] [+N|-N] [fast] [pvp] [open] [move=MOVE] [crit=blessing|levelup|bonus_move] [levels=N] ["REASON"]
        Flip on NAME's device and resolve it: the result in the device's words.
          NAME                 a player, e.g. flip Ann str
          "REASON"             why, in quotes: kept with the flip in the record, e.g. flip Ann dex +1 "climb the wall"
          str|dex|int|SUIT     the attribute, or a suit (anvil blade crown dragon), e.g. flip Ann dex, flip Ann crown;
                               none: the attribute selected on the device, e.g. flip Ann
          +N|-N                advantage or disadvantage (net=N too), e.g. flip Ann str +1, flip Ann int -2
          fast                 a FAST move: a miss gives the GM 2 Shadow, e.g. flip Bo dex fast
          pvp                  against another player: no XP, no level-up, e.g. flip Cy str pvp
          open                 leave the flip open for choose/flashback/bump/end, e.g. flip Ann str open
          move=MOVE            add a move's level from the sheet, e.g. flip Ann str move=Sneak
          crit=blessing|levelup|bonus_move   the Critical Success reward chosen ahead (crit=none: none), else asked once the card is seen, e.g. flip Ann str crit=blessing
          levels=N             with crit=levelup: how many levels, e.g. flip Ann str crit=levelup levels=2"""
        words, reason = self.words_and_reason(arg, 1, "flip NAME [str|dex|int|SUIT] [+N|-N] ...")
        args = self.options(words[1:], ("fast", "pvp", "open"), self.flip_words)
        self.flip(words[0], keep_open=args.pop("open", False), reason=reason, **args)

    def flip(self, player, attr=None, suit=None, net=0, fast=False, pvp=False, keep_open=False, crit=None,
             levels=None, reason="", **rules):
        """Flip on ``player``'s device and resolve it (the page's Flip too): ``attr`` or ``suit`` (neither:
        the device's selected attribute), ``net`` advantage; ``keep_open`` leaves it for choose, flashback,
        bump or end; ``crit`` (and ``levels``) a Critical Success's reward named ahead; ``rules`` the
        rules' other flip arguments (move=, item=, ...). Only what is given is sent to the device."""
        given = dict(rules, attr=attr, suit=suit, net=net or None, fast=fast or None, pvp=pvp or None)
        args = {k: v for k, v in given.items() if v is not None}
        end = {k: v for k, v in (("crit", crit), ("levels", levels)) if v is not None}
        self.flip_and_end(self.who(player), args, end, keep_open, reason)

    def do_ask(self, arg):
        """ask NAME|all str|dex|int [+N|-N] ["REASON"]
        Ask a player's device for a flip: it shows who asks, the attribute, the advantage and why; the player flips it with B or declines with C.
          NAME|all             a player, or everyone at the table (everyone flip Dex), e.g. ask all dex
          str|dex|int          the attribute, e.g. ask Ann dex
          +N|-N                advantage or disadvantage, e.g. ask Ann dex +1
          "REASON"             why, in quotes, e.g. ask Ann dex +1 "climb the wall"
        """
        words, reason = self.words_and_reason(arg, 2, "ask NAME|all str|dex|int [+N|-N] [\"REASON\"]")
        args = self.options(words[1:], (), self.flip_words)
        if set(args) - {"attr", "net"}:
            raise Usage(ASK_FOR)
        self.ask(words[0], args.get("attr"), args.get("net", 0), reason)

    def ask(self, player, attr, net=0, reason=""):
        """Ask ``player``'s device for a flip of ``attr`` (str, dex or int) at ``net``, for ``reason``;
        player "all": everyone at the table (the page's Ask and Ask everyone too)."""
        if attr not in ATTRS:
            raise Usage(ASK_FOR)
        names = list(self.hub.players) if player == "all" else [self.who(player)]
        refused = []
        for name in names:
            try:
                self.hub.ask(name, attr, net, reason)
            except (DeviceError, LinkError, TableError) as e:
                refused.append("%s: %s" % (name, e))
                continue
            self.say("asked %s to flip %s %+d%s (on their device: B flips, C declines)"
                     % (name, title(attr), net, record.reason_words(reason)))
        if refused:
            self.failed = True
            for line in refused:
                self.warn("not asked, %s" % line)

    def flip_and_end(self, who, args, end, keep_open=False, reason="", also=()):
        """Flip and, unless ``keep_open``, end it at once; said in one line,
        with ``also`` (what the flip is for) after the flip's words."""
        p = self.hub.player(who)
        if not {"attr", "suit", "item"} & set(args) and args.get("team") != "support":
            args = dict(args, attr=self.hub.selected_attr(p))  # said as the attribute, not its suit
        before = dict(p.state or {})
        r = self.hub.command(who, "flip", reason=reason, **args)
        said = [replies.say("flip", r, p.state, args)] + list(also) + list(r.get("events") or [])
        if keep_open:
            said.append("the flip is open: choose, flashback, bump or end %s" % p.name)
            return self.said(p, before, said, r)
        if r.get("phase") == "choose":
            first = r["tied"][0]
            said.append("the first, %s, resolves it (flip ... open, then choose, to pick another)" % first)
            r = self.hub.command(who, "choose", card=first)
            said.append("card %s resolves it: %s" % (first, level_words(r.get("level"))))
        if "crit" not in end and args.get("team") is None and self.critical_success(r.get("resolving")):
            # as at a real table: the reward is chosen once the Critical Success card is seen
            options = edition((p.state or {}).get("edition") or DEFAULT_EDITION)["crit_options"]
            said.append("a critical success: %s chooses the reward, then end %s crit=%s (levelup: move=MOVE too), "
                        "or end %s crit=none for none" % (p.name, p.name, "|".join(options), p.name))
            return self.said(p, before, said, r)
        if end.get("crit") == "none":
            end.pop("crit")  # declined, said so by the GM
        if "move" in args and end.get("crit") == "levelup":
            end.setdefault("move", args["move"])
        e = self.hub.command(who, "end_flip", reason=reason, **end)
        return self.said(p, before, said + end_gains(e, p.state), e)

    def said(self, p, before, parts, r):
        """A flip and its end in one line, with what they changed; returns ``r``."""
        self.say(replies.line(p.name, parts, replies.changes(before, p.state)))
        return r

    def do_choose(self, arg):
        """choose NAME CARD
        Pick which tied card resolves NAME's open flip.
          CARD   one of the tied cards the flip named, e.g. choose Ann 12"""
        words = self.words(arg, 2, "choose NAME CARD")
        self.run(self.who(words[0]), "choose", card=words[1])

    def do_flashback(self, arg):
        """flashback NAME
        Spend 1 XP: NAME's open flip is ignored and flipped again, e.g. flashback Ann"""
        words = self.words(arg, 1, "flashback NAME")
        self.run(self.who(words[0]), "flashback")

    def do_bump(self, arg):
        """bump NAME
        After a flashback, 1 XP raises the result one step, e.g. bump Ann"""
        words = self.words(arg, 1, "bump NAME")
        self.run(self.who(words[0]), "bump")

    def do_end(self, arg):
        """end NAME [crit=blessing|levelup|bonus_move] [move=MOVE] [levels=N] [resolved=false]
        Resolve NAME's open flip: XP, Shadow, the critical success reward.
          crit=blessing|levelup|bonus_move   the reward of a Critical Success (crit=none: none), e.g. end Ann crit=blessing
          move=MOVE         the move a level-up raises, e.g. end Ann crit=levelup move=Sneak
          levels=N          how many levels up, e.g. end Ann crit=levelup move=Sneak levels=2
          resolved=false    a teamwork flip won by another player's card, e.g. end Bo resolved=false"""
        words = self.words(arg, 1, "end NAME [crit=...]")
        args = self.options(words[1:])
        if args.get("crit") == "none":
            args.pop("crit")  # the GM declines the critical success's reward
        self.run(self.who(words[0]), "end_flip", **args)

    @staticmethod
    def critical_success(card_id):
        card = C.CARDS.get(card_id)
        return card is not None and card.crit == "success"

    def team_words(self, w):
        return self.flip_word(w) or ("_player", w)

    def do_team(self, arg):
        """team LEAD SUPPORTER... [str|dex|int|SUIT] [+N|-N] [pick=NAME] [crit=blessing|levelup]
        A teamwork flip: the lead flips, each supporter flips one Anvil, the best card resolves.
          LEAD SUPPORTER...   players, the lead first, e.g. team Cy Ann Bo
          str|dex|int|SUIT    the lead's attribute or suit (attr=, suit= too), e.g. team Cy Ann dex
          +N|-N               the lead's advantage (net=N too), e.g. team Cy Ann str +1
          pick=NAME           whose card resolves a tie for best, e.g. team Cy Ann Bo pick=Ann
          crit=blessing|levelup   the reward if the Critical Success card wins, e.g. team Cy Ann crit=blessing"""
        words = self.words(arg, 2, "team LEAD SUPPORTER... [attr] [+N]")
        names, rest = [], []
        for w in words:
            kind = self.team_words(w) if "=" not in w else ("", w)
            (names if kind[0] == "_player" else rest).append(w)
        if len(names) < 2:
            raise Usage("a teamwork flip needs a lead and at least one supporter, e.g. team Cy Ann Bo dex")
        self.team(names[0], names[1:], **self.options(rest, (), self.team_words))

    def team(self, lead, supporters, attr=None, suit=None, net=0, pick=None, **rules):
        """A teamwork flip led by ``lead`` with ``supporters`` (the page's Teamwork flip too): the lead's
        ``attr`` or ``suit`` and ``net``, ``pick`` whose card resolves a tie for best, ``rules`` the
        other arguments of hub.teamwork (crit=, move=, ...). Only what is given is sent."""
        names = [self.who(n) for n in [lead] + list(supporters)]
        given = dict(rules, attr=attr, suit=suit, net=net or None, pick=None if pick is None else self.who(pick))
        r = self.hub.teamwork(names[0], names[1:], **{k: v for k, v in given.items() if v is not None})
        said = ["teamwork led by %s: %s's card %s resolves it: %s" % (
            names[0], r["resolved_by"], r["card"], level_words(r["level"]))]  # one line, as every action
        said.append(", ".join("%s card %s %s" % (e["player"], e["card"], WORDS.get(e["level"])) for e in r["entries"]))
        said += ["%s %s" % (n, ", ".join(end_gains(e))) for n, e in r["results"].items() if end_gains(e)]
        self.say("; ".join(said))

    def do_pursuit(self, arg):
        """pursuit NAME [encumbrance=N] [open] | pursuit NAME round won|lost [helper=int|str|dex] | pursuit NAME end
        The Pursuit mini-game with NAME as the rabbit: the flip from Str + Dex - encumbrance, and the rounds.
          encumbrance=N     Item and Pack cards carried, e.g. pursuit Ann encumbrance=2
          open              leave the flip open, e.g. pursuit Ann open
          round won|lost    record a round: did the rabbit get away? e.g. pursuit Ann round won
          helper=int|str|dex   a helper's attribute in rounds 2-4, e.g. pursuit Ann round lost helper=int
          end               forget the pursuit, e.g. pursuit Ann end"""
        from shared_rules.deck.minigames import Pursuit, pursuit_flip

        words = self.words(arg, 1, "pursuit NAME [encumbrance=N]")
        who = self.who(words[0])
        if words[1:2] == ["end"]:
            self.pursuits.pop(who, None)
            self.say("%s's pursuit is over" % who)
            return
        chase = self.pursuits.setdefault(who, Pursuit())
        if words[1:2] == ["round"]:
            if len(words) < 3 or words[2] not in ("won", "lost"):
                raise Usage("say whether the rabbit got away: pursuit %s round won, or pursuit %s round lost" % (who, who))
            helper = self.options(words[3:]).get("helper")
            try:
                chase.record_round(words[2] == "won", helper)
            except ValueError as e:  # RulesError: a sentence
                raise Usage(str(e))
            said = ["round %d: %s; rabbit %d, pursuers %d" % (
                len(chase.rounds), "the rabbit got away" if words[2] == "won" else "the pursuers gained",
                chase.rabbit_wins, chase.pursuer_wins)]
            if chase.winner:
                said.append("the %s win the pursuit" % chase.winner)
                self.pursuits.pop(who, None)
            elif chase.pursuers_two_in_a_row:
                said.append("the pursuers won two in a row: they may make a move")
            if not chase.winner and chase.helpers_available():
                said.append("round %d may be helped with %s" % (chase.next_round, ", ".join(chase.helpers_available())))
            self.say("; ".join(said))  # one line, as every action
            return
        args = self.options(words[1:], ("open",))
        attrs = self.hub.player(who).state.get("attrs") or {}
        try:
            row = pursuit_flip(C.SUITS.index(attrs.get("str")) + 1, C.SUITS.index(attrs.get("dex")) + 1,
                               args.get("encumbrance", 0))
        except ValueError as e:
            raise Usage(str(e))
        why = "pursuit round %d: Str %s (%d) + Dex %s (%d) - encumbrance %d = %d: %s %+d%s" % (
            chase.next_round or 1, title(attrs.get("str")), C.SUITS.index(attrs.get("str")) + 1,
            title(attrs.get("dex")), C.SUITS.index(attrs.get("dex")) + 1, args.get("encumbrance", 0), row["value"],
            title(row["suit"]), row["net"], " (beyond the table: the GM rules on it)" if row["beyond_table"] else "")
        self.flip_and_end(who, {"suit": row["suit"], "net": row["net"]}, {}, args.get("open", False), also=[why])

    # ======================================================================
    # Combat
    def do_damage(self, arg):
        """damage NAME POWER [wounds=N] [harm=N] [armour] [absorb=N] [cardio=N] [reshuffle]
        Deal attack power; the player's choice of how to take it, the rest as Stamina.
          POWER       attack power, a whole number, e.g. damage Di 4
          wounds=N    Wounds that absorb it, e.g. damage Di 9 wounds=1
          harm=N      Harm tokens, 3 power each (longer campaigns), e.g. damage Di 7 harm=2
          armour      the armour takes those Wound and Harm tokens, e.g. damage Di 9 wounds=1 armour
          absorb=N    points taken on move or item cards as Exhaustion tokens, e.g. damage Di 5 absorb=2
          cardio=N    points as tokens in Good Cardio's slots, e.g. damage Di 5 cardio=1
          reshuffle   reshuffle before losing Stamina, e.g. damage Di 4 reshuffle"""
        words = self.words(arg, 2, "damage NAME POWER [wounds=N] [harm=N] [armour] [absorb=N]")
        power = number(words[1], "attack power", "damage %s 9" % words[0])
        self.damage(words[0], power, **self.options(words[2:], ("reshuffle", "armour")))

    def damage(self, player, power, armour=False, reshuffle=False, **taken):
        """Deal ``power`` to ``player`` (the page's Damage too), ``taken`` as the player chooses (wounds=,
        harm=, absorb=, cardio=: whole numbers), on the armour if ``armour``, after a reshuffle if
        ``reshuffle``."""
        args = dict(taken)
        if reshuffle:
            args["reshuffle_first"] = True
        if armour:
            for key in ("wounds", "harm"):
                if args.get(key):
                    args["armour_" + key] = args[key]
        self.run(self.who(player), "damage", power=power, **args)

    def do_reveal(self, arg):
        """reveal NAME [d4|d6|d10]
        Reveal attack power from the top of NAME's Deckahedron.
          d4|d6|d10   the triangle, the square, or both (default d10), e.g. reveal Ann d6"""
        words = self.words(arg, 1, "reveal NAME [d4|d6|d10]")
        kind = words[1] if len(words) > 1 else "d10"
        if kind not in REVEALS:
            raise Usage("reveal d4, d6 or d10, not %r" % kind)
        who = self.who(words[0])
        p = self.hub.player(who)
        before = dict(p.state or {})
        r = self.hub.command(who, "reveal", kind=kind)
        self.tell("reveal", p, r, before, {"kind": kind}, also=["then: damage %s %s [wounds=N] ..." % (p.name, r.get("power"))])

    def do_lose(self, arg):
        """lose NAME [N] [reshuffle]
        NAME loses or expends N Stamina (default 1).
          N           Stamina points, e.g. lose Bo 2
          reshuffle   reshuffle first, e.g. lose Bo 1 reshuffle"""
        words = self.words(arg, 1, "lose NAME [N]")
        rest = words[1:]
        points = 1
        if rest and rest[0] != "reshuffle" and "=" not in rest[0]:
            points = number(rest.pop(0), "Stamina points", "lose Bo 2")
        args = self.options(rest, ("reshuffle",))
        self.run(self.who(words[0]), "lose_stamina", points=points,
                 **({"reshuffle_first": True} if args.get("reshuffle") else {}))

    def do_wound(self, arg):
        """wound NAME [armour]
        NAME takes a Wound (a Wound token and a wound card from the shared supply), e.g. wound Bo
          armour      the armour takes the Wound instead, e.g. wound Bo armour"""
        words = self.words(arg, 1, "wound NAME [armour]")
        self.wound(words[0], **self.options(words[1:], ("armour",)))

    def wound(self, player, armour=False):
        """``player`` takes a Wound, on the armour if ``armour`` (the page's Wound too)."""
        self.run(self.who(player), "take_wound", **({"armour": True} if armour else {}))

    def do_harm(self, arg):
        """harm NAME [armour]
        NAME takes a Harm token (9-hour and 30-hour campaigns), e.g. harm Bo
          armour      the armour takes the Harm token instead, e.g. harm Bo armour"""
        words = self.words(arg, 1, "harm NAME [armour]")
        self.harm(words[0], **self.options(words[1:], ("armour",)))

    def harm(self, player, armour=False):
        """``player`` takes a Harm token, on the armour if ``armour`` (the page's Harm too)."""
        self.run(self.who(player), "take_harm", **({"armour": True} if armour else {}))

    def do_gear(self, arg):
        """gear NAME add ITEM [kind=KIND] [slots=LETTERS] [capacity=N] [weight=N] | gear NAME drop ITEM | gear NAME damage ITEM
        NAME's item cards: write one, drop one, or damage one (the third damage destroys it).
          add ITEM       a new item card, e.g. gear Bo add Rope
          kind=KIND      item, weapon, armour, shield or magic, e.g. gear Bo add Leather kind=armour
          slots=LETTERS  armour slots, h = Harm, w = Harm or Wound, e.g. gear Bo add Plate kind=armour slots=www
          capacity=N     a magic item's charges (default 3), e.g. gear Bo add Wand kind=magic capacity=2;
                         a weapon with charges is a magic weapon, e.g. gear Bo add Blade kind=weapon capacity=3
          weight=N       how many items it counts as, e.g. gear Bo add Plate kind=armour weight=4
          drop ITEM      drop it, e.g. gear Bo drop Rope
          damage ITEM    a red card on it, e.g. gear Bo damage Sword"""
        words = self.words(arg, 3, "gear NAME add|drop|damage ITEM")
        who, what, item = self.who(words[0]), words[1], words[2]
        ops = {"add": "gear_add", "drop": "gear_drop", "damage": "item_damage"}
        if what not in ops:
            raise Usage("gear %s add, drop or damage, not %r" % (who, what))
        args = self.options(words[3:]) if what == "add" else {}
        self.run(who, ops[what], name=item, **args)

    def do_spotlight(self, arg):
        """spotlight NAME
        The spotlight moves on from NAME: a new FAST move is allowed, attack power may be revealed again, e.g. spotlight Bo"""
        words = self.words(arg, 1, "spotlight NAME")
        self.run(self.who(words[0]), "spotlight")

    def do_blessing(self, arg):
        """blessing NAME
        NAME takes a random Blessing from the shared supply, e.g. blessing Ann"""
        self.blessing(self.words(arg, 1, "blessing NAME")[0])

    def blessing(self, player):
        """``player`` takes a random Blessing from the shared supply (the page's Blessing too)."""
        self.run(self.who(player), "take_blessing")

    def do_revive(self, arg):
        """revive NAME
        The GM brings an incapacitated character back, e.g. revive Di"""
        words = self.words(arg, 1, "revive NAME")
        self.run(self.who(words[0]), "revive")

    # ======================================================================
    # Recovery
    def do_breather(self, arg):
        """breather NAME [N] [tokens=N] [cards=ID,ID] [facedown=N]
        Take a Breather: regain up to 4 Stamina. Without tokens/cards/facedown the
        console picks as the device does: tokens first, then face-up cards, then face-down ones.
          N              how many Stamina to regain (default: as many as it may), e.g. breather Bo 2
          tokens=N       Exhaustion tokens returned, e.g. breather Bo tokens=2
          cards=ID,ID    face-up Exhaustion cards, e.g. breather Bo cards=3,7
          facedown=N     face-down cards taken blind, e.g. breather Bo facedown=1"""
        words = self.words(arg, 1, "breather NAME [N] [tokens=N] [cards=ID,ID] [facedown=N]")
        who = self.who(words[0])
        rest = words[1:]
        want = None
        if rest and "=" not in rest[0]:
            want = number(rest.pop(0), "Stamina to regain", "breather %s 2" % who)
        args = coerce("breather", self.options(rest))
        if not any(k in args for k in ("tokens", "cards", "facedown")):
            args.update(breather_pick(self.hub.player(who).state, want))
        self.run(who, "breather", **args)

    def do_rest(self, arg):
        """rest NAME [keep=ID,ID|worst]
        A night's rest: tokens back, Exhaustion cards back but as many as Harm + Wound tokens.
          keep=ID,ID|worst   the Exhaustion cards kept (default: the worst, as the device does), e.g. rest Bo keep=19,4"""
        words = self.words(arg, 1, "rest NAME [keep=ID,ID]")
        args = coerce("rest", self.options(words[1:]))
        args.setdefault("keep", "worst")
        self.run(self.who(words[0]), "rest", **args)

    def do_seek_help(self, arg):
        """seek_help NAME [keep=ID,ID|worst] [hearth]
        Seek Help: tokens and Harm back, wound cards to the supply, keep as many Exhaustion cards as Wound tokens.
          keep=ID,ID|worst   the Exhaustion cards kept (default: the worst), e.g. seek_help Bo keep=19,4
          hearth       at The Hearth: the Wound tokens go too, e.g. seek_help Bo hearth"""
        words = self.words(arg, 1, "seek_help NAME [keep=ID,ID] [hearth]")
        args = coerce("seek_help", self.options(words[1:], ("hearth",)))
        args.setdefault("keep", "worst")
        self.run(self.who(words[0]), "seek_help", **args)

    def do_reshuffle(self, arg):
        """reshuffle NAME
        The optional reshuffle (not during a flip), e.g. reshuffle Ann"""
        words = self.words(arg, 1, "reshuffle NAME")
        self.run(self.who(words[0]), "reshuffle")

    # ======================================================================
    # The sheet and advancement
    def do_attr(self, arg):
        """attr NAME str|dex|int SUIT
        Which suit an attribute flips, on NAME's sheet.
          str|dex|int   the attribute, e.g. attr Ann dex blade
          SUIT          anvil, blade, crown or dragon, e.g. attr Ann str dragon"""
        words = self.words(arg, 3, "attr NAME str|dex|int SUIT")
        self.run(self.who(words[0]), "set_attr", attr=words[1], suit=words[2])

    def do_move(self, arg):
        """move NAME MOVE [wild|novice|base|expert|master]
        Write a move on NAME's sheet at a level (default base).
          MOVE     the move's name (quote it if it has spaces), e.g. move Ann Sneak
          wild|novice|base|expert|master   the level, e.g. move Ann "Pick Locks" expert"""
        words = self.words(arg, 2, "move NAME MOVE [LEVEL]")
        self.run(self.who(words[0]), "set_move", name=words[1], level=words[2] if len(words) > 2 else "base")

    def do_study(self, arg):
        """study NAME MOVE
        Study under a master: 2 XP to raise a move or learn a new one.
          MOVE   the move (quote it if it has spaces), e.g. study Ann Sneak"""
        words = self.words(arg, 2, "study NAME MOVE")
        self.run(self.who(words[0]), "study", move=words[1])

    def do_mercy(self, arg):
        """mercy NAME
        A mercy flashback: one XP for a forgotten action, e.g. mercy Ann"""
        words = self.words(arg, 1, "mercy NAME")
        self.run(self.who(words[0]), "mercy_flashback")

    def do_xp(self, arg):
        """xp NAME [N]
        NAME gains N XP from outside a flip (default 1), e.g. xp Ann 2"""
        words = self.words(arg, 1, "xp NAME [N]")
        n = number(words[1], "XP", "xp Ann 2") if len(words) > 1 else 1
        self.run(self.who(words[0]), "gain_xp", n=n)

    # ======================================================================
    # Mini-games
    def do_minigame(self, arg):
        """minigame NAME pick_locks|magic | minigame NAME swap CARD | minigame NAME done | minigame NAME abandon
        The corner-matching mini-games on NAME's device.
          pick_locks|magic   start one (3 or 4 cards), e.g. minigame Ann pick_locks
          swap CARD          exhaust a card and replace it from the deck, e.g. minigame Ann swap 7
          done               finish: the cards line up, a success, e.g. minigame Ann done
          abandon            give up: read it as a miss, e.g. minigame Ann abandon"""
        words = self.words(arg, 2, "minigame NAME pick_locks|magic|swap CARD|done|abandon")
        who, what = self.who(words[0]), words[1]
        if what in MINIGAMES:
            self.run(who, "minigame_start", kind=what)
        elif what == "swap":
            if len(words) < 3:
                raise Usage("say which card to swap, e.g. minigame %s swap 7" % who)
            self.run(who, "minigame_exhaust", card=words[2])
        elif what in ("done", "abandon"):
            self.run(who, "minigame_end", abandon=(what == "abandon"))
        else:
            raise Usage("minigame %s takes pick_locks, magic, swap CARD, done or abandon, not %r" % (who, what))

    def odds_deck(self, who, words):
        """The exact odds of a Deckahedron player's next flip, from the device."""
        args = self.options(words, (), self.flip_words)
        suit = args.get("suit") or (self.hub.player(who).state.get("attrs") or {}).get(args.get("attr", "str"))
        r = self.hub.command(who, "odds", suit=suit, net=args.get("net", 0))
        self.say("%s's next flip, %s %+d (%s cards):" % (who, title(suit), args.get("net", 0),
                                                          r.get("cards_flipped")))
        for level in (4, 3, 2, 1):
            self.say("  %-8s %s" % (WORDS[level], percent((r.get("levels") or {}).get(str(level)))))
        self.say("  XP card  %s" % percent(r.get("xp")))
        note = cap_note(args.get("net", 0), self.hub.player(who).state)
        if note:
            self.say(note)

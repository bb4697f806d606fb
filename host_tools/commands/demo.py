"""`deckahedron demo`: a short narrated scene played on the rules core.

Until the simulated table exists this is what `make run` shows a newcomer:
flips with advantage and disadvantage, the mandatory reshuffle, an attack
revealed and taken as Stamina, a Wound, and a night's Rest.
"""

from rich.console import Console
from rich.table import Table

from shared_rules.deck import cards as C
from shared_rules.deck.editions import EDITION_KEYS, edition
from shared_rules.errors import RulesError
from shared_rules.deck.game import Game


def add_arguments(parser):
    parser.add_argument("--seed", type=int, default=2024, help="shuffle seed (default 2024)")
    parser.add_argument("--edition", choices=EDITION_KEYS, default="md", help="rules edition (default md)")


class Narrator:
    def __init__(self, game, console):
        self.g = game
        self.out = console
        self.ed = edition(game.s.edition)

    def card_text(self, cid, suit=None):
        c = C.CARDS[cid]
        marks = []
        if c.xp:
            marks.append("XP")
        if c.stamina:
            marks.append("stamina")
        if c.crit:
            marks.append("critical " + c.crit)
        if c.kind != "deck":
            marks.append(c.kind)
        label = "card %s" % cid
        if suit is not None:
            label += " " + self.glyph(C.level(c, suit))
        return label + (" (%s)" % ", ".join(marks) if marks else "")

    def glyph(self, level):
        return self.ed["level_glyphs"][level - 1]

    def say(self, text):
        self.out.print(text)

    def status(self):
        s = self.g.summary()
        t = self.g.s
        self.out.print(
            "[dim]  deck %d · discard %d · exhaustion %d · XP %d · %s %d · Harm %d · Wounds %d%s[/dim]"
            % (s["draw"], s["discard"], s["exhaustion"], s["xp"], self.ed["gm_points"], s["shadow"],
               t.harm, t.wound_tokens, " · INCAPACITATED" if s["incapacitated"] else ""))

    def flip(self, who_does_what, **args):
        self.say("\n[bold]%s[/bold]" % who_does_what)
        r = self.g.do("flip", args)
        for ev in r["events"]:
            self.say("  [yellow]%s[/yellow]" % ev)
        shown = ", ".join(self.card_text(cid, r["suit"]) for cid in r["cards"])
        way = "best" if r["net"] > 0 else ("worst" if r["net"] < 0 else "only")
        self.say("  flips %s for %s (net %+d, %s card counts)" % (shown, r["suit"].capitalize(), r["net"], way))
        if r["phase"] == "choose":
            pick = r["tied"][0]
            for cid in r["tied"]:
                if C.CARDS[cid].xp:
                    pick = cid
            self.say("  a tie: the player picks card %s" % pick)
            r = self.g.do("choose", {"card": pick})
        crit = "blessing" if C.CARDS[r["resolving"]].crit == "success" else None
        end = self.g.do("end_flip", {"crit": crit} if crit else {})
        self.say("  result: [bold]%s[/bold] from card %s" % (self.glyph(end["level"]), end["resolving"]))
        for ev in end["events"]:
            self.say("  [yellow]%s[/yellow]" % ev)
        self.status()
        return end


def run(args):
    console = Console()
    g = Game.new(seed=args.seed, edition_key=args.edition, campaign="9h",
                 attrs={"str": "crown", "dex": "blade", "int": "anvil"})
    n = Narrator(g, console)
    ed = edition(args.edition)
    console.rule("[bold]Deckahedron demo[/bold] · %s · seed %d" % (ed["name"], args.seed))
    n.say("Kresk the scrappy adventurer has Str = Crown, Dex = Blade, Int = Anvil.")
    n.say("His Deckahedron of 20 cards is shuffled; the device keeps every pile.")
    n.status()
    try:
        g.do("set_move", {"name": "Defy Danger", "level": "expert"})
        n.flip("Kresk leaps the spiked pit: Defy Danger (expert, +1) with Str.", attr="str", move="Defy Danger")
        n.flip("A goblin has the high ground: Mix It Up with Str at a disadvantage.", attr="str", net=-1)
        n.flip("He reads the old runes with Int, helped by a friend and a lantern (+2).", attr="int", net=2)
        while len(g.s.draw) > 6:
            n.flip("Kresk keeps acting with Dex.", attr="dex")
        n.flip("One more flip: the deck is low, the rules demand a reshuffle when it reaches 5.", attr="dex", net=1)

        n.say("\n[bold]The goblin strikes back.[/bold] Reveal 1d10 for its attack power.")
        r = g.do("reveal", {"kind": "d10"})
        n.say("  revealed %s from the %s: attack power [bold]%d[/bold]" % (", ".join(r["cards"]), r["pile"], r["power"]))
        if r["power"] >= 3:
            d = g.do("damage", {"power": r["power"], "harm": 1})
            n.say("  Kresk takes 1 Harm for 3 of it, and loses %d Stamina: %d cards to Exhaustion (face-down)." % (d["stamina"], d["cards_lost"]))
        else:
            d = g.do("damage", {"power": r["power"]})
            n.say("  Kresk loses %d Stamina: %d cards to Exhaustion (face-down)." % (d["stamina"], d["cards_lost"]))
        n.status()

        n.say("\n[bold]A troll's club.[/bold] Attack power 9: Kresk takes a Wound instead of 9 Stamina.")
        w = g.do("damage", {"power": 9, "wounds": 1})
        n.say("  a wound card (%s) goes into his discard pile; it will cycle into his deck." % ", ".join(e.split()[-1] for e in w["events"] if e.startswith("took")))
        n.status()

        n.say("\n[bold]Night falls. Kresk rests.[/bold]")
        keep = [e[0] for e in g.s.exhaustion][: g.s.harm + g.s.wound_tokens]
        rest = g.do("rest", {"keep": keep})
        n.say("  Exhaustion tokens back; he keeps %d Exhaustion card(s) for his Harm and Wound, %d cards return to the discard pile; one Harm heals."
              % (len(rest["kept"]), len(rest["recovered"])))
        if "say" in rest:
            n.say("  " + rest["say"])
        n.status()
    except RulesError as e:  # a seed that reaches an edge of the rules
        n.say("[red]%s[/red]" % e)

    odds = Table(title="Exact odds of Kresk's next Str flip (Crown) from his current deck")
    for col in ("net",) + tuple(ed["level_glyphs"]):
        odds.add_column(col, justify="right")
    for net in (-1, 0, 1):
        row = g.odds("crown", net)
        cells = []
        for lv in ("1", "2", "3", "4"):
            a, b = row["levels"][lv].split("/")
            cells.append("%.1f%%" % (100.0 * int(a) / int(b)))
        odds.add_row("%+d" % net, *cells)
    console.print()
    console.print(odds)
    console.print("\nState digest %s, %d commands. Try [bold]deckahedron odds[/bold] for the full table." % (g.digest(), g.s.count))
    return 0

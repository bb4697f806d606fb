"""The GM's asked flip (op ask, docs/protocol.md): the request on the panel
until the player flips it as asked (B) or declines (C). Loaded when the
first ask arrives."""

from shared_rules import protocol as P
from shared_rules.errors import RulesError
from shared_rules.deck.state import ATTRS

from deck.ui import MAX_NET_UI, flip_now
from widgets import _wrap

def offer(u, args):
    """Show the request; the reply to the host. RulesError when it cannot be shown now."""
    ask, who, attr, net, why = args.get("ask"), args.get("from", "GM"), args.get("attr"), args.get("net", 0), \
        args.get("reason", "")
    if not (_int(ask) and ask > 0 and attr in ATTRS and _int(net) and -MAX_NET_UI <= net <= MAX_NET_UI
            and isinstance(who, str) and 0 < len(who) <= 16 and isinstance(why, str) and len(why) <= P.ASK_REASON):
        raise RulesError("bad_args", "ask needs ask (a number), attr (str, dex or int), net (-3 to 3), "
                                     "from (1 to 16 characters), reason (up to %d)" % P.ASK_REASON)
    g = u.game
    if g is None:
        raise RulesError("no_game", "there is no game: start a new character")
    top = u.stack[-1] if u.stack else None
    if isinstance(top, Ask) and top.ask == ask:
        return {"shown": ask}  # a retry: already on the panel
    if g.s.incapacitated:
        raise RulesError("out", "the player is knocked out: no flip until they are back on their feet")
    if u.stack or g.s.flip is not None or g.s.minigame:
        raise RulesError("busy", "the player is busy (a menu, a flip or a mini-game): ask again once they are home")
    u.push(Ask(u, ask, who, attr, net, why))
    u.app.dirty = True
    return {"shown": ask}


def _int(v):
    return isinstance(v, int) and not isinstance(v, bool)


class Ask:
    def __init__(self, ui, ask, who, attr, net, why):
        self.ui, self.ask, self.who, self.attr, self.net, self.why = ui, ask, who, attr, net, why

    def view(self):
        lines = ["%s asks you to flip" % self.who, "%s %+d" % (self.attr.upper(), self.net)] + _wrap(self.why)[:3]
        return {"screen": "message", "title": "Flip asked", "lines": lines, "hint": "B flip  C decline"}

    def press(self, b):
        u = self.ui
        if b not in ("B", "C"):
            return
        u.pop()
        app = u.app
        if b == "C":
            app.decline(self.ask, "declined")
            return
        u.attr, u.net = self.attr, self.net
        app.asked = self.ask  # the flip's events carry the ask (App.command)
        flip_now(u)
        if u.game.s.flip is None and app.asked == self.ask:  # refused by the rules: said on the panel
            app.asked = None
            app.decline(self.ask, "refused")

"""`deckahedron table`: the GM's console.

    deckahedron table --sim 4                 # four simulated boards
    deckahedron table --port /dev/ttyACM0 --port /dev/ttyACM1
    deckahedron table                          # every board found by USB id

At a terminal it shows every player live and takes commands (type `help`).
With standard input not a terminal (CI, `make run < /dev/null`) it plays a
short scripted scene instead, writes each board's screen to PNG, prints where
they are, and exits 0.
"""

import os
import shlex
import sys
import tempfile
import time

from rich.console import Console
from rich.table import Table

from shared_rules.editions import edition

from host_tools.link import DeviceError, LinkError
from host_tools.table import TableError, TableHub

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu", "Mo", "Ned", "Oz", "Pia")
GLYPHS = ("\u2717", "\u2705", "\u2714\u2714", "\u2714\u2714\u2714")

HELP = """commands (NAME is a player):
  flip NAME [attr=str|dex|int] [suit=S] [net=N]   flip and resolve on the device
  press NAME A|B|C|UP|DOWN                         press a device button
  damage NAME POWER [harm=N] [wounds=N]            deal damage (the player's choice)
  blessing NAME / wound NAME                       from the shared supply
  team LEAD SUPPORTER... [attr=..] [net=N]         teamwork flip across devices
  shadow spend N                                   the GM spends Shadow points
  backup [NAME]   restore NAME PORT                backups and replacement devices
  screen NAME FILE.png                             save a device's screen
  do NAME OP [key=value ...]                       any device command
  log [N]   status   help   quit"""


def add_arguments(parser):
    parser.add_argument("--port", action="append", default=[], help="a device's serial port (repeatable)")
    parser.add_argument("--sim", type=int, default=0, metavar="N", help="also start N simulated boards (1-16)")
    parser.add_argument("--seed", type=int, default=None, help="seed for the simulated boards' decks")
    parser.add_argument("--db", default=None, help="SQLite session log (default: in the run folder)")
    parser.add_argument("--dir", default=None, help="run folder for logs, screens and sim flash (default: temp)")


def discover():
    """Serial ports whose USB id (vendor, product) is a supported board's, as
    the board registry gives them, then the boards of every running
    `deckahedron sim`."""
    from host_tools.boards import usb_ids
    from host_tools.simboards import running_sims

    ports = []
    try:
        from serial.tools import list_ports
    except ImportError:
        pass
    else:
        ids = usb_ids()
        ports = [p.device for p in list_ports.comports() if (p.vid, p.pid) in ids]
    return ports + [port for _, port in running_sims()]


def _kv(words):
    from host_tools.do_cmd import Usage, parse_pairs

    try:
        return parse_pairs(words)
    except Usage as e:
        raise TableError(str(e))


def status_table(hub):
    t = Table(title="Table")
    for col in ("player", "device", "last flip", "deck/disc/exh", "XP", "Harm/Wnd/Exh tok", "supply cards", "state"):
        t.add_column(col)
    for name, p in hub.players.items():
        s = p.state
        f = p.last_flip
        last = "-"
        if f and f.get("level"):
            last = "%s %+d: %s -> %s %s" % ((f.get("suit") or "?").capitalize(), f.get("net") or 0,
                                            ",".join(f.get("cards", [])), f.get("resolving"),
                                            GLYPHS[int(f["level"]) - 1])
        tokens = s.get("tokens", {})
        state = "INCAPACITATED (%s)" % s["incapacitated"] if s.get("incapacitated") else ("offline" if not p.online else "ok")
        if p.error and not s:
            state = p.error
        t.add_row(name, "%s\n%s" % (p.device, p.port), last,
                  "%s/%s/%s" % (s.get("draw", "?"), s.get("discard", "?"), s.get("exhaustion", "?")),
                  str(s.get("xp", "?")),
                  "%s/%s/%s" % (tokens.get("harm", "?"), tokens.get("wound", "?"), tokens.get("exhaustion", "?")),
                  ",".join(s.get("held", [])) or "-", state)
    earned, spent, left = hub.shadow()
    names = edition((next(iter(hub.players.values())).state.get("edition") if hub.players else "md") or "md")["gm_points"]
    t.caption = "Shared supply: %s   ·   GM %s points: %d earned, %d spent, %d left" % (
        ",".join(hub.supply()) or "empty", names, earned, spent, left)
    return t


def run_line(hub, line, console, run_dir):
    """One console command; returns False to quit."""
    words = shlex.split(line)
    if not words:
        return True
    cmd, rest = words[0], words[1:]
    if cmd in ("quit", "exit"):
        return False
    if cmd == "help":
        console.print(HELP)
    elif cmd == "status":
        console.print(status_table(hub))
    elif cmd == "flip" and rest:
        r = hub.flip(rest[0], **_kv(rest[1:]))
        console.print("%s: %s from card %s" % (rest[0], GLYPHS[r["level"] - 1], r["resolving"]))
    elif cmd == "press" and len(rest) == 2:
        hub.command(rest[0], "press", button=rest[1].upper())
    elif cmd == "damage" and len(rest) >= 2:
        hub.deal_damage(rest[0], int(rest[1]), **_kv(rest[2:]))
    elif cmd in ("blessing", "wound") and len(rest) == 1:
        r = hub.command(rest[0], "take_" + cmd)
        console.print("%s takes %s" % (rest[0], r.get("card")))
    elif cmd == "team" and len(rest) >= 2:
        names = [w for w in rest if "=" not in w]
        r = hub.teamwork(names[0], names[1:], **_kv([w for w in rest if "=" in w]))
        console.print("teamwork: %s resolved by %s's card %s" % (GLYPHS[r["level"] - 1], r["resolved_by"], r["card"]))
    elif cmd == "shadow" and len(rest) == 2 and rest[0] == "spend":
        earned, spent, left = hub.spend_shadow(int(rest[1]))
        console.print("Shadow: %d left" % left)
    elif cmd == "backup":
        for n in (rest or list(hub.players)):
            console.print("%s backed up (%s)" % (n, hub.backup(hub.player(n))))
    elif cmd == "restore" and len(rest) == 2:
        console.print("%s restored onto %s (%s)" % (rest[0], rest[1], hub.restore(rest[0], rest[1])))
    elif cmd == "screen" and len(rest) == 2:
        save_screen(hub, rest[0], rest[1])
        console.print("wrote %s" % rest[1])
    elif cmd == "do" and len(rest) >= 2:
        console.print(hub.command(rest[0], rest[1], **_kv(rest[2:])))
    elif cmd == "log":
        for row in hub.log_rows(int(rest[0]) if rest else 20):
            console.print("%s %-4s %-8s %s %s" % (time.strftime("%H:%M:%S", time.localtime(row[0])), row[1], row[2], row[4], row[5]))
    else:
        console.print("unknown or incomplete command: %r (type help)" % line)
    return True


def save_screen(hub, name, path, scale=2):
    from host_tools.screens import save_png

    p = hub.player(name)
    buf = p.link.fetch_screen()
    w, h = p.link.screen_size
    save_png(buf, path, width=w, height=h, scale=scale)
    return path


def scripted_scene(hub, console, run_dir):
    """The short scene `make run` plays when nobody is at the keyboard."""
    names = list(hub.players)
    a = names[0]
    console.rule("Scripted scene")
    steps = [
        ("%s flips Str with advantage" % a, lambda: hub.flip(a, attr="str", net=1)),
        ("%s flips with the buttons (B, then A): the flip arrives as an event" % names[1 % len(names)],
         lambda: (hub.command(names[1 % len(names)], "press", button="B"),
                  hub.command(names[1 % len(names)], "press", button="A"))),
    ]
    if len(names) >= 3:
        steps.append(("teamwork: %s leads, %s support with one Anvil each" % (names[2], ", ".join(names[:2])),
                      lambda: hub.teamwork(names[2], names[:2], attr="dex")))
    last = names[-1]
    steps += [
        ("%s takes a Blessing from the shared supply" % a, lambda: hub.command(a, "take_blessing")),
        ("the troll hits %s for 9: one Wound absorbs it" % last, lambda: hub.deal_damage(last, 9, wounds=1)),
        ("the goblin hits %s for 4 Stamina" % a, lambda: hub.deal_damage(a, 4)),
        ("%s flips Int at a disadvantage" % last, lambda: hub.flip(last, attr="int", net=-1)),
    ]
    for text, action in steps:
        try:
            action()
            console.print("[green]\u2713[/green] " + text)
        except (DeviceError, TableError) as e:
            console.print("[yellow]-[/yellow] %s: %s" % (text, e))
        hub.poll(0.3)
    hub.poll(0.5)
    console.print(status_table(hub))
    out = os.path.join(run_dir, "screens")
    os.makedirs(out, exist_ok=True)
    for n in names:
        path = save_screen(hub, n, os.path.join(out, "%s.png" % n))
        console.print("screen of %s: %s" % (n, path))
    flips = hub.flip_rows()
    console.print("session log: %d entries, %d flips (%d made with buttons)" % (
        len(hub.log_rows(10 ** 6)), len(flips), sum(1 for f in flips if f[1] == "buttons")))


def run(args):
    console = Console()
    if args.sim < 0 or args.sim > 16:
        console.print("deckahedron table: --sim takes 1 to 16 boards", style="red")
        return 2
    run_dir = args.dir or tempfile.mkdtemp(prefix="deckahedron-table-")
    os.makedirs(run_dir, exist_ok=True)
    ports = list(args.port)
    sims = None
    if not ports and not args.sim:
        ports = discover()
        if not ports:
            console.print("No boards found (by USB id, nor any running `deckahedron sim`). "
                          "Plug one in, run `deckahedron sim --boards N`, or use --sim N here.", style="yellow")
            return 1
    if args.sim:
        from host_tools.simboards import SimTable

        sims = SimTable(args.sim, os.path.join(run_dir, "sim"), seed=args.seed)
        sims.start()
        ports += [b.port for b in sims.boards]
    hub = TableHub(args.db or os.path.join(run_dir, "session.db"), notify=lambda t: console.print(t, style="yellow"))
    try:
        for port in ports:
            try:
                hub.join(None, port, names=NAMES)  # a device the table knows gets its name again
            except (LinkError, DeviceError, OSError) as e:
                console.print("could not join the device on %s: %s" % (port, e), style="red")
        if not hub.players:
            return 1
        console.print("run folder: %s" % run_dir)
        if not sys.stdin.isatty():
            scripted_scene(hub, console, run_dir)
            return 0
        return console_loop(hub, console, run_dir)
    finally:
        hub.close()
        if sims is not None:
            sims.stop()


def console_loop(hub, console, run_dir):
    import select

    console.print(status_table(hub))
    console.print("type help for commands")
    while True:
        console.print("table> ", end="")
        sys.stdout.flush()
        while True:  # poll the devices while waiting for the GM's line
            ready, _, _ = select.select([sys.stdin], [], [], 0.3)
            if ready:
                break
            changed = hub.poll(0)
            if changed:
                console.print("\n" + ", ".join("%s changed" % n for n in changed))
                console.print(status_table(hub))
                console.print("table> ", end="")
                sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            return 0
        try:
            if not run_line(hub, line.strip(), console, run_dir):
                return 0
        except (TableError, DeviceError, LinkError, ValueError) as e:
            console.print(str(e), style="red")
        hub.poll(0.1)
        console.print(status_table(hub))

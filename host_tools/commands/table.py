"""`deckahedron table`: the GM's console.

    deckahedron table --sim 4                 # four simulated boards
    deckahedron table --port /dev/ttyACM0 --port /dev/ttyACM1
    deckahedron table                          # every board found by USB id

At a terminal it shows every player live and takes commands (type `help`),
and serves the live table page on http://127.0.0.1:8765/ (docs/web.md;
--web-port N, --no-web; --web-host ADDRESS to show it on a network).
With standard input not a terminal (CI, `make run < /dev/null`) it plays a
short scripted scene instead, writes each board's screen to PNG, prints where
they are, and exits 0.
"""

import os
import sqlite3
import sys
import tempfile

from host_tools.table import outfiles
from host_tools.cli import reporter, whole
from host_tools.console.core import TableConsole, make_console, save_screen, status_table
from host_tools.link import DeviceError, LinkError
from host_tools.table.runlock import RunFolderBusy, RunLock
from host_tools.table.errors import NotSessionDatabase, TableError
from host_tools.table.hub import TableHub
from host_tools.web import DEFAULT_PORT
from shared_rules.deck.editions import DEFAULT_EDITION, edition

LOOPBACK = "127.0.0.1"
PAGE_POLL = 0.1  # seconds between reads of the devices while the page is served: an event is on it within ~0.2 s

PROG = "deckahedron table"
EXIT_USAGE = 2
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu", "Mo", "Ned", "Oz", "Pia")

_complain, _fail = reporter(PROG, EXIT_USAGE)


def add_arguments(parser):
    parser.add_argument("--port", action="append", default=[], help="a device's serial port (repeatable)")
    parser.add_argument("--sim", type=whole(1, 16, "4"), default=0, metavar="N",
                        help="also start N simulated boards (1-16)")
    parser.add_argument("--seed", type=whole(0, 10 ** 9, "7"), default=None,
                        help="seed for the simulated boards' decks (0 or more)")
    parser.add_argument("--db", default=None, help="SQLite session log (default: in the run folder)")
    parser.add_argument("--dir", default=None, help="run folder for logs, screens and sim flash (default: temp)")
    parser.add_argument("--web-port", type=whole(1, 65535, "8765"), default=DEFAULT_PORT, metavar="PORT",
                        help="port of the live table page (default %d; a free one if it is taken)" % DEFAULT_PORT)
    parser.add_argument("--web-host", default=LOOPBACK, metavar="ADDRESS",
                        help="serve the page on this interface instead of %s (its URL and QR code are "
                             "printed): anyone there with that URL can act as the GM" % LOOPBACK)
    parser.add_argument("--no-web", action="store_true", help="no live table page")
    parser.add_argument("--new", action="store_true",
                        help="start afresh: the last table's session database and simulated boards in the run folder "
                             "are moved into its earlier/ folder (kept, not deleted) instead of resumed")
    parser.error = _fail


def discover():
    """Serial ports whose USB id (vendor, product) is a supported board's, as
    the board registry gives them, then the boards of every running
    `deckahedron sim`."""
    from host_tools.boards import usb_ids
    from host_tools.sim.unixport import running_sims

    ports = []
    try:
        from serial.tools import list_ports
    except ImportError:
        pass
    else:
        ids = usb_ids()
        ports = [p.device for p in list_ports.comports() if (p.vid, p.pid) in ids]
    return ports + [port for _, port in running_sims()]


# The scene `make run` plays when nobody is at the keyboard: what happens, then
# the console line that does it (the words are the console's own answers).
SCENE = (
    ("{a} flips Str with advantage", "flip {a} str +1"),
    ("{b} flips with the buttons (B, then A): the flip arrives as an event", "press {b} B"),
    (None, "press {b} A"),
    ("teamwork: {c} leads, {a} and {b} support with one Anvil each", "team {c} {a} {b} dex"),
    ("{a} takes a Blessing from the shared supply", "blessing {a}"),
    ("the troll hits {z} for 9: one Wound absorbs it", "damage {z} 9 wounds=1"),
    ("the goblin hits {a} for 4 Stamina", "damage {a} 4"),
    ("{z} flips Int at a disadvantage", "flip {z} int -1"),
    ("{a} catches a breath", "breather {a}"),
)


def scripted_scene(hub, out, run_dir):
    names = list(hub.players)
    who = {"a": names[0], "b": names[1 % len(names)], "c": names[2 % len(names)], "z": names[-1]}
    console = TableConsole(hub, out, run_dir)
    out.rule("Scripted scene")
    def run(line):
        """Show the line and run it as the console would; a press gives the device's screen after
        it (which tells a reward menu from a flip), any other line None."""
        out.print("table> " + line, style="cyan")
        words = line.split()
        if words[0] == "press":
            return (console.attempt(lambda: console.press(words[1], words[2])) or {}).get("screen")
        console.onecmd(line)
        return None

    for text, line in SCENE:
        if line.startswith("team") and len(names) < 3:
            continue
        if text:
            out.print(text.format(**who), style="bold")
        screen = run(line.format(**who))
        hub.poll(0.3)
        _take_the_reward(hub, console, out, names, screen, run)
    hub.poll(0.5)
    out.print(status_table(hub))
    shots = os.path.join(run_dir, "screens")  # the hub's own files stay in the run folder
    os.makedirs(shots, exist_ok=True)
    for n in names:
        path = os.path.join(shots, outfiles.file_name(n, ".png"))
        again = os.path.exists(path)
        try:
            save_screen(hub, n, path, overwrite=True)
        except (TableError, LinkError, DeviceError, ValueError) as e:
            out.print("no screen of %s: %s" % (n, e), style="red")
            continue
        out.print("screen of %s: %s%s" % (n, path, " (replacing the last run's)" if again else ""))
    flips = hub.flip_rows()
    out.print("session log: %d entries, %d flips (%d made with buttons)" % (
        len(hub.log_rows(10 ** 6)), len(flips), sum(1 for f in flips if f[1] == "buttons")))


def _take_the_reward(hub, console, out, names, screen, run):
    """A flip the scene made that drew the Critical Success waits for its reward, as at a real
    table (the console asks the GM; the device, once A ends the flip, its player with a menu): the
    scene takes a Blessing, where the edition offers one, so the next lines find every flip
    finished. ``screen``: the device's screen after the scene's press, None after a console line;
    ``run``: the scene's own way to show and run a line."""
    for name in names:
        state = hub.player(name).state or {}
        flip = state.get("flip")
        if not flip or not console.critical_success(flip.get("resolving")) or screen not in (None, "menu"):
            continue  # a button flip still on its flip screen: its A asks for the reward
        by_buttons = screen == "menu"
        options = list(edition(state.get("edition") or DEFAULT_EDITION)["crit_options"])
        reward = "blessing" if "blessing" in options else "none"
        out.print("%s drew the Critical Success: the reward is %s" % (
            name, "a Blessing" if reward == "blessing" else "declined (this edition offers no Blessing)"), style="bold")
        if not by_buttons:
            run("end %s crit=%s" % (name, reward))
            continue
        # the device's "Critical success!" menu: a row per option, then "No thanks"
        presses = ["DOWN"] * (options.index(reward) if reward in options else len(options)) + ["B"]
        for button in presses:
            shown = run("press %s %s" % (name, button))
        if shown == "message":  # the reward said on the panel: A goes home
            run("press %s A" % name)
        hub.poll(0.3)


def set_aside(db_path, run_dir, when=None):
    """--new: move the session database at ``db_path`` (with its SQLite
    journal files) and the run folder's simulated boards (sim/) into
    run_dir/earlier/<time>/, kept rather than deleted; that folder, or None
    when there was nothing to set aside."""
    import time

    found = [p for p in (db_path, db_path + "-wal", db_path + "-shm", db_path + "-journal",
                         os.path.join(run_dir, "sim")) if os.path.exists(p)]
    if not found:
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(when))
    dest = os.path.join(run_dir, "earlier", stamp)
    n = 1
    while os.path.exists(dest):  # two fresh starts in one second
        n += 1
        dest = os.path.join(run_dir, "earlier", "%s-%d" % (stamp, n))
    os.makedirs(dest)
    for p in found:
        os.replace(p, os.path.join(dest, os.path.basename(p)))
    return dest


def resumed_line(hub, db_path):
    """What a start that resumes an earlier table says first: where it
    resumed from, the players it knows, the Shadow carried over, and how to
    start afresh instead."""
    known = sorted(hub.players)
    return ("resumed the table kept in %s: %s; Shadow %d available (a fresh start: deckahedron table --new, "
            "or make run NEW=1)" % (db_path, ("players " + ", ".join(known)) if known else "no players yet",
                                    hub.shadow()[2]))


def open_hub(path, out):
    """The hub on its session database, or None after one line saying why
    (a missing folder, a folder, a file that cannot be written)."""
    where = os.path.dirname(os.path.abspath(path))
    reason = None
    if os.path.isdir(path):
        reason = "it is a folder; name a file in it, e.g. --db %s" % os.path.join(path, "session.db")
    elif not os.path.isdir(where):
        reason = "the folder %s does not exist" % where
    if reason is None:
        try:
            return TableHub(path, notify=lambda text: out.print(text, style="yellow"))
        except NotSessionDatabase as e:
            reason = "%s; it is left as it was" % e
        except sqlite3.Error as e:
            reason = "%s (it must be a session database this user can write)" % e
    _complain("cannot use %s as the session database: %s" % (path, reason))
    return None


def start_page(console, host, port, out):
    """The live table page beside the console (docs/web.md); its URL is
    printed. A taken port falls back to a free one; a page that cannot be
    served at all is said in one line and the console goes on without it."""
    from host_tools.web import Bridge, WebServer

    bridge = Bridge(console)
    for attempt in (port, 0):
        server = WebServer(bridge, host, attempt)
        try:
            server.start()
        except OSError as e:
            out.print("the page cannot listen on %s port %s: %s" % (host, attempt or "(any)", e.strerror or e),
                      style="yellow")
            continue
        console.ticks.append(bridge.tick)
        server.announce(out)
        return server
    out.print("going on without the live page", style="yellow")
    return None


def run(args):
    out = make_console()
    try:
        run_dir = args.dir or tempfile.mkdtemp(prefix="deckahedron-table-")
        os.makedirs(run_dir, exist_ok=True)
    except OSError as e:
        _complain("cannot use %s as the run folder: %s" % (args.dir, e.strerror or e))
        return EXIT_USAGE
    try:
        lock = RunLock(run_dir)  # held while this hub runs; the kernel lets go if the process dies
    except (RunFolderBusy, OSError) as e:
        _complain(e)
        return EXIT_USAGE
    with lock:
        return _run(args, out, run_dir)


def _run(args, out, run_dir):
    db_path = args.db or os.path.join(run_dir, "session.db")
    if args.new:
        try:
            kept = set_aside(db_path, run_dir)
        except OSError as e:
            _complain("--new: cannot set the last table aside: %s" % (e.strerror or e))
            return EXIT_USAGE
        if kept:
            out.print("a fresh start: the last table's session log and simulated boards are kept in %s" % kept)
    resuming = os.path.exists(db_path)
    hub = open_hub(db_path, out)
    if hub is None:
        return EXIT_USAGE
    ports = list(args.port)
    sims = None
    try:
        if not ports and not args.sim:
            ports = discover()
            if not ports:
                out.print("No boards found (by USB id, nor any running `deckahedron sim`). "
                          "Plug one in, run `deckahedron sim --boards N`, or use --sim N here.", style="yellow")
                return 1
        if args.sim:
            from host_tools.sim.unixport import SimError, SimTable

            try:  # no MicroPython unix port (an installed wheel without it): one line, not a traceback
                sims = SimTable(args.sim, os.path.join(run_dir, "sim"), seed=args.seed)
            except SimError as e:
                _complain("--sim: %s" % e)
                return 3
            sims.start()
            ports += [b.port for b in sims.boards]
        for port in ports:
            try:
                hub.join(None, port, names=NAMES)  # a device the table knows gets its name again
            except (LinkError, DeviceError, OSError) as e:
                out.print("could not join the device on %s: %s" % (port, e), style="red")
            except Exception as e:  # a device that answers nonsense is left out, the table goes on
                out.print("could not join the device on %s: %s: %s" % (port, type(e).__name__, e), style="red")
        if not hub.players:
            return 1
        if resuming:
            out.print(resumed_line(hub, db_path), style="yellow")
        out.print("run folder: %s" % run_dir)
        if not sys.stdin.isatty():
            scripted_scene(hub, out, run_dir)
            return 0
        console = TableConsole(hub, out, run_dir)
        web = None if args.no_web else start_page(console, args.web_host, args.web_port, out)
        try:
            return console.loop(every=0.3 if web is None else PAGE_POLL)
        finally:
            if web is not None:
                web.stop()
    finally:
        hub.close()
        if sims is not None:
            sims.stop()

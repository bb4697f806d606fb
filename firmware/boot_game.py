"""The App's power-up (App.boot): the game read back from its save (or a
new one), what the player is told about it, and after a wake the home
screen's choices kept before the sleep. Dropped from the heap once done
(app.BOOT_ONLY): on the official MicroPython image every module's code
sits in the heap."""

import json

from shared_rules import protocol as P
from shared_rules import systems

from endpoint import EVENTS, REPLIES
from widgets import _wrap


def boot(app):
    st = app.storage.reader()
    got, status = st.load(lambda lines: parse(app, lines))
    if got is not None:
        app.game, app.name = got
    app.fit_ui()  # the save's system's screens; the Deckahedron's with none
    if got is not None:
        if status == "recovered":
            app.ui.notice("Save recovered", ["The last save was", "finished after a", "power cut."])
    elif status == "new":
        app.new_game(app.seed if app.seed is not None else app.board.entropy())
        app.commit()
    else:
        app.problem = "damaged"
        app.fit_ui()
        app.ui.notice("Save damaged", ["The saved game could not"] + _wrap("be read: " + st.why)[:3] +
                       ["Kept as deck.bad. Menu >", "New character: start over."], sticky=True)
    if app.link.damaged:
        app.ui.notice("Save partly read", ["The game is kept.", "%d link records (host" % app.link.damaged,
                                            "replies, events) were", "unreadable: dropped."])
        app.need_save = True
    if st.notes:
        kept = "Your game is kept." if got is not None else "A new game began." if status == "new" else ""
        app.ui.notice("Flash tidied", _wrap(" ".join(st.notes))[:5] + [kept])
    if app.board.woke == "button" and app.game is not None:
        app.refresh.resume(app.game.s.count)  # a press powered it up: the panel kept its image
        restore_rest(app)
    else:
        app.refresh.clean_next()
    app.dirty = True


def parse(app, lines):
    """(game, name) from a checked save's lines; ValueError if the game
    cannot be used. Link records that cannot be read are dropped."""
    rows = []
    at = app.storage.head  # byte offset of the line (saves are ASCII): kept link lines stay in the file
    for line in lines:
        rows.append(line)
        at += len(line)
        if line.startswith("check "):
            break
    game = systems.load("".join(rows))  # RulesError (a ValueError) for a bad game
    rows = None
    link = app.link
    link.clear()
    name = ""
    for line in lines:
        if line.startswith("name "):
            name = _name(line[5:].rstrip("\n"))
        elif line.startswith("link "):  # an older save: one JSON record
            try:
                mem = json.loads(line[5:])
            except ValueError:
                mem = None
            if isinstance(mem, dict):
                _restore_link(link, mem)
                name = _name(mem.get("name", ""))
            else:
                link.damaged += 1
        else:
            _load_link_line(link, line, at)
        at += len(line)
    return game, name


def restore_rest(app):
    """At a boot a press made: the resting state kept before the sleep
    (only fields this Ui has, of the same type; anything else is
    ignored: the defaults stay)."""
    try:
        with open(app.board.flash_dir + "/" + app.REST_FILE) as f:
            rest = json.loads(f.read())
    except (OSError, ValueError):
        return
    if not isinstance(rest, dict) or rest.get("system", "deck") != app.ui.SYSTEM:
        return  # damaged, or another system's (a new character since)
    now = app._rest()
    for k in now:
        if k != "system" and k in rest and type(rest[k]) is type(now[k]):
            setattr(app.ui, k, rest[k])
    app._rest_kept = app._rest()


def _name(value):
    if isinstance(value, str) and len(value) <= 16:
        try:
            P.check_ascii(value)
            return value
        except P.FrameError:
            pass
    return ""


def _load_link_line(link, line, at):
    """One saved link line of the Endpoint ``link``, which begins at byte
    offset ``at`` of the save file (None: keep the frame in RAM). Whatever
    does not read back as the firmware wrote it is dropped and counted in
    ``damaged``: the game is worth more than the link memory."""
    try:
        key, _, rest = line.partition(" ")
        if key == "seq":
            seq, dropped = rest.split()
            link.seq, link.dropped = _count(seq), _count(dropped)
        elif key in ("reply", "event"):
            num, _, frame = rest.partition(" ")
            if frame[:2] != ("R " if key == "reply" else "E ") or not frame.endswith("\n"):
                raise ValueError(key)
            at = None if at is None or link.open_saved is None else at + len(key) + len(num) + 2
            link._keep(REPLIES if key == "reply" else EVENTS, _count(num), frame, at)
        else:
            raise ValueError(key)
    except ValueError:
        link.damaged += 1


def _restore_link(link, mem):
    """The link memory of an older save (one JSON record), as leniently."""
    try:
        link.seq = _count(mem.get("seq", 0))
        link.dropped = _count(mem.get("dropped", 0))
    except (ValueError, TypeError, AttributeError):
        link.damaged += 1
    for key, into in (("replies", REPLIES), ("events", EVENTS)):
        items = mem.get(key) if isinstance(mem, dict) else None
        for item in items if isinstance(items, list) else ():
            try:
                link._keep(into, _count(item[0]), item[1])
            except (ValueError, TypeError, IndexError, KeyError):
                link.damaged += 1


def _count(value):
    """A saved counter: a non-negative int (from text or JSON), else ValueError."""
    if isinstance(value, str):
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= P.MAX_ID:
        raise ValueError("not a count")
    return value

"""The link's rarer requests, loaded when the host first asks one (and
dropped again at the home screen with the menus, app.RELEASABLE): a board
that only plays keeps their code out of its heap. Each takes the App."""

import binascii

from shared_rules import protocol as P
from shared_rules import systems
from shared_rules.errors import RulesError

from app import MAX_STATE, RESTORE_PARTS, part_asked


def stats(app, args):
    """The firmware's split of its last press (bench/bench_pico.py), and
    the refresh policy's counts since power-on."""
    out = {"rules_us": None, "save_us": None, "render_us": None, "show_us": None, "gc_us": None,
           "saves": app.storage.saves, "refreshes": app.refresh.counts}
    for k in app.work:
        out[k + "_us"] = app.work[k]
    return out


def crashlog(app, args):
    from saves import read_crashes

    return app.part(read_crashes(app.board.flash_dir), args, {})


def screen(app, args):
    """The panel's frame, base64 in parts, each part the encoding of its
    own slice of the frame (a multiple of 3 bytes, so the parts join into
    the whole frame's encoding). Part 0 draws the screen anew; each part
    exports its slice alone: the whole text, made for each part, took ~20
    KB, and the whole frame's export (4,736 bytes in one piece) found no
    room on a CircuitPython Pico with a menu open."""
    step = P.CHUNK // 4 * 3  # frame bytes per part of CHUNK characters
    size = ((app.board.width + 7) >> 3) * app.board.height
    parts = (size + step - 1) // step
    i = part_asked(args, parts)
    if i == 0:
        app.render()
    data = binascii.b2a_base64(app.renderer.frame_bytes(i * step, min(size, (i + 1) * step)))
    return {"w": app.board.width, "h": app.board.height, "part": i, "parts": parts,
            "data": data.decode().rstrip("\n")}


def restore_part(app, args):
    """One part of a saved game the host uploads; the last one replaces
    the game: (mutating, ok, result)."""
    i, n, data, digest = args.get("part"), args.get("parts"), args.get("data"), args.get("digest")
    if not (isinstance(i, int) and isinstance(n, int) and isinstance(data, str) and isinstance(digest, str)):
        raise RulesError("bad_args", "restore needs part, parts, data and digest")
    if not 0 < n <= RESTORE_PARTS:
        app.restoring = None
        raise RulesError("too_large", "a restore has 1 to %d parts: a saved game is at most %d characters"
                         % (RESTORE_PARTS, MAX_STATE))
    if i == 0:
        app.restoring = [n, digest, [], 0]
    r = app.restoring
    if r is None or r[0] != n or r[1] != digest or len(r[2]) != i:
        app.restoring = None
        raise RulesError("bad_restore", "restore parts out of order: start again from part 0")
    r[3] += len(data)
    if r[3] > MAX_STATE:
        app.restoring = None
        raise RulesError("too_large", "the upload is over %d characters: not a saved game" % MAX_STATE)
    r[2].append(data)
    if i < n - 1:
        return False, True, {"restored": False, "part": i}
    text = "".join(app.restoring[2])
    app.restoring = None
    g = systems.load(text)  # RulesError for a damaged upload
    if g.digest() != digest:
        raise RulesError("bad_restore", "the uploaded state does not match its digest")
    app.seal()
    app.game = g
    app.problem = ""
    app.fit_ui()
    app.ui.reset()
    app.refresh.clean_next()
    app.dirty = True
    return True, True, {"restored": True, "digest": g.digest()}

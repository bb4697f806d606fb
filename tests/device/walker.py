"""Walk every menu path from a starting screen, on both runtimes: choose
each row (DOWN n times, then B), follow what opens (sub-menus, number
pickers, name entry) a few levels deep, each path replayed on a fresh
device; every screen reached is drawn where the runtime has the renderer
(MicroPython's framebuf), so a drawing crash fails the walk."""

from tests.device.support import press

MAX_DEPTH = 5  # menus and pickers followed from a root
_renderer = []
_drawn = set()  # the views drawn (repr), each once (first_time)


def renderer():
    """The one Renderer the device tests draw with, or None where the
    runtime has no framebuf (CPython)."""
    if not _renderer:
        try:
            import framebuf  # noqa: F401
        except ImportError:
            _renderer.append(None)
        else:
            from render import Renderer

            _renderer.append(Renderer())
    return _renderer[0]


def first_time(view):
    """True the first time a view is met: the renderer draws a view dict
    whole and from nothing else, and a walk's replays pass the same screens
    again and again (the deck's menus: 389 views in 9,332 draws)."""
    key = repr(view)
    if key in _drawn:
        return False
    _drawn.add(key)
    return True


def draw(view):
    """Draw the view like the panel would (MicroPython only: framebuf),
    each distinct view once."""
    r = renderer()
    if r is not None and first_time(view):
        r.render(view)


def replay(root, path):
    app, start = root()
    press(app, *start)
    v = app.ui.view()
    draw(v)
    for b in path:
        v = press(app, b)
        draw(v)
    return app, v


def walk(root):
    """(rows chosen, screens seen) for every path from one root."""
    todo = [([], 0)]
    chosen = []
    screens = {}
    while todo:
        path, depth = todo.pop()
        app, v = replay(root, path)
        if v["screen"] == "entry":  # a name: a letter changed, taken, then done
            if depth < MAX_DEPTH:
                todo.append((path + ["DOWN", "B", "C"], depth + 1))
            continue
        if v["screen"] == "number":
            for b in ("UP", "DOWN"):
                replay(root, path + [b])
            if depth < MAX_DEPTH:
                todo.append((path + ["B"], depth + 1))
            continue
        if v["screen"] != "menu":
            continue
        for i in range(len(v["items"])):
            step = path + ["DOWN"] * i + ["B"]
            after, w = replay(root, step)
            chosen.append((v["title"], v["items"][i]))
            screens[w["screen"]] = screens.get(w["screen"], 0) + 1
            opened = w["screen"] == "number" or (w["screen"] == "menu" and w["title"] != v["title"])
            if opened and depth < MAX_DEPTH:
                todo.append((step, depth + 1))
    return chosen, screens



"""Where the table's files go (issue 25).

A file the hub writes on its own (the scripted scene's screens) goes inside
the run folder under a name ``file_name`` makes from the player's name (a
device chooses its own name); a path the GM types at the console is written
where it says. Either way nothing is created before the path is checked:
its extension, its folder (never made for a typed path), and an existing
file, which is replaced only when the GM asks (``overwrite``).
"""

import os
import re

MAX_STEM = 64


def file_name(name, ext):
    """A file name made from a player's name: letters, digits, - and _ kept,
    anything else (a path separator, a dot, a space) made _, so it is never
    a path, a dot file or empty."""
    stem = re.sub(r"[^A-Za-z0-9_-]", "_", str(name))[:MAX_STEM].strip("_")
    return (stem or "player") + ext


def check_new(path, exts, overwrite=False):
    """``path``, made absolute, for a file about to be written: its
    extension one of ``exts`` (".png", ...), its folder there, and no file
    there unless ``overwrite``. ValueError in words; nothing is created."""
    ext = os.path.splitext(path)[1].lower()
    if ext not in exts:
        raise ValueError("%s: the file must end in %s, not %r" % (path, " or ".join(exts), ext or "nothing"))
    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        raise ValueError("%s: the folder %s does not exist" % (path, folder))
    if os.path.isdir(path) or (os.path.lexists(path) and not overwrite):
        raise ValueError("%s is there already: add overwrite=yes to replace it" % path)
    return path


def write_new(path, data, overwrite=False):
    """Write ``data`` (bytes) to a path check_new passed; without
    ``overwrite``, a file that appeared since is not replaced either."""
    try:
        with open(path, "wb" if overwrite else "xb") as f:
            f.write(data)
    except FileExistsError:
        raise ValueError("%s is there already: add overwrite=yes to replace it" % path)
    return path

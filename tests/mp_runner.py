"""Run the portable suites (tests/rules/ and tests/device/, with their subfolders) without pytest.

    micropython tests/mp_runner.py [module ...]     (from the repo root)
    python tests/mp_runner.py [module ...]          (same, on CPython, for debugging)

A module is named by its path or dotted name (``tests/rules/deck/test_cards.py``,
``tests.rules.deck.test_cards``), by its part under a suite (``deck/test_cards``,
``deck.test_cards``) or by its bare name (``test_cards``: every module of that
name); with none, every test_*.py of the suites (and their subfolders) runs.
Each callable ``test_*`` attribute runs in name order; a module that fails to
import counts as one failure. The last line is ``N passed, M failed`` and the
exit status is 1 when anything failed.

MicroPython-compatible: no os.path, glob, traceback or importlib.
"""

import gc
import os
import sys

# The portable suites: the rules core with a folder per system, and the
# device app (firmware/ logic that needs no hardware).
SUITES = ("tests/rules", "tests/device")
RULES_DIR = "tests/rules"


def _print_traceback(e):
    try:
        sys.print_exception(e)  # MicroPython
    except AttributeError:
        import traceback

        traceback.print_exception(type(e), e, e.__traceback__, file=sys.stdout)


def _describe(e):
    msg = str(e)
    name = type(e).__name__
    return name + ": " + msg if msg else name


def _listing(folder):
    try:
        return os.listdir(folder)
    except OSError:
        return []


def _is_dir(path):
    try:
        return os.stat(path)[0] & 0x4000 != 0
    except OSError:
        return False


def _walk(folder, out):
    for f in sorted(_listing(folder)):
        path = folder + "/" + f
        if f.startswith("test_") and f.endswith(".py"):
            out.append(path[:-3].replace("/", "."))
        elif f != "__pycache__" and "." not in f and _is_dir(path):
            _walk(path, out)


def discover():
    """Every test module's dotted name (tests.rules.deck.test_cards ...)."""
    names = []
    for folder in SUITES:
        _walk(folder, names)
    return sorted(names)


def resolve(arg, known):
    """The dotted names ``arg`` (any accepted spelling) means, of ``known``."""
    name = arg.replace("\\", "/")
    if name.endswith(".py"):
        name = name[:-3]
    name = name.replace("/", ".")
    return [k for k in known if k == name or k.endswith("." + name)]


def _forget(full):
    # Drop the module once run so the next one starts from a small heap.
    try:
        del sys.modules[full]
    except KeyError:
        pass
    pkg = full[:full.rfind(".")]
    parent = sys.modules.get(pkg)
    short = full[len(pkg) + 1:]
    if parent is not None and short in dir(parent):
        try:
            delattr(parent, short)
        except (AttributeError, TypeError):
            pass


def run_module(full):
    """Run one module's tests (its dotted name); return (passed, failed)."""
    name = full[len("tests."):]
    try:
        __import__(full)
        mod = sys.modules[full]
    except Exception as e:
        print("FAIL %s: import failed: %s" % (name, _describe(e)))
        _print_traceback(e)
        _forget(full)
        return 0, 1
    passed = failed = 0
    for attr in sorted(dir(mod)):
        if not attr.startswith("test_"):
            continue
        fn = getattr(mod, attr)
        if not callable(fn):
            continue
        try:
            fn()
        except Exception as e:
            failed += 1
            print("FAIL %s.%s: %s" % (name, attr, _describe(e)))
            _print_traceback(e)
        else:
            passed += 1
            print("PASS %s.%s" % (name, attr))
    fn = mod = None
    _forget(full)
    return passed, failed


def main(args):
    sys.path.insert(0, ".")  # the repo root, ahead of any other "tests" package
    known = discover()
    names = []
    for a in args:
        found = resolve(a, known)
        if not found:
            print("FAIL %s: no such test module" % a)
            return 1
        names += [n for n in found if n not in names]
    if not args:
        names = known
    if not names:
        print("no %s/test_*.py found (run from the repo root)" % RULES_DIR)
    passed = failed = 0
    for name in names:
        p, f = run_module(name)
        passed += p
        failed += f
        gc.collect()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not names else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

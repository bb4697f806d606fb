"""Run the portable rules suite (tests/rules/test_*.py) without pytest.

    micropython tests/mp_runner.py [module ...]     (from the repo root)
    python tests/mp_runner.py [module ...]          (same, on CPython, for debugging)

A module is named as ``test_cards``, ``test_cards.py``, ``tests/rules/test_cards.py``
or ``tests.rules.test_cards``; with none, every tests/rules/test_*.py runs.
Each callable ``test_*`` attribute runs in name order; a module that fails to
import counts as one failure. The last line is ``N passed, M failed`` and the
exit status is 1 when anything failed.

MicroPython-compatible: no os.path, glob, traceback or importlib.
"""

import gc
import os
import sys

# The portable suites: the rules core, and the device app (firmware/ logic
# that needs no hardware). Module names are unique across them.
SUITES = (("tests/rules", "tests.rules"), ("tests/device", "tests.device"))
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


def module_name(arg):
    """The bare module name (``test_cards``) for any accepted spelling."""
    name = arg.replace("\\", "/")
    if name.endswith(".py"):
        name = name[:-3]
    for sep in ("/", "."):
        i = name.rfind(sep)
        if i >= 0:
            name = name[i + 1:]
    return name


def _listing(folder):
    try:
        return os.listdir(folder)
    except OSError:
        return []


def discover():
    names = []
    for folder, _ in SUITES:
        names += [f[:-3] for f in _listing(folder) if f.startswith("test_") and f.endswith(".py")]
    return sorted(names)


def package(name):
    for folder, pkg in SUITES:
        if name + ".py" in _listing(folder):
            return pkg
    return SUITES[0][1]


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


def run_module(name):
    """Run one module's tests; return (passed, failed)."""
    full = package(name) + "." + name
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
    names = [module_name(a) for a in args] if args else discover()
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

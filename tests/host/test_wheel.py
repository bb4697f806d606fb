"""The wheel holds everything the `deckahedron` command needs: every host
package, its data, and the device code it flashes and runs (firmware/,
shared_rules/, in the checkout's layout). Built from a copy of the working
tree (the build's build/ and egg-info stay out of the checkout), installed
with `pip install --no-deps --target`, and run from a folder outside the
checkout with `python -S` and PYTHONPATH=the install + the venv's
site-packages (the dependencies): -S leaves out the venv's .pth files, so
the editable install of this checkout cannot lend a module.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import zipfile
from pathlib import Path

import pytest

from host_tools import boards as registry
from host_tools.flashing import files, magtag, rp2040
from tests.host.conftest import as_at_a_terminal

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
NOT_SOURCES = (".git", ".venv", "node_modules", "build", "dist", "__pycache__", "*.egg-info", "*.pyc", "*.mpy",
               ".deckahedron", ".pytest_cache", ".hypothesis")

# Run as `python -m host_tools.cli ARGS`, then report what was imported from the checkout.
PROBE = r"""
import json, os, runpy, sys
checkout, venv = sys.argv[1], sys.argv[2]
sys.argv = ["deckahedron"] + sys.argv[3:]
try:
    runpy.run_module("host_tools.cli", run_name="__main__", alter_sys=True)
    rc = 0
except SystemExit as e:
    rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
inside = lambda f, d: os.path.abspath(f).startswith(os.path.abspath(d) + os.sep)
loaded = sorted(m.__file__ for m in list(sys.modules.values())
                if getattr(m, "__file__", None) and inside(m.__file__, checkout) and not inside(m.__file__, venv))
import host_tools, firmware
sys.stdout.flush()
sys.stderr.write("\nPROBE " + json.dumps({"rc": rc, "host_tools": host_tools.__file__,
                                          "firmware": list(firmware.__path__), "from_checkout": loaded}) + "\n")
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(*NOT_SOURCES))
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "--disable-pip-version-check", "-q", "-w", str(base / "dist"), str(src)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, "pip wheel failed:\n%s%s" % (proc.stdout, proc.stderr[-3000:])
    built = list((base / "dist").glob("deckahedron-*.whl"))
    assert len(built) == 1, built
    return built[0]


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    target = tmp_path_factory.mktemp("site")
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--disable-pip-version-check", "-q",
                           "--target", str(target), str(wheel)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, "pip install --target failed:\n%s%s" % (proc.stdout, proc.stderr[-3000:])
    return target


def _env(site, **extra):
    env = dict(os.environ)
    for name in ("PYTHONPATH", "DECKAHEDRON_MICROPYTHON", "DECKAHEDRON_SIM_MAIN", "PYTHONHOME"):
        env.pop(name, None)
    deps = [sysconfig.get_paths()[k] for k in ("purelib", "platlib")]
    env["PYTHONPATH"] = os.pathsep.join([str(site)] + sorted(set(deps), key=deps.index))
    env.update(extra)
    return env


def deckahedron(site, cwd, *args, python=sys.executable, env=None, timeout=300):
    """(exit status, stdout, stderr, probe) of `python -S -m host_tools.cli ARGS` on the installed wheel."""
    proc = subprocess.run([python, "-S", "-c", PROBE, str(ROOT), sys.prefix] + [str(a) for a in args], cwd=str(cwd),
                          env=env or _env(site), capture_output=True, text=True, timeout=timeout)
    head, _, tail = proc.stderr.rpartition("\nPROBE ")
    assert tail, "the probe did not finish (exit %d):\n%s%s" % (proc.returncode, proc.stdout, proc.stderr[-3000:])
    probe = json.loads(tail)
    assert probe["host_tools"].startswith(str(site) + os.sep), probe
    assert probe["firmware"] == [str(site / "firmware")], probe
    assert not probe["from_checkout"], "imported from the checkout: %s" % probe["from_checkout"]
    return probe["rc"], proc.stdout, head, probe


def test_the_wheel_holds_every_package_its_data_and_the_device_code(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        entry_points = z.read([n for n in names if n.endswith(".dist-info/entry_points.txt")][0]).decode()
    assert "deckahedron = host_tools.cli:main" in entry_points
    src = wheel.parent.parent / "src"  # the copy of the working tree the wheel was built from
    packages = sorted(str(p.parent.relative_to(src)) for p in (src / "host_tools").rglob("__init__.py"))
    assert "host_tools/flashing" in packages and "host_tools/web" in packages
    for package in packages + ["shared_rules"]:
        assert package + "/__init__.py" in names, package
    # what `deckahedron flash` puts on every board
    for board in registry.real_boards():
        for source in files.device_files(board, src):
            assert str(source.local.relative_to(src)) in names, (board, source)
    assert "firmware/boards/boards.json" in names
    # and every other file of the three trees: the emulator's .mjs and npm files, the live page's static/...
    wanted = set()
    for tree in ("host_tools", "firmware", "shared_rules"):
        for path in (src / tree).rglob("*"):
            if path.is_file() and path.suffix != ".md":
                wanted.add(str(path.relative_to(src)))
    assert not sorted(wanted - names), "left out of the wheel: %s" % sorted(wanted - names)
    assert not [n for n in names if "node_modules" in n or "__pycache__" in n or n.startswith("tests/")]


def test_the_installed_wheel_works_from_outside_the_checkout(installed, tmp_path):
    rc, out, err, _ = deckahedron(installed, tmp_path, "odds", "--suit", "crown", "--net", "1")
    assert rc == 0, err
    assert "Crown" in out

    rc, out, err, _ = deckahedron(installed, tmp_path, "table", "--help")
    assert rc == 0, err
    assert "usage: deckahedron table" in out and "--sim" in out

    # the MagTag's plan from the installed device code: what the checkout's flasher plans
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 10.1.3 on 2025-06-01; Adafruit MagTag with ESP32S2\n"
                                        "Board ID:adafruit_magtag_2.9_grayscale\n")
    rc, out, err, _ = deckahedron(installed, tmp_path, "flash", "--board", "magtag", "--drive", drive, "--dry-run")
    assert rc == 0, err
    plan = magtag.make_plan(drive)
    copies = [ln.split()[1] for ln in out.splitlines() if ln.strip().startswith("copy ")]
    assert copies == sorted(plan.copies) and "dry run: nothing on the board was changed" in out
    assert sorted(p.name for p in drive.iterdir()) == ["boot_out.txt"]


def test_the_installed_wheel_builds_the_rp2040_image(wheel, installed, tmp_path):
    try:
        rp2040.base_image_path()
    except rp2040.ImageError as e:
        pytest.skip("the RP2040 image from the wheel: %s" % e)
    out = tmp_path / "x.uf2"
    rc, said, err, _ = deckahedron(installed, tmp_path, "image", "--board", "pico-epaper29", "--out", out)
    assert rc == 0, err
    # byte for byte the image of the sources the wheel was built from (a copy: the checkout may have moved on)
    src = wheel.parent.parent / "src"
    ref = tmp_path / "ref.uf2"
    proc = subprocess.run([sys.executable, "-S", "-m", "host_tools.cli", "image", "--board", "pico-epaper29", "--out",
                           str(ref)], cwd=str(src), env=_env(src), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes() == ref.read_bytes()
    drive = tmp_path / "RPI-RP2"
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_text("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n")
    rc, said, err, _ = deckahedron(installed, tmp_path, "flash", "--board", "pico-epaper29", "--drive", drive,
                                   "--dry-run")
    assert rc == 0, err
    assert "plan: write deckahedron-pico-epaper29.uf2 onto %s" % drive in said
    assert sorted(p.name for p in drive.iterdir()) == ["INFO_UF2.TXT"]


def test_the_installed_wheels_simulated_board_runs_its_firmware(installed, tmp_path):
    from host_tools.link import DeviceLink

    proc = subprocess.Popen([sys.executable, "-S", "-m", "host_tools.cli", "sim", "--boards", "1", "--seed", "3",
                             "--dir", str(tmp_path / "sim")], cwd=str(tmp_path), env=_env(installed),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=as_at_a_terminal)
    try:
        line = proc.stdout.readline().split()
        assert len(line) == 2 and line[0] == "p1", (line, proc.stderr.read() if proc.poll() is not None else "")
        end = time.monotonic() + 20
        while True:
            try:
                with DeviceLink(line[1], timeout=1.0, retries=0) as link:
                    hello = link.hello()
                break
            except Exception:
                if time.monotonic() > end:
                    raise
                time.sleep(0.2)
        assert hello
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    log = (tmp_path / "sim" / "p1.log").read_text()
    assert " firmware/entry/main.py --board sim" in log  # run from the installed tree (cwd: its root)


def test_without_the_micropython_command_the_simulated_table_says_so(installed, tmp_path):
    """A Python with no `micropython` beside it nor on PATH (the sim extra
    not installed): one line naming the missing command, exit 3."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    env = _env(installed, PATH=os.pathsep.join([str(bin_dir), "/usr/bin", "/bin"]))
    for args in (("sim", "--boards", "1", "--dir", tmp_path / "s"), ("table", "--sim", "1", "--dir", tmp_path / "t")):
        rc, out, err, _ = deckahedron(installed, tmp_path, *args, python=str(bin_dir / "python"), env=env,
                                      timeout=60)
        assert rc == 3, (args, out, err)
        said = err.strip().splitlines()
        assert len(said) == 1 and "micropython" in said[0] and "not installed" in said[0], (args, err)


def test_the_installed_wheel_prints_the_quick_reference(installed, tmp_path):
    """quickref draws the device's own screens with the MicroPython renderer
    (host_tools/screens/mp_render.py, in the wheel since it moved out of tests/)."""
    rc, out, err, _ = deckahedron(installed, tmp_path, "quickref", "--out", tmp_path / "ref.png")
    assert rc == 0, err
    from PIL import Image

    with Image.open(tmp_path / "ref.png") as img:
        assert img.size[0] > 1000 and img.size[1] > 1000

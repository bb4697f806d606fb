"""Everything a release offers for download, in one folder:
`deckahedron release --out DIR` (`make release` writes dist/release/, the
release workflow .github/workflows/release.yml attaches it to the tag's
GitHub release).

    deckahedron-<board>.uf2            for each RP2040 board of the registry: the
                                       complete image, what `make image BOARD=<board>`
                                       writes (image.py): hold BOOTSEL, plug in, drag
                                       it onto RPI-RP2, play
    deckahedron-firmware-rp2040.uf2    the base image alone (MicroPython with the
                                       ROMFS partition, no game): for a hobbyist who
                                       then puts the game on with `deckahedron flash
                                       --port`
    deckahedron-magtag-circuitpy.zip   what `deckahedron flash --board magtag` copies
                                       onto an empty CIRCUITPY drive (its plan, compiled
                                       as it compiles), and README.txt
    deckahedron-quickref.pdf           `deckahedron quickref --out FILE.pdf`
    SHA256SUMS                         `sha256sum -c SHA256SUMS` checks the others

The same checkout gives the same bytes: zip entries in name order with one
timestamp, the PDF's dates the same, both from SOURCE_DATE_EPOCH (the
reproducible-builds variable; the workflow sets it to the tagged commit's
time), else 1980-01-01.
"""

import datetime
import hashlib
import io
import os
import time
import sys
import tempfile
import zipfile
from pathlib import Path

from host_tools import boards as registry
from host_tools.flashing import FlashError, image, magtag, rp2040

FIRMWARE_UF2 = "deckahedron-firmware-rp2040.uf2"
MAGTAG_ZIP = "deckahedron-magtag-circuitpy.zip"
QUICKREF_PDF = "deckahedron-quickref.pdf"
SUMS = "SHA256SUMS"
README = "README.txt"  # in the MagTag zip

# The CircuitPython the MagTag bundle is made for: the oldest the guide
# recommends (hardware/magtag.md: 10.1.3 detects the panel). Any 9.0 or
# later loads the same compiled modules (flashing/mpy.py).
MAGTAG_CIRCUITPYTHON = "10.1.3"
ZIP_EPOCH = 315532800  # 1980-01-01 00:00:00 UTC, the earliest time a zip entry can hold


def epoch():
    """The release's one timestamp (seconds): SOURCE_DATE_EPOCH, else 1980-01-01."""
    try:
        return max(ZIP_EPOCH, int(os.environ.get("SOURCE_DATE_EPOCH", "")))
    except ValueError:
        return ZIP_EPOCH


def names():
    """Every file a release holds but SHA256SUMS, in the order they are made."""
    return [image.image_name(b) for b in rp2040.image_boards()] + [FIRMWARE_UF2, MAGTAG_ZIP, QUICKREF_PDF]


# -- the MagTag's CIRCUITPY bundle ------------------------------------------

def magtag_plan(version=MAGTAG_CIRCUITPYTHON):
    """The flasher's own plan (magtag.make_plan) for an empty CIRCUITPY drive
    of a MagTag running CircuitPython `version`: its copies are the bundle."""
    with tempfile.TemporaryDirectory(prefix="deckahedron-circuitpy-") as drive:
        Path(drive, "boot_out.txt").write_text(
            "Adafruit CircuitPython %s on 2025-01-01; Adafruit MagTag with ESP32S2\n"
            "Board ID:adafruit_magtag_2.9_grayscale\n" % version)
        return magtag.make_plan(drive)


def magtag_readme(plan, version=MAGTAG_CIRCUITPYTHON):
    libs = registry.board("magtag").get("circup") or []
    if libs:
        libraries = ("It needs these Adafruit libraries from the CircuitPython bundle: %s. Install them with "
                     "circup (`pip install circup`, then `circup --path /path/to/CIRCUITPY install %s`) or copy "
                     "them from the bundle into lib/ on the drive." % (", ".join(libs), " ".join(libs)))
    else:
        libraries = ("Libraries: none. The game needs no Adafruit library from the CircuitPython bundle (it draws "
                     "with displayio, which CircuitPython has built in): nothing to put in lib/.")
    compiled = sorted(p for p in plan.copies if p.endswith(".mpy"))
    text = """Deckahedron for the Adafruit MagTag: the files of its CIRCUITPY drive
===================================================================

These are the files `deckahedron flash --board magtag` copies onto the
MagTag's CIRCUITPY drive: code.py and boot.py, deckahedron.cfg, and the
game's %d modules compiled for CircuitPython (.mpy: CircuitPython 9.0 or
later loads them; made for %s).

%s
2. Plug the MagTag in: a drive CIRCUITPY appears. If the game is already
   on it, the drive is read-only to your computer (boot.py gives it to the
   game so it can save): hold button A (the leftmost) while pressing
   reset and keep holding a second (the red LED blinks twice, the panel
   says USB drive mode).
3. Unzip this archive into the top folder of CIRCUITPY, replacing the files
   that are there. deck.sav (the saved game) is not in it and stays. An
   older copy of the game that went on as .py files: delete those .py files
   (CircuitPython would load X.py before X.mpy); `deckahedron flash` does
   that for you. This README.txt may go too.
4. Press reset (without holding A): boot.py runs and the game starts.

%s

CircuitPython 10.3 and later wait a second for safe mode at every wake
from deep sleep: add the line CIRCUITPY_SAFE_MODE_DELAY = 0 to
settings.toml on the drive to save that second's battery at every press.

The build guide: hardware/magtag.md in the Deckahedron repository.
""" % (len(compiled), "CircuitPython " + version,
       _wrap("1. CircuitPython %s or newer on the MagTag (older ones cannot drive its panel); %s."
             % (version, magtag.CIRCUITPYTHON), indent="   "),
       _wrap(libraries))
    return text.encode()


def _wrap(text, width=72, indent=""):
    """text in lines of at most `width` (a longer word alone), the lines
    after the first indented."""
    lines, line = [], ""
    for word in text.split():
        if line.strip() and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = indent + word
        else:
            line = "%s %s" % (line, word) if line else word
    return "\n".join(lines + [line])


def zip_bytes(contents, when=None):
    """A zip (bytes) of {name: bytes}: entries in name order, every one
    stamped `when` (seconds; default epoch()), deflated, mode 0644."""
    stamp = datetime.datetime.fromtimestamp(max(ZIP_EPOCH, epoch() if when is None else when),
                                            datetime.timezone.utc).timetuple()[:6]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(contents):
            info = zipfile.ZipInfo(name, stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o100644 << 16
            info.create_system = 3
            z.writestr(info, contents[name])
    return out.getvalue()


def magtag_bundle(version=MAGTAG_CIRCUITPYTHON):
    """The MagTag zip (bytes): the flash plan's copies, and README.txt."""
    plan = magtag_plan(version)
    if README in plan.copies:
        raise FlashError("the MagTag's files include a %s: the bundle's own README needs another name" % README)
    contents = dict(plan.copies)
    contents[README] = magtag_readme(plan, version)
    return zip_bytes(contents)


# -- the rest ---------------------------------------------------------------

def quickref_pdf():
    """The quick reference as `deckahedron quickref --out X.pdf` draws it,
    its PDF dates set to epoch()."""
    from host_tools.commands import quickref as q

    return q.render_pdf(q._boards(None, None), q.DEFAULT_EDITION, when=time.gmtime(epoch()))


def firmware_uf2():
    """The base image of the cache, checked (rp2040.base_image_path)."""
    return rp2040.base_image_path().read_bytes()


def sha256sums(folder, file_names):
    """SHA256SUMS text for the files, as `sha256sum NAME...` writes it."""
    lines = []
    for name in file_names:
        digest = hashlib.sha256(Path(folder, name).read_bytes()).hexdigest()
        lines.append("%s  %s\n" % (digest, name))
    return "".join(lines)


def _write(path, data):
    tmp = path.with_name("." + path.name + ".part")
    tmp.write_bytes(data)
    tmp.replace(path)


def build(out, progress=None):
    """Write every file of names() and SHA256SUMS into `out` (made if need
    be); [(name, bytes)] in that order. rp2040.ImageError when the base
    image is missing or wrong, FlashError when the code does not build."""
    base = firmware_uf2()  # first: without it, nothing is written
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    makers = [(image.image_name(b), (lambda b=b: image.build(b))) for b in rp2040.image_boards()]
    makers += [(FIRMWARE_UF2, lambda: base), (MAGTAG_ZIP, magtag_bundle), (QUICKREF_PDF, quickref_pdf)]
    assert [n for n, _ in makers] == names()
    made = []
    for name, make in makers:
        data = make()
        _write(out / name, data)
        made.append((name, len(data)))
        if progress:
            progress(name, len(data))
    sums = sha256sums(out, names()).encode()
    _write(out / SUMS, sums)
    made.append((SUMS, len(sums)))
    return made


# -- deckahedron release ------------------------------------------------------

def add_arguments(parser):
    from host_tools.cli import reporter

    parser.add_argument("--out", required=True, metavar="DIR",
                        help="the folder to write the release's files into (made if need be; files of the same "
                             "names are replaced)")
    parser.error = reporter("deckahedron release")[1]


def run(args):
    from host_tools.cli import reporter

    complain, _ = reporter("deckahedron release")
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        complain("%s is a file: give a folder with --out" % args.out)
        return 2

    def progress(name, size):
        sys.stdout.write("%s (%d bytes)\n" % (os.path.join(args.out, name), size))
        sys.stdout.flush()

    try:
        build(args.out, progress)
    except rp2040.ImageError as e:
        complain(e)
        return 2
    except (FlashError, OSError) as e:
        complain(e)
        return 1
    sys.stdout.write("%s (check with: cd %s && sha256sum -c %s)\n" % (os.path.join(args.out, SUMS), args.out, SUMS))
    return 0

"""A board in BOOTSEL mode: the RP2040's bootrom shows a USB drive named
RPI-RP2 holding INFO_UF2.TXT; a UF2 file copied onto it is written to the
flash, and the board restarts into it. Without the drive (no automount),
picotool loads the UF2 over USB where it is installed.
"""

import glob
import os
import shutil
import subprocess

from host_tools.flashing import FlashError, NoBoard

INFO = "INFO_UF2.TXT"
CHUNK = 64 * 1024


def is_rp2040_drive(path):
    """True when `path` is a mounted RP2040 bootrom drive (its INFO_UF2.TXT
    says Board-ID: RPI-RP2)."""
    try:
        with open(os.path.join(path, INFO), encoding="ascii", errors="replace") as f:
            return "RPI-RP2" in f.read()
    except OSError:
        return False


def _mounts():
    out = []
    try:
        with open("/proc/mounts") as f:
            for line in f:
                parts = line.split()
                if len(parts) > 1:
                    out.append(parts[1].replace("\\040", " "))
    except OSError:
        pass
    return out


def find_drives(candidates=None):
    """Mounted RPI-RP2 drives."""
    if candidates is None:
        user = os.environ.get("USER") or os.environ.get("USERNAME") or ""
        candidates = []
        for pattern in ("/media/%s/RPI-RP2*" % user, "/run/media/%s/RPI-RP2*" % user, "/media/RPI-RP2*",
                        "/Volumes/RPI-RP2*"):
            candidates += glob.glob(pattern)
        candidates += [m for m in _mounts() if os.path.basename(m).startswith("RPI-RP2")]
        if os.name == "nt":
            candidates += ["%s:\\" % c for c in "DEFGHIJKLMNOPQRSTUVWXYZ"]
    seen, out = set(), []
    for c in candidates:
        real = os.path.realpath(c)
        if real not in seen and is_rp2040_drive(c):
            seen.add(real)
            out.append(c)
    return out


def picotool():
    return shutil.which("picotool")


def copy_to_drive(data, drive, name, progress=None):
    """Write the UF2 onto the drive in chunks; progress(done, total) after each.
    The board restarts once the last block is in: an error after that is
    the drive going away, not a failure."""
    path = os.path.join(drive, name)
    written = 0
    try:
        with open(path, "wb") as f:
            for i in range(0, len(data), CHUNK):
                f.write(data[i:i + CHUNK])
                written = i + len(data[i:i + CHUNK])
                if progress:
                    progress(written, len(data))
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        if written < len(data):
            raise FlashError("copying the image onto %s failed after %d of %d bytes (%s): hold BOOTSEL, replug "
                             "the board and flash again" % (drive, written, len(data), e.strerror or e))
    return path


def load_with_picotool(uf2_path, runner=None):
    argv = [picotool(), "load", "-v", "-x", str(uf2_path)]
    proc = (runner or _run)(argv, 300)
    if proc.returncode != 0:
        said = " ".join(((proc.stdout or "") + (proc.stderr or "")).split())[-300:]
        if "no accessible rp" in said.lower() or "no rp" in said.lower():
            raise NoBoard("picotool found no board in BOOTSEL mode (it said: %s)" % said)
        raise FlashError("picotool could not load the image: %s" % (said or "no output"))


def _run(argv, timeout):
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, errors="replace")

"""The release: .github/workflows/release.yml runs only make targets that
exist, and `make release` (host_tools/flashing/release.py) writes every
download, each the bytes its own command makes, with a SHA256SUMS that
matches.

The RP2040 files need the base image where rp2040.cache_dir() says
(DECKAHEDRON_RP2040_DIR); without it they skip, in one test. Nothing is
written into the cache.
"""

import hashlib
import io
import re
import subprocess
import zipfile
from pathlib import Path

import pytest

from host_tools.flashing import image, magtag, release, rp2040

ROOT = Path(__file__).resolve().parents[3]
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


def makefile_targets():
    """Every target a rule of the Makefile names (not variables: `X := ...`)."""
    targets = set()
    for line in (ROOT / "Makefile").read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9_.$()/ -]+?)\s*::?(?!=)(.*)$", line)
        if m and not line.startswith("\t"):
            targets.update(t for t in m.group(1).split() if "$" not in t)
    return targets


def workflow_steps():
    yaml = pytest.importorskip("yaml", reason="pyyaml is a dev extra: make setup installs it")
    doc = yaml.safe_load(WORKFLOW.read_text())
    return doc, [s for job in doc["jobs"].values() for s in job["steps"]]


def test_the_workflow_parses_and_runs_on_a_version_tag():
    doc, steps = workflow_steps()
    on = doc.get("on", doc.get(True))  # YAML 1.1 reads a bare `on` as true
    assert on["push"]["tags"] == ["v*"]
    assert all(job["runs-on"].startswith("ubuntu") for job in doc["jobs"].values())
    runs = "\n".join(s.get("run", "") for s in steps)
    for package in ("gcc-arm-none-eabi", "libnewlib-arm-none-eabi", "cmake"):
        assert package in runs
    uploads = [s for s in steps if "action-gh-release" in s.get("uses", "")]
    assert len(uploads) == 1 and uploads[0]["with"]["files"] == "dist/release/*"


def test_every_make_target_the_workflow_runs_is_in_the_makefile():
    _, steps = workflow_steps()
    made = []
    for step in steps:
        for line in step.get("run", "").splitlines():
            line = line.split("#")[0]
            made += re.findall(r"(?:^|[;&|]\s*)make((?:\s+[A-Za-z_][\w.-]*(?:=\S*)?)+)", line.strip())
    wanted = [w for args in made for w in args.split() if "=" not in w]
    assert wanted == ["setup", "base-image", "release"]
    missing = sorted(set(wanted) - makefile_targets())
    assert not missing, "the release workflow runs make %s, which the Makefile has no rule for" % " ".join(missing)
    # and the release writes where the upload step looks
    assert "release RELEASE_DIR=dist/release" in "\n".join(s.get("run", "") for s in steps)


def test_make_release_runs_the_release_command_into_its_folder():
    out = subprocess.run(["make", "-n", "release", "RELEASE_DIR=out/x-release"], cwd=str(ROOT),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "deckahedron release --out out/x-release" in out.stdout


@pytest.fixture(autouse=True)
def no_source_date(monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)  # the release's timestamp: 1980-01-01


def test_the_magtag_zip_is_the_flash_plan_for_an_empty_drive_and_a_readme(tmp_path):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython %s on 2025-06-01; Adafruit MagTag with ESP32S2\n"
                                        "Board ID:adafruit_magtag_2.9_grayscale\n" % release.MAGTAG_CIRCUITPYTHON)
    plan = magtag.flash(str(drive), dry_run=True)  # what `deckahedron flash --board magtag --dry-run` shows
    data = release.magtag_bundle()
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = z.namelist()
        assert names == sorted(names)
        assert set(names) == set(plan.copies) | {release.README}
        for name in plan.copies:
            assert z.read(name) == plan.copies[name], name
        assert {i.date_time for i in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        readme = z.read(release.README).decode()
    assert "code.py" in names and "boot.py" in names and "deckahedron.cfg" in names
    assert any(n.endswith(".mpy") for n in names)  # compiled, as the flasher compiles them
    assert "CIRCUITPY" in readme and "circuitpython.org" in readme and "Libraries: none" in readme
    assert release.magtag_bundle() == data  # the same bytes every time


def test_a_release_needs_the_base_image_and_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    from host_tools.cli import main

    monkeypatch.setenv("DECKAHEDRON_RP2040_DIR", str(tmp_path / "no-cache"))
    assert main(["release", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and rp2040.BASE_IMAGE in err
    assert not (tmp_path / "out").exists()


def test_the_release_writes_every_file_as_its_own_command_makes_it(tmp_path, capsys):
    try:
        base = rp2040.base_image_path()
    except rp2040.ImageError as e:
        pytest.skip("the RP2040 release files: %s" % e)
    cache = sorted(p.name for p in rp2040.cache_dir().iterdir())
    from host_tools.cli import main

    out = tmp_path / "release"
    assert main(["release", "--out", str(out)]) == 0
    assert sorted(p.name for p in rp2040.cache_dir().iterdir()) == cache  # nothing written into the cache
    boards = rp2040.image_boards()
    assert boards == ["badger2040", "badger2040w", "pico-epaper29"]
    expected = ["deckahedron-%s.uf2" % b for b in boards] + [
        "deckahedron-firmware-rp2040.uf2", "deckahedron-magtag-circuitpy.zip", "deckahedron-quickref.pdf"]
    assert release.names() == expected
    assert sorted(p.name for p in out.iterdir()) == sorted(expected + ["SHA256SUMS"])

    # SHA256SUMS in sha256sum's format, over every other file, and right
    lines = (out / "SHA256SUMS").read_text().splitlines()
    assert [ln.split("  ", 1)[1] for ln in lines] == expected
    for ln in lines:
        digest, name = ln.split("  ", 1)
        assert re.fullmatch(r"[0-9a-f]{64}", digest)
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest, name
    check = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=str(out), capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr

    # each board's UF2 is `make image BOARD=...`'s; the firmware-only one is the base image
    for b in boards:
        assert (out / image.image_name(b)).read_bytes() == image.build(b), b
    assert (out / release.FIRMWARE_UF2).read_bytes() == base.read_bytes()
    assert (out / release.MAGTAG_ZIP).read_bytes() == release.magtag_bundle()
    pdf = (out / release.QUICKREF_PDF).read_bytes()
    assert pdf.startswith(b"%PDF") and b"(D:19800101000000Z)" in pdf

    # again: the same bytes (what a reproducible release needs)
    again = tmp_path / "again"
    assert main(["release", "--out", str(again)]) == 0
    assert (again / "SHA256SUMS").read_bytes() == (out / "SHA256SUMS").read_bytes()
    printed = capsys.readouterr().out
    assert "sha256sum -c SHA256SUMS" in printed

"""`deckahedron base-image` (host_tools/flashing/base_image.py): the RP2040
base image built by one command. The unit tests need no toolchain: the
toolchain and source checks and their one-line messages, the board
definition against host_tools/flashing/rp2040.py, the pins, the fetch (from local
git repositories laid out as a GitHub mirror), the bootrom's conversion.
The slow test builds the image when a prepared MicroPython tree is at hand
($DECKAHEDRON_MICROPY_SRC, or the cache's fetched one)."""

import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools import cli
from host_tools.flashing import rp2040, base_image as B

ROOT = Path(__file__).resolve().parents[3]
APT = "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi cmake"
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def one_line(text):
    assert "\n" not in str(text).strip(), text
    return str(text)


# -- the toolchain ----------------------------------------------------------------

def fake_tools(folder, libc):
    """arm-none-eabi-gcc (printing `libc` for -print-file-name), cmake and make in `folder`."""
    folder.mkdir(exist_ok=True)
    for name, body in (("arm-none-eabi-gcc", "echo %s" % libc), ("cmake", "true"), ("make", "true")):
        tool = folder / name
        tool.write_text("#!/bin/sh\n%s\n" % body)
        tool.chmod(0o755)
    return folder


def test_no_compiler_names_the_debian_packages(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(B.NotReady) as e:
        B.check_toolchain()
    assert one_line(e.value) == "arm-none-eabi-gcc is missing: " + APT


def test_a_compiler_without_newlib_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(fake_tools(tmp_path / "bin", "libc.a")))
    with pytest.raises(B.NotReady, match="no C library \\(newlib\\): " + re.escape(APT) + "$"):
        B.check_toolchain()


def test_the_whole_toolchain_passes_and_git_is_asked_for_only_to_fetch(tmp_path, monkeypatch):
    libc = tmp_path / "libc.a"
    libc.write_bytes(b"")
    monkeypatch.setenv("PATH", str(fake_tools(tmp_path / "bin", libc)))
    B.check_toolchain()
    with pytest.raises(B.NotReady, match="git is missing: .*MICROPY_SRC=DIR"):
        B.check_toolchain(git=True)


def test_the_command_checks_the_toolchain_first_and_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("DECKAHEDRON_RP2040_DIR", str(tmp_path / "cache"))
    assert cli.main(["base-image", "--micropython-src", str(tmp_path / "nowhere")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "deckahedron base-image: arm-none-eabi-gcc is missing: %s\n" % APT
    assert not (tmp_path / "cache").exists()  # nothing fetched, nothing built


# -- the source tree ------------------------------------------------------------------

def fake_tree(root, version=(1, 28, 0, 0)):
    """A folder with every file check_tree looks for."""
    for path, marker in B.MARKERS.items():
        f = root / path / marker
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("")
    (root / "py" / "mpconfig.h").write_text("".join(
        "#define MICROPY_VERSION_%s %d\n" % (k, v) for k, v in zip(("MAJOR", "MINOR", "MICRO", "PRERELEASE"), version)))
    return root


def test_a_prepared_tree_passes(tmp_path):
    B.check_tree(fake_tree(tmp_path))


def test_a_tree_missing_a_submodule_is_refused_in_one_line(tmp_path):
    shutil.rmtree(fake_tree(tmp_path) / "lib" / "tinyusb")
    with pytest.raises(B.NotReady) as e:
        B.check_tree(tmp_path)
    assert one_line(e.value) == ("%s lacks lib/tinyusb/src/tusb.h: lib/tinyusb/ of hathach/tinyusb at "
                                 "aa0fc2e08f1c2dd6f026a431e8989357fbb4c5bf is missing (docs/rp2040.md, "
                                 "'The base image', pins them)" % tmp_path)


def test_another_micropython_is_refused(tmp_path):
    with pytest.raises(B.NotReady, match=r"is MicroPython v1\.27\.0-preview, not v1\.28\.0$"):
        B.check_tree(fake_tree(tmp_path, (1, 27, 0, 1)))
    with pytest.raises(B.NotReady, match="is not a folder"):
        B.check_tree(tmp_path / "nowhere")


@needs_git
def test_a_submodule_checked_out_at_another_commit_is_refused(tmp_path):
    fake_tree(tmp_path)
    sdk = tmp_path / "lib" / "pico-sdk"
    commit_repo(sdk, {"pico_sdk_init.cmake": ""})
    head = git(["rev-parse", "HEAD"], sdk)
    with pytest.raises(B.NotReady, match="lib/pico-sdk is at %s; raspberrypi/pico-sdk is pinned at a1438dff" % head):
        B.check_tree(tmp_path)


# -- the board definition and the pins -------------------------------------------------

def test_the_board_sizes_are_rp2040_py_s():
    assert B.board_sizes() == {"MICROPY_HW_ROMFS_BYTES": rp2040.ROMFS_BYTES,
                               "MICROPY_HW_FLASH_STORAGE_BYTES": rp2040.FS_BYTES}
    B.check_board()


def test_a_board_of_other_sizes_is_refused(tmp_path):
    header = tmp_path / "mpconfigboard.h"
    header.write_text((B.BOARD_FILES / "mpconfigboard.h").read_text().replace("(384 * 1024)", "(256 * 1024)"))
    assert B.board_sizes(header)["MICROPY_HW_ROMFS_BYTES"] == 256 * 1024
    with pytest.raises(B.BaseImageError, match="MICROPY_HW_ROMFS_BYTES to 262144; host_tools/flashing/rp2040.py says 393216"):
        B.check_board(header)


def test_the_board_freezes_the_names_module_through_its_manifest():
    cmake = (B.BOARD_FILES / "mpconfigboard.cmake").read_text()
    assert "set(MICROPY_FROZEN_MANIFEST ${MICROPY_BOARD_DIR}/manifest.py)" in cmake
    manifest = (B.BOARD_FILES / "manifest.py").read_text()
    assert 'include("$(PORT_DIR)/boards/manifest.py")' in manifest
    assert 'freeze_mpy("$(BOARD_DIR)", "%s")' % rp2040.NAMES_MODULE in manifest


def test_the_board_folder_is_rpi_pico_with_ours_over_it(tmp_path):
    stock = tmp_path / "src" / "ports" / "rp2" / "boards" / "RPI_PICO"
    stock.mkdir(parents=True)
    (stock / "pins.csv").write_text("GP0,GPIO0\n")
    (stock / "mpconfigboard.h").write_text("#define MICROPY_HW_FLASH_STORAGE_BYTES (1408 * 1024)\n")
    board = tmp_path / "board"
    board.mkdir()
    (board / "stale.h").write_text("")
    B.write_board(tmp_path / "src", board, b"M\x06names")
    assert sorted(p.name for p in board.iterdir()) == sorted(
        ["pins.csv", "mpconfigboard.h", "mpconfigboard.cmake", "manifest.py", rp2040.NAMES_MODULE])
    assert (board / "pins.csv").read_text() == "GP0,GPIO0\n"
    assert B.board_sizes(board / "mpconfigboard.h")["MICROPY_HW_FLASH_STORAGE_BYTES"] == rp2040.FS_BYTES
    assert (board / rp2040.NAMES_MODULE).read_bytes() == b"M\x06names"
    before = (board / "mpconfigboard.h").stat().st_mtime_ns
    os.utime(board / "mpconfigboard.h", ns=(before - 10 ** 9, before - 10 ** 9))
    B.write_board(tmp_path / "src", board, b"M\x06names")
    assert (board / "mpconfigboard.h").stat().st_mtime_ns == before - 10 ** 9  # unchanged: a warm build stays warm


def test_the_pins_are_rp2040_sources_and_the_docs_table():
    got = B.pins()
    assert [(repo, rev) for _, repo, rev in got] == [(repo, rev) for repo, rev, _ in rp2040.SOURCES]
    assert [path for path, _, _ in got] == ["", "lib/pico-sdk", "lib/tinyusb", "lib/mbedtls", "lib/micropython-lib"]
    assert set(B.MARKERS) == set(path for path, _, _ in got)
    doc = (ROOT / "docs" / "rp2040.md").read_text()
    for path, repo, rev in got:
        assert "| %s | %s | %s" % (path or "(root)", repo, rev if B._is_commit(rev) else "tag " + rev) in doc


def test_the_build_environment_fixes_the_date_and_the_version(monkeypatch):
    monkeypatch.setenv("MICROPY_GIT_HASH", "abc")
    env = B.build_env()
    assert env["SOURCE_DATE_EPOCH"] == "1767225600"
    assert env["MICROPY_GIT_TAG"] == rp2040.MICROPYTHON_VERSION
    assert "MICROPY_GIT_HASH" not in env


# -- fetching the pinned commits ------------------------------------------------------

def git(args, cwd):
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "init.defaultBranch=main",
                           "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"] + args, cwd=str(cwd),
                          check=True, capture_output=True, text=True).stdout.strip()


def commit_repo(folder, files, gitlinks=(), tag=None):
    """A repository in `folder` with one commit of `files` ({path: text})
    and submodule entries (path, commit); returns the commit."""
    folder.mkdir(parents=True, exist_ok=True)
    git(["init", "-q"], folder)
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text)
    git(["add", "-A"], folder)
    for path, sha in gitlinks:
        git(["update-index", "--add", "--cacheinfo", "160000,%s,%s" % (sha, path)], folder)
    git(["commit", "-q", "-m", "pinned"], folder)
    if tag:
        git(["tag", tag], folder)
    git(["commit", "-q", "--allow-empty", "-m", "after the pin"], folder)  # the pin is not the branch's tip
    return git(["rev-parse", "HEAD~1"], folder)


def mirror(base):
    """Local repositories laid out as base/owner/name, holding a fake
    MicroPython v1.28.0 and its four submodules; the SOURCES that pin them."""
    sources, links = [], []
    for repo, _, note in rp2040.SOURCES[1:]:
        path = note.split(" ")[0]
        sha = commit_repo(base / repo, {B.MARKERS[path]: repo})
        sources.append((repo, sha, note))
        links.append((path, sha))
    mpconfig = "".join("#define MICROPY_VERSION_%s %s\n" % kv
                       for kv in (("MAJOR", 1), ("MINOR", 28), ("MICRO", 0), ("PRERELEASE", 0)))
    commit_repo(base / "micropython" / "micropython", {"py/mpconfig.h": mpconfig}, links, tag="v1.28.0")
    return [rp2040.SOURCES[0]] + sources


@needs_git
def test_the_pinned_commits_are_fetched_from_the_git_base_once(tmp_path, monkeypatch):
    base = tmp_path / "github"
    monkeypatch.setattr(rp2040, "SOURCES", tuple(mirror(base)))
    monkeypatch.setenv("MICROPY_GIT_BASE", base.as_uri())
    said = []
    src = B.fetch_sources(tmp_path / "src", say=said.append)
    B.check_tree(src)
    assert said == ["fetching %s %s from %s/%s" % (repo, rev, base.as_uri(), repo) for repo, rev, _ in rp2040.SOURCES]
    assert (src / "lib" / "tinyusb" / "src" / "tusb.h").read_text() == "hathach/tinyusb"
    for path, _, rev in B.pins()[1:]:
        assert git(["rev-parse", "HEAD"], src / path) == rev
    said.clear()
    B.fetch_sources(tmp_path / "src", say=said.append)
    assert said == []  # already there


@needs_git
def test_a_pin_the_tag_does_not_name_is_refused(tmp_path, monkeypatch):
    base = tmp_path / "github"
    sources = mirror(base)
    other = commit_repo(tmp_path / "other", {"x": "y"})
    sources[2] = (sources[2][0], other, sources[2][2])  # tinyusb
    monkeypatch.setattr(rp2040, "SOURCES", tuple(sources))
    with pytest.raises(B.BaseImageError, match="names [0-9a-f]{40} for lib/tinyusb; rp2040.SOURCES pins " + other):
        B.fetch_sources(tmp_path / "src", base=str(base), say=lambda m: None)


@needs_git
def test_no_network_says_what_to_do(tmp_path):
    with pytest.raises(B.BaseImageError) as e:
        B.fetch(tmp_path / "src", "micropython/micropython", "v1.28.0", base=(tmp_path / "none").as_uri(),
                say=lambda m: None)
    assert one_line(e.value).startswith("cannot fetch micropython/micropython v1.28.0 (")
    assert str(e.value).endswith("without network give a prepared tree, MICROPY_SRC=DIR")


# -- the bootrom ---------------------------------------------------------------------

FAKE_TS = """// RP2040 bootrom binary, built from https://github.com/raspberrypi/pico-bootrom
export const bootromB1 = new Uint32Array([
  0x20041f00, 0x000000ef, 0x00000035,
  // a comment
  0x0201754d,
]);
"""


def test_the_bootrom_is_the_words_of_bootrom_ts_little_endian():
    assert B.bootrom_from_ts(FAKE_TS) == struct.pack("<4I", 0x20041F00, 0xEF, 0x35, 0x0201754D)
    assert B.bootrom_from_ts(FAKE_TS)[:4] == b"\x00\x1f\x04\x20"
    with pytest.raises(B.BaseImageError, match="'0x1g' is not a 32-bit hex word"):
        B.bootrom_from_ts(FAKE_TS.replace("0x00000035", "0x1g"))
    with pytest.raises(B.BaseImageError, match="no `new Uint32Array"):
        B.bootrom_from_ts("export const x = 1;")


def test_a_bootrom_of_another_sha256_is_refused_and_the_pinned_one_installed(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKAHEDRON_RP2040_DIR", str(tmp_path / "cache"))
    checkout = tmp_path / "rp2040js"
    (checkout / "demo").mkdir(parents=True)
    (checkout / "demo" / "bootrom.ts").write_text(FAKE_TS)
    with pytest.raises(B.BaseImageError, match="gives 16 bytes of sha256 [0-9a-f]{64}; the B1 bootrom is 16384 bytes"):
        B.make_bootrom(checkout, say=lambda m: None)
    assert not (tmp_path / "cache" / rp2040.BOOTROM).exists()
    data = B.bootrom_from_ts(FAKE_TS)
    monkeypatch.setattr(B, "BOOTROM_BYTES", len(data))
    monkeypatch.setattr(B, "BOOTROM_SHA256", B.sha256(data))
    assert B.make_bootrom(checkout, say=lambda m: None).read_bytes() == data
    said = []
    B.make_bootrom(say=said.append)  # there already: nothing fetched
    assert said == ["bootrom: %s is there (sha256 %s)" % (tmp_path / "cache" / rp2040.BOOTROM, B.sha256(data))]


# -- the build itself ---------------------------------------------------------------

def prepared_tree():
    given = os.environ.get("DECKAHEDRON_MICROPY_SRC")
    if given:
        return Path(given)
    fetched = rp2040.cache_dir() / "src" / "micropython"
    try:
        B.check_tree(fetched)
    except B.NotReady:
        return None
    return fetched


@pytest.mark.slow
def test_the_base_image_builds_from_a_prepared_tree_and_passes_its_checks(tmp_path, monkeypatch):
    src = prepared_tree()
    if src is None:
        pytest.skip("no MicroPython tree: set DECKAHEDRON_MICROPY_SRC=DIR or run `make base-image` once")
    monkeypatch.setenv("DECKAHEDRON_RP2040_DIR", str(tmp_path / "cache"))
    said = []
    path = B.build_base_image(src, work=tmp_path / "build", bootrom=False, say=said.append)
    assert path == rp2040.cache_dir() / rp2040.BASE_IMAGE
    image = path.read_bytes()
    flash = rp2040.uf2_to_flash(image)
    rp2040.check_base_image(flash)
    assert rp2040.unfrozen_names(flash) == []  # this checkout's names, all frozen
    assert said[-1] == "sha256 %s  %s" % (B.sha256(image), rp2040.BASE_IMAGE)
    # the project's UF2 is the one the tree's own tools/uf2conv.py makes
    firmware = tmp_path / "build" / ("build-" + B.BOARD) / "firmware.bin"
    subprocess.run([sys.executable, str(Path(src) / "tools" / "uf2conv.py"), "-b", "0x10000000", "-f", "0xe48bff56",
                    "-c", "-o", str(tmp_path / "uf2conv.uf2"), str(firmware)], check=True, capture_output=True)
    assert (tmp_path / "uf2conv.uf2").read_bytes() == image

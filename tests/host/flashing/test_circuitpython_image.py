"""`deckahedron circuitpython-image` (host_tools/flashing/circuitpython_image.py):
CircuitPython's image for the emulated Pico, built by one command. The unit
tests need no toolchain: the GCC >= 14 check and its one-line message, the
command's argument errors, the source tree's checks, the fetch (from local git
repositories laid out as a GitHub mirror, by base_image.py's code), the image
check and the sha256 comparison. The slow test builds the image where a
prepared tree ($DECKAHEDRON_CIRCUITPY_SRC, or the cache's fetched one) and a
GCC >= 14 ($DECKAHEDRON_CIRCUITPY_TOOLCHAIN, or PATH) are found."""

import os
import shutil
from pathlib import Path

import pytest

from host_tools import cli
from host_tools.flashing import rp2040, base_image, circuitpython_image as C
from host_tools.sim import circuitpython
from tests.host.flashing.test_base_image import commit_repo, git, needs_git, one_line


# -- the toolchain ----------------------------------------------------------------

def fake_gcc(folder, version, libc):
    """arm-none-eabi-gcc of `version` (with newlib at `libc`) and make in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    gcc = ('#!/bin/sh\ncase "$1" in -dumpversion) echo %s;; -print-file-name=libc.a) echo %s;; esac\n'
           % (version, libc))
    for name, body in (("arm-none-eabi-gcc", gcc), ("make", "#!/bin/sh\ntrue\n")):
        (folder / name).write_text(body)
        (folder / name).chmod(0o755)
    return folder


@pytest.fixture
def libc(tmp_path):
    (tmp_path / "libc.a").write_bytes(b"")
    return tmp_path / "libc.a"


def test_gcc_12_is_refused_in_one_line_saying_what_to_install(tmp_path, libc):
    old = fake_gcc(tmp_path / "bin", "12.2.1", libc)
    with pytest.raises(C.NotReady) as e:
        C.check_toolchain(path=str(old))
    assert one_line(e.value) == "%s is GCC 12.2.1; CircuitPython 10.2.1 needs %s" % (old / "arm-none-eabi-gcc",
                                                                                   C.INSTALL)
    assert "trixie" in C.INSTALL and "CROSS=DIR" in C.INSTALL and "--toolchain DIR" in C.INSTALL


def test_gcc_14_with_newlib_passes_and_git_is_asked_for_only_to_fetch(tmp_path, libc):
    new = fake_gcc(tmp_path / "bin", "14.2.1", libc)
    C.check_toolchain(path=str(new))
    with pytest.raises(C.NotReady, match="git is missing: .*CIRCUITPY_SRC=DIR"):
        C.check_toolchain(git=True, path=str(new))


def test_no_compiler_or_no_newlib_names_what_to_install(tmp_path):
    with pytest.raises(C.NotReady) as e:
        C.check_toolchain(path=str(tmp_path))
    assert one_line(e.value) == "arm-none-eabi-gcc is missing: " + C.INSTALL
    with pytest.raises(C.NotReady, match="no C library \\(newlib\\): GCC >= 14"):
        C.check_toolchain(path=str(fake_gcc(tmp_path / "bin", "14.2.1", "libc.a")))


def test_the_toolchain_folder_goes_first_on_the_path(tmp_path, libc, monkeypatch):
    monkeypatch.setenv("PATH", str(fake_gcc(tmp_path / "old", "12.2.1", libc)))
    new = fake_gcc(tmp_path / "new", "14.1.0", libc)
    C.check_toolchain(path=C.tool_path(new))
    assert C.tool_path(new).split(os.pathsep) == [str(new), str(tmp_path / "old")]


# -- the command ------------------------------------------------------------------

def run_command(args, capsys):
    status = cli.main(["circuitpython-image"] + args)
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_checks_the_toolchain_first_and_says_so_in_one_line(tmp_path, libc, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(fake_gcc(tmp_path / "bin", "12.2.1", libc)))
    monkeypatch.setenv("DECKAHEDRON_RP2040_DIR", str(tmp_path / "cache"))
    status, out, err = run_command(["--circuitpython-src", str(tmp_path / "nowhere")], capsys)
    assert (status, out) == (2, "")
    assert err == "deckahedron circuitpython-image: %s is GCC 12.2.1; CircuitPython 10.2.1 needs %s\n" % (
        tmp_path / "bin" / "arm-none-eabi-gcc", C.INSTALL)
    assert not (tmp_path / "cache").exists()  # nothing fetched, nothing built
    # --toolchain points at a GCC 14: the next check is the tree's
    new = fake_gcc(tmp_path / "gcc14", "14.2.1", libc)
    status, out, err = run_command(["--toolchain", str(new), "--circuitpython-src", str(tmp_path / "nowhere")],
                                   capsys)
    assert status == 2
    assert out == "circuitpython-image: toolchain: %s, GCC 14.2.1\n" % (new / "arm-none-eabi-gcc")
    assert err == ("deckahedron circuitpython-image: the CircuitPython source tree %s is not a folder\n"
                   % (tmp_path / "nowhere"))


@pytest.mark.parametrize("args, says", [
    (["--jobs", "0"], "argument --jobs: '0' is not a whole number from 1 to 256"),
    (["--jobs"], "argument --jobs: expected one argument"),
    (["--toolchain"], "argument --toolchain: expected one argument"),
])
def test_argument_errors_are_one_line_and_exit_2(args, says, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["circuitpython-image"] + args)
    assert e.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert one_line(err).startswith("deckahedron circuitpython-image: ") and says in err


def test_an_unreadable_sha256sums_is_said_before_anything_is_built(tmp_path, libc, capsys):
    new = fake_gcc(tmp_path / "bin", "14.2.1", libc)
    status, _, err = run_command(["--toolchain", str(new), "--sha256sums", str(tmp_path / "none"),
                                  "--circuitpython-src", str(tmp_path)], capsys)
    assert status == 2
    assert err.startswith("deckahedron circuitpython-image: cannot read %s: " % (tmp_path / "none"))


# -- the source tree ------------------------------------------------------------------

def fake_tree(root):
    """A folder with every file check_tree looks for."""
    for path, marker in C.MARKERS.items():
        f = root / path / marker
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("")
    board = root / "ports" / "raspberrypi" / "boards" / C.BOARD
    board.mkdir(parents=True)
    (board / "mpconfigboard.mk").write_text("")
    return root


def test_a_prepared_tree_passes(tmp_path):
    C.check_tree(fake_tree(tmp_path))


def test_a_tree_missing_a_submodule_is_refused_in_one_line(tmp_path):
    shutil.rmtree(fake_tree(tmp_path) / "ports" / "raspberrypi" / "lib" / "Pico-PIO-USB")
    with pytest.raises(C.NotReady) as e:
        C.check_tree(tmp_path)
    assert one_line(e.value) == (
        "%s lacks ports/raspberrypi/lib/Pico-PIO-USB/src/pio_usb.c: ports/raspberrypi/lib/Pico-PIO-USB/ of "
        "sekigon-gonnoc/Pico-PIO-USB at 675543bcc9baa8170f868ab7ba316d418dbcf41f is missing (docs/rp2040.md, "
        "'CircuitPython on the emulated Pico', pins them)" % tmp_path)


def test_a_tree_without_the_board_or_not_a_folder_is_refused(tmp_path):
    shutil.rmtree(fake_tree(tmp_path) / "ports" / "raspberrypi" / "boards")
    with pytest.raises(C.NotReady, match="has no board raspberry_pi_pico: it is not CircuitPython 10.2.1$"):
        C.check_tree(tmp_path)
    with pytest.raises(C.NotReady, match="the CircuitPython source tree .* is not a folder"):
        C.check_tree(tmp_path / "nowhere")


@needs_git
def test_a_checkout_at_another_commit_is_refused(tmp_path):
    fake_tree(tmp_path)
    commit_repo(tmp_path, {"x": ""})
    head = git(["rev-parse", "HEAD"], tmp_path)
    with pytest.raises(C.NotReady, match="%s is at %s; adafruit/circuitpython is pinned at %s" % (tmp_path, head,
                                                                                                  C.COMMIT)):
        C.check_tree(tmp_path)


def test_the_pins_are_the_tags_submodules_once_each():
    paths = [path for path, _, _ in C.pins()]
    assert paths[0] == "" and len(paths) == 21 == len(set(paths))
    assert all(len(rev) == 40 and int(rev, 16) >= 0 for _, _, rev in C.pins()[1:])
    assert C.pins()[0] == ("", "adafruit/circuitpython", circuitpython.CP_VERSION)


# -- the fetch, by base_image.py's code ---------------------------------------------------

def mirror(base, monkeypatch):
    """Local repositories laid out as base/owner/name: a fake CircuitPython
    tagged 10.2.1 and its submodules; SOURCES and COMMIT pin them."""
    sources, links = [], []
    for path, repo, _, marker in C.SOURCES[1:]:
        sha = commit_repo(base / repo, {marker: repo})
        sources.append((path, repo, sha, marker))
        links.append((path, sha))
    root = C.SOURCES[0]
    commit = commit_repo(base / root[1], {root[3]: "", "ports/raspberrypi/boards/%s/mpconfigboard.mk" % C.BOARD: ""},
                         links, tag=C.TAG)
    monkeypatch.setattr(C, "SOURCES", (root,) + tuple(sources))
    monkeypatch.setattr(C, "COMMIT", commit)


@needs_git
def test_the_tag_and_its_submodules_are_fetched_at_the_pins(tmp_path, monkeypatch):
    base = tmp_path / "github"
    mirror(base, monkeypatch)
    said = []
    src = C.fetch_sources(tmp_path / "src", base=base.as_uri(), say=said.append)
    C.check_tree(src)
    assert said == ["fetching %s %s from %s/%s" % (repo, rev, base.as_uri(), repo) for _, repo, rev in C.pins()]
    assert (src / "lib" / "tinyusb" / "src" / "tusb.h").read_text() == "hathach/tinyusb"
    said.clear()
    C.fetch_sources(tmp_path / "src", base=base.as_uri(), say=said.append)
    assert said == []  # already there


@needs_git
def test_a_tag_at_another_commit_or_naming_other_submodules_is_refused(tmp_path, monkeypatch):
    base = tmp_path / "github"
    mirror(base, monkeypatch)
    sources = list(C.SOURCES)
    sources[6] = sources[6][:2] + ("0" * 40,) + sources[6][3:]  # lib/tinyusb
    monkeypatch.setattr(C, "SOURCES", tuple(sources))
    with pytest.raises(C.BaseImageError, match="names [0-9a-f]{40} for lib/tinyusb; circuitpython_image.SOURCES pins 0{40}"):
        C.fetch_sources(tmp_path / "src", base=base.as_uri(), say=lambda m: None)
    mirror(base / "again", monkeypatch)
    monkeypatch.setattr(C, "COMMIT", "1" * 40)
    with pytest.raises(C.BaseImageError, match="the tag 10.2.1 of adafruit/circuitpython is [0-9a-f]{40}, not 1{40}"):
        C.fetch_sources(tmp_path / "src2", base=(base / "again").as_uri(), say=lambda m: None)


@needs_git
def test_no_network_says_to_give_a_prepared_tree(tmp_path, monkeypatch):
    with pytest.raises(C.BaseImageError) as e:
        C.fetch_sources(tmp_path / "src", base=(tmp_path / "none").as_uri(), say=lambda m: None)
    assert one_line(e.value).startswith("cannot fetch adafruit/circuitpython 10.2.1 (")
    assert str(e.value).endswith("without network give a prepared tree, CIRCUITPY_SRC=DIR")


# -- the image's check and its sha256 ---------------------------------------------------------

def image(banner=b"Adafruit CircuitPython 10.2.1 on 2026-01-01", size=4096):
    return rp2040.flash_to_uf2({rp2040.FLASH_BASE: banner + bytes(size - len(banner))})


def test_the_image_must_be_circuitpython_below_circuitpy():
    assert C.check(image()) == rp2040.FLASH_BASE + 4096
    with pytest.raises(C.BaseImageError, match="does not say 'Adafruit CircuitPython 10.2.1'"):
        C.check(image(b"MicroPython v1.28.0"))
    with pytest.raises(C.BaseImageError, match="ends at 0x10100100, over CIRCUITPY at 0x10100000"):
        C.check(image(size=circuitpython.FS_OFFSET + 256))
    with pytest.raises(C.BaseImageError, match="not a UF2"):
        C.check(b"x" * 100)


def test_the_shared_sha256sums_format_is_read(tmp_path):
    sums = tmp_path / "SHA256SUMS"
    sums.write_text("%s  %s\n%s *other.uf2\n" % (circuitpython.IMAGE_SHA256, circuitpython.IMAGE, "0" * 64))
    assert C.listed_sha256(sums) == circuitpython.IMAGE_SHA256
    sums.write_text("%s  other.uf2\n" % ("0" * 64))
    with pytest.raises(C.NotReady, match="lists no sha256 for circuitpython-10.2.1-raspberry_pi_pico.uf2"):
        C.listed_sha256(sums)


def test_a_build_of_other_bytes_is_not_installed_when_sha256sums_is_given(tmp_path, libc, monkeypatch):
    monkeypatch.setenv("DECKAHEDRON_RP2040_DIR", str(tmp_path / "cache"))
    sums = tmp_path / "SHA256SUMS"
    sums.write_text("%s  %s\n" % (circuitpython.IMAGE_SHA256, circuitpython.IMAGE))
    monkeypatch.setattr(C, "python_env", lambda venv, say: tmp_path)
    monkeypatch.setattr(C, "build", lambda src, work, env, jobs, say: image())
    kw = dict(toolchain=fake_gcc(tmp_path / "bin", "14.2.1", libc), bootrom=False, say=lambda m: None)
    with pytest.raises(C.BaseImageError) as e:
        C.build_circuitpython_image(fake_tree(tmp_path / "src"), sha256sums=sums, **kw)
    assert one_line(e.value).startswith("sha256 %s differs from %s's %s" % (base_image.sha256(image()), sums,
                                                                            circuitpython.IMAGE_SHA256))
    assert not (tmp_path / "cache" / circuitpython.IMAGE).exists()
    said = []
    kw["say"] = said.append
    path = C.build_circuitpython_image(tmp_path / "src", **kw)  # no SHA256SUMS: installed, the difference said
    assert path.read_bytes() == image() and path == tmp_path / "cache" / circuitpython.IMAGE
    assert "the pinned sha256 (host_tools/sim/circuitpython.py): differs: " + circuitpython.IMAGE_SHA256 in said


# -- the build itself ---------------------------------------------------------------

def prepared():
    """(tree, toolchain folder or None), or the one-line reason there are none."""
    given = os.environ.get("DECKAHEDRON_CIRCUITPY_SRC")
    src = Path(given) if given else rp2040.cache_dir() / "src" / "circuitpython"
    toolchain = os.environ.get("DECKAHEDRON_CIRCUITPY_TOOLCHAIN")
    try:
        C.check_tree(src)
        C.check_toolchain(path=C.tool_path(toolchain))
    except C.NotReady as e:
        return "set DECKAHEDRON_CIRCUITPY_SRC=DIR and DECKAHEDRON_CIRCUITPY_TOOLCHAIN=DIR (GCC >= 14): %s" % e
    return src, toolchain


@pytest.mark.slow
def test_the_image_builds_from_a_prepared_tree_byte_for_byte(tmp_path, monkeypatch):
    found = prepared()
    if isinstance(found, str):
        pytest.skip("no CircuitPython tree and GCC >= 14: " + found)
    src, toolchain = found
    # the cache's venv and build folder (a warm build only relinks); the image goes to a private cache
    venv, work = rp2040.cache_dir() / "venv-circuitpython", rp2040.cache_dir() / "build-circuitpython"
    monkeypatch.setenv("DECKAHEDRON_RP2040_DIR", str(tmp_path / "cache"))
    said = []
    path = C.build_circuitpython_image(src, toolchain=toolchain, work=work, venv=venv, bootrom=False,
                                       say=said.append)
    assert path == tmp_path / "cache" / circuitpython.IMAGE
    assert "sha256 %s  %s" % (circuitpython.IMAGE_SHA256, circuitpython.IMAGE) in said
    assert "the pinned sha256 (host_tools/sim/circuitpython.py): the same" in said

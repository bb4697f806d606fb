"""Files stay where they belong (issue 25).

Reproductions: `screen NAME PATH` wrote or overwrote any path, `../`
included, and made folders before it refused a bad extension; a device that
named itself `../../x` made the scripted scene write its screen outside the
run folder; two `deckahedron table` on one run folder both ran.
"""

import io
import os
import subprocess
import sys
import time

import pytest

from host_tools.cli import main
from host_tools.console.core import TableConsole, make_console
from host_tools.table.errors import TableError
from host_tools.table.hub import TableHub
from host_tools.commands.table import scripted_scene
from tests.host.hostile_device import HostileDevice

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


@pytest.fixture
def ann(tmp_path):
    told = []
    hub = TableHub(notify=told.append)
    with HostileDevice(device="ann1") as dev:
        hub.join("Ann", dev.port)
        out = io.StringIO()
        yield hub, TableConsole(hub, make_console(file=out, width=300), str(tmp_path / "run")), out, dev
        hub.close()


def _files(top):
    return sorted(os.path.relpath(os.path.join(d, f), str(top)) for d, _, fs in os.walk(str(top)) for f in fs)


def test_screen_checks_its_path_before_it_creates_anything_and_never_overwrites_unasked(ann, tmp_path):
    hub, console, out, dev = ann
    for line in ("screen Ann %s" % (tmp_path / "new" / "ann.txt"),  # a bad extension: no folder made first
                 "screen Ann %s" % (tmp_path / "new" / "ann.png")):  # no folder is made for a typed path
        console.onecmd(line)
        assert console.failed
    assert not (tmp_path / "new").exists()
    said = out.getvalue()
    assert "the file must end in .png, not '.txt'" in said
    assert "the folder %s does not exist" % (tmp_path / "new") in said

    shot = tmp_path / "ann.png"
    shot.write_bytes(b"the GM's own picture")
    console.onecmd("screen Ann %s" % shot)
    assert console.failed and "is there already: add overwrite=yes to replace it" in out.getvalue()
    assert shot.read_bytes() == b"the GM's own picture"
    console.onecmd("screen Ann %s overwrite=yes" % shot)  # the GM says so
    assert not console.failed and shot.read_bytes().startswith(b"\x89PNG")


def test_a_device_naming_itself_a_path_is_refused_at_the_edge(tmp_path):
    told = []
    hub = TableHub(notify=told.append)
    with HostileDevice(device="x1", state={"name": "../../x"}) as dev:
        hub.join("Ann", dev.port)
        assert list(hub.players) == ["Ann"]  # the device's own name is not taken
        assert any("Ann's device called itself ../../x, but a name has no /, \\ or .." in t for t in told)
        for bad in ("../x", "a/b", "a\\b", "tab\there"):
            with pytest.raises(TableError, match="a name has no"):
                hub.rename("Ann", bad)
        with pytest.raises(TableError, match="a name has no"):
            hub.join("../../y", dev.port)
        hub.close()


def test_the_scripted_scene_writes_every_screen_inside_the_run_folder(ann, tmp_path):
    hub, console, out, dev = ann
    p = hub.players.pop("Ann")  # a name from before the edge checked names (an older session database)
    p.name = dev.name = "../../x"
    hub.players[p.name] = p
    run = tmp_path / "a" / "b" / "run"
    run.mkdir(parents=True)
    text = io.StringIO()
    scripted_scene(hub, make_console(file=text, width=300), str(run))
    assert _files(tmp_path) == ["a/b/run/screens/x.png"], text.getvalue()[-800:]
    scripted_scene(hub, make_console(file=text, width=300), str(run))  # make run again: it says it replaces them
    assert "(replacing the last run's)" in text.getvalue()


def test_a_second_hub_on_a_run_folder_is_refused_naming_the_first(tmp_path, capsys):
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from host_tools.table.runlock import RunLock; "
                               "lock = RunLock(sys.argv[1]); print('held', flush=True); time.sleep(60)",
                               str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert main(["table", "--dir", str(tmp_path), "--no-web"]) == 2
        err = capsys.readouterr().err
        assert "another deckahedron table (pid %d, started %s" % (holder.pid, time.strftime("%Y-%m-%d")) in err
        assert "is using the run folder %s" % tmp_path in err and err.count("\n") == 1
        assert not (tmp_path / "session.db").exists()  # refused before the database is opened
    finally:
        holder.kill()  # a hub that dies lets go of the folder: the kernel drops its lock
        holder.wait()
    from host_tools.table.runlock import RunLock

    with RunLock(str(tmp_path)):
        pass

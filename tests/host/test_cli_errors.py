"""The command line refuses bad options in one line with a non-zero exit,
never a traceback: numbers that are not numbers (inf, nan, -1, words) and a
session database that cannot be used. Subprocess runs of the real CLI."""

import os
import subprocess
import sys
import tty

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_cli(*argv, timeout=60, stdin=subprocess.DEVNULL):
    return subprocess.run([sys.executable, "-m", "host_tools.cli"] + list(argv), cwd=ROOT, stdin=stdin,
                          capture_output=True, text=True, timeout=timeout)


def one_line(p, *words):
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr + p.stdout
    assert p.stderr.count("\n") == 1, p.stderr
    for w in words:
        assert w in p.stderr, (w, p.stderr)


@pytest.fixture
def silent_port():
    """A real serial port (a pty) that never answers: the link would wait on it."""
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        yield os.ttyname(slave)
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize("value", ["inf", "nan", "-inf", "1e400", "0", "-1", "soon"])
def test_do_timeout_must_be_a_finite_number_of_seconds(silent_port, value):
    """Reproduction: `do --timeout inf` raised OverflowError; `--timeout nan` was taken."""
    p = run_cli("do", "--port", silent_port, "--timeout=" + value, "--retries", "0", "ping", timeout=20)
    one_line(p, "deckahedron do: ", "--timeout", "seconds")


@pytest.mark.parametrize("value", ["-1", "x", "1.5", "1000"])
def test_do_retries_must_be_a_small_whole_number(silent_port, value):
    p = run_cli("do", "--port", silent_port, "--timeout", "0.1", "--retries=" + value, "ping", timeout=20)
    one_line(p, "deckahedron do: ", "--retries", "whole number")


@pytest.mark.parametrize("value", ["inf", "nan"])
def test_screen_timeout_too(silent_port, value, tmp_path):
    p = run_cli("screen", "--port", silent_port, "--png", str(tmp_path / "x.png"), "--timeout", value, timeout=20)
    one_line(p, "deckahedron screen: ", "--timeout")


@pytest.mark.parametrize("argv, words", [
    (["--sim", "0"], "--sim"), (["--sim", "17"], "--sim"), (["--sim", "four"], "--sim"),
    (["--sim", "1", "--seed", "-1"], "--seed"), (["--sim", "1", "--seed", "x"], "--seed"),
])
def test_table_numbers(argv, words, tmp_path):
    p = run_cli("table", "--dir", str(tmp_path), *argv)
    one_line(p, "deckahedron table: ", words)
    assert not os.path.exists(os.path.join(str(tmp_path), "sim"))  # no board was started


def test_sim_seed_is_not_negative(tmp_path):
    p = run_cli("sim", "--boards", "1", "--seed", "-1", "--dir", str(tmp_path))
    one_line(p, "deckahedron sim: ", "--seed")


def _db_cases(tmp_path):
    garbage = tmp_path / "notes.txt"
    garbage.write_text("not a database at all\n" * 100)
    cases = [
        (str(tmp_path / "missing" / "session.db"), "does not exist"),
        (str(tmp_path), "it is a folder"),
        (str(garbage), "session database"),
        ("/proc/version", "session database"),  # a file nobody may write, root included
    ]
    if os.geteuid() != 0:  # root writes through file modes
        readonly = tmp_path / "readonly.db"
        readonly.write_bytes(b"")
        readonly.chmod(0o444)
        cases.append((str(readonly), "session database"))
    return cases


def test_table_db_that_cannot_be_used(tmp_path):
    """Reproduction: `table --db` naming a missing folder, a directory or an
    unwritable file ended in an sqlite3 traceback."""
    run_dir = tmp_path / "run"
    for path, words in _db_cases(tmp_path):
        p = run_cli("table", "--dir", str(run_dir), "--db", path, "--port", str(tmp_path / "ttyNOPE"))
        one_line(p, "deckahedron table: cannot use %s as the session database" % path, words)


def test_table_run_folder_that_cannot_be_made(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    p = run_cli("table", "--dir", str(blocker / "run"), "--port", str(tmp_path / "ttyNOPE"))
    one_line(p, "deckahedron table: cannot use", "run folder")


@pytest.mark.slow  # about 12 s: the whole scripted scene on 4 simulated boards
def test_scripted_scene_without_a_terminal(tmp_path):
    """`make run < /dev/null`: the scene plays through the console's own
    commands, answers in words, saves every screen and exits 0."""
    p = run_cli("table", "--sim", "3", "--seed", "3", "--dir", str(tmp_path), timeout=180)
    assert p.returncode == 0, p.stdout + p.stderr
    out = p.stdout
    assert "Traceback" not in out + p.stderr
    for line in ("table> flip Ann str +1", "table> press Bo B", "table> team Cy Ann Bo dex",
                 "table> damage Cy 9 wounds=1", "table> breather Ann"):
        assert line in out, line
    assert "resolves it:" in out
    assert "Cy takes 9 damage: 1 Wound" in out
    assert "Ann takes a Breather" in out
    assert "the device says no" not in out and "unknown command" not in out
    for name in ("Ann", "Bo", "Cy"):
        assert os.path.getsize(os.path.join(str(tmp_path), "screens", name + ".png")) > 0
    assert "made with buttons" in out and "(0 made with buttons)" not in out


@pytest.mark.slow  # two scenes on 4 boards: about 5 s each
@pytest.mark.parametrize("seed, who, how", [(21, "Ann", "table> end Ann crit=blessing"),  # her console flip
                                            (4, "Bo", "table> press Bo DOWN")])  # his button flip's menu
def test_a_scene_flip_that_draws_the_critical_success_takes_its_reward_and_the_scene_goes_on(tmp_path, seed, who, how):
    """The reward is asked after the Critical Success is seen, as at a real table; the scene answers
    it (a Blessing) instead of leaving the flip open, which made every later line for that player
    say "finish the current flip" (boards seeded so the scene's flip draws card 11)."""
    p = run_cli("table", "--sim", "4", "--seed", str(seed), "--dir", str(tmp_path), timeout=180)
    assert p.returncode == 0, p.stdout + p.stderr
    out = p.stdout
    assert "%s drew the Critical Success: the reward is a Blessing" % who in out and how in out, out
    assert "the device says no" not in out, out
    assert "teamwork led by Cy" in out and "(1 made with buttons)" in out, out

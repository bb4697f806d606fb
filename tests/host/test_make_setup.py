"""`make setup` speaks only of failures that happened: its recipes' failure
messages are not echoed with the commands in a run that succeeded (issue 27:
the first `make test` of a fresh clone said "install failed" and passed)."""

import os
import shutil
import subprocess

import pytest

from tests.host.test_micropython_suite import ROOT

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")


def _setup(tmp_path, pip_status):
    """`make setup` with a stub venv python (the project's install exits
    ``pip_status``) and a stub npm, so nothing is installed; (exit code,
    everything it printed)."""
    venv, emu, tools = tmp_path / "venv", tmp_path / "emu", tmp_path / "tools"
    for d in (venv / "bin", emu, tools):
        d.mkdir(parents=True)
    stubs = {venv / "bin" / "python": 'case " $* " in *" -e "*) exit %d;; esac' % pip_status,
             tools / "npm": "mkdir -p node_modules"}
    for stub, body in stubs.items():
        stub.write_text("#!/bin/sh\n%s\n" % body)
        stub.chmod(0o755)
    (emu / "package-lock.json").write_text("{}\n")
    env = dict(os.environ, PATH="%s:%s" % (tools, os.environ.get("PATH", "")))
    env.pop("MAKEFLAGS", None)
    run = subprocess.run(["make", "--no-print-directory", "-B", "setup", "VENV=%s" % venv, "EMU=%s" % emu],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    return run.returncode, run.stdout + run.stderr


def test_a_setup_that_succeeds_says_no_failure(tmp_path):
    code, said = _setup(tmp_path, 0)
    assert code == 0, said
    assert "failed" not in said and "missing" not in said, said
    assert "make setup: installing the project and its dev tools" in said


def test_a_failed_install_says_so(tmp_path):
    code, said = _setup(tmp_path, 1)
    assert code != 0
    assert "make setup: install failed" in said

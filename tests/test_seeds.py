"""The seed documents' sessions, run verbatim as doctests, each in a fresh interpreter."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

SESSIONS = sorted((pathlib.Path(__file__).parent / "seeds").glob("session*.txt"))

RUNNER = (
    "import doctest, sys\n"
    "r = doctest.testfile(sys.argv[1], module_relative=False,\n"
    "                     optionflags=doctest.ELLIPSIS)\n"
    "sys.exit(1 if r.failed or not r.attempted else 0)\n")


def test_three_sessions_exist():
    assert len(SESSIONS) == 3


@pytest.mark.parametrize("path", SESSIONS, ids=lambda p: p.stem)
def test_seed_session(path):
    proc = subprocess.run([sys.executable, "-c", RUNNER, str(path)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_walkthrough_shows_the_statement_before_its_warning(capsys):
    from ember.examples import seeds
    seeds.main()
    out = capsys.readouterr().out
    lesson = out.split("# 4.")[1].split("# 5.")[0].strip().splitlines()
    assert lesson[1] == ">>> v = Variable(torch.ones(1), volatile=True)"
    assert lesson[2] == ("UserWarning: volatile was removed and now has no effect. Use "
                         "`with torch.no_grad():` instead.")

"""Small scripts, each about one corner of torch's API, print the same under torch and under
``python -m ember``: every ``tests/data/scripts/*.py`` runs in a fresh interpreter (their
registrations, subclasses and warnings are global to a process) under each, and the outputs
must be equal, except for the lines ``EXPECTED`` lists with the reason.

- ``jit_*``: ``torch.jit.script``/``trace``/``load`` give ``RecursiveScriptModule`` /
  ``TopLevelTracedModule`` over the same parameters, printing as torch's; a scripted class
  derives from the original here, so ``isinstance(scripted, Net)`` is True
  (docs/differences.md).
- ``library_*``: ``torch.library``'s registration by schema.
- ``cuda_amp_*``: the deprecated ``torch.cuda.amp`` spellings.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
SCRIPTS = sorted((HERE / "data" / "scripts").glob("*.py"))
SRC = str(HERE.parent / "src")
EXPECTED = {"jit_script_and_trace": [("RecursiveScriptModule True False True",
                                      "RecursiveScriptModule True True True")]}


def _run(script: Path, where: Path, *launcher: str) -> str:
    env = dict(os.environ, PYTHONPATH=SRC)
    done = subprocess.run([sys.executable, *launcher, str(script)], env=env, cwd=str(where),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_script_prints_what_torch_prints(script, tmp_path):
    torch_out, ember_out = _run(script, tmp_path), _run(script, tmp_path, "-m", "ember")
    assert torch_out.strip()
    for theirs, ours in EXPECTED.get(script.stem, ()):
        assert theirs in torch_out
        torch_out = torch_out.replace(theirs, ours)
    assert ember_out == torch_out

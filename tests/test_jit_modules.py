"""``torch.jit``'s modules: ``script`` gives a ``RecursiveScriptModule``, ``trace`` a
``TopLevelTracedModule``, ``load`` a ``RecursiveScriptModule``, each over the same
parameters, printing as torch prints them. The scripts in ``tests/data/jit/`` print the same
under torch and under ``python -m ember`` except where ``EXPECTED`` says (a scripted class
derives from the original here, so ``isinstance(scripted, Net)`` is True:
docs/differences.md)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
SCRIPTS = sorted((HERE / "data" / "jit").glob("*.py"))
SRC = str(HERE.parent / "src")
EXPECTED = {"script_and_trace": [("RecursiveScriptModule True False True",
                                  "RecursiveScriptModule True True True")]}


def _run(script: Path, *launcher: str) -> str:
    env = dict(os.environ, PYTHONPATH=SRC)
    done = subprocess.run([sys.executable, *launcher, str(script)], env=env, cwd=str(HERE),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_jit_modules_print_what_torch_prints(script):
    torch_out, ember_out = _run(script), _run(script, "-m", "ember")
    for theirs, ours in EXPECTED.get(script.stem, ()):
        assert theirs in torch_out
        torch_out = torch_out.replace(theirs, ours)
    assert ember_out == torch_out

"""``torch.library``'s registration by schema (``Library``, ``define``, ``impl``,
``impl_abstract``, ``get_ctx``): ``tests/data/library/schema_ops.py`` prints the same under
torch and under ``python -m ember`` (each in a fresh interpreter: registrations are global)."""
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parent / "data" / "library" / "schema_ops.py"
SRC = str(Path(__file__).resolve().parents[1] / "src")


def _run(*launcher: str) -> str:
    env = dict(os.environ, PYTHONPATH=SRC)
    done = subprocess.run([sys.executable, *launcher, str(SCRIPT)], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_schema_ops_print_what_torch_prints():
    torch_out, ember_out = _run(), _run("-m", "ember")
    assert "WarnNotImplemented" in torch_out
    assert ember_out == torch_out

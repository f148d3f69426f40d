"""The digits demo with ``--ranks 2``: DDP on two real ranks trains to the accuracy of the
one-process demo (same epochs, same global batch) and writes a checkpoint of the plain
model."""

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("mpi4py")

from ._launch import SRC  # noqa: E402


def test_digits_on_two_ranks(tmp_path):
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=os.pathsep.join(
        [SRC, *filter(None, [os.environ.get("PYTHONPATH")])]))
    out = subprocess.run([sys.executable, "-m", "ember.examples.digits", "--ranks", "2",
                          "--epochs", "3", "--out", str(tmp_path)], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "(2 ranks)" in out.stdout
    history = json.loads((tmp_path / "metrics.json").read_text())
    from ember.examples import digits
    alone = digits.train(digits.parse_args(["--epochs", "3", "--out", str(tmp_path / "one")]))
    assert history["epoch"] == [1, 2, 3]
    assert abs(history["test_acc"][-1] - alone["test_acc"][-1]) <= 0.03, (history, alone)
    assert history["test_acc"][-1] >= 0.9
    torch = pytest.importorskip("torch")
    model = digits.build_model(torch.nn)
    model.load_state_dict(torch.load(tmp_path / "model.pt"))

"""The README's demo: trains to >= 97 %, and torch reads its checkpoint to the same accuracy."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ember.examples import digits


def test_digits_demo_trains_and_checkpoint_loads_in_torch(tmp_path, capsys):
    history = digits.train(digits.parse_args(["--out", str(tmp_path)]))
    assert history["test_acc"][-1] >= 0.97
    assert json.loads((tmp_path / "metrics.json").read_text())["epoch"][-1] == 12
    torch = pytest.importorskip("torch")
    model = digits.build_model(torch.nn)
    model.load_state_dict(torch.load(tmp_path / "model.pt"))
    model.eval()
    images, labels = digits.load_digits()
    torch.manual_seed(0)
    test_idx = torch.randperm(len(labels)).numpy()[: len(labels) // 5]
    with torch.no_grad():
        pred = model(torch.tensor(images[test_idx])).argmax(1).numpy()
    assert np.isclose((pred == labels[test_idx]).mean(), history["test_acc"][-1])


def test_same_losses_as_torch(tmp_path):
    pytest.importorskip("torch")
    args = ["--epochs", "2", "--out", str(tmp_path / "e")]
    ours = digits.train(digits.parse_args(args))
    theirs = digits.train(digits.parse_args(["--epochs", "2", "--out", str(tmp_path / "t"),
                                             "--backend", "torch"]))
    np.testing.assert_allclose(ours["step_losses"], theirs["step_losses"], rtol=1e-4,
                               atol=1e-5)

"""The README's demo: trains to >= 97 %, and torch reads its checkpoint to the same accuracy."""

from __future__ import annotations

import json
import re

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


class _Tty:
    """A terminal stand-in: collects writes, reports itself as a tty."""

    def __init__(self, tty: bool):
        self.tty, self.parts = tty, []

    def isatty(self) -> bool:
        return self.tty

    def write(self, s: str) -> int:
        self.parts.append(s)
        return len(s)

    def flush(self) -> None:
        pass


def _train_epoch(monkeypatch, tmp_path, tty: bool) -> str:
    """The demo's output for one epoch, written to a (fake) terminal or a log file, under a
    clock that advances 0.1 s each time tqdm reads it."""
    std = pytest.importorskip("tqdm.std")
    clock = [1000.0]

    def tick():
        clock[0] += 0.1
        return clock[0]
    monkeypatch.setattr(std, "time", tick)
    out = _Tty(tty)
    monkeypatch.setattr(digits.sys, "stdout", out)
    digits.train(digits.parse_args(["--epochs", "1", "--out", str(tmp_path)]))
    return "".join(out.parts)


def test_progress_moves_during_the_epoch_on_a_terminal(monkeypatch, tmp_path):
    text = _train_epoch(monkeypatch, tmp_path, tty=True)
    counts = {int(m) for m in re.findall(r"(\d+)/45", text)}
    assert {0, 45} <= counts and len(counts) >= 5     # intermediate counts, not 0 then 45
    assert re.search(r" [1-9]\d?/45 .*loss \d", text)  # the postfix rides on those redraws
    assert text.count("\r") < 30                      # not one redraw per batch


def test_progress_in_a_log_file_stays_short(monkeypatch, tmp_path):
    text = _train_epoch(monkeypatch, tmp_path, tty=False)
    bar = text.split("test loss")[0]
    assert bar.count("\r") <= 3 and len(bar) < 400
    assert re.search(r"45/45 .*loss \d\.\d{4} acc", bar)   # the final count and postfix


def test_demo_log_is_short(tmp_path, capsys):
    digits.train(digits.parse_args(["--epochs", "2", "--out", str(tmp_path)]))
    log = capsys.readouterr().out
    assert log.count("\r") <= 8 and len(log) < 1500   # was about 4 KB of redraws an epoch


def test_plot_has_integer_epoch_ticks():
    plt = pytest.importorskip("matplotlib.pyplot")
    history = {"epoch": [1, 2], "train_loss": [1.0, 0.5], "test_loss": [1.1, 0.6],
               "train_acc": [0.5, 0.8], "test_acc": [0.4, 0.7], "backend": "ember"}
    fig = digits._figure(plt, history)
    fig.canvas.draw()
    for ax in fig.axes:
        ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
        assert ticks and all(float(t).is_integer() for t in ticks), ticks
    plt.close(fig)

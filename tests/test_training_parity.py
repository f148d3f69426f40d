"""Training parity: the same script under torch and ember, after the same seed.

An MLP, a small CNN with BatchNorm and Dropout, and an LSTM are initialised from the same
seed and trained 50 steps on the same batches, with SGD+momentum and with AdamW plus a
scheduler: every step's loss agrees to 1e-5 relative, the final parameters to 1e-4.
"""

from __future__ import annotations

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")


def mlp(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 32), nn.Tanh(),
                         nn.Linear(32, 5))


def cnn(lib):
    # no bias before BatchNorm: its true gradient is 0, and Adam would amplify rounding noise
    nn = lib.nn
    return nn.Sequential(nn.Conv2d(1, 6, 3, padding=1, bias=False), nn.BatchNorm2d(6), nn.ReLU(),
                         nn.MaxPool2d(2), nn.Conv2d(6, 8, 3), nn.ReLU(), nn.Dropout(0.25),
                         nn.Flatten(), nn.Linear(8 * 2 * 2, 5))


class _LSTMNet:
    @staticmethod
    def build(lib):
        nn = lib.nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.lstm = nn.LSTM(6, 12, batch_first=True)
                self.head = nn.Linear(12, 5)

            def forward(self, x):
                out, _ = self.lstm(x)
                return self.head(out[:, -1])
        return Net()


MODELS = {"mlp": (mlp, (20,)), "cnn": (cnn, (1, 8, 8)), "lstm": (_LSTMNet.build, (7, 6))}


def run(lib, model_name, optim_name, steps=50, batch=16):
    build, shape = MODELS[model_name]
    lib.manual_seed(0)
    model = build(lib)
    rng = np.random.default_rng(1)
    data = rng.standard_normal((steps, batch, *shape)).astype(np.float32)
    target = rng.integers(0, 5, (steps, batch))
    if optim_name == "sgd":
        opt = lib.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        sched = None
    else:
        opt = lib.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
        sched = lib.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
    losses = []
    for i in range(steps):
        opt.zero_grad()
        out = model(lib.tensor(data[i]))
        loss = lib.nn.functional.cross_entropy(out, lib.tensor(target[i]))
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
        losses.append(loss.item())
    params = [p.detach().numpy().copy() for p in model.parameters()]
    return np.array(losses), params


@pytest.mark.parametrize("optim_name", ["sgd", "adamw"])
@pytest.mark.parametrize("model_name", list(MODELS))
def test_losses_match_torch_step_by_step(model_name, optim_name):
    t_losses, t_params = run(torch, model_name, optim_name)
    e_losses, e_params = run(ember, model_name, optim_name)
    np.testing.assert_allclose(e_losses, t_losses, rtol=1e-5, atol=1e-7)
    assert len(e_params) == len(t_params)
    for a, b in zip(e_params, t_params):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)

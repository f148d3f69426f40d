"""Checkpoints in torch's format: ember ↔ torch round trips and the weights-only guard."""

from __future__ import annotations

import collections
import pickle

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")


def _state():
    ember.manual_seed(0)
    return collections.OrderedDict(
        w=ember.randn(3, 4).t(), i=ember.arange(5)[1:], b=ember.tensor([True, False]),
        h=ember.tensor([1.5, -2.0], dtype=ember.float16), d=ember.randn(2, dtype=ember.float64),
        s=ember.tensor(3.25), p=ember.nn.Parameter(ember.ones(2)), n=7, f=0.5,
        nested={"l": [ember.zeros(2, 2), 3], "t": (1, 2)})


def _same(e, t):
    if isinstance(e, ember.Tensor):
        assert isinstance(t, torch.Tensor)
        assert str(e.dtype) == str(t.dtype)
        assert list(e.shape) == list(t.shape)
        np.testing.assert_array_equal(e.detach().numpy(), t.detach().numpy())
        assert e.requires_grad == t.requires_grad
        assert isinstance(e, ember.nn.Parameter) == isinstance(t, torch.nn.Parameter)
    elif isinstance(e, dict):
        assert list(e) == list(t)
        for k in e:
            _same(e[k], t[k])
    elif isinstance(e, (list, tuple)):
        assert type(e) is type(t) and len(e) == len(t)
        for a, b in zip(e, t):
            _same(a, b)
    else:
        assert e == t


def test_ember_save_torch_load(tmp_path):
    sd = _state()
    ember.save(sd, tmp_path / "e.pt")
    _same(sd, torch.load(tmp_path / "e.pt"))


def test_torch_save_ember_load(tmp_path):
    sd = _state()
    tsd = _to_torch(sd)
    torch.save(tsd, tmp_path / "t.pt")
    _same(ember.load(tmp_path / "t.pt"), tsd)


def test_file_objects_and_model_state(tmp_path):
    import io
    ember.manual_seed(1)
    model = ember.nn.Sequential(ember.nn.Linear(4, 3), ember.nn.ReLU(), ember.nn.Linear(3, 2))
    buf = io.BytesIO()
    ember.save(model.state_dict(), buf)
    buf.seek(0)
    tmodel = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))
    tmodel.load_state_dict(torch.load(buf))
    x = np.random.default_rng(0).standard_normal((5, 4)).astype(np.float32)
    np.testing.assert_allclose(model(ember.tensor(x)).detach().numpy(),
                               tmodel(torch.tensor(x)).detach().numpy(), rtol=1e-6)


def test_optimizer_state_round_trip(tmp_path):
    w = torch.nn.Parameter(torch.ones(3))
    opt = torch.optim.Adam([w], lr=0.1)
    w.grad = torch.ones(3)
    opt.step()
    torch.save(opt.state_dict(), tmp_path / "opt.pt")
    state = ember.load(tmp_path / "opt.pt")
    assert state["param_groups"][0]["lr"] == 0.1
    np.testing.assert_array_equal(state["state"][0]["exp_avg"].numpy(),
                                  opt.state_dict()["state"][0]["exp_avg"].numpy())


class _Evil:
    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        import os
        return (os.system, (f"touch {self.path}",))


def test_malicious_checkpoint_is_refused(tmp_path):
    marker = tmp_path / "pwned"
    torch.save({"x": _Evil(marker)}, tmp_path / "evil.pt")
    with pytest.raises(pickle.UnpicklingError, match="Unsupported global: GLOBAL posix.system"):
        ember.load(tmp_path / "evil.pt")
    assert not marker.exists()


def _to_torch(x):
    if isinstance(x, ember.nn.Parameter):
        return torch.nn.Parameter(torch.from_numpy(x.detach().numpy().copy()))
    if isinstance(x, ember.Tensor):
        return torch.from_numpy(np.ascontiguousarray(x.numpy()).copy())
    if isinstance(x, dict):
        return type(x)((k, _to_torch(v)) for k, v in x.items())
    if isinstance(x, (list, tuple)):
        return type(x)(_to_torch(v) for v in x)
    return x

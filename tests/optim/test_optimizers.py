"""Oracle tests for ember.optim: the same parameters and gradients give torch's trajectories.

Each case runs 20 steps of torch's optimizer and ember's on the same starting values with the
same gradient sequence (set directly on ``.grad``), and compares the parameters after every
step and the state_dict's structure and values at the end.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

_SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                    "src")
if not os.path.exists(os.path.join(_SRC, "ember", "random.py")):  # pragma: no cover
    sys.path.insert(0, "/tmp/fake")
    import conftest_fake  # noqa: F401

import ember  # noqa: E402
import ember.optim  # noqa: E402

torch = pytest.importorskip("torch", reason="the oracle tests need torch 2.13")

STEPS = 20
SHAPES = [(5, 7), (3,), (40,)]

CASES = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.1, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.1, "momentum": 0.5, "maximize": True}),
    ("Adam", {}),
    ("Adam", {"lr": 0.01, "betas": (0.8, 0.99), "weight_decay": 0.1}),
    ("Adam", {"lr": 0.01, "amsgrad": True}),
    ("Adam", {"lr": 0.01, "maximize": True, "decoupled_weight_decay": True,
              "weight_decay": 0.1}),
    ("AdamW", {}),
    ("AdamW", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.05}),
    ("RMSprop", {}),
    ("RMSprop", {"lr": 0.001, "centered": True, "momentum": 0.5, "weight_decay": 0.1}),
    ("RMSprop", {"lr": 0.001, "alpha": 0.9, "momentum": 0.9, "maximize": True}),
    ("Adagrad", {}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.1,
                 "initial_accumulator_value": 0.5}),
    ("Adadelta", {}),
    ("Adadelta", {"lr": 0.5, "rho": 0.8, "weight_decay": 0.1, "maximize": True}),
    ("Adamax", {}),
    ("Adamax", {"lr": 0.01, "betas": (0.8, 0.9), "weight_decay": 0.1}),
    ("NAdam", {}),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "momentum_decay": 0.01}),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("RAdam", {}),
    ("RAdam", {"lr": 0.01, "weight_decay": 0.1}),
    ("RAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}),
]


def _close(a: np.ndarray, b: np.ndarray) -> None:
    # rounding-level agreement; torch's MKL sqrt is not correctly rounded, so allow an atol
    np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-6)


def _compare_state(st, se) -> None:
    assert type(st) is dict or isinstance(st, dict)
    assert sorted(st) == sorted(se)
    for k in st:
        vt, ve = st[k], se[k]
        if isinstance(vt, torch.Tensor):
            assert isinstance(ve, ember.Tensor), k
            assert tuple(vt.shape) == tuple(ve.shape), k
            assert str(vt.dtype).split(".")[1] == ve.dtype.name, k
            _close(vt.numpy(), ve.numpy())
        elif isinstance(vt, list):
            assert len(vt) == len(ve)
        else:
            assert vt == ve, k


def _run(name: str, kw: dict, shapes, seed: int = 0):
    rng = np.random.default_rng(seed)
    inits = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    grads = [[rng.standard_normal(s).astype(np.float32) for s in shapes] for _ in range(STEPS)]
    pt = [torch.tensor(x, requires_grad=True) for x in inits]
    pe = [ember.tensor(x, requires_grad=True) for x in inits]
    ot = getattr(torch.optim, name)(pt, **kw)
    oe = getattr(ember.optim, name)(pe, **kw)
    for gs in grads:
        for t, e, g in zip(pt, pe, gs):
            t.grad = torch.tensor(g)
            e.grad = ember.tensor(g)
        ot.step()
        oe.step()
        for t, e in zip(pt, pe):
            _close(t.detach().numpy(), e.detach().numpy())
    return ot, oe


@pytest.mark.parametrize("name,kw", CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_trajectory_and_state_dict(name, kw):
    ot, oe = _run(name, kw, SHAPES)
    sdt, sde = ot.state_dict(), oe.state_dict()
    assert sorted(sdt) == sorted(sde) == ["param_groups", "state"]
    assert list(sdt["state"]) == list(sde["state"])
    for i in sdt["state"]:
        _compare_state(sdt["state"][i], sde["state"][i])
    assert sdt["param_groups"] == sde["param_groups"]


def test_float64_params():
    rng = np.random.default_rng(3)
    x = rng.standard_normal(6)
    pt, pe = torch.tensor(x, requires_grad=True), ember.tensor(x, requires_grad=True)
    ot, oe = torch.optim.Adam([pt], lr=0.1), ember.optim.Adam([pe], lr=0.1)
    for _ in range(10):
        g = rng.standard_normal(6)
        pt.grad, pe.grad = torch.tensor(g), ember.tensor(g)
        ot.step()
        oe.step()
        np.testing.assert_allclose(pe.detach().numpy(), pt.detach().numpy(), rtol=1e-12)
    assert oe.state[pe]["exp_avg"].dtype is ember.float64
    assert oe.state[pe]["step"].dtype is ember.float32


def test_param_groups_and_skipped_grads():
    rng = np.random.default_rng(1)
    xs = [rng.standard_normal(4).astype(np.float32) for _ in range(3)]
    pt = [torch.tensor(x, requires_grad=True) for x in xs]
    pe = [ember.tensor(x, requires_grad=True) for x in xs]

    def groups(ps):
        return [{"params": ps[:2], "lr": 0.01}, {"params": [ps[2]], "momentum": 0.5}]

    ot = torch.optim.SGD(groups(pt), lr=0.1, momentum=0.9)
    oe = ember.optim.SGD(groups(pe), lr=0.1, momentum=0.9)
    for step in range(5):
        for i, (t, e) in enumerate(zip(pt, pe)):
            if i == 1 and step % 2:
                t.grad = e.grad = None          # a parameter without a gradient is skipped
                continue
            g = rng.standard_normal(4).astype(np.float32)
            t.grad, e.grad = torch.tensor(g), ember.tensor(g)
        ot.step()
        oe.step()
        for t, e in zip(pt, pe):
            _close(t.detach().numpy(), e.detach().numpy())
    assert ot.state_dict()["param_groups"] == oe.state_dict()["param_groups"]
    assert list(ot.state_dict()["state"]) == list(oe.state_dict()["state"])
    assert repr(ot) == repr(oe)


def test_add_param_group_and_errors():
    a = ember.zeros(2, requires_grad=True)
    b = ember.zeros(3, requires_grad=True)
    opt = ember.optim.Adam([a], lr=0.1)
    opt.add_param_group({"params": b, "lr": 0.5})
    assert opt.param_groups[1]["lr"] == 0.5
    assert opt.param_groups[1]["betas"] == (0.9, 0.999)
    with pytest.raises(ValueError, match="some parameters appear in more than one"):
        opt.add_param_group({"params": [a]})
    with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
        ember.optim.SGD([], lr=0.1)
    with pytest.raises(TypeError, match="params argument given to the optimizer"):
        ember.optim.SGD(a, lr=0.1)
    with pytest.raises(ValueError, match="Invalid learning rate"):
        ember.optim.Adam([a], lr=-1.0)
    with pytest.raises(ValueError, match="Nesterov momentum requires"):
        ember.optim.SGD([a], lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
        ember.optim.SGD([a * 2], lr=0.1)


def test_zero_grad():
    a = ember.zeros(2, requires_grad=True)
    opt = ember.optim.SGD([a], lr=0.1)
    a.grad = ember.ones(2)
    opt.zero_grad(set_to_none=False)
    assert a.grad is not None and a.grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert a.grad is None


def test_load_state_dict_resumes_exactly():
    rng = np.random.default_rng(2)
    x = rng.standard_normal(5).astype(np.float32)
    grads = [rng.standard_normal(5).astype(np.float32) for _ in range(10)]
    p1 = ember.tensor(x, requires_grad=True)
    o1 = ember.optim.Adam([p1], lr=0.05, amsgrad=True)
    for g in grads[:5]:
        p1.grad = ember.tensor(g)
        o1.step()
    p2 = ember.tensor(p1.detach().numpy().copy(), requires_grad=True)
    o2 = ember.optim.Adam([p2], lr=0.05, amsgrad=True)
    import copy
    o2.load_state_dict(copy.deepcopy(o1.state_dict()))
    for g in grads[5:]:
        p1.grad, p2.grad = ember.tensor(g), ember.tensor(g)
        o1.step()
        o2.step()
    np.testing.assert_array_equal(p1.detach().numpy(), p2.detach().numpy())
    with pytest.raises(ValueError, match="different number of parameter groups"):
        o2.load_state_dict({"state": {}, "param_groups": []})


def test_load_torch_state_dict():
    """A torch optimizer's state_dict, converted tensor by tensor, resumes in ember."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal(6).astype(np.float32)
    pt = torch.tensor(x, requires_grad=True)
    ot = torch.optim.RMSprop([pt], lr=0.01, momentum=0.9, centered=True)
    for _ in range(3):
        pt.grad = torch.tensor(rng.standard_normal(6).astype(np.float32))
        ot.step()
    sd = ot.state_dict()
    sd_e = {"state": {k: {n: ember.tensor(v.numpy().copy()) for n, v in s.items()}
                      for k, s in sd["state"].items()},
            "param_groups": sd["param_groups"]}
    pe = ember.tensor(pt.detach().numpy().copy(), requires_grad=True)
    oe = ember.optim.RMSprop([pe], lr=0.01)
    oe.load_state_dict(sd_e)
    assert oe.param_groups[0]["momentum"] == 0.9 and oe.param_groups[0]["params"] == [pe]
    for _ in range(5):
        g = rng.standard_normal(6).astype(np.float32)
        pt.grad, pe.grad = torch.tensor(g), ember.tensor(g)
        ot.step()
        oe.step()
        _close(pt.detach().numpy(), pe.detach().numpy())


def test_closure_and_hooks():
    w = ember.tensor([2.0, -1.0], requires_grad=True)
    opt = ember.optim.SGD([w], lr=0.1)
    calls = []
    h = opt.register_step_pre_hook(lambda o, a, k: calls.append("pre"))
    opt.register_step_post_hook(lambda o, a, k: calls.append("post"))

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    loss = opt.step(closure)
    assert float(loss) == 5.0
    assert calls == ["pre", "post"]
    np.testing.assert_allclose(w.detach().numpy(), [1.6, -0.8], rtol=1e-6)
    h.remove()
    opt.step(closure)
    assert calls == ["pre", "post", "post"]


def _quadratic(lib, p):
    return ((p - 1.5) ** 2 * lib.tensor([1.0, 3.0, 0.5, 2.0])).sum() + (p[0] * p[1]) ** 2


@pytest.mark.parametrize("line_search", [None, "strong_wolfe"])
def test_lbfgs(line_search):
    x = np.array([0.3, -0.7, 2.0, 0.1], np.float32)
    results = []
    for lib in (torch, ember):
        p = lib.tensor(x.copy(), requires_grad=True)
        opt = lib.optim.LBFGS([p], lr=0.8, max_iter=10, history_size=5,
                              line_search_fn=line_search)

        def closure(lib=lib, p=p, opt=opt):
            opt.zero_grad()
            loss = _quadratic(lib, p)
            loss.backward()
            return loss

        losses = [float(opt.step(closure).detach()) for _ in range(3)]
        st = opt.state[p]
        results.append((p.detach().numpy().copy(), losses, st["func_evals"], st["n_iter"]))
    (pt, lt, ft, nt), (pe, le, fe, ne) = results
    np.testing.assert_allclose(pe, pt, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(le, lt, rtol=1e-5, atol=1e-7)
    assert (ft, nt) == (fe, ne)


@pytest.mark.parametrize("name", ["Adam", "AdamW", "NAdam", "RMSprop", "SGD", "Adagrad",
                                  "Adadelta", "Adamax", "RAdam"])
def test_old_checkpoint_is_upgraded_like_torch(name):
    """A state dict with number-valued steps and missing group options loads as in torch."""
    import torch

    res = []
    for lib in (torch, ember):
        w = lib.nn.Parameter(lib.ones(3))
        opt = getattr(lib.optim, name)([w], lr=0.1)
        w.grad = lib.ones(3)
        opt.step()
        sd = opt.state_dict()
        for st in sd["state"].values():
            for key in ("step", "mu_product"):
                if key in st:
                    st[key] = float(st[key])
        for group in sd["param_groups"]:
            group.pop("maximize", None)
            group.pop("foreach", None)
        opt2 = getattr(lib.optim, name)([w], lr=0.1)
        opt2.load_state_dict(sd)
        group = opt2.param_groups[0]
        res.append((sorted((k, str(v)) for k, v in group.items() if k != "params"),
                    sorted((k, type(v).__name__) for k, v in opt2.state[w].items())))
    assert res[0] == res[1]

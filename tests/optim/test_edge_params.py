"""Every optimizer and scheduler on 0-d, one-element and empty parameters, against torch.

A scalar model (``nn.Parameter(torch.tensor(0.5))``, as in the polynomial-fit tutorial) and an
empty parameter (a layer with no units) must step as torch steps them: same values after every
step, same state, and the same scheduled learning rates.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ember
import ember.optim

torch = pytest.importorskip("torch", reason="the oracle tests need torch 2.13")

STEPS = 8
SHAPES = [(), (1,), (0,)]

CASES = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    ("Adam", {"lr": 0.01}),
    ("Adam", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.1}),
    ("AdamW", {"lr": 0.01}),
    ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.5}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.01}),
    ("Adadelta", {"lr": 0.5}),
    ("Adamax", {"lr": 0.01}),
    ("NAdam", {"lr": 0.01}),
    ("RAdam", {"lr": 0.01}),
]


def _close(t, e) -> None:
    assert tuple(t.shape) == tuple(e.shape)
    np.testing.assert_allclose(e.detach().numpy(), t.detach().numpy(), rtol=1e-6, atol=1e-7)


def _params(lib, rng_seed=0):
    rng = np.random.default_rng(rng_seed)
    return [lib.nn.Parameter(lib.tensor(rng.standard_normal(s).astype(np.float32)))
            for s in SHAPES]


def _grads(seed=1):
    rng = np.random.default_rng(seed)
    return [[rng.standard_normal(s).astype(np.float32) for s in SHAPES] for _ in range(STEPS)]


@pytest.mark.parametrize("name,kw", CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_optimizer_on_edge_shapes(name, kw):
    pt, pe = _params(torch), _params(ember)
    ot, oe = getattr(torch.optim, name)(pt, **kw), getattr(ember.optim, name)(pe, **kw)
    for gs in _grads():
        for t, e, g in zip(pt, pe, gs):
            t.grad, e.grad = torch.tensor(g), ember.tensor(g)
        ot.step()
        oe.step()
        for t, e in zip(pt, pe):
            _close(t, e)
    st, se = ot.state_dict()["state"], oe.state_dict()["state"]
    assert list(st) == list(se)
    for i in st:
        assert sorted(st[i]) == sorted(se[i])
        for k, v in st[i].items():
            if isinstance(v, torch.Tensor):
                _close(v, se[i][k])


@pytest.mark.parametrize("shape", [(), (1,)])
@pytest.mark.parametrize("line_search", [None, "strong_wolfe"])
def test_lbfgs_scalar_model(shape, line_search):
    """The polynomial-fit tutorial's shape: scalar coefficients fitted by a closure."""
    def run(lib):
        x = lib.linspace(-1.0, 1.0, 20)
        y = 0.3 - 1.5 * x + 0.7 * x ** 3
        coef = [lib.nn.Parameter(lib.zeros(shape)) for _ in range(3)]
        opt = lib.optim.LBFGS(coef, lr=0.5, max_iter=5, line_search_fn=line_search)

        def closure():
            opt.zero_grad()
            loss = ((coef[0] + coef[1] * x + coef[2] * x ** 3 - y) ** 2).mean()
            loss.backward()
            return loss
        out = []
        for _ in range(3):
            out.append(opt.step(closure).item())
            out.append([c.detach().clone() for c in coef])
        return out
    for t, e in zip(run(torch), run(ember)):
        if isinstance(t, float):
            assert e == pytest.approx(t, rel=1e-5, abs=1e-7)
        else:
            for a, b in zip(t, e):
                np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-5, atol=1e-6)


def test_lbfgs_empty_parameter_raises_as_torch():
    for lib in (torch, ember):
        p = lib.nn.Parameter(lib.ones(0))
        opt = lib.optim.LBFGS([p])

        def closure(p=p, opt=opt):
            opt.zero_grad()
            loss = (p * p).sum()
            loss.backward()
            return loss
        with pytest.raises(RuntimeError, match=r"max\(\): Expected reduction dim"):
            opt.step(closure)


def _schedulers(lib, o):
    S = lib.optim.lr_scheduler
    return {
        "StepLR": lambda: S.StepLR(o, step_size=3, gamma=0.3),
        "MultiStepLR": lambda: S.MultiStepLR(o, milestones=[2, 5], gamma=0.5),
        "ExponentialLR": lambda: S.ExponentialLR(o, gamma=0.9),
        "CosineAnnealingLR": lambda: S.CosineAnnealingLR(o, T_max=5, eta_min=0.001),
        "LambdaLR": lambda: S.LambdaLR(o, lambda e: 1.0 / (1 + e)),
        "MultiplicativeLR": lambda: S.MultiplicativeLR(o, lambda e: 0.97),
        "LinearLR": lambda: S.LinearLR(o, start_factor=0.2, total_iters=5),
        "ConstantLR": lambda: S.ConstantLR(o, factor=0.5, total_iters=3),
        "PolynomialLR": lambda: S.PolynomialLR(o, total_iters=6, power=2.0),
        "OneCycleLR": lambda: S.OneCycleLR(o, max_lr=0.5, total_steps=STEPS + 1),
        "CyclicLR": lambda: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3),
        "CosineAnnealingWarmRestarts": lambda: S.CosineAnnealingWarmRestarts(o, T_0=3),
        "SequentialLR": lambda: S.SequentialLR(
            o, [S.LinearLR(o, start_factor=0.1, total_iters=2), S.ExponentialLR(o, gamma=0.9)],
            milestones=[2]),
        "ChainedScheduler": lambda: S.ChainedScheduler(
            [S.ExponentialLR(o, gamma=0.9), S.StepLR(o, step_size=2, gamma=0.5)]),
        "ReduceLROnPlateau": lambda: S.ReduceLROnPlateau(o, patience=1, factor=0.5),
    }


SCHEDULERS = list(_schedulers(ember, None))


@pytest.mark.parametrize("name", SCHEDULERS)
def test_scheduler_on_edge_shapes(name):
    def run(lib):
        ps = _params(lib)
        o = lib.optim.SGD(ps, lr=0.1, momentum=0.9)
        s = _schedulers(lib, o)[name]()
        out = []
        for gs in _grads():
            for p, g in zip(ps, gs):
                p.grad = lib.tensor(g)
            o.step()
            if name == "ReduceLROnPlateau":
                s.step(1.0)
            else:
                s.step()
            out.append(([g["lr"] for g in o.param_groups], [p.detach().clone() for p in ps]))
        return out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t, e = run(torch), run(ember)
    for (lt, pt), (le, pe) in zip(t, e):
        assert lt == le
        for a, b in zip(pt, pe):
            _close(a, b)

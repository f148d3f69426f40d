"""Oracle tests for ember.optim.lr_scheduler: lr sequences over 40 steps equal torch's exactly."""

from __future__ import annotations

import os
import sys
import warnings

import pytest

_SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                    "src")
if not os.path.exists(os.path.join(_SRC, "ember", "random.py")):  # pragma: no cover
    sys.path.insert(0, "/tmp/fake")
    import conftest_fake  # noqa: F401

import ember  # noqa: E402
import ember.optim  # noqa: E402

torch = pytest.importorskip("torch", reason="the oracle tests need torch 2.13")

STEPS = 40


def _opt(lib, opt="SGD", **kw):
    a = lib.zeros(2, requires_grad=True)
    b = lib.zeros(3, requires_grad=True)
    groups = [{"params": [a]}, {"params": [b], "lr": 0.05}]
    if opt == "SGD":
        return lib.optim.SGD(groups, lr=0.1, momentum=0.9, **kw)
    return lib.optim.Adam(groups, lr=0.1, **kw)


def _make(lib, name, opt="SGD"):
    S = lib.optim.lr_scheduler
    o = _opt(lib, opt)
    factories = {
        "StepLR": lambda: S.StepLR(o, step_size=7, gamma=0.3),
        "MultiStepLR": lambda: S.MultiStepLR(o, milestones=[3, 10, 10, 25], gamma=0.5),
        "ExponentialLR": lambda: S.ExponentialLR(o, gamma=0.93),
        "CosineAnnealingLR": lambda: S.CosineAnnealingLR(o, T_max=12, eta_min=0.001),
        "LambdaLR": lambda: S.LambdaLR(o, lambda e: 1.0 / (1 + e)),
        "MultiplicativeLR": lambda: S.MultiplicativeLR(o, lambda e: 0.97),
        "LinearLR": lambda: S.LinearLR(o, start_factor=0.2, end_factor=0.9, total_iters=15),
        "ConstantLR": lambda: S.ConstantLR(o, factor=0.5, total_iters=6),
        "PolynomialLR": lambda: S.PolynomialLR(o, total_iters=30, power=2.0),
        "OneCycleLR": lambda: S.OneCycleLR(o, max_lr=[0.5, 0.2], total_steps=STEPS + 1),
        "OneCycleLR3": lambda: S.OneCycleLR(o, max_lr=0.3, total_steps=STEPS + 1,
                                            three_phase=True, anneal_strategy="linear"),
        "CyclicLR": lambda: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=5,
                                       mode="triangular2"),
        "CosineAnnealingWarmRestarts": lambda: S.CosineAnnealingWarmRestarts(o, T_0=5,
                                                                             T_mult=2),
        "SequentialLR": lambda: S.SequentialLR(
            o, [S.LinearLR(o, start_factor=0.1, total_iters=5),
                S.CosineAnnealingLR(o, T_max=20)], milestones=[5]),
        "ChainedScheduler": lambda: S.ChainedScheduler(
            [S.ExponentialLR(o, gamma=0.9), S.StepLR(o, step_size=4, gamma=0.5)]),
    }
    return o, factories[name]()


NAMES = ["StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR", "LambdaLR",
         "MultiplicativeLR", "LinearLR", "ConstantLR", "PolynomialLR", "OneCycleLR",
         "OneCycleLR3", "CyclicLR", "CosineAnnealingWarmRestarts", "SequentialLR",
         "ChainedScheduler"]


def _sequence(lib, name, opt="SGD"):
    o, s = _make(lib, name, opt)
    out = [(s.get_last_lr(), [g.get("momentum", g.get("betas")) for g in o.param_groups])]
    for _ in range(STEPS):
        o.step()
        s.step()
        out.append((s.get_last_lr(), [g.get("momentum", g.get("betas"))
                                      for g in o.param_groups]))
    return out, s


@pytest.mark.parametrize("name", NAMES)
def test_lr_sequence(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t, st = _sequence(torch, name)
        e, se = _sequence(ember, name)
    assert t == e
    if name not in ("SequentialLR", "ChainedScheduler", "LambdaLR", "MultiplicativeLR"):
        dt, de = st.state_dict(), se.state_dict()
        assert sorted(dt) == sorted(de)
        skip = {"_scale_fn_ref"}
        for k in dt:
            if k not in skip and not callable(dt[k]):
                assert dt[k] == de[k], k


@pytest.mark.parametrize("name", ["OneCycleLR", "CyclicLR"])
def test_momentum_cycling_adam(name):
    t, _ = _sequence(torch, name, "Adam")
    e, _ = _sequence(ember, name, "Adam")
    assert t == e


def test_reduce_lr_on_plateau():
    metrics = [1.0, 0.9, 0.95, 0.95, 0.95, 0.95, 0.8, 0.81, 0.82, 0.83, 0.84, 0.85] * 3
    seqs = []
    for lib in (torch, ember):
        o = _opt(lib)
        s = lib.optim.lr_scheduler.ReduceLROnPlateau(o, factor=0.5, patience=2, cooldown=1,
                                                     min_lr=[0.0, 0.01])
        seq = []
        for m in metrics:
            o.step()
            s.step(m)
            seq.append((s.get_last_lr(), s.num_bad_epochs, s.best, s.cooldown_counter))
        seqs.append(seq)
    assert seqs[0] == seqs[1]


def test_closed_form_with_epoch_and_state_dict():
    lrs = []
    for lib in (torch, ember):
        o = _opt(lib)
        s = lib.optim.lr_scheduler.StepLR(o, step_size=3, gamma=0.5)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            s.step(7)
        lrs.append(s.get_last_lr())
    assert lrs[0] == lrs[1]
    o = _opt(ember)
    s = ember.optim.lr_scheduler.CosineAnnealingLR(o, T_max=10)
    for _ in range(4):
        o.step()
        s.step()
    o2 = _opt(ember)
    s2 = ember.optim.lr_scheduler.CosineAnnealingLR(o2, T_max=10)
    s2.load_state_dict(s.state_dict())
    assert s2.last_epoch == 4 and s2.get_last_lr() == s.get_last_lr()


def test_warning_when_scheduler_steps_first():
    o = _opt(ember)
    s = ember.optim.lr_scheduler.StepLR(o, step_size=2)
    with pytest.warns(UserWarning, match="Detected call of `lr_scheduler.step"):
        s.step()

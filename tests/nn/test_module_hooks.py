"""Module backward hooks against torch 2.13: full hooks and pre-hooks (grad tuples, modified
gradients, the output-side firing with its warning), the errors for in-place writes into
hooked inputs/outputs, legacy ``register_backward_hook`` (the grad_fn's own grads and torch's
FutureWarnings), mixing rules, ``to_empty`` and ``register_post_accumulate_grad_hook``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ember  # noqa: E402


def _shape(g):
    return None if g is None else tuple(g.shape)


def _np(t):
    return t.detach().numpy().round(5).tolist()


def run(lib, scenario):
    """Run ``scenario`` with ``lib`` as torch; returns the log of what happened."""
    nn = lib.nn
    log = []
    lib.manual_seed(0)
    x = lib.randn(4, 3, requires_grad=True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            scenario(lib, nn, x, log)
        except Exception as e:  # noqa: BLE001  (the error is part of the comparison)
            log.append((type(e).__name__, str(e)))
    log.append([(i.category.__name__, str(i.message)) for i in w])
    return log


def full_and_pre(lib, nn, x, log):
    m = nn.Linear(3, 2)

    def hook(mod, gi, go):
        log.append(("full", [_shape(g) for g in gi], [_shape(g) for g in go]))
        return None if gi[0] is None else (gi[0] * 2,)

    def pre(mod, go):
        log.append(("pre", [_shape(g) for g in go]))
        return (go[0] * 3,)
    m.register_full_backward_hook(hook)
    m.register_full_backward_pre_hook(pre)
    y = m(x)
    log.append(y.grad_fn.name())
    y.sum().backward()
    log += [_np(x.grad), _np(m.weight.grad)]
    m.zero_grad()
    m(lib.randn(4, 3)).sum().backward()     # no input requires grad: fires on the outputs
    log.append(_np(m.weight.grad))


def tuple_module(lib, nn, x, log):
    class Two(nn.Module):
        def forward(self, a, k, b):
            return a * k, b.sum(), 7

    m = Two()
    m.register_full_backward_hook(
        lambda mod, gi, go: log.append(([_shape(g) for g in gi], [_shape(g) for g in go])))
    out = m(x, 2.0, x * 1)
    (out[0].sum() + out[1]).backward()
    log.append(_np(x.grad))


def bad_hook_return(lib, nn, x, log):
    m = nn.Linear(3, 2)
    m.register_full_backward_hook(lambda mod, gi, go: (gi[0], gi[0]))
    m(x).sum().backward()


def inplace_output(lib, nn, x, log):
    m = nn.Linear(3, 2)
    m.register_full_backward_hook(lambda *a: None)
    m(x).add_(1)


def inplace_input(lib, nn, x, log):
    class M(nn.Module):
        def forward(self, a):
            a.mul_(2)
            return a * 1
    m = M()
    m.register_full_backward_hook(lambda *a: None)
    m(x.clone())


def mixing(lib, nn, x, log):
    m = nn.Linear(3, 2)
    m.register_full_backward_hook(lambda *a: None)
    m.register_backward_hook(lambda *a: None)


def mixing_reverse(lib, nn, x, log):
    m = nn.Linear(3, 2)
    m.register_backward_hook(lambda *a: None)
    m.register_full_backward_hook(lambda *a: None)


def legacy_single_node(lib, nn, x, log):
    m = nn.Linear(3, 2)
    m.register_backward_hook(
        lambda mod, gi, go: log.append(([_shape(g) for g in gi], [_shape(g) for g in go])))
    m(x).sum().backward()


def legacy_many_nodes(lib, nn, x, log):
    m = nn.Sequential(nn.Linear(3, 2), nn.Tanh())

    def hook(mod, gi, go):
        log.append(([_shape(g) for g in gi], [_shape(g) for g in go]))
        return (gi[0] * 0,)
    m.register_backward_hook(hook)
    m(x).sum().backward()
    log.append(_np(x.grad))


def legacy_dict_output(lib, nn, x, log):
    class D(nn.Module):
        def forward(self, a):
            return {"y": a * 2}
    m = D()
    m.register_backward_hook(lambda mod, gi, go: log.append([_shape(g) for g in gi]))
    m(x)["y"].sum().backward()


SCENARIOS = [full_and_pre, tuple_module, bad_hook_return, inplace_output, inplace_input,
             mixing, mixing_reverse, legacy_single_node, legacy_many_nodes, legacy_dict_output]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.__name__ for s in SCENARIOS])
def test_backward_hooks_as_torch(scenario):
    assert run(ember, scenario) == run(torch, scenario)


def test_full_hook_warning_points_at_caller():
    m = ember.nn.Linear(3, 2)
    m.register_full_backward_hook(lambda *a: None)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        m(ember.randn(2, 3)).sum().backward()
    assert len(w) == 1 and w[0].filename == __file__


def test_to_empty():
    for lib in (torch, ember):
        m = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.BatchNorm1d(3))
        w = m[0].weight
        assert m.to_empty(device="cpu") is m
        assert m[0].weight is w and w.requires_grad and tuple(w.shape) == (3, 2)
        assert isinstance(m[0].weight, lib.nn.Parameter)
        assert [n for n, _ in m.named_buffers()] == ["1.running_mean", "1.running_var",
                                                     "1.num_batches_tracked"]
        m.to_empty(device="cpu", recurse=False)


def test_post_accumulate_grad_hook():
    logs = []
    for lib in (torch, ember):
        log = []
        x = lib.ones(2, requires_grad=True)
        h = x.register_post_accumulate_grad_hook(lambda t, log=log: log.append(_np(t.grad)))
        (x * 2).sum().backward()
        (x * 3).sum().backward()
        h.remove()
        (x * 3).sum().backward()
        log.append(_np(x.grad))
        for fn in (lambda lib=lib: lib.ones(2).register_post_accumulate_grad_hook(print),
                   lambda x=x: (x * 2).register_post_accumulate_grad_hook(print)):
            with pytest.raises(RuntimeError) as e:
                fn()
            log.append(str(e.value))
        logs.append(log)
    assert logs[0] == logs[1]
    assert np.array_equal(logs[1][2], [8.0, 8.0])

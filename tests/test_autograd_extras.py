"""autograd.functional (jacobian, hessian, vjp, jvp, hvp, vhp), anomaly mode and saved-tensor
hooks against torch 2.13."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from .helpers import arr, compare_tensors, ember, errors_alike, run_both, torch

X = arr((3,), "float64", seed=1)
Y = arr((2, 3), "float64", seed=2)


def _t(L, a, rg=False):
    return L.from_numpy(a.copy()).requires_grad_(rg)


def _cmp(t, e, where="out"):
    if isinstance(t, (tuple, list)):
        assert isinstance(e, (tuple, list)) and len(t) == len(e), where
        for k, (a, b) in enumerate(zip(t, e)):
            _cmp(a, b, f"{where}[{k}]")
    else:
        compare_tensors(t, e, where, grad_fn=False)


FUNCS = {
    "jacobian": lambda L: L.autograd.functional.jacobian(lambda x: x.exp() * x.sum(), _t(L, X)),
    "jacobian_multi": lambda L: L.autograd.functional.jacobian(
        lambda x, y: (x * y, (x * y).sum(0)), (_t(L, X), _t(L, Y))),
    "jacobian_unused": lambda L: L.autograd.functional.jacobian(lambda x, y: x.sin(),
                                                                (_t(L, X), _t(L, Y))),
    "jacobian_strict": lambda L: L.autograd.functional.jacobian(lambda x, y: x.sin(),
                                                                (_t(L, X), _t(L, Y)), strict=True),
    "jacobian_const_strict": lambda L: L.autograd.functional.jacobian(
        lambda x: L.ones(2, dtype=L.float64), _t(L, X), strict=True),
    "jacobian_vectorize": lambda L: L.autograd.functional.jacobian(lambda x: x ** 3, _t(L, X),
                                                                   vectorize=True),
    "hessian": lambda L: L.autograd.functional.hessian(lambda x: (x ** 3).sum() * x[0],
                                                       _t(L, X)),
    "hessian_multi": lambda L: L.autograd.functional.hessian(lambda x, y: (x * y).sum() ** 2,
                                                             (_t(L, X), _t(L, Y))),
    "vjp": lambda L: L.autograd.functional.vjp(lambda x: x.tanh(), _t(L, X), _t(L, X) * 2),
    "vjp_none": lambda L: L.autograd.functional.vjp(lambda x: (x ** 2).sum(), _t(L, X)),
    "vjp_none_bad": lambda L: L.autograd.functional.vjp(lambda x: x ** 2, _t(L, X)),
    "jvp": lambda L: L.autograd.functional.jvp(lambda x: x.tanh() * x, _t(L, X), _t(L, X)),
    "jvp_none_bad": lambda L: L.autograd.functional.jvp(lambda x: x ** 2, _t(L, X)),
    "hvp": lambda L: L.autograd.functional.hvp(lambda x: (x ** 3).sum(), _t(L, X), _t(L, X)),
    "vhp": lambda L: L.autograd.functional.vhp(lambda x: (x.sin() * x).sum(), _t(L, X),
                                               _t(L, X)),
    "hvp_bad": lambda L: L.autograd.functional.hvp(lambda x: x ** 2, _t(L, X), _t(L, X)),
}


@pytest.mark.parametrize("name", list(FUNCS))
def test_functional(name):
    res = run_both(lambda L: FUNCS[name](L))
    if res is not None:
        _cmp(*res)


def test_jacobian_create_graph():
    outs = []
    for L in (torch, ember):
        x = _t(L, X, True)
        j = L.autograd.functional.jacobian(lambda a: a ** 3, x, create_graph=True)
        j.sum().backward()
        outs.append((j.requires_grad, x.grad))
    assert outs[0][0] and outs[1][0]
    compare_tensors(outs[0][1], outs[1][1], "x.grad", grad_fn=False)


def test_anomaly_nan_error():
    def fn(L):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with L.autograd.detect_anomaly():
                a = L.tensor([0.], requires_grad=True)
                (a / a).sum().backward()
    errors_alike(fn)

    def fn2(L):
        with L.autograd.set_detect_anomaly(True):
            a = L.tensor([1., 0.], requires_grad=True)
            (a.sqrt() * 0).sum().backward()
    errors_alike(fn2)


def test_anomaly_flags_and_no_check_nan():
    for L in (torch, ember):
        assert not L.is_anomaly_enabled()
        with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
            ctx = L.autograd.detect_anomaly(check_nan=False)
        with ctx:
            assert L.is_anomaly_enabled()
            assert not L.is_anomaly_check_nan_enabled()
            a = L.tensor([0.], requires_grad=True)
            (a / a).sum().backward()       # no check: NaN grads pass
            assert np.isnan(a.grad.numpy()).all()
        assert not L.is_anomaly_enabled()
        L.autograd.set_detect_anomaly(True)
        assert L.is_anomaly_enabled()
        L.autograd.set_detect_anomaly(False)
        assert not L.is_anomaly_enabled()


def test_saved_tensors_hooks():
    res = []
    for L in (torch, ember):
        packed = []

        def pack(t, packed=packed):
            packed.append(tuple(t.shape))
            return t * 2              # unpack sees the doubled tensor

        x = _t(L, X, True)
        with L.autograd.graph.saved_tensors_hooks(pack, lambda t: t / 2):
            y = (x * x.exp()).sum()
        y.backward()
        res.append((len(packed) > 0, x.grad.numpy().copy()))
    assert res[0][0] and res[1][0]
    np.testing.assert_allclose(res[0][1], res[1][1])


def test_unpack_hook_changes_gradient():
    grads = []
    for L in (torch, ember):
        x = _t(L, X, True)
        with L.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t * 0):
            y = (x * x).sum()
        y.backward()
        grads.append(x.grad.numpy().copy())
    np.testing.assert_allclose(grads[0], grads[1])


def test_save_on_cpu_and_disable():
    for L in (torch, ember):
        x = _t(L, X, True)
        with L.autograd.graph.save_on_cpu():
            y = (x.sin() * x).sum()
        y.backward()
        np.testing.assert_allclose(x.grad.numpy(), np.cos(X) * X + np.sin(X))

    def fn(L):
        with L.autograd.graph.disable_saved_tensors_hooks("hooks are off here"):
            with L.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                pass
    errors_alike(fn)


def test_grad_with_batched_grad_outputs_and_materialize_checks():
    torch = pytest.importorskip("torch")
    results = []
    for lib in (ember, torch):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        w = lib.tensor([1.0, -1.0], requires_grad=True)
        out = (x * w).sin()
        batch = lib.ones(4, 2, 2) * lib.arange(4.0).reshape(4, 1, 1)
        gx, gw = lib.autograd.grad(out, [x, w], grad_outputs=batch, is_grads_batched=True)
        with pytest.raises(ValueError, match="Expected allow_unused to be True"):
            lib.autograd.grad(x.sum(), x, materialize_grads=True, allow_unused=False)
        results.append((gx.numpy().tobytes(), gw.numpy().tobytes(), tuple(gx.shape)))
    assert results[0] == results[1]

"""lgamma, digamma, polygamma and mvlgamma against torch: values, poles, dtypes, gradients."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import ember

VALUES = np.concatenate([[0.0, -0.0, -1.0, -0.5, 0.3, 1.0, 2.5, 7.0, 30.0, 1e20, -3.7, np.inf,
                          -np.inf, np.nan, 1e-8, 9.99, 10.0, 123.4],
                         np.random.RandomState(0).standard_normal(200) * 5])


def _both(fn, dtype):
    t = fn(torch, torch.from_numpy(VALUES).to(getattr(torch, dtype)))
    e = fn(ember, ember.from_numpy(VALUES).to(getattr(ember, dtype)))
    assert str(t.dtype) == str(e.dtype)
    return t.numpy(), e.numpy()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,n", [("lgamma", None), ("digamma", None), ("polygamma", 1),
                                    ("polygamma", 2), ("polygamma", 3)])
def test_values_match_torch(name, n, dtype):
    fn = (lambda lib, x: getattr(lib, name)(x)) if n is None else \
        (lambda lib, x: lib.polygamma(n, x))
    t, e = _both(fn, dtype)
    with np.errstate(all="ignore"):
        # poles and nan exactly; elsewhere within float32's / float64's rounding (torch's
        # float kernels and libm round differently in the last bits)
        f32 = dtype == "float32"
        zeta = n is not None and n >= 2    # Euler-Maclaurin sum in another order: ~1e-7
        np.testing.assert_allclose(e, t, rtol=1e-5 if f32 or zeta else 1e-13,
                                   atol=1e-5 if f32 else 1e-12,
                                   equal_nan=True)
        assert np.array_equal(np.isinf(e), np.isinf(t))


def test_integer_inputs_promote_and_methods_exist():
    for lib in (torch, ember):
        x = lib.tensor([1, 2, 3])
        assert str(lib.lgamma(x).dtype) == "torch.float32"
    np.testing.assert_allclose(ember.tensor([1, 2]).digamma().numpy(),
                               torch.tensor([1, 2]).digamma().numpy())
    np.testing.assert_allclose(ember.tensor([1.5]).polygamma(1).numpy(),
                               torch.tensor([1.5]).polygamma(1).numpy())
    a, b = ember.tensor([0.5, 2.0]), torch.tensor([0.5, 2.0])
    a.lgamma_(), b.lgamma_()
    np.testing.assert_allclose(a.numpy(), b.numpy())


@pytest.mark.parametrize("name", ["lgamma", "digamma", "polygamma"])
def test_gradients_and_node_names_match_torch(name):
    out = []
    for lib in (torch, ember):
        a = lib.from_numpy(np.array([0.7, 2.3, -1.5])).requires_grad_()
        r = lib.polygamma(2, a) if name == "polygamma" else getattr(lib, name)(a)
        (g,) = lib.autograd.grad(r.sum(), a, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), a)
        out.append((type(r.grad_fn).__name__, g.detach().numpy(), gg.numpy()))
    assert out[0][0] == out[1][0]
    np.testing.assert_allclose(out[1][1], out[0][1], rtol=1e-7)   # zeta: ~2e-8 apart
    np.testing.assert_allclose(out[1][2], out[0][2], rtol=1e-5)   # trigamma, zeta: ~1e-7 apart


def test_polygamma_negative_order_and_mvlgamma():
    for lib in (torch, ember):
        with pytest.raises(RuntimeError, match="does not support negative n"):
            lib.polygamma(-1, lib.tensor([1.0]))
    np.testing.assert_allclose(ember.mvlgamma(ember.tensor([2.5, 3.0]), 3).numpy(),
                               torch.mvlgamma(torch.tensor([2.5, 3.0]), 3).numpy(), rtol=1e-6)

"""Regression tests for what tests/test_real_programs.py found, each against torch 2.13:
``bincount``, ``searchsorted``/``bucketize``, ``linalg.lstsq``, torch 2.13's rejection-sampling
``nn.init.trunc_normal_``, and NumPy's ``axis=``/``keepdims=`` names for ``dim``/``keepdim``."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import errors_alike, torch


def same(e, t, exact=True):
    a, b = e.detach().numpy(), t.detach().numpy()
    assert a.shape == b.shape and a.dtype == b.dtype, (a, b)
    if exact:
        np.testing.assert_array_equal(a, b)
    else:
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kw", [{}, {"minlength": 7}, {"weights": [0.5, 1, 1, 2, 3]},
                                {"weights": np.array([0.5, 1, 1, 2, 3])},
                                {"weights": np.array([1, 2, 3, 4, 5])}])
def test_bincount(kw):
    x = np.array([0, 1, 1, 3, 1])

    def run(lib):
        args = dict(kw)
        if "weights" in args:
            w = args["weights"]
            args["weights"] = lib.tensor(w) if isinstance(w, list) else lib.from_numpy(w.copy())
        return lib.bincount(lib.from_numpy(x.copy()), **args)
    same(run(ember), run(torch))
    same(ember.from_numpy(x.copy()).bincount(), torch.from_numpy(x.copy()).bincount())
    same(ember.bincount(ember.tensor([], dtype=ember.long)),
         torch.bincount(torch.tensor([], dtype=torch.long)))


@pytest.mark.parametrize("bad", [
    lambda lib: lib.bincount(lib.tensor([-1, 2])),
    lambda lib: lib.bincount(lib.tensor([[1]])),
    lambda lib: lib.bincount(lib.tensor([1.0])),
    lambda lib: lib.bincount(lib.tensor([1, 2]), weights=lib.ones(3)),
    lambda lib: lib.bincount(lib.tensor([1, 2]), minlength=-1)])
def test_bincount_errors(bad):
    errors_alike(bad)


@pytest.mark.parametrize("case", [
    ([1, 3, 5, 7], [0, 3, 4, 8], {}),
    ([1, 3, 5, 7], [0, 3, 4, 8], {"right": True}),
    ([1, 3, 5, 7], [[3, 5], [1, 9]], {"side": "right", "out_int32": True}),
    ([[1, 3, 5], [2, 4, 6]], [[3], [7]], {}),
    ([1.0, 2.0, 2.0, 3.0], [2.0, float("nan")], {"side": "right"}),
    ([3, 1, 2], [2], {"sorter": [1, 2, 0]})])
def test_searchsorted(case):
    seq, vals, kw = case

    def run(lib):
        k = {n: (lib.tensor(v) if n == "sorter" else v) for n, v in kw.items()}
        return lib.searchsorted(lib.tensor(seq), lib.tensor(vals), **k)
    same(run(ember), run(torch))
    same(ember.searchsorted(ember.tensor([1, 3]), 2), torch.searchsorted(torch.tensor([1, 3]), 2))


@pytest.mark.parametrize("bad", [
    lambda lib: lib.searchsorted(lib.tensor([[1, 3, 5], [2, 4, 6]]), lib.tensor([1, 2, 3])),
    lambda lib: lib.searchsorted(lib.tensor([1, 3]), lib.tensor([2]), side="left", right=True),
    lambda lib: lib.searchsorted(lib.tensor([1, 3]), lib.tensor([2]), side="middle"),
    lambda lib: lib.searchsorted(lib.tensor(1), lib.tensor([2]))])
def test_searchsorted_errors(bad):
    errors_alike(bad)


def test_bucketize():
    for lib_args in (([[1, 3], [6, 0]], {"right": True}), ([1.0, 3.0], {"out_int32": True}),
                     ([0.1, 0.5, 0.9], {})):
        vals, kw = lib_args
        same(ember.bucketize(ember.tensor(vals), ember.tensor([1, 3, 5]), **kw),
             torch.bucketize(torch.tensor(vals), torch.tensor([1, 3, 5]), **kw))
    same(ember.bucketize(3, ember.tensor([1, 3, 5])), torch.bucketize(3, torch.tensor([1, 3, 5])))


@pytest.mark.parametrize("driver", [None, "gelsd", "gelss", "gels"])
@pytest.mark.parametrize("shapes", [((5, 3), (5, 2)), ((5, 3), (5,)), ((3, 3), (3, 1))])
def test_lstsq(driver, shapes):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shapes[0])
    b = rng.standard_normal(shapes[1])
    res = []
    for lib in (ember, torch):
        A = lib.from_numpy(a.copy()).requires_grad_(True)
        B = lib.from_numpy(b.copy()).requires_grad_(True)
        r = lib.linalg.lstsq(A, B, driver=driver)
        r.solution.pow(2).sum().backward()
        res.append((r, A.grad, B.grad))
    (er, eA, eB), (tr, tA, tB) = res
    assert type(er).__name__ == type(tr).__name__ == "linalg_lstsq"
    same(er.solution, tr.solution, exact=False)
    assert er.solution.grad_fn.name() == tr.solution.grad_fn.name()
    for f in ("residuals", "rank", "singular_values"):
        same(getattr(er, f), getattr(tr, f), exact=False)
    same(eA, tA, exact=False)
    same(eB, tB, exact=False)


@pytest.mark.parametrize("kw", [{"std": 0.02}, {}, {"mean": 0.5, "a": 0.4, "b": 0.45},
                                {"a": -0.1, "b": 0.1}, {"mean": 1.0, "std": 2.0, "a": 0.0}])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_trunc_normal_draws_as_torch(kw, dtype):
    out = []
    for lib in (ember, torch):
        lib.manual_seed(3)
        w = lib.empty(6, 7, dtype=getattr(lib, dtype))
        lib.nn.init.trunc_normal_(w, **kw)
        out.append((w, lib.rand(2)))
    same(out[0][0], out[1][0])
    same(out[0][1], out[1][1])        # the same number of draws


@pytest.mark.parametrize("call", [
    lambda lib, x: x.sum(axis=0, keepdims=True), lambda lib, x: x.argmax(axis=1),
    lambda lib, x: lib.max(x, axis=1).values, lambda lib, x: lib.cat([x, x], axis=1),
    lambda lib, x: x.softmax(axis=0), lambda lib, x: x.mean(axis=(0, 1)),
    lambda lib, x: lib.std(x, axis=0, keepdims=True), lambda lib, x: x.cumsum(axis=1)])
def test_numpy_axis_names(call):
    a = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    same(call(ember, ember.from_numpy(a.copy())), call(torch, torch.from_numpy(a.copy())),
         exact=False)


def test_numpy_axis_names_keep_signatures_and_errors():
    import inspect
    assert "axis" not in inspect.signature(ember.sum).parameters
    assert ember.sum is ember.Tensor.sum
    errors_alike(lambda lib: lib.ones(2, 2).sum(dim=0, axis=1))

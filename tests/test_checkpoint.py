"""``torch.utils.checkpoint``: same gradients, same random draws, same warnings and errors as
torch, for both variants, with each checkpointed region recomputed exactly as often."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.helpers import LIBS, ember, errors_alike, torch

VARIANTS = [True, False]


def _model(lib):
    lib.manual_seed(0)
    nn = lib.nn
    return nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Dropout(0.3), nn.Linear(8, 8),
                         nn.ReLU(), nn.Dropout(0.2), nn.Linear(8, 2))


def _run(lib, reentrant, segments=None):
    """Gradients of a checkpointed dropout MLP, the loss, the number of forward runs of the
    region and the generator's next draw afterwards."""
    from importlib import import_module
    cp = import_module(f"{lib.__name__}.utils.checkpoint")
    model = _model(lib)
    x = lib.tensor(np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 6), requires_grad=True)
    calls = []

    def region(t, scale=1.0):
        calls.append(1)
        return model[:6](t) * scale

    if segments is None:
        h = cp.checkpoint(region, x, use_reentrant=reentrant)
        out = model[6](h)
    else:
        out = cp.checkpoint_sequential(model, segments, x, use_reentrant=reentrant)
    loss = out.pow(2).sum()
    loss.backward()
    grads = [p.grad.numpy().copy() for p in model.parameters()] + [x.grad.numpy().copy()]
    return grads, loss.item(), len(calls), lib.rand(3).numpy()


@pytest.mark.parametrize("reentrant", VARIANTS)
def test_gradients_draws_and_recomputation_as_torch(reentrant):
    got, want = _run(ember, reentrant), _run(torch, reentrant)
    for g, w in zip(got[0], want[0]):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    assert got[1] == pytest.approx(want[1], rel=1e-6)
    assert got[2] == want[2] == 2                 # forward, then once more in backward
    np.testing.assert_array_equal(got[3], want[3])   # the generator is where torch's is


@pytest.mark.parametrize("reentrant", VARIANTS)
def test_checkpoint_sequential(reentrant):
    got, want = _run(ember, reentrant, segments=3), _run(torch, reentrant, segments=3)
    for g, w in zip(got[0], want[0]):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(got[3], want[3])


def test_gradients_equal_the_unchekpointed_graph():
    for reentrant in VARIANTS:
        ember.manual_seed(1)
        w = ember.randn(5, 5, requires_grad=True)
        x = ember.randn(3, 5, requires_grad=True)

        def f(t, w=w):
            return (t @ w).sin().exp()

        ember.utils.checkpoint.checkpoint(f, x, use_reentrant=reentrant).sum().backward()
        g = (w.grad.clone(), x.grad.clone())
        w.grad = x.grad = None
        f(x).sum().backward()
        assert ember.equal(g[0], w.grad) and ember.equal(g[1], x.grad)


def _warns(lib, fn):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        fn(lib)
    return [str(r.message) for r in rec if "checkpoint" in str(r.message)
            or "requires_grad" in str(r.message)]


def test_warnings_as_torch():
    def missing_flag(lib):
        x = lib.ones(2, requires_grad=True)
        lib.utils.checkpoint.checkpoint(lambda t: t * 2, x)

    def no_grad_inputs(lib):
        lib.utils.checkpoint.checkpoint(lambda t: t * 2, lib.ones(2), use_reentrant=True)

    def sequential(lib):
        m = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.Linear(2, 2))
        lib.utils.checkpoint.checkpoint_sequential(m, 2, lib.ones(1, 2))

    for fn in (missing_flag, no_grad_inputs, sequential):
        assert _warns(ember, fn) == _warns(torch, fn)


def test_errors_as_torch():
    def grad_with_reentrant(lib):
        x = lib.ones(3, requires_grad=True)
        y = lib.utils.checkpoint.checkpoint(lambda t: t.exp(), x, use_reentrant=True)
        lib.autograd.grad(y.sum(), x)

    def kwargs_with_reentrant(lib):
        lib.utils.checkpoint.checkpoint(lambda t, s: t * s, lib.ones(2), s=2.0,
                                        use_reentrant=True)

    def context_with_reentrant(lib):
        lib.utils.checkpoint.checkpoint(lambda t: t, lib.ones(2), use_reentrant=True,
                                        debug=True)

    def bad_check(lib):
        lib.utils.checkpoint.checkpoint(lambda t: t, lib.ones(2, requires_grad=True),
                                        use_reentrant=False, determinism_check="all")

    def nothing_requires_grad(lib):
        w = lib.ones(2)
        y = lib.utils.checkpoint.checkpoint(lambda t: t * 2, lib.ones(2, requires_grad=True),
                                            use_reentrant=True)
        (y.detach().requires_grad_() * w).sum().backward()
        lib.utils.checkpoint.checkpoint(lambda t: t.detach(), lib.ones(2, requires_grad=True),
                                        use_reentrant=True).sum().backward()

    def sequential_kwargs(lib):
        lib.utils.checkpoint.checkpoint_sequential([lib.nn.Identity()], 1, lib.ones(2),
                                                   use_reentrant=False, foo=1)

    for fn in (grad_with_reentrant, kwargs_with_reentrant, context_with_reentrant, bad_check,
               sequential_kwargs):
        errors_alike(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        errors_alike(nothing_requires_grad)


def test_non_reentrant_works_with_grad_kwargs_and_retain_graph():
    results = []
    for lib in LIBS:
        x = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
        calls = []

        def f(t, power=2, calls=calls):
            calls.append(1)
            return (t ** power).sin()

        y = lib.utils.checkpoint.checkpoint(f, x, power=3, use_reentrant=False).sum()
        g1, = lib.autograd.grad(y, x, retain_graph=True)
        g2, = lib.autograd.grad(y, x)
        results.append((g1.tolist(), g2.tolist(), len(calls)))
    assert results[0] == results[1]


def test_non_reentrant_nested_graph_double_backward():
    results = []
    for lib in LIBS:
        x = lib.tensor([0.3, 0.7], requires_grad=True)
        y = lib.utils.checkpoint.checkpoint(lambda t: (t * t).exp(), x, use_reentrant=False)
        g, = lib.autograd.grad(y.sum(), x, create_graph=True)
        g.sum().backward()
        results.append((g.tolist(), x.grad.tolist()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-6)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-6)


def test_inplace_change_of_an_input_is_caught():
    def fn(lib):
        x = lib.ones(3, requires_grad=True)
        a = x * 1
        y = lib.utils.checkpoint.checkpoint(lambda t: t.exp(), a, use_reentrant=False)
        a.add_(1)
        y.sum().backward()
    errors_alike(fn)


def test_no_grad_mode_runs_the_function_plainly():
    with ember.no_grad():
        y = ember.utils.checkpoint.checkpoint(lambda t: t + 1, ember.ones(2, requires_grad=True),
                                              use_reentrant=False)
    assert y.grad_fn is None and y.tolist() == [2.0, 2.0]


def test_module_names():
    names = ("checkpoint", "checkpoint_sequential", "CheckpointError", "CheckpointFunction",
             "detach_variable", "check_backward_validity", "noop_context_fn",
             "set_checkpoint_early_stop", "set_checkpoint_debug_enabled")
    for n in names:
        assert hasattr(torch.utils.checkpoint, n) and hasattr(ember.utils.checkpoint, n), n
    assert ember.utils.hooks.RemovableHandle is ember.autograd.graph.RemovableHandle
    h = ember.utils.hooks.unserializable_hook(lambda g: g)
    assert h.__torch_unserializable__

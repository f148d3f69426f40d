"""Fixes found by the twentieth batch of real-style programs (``tests/programs``), each
checked against torch."""

from __future__ import annotations

import warnings

import pytest

import ember

from .helpers import torch


def _always_call_log(L):
    log = []

    def val(out):
        return None if out is None else out.tolist()

    class Failing(L.nn.Module):
        def forward(self, x, fail=False):
            if fail:
                raise ValueError("boom")
            return x * 2

    m = Failing()
    m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {**kwargs, "fail": True}),
                                with_kwargs=True)
    m.register_forward_hook(lambda mod, args, out: log.append(("plain", val(out))))
    m.register_forward_hook(lambda mod, args, kwargs, out: log.append(("always", kwargs, val(out))),
                            with_kwargs=True, always_call=True)

    def bad(mod, args, out):
        raise KeyError("inner")

    m.register_forward_hook(bad, always_call=True)
    g = L.nn.modules.module.register_module_forward_hook(
        lambda mod, args, out: log.append(("global", val(out))), always_call=True)
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                m(L.ones(1))
            except ValueError as e:
                log.append(("raised", str(e)))
        log.append([str(x.message) for x in w])
        ok = Failing()
        ok.register_forward_hook(lambda mod, args, out: log.append(("ran once", out.tolist())),
                                 always_call=True)
        ok(L.ones(1))
    finally:
        g.remove()
    return log


def test_always_call_forward_hooks_run_when_forward_raises():
    assert _always_call_log(ember) == _always_call_log(torch)


def _jacobian_strategy_errors(L):
    F = L.autograd.functional
    x = L.tensor([1.0, 2.0])
    calls = [
        lambda: F.jacobian(lambda z: z.sin(), x, strategy="fwd"),
        lambda: F.jacobian(lambda z: z.sin(), x, strategy="forward-mode"),
        lambda: F.jacobian(lambda z: z.sin(), x, strategy="forward-mode", create_graph=True),
        lambda: F.jacobian(lambda z: z.sin(), x, strategy="forward-mode", vectorize=True,
                           strict=True),
        lambda: F.hessian(lambda z: z.sum(), x, outer_jacobian_strategy="x"),
        lambda: F.hessian(lambda z: z.sum(), x, outer_jacobian_strategy="forward-mode"),
    ]
    out = []
    for call in calls:
        with pytest.raises(Exception) as info:
            call()
        out.append((type(info.value).__name__, str(info.value)))
    return out


def test_jacobian_strategy_checks_are_torchs():
    assert _jacobian_strategy_errors(ember) == _jacobian_strategy_errors(torch)


def _forward_mode_results(L):
    F = L.autograd.functional
    x = L.tensor([1.0, 2.0])
    f = lambda z: (z ** 3).sum() * z[0]            # noqa: E731
    h = F.hessian(f, x, vectorize=True, outer_jacobian_strategy="forward-mode")
    hr = F.hessian(f, x, vectorize=True)
    j = F.jacobian(lambda z: L.stack([z.sin(), z * 2, z]), x, vectorize=True,
                   strategy="forward-mode")
    hh = F.hessian(lambda a, b: (a * b).sum() ** 2, (x, x + 1), vectorize=True,
                   outer_jacobian_strategy="forward-mode")
    jj = F.jacobian(lambda a, b: (a * b, a + b), (x, x), vectorize=True,
                    strategy="forward-mode")
    jo = F.jacobian(lambda a: (a * 2, a + 1), x, vectorize=True, strategy="forward-mode")
    return (h.tolist(), type(h.grad_fn).__name__, hr.grad_fn, j.tolist(), j.stride(),
            j.requires_grad, type(hh).__name__, type(hh[0]).__name__,
            type(hh[0][1].grad_fn).__name__, [[t.tolist() for t in r] for r in hh],
            type(jj).__name__, type(jj[0]).__name__, type(jo).__name__,
            [t.tolist() for t in jo])


def test_forward_mode_jacobian_layout_and_hessian_graph_are_torchs():
    assert _forward_mode_results(ember) == _forward_mode_results(torch)

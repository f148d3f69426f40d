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


def _custom_jvp_results(L):
    fwAD = L.autograd.forward_ad

    class Exp(L.autograd.Function):                 # jvp only, as the forward-AD tutorial's
        @staticmethod
        def forward(ctx, x):
            result = L.exp(x)
            ctx.result = result
            return result

        @staticmethod
        def jvp(ctx, t):
            return t * ctx.result

    class Ste(L.autograd.Function):                 # a jvp that is not backward's transpose
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_forward(x)
            return x.round() * k

        @staticmethod
        def jvp(ctx, t, k_t):
            (x,) = ctx.saved_tensors
            return t * 0.5 + x * 0 + (0 if k_t is None else 1)

        @staticmethod
        def backward(ctx, g):
            return g, None

    class NoJvp(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    p = L.tensor([0.5, -1.0, 2.0], dtype=L.float64, requires_grad=True)
    t = L.tensor([1.0, 2.0, -1.0], dtype=L.float64)
    out = []
    with fwAD.dual_level():
        d = fwAD.make_dual(p, t)
        o = Exp.apply(d)
        tangent = fwAD.unpack_dual(o).tangent
        out.append((tangent.tolist(), type(tangent.grad_fn).__name__, type(o.grad_fn).__name__))
        y = (o * d).sin() + Exp.apply(d * 2)
        out.append(fwAD.unpack_dual(y).tangent.detach().tolist())
    with fwAD.dual_level():
        d = fwAD.make_dual(p.detach(), t)
        y = Exp.apply(d) * 3 + d
        tangent = fwAD.unpack_dual(y).tangent
        out.append((tangent.tolist(), tangent.requires_grad))
        s = Ste.apply(d, 2.0)
        out.append(fwAD.unpack_dual(s * 2).tangent.tolist())
        with pytest.raises(NotImplementedError) as info:
            NoJvp.apply(d)
        out.append(str(info.value))
    return out


def test_custom_function_jvp_gives_forward_mode_tangents():
    assert _custom_jvp_results(ember) == _custom_jvp_results(torch)


def _gradcheck_forward(L):
    class Bad(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x)
            return x ** 2

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return 3 * x * t

        @staticmethod
        def backward(ctx, g):
            raise AssertionError("backward is not checked")

    x = L.tensor([1.0, 2.0], dtype=L.float64, requires_grad=True)
    with pytest.raises(Exception) as info:
        L.autograd.gradcheck(Bad.apply, (x,), check_forward_ad=True, check_backward_ad=False)
    quiet = L.autograd.gradcheck(Bad.apply, (x,), check_forward_ad=True,
                                 check_backward_ad=False, raise_exception=False)
    base = L.arange(12, dtype=L.float64).reshape(3, 4).div(7)
    strided = base[:, ::2].requires_grad_()          # not contiguous: gradcheck takes it
    ok = L.autograd.gradcheck(lambda a: (a.sin() * a.sum()).cumsum(0), (strided,),
                              check_forward_ad=True)
    return type(info.value).__name__, str(info.value), quiet, ok, base.tolist()


def test_gradcheck_checks_forward_mode_and_takes_strided_inputs():
    assert _gradcheck_forward(ember) == _gradcheck_forward(torch)


def _vmap_random_error_keeps_stream(L):
    L.manual_seed(0)
    with pytest.raises(RuntimeError) as info:
        L.func.vmap(lambda x: L.rand(1) + x)(L.ones(2))
    after = L.rand(2).tolist()
    L.manual_seed(0)
    same = L.func.vmap(lambda x: L.randn(2) * x, randomness="same")(L.ones(3))
    return str(info.value), after, same.tolist(), L.rand(1).tolist()


def test_vmap_randomness_error_draws_nothing():
    assert _vmap_random_error_keeps_stream(ember) == _vmap_random_error_keeps_stream(torch)


def _gradient_edges(L):
    G = L.autograd.graph
    x = L.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = x.exp()
    z = (y * 2).sum()
    e = G.get_gradient_edge(y)
    ex = G.get_gradient_edge(x)
    out = [type(e).__name__, type(e.node).__name__, e.output_nr, e.ownership_token, len(e),
           type(ex.node).__name__, ex.node is x.grad_fn]
    out.append([g.tolist() for g in L.autograd.grad(z, e, retain_graph=True)])
    out.append([g.tolist() for g in L.autograd.grad(z, [e, x], retain_graph=True)])
    z.backward(inputs=[e, x])
    out.append((x.grad.tolist(), y.grad))
    with pytest.raises(RuntimeError) as info:
        G.get_gradient_edge(L.ones(2))
    out.append(str(info.value))
    return out


def test_gradient_edges_stand_for_tensors_in_grad_and_backward():
    assert _gradient_edges(ember) == _gradient_edges(torch)


def _mutation_on_saved(L):
    G = L.autograd.graph
    out = []
    with G.allow_mutation_on_saved_tensors() as ctx:
        a = L.ones(2, 3, requires_grad=True)
        b = a.clone()
        loss = (b ** 2).sum()
        b.sin_()
        loss.backward()
        out += [type(ctx).__name__, a.grad.tolist(), b.tolist()]
        c = a * 3
        d = (c * c).sum()
        out.append(d.grad_fn.next_functions[0][0]._saved_self is c)
        with pytest.raises(RuntimeError) as info:
            with G.allow_mutation_on_saved_tensors():
                pass
        out.append(str(info.value))
    with pytest.raises(AssertionError) as info:
        d.backward()
    out.append(str(info.value))
    b2 = L.ones(2, requires_grad=True).clone()
    loss = (b2 ** 2).sum()
    b2.sin_()
    with pytest.raises(RuntimeError) as info:
        loss.backward()
    out.append(str(info.value)[:100])
    return out


def test_allow_mutation_on_saved_tensors():
    assert _mutation_on_saved(ember) == _mutation_on_saved(torch)


def _numpy_under_no_grad(L):
    import numpy as np
    a = L.ones(2, requires_grad=True)
    out = []
    with L.no_grad():
        n = a.numpy()
        n[0] = 5.0                      # shares memory, as torch's
        out.append((type(n).__name__, np.asarray(a).tolist(), (a * 2).numpy().tolist()))
    with L.inference_mode():
        out.append(a.numpy().tolist())
    for f in (a.numpy, lambda: np.asarray(a)):
        with pytest.raises(RuntimeError) as info:
            f()
        out.append(str(info.value))
    return out


def test_numpy_of_a_tensor_requiring_grad_is_allowed_under_no_grad():
    assert _numpy_under_no_grad(ember) == _numpy_under_no_grad(torch)


def _bn_replaced(L):
    nn = L.nn
    L.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
    bn = L.nn.BatchNorm2d(2)
    same = L.func.replace_all_batch_norm_modules_(model.double())
    L.func.replace_all_batch_norm_modules_(bn)
    x = L.randn(6, 4, 3, dtype=L.float64)
    params = {k: v.detach() for k, v in model.named_parameters()}

    def loss(p, xi):                     # a batch of 4 per sample: batch norm needs a batch
        return L.func.functional_call(model, p, (xi,)).pow(2).sum()

    g = L.func.vmap(L.func.grad(loss), in_dims=(None, 0))(params, x)
    return (same is model, model[1].running_mean, model[1].track_running_stats,
            sorted(model.state_dict()), bn.running_var, str(model[1])), \
        g["0.weight"].sum((1, 2)).tolist()


def test_replace_all_batch_norm_modules_():
    (mine, got), (theirs, want) = _bn_replaced(ember), _bn_replaced(torch)
    assert mine == theirs
    assert got == pytest.approx(want, rel=1e-9)

"""Regression tests for what the fourth round of real programs found, each against torch 2.13:
``grad_fn._saved_<name>`` / ``grad_fn._raw_saved_<name>`` (what a node keeps for backward, and
per-tensor saved-tensor hooks) were missing, and so was
``torch.autograd.graph.register_multi_grad_hook``; ``autograd.grad`` with respect to a non-leaf
ran (and freed) the non-leaf's own node, and ``backward(inputs=[non_leaf])`` crashed;
``gradcheck`` ran backward once per output element (torch: twice, for its reentrancy check,
then with zero output gradients), printed Jacobians as NumPy arrays and lacked torch's input
checks; ``gradgradcheck`` drew its output gradients from NumPy instead of the global generator;
``torch.autograd.gradcheck`` (the module, holding ``GradcheckError``) could not be imported;
``torch.func.linearize`` was missing; BatchNorm lacked torch's ``_load_from_state_dict``
(a checkpoint without the module's metadata fills in ``num_batches_tracked``, so it is not
reported missing); ``Module._load_from_state_dict`` took an extra ``assign`` argument, so an
override with torch's signature broke ``load_state_dict``; ``with torch.device("cpu"):``
was not a context manager; optimizer step hooks got ``args`` without the optimizer (torch's
wrapper passes the call's own arguments, the optimizer first);
``nn.modules.module.register_module_forward_pre_hook`` / ``register_module_forward_hook`` (hooks
run by every module) were missing; channels-last layouts were lost: VML's unary kernels (exp,
log, sin …) returned contiguous results, convolution, batch norm, pooling and upsampling did not
lay out their output as their channels-last input (or weight), ``Module.to(memory_format=)``
was ignored, and AccumulateGrad did not give ``.grad`` its parameter's strides (torch's layout
contract); ``storage_offset()`` of an ``as_strided`` view was 0; ``as_strided_`` recorded
``AsStridedBackward0`` (torch: ``AsStridedBackward1``), and ``adaptive_avg_pool2d(x, 1)`` of a
channels-last ``x`` was not restrided channels-last."""

from __future__ import annotations

import numpy as np
import pytest

import ember

from .helpers import errors_alike, torch


def _leaf(lib, data):
    return lib.tensor(np.asarray(data, dtype=np.float32), requires_grad=True)


def test_saved_attributes_are_torchs():
    outs = []
    for lib in (ember, torch):
        a = _leaf(lib, [0.5, -1.0, 2.0])
        x = _leaf(lib, np.arange(12.0).reshape(3, 4))
        m = lib.ones(4, 2)
        y = a.pow(2)
        e = a.exp()
        s = x.sum(dim=1, keepdim=True)
        z = x.mm(m)
        outs.append((
            y.grad_fn._saved_self is a, y.grad_fn._saved_exponent,
            e.grad_fn._saved_result.tolist(), e.grad_fn._saved_result is e,
            e.grad_fn._saved_result.grad_fn is e.grad_fn,
            s.grad_fn._saved_dim, s.grad_fn._saved_keepdim, s.grad_fn._saved_self_sym_sizes,
            tuple(z.grad_fn._saved_mat2.shape), z.grad_fn._saved_self,
        ))
    assert outs[0] == outs[1]


def test_saved_attribute_errors_are_torchs():
    def after_backward(lib):
        y = _leaf(lib, [1.0, 2.0]).pow(2)
        y.sum().backward()
        return y.grad_fn._saved_self

    def hooks_after_backward(lib):
        y = _leaf(lib, [1.0, 2.0]).exp()
        y.sum().backward()
        y.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t)

    def hooks_on_none(lib):
        z = _leaf(lib, [[1.0, 2.0]]).mm(lib.ones(2, 1))
        z.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)

    def hooks_twice(lib):
        y = _leaf(lib, [1.0, 2.0]).pow(2)
        raw = y.grad_fn._raw_saved_self
        raw.register_hooks(lambda t: t, lambda t: t)
        raw.register_hooks(lambda t: t, lambda t: t)

    def unknown(lib):
        return _leaf(lib, [1.0, 2.0]).pow(2).grad_fn._saved_foo

    for fn in (after_backward, hooks_after_backward, hooks_on_none, hooks_twice, unknown):
        errors_alike(fn)


def test_raw_saved_register_hooks_runs_pack_now_and_unpack_in_backward():
    logs = []
    for lib in (ember, torch):
        log = []
        a = _leaf(lib, [1.0, 2.0, 3.0])
        b = _leaf(lib, [2.0, 2.0, 2.0]) * 1
        y = a * b
        y.grad_fn._raw_saved_self.register_hooks(
            lambda t, log=log: log.append(("pack", t.tolist())) or t * 10,
            lambda t, log=log: log.append(("unpack", t.tolist())) or t)
        log.append(("saved", y.grad_fn._saved_self.tolist(), y.grad_fn._saved_self.requires_grad))
        y.sum().backward()
        log.append(("grads", a.grad.tolist()))
        logs.append(log)
    assert logs[0] == logs[1]


def _multi_log(lib):
    log = []
    a = _leaf(lib, [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]])
    b = _leaf(lib, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    c = a * b
    d = a * b
    h = lib.autograd.graph.register_multi_grad_hook(
        (a, b, c, d), lambda grads: log.append([g is not None for g in grads]))
    c.sum().backward(retain_graph=True)
    c.sum().backward(inputs=(a,), retain_graph=True)
    (c + d).sum().backward(retain_graph=True)
    h.remove()
    c.sum().backward(retain_graph=True)
    h = lib.autograd.graph.register_multi_grad_hook(
        (a, b), lambda g: log.append(("any", g.tolist())), mode="any")
    (a * 2 + b).sum().backward()
    h.remove()
    log.append(type(h).__name__)
    return log


def test_register_multi_grad_hook_is_torchs():
    assert _multi_log(ember) == _multi_log(torch)


def test_register_multi_grad_hook_errors_are_torchs():
    def bad_mode(lib):
        a = _leaf(lib, [1.0])
        lib.autograd.graph.register_multi_grad_hook((a,), print, mode="some")

    def leaf_in_grad(lib):
        a = _leaf(lib, [1.0])
        b = _leaf(lib, [2.0])
        lib.autograd.graph.register_multi_grad_hook((a, b), print)
        lib.autograd.grad((a * b).sum(), a)

    errors_alike(bad_mode)
    errors_alike(leaf_in_grad)


def _run_log(lib):
    log = []
    gen = lib.manual_seed(0)
    a = lib.rand(3, requires_grad=True)
    x = a * 3
    x.register_hook(lambda g: log.append(("hook", g.tolist())))
    x.grad_fn.register_prehook(lambda g: log.append(("prehook", g[0].tolist())))
    log.append(lib.autograd.grad((x.sin() * x).sum(), x)[0].tolist())
    log.append(lib.autograd.grad((x * 2).sum(), a, retain_graph=True)[0].tolist())  # kept
    w = (x * 2).exp().sum()
    w.backward(inputs=[x])
    log.append((x.grad.tolist(), a.grad))
    try:
        (x * 2).sum().backward()
    except RuntimeError as e:
        log.append(str(e)[:40])
    del gen
    return log


def test_grad_of_a_non_leaf_does_not_run_its_node_but_backward_inputs_does():
    assert _run_log(ember) == _run_log(torch)


def test_non_leaf_grad_warns_only_while_undefined():
    import warnings
    for lib in (ember, torch):
        x = lib.ones(2, requires_grad=True) * 2
        (x * x).sum().backward(inputs=[x])
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert x.grad.tolist() == [4.0, 4.0]
        with pytest.warns(UserWarning, match="not a leaf Tensor"):
            assert (x * 1).grad is None


def _counting_function(lib, log):
    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            log.append(g.tolist())
            return g * 2
    return Scale


def test_gradcheck_calls_backward_as_torch_does():
    logs = []
    for lib in (ember, torch):
        log = []
        x = lib.tensor([0.5, 1.5], dtype=lib.float64, requires_grad=True)
        assert lib.autograd.gradcheck(_counting_function(lib, log).apply, x)
        logs.append(log)
    assert logs[0] == logs[1]


def test_gradcheck_messages_are_torchs():
    def mismatch(lib):
        x = lib.tensor([0.5, 1.5], dtype=lib.float64, requires_grad=True)
        lib.autograd.gradcheck(lambda t: (t * 1.5).detach() + t, x)

    def not_multiplied(lib):
        class NoMul(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return lib.ones_like(g) * 2
        lib.autograd.gradcheck(NoMul.apply, lib.eye(2, dtype=lib.float64, requires_grad=True),
                               atol=10.0)

    def no_input(lib):
        lib.autograd.gradcheck(lib.sin, lib.ones(2, dtype=lib.float64))

    for fn in (mismatch, not_multiplied, no_input):
        errors_alike(fn)
    for lib in (ember, torch):
        with pytest.warns(UserWarning, match="Input #0 requires gradient and is not a double"):
            lib.autograd.gradcheck(lib.sin, lib.ones(2, requires_grad=True), atol=1e-2)


def test_gradgradcheck_draws_grad_outputs_from_the_global_generator():
    outs = []
    for lib in (ember, torch):
        lib.manual_seed(3)
        x = lib.rand(2, 2, dtype=lib.float64, requires_grad=True)
        assert lib.autograd.gradgradcheck(lambda t: t.sin() * t, x)
        outs.append(lib.rand(3).tolist())
    assert outs[0] == outs[1]


def test_gradcheck_module_is_importable():
    import importlib
    mod = importlib.import_module("ember.autograd.gradcheck")
    assert callable(ember.autograd.gradcheck) and ember.autograd.gradcheck.__name__ == "gradcheck"
    assert issubclass(mod.GradcheckError, RuntimeError)
    assert "gradcheck" in dir(ember.autograd)


def test_func_linearize_is_torchs():
    outs = []
    for lib in (ember, torch):
        x = lib.tensor([0.5, -1.0, 2.0])
        out, jvp_fn = lib.func.linearize(lambda v: (v.sin() * v, v.exp()), x)
        outs.append((out[0].tolist(), out[1].tolist(),
                     [t.tolist() for t in jvp_fn(lib.tensor([1.0, 0.0, 2.0]))],
                     [t.tolist() for t in jvp_fn(lib.ones(3))]))
    np.testing.assert_allclose(np.array(outs[0][2]), np.array(outs[1][2]), rtol=1e-6)
    np.testing.assert_allclose(np.array(outs[0][3]), np.array(outs[1][3]), rtol=1e-6)
    assert outs[0][:2] == outs[1][:2]


def _warmstart(lib):
    nn = lib.nn
    lib.manual_seed(0)
    a = nn.Sequential(nn.Linear(3, 4), nn.ReLU())
    b = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.InstanceNorm1d(4))
    res = b.load_state_dict(a.state_dict(), strict=False)
    sd = dict(a.state_dict())       # no _metadata at all
    res2 = b.load_state_dict(sd, strict=False)
    res3 = b.load_state_dict({**sd, "1.weight": lib.ones(4)}, strict=False, assign=True)
    return (res.missing_keys, res.unexpected_keys, res2.missing_keys, res3.missing_keys,
            b[1].num_batches_tracked.item(), b[1].weight.tolist(), type(b[1].weight).__name__)


def test_batchnorm_fills_num_batches_tracked_as_torch():
    assert _warmstart(ember) == _warmstart(torch)


def test_load_from_state_dict_override_with_torchs_signature():
    outs = []
    for lib in (ember, torch):
        class Logged(lib.nn.Linear):
            seen: list = []

            def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict,
                                      missing_keys, unexpected_keys, error_msgs):
                self.seen.append((prefix, local_metadata.get("assign_to_params_buffers")))
                super()._load_from_state_dict(state_dict, prefix, local_metadata, strict,
                                              missing_keys, unexpected_keys, error_msgs)

        m = lib.nn.Sequential(Logged(2, 2))
        w = lib.ones(2, 2)
        m.load_state_dict({"0.weight": w, "0.bias": lib.zeros(2)})
        m.load_state_dict({"0.weight": w, "0.bias": lib.zeros(2)}, assign=True)
        weight = m[0].weight
        outs.append((Logged.seen, weight.data_ptr() == w.data_ptr(), weight.requires_grad))
    assert outs[0] == outs[1]


def test_device_is_a_context_manager():
    for lib in (ember, torch):
        with lib.device("cpu") as d:
            assert d == lib.device("cpu")
            assert lib.nn.Linear(2, 2).weight.device == lib.device("cpu")


def test_optimizer_step_hooks_see_torchs_args():
    outs = []
    for lib in (ember, torch):
        log = []
        p = lib.nn.Parameter(lib.ones(2))
        opt = lib.optim.SGD([p], lr=0.5)

        def pre(o, args, kwargs, log=log, lib=lib):
            log.append(("pre", len(args), args[0] is o, sorted(kwargs)))
            return args, {"closure": lambda: log.append("closure") or lib.tensor(1.0)}

        opt.register_step_pre_hook(pre)
        opt.register_step_post_hook(
            lambda o, args, kwargs, log=log: log.append(("post", len(args), sorted(kwargs))))
        p.grad = lib.ones(2)
        loss = opt.step()
        log.append((loss.item(), p.tolist()))
        outs.append(log)
    assert outs[0] == outs[1]


def _global_hook_log(lib):
    nn = lib.nn
    log = []
    seq = nn.Sequential(nn.Linear(3, 4), nn.ReLU())
    seq[0].register_forward_pre_hook(lambda m, a: log.append(("own pre", type(m).__name__)))
    seq[0].register_forward_hook(lambda m, a, o: log.append(("own post", type(m).__name__)))
    h1 = nn.modules.module.register_module_forward_pre_hook(
        lambda m, a: log.append(("pre", type(m).__name__)))
    h2 = nn.modules.module.register_module_forward_hook(
        lambda m, a, o: log.append(("post", type(m).__name__, tuple(o.shape))))
    h3 = nn.modules.module.register_module_forward_hook(
        lambda m, a, k, o: o * 0 if isinstance(m, nn.ReLU) else None, with_kwargs=True)
    out = seq(lib.ones(2, 3))
    for h in (h1, h2, h3):
        h.remove()
    seq(lib.ones(2, 3))
    return log, out.tolist()


def test_global_module_forward_hooks_are_torchs():
    assert _global_hook_log(ember) == _global_hook_log(torch)


def _layouts(lib):
    F = lib.nn.functional
    lib.manual_seed(0)
    y = lib.randn(2, 3, 4, 5).to(memory_format=lib.channels_last)
    out = [y.exp().stride(), y.log().stride(), y.sin().stride(), y.sqrt().stride()]
    conv = lib.nn.Conv2d(3, 8, 3, padding=1)
    c = conv(y)
    out += [c.stride(), lib.nn.BatchNorm2d(8)(c).stride(), lib.nn.BatchNorm2d(8).eval()(c).stride(),
            F.max_pool2d(c, 2).stride(), F.avg_pool2d(c, 2).stride(),
            F.adaptive_avg_pool2d(c, 2).stride(), F.interpolate(c, scale_factor=2).stride()]
    cl = lib.nn.Conv2d(3, 8, 3).to(memory_format=lib.channels_last)
    out += [cl.weight.stride(), cl(lib.randn(2, 3, 4, 5)).stride()]
    cl(y).sum().backward()
    out += [cl.weight.grad.stride(), cl.bias.grad.stride()]
    w = lib.nn.Parameter(lib.randn(3, 4).t())
    (w * 2).sum().backward()
    out.append(w.grad.stride())
    values = [c.sum().item(), cl.weight.grad.sum().item()]
    return out, values


def test_channels_last_layouts_are_torchs():
    (le, ve), (lt, vt) = _layouts(ember), _layouts(torch)
    assert le == lt
    np.testing.assert_allclose(ve, vt, rtol=1e-5)


def test_as_strided_storage_offset_is_torchs():
    outs = []
    for lib in (ember, torch):
        b = lib.arange(9.0)
        s = lib.as_strided(b, (2, 2), (3, 1), 1)
        s2 = lib.as_strided(s, (2,), (1,), 4)
        s2[0] = 100
        outs.append((s.storage_offset(), s.tolist(), s.as_strided((2,), (1,)).storage_offset(),
                     s2.storage_offset(), b.tolist()))
    assert outs[0] == outs[1]


def test_adaptive_avg_pool_to_one_and_as_strided_inplace_are_torchs():
    outs = []
    for lib in (ember, torch):
        x = lib.arange(160.0).reshape(2, 8, 2, 5).to(memory_format=lib.channels_last)
        x.requires_grad_()
        o = lib.nn.functional.adaptive_avg_pool2d(x, 1)
        o.sum().backward()
        y = lib.ones(4, requires_grad=True) * 1
        y.as_strided_((2,), (2,))
        outs.append((type(o.grad_fn).__name__, o.stride(), o.flatten().tolist(),
                     x.grad.stride(), type(y.grad_fn).__name__))
    assert outs[0] == outs[1]


if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__, "-q"])

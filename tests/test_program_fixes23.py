"""Regression tests for what the ninth batch of real programs found, each against torch 2.13:
a ``@once_differentiable`` backward run with ``create_graph`` returns gradients that require
grad through torch's ``Error`` node, whose backward raises (not gradients without history);
the global module hooks (``register_module_full_backward_hook`` / ``_pre_hook``, the legacy
``register_module_backward_hook`` and the module / parameter / buffer registration hooks) run
as torch's; the RNN cells check input and hidden sizes with ATen's messages; the quantized
tensor deprecation warning names its ATen source line; ``CatBackward0`` / ``StackBackward0``
show ``_saved_dim`` (a negative dim as the uint64 torch keeps); ``one_hot`` of an empty tensor
needs ``num_classes``; complex128 ``acos`` is ``pi/2 - asin(z)`` part by part, as torch's
vectorized kernel; ``nanmedian`` of an all-NaN row returns the index GCC's ``nth_element``
leaves first; the weighted ``l1_loss`` / ``mse_loss`` means divide by the weights' sum and the
weighted ``huber_loss`` is the unweighted elementwise loss times the weight (its mean over the
elements), with torch's weight-size and ``delta`` errors; ``diff`` checks the shapes of what it
prepends and appends; an LSTM with projections warns once, as torch, that oneDNN cannot run
it; ``fused=True`` with ``foreach=True`` or ``differentiable=True`` raises torch's errors;
the ``index_*`` ops take torch's index dtypes (int64 alone for ``index_fill_`` and
``index_copy_``, int32 or int64 for the others) with each op's own error; ``gather`` with
``sparse_grad=True`` gives ATen's uncoalesced sparse gradient."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import ember

from .helpers import torch


def _outcomes(calls, errors=(RuntimeError, ValueError)) -> list:
    """Each call's result, or its error's message."""
    out = []
    for call in calls:
        try:
            out.append(call())
        except errors as e:
            out.append(f"{type(e).__name__}: {e}")
    return out


def _once_differentiable_grads(L):
    class Twice(L.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * 2, y * 3

        @staticmethod
        @L.autograd.function.once_differentiable
        def backward(ctx, g, h):
            return g * 2, None

    x = L.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = L.tensor([0.5, 0.25, 4.0], requires_grad=True)
    a, b = Twice.apply(x, y)
    gx, gy = L.autograd.grad((a * a).sum() + (b * b).sum(), [x, y], create_graph=True,
                             allow_unused=True)
    node = gx.grad_fn
    out = [gx.tolist(), gx.requires_grad, gx.is_leaf, gy, type(node).__name__, node.name(),
           [type(n).__name__ for n, _ in node.next_functions],
           node.next_functions[0][0].variable.tolist()]
    for fn in (lambda: gx.sum().backward(), lambda: L.autograd.grad(gx.sum(), x)):
        try:
            fn()
        except RuntimeError as e:
            out.append(str(e))
    plain, = L.autograd.grad(Twice.apply(x, y)[0].sum(), x, create_graph=True)
    out.append((plain.requires_grad, plain.grad_fn))
    return out


def test_once_differentiable_outputs_hang_from_an_error_node():
    assert _once_differentiable_grads(ember) == _once_differentiable_grads(torch)


def _global_module_hooks(L):
    L.manual_seed(0)
    mm = L.nn.modules.module
    seen = []
    handles = [
        mm.register_module_full_backward_pre_hook(
            lambda m, go: seen.append(("pre", type(m).__name__)) or (go[0] * 2,)),
        mm.register_module_full_backward_hook(
            lambda m, gi, go: seen.append(("bwd", type(m).__name__))),
        mm.register_module_module_registration_hook(
            lambda m, n, sub: seen.append(("module", n))),
        mm.register_module_parameter_registration_hook(
            lambda m, n, p: seen.append(("param", n)) or L.nn.Parameter(p.detach() * 0 + 1)),
        mm.register_module_buffer_registration_hook(
            lambda m, n, b: seen.append(("buffer", n)) or L.full_like(b, 3.0)),
    ]
    try:
        net = L.nn.Sequential(L.nn.Linear(3, 2), L.nn.Tanh())
        net.extra = L.nn.Identity()
        net.register_buffer("scale", L.ones(2))
        x = L.ones(2, 3, requires_grad=True)
        net(x).sum().backward()
        try:
            mm.register_module_backward_hook(lambda m, gi, go: None)
        except RuntimeError as e:
            seen.append(str(e))
    finally:
        for h in handles:
            h.remove()
    seen.append(mm._global_is_full_backward_hook)
    return seen, x.grad.tolist(), net.scale.tolist(), net[0].weight.tolist()


def test_global_backward_and_registration_hooks():
    assert _global_module_hooks(ember) == _global_module_hooks(torch)


def _cell_errors(L):
    L.manual_seed(0)
    cells = {"rnn": L.nn.RNNCell(4, 6), "relu": L.nn.RNNCell(4, 6, nonlinearity="relu"),
             "gru": L.nn.GRUCell(4, 6), "lstm": L.nn.LSTMCell(4, 6)}
    out = []
    for name, cell in cells.items():
        def hidden(b, h, name=name):
            t = L.zeros(b, h)
            return (t, L.zeros(3, 6)) if name == "lstm" else t
        calls = [lambda cell=cell: cell(L.ones(3, 5)),
                 lambda cell=cell, hidden=hidden: cell(L.ones(3, 4), hidden(3, 7)),
                 lambda cell=cell, hidden=hidden: cell(L.ones(3, 4), hidden(2, 6))]
        if name == "lstm":
            calls.append(lambda cell=cell: cell(L.ones(3, 4), (L.zeros(3, 6), L.zeros(3, 5))))
        out += _outcomes(calls)
    return out


def test_rnn_cells_check_sizes_as_aten():
    assert _cell_errors(ember) == _cell_errors(torch)


def _warnings_in_fresh_processes(body: str) -> list:
    """The warnings ``body`` (code using ``L``) emits in a new process, under Ember and under
    torch (a TORCH_WARN_ONCE warns once a process)."""
    code = ("import warnings, {0} as L\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            + "".join(f"    {line}\n" for line in body.splitlines()) +
            "print([str(x.message) for x in w])")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(ember.__file__)), os.environ.get("PYTHONPATH", "")]))
    return [subprocess.run([sys.executable, "-c", code.format(lib)], capture_output=True,
                           text=True, env=env, check=True).stdout for lib in ("ember", "torch")]


def test_quantized_tensor_deprecation_names_its_aten_source():
    got = _warnings_in_fresh_processes("L.quantize_per_tensor(L.ones(2), 0.1, 0, L.qint8)")
    assert "Quantizer.cpp" in got[1] and got[0] == got[1]


def test_projected_lstm_warns_once_where_onednn_would_run():
    got = _warnings_in_fresh_processes(
        "m = L.nn.LSTM(3, 4, proj_size=2)\n"
        "m(L.randn(2, 1, 3))\n"
        "m(L.randn(2, 1, 3))\n"
        "m.double()(L.randn(2, 1, 3, dtype=L.float64))")
    assert "RNN.cpp" in got[1] and got[0] == got[1]


def _list_nodes_saved_dims(L):
    a = L.ones(2, 3, requires_grad=True)
    nodes = [L.cat([a, a]).grad_fn, L.cat([a, a], dim=-1).grad_fn,
             L.stack([a, a], 2).grad_fn, L.stack([a, a], -3).grad_fn]
    out = [(n.name(), n._saved_dim, [k for k in dir(n) if k.startswith("_saved")])
           for n in nodes]
    try:
        out.append(L.block_diag(a, a).grad_fn._saved_dim)
    except AttributeError as e:
        out.append(str(e))
    return out


def test_cat_and_stack_nodes_show_their_dim():
    assert _list_nodes_saved_dims(ember) == _list_nodes_saved_dims(torch)


def _one_hot_empty(L):
    F = L.nn.functional
    return [F.one_hot(L.tensor([], dtype=L.long), 4).shape,
            F.one_hot(L.zeros(2, 0, dtype=L.long), 3).shape] + _outcomes(
        [lambda n=n: F.one_hot(L.tensor([], dtype=L.long), n) for n in (-1, 0)])


def test_one_hot_of_an_empty_tensor_needs_num_classes():
    assert _one_hot_empty(ember) == _one_hot_empty(torch)


def test_complex128_acos_is_half_pi_minus_asin_bits():
    rng = np.random.default_rng(0)
    vals = np.concatenate([rng.standard_normal(50) * 2 + 1j * rng.standard_normal(50) * 2,
                           [0.5, -0.5, 3, -3, 0j, 2j, -2j, complex(0.5, -0.0),
                            complex(-3, -0.0)]])
    for dt in ("complex128", "complex64"):
        got, want = (L.acos(L.tensor(vals, dtype=getattr(L, dt))).numpy()
                     for L in (ember, torch))
        assert got.tobytes() == want.tobytes(), dt


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8, 17, 33])
def test_nanmedian_index_of_an_all_nan_row_is_torchs(n):
    got = []
    for L in (ember, torch):
        t = L.full((3, n), float("nan"))
        t[1, 0] = 1.0
        got.append((t.nanmedian(1).indices.tolist(), t.nanmedian(0).indices.tolist()))
    assert got[0] == got[1]


def _weighted_regression_losses(L):
    F = L.nn.functional
    L.manual_seed(0)
    x, y, w = L.randn(4, 3), L.randn(4, 3), L.rand(4, 3)
    calls = []
    for fn in (F.l1_loss, F.mse_loss, F.huber_loss):
        calls += [lambda fn=fn, r=r: fn(x, y, reduction=r, weight=w).tolist()
                  for r in ("mean", "sum", "none", "max")]
        calls.append(lambda fn=fn: fn(x, y, weight=L.ones(3)))
    calls += [lambda d=d, weight=weight: F.huber_loss(x, y, delta=d, weight=weight)
              for d in (0.0, -1.0) for weight in (None, w)]
    return _outcomes(calls)


def test_weighted_regression_losses_reduce_as_torch():
    assert _weighted_regression_losses(ember) == _weighted_regression_losses(torch)


def _diff_errors(L):
    x, m = L.arange(5), L.ones(2, 3)
    calls = [lambda: L.diff(x, prepend=L.tensor([[0]])), lambda: L.diff(x, append=L.tensor(1)),
             lambda: L.diff(m, prepend=L.ones(3, 3)), lambda: L.diff(m, dim=0,
                                                                    append=L.ones(2, 1)),
             lambda: L.diff(m, prepend=L.ones(2, 5)).tolist()]
    return _outcomes(calls)


def test_diff_checks_prepend_and_append_shapes():
    assert _diff_errors(ember) == _diff_errors(torch)


def _fused_flag_errors(L):
    calls = [lambda cls=cls, kw=kw: cls(L.nn.Linear(2, 2).parameters(), lr=0.1, **kw) and None
             for cls in (L.optim.Adam, L.optim.AdamW, L.optim.SGD, L.optim.Adagrad)
             for kw in (dict(fused=True, foreach=True), dict(fused=True, differentiable=True))]
    return _outcomes(calls)


def test_fused_optimizers_refuse_flags_that_do_not_go_together():
    assert _fused_flag_errors(ember) == _fused_flag_errors(torch)


def _index_dtype_errors(L):
    m, one = L.zeros(3, 4), L.ones(1, 4)
    ops = [lambda i: m.index_select(0, i), lambda i: m.clone().index_add_(0, i, one),
           lambda i: m.index_add(0, i, one), lambda i: m.clone().index_copy_(0, i, one),
           lambda i: m.clone().index_fill_(0, i, 1.0), lambda i: m.index_fill(1, i, 2.0),
           lambda i: m.clone().index_reduce_(0, i, one, "prod")]
    return _outcomes([lambda op=op, dt=dt: op(L.tensor([0], dtype=getattr(L, dt))).tolist()
                      for op in ops for dt in ("float32", "int64", "int32", "int16", "uint8")],
                     (RuntimeError, IndexError))


def test_index_ops_take_torchs_index_dtypes():
    assert _index_dtype_errors(ember) == _index_dtype_errors(torch)


def _gather_sparse_grads(L):
    L.manual_seed(0)
    out = []
    for shape, index, dim in [((3, 4), [[0, 0], [3, 1], [2, 2]], 1),
                              ((2, 3, 2), [[[1, 0], [0, 1]], [[2, 2], [1, 0]]], 1),
                              ((4,), [1, 1, 3], 0)]:
        x = L.randn(*shape, requires_grad=True)
        g = L.gather(x, dim, L.tensor(index), sparse_grad=True)
        (g * L.arange(float(g.numel())).reshape(g.shape)).sum().backward()
        out.append((g.grad_fn._saved_sparse_grad, str(x.grad.layout), x.grad.is_coalesced(),
                    x.grad._indices().tolist(), x.grad._values().tolist()))
    return out


def test_gather_sparse_grad_gives_torchs_uncoalesced_gradient():
    assert _gather_sparse_grads(ember) == _gather_sparse_grads(torch)

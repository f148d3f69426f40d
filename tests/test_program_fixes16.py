"""Fixes found by the sixteenth batch of real-style programs (``tests/programs``, also run
with float64 as the default dtype), each checked against torch: the dtype of a root
gradient, ``vector_to_parameters``, the normalisations' mixed-dtype checks, fbgemm's packed
weight scales, ``linear_dynamic``'s input check, and doubles reaching float16/bfloat16
through float32 (``c10::Half`` and ``c10::BFloat16`` are made from a float)."""

from __future__ import annotations

import itertools

import pytest

import ember

from .helpers import torch


def _outcome(fn):
    try:
        return fn()
    except Exception as e:      # noqa: BLE001 (the class and message are compared)
        return type(e).__name__, str(e)


@pytest.mark.parametrize("grad_dtype", ["float32", "float16", "int64", "complex64"])
def test_a_root_gradient_takes_the_outputs_dtype(grad_dtype):
    """torch's engine casts a given root gradient to its output's dtype before the first
    node (a float32 ``grad_outputs`` meeting a float64 ``mm`` backward)."""
    got = []
    for L in (torch, ember):
        w = L.arange(6, dtype=L.float64).reshape(2, 3).requires_grad_()
        x = L.ones(4, 2, dtype=L.float64)

        def run(L=L, w=w, x=x):
            out = x @ w
            g = L.ones(4, 3, dtype=getattr(L, grad_dtype))
            (gw,) = L.autograd.grad(out, w, g, create_graph=True)
            return gw.dtype is L.float64, gw.tolist()
        got.append(_outcome(run))
    assert got[0] == got[1]


def test_a_complex_root_gradient_of_a_real_output_is_refused():
    got = []
    for L in (torch, ember):
        z = L.ones(3, dtype=L.complex64, requires_grad=True)
        got.append(_outcome(lambda L=L, z=z: L.autograd.grad(z * 2, z, L.ones(3))))
    assert got[0] == got[1]
    assert "For complex Tensors" in got[1][1]


def test_vector_to_parameters_gives_the_parameters_the_vectors_dtype_and_memory():
    got = []
    for L in (torch, ember):
        L.set_default_dtype(L.float64)
        try:
            net = L.nn.Linear(3, 2)
        finally:
            L.set_default_dtype(L.float32)
        vec = L.arange(8, dtype=L.float32) / 10
        L.nn.utils.vector_to_parameters(vec, net.parameters())
        vec[0] = 5.0
        got.append((net.weight.dtype is L.float32, net.weight[0, 0].item(),
                    net.weight.requires_grad, isinstance(net.weight, L.nn.Parameter)))
    assert got[0] == got[1]


_DTYPES = ["float32", "float64", "bfloat16", "float16", None]


@pytest.mark.parametrize("x_dt", _DTYPES[:4])
def test_normalisations_mixed_dtype_checks(x_dt):
    """ATen's ``check_mixed_data_type``: float32 parameters with a float16/bfloat16 input,
    else every parameter of the input's dtype; the messages of each case."""
    def run(L, fn, w_dt, b_dt, n):
        x = L.arange(24.).reshape(2, 3, 4).to(getattr(L, x_dt))
        w = None if w_dt is None else L.linspace(0.5, 1.5, n, dtype=getattr(L, w_dt))
        b = None if b_dt is None else L.linspace(-1, 1, n, dtype=getattr(L, b_dt))
        return _outcome(lambda: (lambda y: (str(y.dtype), y.double().sum().item()))(
            fn(L, x, w, b)))

    cases = {
        "layer_norm": (4, lambda L, x, w, b: L.nn.functional.layer_norm(x, (4,), w, b)),
        "group_norm": (3, lambda L, x, w, b: L.nn.functional.group_norm(x, 3, w, b)),
        "batch_norm_train": (3, lambda L, x, w, b: L.nn.functional.batch_norm(
            x, None, None, w, b, training=True)),
        "batch_norm_eval": (3, lambda L, x, w, b: L.nn.functional.batch_norm(
            x, L.zeros(3, dtype=(w if w is not None else x).dtype),
            L.ones(3, dtype=(w if w is not None else x).dtype), w, b)),
    }
    for (name, (n, fn)), w_dt, b_dt in itertools.product(cases.items(), _DTYPES, _DTYPES):
        want, got = run(torch, fn, w_dt, b_dt, n), run(ember, fn, w_dt, b_dt, n)
        if isinstance(want[1], float):
            assert want[0] == got[0], (name, w_dt, b_dt)
            assert got[1] == pytest.approx(want[1], rel=1e-2, abs=1e-2), (name, w_dt, b_dt)
        else:
            assert want == got, (name, w_dt, b_dt)


def test_float16_group_norm_computes_in_float_and_rounds_once():
    out = []
    for L in (torch, ember):
        g = L.Generator().manual_seed(0)
        x = (L.randn(4, 6, 5, 5, generator=g) * 3 + 1).half()
        w, b = L.randn(6, generator=g), L.randn(6, generator=g)
        out.append([L.nn.functional.group_norm(x, 3, *a).double().sum().item()
                    for a in ((w, b), (w.half(), b.half()), (None, None))])
    assert out[0] == out[1]


def _dynamic_linear(L, per_channel):
    L.manual_seed(0)
    L.set_default_dtype(L.float64)
    try:
        m = L.nn.Sequential(L.nn.Linear(4, 3))
        spec = ({L.nn.Linear: L.ao.quantization.per_channel_dynamic_qconfig} if per_channel
                else {L.nn.Linear})
        return L.ao.quantization.quantize_dynamic(m, spec, dtype=L.qint8)
    finally:
        L.set_default_dtype(L.float32)


@pytest.mark.parametrize("per_channel", [False, True])
def test_packed_linear_weight_keeps_float32_scales(per_channel):
    """fbgemm packs a weight's scales as float: its unpacked weight reports them so."""
    got = []
    for L in (torch, ember):
        w = _dynamic_linear(L, per_channel)[0].weight()
        got.append(w.q_per_channel_scales().tolist() if per_channel else w.q_scale())
    assert got[0] == got[1]


@pytest.mark.parametrize("x_dt", ["float32", "float64", "float16", "bfloat16"])
def test_linear_dynamic_wants_float_input_and_bias(x_dt):
    got = []
    for L in (torch, ember):
        q = _dynamic_linear(L, False)
        x = L.ones(2, 4, dtype=getattr(L, x_dt))
        got.append(_outcome(lambda q=q, x=x: q(x)))
        q[0].set_weight_bias(q[0].weight(), q[0].bias().float())     # a float32 bias
        got.append(_outcome(lambda q=q, x=x: q(x).dtype is not x.dtype))
    assert got[:2] == got[2:]


_TIE = -0.8679199028200871     # rounds to a float32 that is a float16 tie: two roundings differ


@pytest.mark.parametrize("path", ["to", "half", "tensor_list", "tensor_ndarray", "full",
                                  "copy_", "iadd", "setitem", "fill_", "new_tensor",
                                  "module_half"])
def test_float64_to_float16_rounds_through_float32(path):
    """``c10::Half`` is made from a float: torch's double -> half conversions round twice."""
    import numpy as np

    def run(L):
        d = L.tensor([_TIE, 1.0000000298023224], dtype=L.float64)
        h = L.zeros(2, dtype=L.float16)
        if path == "to":
            return d.to(L.float16)
        if path == "half":
            return d.half()
        if path == "tensor_list":
            return L.tensor([_TIE], dtype=L.float16)
        if path == "tensor_ndarray":
            return L.tensor(np.array([_TIE]), dtype=L.float16)
        if path == "full":
            return L.full((2,), _TIE, dtype=L.float16)
        if path == "copy_":
            return h.copy_(d)
        if path == "iadd":
            h += d
            return h
        if path == "setitem":
            h[0] = _TIE
            return h
        if path == "fill_":
            return h.fill_(_TIE)
        if path == "new_tensor":
            return d.new_tensor([_TIE], dtype=L.float16)
        m = L.nn.Module()
        m.w = L.nn.Parameter(d.clone())
        return m.half().w.detach()
    assert run(torch).tolist() == run(ember).tolist()
    assert run(torch)[0].item() == -0.8681640625


def _ties(L, dtype, n=40):
    """Doubles just beside the midpoint of two neighbouring ``dtype`` values (a float32
    midpoint): converted through float32 they land on a tie."""
    import random
    rng = random.Random(0)
    out = []
    for i in range(n):
        h = L.tensor(rng.uniform(-2, 2)).to(dtype)
        nxt = L.nextafter(h.float(), L.tensor(9.0)).to(dtype)
        step = 1
        while nxt.item() == h.item():       # (bfloat16: step in float32 until it moves)
            step *= 2
            nxt = (h.float() + step * 2.0 ** -24 * max(abs(h.item()), 1.0)).to(dtype)
        m = (h.item() + nxt.item()) / 2
        out.append(m + (1 if i % 2 else -1) * abs(m) * 2.0 ** -30)
    return out


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("path", ["add", "rsub", "clamp", "where", "full_like", "add_alpha",
                                  "scalar_tensor", "as_tensor", "masked_fill", "tensor"])
def test_python_floats_reach_reduced_types_through_float32(dtype, path):
    def run(L):
        dt = getattr(L, dtype)
        z, o = L.zeros(1, dtype=dt), L.ones(1, dtype=dt)
        fns = {
            "add": lambda v: z + v, "rsub": lambda v: v - z,
            "clamp": lambda v: L.clamp(o * 3, max=v), "where": lambda v: L.where(o > 0, v, z),
            "full_like": lambda v: L.full_like(z, v), "add_alpha": lambda v: z.add(o, alpha=v),
            "scalar_tensor": lambda v: L.scalar_tensor(v, dtype=dt),
            "as_tensor": lambda v: L.as_tensor([v], dtype=dt),
            "masked_fill": lambda v: z.masked_fill(o > 0, v),
            "tensor": lambda v: L.tensor(v, dtype=dt)}
        return [fns[path](v).item() for v in _ties(L, dt)]
    assert run(torch) == run(ember)

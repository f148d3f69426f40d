"""Differences from torch found by running real programs, each compared with torch itself."""

import zlib

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")


def _bits_equal(t, e):
    a = t.detach().float().numpy()
    b = e.detach().float().numpy()
    assert a.shape == b.shape
    assert np.array_equal(a, b, equal_nan=True), np.argwhere(a != b)[:5]


# ------------------------------------------------------------------ half-precision softmax


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
@pytest.mark.parametrize(
    "shape,dim",
    [
        ((64, 37), 0),
        ((64, 37), 1),
        ((5, 37, 9), 1),
        ((8, 200), 1),
        ((3, 40, 17), 2),
        ((300, 5), 0),
        ((4, 3, 100), 0),
        ((7, 20), 1),
        ((2, 33), -1),
        ((70, 3, 2), 0),
        ((16,), 0),
    ],
)
def test_reduced_softmax_bits(fn, dt, shape, dim):
    rng = np.random.default_rng(zlib.crc32(repr((fn, dt, shape, dim)).encode()))
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    t = getattr(torch, fn)(torch.from_numpy(x).to(getattr(torch, dt)), dim)
    e = getattr(ember, fn)(ember.tensor(x).to(getattr(ember, dt)), dim)
    assert str(e.dtype) == str(t.dtype)
    _bits_equal(t, e)


def test_reduced_softmax_special_values():
    x = np.random.default_rng(0).standard_normal((40, 21)).astype(np.float32)
    x[3, 4], x[10, 7], x[11, 0] = np.inf, -np.inf, np.nan
    for fn in ("softmax", "log_softmax"):
        for dim in (0, 1):
            for dt in ("float16", "bfloat16"):
                t = getattr(torch, fn)(torch.from_numpy(x).to(getattr(torch, dt)), dim)
                e = getattr(ember, fn)(ember.tensor(x).to(getattr(ember, dt)), dim)
                _bits_equal(t, e)


def test_reduced_softmax_dtype_argument_and_transposed():
    x = np.random.default_rng(1).standard_normal((33, 40)).astype(np.float32)
    _bits_equal(
        torch.softmax(torch.from_numpy(x), 0, dtype=torch.half),
        ember.softmax(ember.tensor(x), 0, dtype=ember.half),
    )
    _bits_equal(
        torch.log_softmax(torch.from_numpy(x).bfloat16().t(), 1),
        ember.log_softmax(ember.tensor(x).bfloat16().t(), 1),
    )


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dim", [0, 1])
def test_float8_softmax_message(fn, dim):
    msgs = []
    for m in (torch, ember):
        with pytest.raises(NotImplementedError) as ei:
            getattr(m, fn)(m.zeros(2, 3).to(m.float8_e4m3fn), dim)
        msgs.append(str(ei.value))
    assert msgs[0] == msgs[1]


# ------------------------------------------------------------------ argument-parser errors

_PARSER_CASES = [
    "x.std(unbiased=False, correction=1)",
    "x.var(unbiased=False, correction=1)",
    "x.std(1, unbiased=False, correction=1)",
    "x.std((0, 1), unbiased=False, correction=1)",
    "torch.std(x, 1, unbiased=False, correction=1)",
    "torch.var_mean(x, 1, unbiased=False, correction=1)",
    "x.std(unbiased=True, keepdim=True)",
    "torch.std(x, unbiased=True, keepdim=True)",
    "torch.std_mean(x, unbiased=True, keepdim=True)",
    "x.var(1, unbiased=False, keepdim=True)",
    "x.std(True)",
    "x.cumsum()",
    "torch.cumsum(x)",
    "x.cumprod()",
    "torch.min(x, 1, torch.ones(3))",
    "torch.max(x, 1, 2.5)",
    "torch.min(x, 1, None)",
    "torch.zeros(2, (3,))",
    "torch.ones(2, 3.0)",
    "torch.empty(2, 3, [1])",
    "torch.randn(2, (3,))",
]


@pytest.mark.parametrize("code", _PARSER_CASES)
def test_parser_errors(code):
    out = []
    for m in (torch, ember):
        x = m.ones(3, 4)
        try:
            r = eval(code, {"torch": m, "x": x})
            out.append(("ok", tuple(r.shape) if hasattr(r, "shape") else None))
        except Exception as e:  # noqa: BLE001
            out.append((type(e).__name__, str(e)))
    assert out[0] == out[1]


# ------------------------------------------------------------------ batch_norm, empty input


def _bn_empty(m, training):
    F = m.nn.functional
    x = m.randn(0, 3, requires_grad=True)
    w, b = m.ones(4, requires_grad=True), m.zeros(4, requires_grad=True)
    rm, rv = m.zeros(4), m.ones(4)
    y = F.batch_norm(x, rm, rv, w, b, training=training)
    names = [type(f[0]).__name__ for f in y.grad_fn.next_functions]
    plain = F.batch_norm(m.randn(0, 3, 2), m.zeros(4), m.ones(4), training=training)
    return (
        tuple(y.shape),
        type(y.grad_fn).__name__,
        names,
        rm._version,
        rv._version,
        tuple(plain.shape),
        type(plain.grad_fn).__name__,
    )


@pytest.mark.parametrize("training", [False, True])
def test_batch_norm_empty_input(training):
    assert _bn_empty(torch, training) == _bn_empty(ember, training)


def test_batch_norm_empty_input_errors():
    msgs = []
    for m in (torch, ember):
        with pytest.raises(IndexError) as ei:
            m.nn.functional.batch_norm(m.randn(0, 3), m.zeros(4), m.ones(4), m.ones(0))
        msgs.append(str(ei.value))
    assert msgs[0] == msgs[1]


# ------------------------------------------------------------------ hardswish, second order

_HS_X = [-5.0, -3.0, -2.5, -1.0, 0.0, 0.3, 2.9, 3.0, 4.0]


@pytest.mark.parametrize("dt", ["float32", "float64", "float16"])
@pytest.mark.parametrize("fill", [1.7, float("inf")])
def test_hardswish_double_backward(dt, fill):
    res = []
    for m in (torch, ember):
        x = m.tensor(_HS_X).to(getattr(m, dt)).requires_grad_()
        g0 = m.full_like(x, fill).requires_grad_()
        y = m.nn.functional.hardswish(x)
        (g,) = m.autograd.grad(y, x, g0, create_graph=True)
        gx, gg = m.autograd.grad(g.sum(), (x, g0))
        res.append((type(g.grad_fn).__name__, g, gx, gg))
    assert res[0][0] == res[1][0] == "HardswishBackwardBackward0"
    for a, b in zip(res[0][1:], res[1][1:]):
        _bits_equal(a, b)


# ------------------------------------------------------------------ submodule reachability

_REACH = r"""
import sys
m = __import__(sys.argv[1])
out = []
for name in ("prune", "parametrize", "parametrizations", "rnn", "stateless", "fusion"):
    try:
        getattr(m.nn.utils, name)
        out.append(name)
    except AttributeError:
        out.append("-")
import importlib
importlib.import_module(sys.argv[1] + ".nn.utils.prune")
out.append(type(m.nn.utils.prune).__name__)
print(out)
"""


def test_nn_utils_prune_needs_its_import():
    import os
    import subprocess
    import sys

    res = [
        subprocess.run(
            [sys.executable, "-c", _REACH, name],
            capture_output=True,
            text=True,
            env=os.environ.copy(),
            check=True,
        ).stdout
        for name in ("torch", "ember")
    ]
    assert res[0] == res[1]
    assert res[0].startswith("['-'")

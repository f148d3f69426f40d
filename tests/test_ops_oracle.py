"""Ops against torch 2.13: values, dtypes, shapes, grads, grad_fn names and errors."""

from __future__ import annotations

import numpy as np
import pytest

from .helpers import NC, Raw, arr, check, ember, errors_alike, torch

FLOATS = ("float32", "float64")
ALL_DT = ("float32", "float64", "int64", "int32", "bool")

BINARY = {
    "add": lambda t, a, b: t.add(a, b),
    "sub": lambda t, a, b: t.sub(a, b),
    "mul": lambda t, a, b: t.mul(a, b),
    "div": lambda t, a, b: t.div(a, b),
    "true_divide": lambda t, a, b: t.true_divide(a, b),
    "pow": lambda t, a, b: t.pow(a.abs() + 0.5 if a.dtype.is_floating_point else a, b),
    "+": lambda t, a, b: a + b,
    "-": lambda t, a, b: a - b,
    "*": lambda t, a, b: a * b,
    "/": lambda t, a, b: a / b,
    "eq": lambda t, a, b: t.eq(a, b),
    "ne": lambda t, a, b: a != b,
    "lt": lambda t, a, b: a < b,
    "le": lambda t, a, b: t.le(a, b),
    "gt": lambda t, a, b: a.gt(b),
    "ge": lambda t, a, b: a >= b,
    "add_alpha": lambda t, a, b: t.add(a, b, alpha=2),
    "sub_alpha": lambda t, a, b: a.sub(b, alpha=3),
}

SHAPE_PAIRS = [((), ()), ((3,), (3,)), ((2, 3), (2, 3)), ((3, 1), (1, 4)), ((4,), (2, 4)),
               ((2, 3), ()), ((), (2, 1)), ((2, 1, 3), (4, 1))]


@pytest.mark.parametrize("name", list(BINARY))
@pytest.mark.parametrize("shapes", SHAPE_PAIRS, ids=str)
def test_binary_float(name, shapes):
    a, b = arr(shapes[0], "float64", 1), arr(shapes[1], "float64", 2, positive=True)
    check(BINARY[name], a, b)


@pytest.mark.parametrize("name", list(BINARY))
@pytest.mark.parametrize("dts", [("float32", "float64"), ("int64", "float32"), ("int32", "int64"),
                                 ("bool", "int64"), ("bool", "bool"), ("int64", "int64"),
                                 ("uint8", "int8"), ("float16", "float32"), ("int32", "float16")],
                         ids=str)
def test_binary_dtypes(name, dts):
    a, b = arr((2, 3), dts[0], 3), arr((2, 3), dts[1], 4, positive=True)
    check(BINARY[name], a, b)


@pytest.mark.parametrize("name", list(BINARY))
@pytest.mark.parametrize("scalar", [2, 2.5, True, -3])
@pytest.mark.parametrize("dt", ["float32", "int64", "int32", "bool", "uint8"])
def test_binary_scalar(name, scalar, dt):
    a = arr((3,), dt, 5, positive=True)
    check(lambda t, x: BINARY[name](t, x, scalar), a)


@pytest.mark.parametrize("name", ["+", "-", "*", "/", "eq", "lt", "ge"])
def test_binary_noncontiguous(name):
    check(BINARY[name], NC(arr((3, 4), seed=1)), NC(arr((3, 4), seed=2, positive=True)))
    check(BINARY[name], NC(arr((3, 4), seed=1)), arr((4,), seed=2, positive=True))


REFLECTED = {
    "radd": lambda t, x: 2 + x,
    "rsub": lambda t, x: 1 - x,
    "rsub_f": lambda t, x: 1.5 - x,
    "rmul": lambda t, x: 2 * x,
    "rdiv": lambda t, x: 2 / x,
    "rpow": lambda t, x: 2 ** x,
    "rpow_f": lambda t, x: 1.5 ** x,
    "neg": lambda t, x: -x,
    "pos": lambda t, x: +x,
    "abs": lambda t, x: abs(x),
    "pow2": lambda t, x: x ** 2,
    "pow3": lambda t, x: x.pow(3),
    "pow_half": lambda t, x: x.abs() ** 0.5,
    "pow0": lambda t, x: x ** 0,
    "pow_neg": lambda t, x: (x.abs() + 1) ** -1,
    "sub1": lambda t, x: x - 1,
    "add1": lambda t, x: x + 1,
    "div2": lambda t, x: x / 2,
    "mul2": lambda t, x: x * 2,
    "rsub_fn": lambda t, x: t.rsub(x, 2),
    "rsub_tensor": lambda t, x: t.rsub(x, x * 3),
}


@pytest.mark.parametrize("name", list(REFLECTED))
@pytest.mark.parametrize("dt", ["float32", "float64", "int64", "bool"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)], ids=str)
def test_reflected(name, dt, shape):
    check(REFLECTED[name], arr(shape, dt, 7, positive=True))


UNARY = {
    "neg": lambda t, x: t.neg(x),
    "abs": lambda t, x: t.abs(x),
    "exp": lambda t, x: t.exp(x),
    "log": lambda t, x: t.log(x.abs() + 0.1) if x.dtype.is_floating_point else t.log(x),
    "sqrt": lambda t, x: x.abs().sqrt() if x.dtype.is_floating_point else t.sqrt(x),
    "sin": lambda t, x: t.sin(x),
    "cos": lambda t, x: x.cos(),
    "tanh": lambda t, x: t.tanh(x),
    "sigmoid": lambda t, x: t.sigmoid(x),
    "relu": lambda t, x: t.relu(x),
    "reciprocal": lambda t, x: t.reciprocal(x),
    "sum": lambda t, x: t.sum(x),
    "sum0": lambda t, x: x.sum(0) if x.ndim else x.sum(),
    "sum_dims": lambda t, x: x.sum(dim=(0, 1)) if x.ndim > 1 else x.sum(-1),
    "sum_keep": lambda t, x: x.sum(-1, keepdim=True),
    "sum_dtype": lambda t, x: x.sum(dtype=t.float64),
    "mean": lambda t, x: x.mean(),
    "mean0": lambda t, x: x.mean(0) if x.ndim else x.mean(),
    "mean_keep": lambda t, x: x.mean(dim=-1, keepdim=True),
    "clamp": lambda t, x: x.clamp(-0.5, 0.5),
    "clamp_min": lambda t, x: t.clamp(x, min=0),
    "clamp_max": lambda t, x: x.clamp(max=0.3),
    "clone": lambda t, x: x.clone(),
    "square": lambda t, x: x * x,
}


@pytest.mark.parametrize("name", list(UNARY))
@pytest.mark.parametrize("dt", ALL_DT)
@pytest.mark.parametrize("shape", [(), (4,), (2, 3)], ids=str)
def test_unary(name, dt, shape):
    check(UNARY[name], arr(shape, dt, 11))


@pytest.mark.parametrize("name", list(UNARY))
def test_unary_noncontiguous(name):
    check(UNARY[name], NC(arr((3, 4), "float64", 12)))


INPLACE = {
    "add_": lambda x, o: x.add_(o),
    "sub_": lambda x, o: x.sub_(o),
    "mul_": lambda x, o: x.mul_(o),
    "div_": lambda x, o: x.div_(o),
    "iadd": lambda x, o: x.__iadd__(o),
    "imul": lambda x, o: x.__imul__(o),
    "isub": lambda x, o: x.__isub__(o),
    "itruediv": lambda x, o: x.__itruediv__(o),
    "pow_": lambda x, o: x.abs_().pow_(2),
}


@pytest.mark.parametrize("name", list(INPLACE))
@pytest.mark.parametrize("dt", ["float32", "int64", "bool"])
@pytest.mark.parametrize("other", ["tensor", 2, 1.5])
def test_inplace_forms(name, dt, other):
    def fn(t, x):
        o = t.ones(3, dtype=t.float32) * 2 if other == "tensor" else other
        y = x.clone()
        out = INPLACE[name](y, o)
        assert out is y
        return y
    check(fn, arr((3,), dt, 3, positive=True), grad=False)


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "pow", "exp", "sin", "sum",
                                  "mean", "eq", "lt"])
def test_out_form(name):
    def fn(t, x, y):
        f = getattr(t, name)
        args = (x,) if name in ("exp", "sin", "sum", "mean") else (x, y)
        dt = t.bool if name in ("eq", "lt") else t.float32
        out = t.empty(0, dtype=dt)
        r = f(*args, out=out)
        assert r is out
        return out
    check(fn, arr((2, 3), seed=1, positive=True), arr((2, 3), seed=2), grad=False)


def test_out_requires_grad_error():
    errors_alike(lambda t: t.mul(t.ones(2, requires_grad=True), 2, out=t.empty(2)))


@pytest.mark.parametrize("shape_a,shape_b", [
    ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((5, 2, 3), (3,)),
    ((5, 2, 3), (3, 4)), ((3,), (5, 3, 4)), ((5, 2, 3), (5, 3, 4)), ((2, 3), (5, 3, 4)),
    ((2, 1, 2, 3), (5, 3, 4)), ((4, 5, 2, 3), (4, 1, 3, 2)),
], ids=str)
@pytest.mark.parametrize("dt", FLOATS)
def test_matmul(shape_a, shape_b, dt):
    a, b = arr(shape_a, dt, 1), arr(shape_b, dt, 2)
    check(lambda t, x, y: t.matmul(x, y), a, b)
    check(lambda t, x, y: x @ y, a, b)


def test_matmul_noncontiguous():
    check(lambda t, x, y: x @ y, NC(arr((3, 2))), NC(arr((4, 3))))
    check(lambda t, x, y: t.mm(x, y), NC(arr((3, 2))), arr((2, 5)))


@pytest.mark.parametrize("fn", [
    lambda t: t.ones(2, 3) @ t.ones(2, 3),
    lambda t: t.ones(3) @ t.ones(4),
    lambda t: t.ones(2, 3) @ t.ones(4),
    lambda t: t.ones(3) @ t.ones(4, 2),
    lambda t: t.ones(5, 2, 3) @ t.ones(5, 2, 3),
    lambda t: t.ones(5, 2, 3) @ t.ones(4),
    lambda t: t.ones(5, 2, 3) @ t.ones(4, 3),
    lambda t: t.ones(2, 2, 3) @ t.ones(3, 3, 2),
    lambda t: t.ones(()) @ t.ones(3),
    lambda t: t.ones(2, 3) @ t.ones(3, 2, dtype=t.float64),
    lambda t: t.ones(3) @ t.ones(3, dtype=t.float64),
    lambda t: t.ones(2, 3) @ t.ones(3, dtype=t.float64),
    lambda t: t.ones(2, 2, 3) @ t.ones(2, 3, 2, dtype=t.float64),
    lambda t: t.mm(t.ones(3), t.ones(3, 2)),
    lambda t: t.mm(t.ones(2, 3), t.ones(2, 3)),
    lambda t: t.bmm(t.ones(2, 2, 3), t.ones(2, 2, 3)),
    lambda t: t.bmm(t.ones(2, 2, 3), t.ones(3, 3, 2)),
    lambda t: t.mv(t.ones(2, 3), t.ones(2)),
    lambda t: t.dot(t.ones(3), t.ones(2)),
    lambda t: t.dot(t.ones(3), t.ones(3, dtype=t.float64)),
    lambda t: t.ones(2, 3, dtype=t.int64) @ t.ones(3, 2),
])
def test_matmul_errors(fn):
    errors_alike(fn)


def test_matmul_int():
    check(lambda t, x, y: x @ y, arr((2, 3), "int64"), arr((3, 2), "int64"))
    check(lambda t, x, y: x @ y, arr((3,), "int64"), arr((3,), "int64"))


@pytest.mark.parametrize("fn", [
    lambda t: t.ones(3) + t.ones(4),
    lambda t: t.ones(2, 3) * t.ones(2, 4),
    lambda t: t.ones(2, 3).add_(t.ones(2, 2, 3)),
    lambda t: t.ones(3, dtype=t.int64).add_(1.5),
    lambda t: t.ones(3, dtype=t.int64).mul_(t.ones(3)),
    lambda t: t.ones(3, dtype=t.bool).add_(1),
    lambda t: t.ones(3, dtype=t.int64).div_(2),
    lambda t: t.ones(3, dtype=t.bool) - t.ones(3, dtype=t.bool),
    lambda t: -t.ones(3, dtype=t.bool),
    lambda t: t.ones(3, dtype=t.int64) ** -1,
    lambda t: t.ones(3).sum(2),
    lambda t: t.ones(3).mean(-2),
    lambda t: t.ones(3, dtype=t.int64).mean(),
    lambda t: t.ones(2, 3).sum((0, 0)),
    lambda t: t.ones(3).clamp(),
    lambda t: t.ones(3) + "a",
    lambda t: t.add(t.ones(3), t.ones(3), alpha=1.5).sum() + t.add(
        t.ones(3, dtype=t.int64), 1, alpha=1.5),
])
def test_op_errors(fn):
    errors_alike(fn)


DIFF_OPS = {
    "add": (lambda x, y: x + y, 2), "sub": (lambda x, y: x - y, 2),
    "mul": (lambda x, y: x * y, 2), "div": (lambda x, y: x / (y.abs() + 1), 2),
    "pow": (lambda x, y: (x.abs() + 0.5) ** y, 2), "pow_s": (lambda x: x ** 3, 1),
    "rpow": (lambda x: 2 ** x, 1), "rsub": (lambda x: 1 - x, 1), "rdiv": (lambda x: 2 / (x + 3), 1),
    "neg": (lambda x: -x, 1), "abs": (lambda x: x.abs(), 1), "exp": (lambda x: x.exp(), 1),
    "log": (lambda x: (x.abs() + 0.5).log(), 1), "sqrt": (lambda x: (x.abs() + 0.5).sqrt(), 1),
    "sin": (lambda x: x.sin(), 1), "cos": (lambda x: x.cos(), 1), "tanh": (lambda x: x.tanh(), 1),
    "sigmoid": (lambda x: x.sigmoid(), 1), "relu": (lambda x: x.relu(), 1),
    "sum": (lambda x: x.sum(), 1), "sum0": (lambda x: x.sum(0), 1),
    "mean": (lambda x: x.mean(), 1), "mean1": (lambda x: x.mean(1, keepdim=True), 1),
    "matmul": (lambda x, y: x @ y.t(), 2), "clamp": (lambda x: x.clamp(-0.5, 0.5), 1),
    "reciprocal": (lambda x: (x + 3).reciprocal(), 1),
}


@pytest.mark.parametrize("name", list(DIFF_OPS))
def test_gradcheck(name):
    f, n = DIFF_OPS[name]
    rng = np.random.default_rng(0)
    data = [rng.uniform(-1, 1, (2, 3)) for _ in range(n)]
    # keep clamp's and relu's, abs's kinks away from the inputs
    data = [np.where(np.abs(d) < 0.1, 0.3, d) for d in data]
    data = [np.where(np.abs(np.abs(d) - 0.5) < 0.05, 0.7, d) for d in data]
    e_in = [ember.tensor(d, requires_grad=True) for d in data]
    assert ember.autograd.gradcheck(f, e_in)
    assert ember.autograd.gradgradcheck(f, e_in)
    t_in = [torch.tensor(d, requires_grad=True) for d in data]
    f(*t_in).sum().backward()
    f(*e_in).sum().backward()
    for a, b in zip(t_in, e_in):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-12, atol=1e-12)


def test_gradcheck_detects_wrong_grad():
    class Bad(ember.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = ember.tensor([1.0, 2.0], dtype=ember.float64, requires_grad=True)
    assert not ember.autograd.gradcheck(Bad.apply, (x,), raise_exception=False)
    with pytest.raises(RuntimeError):
        ember.autograd.gradcheck(Bad.apply, (x,))


def test_comparisons_give_bool():
    for name in ("eq", "ne", "lt", "le", "gt", "ge"):
        check(lambda t, x, y, n=name: getattr(t, n)(x, y), arr((3, 1), seed=1), arr((1, 4), seed=2))
        check(lambda t, x, n=name: getattr(x, n)(0.5), arr((3,), seed=1))
        check(lambda t, x, n=name: getattr(x, n + "_")(0.5), arr((3,), seed=1), grad=False)


def test_scalar_raw():
    check(lambda t, x, s: x * s, arr((3,)), Raw(3))

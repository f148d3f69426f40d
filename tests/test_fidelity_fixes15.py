"""Differences from torch closed in the fifteenth fidelity pass (what ``tools/fuzz_ops.py``
found), each case compared with torch: bfloat16 gradients of cumprod, logcumsumexp, div,
pow, xlogy, logaddexp2 and ldexp composed of bfloat16 operations (and cumprod's path for
zeros), float16/bfloat16 logcumsumexp accumulated in float, and the rounding of complex
rsqrt, expm1, prod, addcdiv, pow of two tensors and cross.
"""

import math

import numpy as np
import pytest

import ember

from .helpers import outcome_of, same_outcome, torch


def _same(fn, strides=True):
    same_outcome(outcome_of(torch, fn), outcome_of(ember, fn), strides)


# ------------------------------------------------------------- bfloat16 gradients

_RNG = np.random.default_rng(1)
_A = (_RNG.standard_normal(64) * 2).astype(np.float32)
_B = (_RNG.standard_normal(64) * 2).astype(np.float32)
_POS = np.abs(_A) + 0.1

BINARY_BACKWARD = {
    "cumprod": (_A, _B, lambda L, x, y: L.cumprod(x.reshape(8, 8), 1)),
    "logcumsumexp": (_A, _B, lambda L, x, y: L.logcumsumexp(x.reshape(8, 8).T, 0)),
    "div": (_A, _B, lambda L, x, y: L.div(x, y)),
    "true_divide": (_A, _B, lambda L, x, y: L.true_divide(x, y)),
    "div by a number": (_A, _B, lambda L, x, y: x / 3.0 + y),
    "pow": (_POS, _B, lambda L, x, y: L.pow(x, y)),
    "pow of a number exponent": (_A, _B, lambda L, x, y: L.pow(x, -2) + y),
    "xlogy": (_POS, _POS, lambda L, x, y: L.xlogy(x, y)),
    "xlogy of a number self": (_POS, _POS, lambda L, x, y: L.xlogy(2.5, y) + x),
    "xlogy of a number other": (_POS, _POS, lambda L, x, y: L.xlogy(x, 2.5) + y),
    "logaddexp2": (_A, _B, lambda L, x, y: L.logaddexp2(x, y)),
    "ldexp": (_A, _B, lambda L, x, y: L.ldexp(x, y)),
}


@pytest.mark.parametrize("case", BINARY_BACKWARD)
def test_bfloat16_backward_composed_in_the_type(case):
    # derivatives.yaml's formulas run as bfloat16 ops, each rounding to bfloat16
    a, b, f = BINARY_BACKWARD[case]

    def fn(L):
        x = L.from_numpy(a.copy()).bfloat16().requires_grad_()
        y = L.from_numpy(b.copy()).bfloat16().requires_grad_()
        out = f(L, x, y)
        g = L.from_numpy(np.linspace(-3, 3, out.numel()).astype(np.float32))
        out.backward(g.reshape(out.shape).bfloat16())
        return x.grad, y.grad
    _same(fn)


# ------------------------------------------------------------- float16/bfloat16 logcumsumexp

@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
@pytest.mark.parametrize("dim", [0, 1])
def test_reduced_logcumsumexp_accumulates_in_float(dt, dim):
    # logcumsumexp_cpu_kernel: the running value stays float (acc_type), glibc's expf and
    # log1pf; only each output is rounded to the element type
    rng = np.random.default_rng(3)
    a = (rng.standard_normal((6, 7)) * 5).astype(np.float32)
    a[1, 2], a[2, 3], a[3, 1], a[4, 4] = np.inf, -np.inf, np.nan, 30.0

    def fn(L):
        x = L.from_numpy(a).to(getattr(L, dt)).requires_grad_()
        y = L.logcumsumexp(x.T if dim else x, dim)
        y.backward(L.from_numpy(a[::-1].copy()).nan_to_num(0.5).to(getattr(L, dt)).reshape(y.shape))
        return y, x.grad
    _same(fn)
    _same(lambda L: (L.logcumsumexp(L.from_numpy(a[0]).to(getattr(L, dt)), 0),
                     L.logcumsumexp(L.from_numpy(a[:1, :4]).to(getattr(L, dt)).expand(3, 4), 0)))


# ------------------------------------------------------------- complex rsqrt

def _complex(L, shape, dt, layout, seed=7):
    rng = np.random.default_rng(seed)
    a = ((rng.standard_normal(shape) + 1j * rng.standard_normal(shape)) * 3).astype(dt)
    t = L.from_numpy(a)
    if layout == "transposed":
        return t.transpose(0, -1)
    if layout == "sliced":
        return t[::2]
    return t


LAYOUTS = ["contiguous", "transposed", "sliced"]


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", [(2, 4, 4), (37, 3), (64, 2)])
def test_complex_rsqrt_is_the_reciprocal_of_sqrt(dt, layout, shape):
    # Vectorized<c10::complex<float>>::rsqrt is sqrt().reciprocal(); the scalar tail 1 / sqrt
    _same(lambda L: L.rsqrt(_complex(L, shape, dt, layout)))


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_complex_expm1_is_c10s_formula(dt, layout):
    # c10's expm1(z): expm1(x) * cos(y) - 2 * sin(y / 2)^2 (contracted) + i exp(x) * sin(y)
    _same(lambda L: L.expm1(_complex(L, (64, 3), dt, layout)))


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_expm1_of_special_values(dt):
    z = [complex(math.inf, 0), complex(-math.inf, 1), complex(math.nan, 1),
         complex(1, math.inf), 0j, complex(100, 1), complex(-1e-8, 1e-8)]
    _same(lambda L: L.expm1(L.tensor(z, dtype=getattr(L, dt))))


# ------------------------------------------------------------- complex prod

def _unit(L, shape, dt, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return L.from_numpy((a / np.abs(a)).astype(dt))


@pytest.mark.parametrize("n", [1, 2, 5, 8, 9, 15, 16, 17, 31, 64, 100, 197])
def test_complex128_prod_in_torchs_order(n):
    # binary_kernel_reduce_vec: Vectorized products (each rounded) in four accumulators, the
    # lanes and the rest of the row by c10::complex's contracted scalar multiply
    _same(lambda L: (L.prod(_unit(L, (n,), "complex128", n)),
                     L.prod(_unit(L, (3, n), "complex128", n), 1, keepdim=True)))


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7, 11, 15])
def test_complex64_prod_of_short_rows(n):
    # rows shorter than the vectors: c10::complex's scalar multiply, contracted
    _same(lambda L: (L.prod(_unit(L, (n,), "complex64", n)),
                     L.prod(_unit(L, (3, n), "complex64", n), -1, keepdim=True)))


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
@pytest.mark.parametrize("cols", [3, 17, 50])
def test_complex_prod_down_columns(dt, cols):
    # vectorized_outer_reduction: runs of four vectors of outputs multiply as vectors, each
    # product rounded; the remaining columns one by one, contracted
    _same(lambda L: L.prod(_unit(L, (cols, 9), dt, cols).T, 1))


# ------------------------------------------------------------- complex addcdiv

@pytest.mark.parametrize("shape", [(3, 1), (2, 4, 4), (37, 2), (64, 3)])
@pytest.mark.parametrize("value", [1, 0.3])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_complex_addcdiv_divides_as_torch(shape, value, layout):
    # addcdiv_cpu_kernel: self + value * tensor1 / tensor2, the quotient c10::complex's
    _same(lambda L: L.addcdiv(_complex(L, shape, "complex64", layout, 1),
                              _complex(L, shape, "complex64", layout, 2),
                              _complex(L, shape, "complex64", layout, 3), value=value))


def test_complex_addcdiv_of_a_real_self():
    # the fuzzer's case: float64 self and tensor1, a complex64 tensor2 (complex128 result)
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((2, 3, 1))
    c = (rng.standard_normal((3, 1)) + 1j * rng.standard_normal((3, 1))).astype(np.complex64)
    _same(lambda L: L.from_numpy(a).expand(3, 1).addcdiv(L.from_numpy(b), L.from_numpy(c)))


# ------------------------------------------------------------- complex pow of two tensors

POW_OPERANDS = {
    "complex64 ** complex64": ("complex64", "complex64"),
    "complex64 ** bool": ("complex64", "bool"),
    "complex64 ** int32": ("complex64", "int32"),
    "float32 ** complex64": ("float32", "complex64"),
    "complex128 ** float64": ("complex128", "float64"),
}


def _operand(L, shape, dt, seed):
    rng = np.random.default_rng(seed)
    if dt == "bool":
        return L.from_numpy(rng.random(shape) < 0.5)
    if dt == "int32":
        return L.from_numpy(rng.integers(-3, 4, shape).astype(np.int32))
    a = rng.standard_normal(shape) * 2
    if dt.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return L.from_numpy(a.astype(dt))


@pytest.mark.parametrize("case", POW_OPERANDS)
def test_complex_pow_of_tensors_is_cpow(case):
    # std::pow of std::complex (glibc's cpow) element by element, x ** 1 and x ** 2 included
    b, e = POW_OPERANDS[case]
    _same(lambda L: (L.pow(_operand(L, (4, 5), b, 1), _operand(L, (4, 5), e, 2)),
                     _operand(L, (1, 5), e, 3).__rpow__(_operand(L, (4, 1), b, 4))))


# ------------------------------------------------------------- complex cross

@pytest.mark.parametrize("dt", ["complex64", "complex128"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_complex_cross_rounds_each_product(dt, layout):
    # cross_kernel_impl's loop: c10::complex products (complex64: each part rounded), then
    # differences
    _same(lambda L: L.linalg.cross(_complex(L, (40, 3), dt, layout, 5).reshape(-1, 3)[:30],
                                   _complex(L, (40, 3), dt, layout, 6).reshape(-1, 3)[:30]))


@pytest.mark.parametrize("values", [[math.inf, 1.5, -2, 0], [2, 0, 3, 0.5, 0, 4],
                                    [0.3, -1.7, 0, 2.5, 1.1]])
def test_bfloat16_cumprod_backward_with_zeros(values):
    # cumprod_backward's O(n) path for inputs with zeros, taken for bfloat16 as for float
    def fn(L):
        x = L.tensor(values, dtype=L.bfloat16, requires_grad=True)
        L.cumprod(x, 0).backward(L.linspace(-2, 2, len(values), dtype=L.bfloat16))
        return x.grad
    _same(fn)

"""Differences from torch closed in the sixteenth fidelity pass (what ``tools/fuzz_ops.py``
found), each case compared with torch: the NaN bits of a float32 -> bfloat16 copy, the sign
of zero parts in complex negation, tensordot/inner of one element out of non-contiguous
operands, ``max``/``min``/``mean``/``var``/``std`` into an ``out`` of another dtype.
"""

import warnings

import numpy as np
import pytest

import ember

from .helpers import outcome_of, same_outcome, torch


def _same(fn, strides=True):
    same_outcome(outcome_of(torch, fn), outcome_of(ember, fn), strides)


# ------------------------------------------------------------- bfloat16 NaN bits

_NAN_LAYOUTS = {
    "contiguous": lambda L, x: x,
    "0-d": lambda L, x: x[0, 0],
    "one element": lambda L, x: x[:1, :1],
    "rows sliced": lambda L, x: x[::2],
    "columns sliced": lambda L, x: x[:, ::2],
    "transposed": lambda L, x: x.t(),
    "sliced and transposed": lambda L, x: x[::2].t(),
    "broadcast rows": lambda L, x: x[:1].expand(4, 6),
    "broadcast columns": lambda L, x: x[:, :1].expand(4, 6),
    "from float64": lambda L, x: x.double(),
}


@pytest.mark.parametrize("layout", list(_NAN_LAYOUTS))
def test_bfloat16_nan_bits_of_a_copy(layout):
    """torch's vectorised float32 -> bfloat16 copy writes NaN as 0xFFFF (sign bit set), its
    one-by-one conversion (strided or broadcast inner dim, 0-d, other source types) 0x7FC0."""
    vals = np.arange(24, dtype=np.float32).reshape(4, 6)
    vals[::3, 1::2] = np.nan

    def fn(L):
        x = _NAN_LAYOUTS[layout](L, L.from_numpy(vals.copy()))
        y = x.to(L.bfloat16)
        i16 = torch.int16 if L is torch else ember.int16
        return y.contiguous().view(i16), L.signbit(y)
    _same(fn)


# ------------------------------------------------------------- complex negation

@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("n", [1, 3, 4, 5, 8, 9, 17])
@pytest.mark.parametrize("form", ["neg", "neg_", "strided", "transposed"])
def test_complex_neg_zero_signs(dtype, n, form):
    """Vectorized<complex>::neg computes ``0 - x`` (a zero part turns +0), the scalar tail
    ``-x`` (-0)."""
    vals = np.zeros(2 * n * 3, np.complex128)
    vals[1::3] = 1.5 + 0j
    vals[2::5] = -0.0 - 2j

    def fn(L):
        x = L.from_numpy(vals.copy()).to(getattr(L, dtype))
        if form == "neg":
            r = -x[:n]
        elif form == "neg_":
            r = x[:n].clone().neg_()
        elif form == "strided":
            r = L.neg(x[::2][:n])
        else:
            r = L.neg(x[:6 * (n // 2 + 1)].reshape(-1, 3).t())
        return L.signbit(r.real), L.signbit(r.imag)
    _same(fn)


# ------------------------------------------------------------- tensordot of one element

_RNG = np.random.default_rng(16)
_V = _RNG.standard_normal(4000).astype(np.float32)
_MASK = _RNG.random(12) < 0.5


@pytest.mark.parametrize("case", ["strided", "contiguous", "expanded", "matrices",
                                  "matrices transposed", "bool strided", "bool contiguous",
                                  "bfloat16 expanded", "inner strided"])
def test_tensordot_one_element(case):
    """ATen 2.13 contracts to one element with ``dot`` when both permuted operands are
    contiguous, else sums their product in their dtype (bool included)."""
    def fn(L):
        v = L.from_numpy(_V.copy())
        m = L.from_numpy(_MASK.copy())
        if case == "strided":
            return L.tensordot(v[::2], v[2000:], 1)
        if case == "contiguous":
            return L.tensordot(v[:2000], v[2000:], 1)
        if case == "expanded":
            return L.tensordot(v[:1].double().expand(3), v[:3].double(), 1)
        if case == "matrices":
            return L.tensordot(v[:12].reshape(3, 4), v[12:24].reshape(3, 4), ([0, 1], [0, 1]))
        if case == "matrices transposed":
            return L.tensordot(v[:12].reshape(3, 4).t(), v[12:24].reshape(3, 4),
                               ([0, 1], [1, 0]))
        if case == "bool strided":
            return L.tensordot(m[::2], m[6:], 1)
        if case == "bool contiguous":
            return L.tensordot(m[:6], m[6:], 1)
        if case == "bfloat16 expanded":
            h = v[:4].to(L.bfloat16)
            return L.tensordot(h[:1].expand(4), h, 1)
        return L.inner(m[::2], m[1::2]), L.inner(v[:1000], v[1::4])
    _same(fn)


# ------------------------------------------------------------- max/min into out

@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize("src,dst", [
    ("float16", "float16"), ("float32", "float32"), ("int64", "int64"), ("bool", "bool"),
    ("bfloat16", "bfloat16"), ("uint8", "uint8"), ("complex64", "complex64"),
    ("float32", "int64"), ("complex64", "float32"), ("int64", "float32"),
    ("float32", "bool")])
@pytest.mark.parametrize("size", [0, 3])
def test_max_min_unary_out(name, src, dst, size):
    """``max(input, out=)`` checks canCast first; its kernel reduces an empty tensor to the
    identity instead of raising."""
    def fn(L):
        x = L.arange(size).to(getattr(L, src))
        out = L.zeros(0, dtype=getattr(L, dst))
        r = getattr(L, name)(x, out=out)
        return r, out
    _same(fn)


# ------------------------------------------------------------- mean/var/std into out

_X = np.array([[1.5 + 2j, 2.25 - 1j, 0.5j], [3 + 0j, -1 + 1j, 2]], np.complex64)
_DTYPES = ["complex64", "float64", "float32", "float16", "bfloat16"]
_OUTS = ["int64", "float32", "float16", "complex64", "float64", "bfloat16", "bool"]
_KWARGS = [{"dim": 0}, {"dim": 1, "keepdim": True}, {}, {"dim": (0, 1)},
           {"dim": None, "keepdim": True}, {"correction": 0}]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", ["mean", "var", "std"])
@pytest.mark.parametrize("src", _DTYPES)
@pytest.mark.parametrize("dst", _OUTS)
def test_reductions_into_out_of_another_dtype(name, src, dst):
    """mean_out sums into ``out`` then divides in place; std_var_out converts a real input
    to ``out``'s type (refusing a reduced input into one float result, a complex ``out``),
    and a complex one part by part."""
    def fn(L):
        x = L.from_numpy(_X.copy())
        x = x if src == "complex64" else x.real.to(getattr(L, src))
        res = []
        for kw in _KWARGS:
            if name == "mean" and "correction" in kw:
                continue
            res.append(outcome_of(L, lambda L, kw=kw: getattr(L, name)(
                x, **kw, out=L.zeros(0, dtype=getattr(L, dst)))))
        return res

    t, e = fn(torch), fn(ember)
    for a, b in zip(t, e):
        same_outcome(a, b)


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("src", ["float16", "float32", "complex64"])
@pytest.mark.parametrize("dst", ["float32", "float64", "float16", "complex64"])
@pytest.mark.parametrize("dim", [None, 0, 1])
def test_var_of_empty_into_out(src, dst, dim):
    def fn(L):
        x = L.zeros(0, 3, dtype=getattr(L, src))
        out = L.zeros(0, dtype=getattr(L, dst))
        return L.var(x, out=out) if dim is None else L.var(x, dim, out=out)
    _same(fn)


# ------------------------------------------------------------- histc's order of checks

@pytest.mark.parametrize("dtype", ["uint8", "int8", "int64", "bool", "complex64", "float32",
                                   "uint16", "bfloat16"])
@pytest.mark.parametrize("kwargs", [{"bins": 0}, {"min": -1, "max": 5}, {"min": 3, "max": 1},
                                    {"min": 0, "max": 300}, {}, {"min": 0.0, "max": 0.0}])
@pytest.mark.parametrize("shape", [(3,), (0, 4)])
def test_histc_checks_before_the_kernel(dtype, kwargs, shape):
    """bins, the range and the edges' linspace (an edge outside an integral type overflows)
    come before the histogram kernel's refusal of integral types."""
    _same(lambda L: L.histc(L.ones(shape, dtype=getattr(L, dtype)), **kwargs))


def test_histc_of_zeros_uint8():
    _same(lambda L: L.histc(L.zeros(3, dtype=L.uint8)))


# ------------------------------------------------------------- layouts

@pytest.mark.parametrize("dtype", ["complex64", "float32", "int16", "uint8", "bool"])
@pytest.mark.parametrize("layout", ["transposed", "permuted", "expanded", "0-d", "sliced"])
def test_angle_layout(dtype, layout):
    """A complex input's angle is a new C-order tensor; a real one keeps the input's
    layout."""
    def fn(L):
        x = L.arange(24).to(getattr(L, dtype))
        x = {"transposed": lambda: x.reshape(4, 6).t(),
             "permuted": lambda: x.reshape(2, 4, 3).permute(2, 1, 0),
             "expanded": lambda: x[:3].reshape(3, 1).expand(3, 4),
             "0-d": lambda: x[5],
             "sliced": lambda: x.reshape(4, 6)[:, ::2]}[layout]()
        return L.angle(x), x.angle()
    _same(fn)


@pytest.mark.parametrize("dtype", ["int8", "float16", "complex64"])
@pytest.mark.parametrize("layout", ["permuted", "transposed", "sliced"])
@pytest.mark.parametrize("given", ["empty", "transposed"])
def test_conj_physical_out_layout(dtype, layout, given):
    def fn(L):
        dt = getattr(L, dtype)
        x = {"permuted": lambda: L.zeros(2, 4, 3, dtype=dt).permute(2, 1, 0),
             "transposed": lambda: L.zeros(4, 3, dtype=dt).t(),
             "sliced": lambda: L.zeros(4, 6, dtype=dt)[:, ::2]}[layout]()
        out = L.zeros(0, dtype=dt) if given == "empty" else L.zeros(3, 4, dtype=dt).t()
        L.conj_physical(x, out=out)
        return out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(fn)


@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize("shape,dim", [((0,), 0), ((2, 0), 1), ((2, 0), 0), ((3,), 0),
                                       ((), 0)])
def test_max_min_dim_of_complex(name, shape, dim):
    """The reduced dim's size is checked before complex is refused."""
    _same(lambda L: getattr(L, name)(L.zeros(shape, dtype=L.complex64), dim))


# ------------------------------------------------------------- reduced-type division

def test_bfloat16_remainder_of_a_number_self():
    """The number takes the tensor's type (bfloat16(1e10) is 9999220736) before the float
    kernel."""
    def fn(L):
        y = L.tensor([1.5, -2.25, 3.0, 0.7, -0.3], dtype=L.bfloat16)
        return L.remainder(1e10, y), 1e10 % y, 3.3 % y
    _same(fn)


_HA = (np.random.default_rng(3).standard_normal(600) * 100).astype(np.float16)
_HB = (np.random.default_rng(4).standard_normal(600) *
       np.random.default_rng(5).choice([0.01, 1, 100], 600)).astype(np.float16)
_HA[:20] = 0
_HB[10:30] = 0
_HA[40:50] = np.inf
_HB[45:60] = np.inf
_HA[60:70] = np.nan
_HA[100] = -132.0
_HB[100] = -0.057464599609375

_HALF_DIVISIONS = {
    "floor, tensors": lambda L, a, b: L.floor_divide(a, b),
    "trunc, tensors": lambda L, a, b: L.div(a, b, rounding_mode="trunc"),
    "floor, 0-d divisor": lambda L, a, b: L.floor_divide(a, b[5]),
    "trunc, 0-d divisor": lambda L, a, b: L.div(a, b[7], rounding_mode="trunc"),
    "floor, one element": lambda L, a, b: L.floor_divide(a[100:101], b[100:101]),
    "trunc, one element": lambda L, a, b: L.div(a[100:101], b[100:101], rounding_mode="trunc"),
    "floor, number": lambda L, a, b: L.floor_divide(a, 0.37),
    "trunc, number": lambda L, a, b: L.div(a, 0.37, rounding_mode="trunc"),
    "floor, 0-d dividend": lambda L, a, b: L.floor_divide(a[100], b),
    "//": lambda L, a, b: a // 0.37,
    "floor_divide_ by a float64 0-d": lambda L, a, b: a.clone().floor_divide_(
        L.tensor(0.37, dtype=L.float64)),
    "broadcast rows": lambda L, a, b: L.floor_divide(a[96:100].expand(4, 4) * 0 + a[100],
                                                     b[97:101]),
}


@pytest.mark.parametrize("case", list(_HALF_DIVISIONS))
def test_float16_floor_and_trunc_division(case):
    """float16 with a divisor of many elements runs Vectorized<Half> (each step rounded to
    half: -132 // -0.05746 is 2298); a one-element divisor or a number the float path
    (2296)."""
    def fn(L):
        a, b = L.from_numpy(_HA.copy()), L.from_numpy(_HB.copy())
        return _HALF_DIVISIONS[case](L, a, b)
    with np.errstate(all="ignore"):
        _same(fn)


# ------------------------------------------------------------- complex pow

_CV = (np.random.default_rng(7).standard_normal(37) * np.random.default_rng(8).choice(
    [1, 3, 100], 37) + 1j * np.random.default_rng(9).standard_normal(37)).astype(np.complex64)
_CV[3] = 0
_CV[5] = 2 + 0j

_CPOW = {
    "3": lambda L, x: x ** 3,
    "3 transposed": lambda L, x: x[:36].reshape(4, 9).t() ** 3,
    "3 sliced": lambda L, x: x[::2] ** 3,
    "3 of 0-d": lambda L, x: x[0] ** 3,
    "pow_ 3": lambda L, x: x.clone().pow_(3),
    "-2": lambda L, x: x ** -2,
    "-2 transposed": lambda L, x: x[:36].reshape(4, 9).t() ** -2,
    "4": lambda L, x: x ** 4,
    "2.5": lambda L, x: x ** 2.5,
    "0.5": lambda L, x: x ** 0.5,
    "-1": lambda L, x: x ** -1,
    "int32 0-d": lambda L, x: x ** L.tensor(3, dtype=L.int32),
    "bool 0-d": lambda L, x: x ** L.tensor(True),
    "-2 0-d": lambda L, x: x ** L.tensor(-2),
    "complex 0-d": lambda L, x: x ** L.tensor(2 + 1j, dtype=L.complex64),
    "0 ** x": lambda L, x: 0 ** x,
    "2.5 ** x": lambda L, x: 2.5 ** x,
    "float_power 3": lambda L, x: L.float_power(x, 3),
    "float_power 0-d": lambda L, x: L.float_power(x, L.tensor(3)),
}


@pytest.mark.parametrize("case", list(_CPOW))
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_pow(case, dtype):
    """pow_tensor_scalar_kernel writes 2, 3 and -2 as products (complex64's cube: the tail
    four at a time, the rest with its second product plain); other exponents, tensor
    exponents and number bases run glibc's cpow."""
    def fn(L):
        return _CPOW[case](L, L.from_numpy(_CV.copy()).to(getattr(L, dtype)))
    with np.errstate(all="ignore"):
        _same(fn)


# ------------------------------------------------------------- sum into out

_SX = (np.random.default_rng(0).standard_normal((5, 7)) * 3 +
       1j * np.random.default_rng(1).standard_normal((5, 7))).astype(np.complex64)


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("src", ["complex64", "float64", "float32", "float16", "bfloat16",
                                 "int32", "bool"])
@pytest.mark.parametrize("dst", ["int64", "float32", "float16", "complex64", "float64",
                                 "bfloat16", "int32", "bool"])
def test_sum_into_out_of_another_dtype(src, dst):
    """sum(out=) sums in out's type, the input converted to it first (complex to its real
    part, floats truncated into integers); float16/bfloat16 into float32 read as they are."""
    def fn(L):
        x = L.from_numpy(_SX.copy())
        x = x if src == "complex64" else x.real.to(getattr(L, src))
        return [outcome_of(L, lambda L, kw=kw: L.sum(x, **kw, out=L.zeros(
            0, dtype=getattr(L, dst)))) for kw in ({"dim": 0}, {"dim": 1, "keepdim": True},
                                                   {"dim": (0, 1)})]
    for a, b in zip(fn(torch), fn(ember)):
        same_outcome(a, b)


@pytest.mark.parametrize("name", ["sum", "mean", "var"])
def test_reductions_into_out_refuse_grad(name):
    def fn(L):
        x = L.ones(3, 4, requires_grad=True)
        return getattr(L, name)(x, 0, out=L.zeros(0, dtype=L.float64))
    t, e = outcome_of(torch, fn), outcome_of(ember, fn)
    assert type(t) is type(e) is RuntimeError
    assert "don't support automatic differentiation" in str(e)


# ------------------------------------------------------------- complex addcmul

_AC = [(np.random.default_rng(20 + i).standard_normal(40) * 3 + 1j *
        np.random.default_rng(30 + i).standard_normal(40) * 3).astype(np.complex64)
       for i in range(3)]

_ADDCMUL = {
    "37": lambda L, a, b, d: L.addcmul(a[:37], b[:37], d[:37]),
    "37 value 2": lambda L, a, b, d: L.addcmul(a[:37], b[:37], d[:37], value=2),
    "complex value": lambda L, a, b, d: L.addcmul(a[:37], b[:37], d[:37], value=1 + 2j),
    "rows": lambda L, a, b, d: L.addcmul(*(x[:36].reshape(4, 9) for x in (a, b, d))),
    "transposed": lambda L, a, b, d: L.addcmul(*(x[:36].reshape(4, 9).t() for x in (a, b, d))),
    "strided": lambda L, a, b, d: L.addcmul(a[::2], b[::2], d[::2]),
    "0-d": lambda L, a, b, d: L.addcmul(a[0], b[0], d[0]),
    "in place": lambda L, a, b, d: a[:37].clone().addcmul_(b[:37], d[:37]),
    "complex128": lambda L, a, b, d: L.addcmul(*(x[:37].to(L.complex128) for x in (a, b, d))),
}


@pytest.mark.parametrize("case", list(_ADDCMUL))
def test_complex_addcmul(case):
    """``self + value * t1 * t2`` with the plain Vectorized products, steps of eight, then
    four elements with the second product contracted, the rest plain; strided rows in
    contracted pairs."""
    def fn(L):
        return _ADDCMUL[case](L, *(L.from_numpy(x.copy()) for x in _AC))
    _same(fn)


@pytest.mark.parametrize("value", [1, 2])
def test_complex_addcdiv_multiplies_by_one(value):
    """torch multiplies by ``value`` even when it is 1: an infinite numerator turns NaN."""
    def fn(L):
        t1 = L.tensor([float("inf"), -float("inf"), 1.0, 2.0], dtype=L.bfloat16)
        t2 = L.tensor([1 + 1j, 2 - 1j, 0j, 1j], dtype=L.complex64)
        return L.addcdiv(L.zeros(4, dtype=L.bfloat16), t1, t2, value=value)
    with np.errstate(all="ignore"):
        _same(fn)


# ------------------------------------------------------------- float16 tanh gradient

_TV = (np.random.default_rng(0).standard_normal(300) * 2).astype(np.float16)


@pytest.mark.parametrize("shape", [(), (37,), (300,)])
@pytest.mark.parametrize("grad", [None, 0.37])
def test_float16_tanh_backward(shape, grad):
    """tanh_backward's reduced-type kernel computes ``grad * (1 - y*y)`` in float, rounding
    once."""
    def fn(L):
        x = L.from_numpy(_TV[:int(np.prod(shape))].copy()).reshape(shape).requires_grad_()
        y = L.tanh(x)
        y.backward(L.ones_like(y) if grad is None else L.full_like(y, grad))
        return x.grad
    _same(fn)


# ------------------------------------------------------------- out= refusing grad

_OUT_GRAD = {
    "sum": lambda L, x, y, o: L.sum(x, 0, out=o),
    "mean": lambda L, x, y, o: L.mean(x, 0, out=o),
    "var": lambda L, x, y, o: L.var(x, 0, out=o),
    "std": lambda L, x, y, o: L.std(x, 0, out=o),
    "prod": lambda L, x, y, o: L.prod(x, 0, out=o),
    "cumsum": lambda L, x, y, o: L.cumsum(x, 0, out=o),
    "div": lambda L, x, y, o: L.div(x, 2, out=o),
    "div floor": lambda L, x, y, o: L.div(x, y, rounding_mode="floor", out=o),
    "pow": lambda L, x, y, o: L.pow(x, 2, out=o),
    "pow of a number": lambda L, x, y, o: L.pow(2, x, out=o),
    "remainder": lambda L, x, y, o: L.remainder(x, 2, out=o),
    "fmod": lambda L, x, y, o: L.fmod(x, 2, out=o),
    "mm": lambda L, x, y, o: L.mm(x, y.t(), out=o),
    "clamp": lambda L, x, y, o: L.clamp(x, 0, 1, out=o),
    "where": lambda L, x, y, o: L.where(y > 0, x, y, out=o),
    "add": lambda L, x, y, o: L.add(x, y, out=o),
}


@pytest.mark.parametrize("case", list(_OUT_GRAD))
def test_out_requires_grad_names_the_function(case):
    """The refusal of out= with an input requiring grad names the public function."""
    _same(lambda L: _OUT_GRAD[case](L, L.ones(3, 4, requires_grad=True), L.ones(3, 4),
                                    L.zeros(0)))


# ------------------------------------------------------------- scatter/gather index errors

@pytest.mark.parametrize("op", ["scatter_add", "gather", "scatter"])
@pytest.mark.parametrize("shape,d", [((2, 4, 1), 1), ((3, 4, 5), 1), ((2, 3, 4), 0),
                                     ((4, 3), 1), ((3, 1, 4), 0), ((3, 4, 2), 2)])
def test_scatter_gather_reports_the_first_bad_index_it_reads(op, shape, d):
    """The kernel reads along ``dim`` inside each element when ``dim`` is last, else ``dim``
    outside the iterator's inner dims: the first bad index in that order is reported."""
    n = shape[d]
    idx = np.arange(int(np.prod(shape))).reshape(shape) % n
    flat = idx.reshape(-1)
    flat[1::3] = -1 - np.arange(len(flat[1::3]))        # (bad indices, each its own value)

    def fn(L):
        i, x = L.from_numpy(idx.copy()), L.zeros(shape, dtype=L.int64)
        if op == "gather":
            return L.gather(x, d, i)
        return getattr(x, op + "_")(d, i, L.ones(shape, dtype=L.int64))
    _same(fn)


# ------------------------------------------------------------- in-place checks before overlap

_INPLACE_FIRST = {
    "bool sub_ bool": lambda L: L.zeros(1, 4, dtype=L.bool).expand(4, 4).sub_(
        L.ones(4, 4, dtype=L.bool)),
    "bool sub_ number": lambda L: L.zeros(1, 4, dtype=L.bool).expand(4, 4).sub_(1),
    "float sub_": lambda L: L.zeros(1, 4).expand(4, 4).sub_(L.ones(4, 4)),
    "uint8 ldexp_": lambda L: L.zeros(1, dtype=L.uint8).expand(3).ldexp_(L.ones(3)),
    "float ldexp_": lambda L: L.zeros(1).expand(3).ldexp_(L.ones(3)),
}


@pytest.mark.parametrize("case", list(_INPLACE_FIRST))
def test_inplace_checks_before_the_overlap_error(case):
    """sub's bool check and ldexp's float check come before TensorIterator refuses an
    expanded tensor to write."""
    _same(_INPLACE_FIRST[case])


@pytest.mark.parametrize("dtype", ["int32", "float64", "int64", "bool", "float32", "int16"])
@pytest.mark.parametrize("dst", ["int64", "float32", "int32"])
def test_nansum_out_dtype_checks(dtype, dst):
    """An integral dtype= that out= does not have fails sum's structured check."""
    _same(lambda L: L.nansum(L.ones(2, 3), 0, dtype=getattr(L, dtype),
                             out=L.zeros(0, dtype=getattr(L, dst))))


# ------------------------------------------------------------- float16 index_add

@pytest.mark.parametrize("alpha", [1, 2.5])
@pytest.mark.parametrize("layout", ["rows", "columns", "vector"])
@pytest.mark.parametrize("seed", range(4))
def test_float16_index_add_with_repeated_indices(alpha, layout, seed):
    """torch accumulates float16 slices in float32 (rounding once) when alpha is 1; a
    vector's elements, or a scaled source, add one by one in float16."""
    rng = np.random.default_rng(seed)
    n, k, m = 3, 7, 3
    shape, sshape, d = {"rows": ((n, m), (k, m), 0), "columns": ((m, n), (m, k), 1),
                        "vector": ((n,), (k,), 0)}[layout]
    s = (rng.standard_normal(shape) * 5).astype(np.float16)
    src = (rng.standard_normal(sshape) * 5).astype(np.float16)
    idx = rng.integers(0, n, k)

    def fn(L):
        x = L.from_numpy(s.copy())
        i, y = L.from_numpy(idx.copy()), L.from_numpy(src.copy())
        return x.index_add(d, i, y, alpha=alpha), x.clone().index_add_(d, i, y, alpha=alpha)
    _same(fn)


# ------------------------------------------------------------- bfloat16 dist

_DA = (np.random.default_rng(40).standard_normal(7) * 3).astype(np.float32)
_DB = (np.random.default_rng(41).standard_normal(7) * 3).astype(np.float32)


@pytest.mark.parametrize("other", ["bfloat16", "int32", "bfloat16 0-d"])
@pytest.mark.parametrize("p", [2, 1, 3.5, float("inf"), 0])
def test_bfloat16_dist_rounds_the_difference(other, p):
    """dist is ``norm(self - other)``: the bfloat16 difference rounded, then the norm."""
    def fn(L):
        a = L.from_numpy(_DA.copy()).to(L.bfloat16)
        b = L.from_numpy(_DB.copy())
        b = b[0].to(L.bfloat16) if other == "bfloat16 0-d" else b.to(getattr(L, other))
        return L.dist(a, b, p=p), L.dist(b, a, p=p)
    _same(fn)


# ------------------------------------------------------------- prod's gradient with dtype=

_PX = np.random.default_rng(0).standard_normal((4, 3))


@pytest.mark.parametrize("dtype,src", [("float32", "float64"), ("float64", "float32"),
                                       ("float32", "float16")])
@pytest.mark.parametrize("zero", [False, True])
@pytest.mark.parametrize("dim", [None, 0])
def test_prod_backward_in_the_result_dtype(dtype, src, zero, dim):
    """prod_backward takes ``self.to(grad's dtype)``: computed in the result's dtype, then
    cast to the input's."""
    x = _PX.astype(src)
    x[1, 1] = 0 if zero else 1.5

    def fn(L):
        t = L.from_numpy(x.copy()).t().requires_grad_()
        y = L.prod(t, dtype=getattr(L, dtype)) if dim is None else \
            L.prod(t, dim, dtype=getattr(L, dtype))
        y.sum().backward()
        return t.grad
    _same(fn)

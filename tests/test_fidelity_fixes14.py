"""Differences from torch closed in the fourteenth fidelity pass (what ``tools/fuzz_ops.py``
found), each case compared with torch: trace's accumulation, maximum/minimum gradients at
NaN, mode's rows with NaN, the scans' and nansum/nanmean's out= dtypes, polar's libm,
softmax of a 0-d infinity, logit's two kernels, in-place errors on expanded tensors,
heaviside's missing derivative, float16 sums over a dim, trapezoid's and lerp's error order.
"""

import numpy as np
import pytest

import ember

from .helpers import outcome_of, same_outcome, torch


def _same(fn, strides=True):
    same_outcome(outcome_of(torch, fn), outcome_of(ember, fn), strides)


def _layout(L, a, layout):
    t = L.from_numpy(a)
    if layout == "transposed":
        return t.T
    if layout == "sliced":
        return t[::2]
    if layout == "expanded":
        return t[:1].expand(*t.shape)
    return t


LAYOUTS = ["contiguous", "transposed", "sliced", "expanded"]


# ------------------------------------------------------------- trace

@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "complex64", "int32", "uint8"])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("n", [1, 3, 8])
def test_trace_adds_in_acc_type_in_order(dt, layout, n):
    # trace_cpu: a sequential sum in acc_type (double for float), one rounding at the end
    rng = np.random.default_rng(n)
    a = rng.standard_normal((2 * n, n)) * 100
    if dt == "complex64":
        a = a + 1j * rng.standard_normal((2 * n, n))
    a = a.astype(dt)
    _same(lambda L: (_layout(L, a.copy(), layout).trace(),
                     L.trace(_layout(L, a.copy(), layout))))


def test_trace_of_an_empty_matrix():
    _same(lambda L: (L.ones(0, 3).trace(), L.ones(0, 3, dtype=L.float16).trace()))


# ------------------------------------------------------------- maximum/minimum gradients

@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_maximum_minimum_gradients_at_nan_and_ties(name):
    # where(self == other, grad / 2, grad).masked_fill_(self < other, 0): NaN on either
    # side gives both the gradient
    nan, inf = float("nan"), float("inf")

    def fn(L):
        x = L.tensor([1.0, nan, 2.0, 3.0, nan, -inf], dtype=L.float64, requires_grad=True)
        y = L.tensor([1.0, 0.5, nan, 1.0, nan, 0.0], dtype=L.float64, requires_grad=True)
        r = getattr(L, name)(x, y)
        r.backward(L.tensor([1.0, 2.0, inf, 4.0, 5.0, inf], dtype=L.float64))
        return r.detach(), x.grad, y.grad
    _same(fn)


@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_maximum_minimum_broadcast_gradients(name):
    def fn(L):
        x = L.tensor([[1.0, float("nan")], [3.0, 0.0]], requires_grad=True)
        y = L.tensor([2.0, 0.0], requires_grad=True)
        getattr(L, name)(x, y).sum().backward()
        return x.grad, y.grad
    _same(fn)


# ------------------------------------------------------------- mode

@pytest.mark.parametrize("dt", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("dim", [0, 1, 2])
def test_mode_of_rows_with_nan(dt, dim):
    # a short row is std::sort's insertion sort, where a NaN stays among the others
    rng = np.random.default_rng(dim)
    a = np.round(rng.standard_normal((3, 4, 3)))
    a[rng.random(a.shape) < 0.2] = np.nan
    a[0, 0, 0] = -np.inf
    _same(lambda L: L.from_numpy(a).to(getattr(L, dt)).mode(dim))
    _same(lambda L: L.from_numpy(a).to(getattr(L, dt))[::2].mode(dim))


def test_mode_of_a_0d_complex_tensor():
    _same(lambda L: L.tensor(1 + 2j).mode(0))
    _same(lambda L: L.tensor(1 + 2j).mode(0, keepdim=True))
    _same(lambda L: L.tensor([1 + 2j]).mode(0))


# ------------------------------------------------------------- cumsum/cumprod

def _scan_in(L, name, x, out_dt, **kw):
    out = L.empty(0, dtype=getattr(L, out_dt))
    r = getattr(L, name)(x, 0, out=out, **kw)
    return r, out


SCAN_CASES = {
    "float64 into float32": lambda L, n: _scan_in(L, n, L.tensor([2.2839179, 4.2638845,
                                                                 3.86188], dtype=L.float64),
                                                  "float32"),
    "float16 into float32": lambda L, n: _scan_in(L, n, L.tensor([-1.2128906, -1.1767578,
                                                                 0.3], dtype=L.float16),
                                                  "float32"),
    "float32 into int64": lambda L, n: _scan_in(L, n, L.tensor([-39.7, -124.6, 2.5]), "int64"),
    "float into bool": lambda L, n: _scan_in(L, n, L.tensor([1.5, 0.0]), "bool"),
    "0-d float into bool": lambda L, n: _scan_in(L, n, L.tensor(1.5), "bool"),
    "empty into bool": lambda L, n: _scan_in(L, n, L.ones(0), "bool"),
    "dtype= against out": lambda L, n: _scan_in(L, n, L.tensor([1.5, 2.5]), "float32",
                                                dtype=L.float64),
    "complex into float": lambda L, n: _scan_in(L, n, L.tensor([1.5 + 1j, 2.5]), "float32"),
    "0-d bool in place": lambda L, n: getattr(L.tensor(True), n + "_")(0),
    "empty bool in place": lambda L, n: getattr(L.ones(0, dtype=L.bool), n + "_")(0),
    "bool in place": lambda L, n: getattr(L.tensor([True, False]), n + "_")(0),
}


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("case", SCAN_CASES)
def test_scan_out_dtype(name, case):
    # meta_func_cum_ops: the scan runs on self.to(out.dtype), in out's dtype
    _same(lambda L: SCAN_CASES[case](L, name))


@pytest.mark.parametrize("dt", ["float32", "float64", "float16", "complex64"])
def test_cumsum_starts_at_positive_zero(dt):
    _same(lambda L: L.tensor([[-0.0, 1.0], [-0.0, -0.0]], dtype=getattr(L, dt)).cumsum(0))
    _same(lambda L: L.tensor([-0.0, -0.0], dtype=getattr(L, dt)).cumsum(0))


# ------------------------------------------------------------- nansum/nanmean

_NANS = [[1.7, float("nan"), -2.6], [3.5, 1e20, float("inf")]]

NANSUM_CASES = {
    "integral dtype=": lambda L: L.tensor(_NANS).nansum(dtype=L.int64),
    "integral dtype= over a dim": lambda L: L.tensor(_NANS).nansum(1, dtype=L.int64),
    "bfloat16, int32 dtype=": lambda L: L.tensor(_NANS, dtype=L.bfloat16).nansum(0,
                                                                                 dtype=L.int32),
    "int64 out": lambda L: L.nansum(L.tensor(_NANS), out=L.empty(0, dtype=L.int64)),
    "int64 out and dtype=": lambda L: L.nansum(L.tensor(_NANS), 0, dtype=L.int64,
                                               out=L.empty(0, dtype=L.int64)),
    "dtype= against out": lambda L: L.nansum(L.tensor(_NANS, dtype=L.float64), 1,
                                             dtype=L.float32, out=L.empty(0, dtype=L.float64)),
    "float64 into float32 out": lambda L: L.nansum(L.tensor(_NANS, dtype=L.float64) / 3, 1,
                                                   out=L.empty(0)),
    "float16 into float32 out": lambda L: L.nansum(L.tensor(_NANS, dtype=L.float16) / 3, 1,
                                                   out=L.empty(0)),
    "empty into int64 out": lambda L: L.nansum(L.ones(0, 3), 0, out=L.empty(0, dtype=L.int64)),
    "0-d infinity": lambda L: L.tensor(-70000.0, dtype=L.float16).nansum(),
    "0-d nan": lambda L: L.tensor(float("nan")).nansum(),
}


@pytest.mark.parametrize("case", NANSUM_CASES)
def test_nansum_dtypes(case):
    _same(NANSUM_CASES[case])


NANMEAN_CASES = {
    "int64 out": lambda L: L.nanmean(L.tensor(_NANS), 1, out=L.empty(0, dtype=L.int64)),
    "float64 into float32 out": lambda L: L.nanmean(L.tensor(_NANS, dtype=L.float64) / 3, 1,
                                                    out=L.empty(0)),
    "float16 into float32 out": lambda L: L.nanmean(L.tensor(_NANS, dtype=L.float16) / 3, 1,
                                                    out=L.empty(0)),
    "bfloat16 into int64 out": lambda L: L.nanmean(L.ones(2, 2, dtype=L.bfloat16), 1,
                                                   out=L.empty(0, dtype=L.int64)),
    "empty into int64 out": lambda L: L.nanmean(L.ones(0, 3), 0, out=L.empty(0, dtype=L.int64)),
}


@pytest.mark.parametrize("case", NANMEAN_CASES)
def test_nanmean_out(case):
    # nanmean_out: nansum_out into out, then out.div_(count)
    _same(NANMEAN_CASES[case])


# ------------------------------------------------------------- float16 sums over a dim

@pytest.mark.parametrize("shape", [(3, 2, 2), (5, 17), (7, 300), (33, 65, 3)])
@pytest.mark.parametrize("name", ["sum", "nansum"])
def test_float16_sum_over_a_dim_adds_in_float(shape, name):
    rng = np.random.default_rng(len(shape))
    a = (rng.standard_normal(shape) * 100).astype(np.float16)
    a.flat[::7] = np.nan if name == "nansum" else a.flat[::7]
    back = tuple(range(len(shape) - 1, -1, -1))
    _same(lambda L: [getattr(L.from_numpy(a), name)(d) for d in range(len(shape))])
    _same(lambda L: [getattr(L.from_numpy(a).permute(*back), name)(d)
                     for d in range(len(shape))])


def test_trapezoid_float16_over_the_first_dim():
    a = np.array([[[-67.125, -20.546875], [-86.375, -116.3125]],
                  [[27.4375, -181.375], [-183.375, 27.96875]],
                  [[156.75, 52.78125], [129.0, -59.8125]]], np.float16)
    _same(lambda L: L.trapezoid(L.from_numpy(a), dim=0))


# ------------------------------------------------------------- polar

@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_polar_scalar_libm(dt, layout):
    # polar_kernel's scalar loop: a * std::cos(b), a * std::sin(b) (glibc's cosf/sinf)
    rng = np.random.default_rng(3)
    r = (np.abs(rng.standard_normal((6, 6))) * 100).astype(dt)
    t = (rng.standard_normal((6, 6)) * 30).astype(dt)
    t[0, :3] = [np.inf, np.nan, 0.0]
    _same(lambda L: L.polar(_layout(L, r.copy(), layout), _layout(L, t.copy(), layout)))
    _same(lambda L: L.polar(_layout(L, r.copy(), layout), L.from_numpy(t[0].copy())))


# ------------------------------------------------------------- softmax of 0-d tensors

@pytest.mark.parametrize("dt", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("v", [1.5, float("inf"), -float("inf"), float("nan")])
def test_softmax_of_a_0d_tensor(dt, v):
    _same(lambda L: (L.tensor(v, dtype=getattr(L, dt)).softmax(0),
                     L.tensor(v, dtype=getattr(L, dt)).log_softmax(0),
                     L.nn.functional.softmax(L.tensor(v, dtype=getattr(L, dt)), 0)))


# ------------------------------------------------------------- logit

def _logit_views(L, x):
    return {"contiguous": x, "sliced": x[::2], "narrow": x[:, :4], "transposed": x.T,
            "inner slice": x[:, 3:37], "row": x[1, :37], "strided T": x[:7, :5].T, "0-d": x[0, 0]}


@pytest.mark.parametrize("dt", ["float32", "float64", "float16"])
@pytest.mark.parametrize("eps", [None, 0.25, 1e-6])
@pytest.mark.parametrize("view", ["contiguous", "sliced", "narrow", "transposed",
                                  "inner slice", "row", "strided T", "0-d"])
def test_logit_mkl_and_vectorised_kernels(dt, eps, view):
    # LogitMKLKernel for a contiguous iterator; else cpu_kernel_vec: Sleef's log in the
    # vectors, std::log on each row's tail
    rng = np.random.default_rng(0)
    a = rng.random((64, 40)).astype(dt)
    a[1, :5] = [0, 1, -1, np.nan, 2]
    _same(lambda L: L.logit(_logit_views(L, L.from_numpy(a))[view], eps))


# ------------------------------------------------------------- in-place on expanded tensors

def _expanded(L, dt, n=3):
    return L.ones(1, dtype=getattr(L, dt)).expand(n)


INPLACE_EXPANDED = {
    "logical_and_": lambda L: _expanded(L, "uint8").logical_and_(L.ones(1, dtype=L.uint8)),
    "logical_or_": lambda L: _expanded(L, "int16").logical_or_(L.ones(3, dtype=L.int16)),
    "logical_xor_": lambda L: _expanded(L, "uint8").logical_xor_(L.ones(3, dtype=L.int32)),
    "logical_not_": lambda L: _expanded(L, "int32").logical_not_(),
    "logical_and_ bad shape": lambda L: _expanded(L, "uint8").logical_and_(L.ones(2)),
    "floor_ complex": lambda L: _expanded(L, "complex64").floor_(),
    "ceil_ complex": lambda L: _expanded(L, "complex64").ceil_(),
    "fix_ complex": lambda L: _expanded(L, "complex64").fix_(),
    "trunc_ float": lambda L: _expanded(L, "float32").trunc_(),
    "round_ complex": lambda L: _expanded(L, "complex64").round_(),
    "rad2deg_ complex": lambda L: _expanded(L, "complex64").rad2deg_(),
    "deg2rad_ complex": lambda L: _expanded(L, "complex64").deg2rad_(),
    "deg2rad_ float": lambda L: _expanded(L, "float32").deg2rad_(),
    "relu_ bool": lambda L: _expanded(L, "bool").relu_(),
    "relu_ complex": lambda L: _expanded(L, "complex64").relu_(),
    "relu_ float": lambda L: _expanded(L, "float32").relu_(),
    "relu complex": lambda L: L.ones(2, dtype=L.complex64).relu(),
    "relu bool": lambda L: L.relu(L.ones(2, dtype=L.bool)),
}


@pytest.mark.parametrize("case", INPLACE_EXPANDED)
def test_inplace_errors_on_expanded_tensors(case):
    _same(INPLACE_EXPANDED[case])


# ------------------------------------------------------------- heaviside

HEAVISIDE_CASES = {
    "function": lambda L: L.heaviside(L.tensor([-1.0, 0.0, 2.0]), L.tensor([0.5])),
    "method": lambda L: L.tensor([-1.0, 0.0, 2.0]).heaviside(L.tensor([0.5])),
    "in place": lambda L: L.tensor([-1.0, 0.0, 2.0]).heaviside_(L.tensor([0.5])),
    "out": lambda L: L.heaviside(L.tensor([-1.0, 0.0]), L.tensor([0.5]), out=L.empty(0)),
    "out of another dtype": lambda L: L.heaviside(L.tensor([1, 0]), L.tensor([1, 2]),
                                                  out=L.empty(0)),
    "out, values of another dtype": lambda L: L.heaviside(L.tensor([1.0]),
                                                          L.tensor([1.0], dtype=L.float64),
                                                          out=L.empty(0)),
    "out, complex": lambda L: L.heaviside(L.tensor([1j]), L.tensor([1j]), out=L.empty(0)),
    "number values": lambda L: L.heaviside(L.tensor([1.0]), 1.0),
}


@pytest.mark.parametrize("case", HEAVISIDE_CASES)
def test_heaviside_forms(case):
    _same(HEAVISIDE_CASES[case])


def test_heaviside_has_no_derivative():
    def fn(L):
        x = L.tensor([-1.0, 0.0, 2.0], requires_grad=True)
        r = L.heaviside(x, L.tensor([0.5]))
        out = (r.detach(), r.requires_grad, type(r.grad_fn).__name__)
        r.sum().backward()
        return out
    _same(fn)


# ------------------------------------------------------------- trapezoid's checks

TRAPEZOID_CASES = {
    "0-d bool": lambda L: L.trapezoid(L.tensor(True), dim=0),
    "empty bool, sized dim": lambda L: L.trapezoid(L.ones(0, 3, 3, dtype=L.bool), dim=2),
    "empty bool, empty dim": lambda L: L.trapezoid(L.ones(0, 3, 3, dtype=L.bool), dim=0),
    "bool y, tensor x": lambda L: L.trapezoid(L.ones(3, dtype=L.bool), L.ones(3)),
    "bool x": lambda L: L.trapezoid(L.ones(3), L.ones(3, dtype=L.bool)),
    "bool y, number dx": lambda L: L.trapezoid(L.ones(3, dtype=L.bool), dx=2),
    "bool dx": lambda L: L.trapezoid(L.ones(3), dx=True),
    "complex dx": lambda L: L.trapezoid(L.ones(3), dx=1j),
    "0-d float": lambda L: L.trapezoid(L.tensor(2.0), dim=0),
    "empty bool y, tensor x": lambda L: L.trapezoid(L.ones(0, 3, dtype=L.bool), L.ones(3),
                                                    dim=1),
}


@pytest.mark.parametrize("case", TRAPEZOID_CASES)
def test_trapezoid_checks(case):
    _same(TRAPEZOID_CASES[case])


# ------------------------------------------------------------- lerp of integers

LERP_CASES = {
    "tensor weight, sizes clash": lambda L: L.lerp(L.ones(3, dtype=L.int32),
                                                   L.ones(3, dtype=L.int32),
                                                   L.ones(0, dtype=L.int32)),
    "bool, sizes clash": lambda L: L.ones(4, dtype=L.bool).lerp(L.ones(4, dtype=L.bool),
                                                                L.ones(0, dtype=L.bool)),
    "in place, sizes clash": lambda L: L.ones(3, dtype=L.int32).lerp_(
        L.ones(3, dtype=L.int32), L.ones(0, dtype=L.int32)),
    "number weight": lambda L: L.ones(3, dtype=L.int32).lerp(L.ones(2, 3, dtype=L.int32), 0.5),
    "same sizes": lambda L: L.lerp(L.ones(3, dtype=L.int64), L.ones(3, dtype=L.int64),
                                   L.ones(3, dtype=L.int64)),
}


@pytest.mark.parametrize("case", LERP_CASES)
def test_integer_lerp_error_order(case):
    _same(LERP_CASES[case])


# ------------------------------------------------------------- float16/bfloat16 products

@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape", [(4,), (3, 1, 3), (5, 17), (7, 300), (33, 65, 3), (0, 3)])
def test_reduced_prod_rounds_each_product(dt, shape):
    # prod_kernel_impl: binary_kernel_reduce_vec in the type (16-lane vectors), each product
    # rounded to it
    rng = np.random.default_rng(len(shape))
    a = (1 + rng.standard_normal(shape) * 0.05).astype(np.float32)

    def fn(L):
        t = L.from_numpy(a).to(getattr(L, dt))
        dims = range(len(shape))
        return ([t.prod(d) for d in dims], [t.permute(*reversed(dims)).prod(d) for d in dims],
                t.prod(), t[::2].prod(), L.from_numpy(a).prod(0, dtype=getattr(L, dt)),
                t.prod(0, dtype=L.float32))
    _same(fn)


# ------------------------------------------------------------- bfloat16 NaNs in selections

def test_bfloat16_nan_in_cummax_median_and_friends():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((6, 5)).astype(np.float32)
    a[rng.random(a.shape) < 0.3] = np.nan

    def fn(L):
        x = L.from_numpy(a).bfloat16()
        return (x.cummax(1), x.cummin(0), x.T.cummax(1), x.median(0), x.median(1),
                x.nanmedian(0), x.nanmedian(1), x.kthvalue(2, 1), x.median(), x.nanmedian())
    _same(fn)


# ------------------------------------------------------------- bool products

BOOL_PRODUCTS = {
    "bmm": lambda L: L.bmm(L.ones(2, 3, 3, dtype=L.bool), L.ones(2, 3, 3, dtype=L.bool)),
    "bmm, empty batch": lambda L: L.bmm(L.ones(0, 1, 1, dtype=L.bool),
                                        L.ones(0, 1, 1, dtype=L.bool)),
    "bmm, empty contraction": lambda L: L.bmm(L.ones(2, 2, 0, dtype=L.bool),
                                              L.ones(2, 0, 2, dtype=L.bool)),
    "bmm, empty, mixed dtypes": lambda L: L.bmm(L.ones(2, 2, 0, dtype=L.bool),
                                                L.ones(2, 0, 2, dtype=L.uint8)),
    "bmm, empty float and double": lambda L: L.bmm(L.ones(0, 2, 2),
                                                   L.ones(0, 2, 2, dtype=L.float64)),
    "bool @ uint8": lambda L: L.ones(2, 3, 3, dtype=L.bool) @ L.ones(1, 3, 3, dtype=L.uint8),
    "uint8 @ bool": lambda L: L.ones(2, 3, 3, dtype=L.uint8) @ L.ones(1, 3, 3, dtype=L.bool),
    "bmm bool, bfloat16": lambda L: L.bmm(L.ones(4, 4, 4, dtype=L.bool).transpose(1, 2),
                                          L.ones(4, 4, 4, dtype=L.bfloat16)),
    "mm, empty": lambda L: L.mm(L.ones(0, 3, dtype=L.bool), L.ones(3, 3, dtype=L.bool)),
    "mm, empty contraction": lambda L: L.mm(L.ones(2, 0, dtype=L.bool),
                                            L.ones(0, 2, dtype=L.bool)),
    "mv, empty": lambda L: L.mv(L.ones(2, 0, dtype=L.bool), L.ones(0, dtype=L.bool)),
    "mm": lambda L: L.mm(L.ones(2, 2, dtype=L.bool), L.ones(2, 2, dtype=L.bool)),
}


@pytest.mark.parametrize("case", BOOL_PRODUCTS)
def test_bool_products(case):
    _same(BOOL_PRODUCTS[case])


# ------------------------------------------------------------- prod's out=

_PROD_X = [[1.001, 2.003, 3.7]]

PROD_OUT_CASES = {
    "float16 into float32": lambda L: L.prod(L.tensor(_PROD_X, dtype=L.float16), 1,
                                             out=L.empty(0)),
    "float32 into int64": lambda L: L.prod(L.tensor(_PROD_X) * 1000, 1,
                                           out=L.empty(0, dtype=L.int64)),
    "into bool": lambda L: L.prod(L.tensor(_PROD_X), 1, out=L.empty(0, dtype=L.bool)),
    "dtype= against out": lambda L: L.prod(L.tensor(_PROD_X), 1, dtype=L.float64,
                                           out=L.empty(0)),
    "float64 into float32": lambda L: L.prod(L.tensor(_PROD_X, dtype=L.float64) * 1.0001, 1,
                                             out=L.empty(0)),
    "int into float32": lambda L: L.prod(L.tensor([[3, 5]]), 1, out=L.empty(0)),
    "empty into int32": lambda L: L.prod(L.ones(0, 3), 0, out=L.empty(0, dtype=L.int32)),
}


@pytest.mark.parametrize("case", PROD_OUT_CASES)
def test_prod_out_computes_in_out_dtype(case):
    # prod_out_impl: get_dtype_from_result, the product of self.to(out's dtype)
    _same(PROD_OUT_CASES[case])


# ------------------------------------------------------------- bfloat16 gradients

@pytest.mark.parametrize("name", ["erf", "erfc", "tan", "acos", "atan", "log1p", "log2", "sinc"])
@pytest.mark.parametrize("dt", ["bfloat16", "float16"])
def test_reduced_backward_composed_in_the_type(name, dt):
    # derivatives.yaml's formulas run as bfloat16 ops, each rounded to the type
    rng = np.random.default_rng(0)
    a = (rng.standard_normal(64) * 2).astype(np.float32)
    a[:3] = [0, 0.5, np.inf]

    def fn(L):
        x = L.from_numpy(a).to(getattr(L, dt)).requires_grad_()
        getattr(L, name)(x.reshape(8, 8).T).sum().backward()
        y = L.from_numpy(a).to(getattr(L, dt)).requires_grad_()
        getattr(L, name)(y).backward(L.from_numpy(a[::-1].copy()).to(getattr(L, dt)))
        return x.grad, y.grad
    _same(fn)


# ------------------------------------------------------------- igamma's integral error

IGAMMA_INTEGRAL = {
    "uint8 and a 0-d int8": lambda L: (L.ones(2, dtype=L.uint8), L.tensor(1, dtype=L.int8)),
    "int16 and a 0-d int64": lambda L: (L.ones(2, dtype=L.int16), L.tensor(1)),
    "int16 and uint8": lambda L: (L.ones(2, dtype=L.int16), L.ones(2, dtype=L.uint8)),
    "bool": lambda L: (L.ones(2, dtype=L.bool), L.ones(2, dtype=L.bool)),
    "two 0-d": lambda L: (L.tensor(1, dtype=L.int16), L.tensor(1, dtype=L.uint8)),
    "int32 and a 0-d float": lambda L: (L.ones(2, dtype=L.int32), L.tensor(1.5)),
}


@pytest.mark.parametrize("name", ["igamma", "igammac"])
@pytest.mark.parametrize("case", IGAMMA_INTEGRAL)
def test_igamma_names_the_result_type(name, case):
    _same(lambda L: getattr(L, name)(*IGAMMA_INTEGRAL[case](L)))


@pytest.mark.parametrize("dt", ["int16", "int8", "bool", "uint8", "float32", "complex64",
                                "float16"])
def test_nan_to_num_in_place_on_an_expanded_tensor(dt):
    # an integral tensor's nan_to_num_ is its copy_ onto itself, which returns at once
    _same(lambda L: L.ones(1, dtype=getattr(L, dt)).expand(4).nan_to_num_(nan=1.5, posinf=2.0))

"""Differences from torch closed in the eleventh fidelity pass (what ``tools/fuzz_ops.py``
found), each case compared with torch: out= dtype checks, out= tuples of multi-result ops,
resizing a tensor over NumPy's memory, and op-level errors and values.
"""

import numpy as np
import pytest

import ember

from .helpers import outcome_of, same_outcome, torch


def _same(fn):
    same_outcome(outcome_of(torch, fn), outcome_of(ember, fn))


def _t(L, dtype, values=(1.5, -2.0, 0.0)):
    return L.tensor(values).to(getattr(L, dtype))


# ------------------------------------------------------------- unary out= of another dtype

UNARY_SAME = ["abs", "neg", "negative", "floor", "ceil", "round", "trunc", "fix", "sign", "sgn",
              "frac", "bitwise_not", "conj_physical", "nan_to_num", "absolute"]
PAIRS = [("float16", "float32"), ("int8", "int64"), ("float32", "int64"),
         ("float32", "float64"), ("complex64", "float32"), ("complex64", "complex128"),
         ("bool", "int64"), ("uint8", "float32"), ("float32", "float32")]


@pytest.mark.parametrize("name", UNARY_SAME)
@pytest.mark.parametrize("pair", PAIRS, ids="->".join)
def test_unary_out_must_have_the_input_dtype(name, pair):
    src, dst = pair
    _same(lambda L: getattr(L, name)(_t(L, src), out=L.empty(3, dtype=getattr(L, dst))))


@pytest.mark.parametrize("name", ["erf", "lgamma", "digamma", "i0", "logit", "exp", "deg2rad",
                                  "signbit", "isposinf", "isneginf"])
@pytest.mark.parametrize("pair", PAIRS, ids="->".join)
def test_unary_out_checked_before_the_kernel(name, pair):
    src, dst = pair
    _same(lambda L: getattr(L, name)(_t(L, src), out=L.empty(3, dtype=getattr(L, dst))))


@pytest.mark.parametrize("name", ["bitwise_or", "bitwise_and", "bitwise_left_shift", "hypot",
                                  "nextafter", "xlogy", "logaddexp"])
@pytest.mark.parametrize("dts", [("float32", "bool", "int64"), ("complex64", "int32", "float32"),
                                 ("float16", "float16", "int64"), ("int32", "int32", "int16")],
                         ids="/".join)
def test_binary_out_cast_checked_before_the_kernel(name, dts):
    a, b, o = dts
    _same(lambda L: getattr(L, name)(_t(L, a), _t(L, b), out=L.empty(3, dtype=getattr(L, o))))


def test_neg_bool_error_comes_first():
    _same(lambda L: L.neg(_t(L, "bool"), out=L.empty(3, dtype=L.int64)))
    _same(lambda L: -_t(L, "bool"))


# ------------------------------------------------------------- out= of ops with two results

def _x(L):
    return L.tensor([[3.0, -1.0, 2.0, 2.0], [0.5, 4.0, -3.0, 1.0], [1.0, 1.0, 0.0, -2.0]])


TWO = {
    "cummax": lambda L, x, o: L.cummax(x, 0, out=o),
    "cummin": lambda L, x, o: L.cummin(x, 1, out=o),
    "aminmax": lambda L, x, o: L.aminmax(x, dim=0, out=o),
    "aminmax all": lambda L, x, o: L.aminmax(x, out=o),
    "kthvalue": lambda L, x, o: L.kthvalue(x, 2, 1, out=o),
    "topk": lambda L, x, o: L.topk(x, 2, dim=1, out=o),
    "mode": lambda L, x, o: L.mode(x, 0, out=o),
    "median dim": lambda L, x, o: L.median(x, 0, out=o),
    "median all": lambda L, x, o: L.median(x, out=o),
    "nanmedian dim": lambda L, x, o: L.nanmedian(x, dim=1, out=o),
    "max dim keepdim": lambda L, x, o: L.max(x, 0, True, out=o),
    "min dim keepdim": lambda L, x, o: L.min(x, 1, False, out=o),
    "frexp": lambda L, x, o: L.frexp(x, out=o),
}


@pytest.mark.parametrize("case", list(TWO))
@pytest.mark.parametrize("out", ["tensor", "tuple3", "tuple", "list"])
def test_two_result_out(case, out):
    def fn(L):
        x = _x(L)
        second = L.int32 if case == "frexp" else L.int64
        if out == "tensor":
            o = L.empty(0)
        elif out == "tuple3":
            o = (L.empty(0), L.empty(0, dtype=second), L.empty(0))
        else:
            o = (L.empty(0), L.empty(0, dtype=second))
            o = list(o) if out == "list" else o
        res = TWO[case](L, x, o)
        return (tuple(res), tuple(o)) if out in ("tuple", "list") else res
    _same(fn)


# ------------------------------------------------------------- resize_ over NumPy's memory

@pytest.mark.parametrize("view", ["whole", "sliced", "transposed"])
@pytest.mark.parametrize("shape", [(2, 2), (3, 3), (4, 4), (0,)])
def test_resize_of_numpy_memory(view, shape):
    def fn(L):
        t = L.from_numpy(np.arange(9, dtype=np.float32).reshape(3, 3))
        t = {"whole": t, "sliced": t[1:], "transposed": t.t()}[view]
        t.resize_(*shape)
        return t.shape, t.stride(), t.reshape(-1)[:4].clone()
    _same(fn)


def test_resize_of_empty_numpy_memory():
    _same(lambda L: L.from_numpy(np.zeros((0, 2, 3), np.complex64)).resize_(2, 2))
    _same(lambda L: L.from_numpy(np.zeros((0, 2, 3), np.complex64)).clone().resize_(2, 2)
          .shape)


OUT_DTYPES = [("float64", "int64"), ("float32", "int32"), ("float64", "int32"),
              ("bfloat16", "int64"), ("float32", "int64")]


@pytest.mark.parametrize("case", [c for c in TWO if c not in ("median all", "frexp")]
                         + ["frexp"])
@pytest.mark.parametrize("dts", OUT_DTYPES, ids="/".join)
def test_two_result_out_dtypes(case, dts):
    def fn(L):
        o = tuple(L.empty(0, dtype=getattr(L, d)) for d in dts)
        return TWO[case](L, _x(L), o), o
    _same(fn)


# ------------------------------------------------------------- out= of reductions and others

def _y(L, dtype="float32"):
    return _x(L).to(getattr(L, dtype))


OUT_ONE = {
    "any dim": lambda L, x, o: L.any(x, 0, out=o),
    "all": lambda L, x, o: L.all(x, out=o),
    "amax": lambda L, x, o: L.amax(x, 0, out=o),
    "amin keepdim": lambda L, x, o: L.amin(x, 1, True, out=o),
    "amax empty": lambda L, x, o: L.amax(x[:0], out=o),
    "argmax": lambda L, x, o: L.argmax(x, out=o),
    "argmin dim": lambda L, x, o: L.argmin(x, 1, keepdim=True, out=o),
    "softmax": lambda L, x, o: L.softmax(x, 0, out=o),
    "softmax dtype": lambda L, x, o: L.softmax(x, 1, dtype=L.float64, out=o),
    "log_softmax": lambda L, x, o: L.log_softmax(x, -1, out=o),
    "logsumexp": lambda L, x, o: L.logsumexp(x, 0, out=o),
    "float_power": lambda L, x, o: L.float_power(x, 2, out=o),
    "float_power complex": lambda L, x, o: L.float_power(x, 2j, out=o),
    "nonzero": lambda L, x, o: L.nonzero(x, out=o),
    "msort": lambda L, x, o: L.msort(x, out=o),
}


@pytest.mark.parametrize("case", list(OUT_ONE))
@pytest.mark.parametrize("x_dt", ["float32", "int64", "bool", "complex64", "float16"])
@pytest.mark.parametrize("o_dt", ["float32", "int64", "bool", "uint8", "float64", "complex128"])
@pytest.mark.parametrize("size", [0, 12])
def test_out_dtype_of_one_result(case, x_dt, o_dt, size):
    def fn(L):
        o = L.zeros(size, dtype=getattr(L, o_dt)).reshape(-1 if size == 0 else 3, 4)
        res = OUT_ONE[case](L, _y(L, x_dt), o)
        return res, o, o.stride()
    _same(fn)


def test_float_power_inplace_complex_message():
    _same(lambda L: _y(L, "complex64").float_power_(2))
    _same(lambda L: _y(L, "float32").float_power_(2))


# ------------------------------------------------------------- functions without out=

NO_OUT = {
    "clone": lambda L, x, o: L.clone(x, out=o),
    "relu": lambda L, x, o: L.relu(x, out=o),
    "celu": lambda L, x, o: L.celu(x, out=o),
    "prelu": lambda L, x, o: L.prelu(x, L.ones(1), out=o),
    "dist": lambda L, x, o: L.dist(x, x, out=o),
    "matrix_exp": lambda L, x, o: L.matrix_exp(x[:, :3], out=o),
    "poisson": lambda L, x, o: L.poisson(x.abs(), out=o),
    "binomial": lambda L, x, o: L.binomial(x.abs(), x.abs() / 10, out=o),
    "diagonal_scatter": lambda L, x, o: L.diagonal_scatter(x, x.diagonal(), out=o),
    "view_as_complex": lambda L, x, o: L.view_as_complex(x[:, :2].contiguous(), out=o),
    "var_mean": lambda L, x, o: L.var_mean(x, out=o),
    "std_mean dim": lambda L, x, o: L.std_mean(x, 0, out=o),
    "var_mean keepdim": lambda L, x, o: L.var_mean(x, 0, keepdim=True, out=o),
}


@pytest.mark.parametrize("case", list(NO_OUT))
def test_functions_without_out(case):
    _same(lambda L: NO_OUT[case](L, _x(L), L.empty(0)))


def test_histogramdd_has_no_out():
    # (torch's parser words it as an invalid combination of its overloads: the class alike)
    t, e = (outcome_of(L, lambda L: L.histogramdd(_x(L), out=L.empty(0))) for L in (torch, ember))
    assert type(t) is TypeError and type(e) is TypeError, (t, e)


@pytest.mark.parametrize("case", ["clone", "relu", "dist", "celu"])
def test_functions_without_out_still_work(case):
    _same(lambda L: getattr(L, case)(*[_x(L)] * (2 if case == "dist" else 1)))


# ------------------------------------------------------------- tensordot as ATen 2.13

TENSORDOT = [((1, 1), (1, 1), 1), ((3,), (3,), 1), ((1, 2), (2, 1), 1), ((1, 1, 3), (3, 1), 1),
             ((2, 3), (1, 4), ([1], [0])), ((2, 1), (5, 4), ([1], [0])), ((2, 3), (3,), 1),
             ((1, 7), (7, 1), 1), ((4, 1, 3), (3, 1, 2), ([1, 2], [1, 0]))]


@pytest.mark.parametrize("shapes", TENSORDOT, ids=str)
@pytest.mark.parametrize("dtype", ["bool", "float32", "float64", "int64"])
def test_tensordot_paths(shapes, dtype):
    sa, sb, dims = shapes

    def fn(L):
        g = L.Generator().manual_seed(0)
        a = (L.randn(sa, generator=g) * 3).to(getattr(L, dtype))
        b = (L.randn(sb, generator=g) * 3).to(getattr(L, dtype))
        if dtype.startswith("float"):
            a.requires_grad_()
            b.requires_grad_()
        r = L.tensordot(a, b, dims)
        if not r.requires_grad:
            return r
        r.sum().backward()
        return r, type(r.grad_fn).__name__, a.grad, b.grad
    _same(fn)


@pytest.mark.parametrize("shapes", [((1, 1), (1, 1)), ((3,), (3,)), ((2, 3), (4, 3))], ids=str)
def test_inner_of_bools(shapes):
    _same(lambda L: L.inner(L.ones(shapes[0], dtype=L.bool), L.ones(shapes[1], dtype=L.bool)))


def test_tensordot_dtypes():
    _same(lambda L: L.tensordot(L.ones(2, 3), L.ones(3, 4, dtype=L.float64), 1))
    _same(lambda L: L.tensordot(L.ones(2, 3), L.ones(3, 4), 1, out=L.empty(0, dtype=L.float64)))


# ------------------------------------------------------------- indexing, shapes, errors

ERRORS = {
    "index_add 0-d source": lambda L: L.tensor(1.0).index_add(0, L.tensor([0, 0]), L.tensor(2.)),
    "index_add 0-d one index": lambda L: L.tensor(1.0).index_add(0, L.tensor([0]), L.tensor(2.)),
    "index_add 1-d, 0-d source": lambda L: L.ones(3).index_add(-1, L.tensor([0, 0]),
                                                               L.tensor(2.)),
    "index_add empty matrix": lambda L: L.ones(0, 1).index_add(0, L.tensor([0, 1]),
                                                               L.ones(2, 1), alpha=2),
    "index_add empty source": lambda L: L.ones(1, 0).index_add(0, L.tensor([0, 1]),
                                                               L.ones(2, 0)),
    "index_add empty vector": lambda L: L.ones(0).index_add(0, L.tensor([0, 1]), L.ones(2)),
    "index_copy 0-d source": lambda L: L.ones(3).index_copy(0, L.tensor([0, 0]), L.tensor(2.)),
    "histc bool": lambda L: L.ones(2, dtype=L.bool).histc(),
    "histc bool range": lambda L: L.ones(2, dtype=L.bool).histc(min=0, max=1),
    "histc uint16 range": lambda L: L.ones(2, dtype=L.uint16).histc(min=0, max=1),
    "histc uint16": lambda L: L.ones(2, dtype=L.uint16).histc(),
    "histc complex range": lambda L: L.ones(2, dtype=L.complex64).histc(min=0, max=1),
    "histc complex empty": lambda L: L.ones(0, 1, 4, dtype=L.complex64).histc(),
    "histc uint16 empty": lambda L: L.ones(0, dtype=L.uint16).histc(),
    "cross 0-d": lambda L: L.cross(L.tensor(1), L.tensor(2), dim=0),
    "linalg.cross 0-d": lambda L: L.linalg.cross(L.tensor(1.), L.tensor(2.)),
    "cross layout": lambda L: L.cross(L.ones(3, 1, 2), L.ones(3, 1, 2), dim=0).stride(),
    "repeat_interleave negative": lambda L: L.ones(2).repeat_interleave(-1),
    "repeat_interleave permuted": lambda L: L.ones(4, 3, 3).permute(2, 1, 0)
    .repeat_interleave(2, dim=-2),
    "repeat_interleave flat": lambda L: L.ones(4, 3, 3).permute(2, 1, 0).repeat_interleave(2),
    "reshape permuted": lambda L: L.arange(36.).reshape(4, 3, 3).permute(2, 1, 0).reshape(9, 4),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_op_errors_and_layouts(case):
    _same(lambda L: ERRORS[case](L))


def test_unflatten_error_without_backtrace():
    t, e = (outcome_of(L, lambda L: L.tensor(1.).unflatten(0, (1, 1))) for L in (torch, ember))
    assert type(t) is type(e) is RuntimeError
    assert str(t).split("\nException raised from ")[0] == str(e)


KRON = [((4, 2), "t", (2, 4), ""), ((2, 4), "", (4, 2), "t"), ((3, 1, 2), "t02", (2, 2), ""),
        ((4, 3), "sliced", (2, 2), ""), ((4,), "sliced", (3,), ""),
        ((1, 3), "expanded", (2, 2), ""), ((2, 3), "", (2, 2), "")]


def _layout(L, shape, how):
    t = L.arange(float(np.prod(shape))).reshape(shape)
    return {"": t, "t": t.t(), "t02": t.transpose(0, 2), "sliced": t[::2],
            "expanded": t.expand(2, *shape[1:])}[how]


@pytest.mark.parametrize("case", KRON, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "bool"])
def test_kron_layouts(case, dtype):
    sa, la, sb, lb = case

    def fn(L):
        a = _layout(L, sa, la).to(getattr(L, dtype))
        b = _layout(L, sb, lb).to(getattr(L, dtype))
        r = L.kron(a, b)
        return r, r.stride()
    _same(fn)


# ------------------------------------------------------------- complex logaddexp, logcumsumexp

def _complex_operands(L, dtype, n, seed):
    g = L.Generator().manual_seed(seed)
    z = L.complex(L.randn(n, generator=g) * 3, L.randn(n, generator=g) * 3).to(dtype)
    special = L.tensor([complex("nan"), complex(float("inf"), 1), complex(float("-inf"), 2),
                        complex(float("inf"), 0), 0j, complex(1, float("nan")),
                        complex(float("-inf"), 0), complex(-0.0, -0.0)], dtype=dtype)
    return z, special


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_logaddexp_bits(dtype):
    def fn(L):
        z, sp = _complex_operands(L, getattr(L, dtype), 600, 0)
        w, _ = _complex_operands(L, getattr(L, dtype), 600, 1)
        return (L.logaddexp(z, w), L.logaddexp(sp.repeat_interleave(8), sp.repeat(8)),
                L.logaddexp(z.reshape(20, 30), w[:30]), L.logaddexp(z, L.tensor(1 + 2j)))
    _same(fn)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_complex_logcumsumexp_bits(dtype, dim):
    def fn(L):
        z, sp = _complex_operands(L, getattr(L, dtype), 600, 2)
        z = z.reshape(30, 20).clone()
        z[3, 4], z[5, 6], z[7, 8] = sp[0], sp[1], sp[6]
        return L.logcumsumexp(z, dim), L.logcumsumexp(z.t(), dim)
    _same(fn)


# ------------------------------------------------------------- complex division

DIV_SHAPES = [(), (1,), (7,), (37,), (5, 9), (2, 17)]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("shape", DIV_SHAPES, ids=str)
@pytest.mark.parametrize("form", ["div", "reciprocal", "rdiv", "number", "0-d", "transposed",
                                  "broadcast"])
def test_complex_division_bits(dtype, shape, form):
    def fn(L):
        dt = getattr(L, dtype)
        g = L.Generator().manual_seed(3)
        a = L.complex(L.randn(shape, generator=g) * 3, L.randn(shape, generator=g) * 3).to(dt)
        b = L.complex(L.randn(shape, generator=g) * 3, L.randn(shape, generator=g) * 3).to(dt)
        if form == "div":
            return a / b, L.div(a, b)
        if form == "reciprocal":
            return a.reciprocal()
        if form == "rdiv":
            return 3 / a
        if form == "number":
            return a / (2 + 1j)
        if form == "0-d":
            return a / L.tensor(2 + 1j, dtype=dt)
        if form == "transposed":
            return a.mT / b.mT if a.ndim > 1 else a / b
        return a / b[..., :1] if a.ndim else a / b
    _same(fn)


def test_complex_division_specials():
    def fn(L):
        v = [0j, complex(0, -0.0), 1 + 0j, complex("inf"), complex(float("inf"), 1), complex("nan"),
             complex(-0.0, 2), 1e-40 + 1e-40j, 3e38 + 3e38j]
        a = L.tensor(v * len(v), dtype=L.complex64)
        b = L.tensor([x for x in v for _ in v], dtype=L.complex64)
        return a / b, b.reciprocal()
    _same(fn)


@pytest.mark.parametrize("shape", [(2, 3), (3, 1), (3, 2, 3), (3, 3, 3, 3), (3,)], ids=str)
@pytest.mark.parametrize("index", [[5, 0], [-2, 0], [0, 2]], ids=str)
def test_index_add_bounds_errors(shape, index):
    def fn(L):
        out = []
        for d in range(len(shape)):
            s = list(shape)
            s[d] = 2
            out.append(outcome_of(L, lambda L, d=d, s=s: L.ones(shape).index_add(
                d, L.tensor(index), L.ones(s))))
        return out
    t, e = fn(torch), fn(ember)
    for a, b in zip(t, e):
        same_outcome(a, b)


INDEXING = {
    "index_put empty": lambda L: L.ones(0, dtype=L.int8).index_put((L.tensor([0, 1]),),
                                                                   L.tensor(1, dtype=L.int8)),
    "getitem empty": lambda L: L.ones(0)[L.tensor([0, 1])],
    "getitem empty dim 1": lambda L: L.ones(2, 0)[:, L.tensor([0, 1])],
    "inner shapes before dtypes": lambda L: L.inner(L.ones(2, 3, dtype=L.int32),
                                                    L.ones(3, 2, dtype=L.int8)),
    "inner dtypes": lambda L: L.inner(L.ones(2, 3, dtype=L.int32), L.ones(3, 3, dtype=L.int8)),
}


@pytest.mark.parametrize("case", list(INDEXING))
def test_indexing_errors(case):
    _same(INDEXING[case])


# ------------------------------------------------------------- searchsorted's binary search

@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "float16"])
@pytest.mark.parametrize("right", [False, True])
def test_searchsorted_unsorted_and_nan(seed, dtype, right):
    rng = np.random.default_rng(seed)
    s = rng.standard_normal(int(rng.integers(0, 9))).round(1)
    v = rng.standard_normal((2, 5)).round(1)
    s[rng.random(s.size) < 0.2] = np.nan
    v[rng.random(v.shape) < 0.2] = np.nan
    if dtype == "int8":
        s, v = (np.nan_to_num(x * 3).astype(np.int8) for x in (s, v))
    else:
        s, v = s.astype(dtype), v.astype(dtype)
    _same(lambda L: (L.searchsorted(L.from_numpy(s.copy()), L.from_numpy(v.copy()), right=right),
                     L.bucketize(L.from_numpy(v.copy()), L.from_numpy(s.copy()), right=right)))


@pytest.mark.parametrize("dtype", ["bool", "complex64"])
def test_searchsorted_empty_input_before_dtype_checks(dtype):
    _same(lambda L: L.searchsorted(L.ones(4, dtype=getattr(L, dtype)),
                                   L.ones(0, dtype=getattr(L, dtype))))
    _same(lambda L: L.bucketize(L.ones(0, 2, dtype=getattr(L, dtype)),
                                L.ones(4, dtype=getattr(L, dtype))))
    _same(lambda L: L.bucketize(L.ones(2, dtype=getattr(L, dtype)),
                                L.ones(4, dtype=getattr(L, dtype))))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", ["log2", "log10", "log1p"])
@pytest.mark.parametrize("n", [1, 7, 37, 300])
def test_complex_logs_bits(dtype, name, n):
    def fn(L):
        z, sp = _complex_operands(L, getattr(L, dtype), n, 4)
        return getattr(L, name)(L.cat([z, sp]))
    _same(fn)


# ------------------------------------------------------------- the argument parser's errors

PARSER = {
    "count_nonzero keepdim": lambda L, x: L.count_nonzero(x, keepdim=True),
    "count_nonzero dim keepdim": lambda L, x: L.count_nonzero(x, dim=0, keepdim=True),
    "count_nonzero positional keepdim": lambda L, x: L.count_nonzero(x, 0, keepdim=True),
    "count_nonzero out": lambda L, x: L.count_nonzero(x, dim=0, out=x),
    "count_nonzero method keepdim": lambda L, x: x.count_nonzero(dim=0, keepdim=True),
    "count_nonzero bad types": lambda L, x: L.count_nonzero(x, "a", "b"),
    "squeeze out": lambda L, x: L.squeeze(x, out=x),
    "squeeze dim out": lambda L, x: L.squeeze(x, dim=1, out=x),
    "squeeze method keyword": lambda L, x: x.squeeze(foo=1),
    "masked_fill out": lambda L, x: L.masked_fill(x, x.bool(), 1, out=x),
    "masked_fill method out": lambda L, x: x.masked_fill(x.bool(), 1.5, out=x),
    "masked_fill method keyword": lambda L, x: x.masked_fill(x.bool(), valu=1),
    "argsort out": lambda L, x: L.argsort(x, out=x),
    "argsort descending out": lambda L, x: L.argsort(x, descending=True, out=x),
    "argsort method keywords": lambda L, x: x.argsort(descending=True, foo=1),
    "rsub out": lambda L, x: L.rsub(x, x, out=x),
    "rsub keyword": lambda L, x: L.rsub(x, 2, beta=3),
    "still binds": lambda L, x: (L.count_nonzero(x, 0), x.squeeze(), L.masked_fill(x, x > 1, 2),
                                 L.argsort(x, descending=True), L.rsub(x, 2)),
}


@pytest.mark.parametrize("case", list(PARSER))
def test_parser_errors(case):
    _same(lambda L: PARSER[case](L, L.arange(4.).reshape(2, 2)))


REDUCTION_OUT = {
    "nanmean int out": lambda L: L.nanmean(L.ones(2, dtype=L.int16), out=L.empty(0, dtype=L.int16)),
    "nanmean int": lambda L: L.nanmean(L.ones(2, dtype=L.int16)),
    "nanmean bool dim out": lambda L: L.nanmean(L.ones(2, dtype=L.bool), dim=0, out=L.empty(0)),
    "nansum dtype out": lambda L: L.nansum(L.ones(2, dtype=L.int16), dtype=L.float64,
                                           out=L.empty(0, dtype=L.int16)),
    "cumsum dtype out": lambda L: L.cumsum(L.ones(2, dtype=L.int16), 0, dtype=L.complex64,
                                           out=L.empty(0)),
    "sum dtype out": lambda L: L.sum(L.ones(2, dtype=L.int16), 0, dtype=L.complex64,
                                     out=L.empty(0)),
    "cumprod dtype out": lambda L: L.cumprod(L.ones(2, dtype=L.int16), 0, dtype=L.float32,
                                             out=L.empty(0, dtype=L.int64)),
    "prod dtype out": lambda L: L.prod(L.ones(2, dtype=L.int16), 0, dtype=L.float32,
                                       out=L.empty(0, dtype=L.int64)),
    "mean out": lambda L: L.mean(L.ones(2), out=L.empty(0, dtype=L.int64)),
    "mean dim out": lambda L: L.mean(L.ones(2), 0, out=L.empty(0, dtype=L.int64)),
    "mean dim out wider": lambda L: L.mean(L.arange(3.), 0, out=L.empty(0, dtype=L.float64)),
    "mean dtype out": lambda L: L.mean(L.ones(2), dtype=L.float64, out=L.empty(0)),
    "sum dtype out ok": lambda L: L.sum(L.arange(3.), 0, dtype=L.float64,
                                        out=L.empty(0, dtype=L.float64)),
    "ldexp_ int": lambda L: L.ones(2, dtype=L.int64).ldexp_(L.ones(2, dtype=L.int64)),
    "ldexp out int": lambda L: L.ldexp(L.ones(2), L.ones(2), out=L.empty(2, dtype=L.int16)),
    "ldexp out complex": lambda L: L.ldexp(L.ones(2, dtype=L.complex64), L.ones(2),
                                           out=L.empty(2)),
    "ldexp_ complex": lambda L: L.ones(2).ldexp_(L.ones(2, dtype=L.complex64)),
}


@pytest.mark.parametrize("case", list(REDUCTION_OUT))
def test_reduction_and_ldexp_out_checks(case):
    _same(REDUCTION_OUT[case])


@pytest.mark.parametrize("case", [((0,), 0, [0, 1]), ((0, 3), 0, [0, 1]), ((3, 0), 1, [0]),
                                  ((0, 3), 1, [0, 1]), ((2, 0, 3), 1, [0, 1, 0]), ((0,), 0, []),
                                  ((0, 3), 0, [5]), ((0, 0), 0, [1]), ((3,), 0, [5]),
                                  ((0, 3), 1, [7])], ids=str)
@pytest.mark.parametrize("dtype", ["int8", "float32"])
def test_index_fill_of_empty_tensors(case, dtype):
    shape, dim, index = case
    _same(lambda L: L.ones(shape, dtype=getattr(L, dtype)).index_fill(
        dim, L.tensor(index, dtype=L.long), 1.5))


@pytest.mark.parametrize("base", [2, -2, 1, 2.5])
@pytest.mark.parametrize("dtype", ["float32", "int64", "float64"])
def test_number_to_tensor_power_is_contiguous(base, dtype):
    def fn(L):
        x = (L.arange(12.).reshape(3, 4, 1).permute(2, 1, 0) / 7).to(getattr(L, dtype))
        y = base ** x
        return y, y.stride(), L.pow(base, x).stride()
    _same(fn)


def test_number_to_tensor_power_out_cast():
    _same(lambda L: L.pow(2.5, L.ones(3, dtype=L.int64), out=L.empty(3, dtype=L.int64)))


SELECTING = {
    "sort complex 0-d": lambda L: L.tensor(1j).sort(),
    "sort complex empty": lambda L: L.ones(0, dtype=L.complex64).sort(),
    "argsort complex 0-d": lambda L: L.tensor(1j).argsort(),
    "median bool": lambda L: L.ones(2, dtype=L.bool).median(),
    "mode complex empty": lambda L: L.ones(0, 1, 1, dtype=L.complex64).mode(-2),
    "mode complex": lambda L: L.ones(2, dtype=L.complex64).mode(),
    "cummax complex 0-d": lambda L: L.tensor(1j).cummax(0),
    "cummax complex empty": lambda L: L.ones(0, dtype=L.complex64).cummax(0),
    "cummax complex": lambda L: L.ones(2, dtype=L.complex64).cummax(0),
    "cummin complex 0-d": lambda L: L.tensor(1j).cummin(0),
    "kthvalue bool 0-d": lambda L: L.tensor(True).kthvalue(1, 0),
    "kthvalue complex 0-d": lambda L: L.tensor(1j).kthvalue(1, 0),
    "kthvalue bool": lambda L: L.ones(2, dtype=L.bool).kthvalue(1, 0),
    "aminmax complex dim": lambda L: L.tensor(1j).aminmax(dim=0),
    "aminmax complex 3-d dim": lambda L: L.ones(1, 3, 1, dtype=L.complex64).aminmax(dim=-1),
    "index_fill empty complex": lambda L: L.ones(0, 4, 4, dtype=L.complex64).index_fill(
        -3, L.tensor([0, 1]), 1.5),
    "index_fill empty transposed": lambda L: L.ones(4, 0).t().index_fill(0, L.tensor([0, 1]),
                                                                         1.5),
    "aminmax complex": lambda L: L.ones(2, dtype=L.complex64).aminmax(),
    "amin complex empty": lambda L: L.ones(0, 4, dtype=L.complex64).amin(),
    "amax complex empty dim": lambda L: L.ones(0, 4, dtype=L.complex64).amax(1),
    "amin complex": lambda L: L.ones(2, 4, dtype=L.complex64).amin(),
}


@pytest.mark.parametrize("case", list(SELECTING))
def test_selecting_ops_dtype_checks(case):
    _same(SELECTING[case])


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32", "int64", "bool", "float16",
                                   "complex64"])
def test_median_of_empty(dtype):
    _same(lambda L: (L.ones(0, dtype=getattr(L, dtype)).median(),
                     L.ones(0, dtype=getattr(L, dtype)).nanmedian()))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("shape, kw", [((3,), {}), ((3, 3), {"dim": 0}),
                                       ((3, 3), {"dim": -1, "keepdim": True}),
                                       ((5,), {"correction": 0}), ((2, 3, 4), {"dim": 1})],
                         ids=str)
@pytest.mark.parametrize("name", ["var", "std", "var_mean", "std_mean"])
def test_half_variance_by_welford(seed, shape, kw, name):
    v = (np.random.default_rng(seed).standard_normal(shape) * [1, 3, 100, 7][seed])
    _same(lambda L: getattr(L, name)(L.from_numpy(v.astype(np.float32)).half(), **kw))


@pytest.mark.parametrize("case", ["complex empty float out", "double out", "long out",
                                  "complex empty"])
def test_logcumsumexp_out_and_empty(case):
    _same({"complex empty float out": lambda L: L.logcumsumexp(
               L.ones(0, 1, 2, dtype=L.complex64), 0, out=L.empty(0)),
           "double out": lambda L: L.logcumsumexp(L.ones(2), 0, out=L.empty(0, dtype=L.float64)),
           "long out": lambda L: L.logcumsumexp(L.ones(2), 0, out=L.empty(0, dtype=L.int64)),
           "complex empty": lambda L: L.logcumsumexp(L.ones(0, dtype=L.complex64), 0)}[case])


@pytest.mark.parametrize("case", ["rdiv", "mul", "div"])
def test_complex_arithmetic_of_empty(case):
    _same({"rdiv": lambda L: 3 / L.ones(0, dtype=L.complex64),
           "mul": lambda L: L.ones(0, 4, dtype=L.complex64) * L.tensor(1j),
           "div": lambda L: L.ones(0, 4, dtype=L.complex64) / L.ones(4, dtype=L.complex64)}[case])

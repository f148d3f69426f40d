"""Differences from torch closed in the seventeenth fidelity pass (what ``tools/fuzz_ops.py``
found), each case compared with torch: the layout of an operand converted to the common
dtype, bfloat16 floor and trunc division.
"""

import warnings

import numpy as np
import pytest

import ember

from .helpers import outcome_of, same_outcome, torch


def _same(fn, strides=True):
    same_outcome(outcome_of(torch, fn), outcome_of(ember, fn), strides)


def _bits(fn):
    """``fn``'s tensor results as bytes (signs of zero and NaN payloads aside, as torch's
    loops differ there), compared between the libraries."""
    def raw(lib):
        out = fn(lib)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        res = []
        for t in outs:
            a = t.detach().float().numpy() if t.dtype in (lib.bfloat16,) else \
                t.detach().resolve_conj().numpy()
            a = np.ascontiguousarray(a)
            if a.dtype.kind in "fc":
                a = np.where(np.isnan(a), 0, a)
            res.append((str(t.dtype), tuple(t.shape), a.tobytes()))
        return res
    assert raw(torch) == raw(ember)


# ------------------------------------------------------------- promoted operand layout

def test_promoted_expanded_operand_runs_torch_loop():
    """An expanded uint8 operand converted to float64 is copied contiguously (``Tensor.to``
    of a tensor that is not dense), so logaddexp2 runs its vector loop, not the scalar one."""
    a = np.arange(1, 9, dtype=np.uint8).reshape(1, 4, 2)
    b = np.random.default_rng(0).standard_normal((3, 4, 2)) * 3

    def fn(L):
        x = L.from_numpy(a.copy()).expand(3, 4, 2)
        return x.logaddexp2(L.from_numpy(b.copy())), x.double().stride(), (x + 0.5).stride()
    _same(fn)
    _bits(lambda L: L.from_numpy(a.copy()).expand(3, 4, 2).logaddexp2(L.from_numpy(b.copy())))


# ------------------------------------------------------------- bfloat16 floor/trunc division

@pytest.mark.parametrize("mode", ["floor", "trunc", "//"])
@pytest.mark.parametrize("divisor", ["tensor", "one element", "0-d float32", "number",
                                     "int64 dividend"])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_low_precision_rounding_division(mode, divisor, dtype):
    """torch's ``Vectorized<BFloat16>`` floor/trunc division rounds each step to the type
    (the quotient before ``trunc``); a one-element divisor takes the float path, read at
    its own value."""
    rng = np.random.default_rng(3)
    n = 4000
    a = (rng.standard_normal(n) * rng.choice([1, 30, 1000], n)).astype(np.float32)
    b = (rng.standard_normal(n) * rng.choice([0.01, 1, 30], n)).astype(np.float32)

    def fn(L):
        dt = getattr(L, dtype)
        x, y = L.from_numpy(a).to(dt), L.from_numpy(b).to(dt)
        if divisor == "one element":
            y = y[:1]
        elif divisor == "0-d float32":
            y = L.tensor(0.3123456)
        elif divisor == "number":
            y = 0.3123456
        elif divisor == "int64 dividend":
            x = L.from_numpy(a.astype(np.int64))
        return x // y if mode == "//" else x.div(y, rounding_mode=mode)
    _bits(fn)


# ------------------------------------------------------------- complex sigmoid

@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("n", [1, 3, 8, 9, 17, 40])
@pytest.mark.parametrize("layout", ["contiguous", "sliced"])
def test_complex_sigmoid(dtype, n, layout):
    """``1 / (1 + exp(-z))`` with glibc's cexp and c10's division element by element (torch's
    vectors map both), the vectors negating as ``0 - z``."""
    rng = np.random.default_rng(n)
    v = (rng.standard_normal(2 * n) * 3 + 1j * rng.standard_normal(2 * n) * 3).astype(dtype)
    v[::7] = v[::7].real
    v[::5] = 1j * v[::5].imag
    v[::13] = np.inf

    def fn(L):
        x = L.from_numpy(v.copy())
        x = x[:n] if layout == "contiguous" else x[::2]
        return x.sigmoid(), L.sigmoid(x.clone())
    _bits(fn)


# ------------------------------------------------------------- complex lerp

_LERP_LAYOUTS = {
    "contiguous": lambda L, a, e, w: (a, e, w),
    "0-d weight": lambda L, a, e, w: (a, e, w[0, 0].clone()),
    "row weight": lambda L, a, e, w: (a, e, w[0].clone()),
    "number weight": lambda L, a, e, w: (a, e, 0.7),
    "sliced": lambda L, a, e, w: (a[::2], e[::2], w[::2]),
    "transposed": lambda L, a, e, w: (a.t(), e.t(), w.t()),
}


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("n", [1, 3, 5, 8, 9, 12, 17, 24, 31, 40])
@pytest.mark.parametrize("layout", list(_LERP_LAYOUTS))
def test_complex_lerp(dtype, n, layout):
    """torch's complex lerp: vectors of two steps, then one more vector where half a step is
    left (complex64's vector abs testing each odd element by the even one before it, in the
    iterator's order), the rest one by one with the compiler's contracted product (complex128
    too)."""
    rng = np.random.default_rng(n)

    def c(*s):
        return (rng.standard_normal(s) * 2 + 1j * rng.standard_normal(s) * 2).astype(dtype)
    vals = [c(3, n) for _ in range(4)]

    def fn(L):
        a, e, w, _ = (L.from_numpy(v.copy()) for v in vals)
        return L.lerp(*_LERP_LAYOUTS[layout](L, a, e, w * 0.5))
    for _ in range(4):
        _bits(fn)
        vals = [c(3, n) for _ in range(4)]


# ------------------------------------------------------------- bfloat16 backward formulas

@pytest.mark.parametrize("name", ["atan2", "logaddexp"])
@pytest.mark.parametrize("other", ["bfloat16", "float32", "int8"])
def test_bfloat16_backward_rounds_each_step(name, other):
    """atan2's and logaddexp's backward formulas are composed of bfloat16 ops in torch, each
    rounding to the type (not computed in float32 and rounded once)."""
    rng = np.random.default_rng(4)
    a = (rng.standard_normal((3, 4)) * 3).astype(np.float32)
    b = (rng.standard_normal((3, 4)) * 3).astype(np.float32)

    def fn(L):
        x = L.from_numpy(a).to(L.bfloat16).requires_grad_()
        y = L.from_numpy((b * 3).astype(np.int8)) if other == "int8" else \
            L.from_numpy(b).to(getattr(L, other)).requires_grad_()
        getattr(L, name)(x, y).sum().backward()
        return (x.grad,) + ((y.grad,) if y.requires_grad else ())
    _bits(fn)


# ------------------------------------------------------------- index_add, nansum

def test_complex_index_add_of_a_vector_multiplies_by_alpha():
    """A vector's ``index_add`` runs ``self += source * alpha`` element by element, the
    complex product taken for alpha 1 too (an infinite part makes the other NaN); a matrix's
    slices add without it."""
    inf = float("inf")

    def fn(L):
        src = L.tensor([complex(-inf, -0.85), 1j, complex(1.5, inf)])
        x = L.zeros(3, dtype=L.complex64)
        m = L.zeros(2, 3, dtype=L.complex64)
        return (x.index_add(0, L.tensor([0, 0, 2]), src),
                x.index_add(0, L.tensor([1, 0, 2]), src, alpha=1 + 1j),
                m.index_add(0, L.tensor([0, 0]), L.stack([src, src])))
    _same(fn)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("layout", ["contiguous", "sliced", "transposed", "expanded",
                                    "columns", "permuted"])
def test_low_precision_nansum_rounds_into_its_output(dtype, layout):
    """nansum (and nanmean, its quotient) in float16/bfloat16 has no float buffer, as sum
    has: each row's float sum is rounded to the type and added into the output."""
    rng = np.random.default_rng(1)
    a = (rng.standard_normal((6, 7, 40)) * 3).astype(np.float32)
    a[rng.random(a.shape) < 0.1] = np.nan
    a[0, 0, 0] = np.inf         # (an integral dtype= converts it as c10 does: through float)

    def fn(L):
        x = L.from_numpy(a).to(getattr(L, dtype))
        x = {"contiguous": x, "sliced": x[::2], "transposed": x.transpose(0, 2),
             "expanded": x[:1].expand(4, 7, 40), "columns": x[:, :, ::3],
             "permuted": x.permute(1, 2, 0)}[layout]
        return [x.nansum(), x.nanmean(), x.nansum(dtype=L.int32)] + [
            x.nansum(d) for d in (0, 1, 2, (0, 1), (1, 2))]
    _bits(fn)


def test_unique_orders_as_torch_sort():
    """unique sorts with torch's unstable sort: which NaN (each its own value) comes first in
    the inverse, and whether -0.0 or 0.0 is the zero returned."""
    rng = np.random.default_rng(3)
    for _ in range(40):
        a = rng.choice([0.0, -0.0, 1.0, np.nan, 2.5, -1.0], int(rng.integers(1, 60)))
        for dtype in ("float64", "float32", "bfloat16"):
            def fn(L, a=a, dtype=dtype):
                x = L.from_numpy(a.copy()).to(getattr(L, dtype))
                return x.unique(return_inverse=True, return_counts=True)
            _bits(fn)


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "int64"])
def test_resize_keeps_the_storage(dtype):
    """``resize_`` past the storage's end grows the storage: its elements outside the view
    stay, and so does the view's storage offset."""
    def fn(L):
        x = L.from_numpy(np.array([1.5, -0.5, 3, 4], np.float32)).to(getattr(L, dtype))[1::2]
        r = x.resize_(2, 3)
        return r.reshape(-1)[:3], r.storage_offset(), r.stride(), r.untyped_storage().nbytes()
    _same(fn)


# ------------------------------------------------------------- error order

@pytest.mark.parametrize("case", ["heaviside", "neg", "lerp", "lerp shapes", "neg int"])
def test_meta_checks_before_the_overlap_error(case):
    """The checks of torch's meta functions (heaviside's dtypes, a bool neg, lerp's dtypes)
    come before the iterator's error for an in-place write into an expanded tensor."""
    def fn(L):
        x = L.tensor([1., 2.]).expand(2, 2)
        if case == "heaviside":
            return x.heaviside_(L.tensor(1., dtype=L.float16))
        if case == "neg":
            return L.tensor([True]).expand(2, 2).neg_()
        if case == "lerp":
            return x.lerp_(L.tensor(1., dtype=L.float64), 0.5)
        if case == "lerp shapes":
            return x.lerp_(L.ones(3), 0.5)
        return L.tensor([1, 2]).expand(2, 2).neg_()
    _same(fn)


@pytest.mark.parametrize("case", ["sum", "sum dim", "prod", "prod dim", "mean", "mean dim",
                                  "to", "cumsum", "mul"])
def test_complex_gradient_into_a_real_input(case):
    """sum/prod/mean with a complex ``dtype=`` pass a complex gradient to a real input, which
    torch's engine refuses; formulas that take the real part (a cast, cumsum, mul) pass."""
    def fn(L):
        x = L.ones(2, 3, requires_grad=True)
        c = L.complex64
        y = {"sum": lambda: x.sum(dtype=c), "sum dim": lambda: x.sum(1, dtype=c),
             "prod": lambda: x.prod(dtype=c), "prod dim": lambda: x.prod(1, dtype=c),
             "mean": lambda: x.mean(dtype=c), "mean dim": lambda: x.mean(1, dtype=c),
             "to": lambda: x.to(c), "cumsum": lambda: x.cumsum(0, dtype=c),
             "mul": lambda: x * L.ones(3, dtype=c)}[case]()
        y.abs().sum().backward()
        return x.grad
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(fn)


# ------------------------------------------------------------- found by the second stream

@pytest.mark.parametrize("case", ["float32 self", "bfloat16 self", "float16 in place",
                                  "int self"])
def test_masked_fill_with_a_bfloat16_value_keeps_self_dtype(case):
    """masked_fill's result has self's dtype, whatever the 0-d value tensor's (a bfloat16
    value does not make it bfloat16)."""
    def fn(L):
        x = L.tensor([[1., 2., 3.], [4., 5., 6.]])
        m = L.tensor([True, False, True])
        v = L.tensor(2.7, dtype=L.bfloat16)
        if case == "float32 self":
            return x.expand(2, 2, 3).masked_fill(L.tensor(True), v)
        if case == "bfloat16 self":
            return x.bfloat16().masked_fill(m, L.tensor(2.7))
        if case == "float16 in place":
            return x.half().masked_fill_(m, v)
        return x.int().masked_fill(m, v)
    _same(fn)


@pytest.mark.parametrize("other", ["float32", "float16", "float64"])
def test_where_passes_a_complex_gradient_to_a_real_input(other):
    """where's backward gives each input the gradient of the result's (complex) dtype, which
    torch's engine refuses for a real input."""
    def fn(L):
        a = L.ones(2, dtype=L.complex64 if other != "float64" else L.float32,
                   requires_grad=True)
        b = L.ones(2, dtype=getattr(L, other), requires_grad=True)
        L.where(L.tensor([True, False]), a, b).abs().sum().backward()
        return a.grad, b.grad
    _same(fn)


@pytest.mark.parametrize("case", ["two bool bounds", "min only", "max only", "int bounds",
                                  "in place", "out"])
def test_clamp_bool_with_tensor_bounds(case):
    """torch's two-bound clamp kernel has no bool loop; one bound runs maximum/minimum."""
    def fn(L):
        b = L.tensor([True, False])
        return {"two bool bounds": lambda: b.clip(b, b), "min only": lambda: b.clamp(min=b),
                "max only": lambda: b.clamp(max=b),
                "int bounds": lambda: b.clamp(L.tensor([0, 1]), L.tensor([1, 1])),
                "in place": lambda: b.clone().clamp_(b, b),
                "out": lambda: L.clamp(b, b, b, out=L.empty(2, dtype=L.bool))}[case]()
    _same(fn)


_PRODUCTS = {
    "bmm": lambda L, o: L.bmm(L.ones(2, 2, 2), L.ones(2, 2, 2), out=o),
    "mm": lambda L, o: L.mm(L.ones(2, 2), L.ones(2, 2), out=o),
    "mv": lambda L, o: L.mv(L.ones(2, 2), L.ones(2), out=o),
    "addmm": lambda L, o: L.addmm(L.ones(2, 2), L.ones(2, 2), L.ones(2, 2), out=o),
    "baddbmm": lambda L, o: L.baddbmm(L.ones(2, 2, 2), L.ones(2, 2, 2), L.ones(2, 2, 2), out=o),
    "addmv": lambda L, o: L.addmv(L.ones(2), L.ones(2, 2), L.ones(2), out=o),
    "matmul folded": lambda L, o: L.matmul(L.ones(2, 2, 2), L.ones(2, 2), out=o),
    "matmul batched": lambda L, o: L.matmul(L.ones(3, 2, 2), L.ones(3, 2, 2), out=o),
    "matmul vector-matrix": lambda L, o: L.matmul(L.ones(2), L.arange(4.).view(2, 2), out=o),
    "matmul matrix-batch": lambda L, o: L.matmul(L.ones(3, 2, 2), L.ones(2), out=o),
    "matmul dot": lambda L, o: L.matmul(L.ones(2), L.ones(2), out=o),
}


@pytest.mark.parametrize("name", list(_PRODUCTS))
@pytest.mark.parametrize("out_dtype", ["float32", "float64"])
def test_matrix_product_out(name, out_dtype):
    """The matrix products' out= must have the result's dtype (structured kernels; dot's own
    message); matmul writes its folded and batched products into the out= too."""
    def fn(L):
        o = L.empty(3, dtype=getattr(L, out_dtype))
        r = _PRODUCTS[name](L, o)
        return r, o, r is o
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(fn)


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "expanded"])
def test_topk_results_are_contiguous(dim, layout):
    """topk's values and indices are contiguous whatever the dim and the input's layout."""
    def fn(L):
        x = L.arange(24.).view(4, 2, 3)
        x = {"contiguous": x, "transposed": x.transpose(0, 2),
             "expanded": x[:1].expand(4, 2, 3)}[layout]
        v, i = x.topk(2, dim=dim, sorted=dim != 1)
        return v, i
    _same(fn)


_ZERO_DIM_INDICES = {
    "int": 0, "slice": slice(None, None, 2), "tuple of an int": (0,),
    "ellipsis and slice": (Ellipsis, slice(None, None, 2)), "None and int": (None, 0),
    "list": [0], "bool": True, "None": None, "ellipsis": Ellipsis,
}


@pytest.mark.parametrize("name", list(_ZERO_DIM_INDICES))
@pytest.mark.parametrize("write", [False, True])
def test_indexing_a_zero_dim_tensor(name, write):
    """A lone int or slice indexing a 0-dim tensor has messages of its own; any other index
    with a dim to consume (a tuple of them too) has too many indices."""
    def fn(L):
        x = L.tensor(1.)
        index = _ZERO_DIM_INDICES[name]
        if write:
            x[index] = 2.
            return x
        return x[index]
    _same(fn)


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "complex64", "float16", "bool"])
def test_modified_saved_tensor_names_its_type(dtype):
    """The version-counter error names a classic type by its legacy Python class
    (torch.FloatTensor), any other by its C++ type (CPUBFloat16Type, CPUBoolType)."""
    def fn(L):
        if dtype == "bool":
            x = L.ones(3, requires_grad=True)
            b = L.tensor([True, False, True])
            out = x * b
            b.logical_not_()
        else:
            x = L.ones(3, dtype=getattr(L, dtype), requires_grad=True)
            y = (x * 1).exp()
            out = y * y
            y.add_(1)
        out.sum().abs().backward()
    _same(fn)


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, float("inf")])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cdist_backward(p, dtype):
    """``_cdist_backward`` adds the pairs' gradients row after row, and x2's gradient is the
    same kernel with the roles swapped (not the negated x1 one: p = 0 gives +0)."""
    rng = np.random.default_rng(5)
    a = rng.standard_normal((2, 3, 4)).astype(dtype)
    b = rng.standard_normal((2, 9, 4)).astype(dtype)
    b[0, 0, 0] = a[0, 1, 0]
    b[1, 1] = a[1, 2]

    def fn(L):
        x = L.from_numpy(a.copy()).requires_grad_()
        y = L.from_numpy(b.copy()).requires_grad_()
        L.cdist(x, y, p=p).sum().backward()
        return x.grad, y.grad
    _bits(fn)


_SCATTER_ERRORS = {
    "scatter_ reduce, expanded": lambda L: L.ones(1, 4).expand(3, 4).scatter_(
        0, L.tensor([[0, 1, 2, 3]]), 2.5, reduce="add"),
    "scatter_ bad index, expanded": lambda L: L.ones(1, 4).expand(3, 4).scatter_(
        0, L.tensor([[5, 1, 2, 3]]), 2.5),
    "scatter_add_ bad index, expanded": lambda L: L.ones(1, 3).expand(2, 3).scatter_add_(
        1, L.tensor([[0, 1, 7]]), L.ones(2, 3)),
    "scatter_reduce_ expanded": lambda L: L.ones(1, 3).expand(2, 3).scatter_reduce_(
        1, L.tensor([[0, 1, 0], [0, 1, 2]]), L.ones(2, 3), "sum"),
    "mean of bools, bad index": lambda L: L.ones(3, dtype=L.bool).scatter_reduce(
        0, L.tensor([-1, 5, 0]), L.ones(3, dtype=L.bool), "mean"),
    "mean of bools": lambda L: L.ones(3, dtype=L.bool).scatter_reduce(
        0, L.tensor([0, 1, 0]), L.ones(3, dtype=L.bool), "mean"),
    "amax of complex, bad index": lambda L: L.ones(3, dtype=L.complex64).scatter_reduce(
        0, L.tensor([-1, 5, 0]), L.ones(3, dtype=L.complex64), "amax"),
    "mean of complex": lambda L: L.ones(3, dtype=L.complex64).scatter_reduce(
        0, L.tensor([0, 1, 0]), L.tensor([1j, 2, 3]), "mean", include_self=False),
    "scatter bad index": lambda L: L.ones(3).scatter(0, L.tensor([0, 1, 7]), 2.),
    "index_copy_ expanded": lambda L: L.ones(1, 3).expand(2, 3).index_copy_(
        1, L.tensor([0, 5]), L.ones(2, 2, dtype=L.float64)),
    "index_copy_ expanded, bad dim": lambda L: L.ones(1, 3).expand(2, 3).index_copy_(
        5, L.tensor([0, 1]), L.ones(2, 2)),
}


@pytest.mark.parametrize("case", list(_SCATTER_ERRORS))
def test_scatter_family_error_order(case):
    """The scatter kernels test the index values last: after an in-place write's overlap
    test and the reduction's dtype dispatch (scatter_reduce has no mean of bools, no
    amax/amin of complex; its mean of complex divides); index_copy_ tests the overlap first
    after the dim."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(_SCATTER_ERRORS[case])


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("case", ["bool mean", "complex amin", "empty complex amax"])
def test_scatter_reduce_include_self_order(case, include_self):
    """Without include_self torch first scatters the initial value in (its index test comes
    before the reduction's dtype dispatch); an empty index returns before both."""
    def fn(L):
        if case == "bool mean":
            x, src, r = L.ones(3, 3, dtype=L.bool), L.ones(3, 3, dtype=L.bool), "mean"
            ix = L.tensor([[0, 1, -3], [0, 0, 0], [1, 1, 1]])
        elif case == "complex amin":
            x, src, r = L.ones(4, dtype=L.complex64), L.ones(4, dtype=L.complex64), "amin"
            ix = L.tensor([0, -2, 1, 1])
        else:
            x, src, r = L.ones(0, dtype=L.complex64), L.ones(0, dtype=L.complex64), "amax"
            ix = L.ones(0, dtype=L.int64)
        return x.scatter_reduce(0, ix, src, r, include_self=include_self)
    _same(fn)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_mse_loss_low_precision(dtype, reduction, layout):
    """mse_loss in bfloat16 rounds the difference and its square to the type; its backward
    ``alpha * diff * grad`` rounds alpha (2 / numel) to the type and each product."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((16, 9)).astype(np.float32) * 3
    b = rng.standard_normal((16, 9)).astype(np.float32) * 3

    def fn(L):
        x = L.from_numpy(a).to(getattr(L, dtype)).requires_grad_()
        y = L.from_numpy(b).to(getattr(L, dtype)).requires_grad_()
        xx, yy = (x, y) if layout == "contiguous" else (x.t(), y.t())
        out = L.nn.functional.mse_loss(xx, yy, reduction=reduction)
        (out.sum() if reduction == "none" else out).backward()
        return out.detach(), x.grad, y.grad
    _bits(fn)

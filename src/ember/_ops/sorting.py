"""Sorting and order statistics: sort, argsort, msort, topk, kthvalue, median, nanmedian,
mode, unique, unique_consecutive.

torch's CPU rules, followed here: NaN sorts as the largest value (last ascending, first
descending); ``sort(stable=True)`` keeps ties in input order; ``median`` is the lower median
and picks, among ties, the index a stable sort puts there (torch's comparator breaks ties by
index), with the first NaN winning; ``nanmedian`` ignores NaN; ``kthvalue`` replays torch's
quickselect (Sedgewick's partition) on rows where the k-th value is tied, so the index is
torch's; ``topk`` and ``mode`` replay GCC's std::nth_element / partial_sort / sort on rows
with ties (``mode``: the smallest of the most frequent values, torch's tie index).

Gradients flow to the selected indices (torch's ``value_selecting_reduction_backward``);
the full ``median()`` splits the gradient evenly between tied values.
"""

from __future__ import annotations

from .. import _dtype as D
from .. import _errors, _stl
from .. import _memory_format as _mf
from .._device import xp
from .registry import (
    NONE,
    _write_out,
    check_out_dtype,
    check_out_dtypes,
    check_out_tuple,
    expose,
    op,
    run,
    write_outs,
)
from .search import _even, _return_type, _value_selecting_backward
from .util import c_order, dim_not_none, norm_dim, renamed

SortResult = _return_type("sort")
TopkResult = _return_type("topk")
KthvalueResult = _return_type("kthvalue")
MedianResult = _return_type("median")
NanmedianResult = _return_type("nanmedian")
ModeResult = _return_type("mode")


def _wrap(arr):
    from .._tensor import Tensor
    return Tensor._wrap(arr)


def _select_back(grads, self_shape, dim, indices, keepdim):
    """The gradient of an index-selecting op (``indices``: its indices result, as torch
    saves it)."""
    return _value_selecting_backward(grads[0], dim, indices._data, self_shape, keepdim)


def _select_back_kept(grads, self_shape, dim, indices):
    """:func:`_select_back` of sort and topk, whose results keep every dim."""
    return _value_selecting_backward(grads[0], dim, indices._data, self_shape, True)


def _take(self, dim, indices, keepdim):
    """The kernel of every index-selecting op: values at ``indices`` (given with kept dims)."""
    if self.ndim == 0:
        return self.copy(), indices.reshape(())
    vals = xp.take_along_axis(self, indices, axis=dim)
    if not indices.flags.c_contiguous:      # (sort's, laid out as its input)
        vals = _mf.ti_layout(vals, indices)
    if not keepdim:
        vals, indices = xp.squeeze(vals, dim), xp.squeeze(indices, dim)
    return vals, indices


def _selecting(node_name, name, back=_select_back):
    return op(node_name, name=name, method=False, function=False, promote=NONE, outputs=2,
              saved_results={"indices": 1}, self=back)(_take)


_sort0 = _selecting("SortBackward0", "sort_", _select_back_kept)
_sort1 = _selecting("SortBackward1", "sort_stable", _select_back_kept)
_topk = _selecting("TopkBackward0", "topk_", _select_back_kept)
_kthvalue = _selecting("KthvalueBackward0", "kthvalue_")
_median_dim = _selecting("MedianBackward1", "median_dim")
_nanmedian_dim = _selecting("NanmedianBackward1", "nanmedian_dim")
_mode = _selecting("ModeBackward0", "mode_")


def _run_selecting(d, rt, input, dim, idx, keepdim, out=None):
    """Run a selecting op; ``idx`` has the reduced dim kept."""
    res = rt(*run(d, (input, dim, idx, keepdim)))
    if out is not None:
        return write_outs(out, res, rt, *_OUT_MISMATCH.get(rt, ()))
    return res


def _median_mismatch(i, expected, got):
    if i:
        return (f"Expected tensor for argument #1 'indices' to have scalar type Long; but got "
                f"{D.cpu_type_name(got)} instead (while checking arguments for median)")
    return (f"Expected tensor for 'values' to have the same type as tensor for argument #2 "
            f"'self'; but type {D.cpu_type_name(got)} does not equal {D.cpu_type_name(expected)} "
            "(while checking arguments for median)")


# torch's messages for an out= tensor of the wrong dtype, by op (see write_outs): the structured
# kernels' (sort, topk) by default
_OUT_MISMATCH = {
    KthvalueResult: (lambda i, e, g: "output indices must be of scalar type Long" if i else
                     "output values must be of same type as input",),
    ModeResult: (lambda i, e, g: f"expected scalar type '{e.scalar_name}' but got "
                 f"'{g.scalar_name}' for {('values', 'indices')[i]} output",),
    MedianResult: (_median_mismatch, (1, 0)),
    NanmedianResult: (_median_mismatch, (1, 0)),
}


def _rows(a, dim):
    """``a`` with ``dim`` moved last and flattened to rows, and how to undo it."""
    moved = xp.moveaxis(a, dim, -1)
    shape = moved.shape
    return moved.reshape(-1, shape[-1]), lambda r: xp.moveaxis(
        r.reshape(shape[:-1] + (r.shape[-1],)), -1, dim)


def _check_nonempty_dim(input, dim, fname):
    if input._data.ndim and input._data.shape[dim] == 0:
        raise IndexError(f"{fname}(): Expected reduction dim {dim} to have non-zero size.")


def _not_implemented_bool(input, kernel, out=None, rt=None):
    """torch's dispatch error for a kernel built without bool (nor complex) types; after
    its check of the dtypes of an ``out=`` tuple of the op (its result type ``rt``), which
    comes first."""
    if input._data.dtype == xp.bool_ or input.dtype.is_complex:
        if out is not None:
            check_out_dtypes(out, (input.dtype, D.int64), *_OUT_MISMATCH.get(rt, ()))
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype.scalar_name}'")


# ----------------------------------------------------------------------------- libstdc++ replay
# torch's CPU topk and mode run std::nth_element / std::partial_sort / std::sort on
# (value, index) pairs compared by value only, so tied values come out in the order those
# algorithms leave them. On rows with ties ember replays GCC's algorithms (introsort,
# introselect, heap select) step by step, so the indices are torch's. (A torch build that
# sorts with x86-simd-sort on AVX-512 machines orders ties differently; the wheels checked
# here use std::sort.)

_REPLAY_LIMIT = 1 << 16   # elements per call; beyond it ties keep a stable order (faster)
# topk's replay is introselect (linear in a row) and a sort of k: about a microsecond an
# element, so rows of thousands of tied distances (Hamming codes, counts) stay torch's
_TOPK_REPLAY_LIMIT = 1 << 18


def _greater_nan(x, y):
    return (x[0] != x[0] and y[0] == y[0]) or x[0] > y[0]


def _less_nan(x, y):
    return (x[0] == x[0] and y[0] != y[0]) or x[0] < y[0]


def _topk_row(row, k, largest, sorted):
    """torch's topk_impl_loop on one row: the indices it returns."""
    q = [(v, j) for j, v in enumerate(row)]
    less = _greater_nan if largest else _less_nan
    if k * 64 <= len(q):
        _stl.partial_sort(q, 0, k, len(q), less)
    else:
        _stl.nth_element(q, k - 1, less)
        if sorted:
            _stl.sort(q, 0, k - 1, less)
    return [j for _, j in q[:k]]


def _has_ties(rows):
    """Per row: does some value occur twice (NaNs count as equal)?"""
    s = xp.sort(rows, axis=-1)
    eq = s[:, 1:] == s[:, :-1]
    if rows.dtype.kind in "fV":
        eq |= xp.isnan(s[:, 1:]) & xp.isnan(s[:, :-1])
    return eq.any(-1)


# ----------------------------------------------------------------------------- sort

def _argsort(a, dim, descending):
    """Stable argsort along ``dim``; NaN is the largest value, as in torch."""
    if not descending:
        return xp.argsort(a, axis=dim, kind="stable")
    n = a.shape[dim]
    idx = xp.argsort(xp.flip(a, dim), axis=dim, kind="stable")
    return (n - 1) - xp.flip(idx, dim)


def _sort_indices(input, dim, descending, stable):
    if descending.__class__ is not bool or stable is not None and stable.__class__ is not bool:
        # (a flag of another type: torch's parser error, where it refuses the call)
        new = _errors.call_failure()
        if new is not None:
            raise new
    a = input._data
    if input.dtype.is_complex:
        raise RuntimeError(" Sort does not support complex dtypes on CPU")
    if a.ndim == 0:
        return xp.zeros((), xp.int64)
    idx = _argsort(a, dim, descending).astype(xp.int64)
    if not stable and a.size and a.size <= _REPLAY_LIMIT:
        rows, back = _rows(a, dim)
        ties = _has_ties(rows)
        if ties.any():
            ridx = _rows(idx, dim)[0].copy()
            less = _greater_nan if descending else _less_nan
            for r in xp.nonzero(ties)[0]:
                q = [(v, j) for j, v in enumerate(rows[r].tolist())]
                _stl.sort(q, 0, len(q), less)
                ridx[r] = [j for _, j in q]
            idx = back(ridx)
    return idx


@expose(overloads=("(Tensor input, *, bool stable, int dim = -1, bool descending = False, "
                   "tuple of Tensors out = None)", "(Tensor input, int dim = -1, bool "
                   "descending = False, *, tuple of Tensors out = None)"))
def sort(input, dim=-1, descending=False, *, stable=None, out=None):
    """Sorted values along ``dim`` and their indices (``stable=True`` keeps ties in order).

    >>> ember.tensor([3., 1., 2.]).sort()
    torch.return_types.sort(
    values=tensor([1., 2., 3.]),
    indices=tensor([1, 2, 0]))
    """
    check_out_tuple("sort", out)
    dim = norm_dim(dim, input._data.ndim)
    idx = _mf.ti_layout(c_order(_sort_indices(input, dim, descending, stable)), input._data)
    return _run_selecting(_sort0 if stable is None else _sort1, SortResult, input, dim, idx,
                          True, out)


@expose(overloads=("(Tensor input, *, bool stable, int dim = -1, bool descending = False, "
                   "Tensor out = None)", "(Tensor input, int dim = -1, bool descending = False)"))
def argsort(input, dim=-1, descending=False, *, stable=False):
    """The indices that sort ``input`` along ``dim``.

    >>> ember.tensor([3., 1., 2.]).argsort()
    tensor([1, 2, 0])
    """
    dim = norm_dim(dim, input._data.ndim)
    return _wrap(_mf.ti_layout(c_order(_sort_indices(input, dim, descending, stable)),
                               input._data))


@expose
def msort(input, *, out=None):
    """``input`` sorted along its first dim (``sort(input, 0).values``).

    >>> ember.tensor([[2., 1.], [1., 3.]]).msort()
    tensor([[1., 1.],
            [2., 3.]])
    """
    res = sort(input, 0).values
    if out is not None:
        check_out_dtype(out, input.dtype)
        return _write_out(out, res._data)
    return res


# ----------------------------------------------------------------------------- topk

@expose(overloads=("(Tensor input, int k, int dim = -1, bool largest = True, bool sorted = True, "
                    "*, tuple of Tensors out = None)",))
def topk(input, k, dim=-1, largest=True, sorted=True, *, out=None):
    """The ``k`` largest (``largest=False``: smallest) values along ``dim`` and their indices.

    >>> ember.tensor([1., 5., 3.]).topk(2)
    torch.return_types.topk(
    values=tensor([5., 3.]),
    indices=tensor([1, 2]))
    """
    check_out_tuple("topk", out)
    a = input._data
    nd = a.ndim
    dim = norm_dim(dim, nd)
    if not 0 <= k <= (a.shape[dim] if nd else 1):
        raise RuntimeError("selected index k out of range")
    if a.dtype == xp.bool_:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    if input.dtype.is_complex:
        raise RuntimeError(" topk does not support complex dtypes on CPU")
    if nd == 0:
        return _run_selecting(_topk, TopkResult, input, 0, xp.zeros((), xp.int64), True, out)
    idx = xp.take(_argsort(a, dim, largest), range(k), axis=dim).astype(xp.int64)
    if k and a.size and a.size <= _TOPK_REPLAY_LIMIT:
        rows, back = _rows(a, dim)
        ridx, _ = _rows(idx, dim)
        ridx = ridx.copy()
        redo = xp.ones(rows.shape[0], bool) if not sorted else _has_ties(rows)
        for r in xp.nonzero(redo)[0]:
            ridx[r] = _topk_row(rows[r].tolist(), k, largest, sorted)
        idx = back(ridx)
    # (torch's results are contiguous, whatever the dim and the input's layout)
    return _run_selecting(_topk, TopkResult, input, dim, xp.ascontiguousarray(idx), True, out)


# ----------------------------------------------------------------------------- kthvalue

def _gt_or_nan(x, y):
    return (x != x and y == y) or x > y


def _quickselect(vals, k):
    """torch's quick_select_template (Sedgewick): the original index it leaves at ``k``."""
    arr = list(vals)
    ind = list(range(len(arr)))

    def swap(i, j):
        arr[i], arr[j] = arr[j], arr[i]
        ind[i], ind[j] = ind[j], ind[i]

    lo, hi = 0, len(arr) - 1
    while True:
        if hi <= lo:
            return ind[k]
        if hi == lo + 1:
            if _gt_or_nan(arr[lo], arr[hi]):
                swap(lo, hi)
            return ind[k]
        p = (lo + hi) >> 1
        swap(p, lo + 1)
        if _gt_or_nan(arr[lo + 1], arr[hi]):
            swap(lo + 1, hi)
        if _gt_or_nan(arr[lo], arr[hi]):
            swap(lo, hi)
        if _gt_or_nan(arr[lo + 1], arr[lo]):
            swap(lo + 1, lo)
        i, j = lo + 1, hi
        piv = arr[lo]
        while True:
            i += 1
            while _gt_or_nan(piv, arr[i]):
                i += 1
            j -= 1
            while _gt_or_nan(arr[j], piv):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1


def _same(a, v):
    return (a == v) | (xp.isnan(a) & xp.isnan(v)) if a.dtype.kind in "fcV" else a == v


@expose(overloads=("(Tensor input, int k, int dim = -1, bool keepdim = False, "
                    "*, tuple of Tensors out = None)",))
def kthvalue(input, k, dim=-1, keepdim=False, *, out=None):
    """The ``k``-th smallest value along ``dim`` (1-based) and its index.

    >>> ember.tensor([3., 1., 2.]).kthvalue(2)
    torch.return_types.kthvalue(
    values=tensor(2.),
    indices=tensor(2))
    """
    check_out_tuple("kthvalue", out)
    a = input._data
    nd = a.ndim
    dim = norm_dim(dim, nd)
    _check_nonempty_dim(input, dim, "kthvalue")
    if not 0 < k <= (a.shape[dim] if nd else 1):
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
    if nd:          # (a 0-d tensor is its own k-th value, of any dtype)
        _not_implemented_bool(input, "kthvalue_cpu", out, KthvalueResult)
    if nd == 0:
        return _run_selecting(_kthvalue, KthvalueResult, input, 0, xp.zeros((), xp.int64),
                              keepdim, out)
    rows, back = _rows(a, dim)
    if rows.size == 0:
        idx = xp.zeros(rows.shape[:-1] + (1,), xp.int64)
    else:
        order = xp.argsort(rows, axis=-1, kind="stable")
        idx = order[:, k - 1:k].astype(xp.int64)
        kth = xp.take_along_axis(rows, idx, axis=-1)
        ties = _same(rows, kth).sum(-1) > 1
        for r in xp.nonzero(ties)[0]:
            idx[r, 0] = _quickselect(rows[r].tolist(), k - 1)
    return _run_selecting(_kthvalue, KthvalueResult, input, dim, back(idx), keepdim, out)


# ----------------------------------------------------------------------------- median

@op("MedianBackward0", name="median_all", method=False, function=False, promote=NONE,
    self=lambda grad, self, result: _even(grad, self, result))
def _median_all(self):
    return _lower_median(self.reshape(-1), False)


@op("NanmedianBackward0", name="nanmedian_all", method=False, function=False, promote=NONE,
    self=lambda grad, self, result: _even(grad, self, result))
def _nanmedian_all(self):
    return _lower_median(self.reshape(-1), True)


def _lower_median(a, ignore_nan):
    if a.size == 0:     # (NaN, as C++ converts it: 0, the type's least integer, True)
        with xp.errstate(invalid="ignore"):
            return xp.asarray(xp.nan).astype(a.dtype)
    nan = xp.isnan(a) if a.dtype.kind in "fV" else None
    if nan is not None and nan.any():
        if not ignore_nan or nan.all():
            return xp.asarray(xp.nan, a.dtype)
        a = a[~nan]
    return xp.partition(a, (a.size - 1) // 2)[(a.size - 1) // 2]


def _median_indices(rows, ignore_nan):
    """torch's median index per row: a stable sort's position ``(n - 1) // 2``."""
    n = rows.shape[-1]
    if rows.dtype.kind == "V":      # bfloat16: its values in float32 (NaN sorted last)
        rows = rows.astype(xp.float32)
    order = xp.argsort(rows, axis=-1, kind="stable")
    if rows.dtype.kind != "f":
        return order[:, (n - 1) // 2:(n - 1) // 2 + 1]
    nan = xp.isnan(rows)
    if ignore_nan:
        pos = xp.trunc((n - nan.sum(-1) - 1) / 2).astype(xp.int64)
        idx = xp.take_along_axis(order, pos[:, None], axis=-1)
        all_nan = nan.all(-1)
        if all_nan.any():
            idx[all_nan] = _all_equivalent_first(n)
        return idx
    first_nan = xp.argmax(nan, axis=-1)
    pick = order[:, (n - 1) // 2]
    return xp.where(nan.any(-1), first_nan, pick)[:, None]


def _all_equivalent_first(n: int) -> int:
    """The index ``std::nth_element(first, first, last)`` leaves first over ``n`` indices its
    comparator holds all equivalent: torch's nanmedian index of an all-NaN row."""
    idx = list(range(n))
    _stl.nth_element(idx, 0, lambda i, j: False)
    return idx[0]


def _median(d_all, d_dim, rt, fname, input, dim, keepdim, out):
    if dim is None:
        if input._data.size:
            _not_implemented_bool(input, "median_cpu")
        return run(d_all, (input,))
    a = input._data
    nd = a.ndim
    dim = norm_dim(dim, nd)
    _check_nonempty_dim(input, dim, fname)
    _not_implemented_bool(input, "median_out", out, rt)
    if nd == 0:
        return _run_selecting(d_dim, rt, input, 0, xp.zeros((), xp.int64), keepdim, out)
    rows, back = _rows(a, dim)
    idx = _median_indices(rows, d_dim is _nanmedian_dim) if rows.size else \
        xp.zeros(rows.shape[:-1] + (1,), xp.int64)
    return _run_selecting(d_dim, rt, input, dim, back(idx.astype(xp.int64)), keepdim, out)


_ALL = object()     # (no ``dim``: the median of every element; an explicit None is refused)


def _no_out(name, out):
    """torch's parser error for an out= given to the median of all elements (which has none:
    the out= overload wants a dim)."""
    if out is not None:
        raise _errors.missing_arguments(name, ["dim"])


@expose
def median(input, dim=_ALL, keepdim=False, *, out=None):
    """The lower median of all elements (NaN if any); with ``dim``, ``(values, indices)``.

    >>> ember.tensor([1., 4., 2., 3.]).median()
    tensor(2.)
    """
    if dim is _ALL:
        _no_out("median", out)
        dim = None
    else:
        check_out_tuple("median", out)
        dim_not_none("median", dim)
    return _median(_median_all, _median_dim, MedianResult, "median", input, dim, keepdim, out)


@expose
def nanmedian(input, dim=_ALL, keepdim=False, *, out=None):
    """The lower median ignoring NaN; with ``dim``, ``(values, indices)``.

    >>> ember.tensor([1., float('nan'), 2.]).nanmedian()
    tensor(1.)
    """
    if dim is _ALL:
        _no_out("nanmedian", out)
        dim = None
    else:
        check_out_tuple("nanmedian", out)
        dim_not_none("nanmedian", dim)
    return _median(_nanmedian_all, _nanmedian_dim, NanmedianResult, "median", input, dim,
                   keepdim, out)


# ----------------------------------------------------------------------------- mode

def _mode_index(row):
    """torch's mode kernel on one row: std::sort the (value, index) pairs by value, then
    take the last pair of the first longest run."""
    n = row.size
    # small: std::sort is an insertion sort, NumPy's stable sort but where a NaN (unordered
    # by its `<`) stays among the others
    if (n <= _stl.THRESHOLD and not (row != row).any()) or n > _REPLAY_LIMIT:
        vals = xp.sort(row, kind="stable")
        ends = xp.flatnonzero(xp.append(vals[1:] != vals[:-1], True))
        lengths = xp.diff(xp.append(-1, ends))
        value = vals[ends[xp.argmax(lengths)]]            # the smallest most frequent value
        hits = xp.flatnonzero(row == value) if value == value else xp.flatnonzero(row != row)
        return hits[-1] if hits.size else n - 1
    q = [(v, j) for j, v in enumerate(row.tolist())]
    _stl.sort(q, 0, n, lambda x, y: x[0] < y[0])
    best, best_i, run = 0, 0, 0
    for i in range(n):
        run += 1
        if i == n - 1 or q[i][0] != q[i + 1][0]:
            if run > best:
                best, best_i = run, q[i][1]
            run = 0
    return best_i


@expose
def mode(input, dim=-1, keepdim=False, *, out=None):
    """The most frequent value along ``dim`` (the smallest on ties) and its last index.

    >>> ember.tensor([1., 2., 2., 3.]).mode()
    torch.return_types.mode(
    values=tensor(2.),
    indices=tensor(2))
    """
    check_out_tuple("mode", out)
    dim_not_none("mode", dim)
    a = input._data
    nd = a.ndim
    dim = norm_dim(dim, nd)
    _check_nonempty_dim(input, dim, "mode")
    if input.dtype.is_complex and a.size and nd:    # (a 0-d input is its own mode first)
        _not_implemented_bool(input, "mode_cpu", out, ModeResult)
    if nd == 0:
        return _run_selecting(_mode, ModeResult, input, 0, xp.zeros((), xp.int64), keepdim, out)
    rows, back = _rows(a, dim)
    idx = xp.zeros(rows.shape[:-1] + (1,), xp.int64)
    for r in range(rows.shape[0]):
        idx[r, 0] = _mode_index(rows[r])
    return _run_selecting(_mode, ModeResult, input, dim, back(idx), keepdim, out)


# ----------------------------------------------------------------------------- unique

def _no_derivative(name):
    def formula(grad):
        raise NotImplementedError(f"the derivative for '{name}' is not implemented.")
    return formula


def _unique_kernel(self, values):
    return values


_unique2 = op("Unique2Backward0", name="unique2", method=False, function=False, promote=NONE,
              self=_no_derivative("_unique2"))(_unique_kernel)
_unique_dim = op("UniqueDimBackward0", name="unique_dim", method=False, function=False,
                 promote=NONE, self=_no_derivative("unique_dim"))(_unique_kernel)
_unique_consec = op("UniqueConsecutiveBackward0", name="unique_consecutive_", method=False,
                    function=False, promote=NONE,
                    self=_no_derivative("unique_consecutive"))(_unique_kernel)


def _unique_flat(a):
    """Sorted unique values, inverse and counts; every NaN is its own value, as in torch.
    The elements are ordered as torch's (unstable) ``sort`` orders them: which NaN comes
    first, and whether -0.0 or 0.0 stands for zero."""
    flat = a.reshape(-1)
    order = _sort_indices(_wrap(flat), 0, False, False) if flat.dtype.kind in "fV" \
        else xp.argsort(flat, kind="stable")
    s = flat[order]
    new = xp.ones(s.size, bool)
    if s.size:
        new[1:] = s[1:] != s[:-1]
    group = xp.cumsum(new) - 1
    inverse = xp.empty(flat.size, xp.int64)
    inverse[order] = group
    starts = xp.flatnonzero(new)
    counts = xp.diff(xp.append(starts, s.size)).astype(xp.int64)
    return s[starts], inverse.reshape(a.shape), counts


def _unique_along(a, dim):
    moved = xp.moveaxis(a, dim, 0)
    n = moved.shape[0]
    if n == 0 or a.size == 0:
        return a.copy(), xp.zeros(n, xp.int64), xp.zeros(min(n, 1), xp.int64)
    flat = moved.reshape(n, -1)
    order = xp.lexsort(flat.T[::-1]) if flat.shape[1] else xp.arange(n)
    s = flat[order]
    new = xp.ones(n, bool)
    new[1:] = (s[1:] != s[:-1]).any(-1) if flat.shape[1] else False
    group = xp.cumsum(new) - 1
    inverse = xp.empty(n, xp.int64)
    inverse[order] = group
    starts = xp.flatnonzero(new)
    counts = xp.diff(xp.append(starts, n)).astype(xp.int64)
    vals = s[starts].reshape((starts.size,) + moved.shape[1:])
    return xp.moveaxis(vals, 0, dim), inverse, counts


def _unique_result(d, input, vals, inverse, counts, return_inverse, return_counts):
    values = run(d, (input, vals))
    out = (values,)
    if return_inverse:
        out += (_wrap(inverse),)
    if return_counts:
        out += (_wrap(counts),)
    return out[0] if len(out) == 1 else out


def _unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The unique elements (sorted), optionally with the inverse map and the counts.

    >>> ember.tensor([2, 1, 2]).unique(return_counts=True)
    (tensor([1, 2]), tensor([1, 2]))
    """
    a = input._data
    if input.dtype.is_complex:
        raise NotImplementedError(f'"{"unique" if dim is None else "unique_dim"}" not '
                                  f"implemented for '{input.dtype.scalar_name}'")
    if dim is None:
        vals, inverse, counts = _unique_flat(a)
        return _unique_result(_unique2, input, vals, inverse, counts, return_inverse,
                              return_counts)
    if a.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    dim = norm_dim(dim, a.ndim)
    vals, inverse, counts = _unique_along(a, dim)
    return _unique_result(_unique_dim, input, vals, inverse, counts, return_inverse,
                          return_counts)


# torch.unique dispatches on return_inverse and return_counts to four functions of this
# signature, which Python's binding errors name; Tensor.unique is a Python method
_UNIQUE_FORMS = {(i, c): renamed(_unique, "_return_" + ("inverse_and_counts" if i and c else
                                                        "inverse" if i else
                                                        "counts" if c else "output"))
                 for i in (False, True) for c in (False, True)}
expose(name="unique", function=False)(renamed(_unique, "Tensor.unique"))


@expose(method=False)
def unique(*args, **kwargs):
    """The unique elements (sorted), optionally with the inverse map and the counts.

    >>> ember.unique(ember.tensor([2, 1, 2]), return_counts=True)
    (tensor([1, 2]), tensor([1, 2]))
    """
    def flag(name, i):
        return kwargs[name] if name in kwargs else len(args) > i and args[i]
    return _UNIQUE_FORMS[bool(flag("return_inverse", 2)), bool(flag("return_counts", 3))](
        *args, **kwargs)


@expose
def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapse runs of equal consecutive elements (flattened unless ``dim``).

    >>> ember.tensor([1, 1, 2, 1]).unique_consecutive()
    tensor([1, 2, 1])
    """
    a = input._data
    if input.dtype.is_complex:
        raise NotImplementedError(f'"unique" not implemented for \'{input.dtype.scalar_name}\'')
    if dim is None:
        moved = a.reshape(-1, 1)
        shape = a.shape
    else:
        if a.ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        dim = norm_dim(dim, a.ndim)
        m = xp.moveaxis(a, dim, 0)
        moved = m.reshape(m.shape[0], -1)
        shape = (m.shape[0],)
    n = moved.shape[0]
    new = xp.ones(n, bool)
    if n > 1:
        new[1:] = (moved[1:] != moved[:-1]).any(-1) if moved.shape[1] else False
    inverse = (xp.cumsum(new) - 1).astype(xp.int64).reshape(shape)
    starts = xp.flatnonzero(new)
    counts = xp.diff(xp.append(starts, n)).astype(xp.int64)
    if dim is None:
        vals = a.reshape(-1)[starts]
    else:       # (torch's layout: the runs' first slices stacked, ``dim`` moved back)
        vals = xp.moveaxis(xp.ascontiguousarray(m[starts]), 0, dim)
    return _unique_result(_unique_consec, input, vals, inverse, counts, return_inverse,
                          return_counts)

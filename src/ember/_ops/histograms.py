"""Histograms: ``histc``, ``histogram`` and ``histogramdd``, binned as torch's CPU kernel
bins.

Both take the input's dtype for the arithmetic. An element's bin is
``int((x - left) * bins / (right - left))`` (``histc``), refined for ``histogram`` by a
search among the neighbouring edges, or found by binary search among given edges; the last
edge belongs to the last bin and elements outside the edges (and NaN) are left out. Edges
come from ``linspace`` (torch's, bit for bit), so counts are torch's; weights add up in
element order (torch sums per-thread partial histograms: within an ulp). Neither is
differentiable (torch records no gradient for either).
"""

from __future__ import annotations

import builtins
import math

from .. import _dtype as D
from .. import _factories as _F
from .._device import xp
from .._tensor import Tensor
from .registry import expose
from .search import _return_type

_wrap = Tensor._wrap
HistogramResult = _return_type("histogram", ("hist", "bin_edges"))
HistogramddResult = _return_type("histogramdd", ("hist", "bin_edges"))


def _not_implemented(t: Tensor, kernel: str) -> None:
    if not t.dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{t.dtype.scalar_name}\'')


def _bin(x, edges, how: str):
    """The bin of each element of ``x`` inside the edges, and which elements those are."""
    n = edges.shape[0]
    left, right = edges[0], edges[-1]
    inside = (x >= left) & (x <= right)
    x = x[inside]
    if how == "binary":
        pos = xp.searchsorted(edges, x, side="right") - 1
    else:
        with xp.errstate(invalid="ignore", divide="ignore", over="ignore"):
            pos = ((x - left) * x.dtype.type(n - 1) / (right - left)).astype(xp.int64)
        if how == "local":
            ub = xp.searchsorted(edges, x, side="right")
            pos = xp.clip(ub, xp.maximum(pos - 1, 0), xp.minimum(pos + 2, n)) - 1
    pos = xp.where(pos == n - 1, pos - 1, pos)
    return pos, inside


def _count(x, edges, how, weight=None):
    hist = xp.zeros(edges.shape[0] - 1, x.dtype)
    pos, inside = _bin(x, edges, how)
    if weight is None:
        xp.add.at(hist, pos, x.dtype.type(1))
    else:
        xp.add.at(hist, pos, weight[inside])
    return hist


@expose
def histc(input: Tensor, bins: int = 100, min: float = 0, max: float = 0, *,
          out=None) -> Tensor:
    """Counts of ``input`` in ``bins`` equal bins over ``[min, max]`` (the data's range when
    both are equal).

    >>> ember.histc(ember.tensor([1., 2., 1.]), bins=4, min=0, max=3)
    tensor([0., 2., 1., 0.])
    """
    # (torch checks ``bins``, takes the data's aminmax when the range is empty (which refuses
    # complex and the barebones unsigned types), checks the range, makes the edges with
    # linspace (which refuses bool and those types, and edges outside an integral type),
    # and only then refuses a type in the histogram kernel)
    barebones = input.dtype in D.BAREBONES
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                           "dimension 0")
    left, right = float(min), float(max)
    a = input._data.reshape(-1)
    if left == right and a.size:
        if input.dtype.is_complex or barebones:
            _not_implemented(input, "aminmax_cpu")
        left, right = float(a.min()), float(a.max())
        if a.size > 1 or input.dtype is D.bfloat16:
            # (torch's aminmax makes its own NaN: x86's, sign set; bfloat16's positive)
            sign = 1.0 if input.dtype is D.bfloat16 else -1.0
            left, right = (math.copysign(v, sign) if math.isnan(v) else v
                           for v in (left, right))
    if left == right:
        left, right = left - 1, right + 1
    if not (math.isfinite(left) and math.isfinite(right)):
        def shown(v):       # (as C++ streams print a double: a NaN's sign too)
            return "-nan" if math.isnan(v) and math.copysign(1.0, v) < 0 else f"{v:g}"
        raise RuntimeError(f"torch.histc: range of [{shown(left)}, {shown(right)}] is not "
                           "finite")
    if not left < right:
        raise RuntimeError("torch.histc: max must be larger than min")
    if barebones or input.dtype is D.bool:
        _not_implemented(input, "linspace_cpu")
    if a.dtype.kind in "iu":
        info = xp.iinfo(a.dtype)
        if not info.min <= left <= right <= info.max:
            raise D.overflow_error(a.dtype, cname=True)
    _not_implemented(input, "histogram_cpu")
    edges = _F.linspace(left, right, bins + 1, dtype=input.dtype)._data
    hist = _wrap(_count(a, edges, "linear"))
    if out is not None:
        return out.resize_(hist.shape).copy_(hist)
    return hist


def _outer_edges(points, range):
    """ATen's ``select_outer_bin_edges``: each dimension's leftmost and rightmost edge, from
    ``range`` or the data (``[0, 1]`` without data), an empty range widened by 0.5 each
    way."""
    n = points.shape[1]
    if range is not None:
        if len(range) != 2 * n:
            raise RuntimeError(f"torch.histogramdd: for a {n}-dimensional histogram range "
                               f"should have {2 * n} elements, but got {len(range)}")
        lefts, rights = [float(v) for v in range[::2]], [float(v) for v in range[1::2]]
    elif points.size:
        lefts, rights = [float(v) for v in points.min(0)], [float(v) for v in points.max(0)]
    else:
        lefts, rights = [0.0] * n, [1.0] * n
    for d, (left, right) in enumerate(zip(lefts, rights)):
        if not (math.isfinite(left) and math.isfinite(right)):
            raise RuntimeError(f"torch.histogramdd: dimension {d}'s range [{left:g}, "
                               f"{right:g}] is not finite")
        if left > right:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min "
                               f"{left:g} max {right:g} for dimension {d}")
        if left == right:
            lefts[d], rights[d] = left - 0.5, right + 0.5
    return lefts, rights


@expose
def histogram(input: Tensor, bins=100, *, range=None, weight=None, density: bool = False,
              out=None):
    """``(hist, bin_edges)``: counts (or summed ``weight``) of ``input`` in ``bins`` equal
    bins over ``range`` (the data's by default), or between the given edges ``bins``.

    >>> ember.histogram(ember.tensor([1., 2., 1.]), bins=2)
    torch.return_types.histogram(
    hist=tensor([2., 1.]),
    bin_edges=tensor([1.0000, 1.5000, 2.0000]))
    """
    _not_implemented(input, "histogramdd")
    a = input._data.reshape(-1)
    if isinstance(bins, Tensor):
        edges, how = bins._data.astype(a.dtype, copy=False), "binary"
        if edges.ndim != 1 or edges.shape[0] < 1:
            raise RuntimeError("torch.histogramdd(): bins tensor should have one dimension, "
                               f"but got {edges.ndim} dimensions in the bins tensor for "
                               "dimension 0")
    else:
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                               "dimension 0")
        (left,), (right,) = _outer_edges(a[:, None], range)
        edges = _F.linspace(left, right, bins + 1, dtype=input.dtype)._data
        how = "local"
    w = None if weight is None else weight._data.reshape(-1).astype(a.dtype, copy=False)
    hist = _count(a, edges, how, w)
    if density:
        with xp.errstate(invalid="ignore", divide="ignore"):
            hist = hist / hist.sum(dtype=hist.dtype)
            hist = hist / xp.diff(edges)
    result = HistogramResult(_wrap(hist), _wrap(edges.copy()))
    if out is not None:
        out[0].resize_(result.hist.shape).copy_(result.hist)
        out[1].resize_(result.bin_edges.shape).copy_(result.bin_edges)
        return HistogramResult(*out)
    return result


def _dd_checks(input: Tensor, bins, weight) -> None:
    """ATen's ``histogramdd_check_inputs`` and the bin counts of ``histogramdd_prepare_out``."""
    n = input.shape[-1]
    if len(bins) != n:
        raise RuntimeError(f"torch.histogramdd: expected {n} sequences of bin edges for a {n}-"
                           f"dimensional histogram but got {len(bins)}")
    for d, b in enumerate(bins):
        if b.dtype is not input.dtype:
            raise RuntimeError(
                "torch.histogramdd: input tensor and bins tensors should have the same dtype, "
                f"but got input with dtype {input.dtype.cpp_name} and bins for dimension {d} "
                f"with dtype {b.dtype.cpp_name}")
        if b.ndim != 1:
            raise RuntimeError("torch.histogramdd: bins tensor should have one dimension, but "
                               f"got {b.ndim} dimensions in the bins tensor for dimension {d}")
        if b.numel() == 0:
            raise RuntimeError("torch.histogramdd: bins tensor should have at least 1 element, "
                               f"but got 0 elements in the bins tensor for dimension {d}")
    if weight is not None:
        if weight.dtype is not input.dtype:
            raise RuntimeError("torch.histogramdd: if weight tensor is provided, input tensor "
                               "and weight tensor should have the same dtype, but got input("
                               f"{input.dtype.cpp_name}), and weight({weight.dtype.cpp_name})")
        if list(input.shape[:-1]) != (list(weight.shape) or [1]):
            raise RuntimeError(
                "torch.histogramdd: if weight tensor is provided it should have the same shape "
                "as the input tensor excluding its innermost dimension, but got input with "
                f"shape {list(input.shape)} and weight with shape {list(weight.shape)}")
    for d, b in enumerate(bins):
        if b.numel() - 1 <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {b.numel() - 1} "
                               f"for dimension {d}")


@expose(method=False)
def histogramdd(input: Tensor, bins, *, range=None, weight=None, density: bool = False):
    """``(hist, bin_edges)``: the histogram of the points in the rows of ``input`` (its last
    dimension their coordinates), with ``bins`` equal bins per dimension over ``range`` (the
    data's), or between the given edges, one tensor per dimension.

    >>> ember.histogramdd(ember.tensor([[0., 0.], [1., 1.], [1., 0.]]), bins=[2, 2])
    torch.return_types.histogramdd(
    hist=tensor([[1., 0.],
            [1., 1.]]),
    bin_edges=(tensor([0.0000, 0.5000, 1.0000]), tensor([0.0000, 0.5000, 1.0000])))
    """
    if input.ndim < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    n = input.shape[-1]
    points = input._data.reshape(-1, n)
    counted = isinstance(bins, int) or not isinstance(bins[0], Tensor)
    if counted:
        _not_implemented(input, "histogramdd")
        counts = [bins] * n if isinstance(bins, int) else [int(b) for b in bins]
        lefts, rights = _outer_edges(points, range)
        if len(counts) != n:
            raise RuntimeError("histogramdd: The size of bins must be equal to the innermost "
                               "dimension of the input.")
        bins = [_F.linspace(lo, hi, c + 1, dtype=input.dtype)
                for lo, hi, c in zip(lefts, rights, counts)]
    _dd_checks(input, bins, weight)
    _not_implemented(input, "histogramdd")
    edges = [b._data for b in bins]
    inside = xp.ones(points.shape[0], bool)
    for d, e in enumerate(edges):
        inside &= (points[:, d] >= e[0]) & (points[:, d] <= e[-1])
    pos = [_bin(points[inside, d], e, "local" if counted else "binary")[0]
           for d, e in enumerate(edges)]
    shape = tuple(e.shape[0] - 1 for e in edges)
    hist = xp.zeros(shape, points.dtype)
    w = (xp.ones(points.shape[0], points.dtype) if weight is None
         else weight._data.reshape(-1).astype(points.dtype, copy=False))
    xp.add.at(hist, tuple(pos), w[inside])
    if density:
        with xp.errstate(invalid="ignore", divide="ignore"):
            hist = hist / hist.sum(dtype=hist.dtype)
            for d, e in enumerate(edges):
                lengths = xp.diff(e).reshape([-1 if k == d else 1 for k in builtins.range(n)])
                hist = hist / lengths
    result = HistogramddResult(_wrap(hist), tuple(_wrap(e.copy()) for e in edges))
    return result

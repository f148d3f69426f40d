"""Histograms: ``histc`` and ``histogram``, binned as torch's CPU kernel bins.

Both take the input's dtype for the arithmetic. An element's bin is
``int((x - left) * bins / (right - left))`` (``histc``), refined for ``histogram`` by a
search among the neighbouring edges, or found by binary search among given edges; the last
edge belongs to the last bin and elements outside the edges (and NaN) are left out. Edges
come from ``linspace`` (torch's, bit for bit), so counts are torch's; weights add up in
element order (torch sums per-thread partial histograms: within an ulp). Neither is
differentiable (torch records no gradient for either).
"""

from __future__ import annotations

import math

from .. import _factories as _F
from .._device import xp
from .._tensor import Tensor
from .registry import expose
from .search import _return_type

_wrap = Tensor._wrap
HistogramResult = _return_type("histogram", ("hist", "bin_edges"))


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
    _not_implemented(input, "histogram_cpu")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                           "dimension 0")
    left, right = float(min), float(max)
    a = input._data.reshape(-1)
    if left == right and a.size:
        left, right = float(a.min()), float(a.max())
    if left == right:
        left, right = left - 1, right + 1
    if not (math.isfinite(left) and math.isfinite(right)):
        raise RuntimeError(f"torch.histc: range of [{left}, {right}] is not finite")
    if not left < right:
        raise RuntimeError("torch.histc: max must be larger than min")
    edges = _F.linspace(left, right, bins + 1, dtype=input.dtype)._data
    hist = _wrap(_count(a, edges, "linear"))
    if out is not None:
        return out.resize_(hist.shape).copy_(hist)
    return hist


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
        if range is not None:
            left, right = float(range[0]), float(range[1])
        elif a.size:
            left, right = float(a.min()), float(a.max())
        else:
            left, right = 0.0, 1.0
        if not (math.isfinite(left) and math.isfinite(right)):
            raise RuntimeError(f"torch.histogramdd: dimension 0's range [{left}, {right}] is "
                             "not finite")
        if left > right:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min "
                               f"{left} max {right} for dimension 0")
        if left == right:
            left, right = left - 0.5, right + 0.5
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

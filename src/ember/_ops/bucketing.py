"""Counting and bucketing: ``bincount``, ``searchsorted``, ``bucketize`` (no gradients, as
torch: their results are integers, or counts of integers)."""

from __future__ import annotations

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor
from .registry import _write_out, expose


def _array(x) -> np.ndarray:
    return x._data if isinstance(x, Tensor) else np.asarray(x)


@expose
def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """Count of each value of a 1-D non-negative integer tensor (weighted sums with
    ``weights``: float32 for float32 weights, else float64, as torch)."""
    a = input._data
    if a.dtype.kind not in "iu" or input.dtype in D.BAREBONES:      # (bool too)
        raise NotImplementedError(f'"bincount_cpu" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if a.ndim != 1 or (a.size and a.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return Tensor._wrap(np.bincount(a, minlength=minlength).astype(np.int64))
    w = weights._data
    if w.ndim != 1 or w.shape[0] != a.shape[0]:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    dt = np.float32 if w.dtype == np.float32 else np.float64
    return Tensor._wrap(np.bincount(a, weights=w.astype(np.float64),
                                    minlength=minlength).astype(dt))


def _side(side, right: bool) -> str:
    if side is None:
        return "right" if right else "left"
    if side not in ("left", "right"):
        raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got "
                           f"{side}")
    if side == "left" and right:
        raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, "
                           "got side of left while right was True")
    return side


def _bound(rows, vals, right):
    """ATen's binary search (``cus_lower_bound``/``cus_upper_bound``) of each row of ``vals``
    in the same row of ``rows``, all at once: where a row is not sorted, or holds NaNs, the
    steps it takes decide the position, so they are torch's."""
    n = rows.shape[-1]
    start = np.zeros(vals.shape, np.int64)
    end = np.full(vals.shape, n, np.int64)
    r = np.arange(rows.shape[0])[:, None]
    while True:
        active = start < end
        if not active.any():
            return start
        mid = start + ((end - start) >> 1)
        mid_val = rows[r, np.where(active, mid, 0)]
        with np.errstate(invalid="ignore"):
            up = ~(mid_val > vals) if right else ~(mid_val >= vals)    # (NaN: not before)
        start = np.where(active & up, mid + 1, start)
        end = np.where(active & ~up, mid, end)


@expose(method=False)
def searchsorted(sorted_sequence: Tensor, input, *, out_int32: bool = False,
                 right: bool = False, side: str | None = None, sorter: Tensor | None = None,
                 out: Tensor | None = None) -> Tensor:
    """Indices where ``input`` would be inserted into the innermost dimension of
    ``sorted_sequence`` to keep it sorted (``right``/``side='right'``: after equal values)."""
    upper = _side(side, right) == "right"   # (the parameters kept for a parser error)
    seq = sorted_sequence._data
    values = _array(input)
    if seq.ndim == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive "
                           "dimension, but got 0 dimension")
    if seq.ndim > 1 and seq.shape[:-1] != values.shape[:-1]:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or "
                           "the first N-1 dimensions of boundaries tensor and input value "
                           f"tensor must match, but we got boundaries tensor "
                           f"{list(seq.shape)} and input value tensor {list(values.shape)}")
    if values.size:     # (torch returns an empty result before it looks for a kernel)
        for a in (seq, values):
            if a.dtype.kind == "c":
                name = "ComplexFloat" if a.dtype == np.complex64 else "ComplexDouble"
                raise NotImplementedError(f'"searchsorted_out_cpu" not implemented for '
                                          f"'{name}'")
            if a.dtype.kind == "u" and a.dtype.itemsize > 1:
                D.no_barebones_kernel("searchsorted_out_cpu", D.from_numpy_dtype(a.dtype))
            if a.dtype.kind == "b":
                raise NotImplementedError('"searchsorted_out_cpu" not implemented for '
                                          "'Bool'")
    if sorter is not None:
        seq = np.take_along_axis(seq, sorter._data, axis=-1)
    rows = seq.reshape(int(np.prod(seq.shape[:-1])), seq.shape[-1])
    vals = values.reshape(1, -1) if seq.ndim == 1 else values.reshape(rows.shape[0], -1)
    res = _bound(rows, vals, upper).reshape(values.shape)
    res = np.asarray(res, dtype=np.int32 if out_int32 else np.int64)
    return Tensor._wrap(res) if out is None else _write_out(out, res)


@expose(method=False)
def bucketize(input, boundaries: Tensor, *, out_int32: bool = False, right: bool = False,
              out: Tensor | None = None) -> Tensor:
    """The bucket of each element of ``input`` given the 1-D ``boundaries``
    (``boundaries[i-1] < x <= boundaries[i]``; ``right=True``: ``boundaries[i-1] <= x <
    boundaries[i]``)."""
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim("
                           f"{boundaries.dim()})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right, out=out)



"""Reductions: sum and mean (whole tensor and over dims).

torch names the full reduction ``…Backward0`` and the one over dims ``…Backward1``; the
public ``sum``/``mean`` pick the entry from the arguments, as torch's overloads do.
"""

from __future__ import annotations

from .. import _dtype as D
from .._device import xp
from .registry import NONE, expose, op
from .util import norm_dims


def _expand_back(grad, self_shape, dim, keepdim):
    if not keepdim:
        for d in dim:
            grad = grad.unsqueeze(d)
    return grad.expand(self_shape)


def _sum_dtype(self, dtype):
    if dtype is not None:
        return dtype.np
    return xp.int64 if self.dtype.kind in "biu" else self.dtype


@op("SumBackward0", name="sum_all", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape: grad.expand(self_shape))
def _sum_all(self, dtype=None):
    return xp.sum(self, dtype=_sum_dtype(self, dtype))


@op("SumBackward1", name="sum_dim", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape, dim, keepdim: _expand_back(grad, self_shape, dim, keepdim))
def _sum_dim(self, dim, keepdim=False, dtype=None):
    return xp.sum(self, axis=dim, keepdims=keepdim, dtype=_sum_dtype(self, dtype))


def _reduce_dims(input, dim):
    """``dim`` normalised for a reduction: ``()`` means every dim; a 0-d tensor has none."""
    nd = input._data.ndim
    dims = norm_dims(dim, nd)
    if nd == 0:
        return ()
    return dims if dims or (dim is not None and not isinstance(dim, (tuple, list))) \
        else tuple(range(nd))


_SUM_OUT_ERROR = (
    "sum() received an invalid combination of arguments - got (Tensor, out=Tensor), but "
    "expected one of:\n * (Tensor input, *, torch.dtype dtype = None)\n * (Tensor input, tuple "
    "of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)\n")


@expose
def sum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """Sum of all elements, or over ``dim`` (int or tuple), keeping dims if ``keepdim``."""
    from .registry import run
    if dim is None:
        if out is not None:
            raise TypeError(_SUM_OUT_ERROR)
        return _sum_all(input, dtype)
    return run(_sum_dim, (input, _reduce_dims(input, dim), keepdim, dtype), out)


def _mean_check(input, dtype):
    dt = dtype or input.dtype
    if not (dt.is_floating_point or dt.is_complex):
        from .registry import _scalar_name
        raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a "
                           "floating point or complex dtype. Got: " + _scalar_name(dt))


@op("MeanBackward0", name="mean_all", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape: grad.expand(self_shape) / max(1, _numel(self_shape)))
def _mean_all(self, dtype=None):
    with xp.errstate(invalid="ignore", divide="ignore"):
        return xp.mean(self, dtype=None if dtype is None else dtype.np)


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


@op("MeanBackward1", name="mean_dim", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape, dim, keepdim:
        _expand_back(grad, self_shape, dim, keepdim) / _numel([self_shape[d] for d in dim]))
def _mean_dim(self, dim, keepdim=False, dtype=None):
    with xp.errstate(invalid="ignore", divide="ignore"):
        return xp.mean(self, axis=dim, keepdims=keepdim, dtype=None if dtype is None else
                       dtype.np)


@expose
def mean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """Mean of all elements, or over ``dim``; floating (or complex) dtypes only."""
    from .registry import run
    _mean_check(input, dtype)
    if dim is None:
        return run(_mean_all, (input, dtype), out)
    return run(_mean_dim, (input, _reduce_dims(input, dim), keepdim, dtype), out)


del D

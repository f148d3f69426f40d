"""Statistics over tensors composed of other ops, as torch composes them: ``cov``,
``corrcoef``, ``quantile``/``nanquantile``, and ``aminmax``.

Each follows torch's composite (its ``Correlation.cpp`` and ``Sorting.cpp``) op for op, so the
values, the ``grad_fn`` at the end of the chain (``SqueezeBackward0``, ``ClampBackward1`` …)
and the gradients are torch's.
"""

from __future__ import annotations

import warnings

from .. import _dtype as D
from .. import _errors
from .._device import xp
from .._tensor import Tensor
from .registry import _write_out, check_out_tuple, expose, op, write_outs
from .search import _return_type
from .util import c_order, norm_dim

_wrap = Tensor._wrap
AminmaxResult = _return_type("aminmax", ("min", "max"))


@expose
def cov(input: Tensor, *, correction: int = 1, fweights: Tensor | None = None,
        aweights: Tensor | None = None) -> Tensor:
    """The covariance matrix of the variables in ``input``'s rows (observations in columns).

    >>> ember.cov(ember.tensor([[0., 1., 2.], [2., 1., 0.]]))
    tensor([[ 1., -1.],
            [-1.,  1.]])
    """
    if input.ndim > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {input.ndim} dimensions")
    if input.dtype is D.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input.view(1, -1) if input.ndim < 2 else input
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = fweights
        if w.ndim > 1:
            raise RuntimeError("cov(): expected fweights to have one or fewer dimensions but "
                               f"got fweights with {w.ndim} dimensions")
        if w.dtype.is_floating_point or w.dtype.is_complex or w.dtype is D.bool:
            raise RuntimeError("cov(): expected fweights to have integral dtype but got "
                               f"fweights with {w.dtype.scalar_name} dtype")
        if w.numel() != n:
            raise RuntimeError("cov(): expected fweights to have the same numel as there are "
                               f"observations in the input but got {w.numel()} != {n}")
        if n and not bool(w.min() >= 0):
            raise RuntimeError("cov(): fweights cannot be negative")
    if aweights is not None:
        aw = aweights
        if aw.ndim > 1:
            raise RuntimeError("cov(): expected aweights to have one or fewer dimensions but "
                               f"got aweights with {aw.ndim} dimensions")
        if not aw.dtype.is_floating_point:
            raise RuntimeError("cov(): expected aweights to have floating point dtype but got "
                               f"aweights with {aw.dtype.scalar_name} dtype")
        if aw.numel() != n:
            raise RuntimeError("cov(): expected aweights to have the same numel as there are "
                               f"observations in the input but got {aw.numel()} != {n}")
        if n and not bool(aw.min() >= 0):
            raise RuntimeError("cov(): aweights cannot be negative")
        w = aw if w is None else w * aw
    w_sum = w.sum() if w is not None else _wrap(xp.array(n, xp.int64))
    if w is not None and not bool(w_sum != 0):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x * w if w is not None else x).sum(1) / w_sum
    if w is None:
        norm = _wrap(xp.array(n - correction, xp.int64))
    elif correction == 0:
        norm = w_sum
    elif aweights is None:
        norm = w_sum - correction
    elif fweights is None and n == 1 and correction == 1:
        norm = _wrap(xp.array(0, xp.int64))
    else:
        norm = w_sum - correction * (w * aweights).sum() / w_sum
    if bool(norm <= 0):
        warnings.warn(_errors.internal(
            "cov(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "number of observations.", "aten/src/ATen/native/Correlation.cpp:129"),
            UserWarning, stacklevel=2)
        norm = norm.detach() * 0
    if n == 1 and (fweights is None) != (aweights is None):
        x = x * 0 if x.dtype.is_floating_point else x.float() * 0
    else:
        x = x - avg.unsqueeze(1)
    c = x.mm((x * w if w is not None else x).t())
    return c.true_divide(norm).squeeze()


@expose
def corrcoef(input: Tensor) -> Tensor:
    """Pearson correlation coefficients of the variables in ``input``'s rows."""
    if input.ndim > 2:
        raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got "
                           f"an input with {input.ndim} dimensions")
    c = cov(input)
    if c.ndim == 0:
        return c / c
    std = c.diagonal().sqrt()
    c = c / std.view(-1, 1)
    c = c / std.view(1, -1)
    return c.clip(-1, 1)


# ----------------------------------------------------------------------------- quantile

_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(input, q, dim, keepdim, interpolation, ignore_nan, out):
    name = "nanquantile" if ignore_nan else "quantile"
    if not isinstance(q, Tensor):
        if not isinstance(q, (int, float)) or isinstance(q, bool):
            raise TypeError(
                f"{name}() received an invalid combination of arguments - got (Tensor, "
                f"{type(q).__name__}), but expected one of:\n"
                f" * (Tensor input, Tensor q, int dim = None, bool keepdim = False, *, str "
                f"interpolation = \"linear\", Tensor out = None)\n"
                f" * (Tensor input, float q, int dim = None, bool keepdim = False, *, str "
                f"interpolation = \"linear\", Tensor out = None)\n")
        if not 0 <= q <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q}")
        q = _wrap(xp.asarray(q, dtype=input._data.dtype))
    if input.numel() == 0:
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    if q.ndim > 1:
        raise RuntimeError(f"{name}() q must be a scalar or 1D tensor")
    if input.dtype.name not in ("float32", "float64"):
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    if input.dtype is not q.dtype:
        raise RuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
    if interpolation not in _MODES:
        raise RuntimeError(f"{name}() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest, but got {interpolation}")
    qd = q._data
    if not ((qd >= 0) & (qd <= 1)).all():
        raise RuntimeError(f"{name}() q values must be in the range [0, 1]")
    nd = input.ndim
    if dim is None:
        out_shape = [1] * nd if keepdim else []
        x = input.flatten()
    else:
        d = norm_dim(dim, max(nd, 1))
        out_shape = list(input.shape)
        if nd:
            if keepdim:
                out_shape[d] = 1
            else:
                del out_shape[d]
        x = input if d == nd - 1 or nd == 0 else input.unsqueeze(-1).transpose(d, -1)
    if q.ndim:
        out_shape.insert(0, q.numel())
    batch = out_shape[1:] if q.ndim else out_shape
    n = x.shape[-1] if x.ndim else 1
    sorted_ = x.reshape([*batch, n]).sort(-1)[0]       # NaN sorts last
    qv = q.reshape(-1)                                  # ranks in q's dtype, as torch's
    if ignore_nan:
        count = sorted_.isnan().logical_not().sum(-1, keepdim=True)
        ranks = qv * (count - 1)
        ranks = ranks.masked_fill(ranks < 0, 0)
    else:
        last = float(n - 1)
        has_nan = sorted_.isnan().any(-1, keepdim=True)
        ranks = (qv * (n - 1)).expand(*batch, qv.numel()).masked_fill(has_nan, last)
    if interpolation == "lower":
        ranks = ranks.floor()
    elif interpolation == "higher":
        ranks = ranks.ceil()
    elif interpolation == "nearest":
        ranks = ranks.round()
    below = ranks.long()
    values = sorted_.gather(-1, below)
    if interpolation in ("linear", "midpoint"):
        weights = (ranks - below).to(input.dtype) if interpolation == "linear" else \
            ranks.new_full(ranks.shape, 0.5, dtype=input.dtype)
        values = values.lerp(sorted_.gather(-1, ranks.ceil().long()), weights)
    values.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)
    if q.ndim == 0:
        values.squeeze_(0)
    return values if out is None else _write_out(out, values._data)


@expose
def quantile(input: Tensor, q, dim: int | None = None, keepdim: bool = False, *,
             interpolation: str = "linear", out=None) -> Tensor:
    """The ``q``-th quantiles of ``input`` (over ``dim``, or all elements); NaN where a row
    holds a NaN.

    >>> ember.quantile(ember.tensor([0., 1., 2., 3.]), 0.5)
    tensor(1.5000)
    """
    return _quantile(input, q, dim, keepdim, interpolation, False, out)


@expose
def nanquantile(input: Tensor, q, dim: int | None = None, keepdim: bool = False, *,
                interpolation: str = "linear", out=None) -> Tensor:
    """:func:`quantile` ignoring NaN values (NaN only for an all-NaN row)."""
    return _quantile(input, q, dim, keepdim, interpolation, True, out)


# ----------------------------------------------------------------------------- aminmax

def _extreme_grad(grad, self, dim, keepdim, value):
    """amin/amax's backward: the gradient split evenly among the elements equal to it."""
    if dim is None:
        mask = self == value
        return mask * (grad / mask.sum())
    if not keepdim and self.ndim:
        grad, value = grad.unsqueeze(dim), value.unsqueeze(dim)
    mask = self == value
    return mask * (grad / mask.sum(dim, keepdim=True))


@op("AminmaxBackward0", name="_aminmax", method=False, function=False, outputs=2,
    tensors=("self",),
    self=lambda grads, self, dim, keepdim: _aminmax_back(grads, self, dim, keepdim))
def _aminmax_op(self, dim, keepdim):
    if dim is None:
        lo, hi = self.min(), self.max()
        if keepdim:
            lo, hi = lo.reshape((1,) * self.ndim), hi.reshape((1,) * self.ndim)
        return xp.asarray(lo), xp.asarray(hi)
    return (c_order(self.min(axis=dim, keepdims=keepdim)),
            c_order(self.max(axis=dim, keepdims=keepdim)))


def _aminmax_back(grads, self, dim, keepdim):
    lo, hi = aminmax(self.detach(), dim=dim, keepdim=keepdim)
    if dim is None and keepdim:
        grads = [g.reshape(()) for g in grads]
        lo, hi = lo.reshape(()), hi.reshape(())
    return _extreme_grad(grads[0], self, dim, keepdim, lo) + \
        _extreme_grad(grads[1], self, dim, keepdim, hi)


@expose
def aminmax(input: Tensor, *, dim: int | None = None, keepdim: bool = False, out=None):
    """``(min, max)`` of ``input``, over ``dim`` or all elements.

    >>> ember.aminmax(ember.tensor([1, -2, 5]))
    torch.return_types.aminmax(
    min=tensor(-2),
    max=tensor(5))
    """
    check_out_tuple("aminmax", out)
    if dim is not None:
        dim = norm_dim(dim, input.ndim)
        if input.ndim and input.shape[dim] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {dim} to have non-zero size.")
    elif input.numel() == 0:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                           "operation has no identity.")
    if input.dtype.is_complex and dim is not None and not input.ndim:
        raise RuntimeError(f"aminmax not implemented for {input.dtype.scalar_name}")
    if input.dtype.is_complex:
        raise NotImplementedError("\"aminmax_cpu\" not implemented for "
                                  f"'{input.dtype.scalar_name}'")
    lo, hi = _aminmax_op(input, dim if input.ndim else None, keepdim)
    if out is not None:
        return write_outs(out, (lo, hi), AminmaxResult)
    return AminmaxResult(lo, hi)


__all__ = ["cov", "corrcoef", "quantile", "nanquantile", "aminmax"]

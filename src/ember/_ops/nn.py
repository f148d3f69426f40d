"""Neural-network ops: softmax, losses, activations, convolution, pooling, normalisation.

Every differentiable op carries torch's node name (``ConvolutionBackward0``,
``NllLossBackward0`` …). Where torch's backward is itself a linear map (convolution, pooling,
``nll_loss``, embedding, padding) the backward is defined here as an op of its own whose
formula is the forward again (the adjoint of an adjoint), so double backward works through
every entry. Kernels are vectorised: convolution builds strided windows (``as_strided``) and
reduces them with one batched matmul; average pooling adds each window's elements in torch's
order (:mod:`._windows`), max pooling scatters its gradients in window order; loops run at
most over the kernel's offsets, never over pixels or the batch.
"""

from __future__ import annotations

import contextlib
import functools
import math

import numpy as np

from .. import _cpu, _errors, _lazy
from .. import _dtype as D
from .. import _memory_format as _mf
from .._device import xp
from .._tensor import Tensor
from ..autograd import grad_mode as _grad_mode
from . import _activation_math, _exact, _gemm, _libm
from . import _softmax as _softmax_kernel
from .registry import NONE, _write_out, check_out_dtype, checked_numbers, expose, joint, op
from .util import norm_dim

# (on first use)
_W = _lazy.defer(globals(), "_W", "ember._ops._windows")
_norms = _lazy.defer(globals(), "_norms", "ember._ops._norms")
_sleef = _lazy.defer(globals(), "_sleef", "ember._ops._sleef")
_sleef_d = _lazy.defer(globals(), "_sleef_d", "ember._ops._sleef_d")
_sleef_ext = _lazy.defer(globals(), "_sleef_ext", "ember._ops._sleef_ext")
_lm = _lazy.defer(globals(), "_lm", "ember._ops._loss_math")
_onednn_conv = _lazy.defer(globals(), "_onednn_conv", "ember._ops._onednn_conv")
_unary = _lazy.defer(globals(), "_unary", "ember._ops.unary")
del _lazy

_as_strided = np.lib.stride_tricks.as_strided


def _where(cond, a, b):
    from .pointwise import where
    return where(cond, a, b)


# ============================================================================ softmax family

def _softmax_np(x, dim):
    with np.errstate(invalid="ignore", over="ignore"):
        e = xp.exp(x - x.max(axis=dim, keepdims=True))
        return e / e.sum(axis=dim, keepdims=True)


def _log_softmax_np(x, dim):
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        s = x - x.max(axis=dim, keepdims=True)
        return s - xp.log(xp.exp(s).sum(axis=dim, keepdims=True))


# The backward of softmax and log_softmax is an op of its own, as in torch
# (``_softmax_backward_data``): one kernel call in backward, and torch's nodes under
# double backward.

@op("SoftmaxBackwardDataBackward0", name="_softmax_backward_data", method=False,
    function=False, promote=NONE,
    grad_output=lambda grad, output, dim: _softmax_backward_data(grad, output, dim),
    output=lambda grad, grad_output, output, dim: grad_output * grad
    - (output * grad_output).sum(dim, keepdim=True) * grad
    - grad_output * (output * grad).sum(dim, keepdim=True))
def _softmax_backward_data(grad_output, output, dim):
    rd = _reduced_type(output)
    if output.ndim and grad_output.dtype == output.dtype \
            and (rd is not None or output.dtype in _exact.exact_dtype):
        return _softmax_kernel.softmax_backward(grad_output, output, dim, rd=rd)
    g, o = _opmath(grad_output, rd), _opmath(output, rd)
    return _low(o * (g - (g * o).sum(axis=dim, keepdims=True)), rd)


def _reduced_type(a):
    """float16 or bfloat16 (torch's reduced floating types, computed in float32), or None."""
    return a.dtype if a.dtype == xp.float16 or a.dtype in D.REDUCED else None


def _opmath(a, rd):
    return a if rd is None else a.astype(xp.float32)


def _low(a, rd):
    return a if rd is None else a.astype(rd)


@op("LogSoftmaxBackwardDataBackward0", name="_log_softmax_backward_data", method=False,
    function=False, promote=NONE,
    grad_output=lambda grad, output, dim: grad - (grad * output.exp()).sum(dim, keepdim=True),
    output=lambda grad, grad_output, output, dim:
    -grad_output.sum(dim, keepdim=True) * output.exp() * grad)
def _log_softmax_backward_data(grad_output, output, dim):
    rd = _reduced_type(output)
    if output.ndim and grad_output.dtype == output.dtype \
            and (rd is not None or output.dtype in _exact.exact_dtype):
        return _softmax_kernel.log_softmax_backward(grad_output, output, dim, rd=rd)
    g, o = _opmath(grad_output, rd), _opmath(output, rd)
    return _low(g - xp.exp(o) * g.sum(axis=dim, keepdims=True), rd)


@op("SoftmaxBackward0", name="_softmax", method=False, function=False, promote=NONE,
    self=lambda grad, result, dim: _softmax_backward_data(grad, result, dim),
    raw={"self": lambda grad, result, dim: _softmax_backward_data.kernel(grad, result, dim)})
def _softmax(self, dim):
    if self.ndim == 0:          # (one element: exp(x - x) / 1, NaN for an infinite x)
        return xp.where(xp.isfinite(self), xp.ones((), self.dtype),
                        xp.full((), xp.nan, self.dtype))
    if self.dtype == xp.float16 or self.dtype in D.REDUCED:
        return _softmax_kernel.softmax_reduced(self, dim)
    if self.dtype in _exact.exact_dtype:
        return _softmax_kernel.softmax(self, dim)
    return _softmax_np(self, dim)


@op("SafeSoftmaxBackward0", name="_safe_softmax", method=False, function=False, promote=NONE,
    self=lambda grad, result, dim: _softmax_backward_data(grad, result, dim))
def _safe_softmax(self, dim):
    """Softmax whose rows that are ``-inf`` everywhere give zeros (attention's masked rows)."""
    out = _softmax.kernel(self, dim)              # torch's softmax, then the masked rows
    if self.ndim == 0:
        return out
    dead = xp.all(self == -xp.inf, axis=dim, keepdims=True)
    return xp.where(dead, xp.zeros((), out.dtype), out) if dead.any() else out


@op("LogSoftmaxBackward0", name="_log_softmax", method=False, function=False, promote=NONE,
    self=lambda grad, result, dim: _log_softmax_backward_data(grad, result, dim),
    raw={"self": lambda grad, result, dim: _log_softmax_backward_data.kernel(grad, result,
                                                                              dim)})
def _log_softmax(self, dim):
    if self.ndim == 0:          # (x - x - log(1), NaN for an infinite x)
        return xp.where(xp.isfinite(self), xp.zeros((), self.dtype),
                        xp.full((), xp.nan, self.dtype))
    if self.dtype == xp.float16 or self.dtype in D.REDUCED:
        return _softmax_kernel.softmax_reduced(self, dim, log=True)
    if self.dtype in _exact.exact_dtype:
        return _softmax_kernel.log_softmax(self, dim)
    return _log_softmax_np(self, dim)


def _prep_softmax(input, dim, dtype, name="softmax"):
    if dtype is not None and not isinstance(dtype, D.dtype):
        raise _errors.Unparsed(f"{name}(): argument 'dtype' must be torch.dtype, not "
                               f"{_errors.type_name(dtype)}")
    if dtype is not None:
        input = input.to(dtype)
    dim = norm_dim(dim, input.ndim)
    if (not input.dtype.is_floating_point or input.dtype._rank < 0) and input._data.size:
        # (float8 too; torch returns an empty input's empty result before its kernel)
        kernel = f"{name}_lastdim" if dim == input.ndim - 1 or input.ndim == 0 else name
        raise NotImplementedError(f'"{kernel}_kernel_impl" not implemented for '
                                  f"'{_scalar(input)}'")
    return input, dim


def _scalar(t):
    from .registry import _scalar_name
    return _scalar_name(t.dtype)


@expose(overloads=("(Tensor input, int dim, torch.dtype dtype = None, *, Tensor out = None)",))
def softmax(input: Tensor, dim: int, dtype=None, *, out=None) -> Tensor:
    """``exp(x) / exp(x).sum(dim)``, computed stably (node ``SoftmaxBackward0``)."""
    return _softmax_fn(_softmax, "softmax", input, dim, dtype, out)


def _softmax_fn(d, name, input, dim, dtype, out):
    check_out_dtype(out, dtype or input.dtype)
    input, dim = _prep_softmax(input, dim, dtype, name)
    if not input._data.size and not input.dtype.is_floating_point:
        res = Tensor._wrap(xp.empty(input._data.shape, input._data.dtype))
    else:
        res = d(input, dim)
    return res if out is None else _write_out(out, res._data)


@expose(overloads=("(Tensor input, int dim, torch.dtype dtype = None, *, Tensor out = None)",))
def log_softmax(input: Tensor, dim: int, dtype=None, *, out=None) -> Tensor:
    """``log(softmax(x, dim))``, computed stably (node ``LogSoftmaxBackward0``)."""
    return _softmax_fn(_log_softmax, "log_softmax", input, dim, dtype, out)


# ============================================================================ losses

@op("DivBackward1", name="div_scalar", method=False, function=False, tensors=("self",),
    reduced_in_float=False,
    self=lambda grad, other: grad / other)
def div_scalar(self, other):
    """``self / other`` for a Python number ``other`` (aten's ``div.Scalar``)."""
    return self / self.dtype.type(other)


@op("MulBackward1", name="mul_scalar", method=False, function=False, tensors=("self",),
    self=lambda grad, other: grad * other)
def mul_scalar(self, other):
    """``self * other`` for a Python number ``other`` (aten's ``mul.Scalar``)."""
    return self * self.dtype.type(other)


_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def reduction_enum(reduction: str) -> int:
    """torch's ``Reduction`` number of a reduction name (``ValueError`` for a bad one)."""
    try:
        return _REDUCTIONS[reduction]
    except KeyError:
        raise ValueError(f"{reduction} is not a valid value for reduction") from None


def _reduce_np(loss, reduction):
    if reduction == 1:
        return loss.mean() if loss.size else xp.array(xp.nan, loss.dtype)
    if reduction == 2:
        return loss.sum()
    return loss


def _norm(grad, self, reduction):
    """The incoming gradient of a pointwise loss, divided by n for ``mean``."""
    if reduction == 1:
        return grad / max(1, self.numel())
    return grad


# ----- nll_loss

def _nll_targets(self, target, weight, ignore_index):
    """Rows as (N, C), the targets with ignored ones set to 0, and each row's weight (None:
    every row counts 1)."""
    x = self if self.ndim > 1 else self[None]
    t = target if self.ndim > 1 else target[None]
    mask = t != ignore_index
    keep_all = mask.all()
    tt = t if keep_all else xp.where(mask, t, 0)
    c = x.shape[1]
    if tt.size and (tt.min() < 0 or tt.max() >= c):
        bad = (tt < 0) | (tt >= c)
        raise IndexError(f"Target {int(tt[bad].flat[0])} is out of bounds.")
    if weight is None and keep_all:
        return x, tt, None
    w = (weight[tt] if weight is not None else xp.ones(tt.shape, x.dtype)) * mask
    return x, tt, w.astype(x.dtype)


def _nll_cascaded(dt) -> bool:
    """Whether ``nll_loss_out_frame``'s cascade adds the sums of NumPy dtype ``dt`` in the
    type itself (each step rounded: scalar_t arithmetic for float16 and bfloat16 too).
    bfloat16 is named, not compared: comparing would load ml_dtypes with ember.nn."""
    return dt in _exact.exact_dtype or dt.name in ("float16", "bfloat16")


def _nll_plain(self, target, weight, reduction, ignore_index):
    """The flat indices of the picked elements of a C-contiguous (N, C) float32/float64
    ``self`` when nothing is weighted or ignored, every target is in range and the loss is
    reduced (None otherwise: the general path, which also raises torch's errors)."""
    if (weight is not None or reduction == 0 or self.ndim != 2 or target.ndim != 1
            or not target.size or not _nll_cascaded(self.dtype)
            or not self.flags.c_contiguous):
        return None
    lo, hi = int(target.min()), int(target.max())
    n, c = self.shape
    if lo < 0 or hi >= c or lo <= ignore_index <= hi:
        return None
    return target + np.arange(0, n * c, c)


def _nll_plain_loss(self, flat, reduction):
    """The reduced loss of :func:`_nll_kernel` from :func:`_nll_plain`'s ``flat`` indices:
    _nll_sums' dense cascade without its masks."""
    n, dt = flat.size, self.dtype.type
    loss = _cascade8_dense(self.reshape(-1)[flat],
                           1 << (max(4, (n - 1).bit_length() // 8) if n > 1 else 4), dt, True)
    if reduction == 2:
        return loss
    with np.errstate(invalid="ignore", divide="ignore"):
        return (loss / dt(n)).astype(self.dtype)


def _nll_kernel(self, target, weight, reduction, ignore_index):
    flat = _nll_plain(self, target, weight, reduction, ignore_index)
    if flat is not None:
        return _nll_plain_loss(self, flat, reduction)
    x, t, w = _nll_targets(self, target, weight, ignore_index)
    if x.ndim == 2:
        picked = x[xp.arange(x.shape[0]), t]
    else:
        picked = xp.take_along_axis(x, t[:, None], axis=1)[:, 0]
    losses = -picked if w is None else -picked * w
    if reduction == 0:
        return losses if self.ndim > 1 else losses[0]
    if _nll_cascaded(x.dtype) and t.size:
        valid = (target if self.ndim > 1 else target[None]) != ignore_index
        loss, total = _nll_sums(picked, valid, None if weight is None else weight[t],
                                x.dtype.type)
    else:
        loss = losses.sum()
        total = x.dtype.type(t.size) if w is None else w.sum()
    if reduction == 2:
        return loss
    with np.errstate(invalid="ignore", divide="ignore"):
        return (loss / total).astype(x.dtype)


def _nll_sums(picked, valid, wt, dt):
    """``nll_loss_out_frame``'s reduction: the loss (and weight) added by an eight-level
    cascade, one level per ``2^p`` steps of the target's flat index (ignored targets
    skipped), the levels then added in order."""
    picked = picked.reshape(-1)
    idx, wv, p = _nll_valid(valid, wt)
    loss = _cascade8(idx, picked[idx] if wv is None else picked[idx] * wv, p, dt, neg=True)
    return loss, _nll_total(valid, wt, dt)


def _nll_valid(valid, wt):
    """The flat indices of the counted targets, their weights (None: unweighted) and the
    cascade's level step ``p``."""
    valid = valid.reshape(-1)
    n = valid.size
    idx = np.flatnonzero(valid)
    return idx, None if wt is None else wt.reshape(-1)[idx], \
        max(4, (n - 1).bit_length() // 8) if n > 1 else 4


def _nll_total(valid, wt, dt):
    """``total_weight`` as ``nll_loss_out_frame`` adds it: the count of counted targets, or
    their weights added by the cascade of :func:`_nll_sums`."""
    idx, wv, p = _nll_valid(valid, wt)
    return dt(idx.size) if wv is None else _cascade8(idx, wv, p, dt, neg=False)


def _cascade8(idx, vals, p, dt, neg):
    """The levels of torch's cascade after each value arrives at level 0 with its index:
    a level's running sum moves up (and restarts) when the arriving index is a multiple of
    ``2^p``, arriving there with index // 2^p; the top level keeps everything."""
    if idx.size and idx[-1] == idx.size - 1:
        return _cascade8_dense(vals, 1 << p, dt, neg)
    total = dt(0)
    step = 1 << p
    for level in range(8):
        if not idx.size:
            break
        top = level == 7
        ends = np.flatnonzero(idx % step == 0) if not top else np.zeros(0, np.int64)
        starts = np.concatenate([[0], ends[:-1] + 1]) if ends.size else ends
        rest = vals[ends[-1] + 1:] if ends.size else vals
        acc = np.zeros(ends.size, dt)
        lens = ends - starts + 1
        for j in range(int(lens.max()) if lens.size else 0):
            m = lens > j
            v = vals[starts[m] + j]
            acc[m] = acc[m] - v if neg and level == 0 else acc[m] + v
        kept = dt(0)
        for v in rest:
            kept = kept - v if neg and level == 0 else kept + v
        total = total + kept
        idx, vals = idx[ends] // step, acc
    return total


def _seq(v, dt):
    """``((0 + v[0]) + v[1]) + …`` (0 when empty)."""
    return np.add.accumulate(v)[-1] if v.size else dt(0)


def _cascade8_dense(vals, step, dt, neg):
    """:func:`_cascade8` when every index from 0 arrives: each level moves up its first
    value, then each run of ``step`` values, and keeps the rest."""
    total = dt(0)
    top = dt(0)
    for level in range(8):
        n = vals.size
        if level == 7 or n == 1:
            top = _seq(vals, dt)
            break
        m = (n - 1) // step
        blocks = vals[1:1 + m * step].reshape(m, step)
        pushed = np.empty(m + 1, dt)
        pushed[0] = vals[0]
        if m:
            pushed[1:] = np.add.accumulate(blocks, axis=1)[:, -1]
        kept = _seq(vals[1 + m * step:], dt)
        if neg and level == 0:
            pushed, kept = -pushed, -kept
        total = total + kept
        vals = pushed
    if neg and vals.size == 1 and level == 0:
        top = -top
    if level < 7:                   # the empty levels' +0 (only turns a -0 into +0)
        total = total + dt(0)
    return total + top


def _nll_backward_kernel(grad_output, self, target, weight, reduction, ignore_index):
    flat = _nll_plain(self, target, weight, reduction, ignore_index)
    if flat is not None:
        g = grad_output
        if reduction == 1:
            with np.errstate(invalid="ignore", divide="ignore"):
                g = g / self.dtype.type(target.size)
        out = xp.zeros(self.shape, grad_output.dtype)
        out.reshape(-1)[flat] = (-g).astype(out.dtype, copy=False)
        return out
    x, t, w = _nll_targets(self, target, weight, ignore_index)
    g = grad_output if self.ndim > 1 or reduction != 0 else grad_output[None]
    if reduction == 1:
        if _nll_cascaded(x.dtype) and t.size:
            valid = (target if self.ndim > 1 else target[None]) != ignore_index
            total = _nll_total(valid, None if weight is None else weight[t], x.dtype.type)
        else:
            total = x.dtype.type(t.size) if w is None else w.sum()
        with np.errstate(invalid="ignore", divide="ignore"):
            g = g / total
    out = xp.zeros(x.shape, grad_output.dtype)
    vals = (-g if w is None else -w * g).astype(out.dtype, copy=False)
    if w is not None and ignore_index in target:
        # torch writes nothing for an ignored target (+0, where -0 * g is -0)
        valid = (target if self.ndim > 1 else target[None]) != ignore_index
        vals = xp.where(valid, vals, out.dtype.type(0))
    if x.ndim == 2:
        out[xp.arange(x.shape[0]), t] = vals
    else:
        xp.put_along_axis(out, t[:, None], xp.broadcast_to(vals, t.shape)[:, None], axis=1)
    return out.reshape(self.shape)


def _make_nll(node):
    fwd = op(node, name="_nll_loss_" + node, method=False, function=False, promote=NONE,
             tensors=("self", "target", "weight"), reduced_in_float=False,
             self=lambda grad, self, target, weight, reduction, ignore_index:
             bwd(grad, self, target, weight, reduction, ignore_index))(_nll_kernel)
    bwd = op(node.replace("Backward0", "BackwardBackward0"), name="_nll_backward_" + node,
             method=False, function=False, promote=NONE, reduced_in_float=False,
             tensors=("grad_output", "self", "target", "weight"),
             grad_output=lambda grad, target, weight, reduction, ignore_index:
             fwd(grad, target, weight, reduction, ignore_index),
             self=lambda grad: grad.new_zeros(grad.shape))(_nll_backward_kernel)
    return fwd


_nll_loss_1d = _make_nll("NllLossBackward0")
_nll_loss_2d = _make_nll("NllLoss2DBackward0")


def cross_entropy_common(input, target, ignore_index):
    """``cross_entropy``'s common case, a classifier's training loss: a plain C-contiguous
    float32/float64 (N, C) input, int64 class indices all within range, no weight, the mean.
    Computes and records what ``nll_loss(log_softmax(input, 1), target)`` does for it (the
    same kernels, results and nodes), without the checks that only the other cases need;
    None for every other case (the general path, which also raises torch's errors)."""
    from . import registry as _R
    if input.__class__ is not Tensor and not getattr(input.__class__, "_is_param", False) \
            or target.__class__ is not Tensor or ignore_index.__class__ is not int \
            or _R.run is not _R.PLAIN_RUNNERS[0]:
        return None
    x, t = input._data, target._data
    if x.__class__ is not np.ndarray or t.__class__ is not np.ndarray or x.ndim != 2 \
            or t.ndim != 1 or t.dtype != np.int64 or t.shape[0] != x.shape[0] \
            or x.dtype not in _exact.exact_dtype or not x.flags.c_contiguous \
            or (flat := _nll_plain(x, t, None, 1, ignore_index)) is None:
        return None
    logp = _R._wrap(_softmax_kernel.log_softmax(x, 1))
    record = _R._state.enabled
    if record and _R._requires(_log_softmax, (input, 1)):
        _log_softmax.record((input, 1), (logp,))
    loss = _R._wrap(np.asarray(_nll_plain_loss(logp._data, flat, 1), x.dtype))
    args = (logp, target, None, 1, ignore_index)
    if record and _R._requires(_nll_loss_1d, args):
        _nll_loss_1d.record(args, (loss,))
    return loss


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
             ignore_index: int = -100, reduction: str = "mean") -> Tensor:
    """Negative log-likelihood of ``target`` classes under log-probabilities ``input``."""
    r = reduction_enum(reduction)
    _nll_check(input, target, weight)
    if not input.dtype.is_floating_point:
        kernel = "nll_loss_out_frame" if input.ndim <= 2 else "nll_loss2d_forward_out_frame"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    if input.ndim <= 2:
        return _nll_loss_1d(input, target, weight, r, int(ignore_index))
    if input.ndim == 4:
        return _nll_loss_2d(input, target, weight, r, int(ignore_index))
    # ``nll_loss_nd``: other ranks are viewed as (N, C, 1, -1) for the 2-d kernel, and an
    # unreduced loss viewed back (the graph gets torch's ViewBackward0 nodes).
    n, c = input.shape[:2]
    empty = not input.numel()
    x = input.contiguous().view(n, c, 0, 0) if empty else input.contiguous().view(n, c, 1, -1)
    t = target.contiguous()
    t = t.view(n, 0, 0) if not t.numel() else t.view(n, 1, -1)
    out = _nll_loss_2d(x, t, weight, r, int(ignore_index))
    return out.view(n, *input.shape[2:]) if r == 0 else out


def _nll_check(input, target, weight):
    """torch's checks of ``nll_loss``'s arguments, in torch's order, with its messages."""
    nd, shape, tshape = input.ndim, tuple(input.shape), tuple(target.shape)
    if nd < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {nd})")
    if nd != 1 and shape[0] != (tshape[0] if tshape else 0):
        raise ValueError(f"Expected input batch_size ({shape[0]}) to match target "
                         f"batch_size ({tshape[0] if tshape else 0}).")
    if nd not in (1, 2, 4) and tshape[1:] != shape[2:]:
        raise RuntimeError(f"Expected target size {[shape[0], *shape[2:]]}, got {list(tshape)}")
    if nd <= 2 and target.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if nd == 4 and target.ndim != 3:
        raise RuntimeError("only batches of spatial targets supported (3D tensors) but got "
                           f"targets of dimension: {target.ndim}")
    name = target.dtype.scalar_name
    if name not in ("Long", "Byte"):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {name}")
    c = shape[-1] if nd == 1 else shape[1]
    if nd <= 2:
        if nd == 1 and tshape and tshape[0] != 1:
            raise ValueError("For 1D input, 1D target must have size 1, but got target size: "
                             f"{tshape[0]}")
        if weight is not None and weight.numel() != c:
            raise RuntimeError(f"weight tensor should be defined either for all {c} classes or "
                               f"no classes but got weight tensor of shape: "
                               f"{list(weight.shape)}")
        return
    if weight is not None and weight.numel() != c:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    if tshape[1:] != shape[2:]:
        raise RuntimeError(f"size mismatch (got input: {list(shape)} , target: {list(tshape)}")
    if name != "Long":
        raise RuntimeError(f"expected scalar type Long but found {name}")


# ----- pointwise losses (formulas in ember ops)

def _mul_d(t, c):
    """``t * c`` with ``c`` a C++ double: a float32 product rounded once from double."""
    if t.dtype.itemsize == 4 and float(np.float32(c)) != c:
        return (t.double() * c).to(t.dtype)
    return mul_scalar(t, c)


def _div_d(t, c):
    """``t / c`` with ``c`` a C++ double."""
    if t.dtype.itemsize == 4 and float(np.float32(c)) != c:
        return (t.double() / c).to(t.dtype)
    return div_scalar(t, c)


def _norm_value(self, reduction, scale=1.0):
    return scale / max(1, self.numel()) if reduction == 1 else scale


def _lanes_mask(grad, self, target):
    """The elements a ternary backward kernel computes one by one (a bool tensor)."""
    return Tensor._wrap(_lm.scalar_lanes(self._data, target._data, grad._data))


def _mse_grad(grad, diff, reduction):
    """``mse_backward``'s ``alpha * diff * grad``: ``alpha`` (2, or 2 / numel for the mean)
    in the tensors' type, which float16 and bfloat16 round it to, each product rounded."""
    norm = _norm_value(diff, reduction, 2.0)
    if diff.dtype.itemsize == 2:
        return diff * Tensor._wrap(xp.asarray(norm, diff._data.dtype)) * grad
    return mul_scalar(diff, norm) * grad


@op("MseLossBackward0", name="_mse_loss", method=False, function=False,
    reduced_in_float=False,
    self=lambda grad, self, target, reduction: _mse_grad(grad, self - target, reduction),
    target=lambda grad, self, target, reduction: _mse_grad(grad, target - self, reduction))
def _mse_loss(self, target, reduction):
    if self.dtype.kind == "c":
        from .unary import _type_name
        raise NotImplementedError(f"\"mse_cpu\" not implemented for '{_type_name(self)}'")
    d = self - target
    sq = d * d          # (bfloat16 arrays: the difference and the square each rounded)
    return _lm.reduce(sq if sq.dtype.kind != "V" else sq.astype(xp.float32), reduction)


def _smooth_l1_grad(grad, self, target, reduction, beta):
    """``smooth_l1_backward``: ``norm * (x / beta or +-1) * g`` in the vectors, ``norm * x *
    g / beta`` (a double ``beta``) or ``+-norm * g`` one by one. float16 and bfloat16 take
    the reduced types' kernel: the same in float (a float ``beta``), rounded once."""
    if self.dtype.itemsize == 2:
        out = _smooth_l1_grad_float(grad, self, target, _norm_value(self, reduction), beta)
        return out.to(self.dtype)
    x = self - target
    norm = _norm_value(self, reduction)
    xd = x.detach().double()
    one = x.new_ones(())
    sign = _where(x > 0, one, -one)
    vec = mul_scalar(_where(x.abs() >= beta, sign, x / beta), norm) * grad
    inner = _div_d(mul_scalar(x, norm) * grad, beta)
    ng = mul_scalar(grad, norm)
    one_by_one = _where(xd <= -beta, -ng, _where(xd >= beta, ng, inner))
    return _where(_lanes_mask(grad, self, target), one_by_one, vec)


def _smooth_l1_grad_float(grad, self, target, norm, beta):
    """``smooth_l1_backward`` of float16/bfloat16 operands in float32 (ATen's reduced-type
    kernel): ``norm * (x / beta or +-1) * g`` in the vectors, ``norm * x * g / beta`` or
    ``+-norm * g`` one by one, ``x`` the float difference."""
    x, g = self.float() - target.float(), grad.float()
    b = float(np.float32(beta))
    one = x.new_ones(())
    vec = mul_scalar(_where(x.abs() >= b, _where(x > 0, one, -one), div_scalar(x, b)), norm) * g
    ng = mul_scalar(g, norm)
    one_by_one = _where(x <= -b, -ng, _where(x >= b, ng, div_scalar(mul_scalar(x, norm) * g, b)))
    return _where(_lanes_mask(grad, self, target), one_by_one, vec)


@op("SmoothL1LossBackward0", name="_smooth_l1_loss", method=False, function=False,
    self=lambda grad, self, target, reduction, beta:
    _smooth_l1_grad(grad, self, target, reduction, beta),
    target=lambda grad, self, target, reduction, beta:     # (the roles swapped, as torch)
    _smooth_l1_grad(grad, target, self, reduction, beta))
def _smooth_l1_loss(self, target, reduction, beta):
    d = xp.abs(self - target)
    if beta == 0:
        return _lm.reduce(d, reduction)
    b = d.dtype.type(beta)
    half = d.dtype.type(0.5)
    return _lm.reduce(xp.where(d < b, half * d * d / b, d - half * b), reduction)


def _huber_grad(grad, self, target, reduction, delta):
    """``huber_backward``: ``norm * (x or +-delta) * g`` in the vectors, ``+-norm * g *
    delta`` (a double ``delta``) or ``norm * x * g`` one by one."""
    x = self - target
    norm = _norm_value(self, reduction)
    xd = x.detach().double()
    d = x.new_full((), delta)
    vec = mul_scalar(_where(x.abs() >= delta, _where(x > 0, d, -d), x), norm) * grad
    ng = mul_scalar(grad, norm)
    one_by_one = _where(xd <= -delta, _mul_d(-ng, delta),
                        _where(xd >= delta, _mul_d(ng, delta), mul_scalar(x, norm) * grad))
    return _where(_lanes_mask(grad, self, target), one_by_one, vec)


@op("HuberLossBackward0", name="_huber_loss", method=False, function=False,
    self=lambda grad, self, target, reduction, delta:
    _huber_grad(grad, self, target, reduction, delta),
    target=lambda grad, self, target, reduction, delta:    # (the roles swapped, as torch)
    _huber_grad(grad, target, self, reduction, delta))
def _huber_loss(self, target, reduction, delta):
    if not delta > 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    d = xp.abs(self - target)
    dv = d.dtype.type(delta)
    half = d.dtype.type(0.5)
    return _lm.reduce(xp.where(d < dv, half * d * d, dv * (d - half * dv)), reduction)


def _finish(g, weight, reduction, n):
    """A loss backward's last steps in torch's order: the weight, then ``/ numel``."""
    if weight is not None:
        g = g * weight
    return g / n if reduction == 1 else g


def _bce_grad(grad, self, target, weight, reduction):
    eps = float(np.float32(1e-12))
    g = grad * (self - target) / ((1 - self) * self).clamp(min=eps)
    return _finish(g, weight, reduction, self.numel())


def _bce_target_grad(grad, self, weight, reduction):
    return _finish(-self.logit() * grad, weight, reduction, self.numel())


@op("BinaryCrossEntropyBackward0", name="_binary_cross_entropy", method=False,
    reduced_in_float=False,
    function=False, tensors=("self", "target", "weight"),
    self=_bce_grad,
    target=lambda grad, self, weight, reduction: _bce_target_grad(grad, self, weight, reduction))
def _binary_cross_entropy(self, target, weight, reduction):
    bad_input = ~((self >= 0) & (self <= 1))
    bad_target = ~((target >= 0) & (target <= 1))
    if bad_input.any() or bad_target.any():           # ATen checks both, element by element
        first = np.flatnonzero(bad_input | bad_target)[0]
        which = "input" if bad_input.reshape(-1)[first] else "target"
        raise RuntimeError(f"all elements of {which} should be between 0 and 1")
    loss = _lm.bce(self, target)
    if weight is not None:
        loss = loss * weight
    return _lm.reduce(loss.astype(self.dtype, copy=False), reduction)


def _bcel_grad(grad, self, target, weight, pos_weight, reduction):
    if pos_weight is None:
        g = (self.sigmoid() - target) * grad
    else:
        t = pos_weight * target
        g = ((t + 1 - target) * self.sigmoid() - t) * grad
    return _finish(g, weight, reduction, self.numel())


def _bcel_target_grad(grad, self, weight, pos_weight, reduction):
    if pos_weight is None:
        g = -self * grad
    else:
        g = (log_sigmoid(-self) - log_sigmoid(self) * pos_weight) * grad
    return _finish(g, weight, reduction, self.numel())


@op("BinaryCrossEntropyWithLogitsBackward0", name="_bce_with_logits", method=False,
    reduced_in_float=False,
    function=False, tensors=("self", "target", "weight", "pos_weight"),
    self=_bcel_grad, target=_bcel_target_grad)
def _bce_with_logits(self, target, weight, pos_weight, reduction):
    """``(1 - t) * x - log_sigmoid(x)`` (times ``(pos_weight - 1) * t + 1``), as ATen's
    composite computes it."""
    ls = _lm.log_sigmoid(self)
    if pos_weight is not None:
        ls = ((pos_weight - 1) * target + 1) * ls
    loss = (1 - target) * self - ls
    if weight is not None:
        loss = loss * weight
    return _lm.reduce(loss.astype(self.dtype, copy=False), reduction)


# ============================================================================ activations

def _backward_kernel(kernel, grad, x, *args, half_in_float=True):
    """An activation's backward kernel on the arrays ``grad``, ``x``: float16 computed in
    float32 and rounded once (as torch's reduced-type loops; ``half_in_float=False`` for a
    kernel that does that itself), a layout the kernel declines (it runs torch's
    vector/scalar split only on one dense layout) on contiguous copies."""
    half = half_in_float and x.dtype == np.float16
    if half:
        grad, x = grad.astype(np.float32), x.astype(np.float32)
    elif grad.dtype != x.dtype:
        grad = grad.astype(x.dtype)
    out = kernel(grad, x, *args)
    if out is None:
        grad, x = np.broadcast_arrays(grad, x)
        out = kernel(np.ascontiguousarray(grad), np.ascontiguousarray(x), *args)
    return out.astype(np.float16) if half else out


def _without_graph(fn, grad, self, *args):
    """A backward formula's value through ``fn`` (an op taking ``grad, self, *args``) when
    grad mode is off, as torch's kernel computes it; None when a graph is being built."""
    return None if _grad_mode._state.enabled else fn(grad, self, *args)


@op("LeakyReluBackward0", name="leaky_relu", method=False, function=False,
    self=lambda grad, self, negative_slope: _where(self > 0, grad, grad * negative_slope))
def leaky_relu(self, negative_slope=0.01):
    """``x`` where positive, ``negative_slope * x`` elsewhere."""
    return xp.where(self > 0, self, self * self.dtype.type(negative_slope))


@op("EluBackwardBackward0", name="elu_backward", method=False, function=False,
    promote=NONE, tensors=("grad_output", "self"),
    grad_output=lambda grad, grad_output, self, alpha, scale, input_scale:
    elu_backward(grad, self, alpha, scale, input_scale),
    self=lambda grad, grad_output, self, alpha, scale, input_scale:
    elu_backward(mul_scalar(grad * grad_output, input_scale), self, alpha, scale, input_scale)
    * (self < 0).type_as(grad))
def elu_backward(grad_output, self, alpha, scale, input_scale):
    """``elu_backward`` on the input (``is_result=False``): elu's gradient as its own node,
    whose second derivative is torch's ``elu_double_backward``."""
    return _backward_kernel(_activation_math.elu_backward, grad_output, self, alpha, scale,
                            input_scale, half_in_float=False)


def _elu_grad(grad, self, alpha, scale, input_scale):
    return elu_backward(grad, self, alpha, scale, input_scale)


def _elu_np(x, alpha, scale, input_scale):
    out = _activation_math.elu(x, alpha, scale, input_scale)
    if out is not None:
        return out
    t = x.dtype.type
    with np.errstate(over="ignore"):
        neg = xp.expm1(x * t(input_scale)) * t(alpha * scale)
    return xp.where(x > 0, x * t(scale), neg)


def _elu_check(self, *rest):
    """elu's (and celu's, selu's) CPU kernel is floating-point only."""
    if not self.dtype.is_floating_point:
        raise NotImplementedError(f"\"elu_cpu\" not implemented for '{self.dtype.scalar_name}'")


@op("EluBackward0", name="elu", method=False, function=False, self=_elu_grad,
    raw={"self": _activation_math.elu_backward}, check=_elu_check)
def elu(self, alpha=1.0, scale=1.0, input_scale=1.0):
    """Exponential linear unit ``scale * (x if x > 0 else alpha * (exp(x * input_scale) - 1))``."""
    return _elu_np(self, alpha, scale, input_scale)


def _f32_of(value) -> float:
    """A number as a C++ ``float`` holds it (derivatives.yaml's ``alpha.toFloat()``)."""
    return float(np.float32(value))


@op("CeluBackward0", name="celu", method=False, check=_elu_check,
    self=lambda grad, self, alpha: elu_backward(grad, self, alpha, 1.0, 1.0 / _f32_of(alpha)),
    raw={"self": lambda grad, self, alpha:
         _activation_math.elu_backward(grad, self, alpha, 1.0, 1.0 / _f32_of(alpha))})
def celu(self, alpha=1.0):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    return _elu_np(self, alpha, 1.0, 1.0 / alpha)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


@expose(method=False)
def selu(input: Tensor) -> Tensor:
    """Scaled ELU with torch's constants (node ``EluBackward0``)."""
    return elu(input, _SELU_ALPHA, _SELU_SCALE, 1.0)


_SQRT_2_PI = math.sqrt(2 / math.pi)


_GELU_BETA_D = math.sqrt(2) * (2 / math.sqrt(math.pi)) * 0.5     # M_SQRT2 * M_2_SQRTPI / 2
_GELU_PDF_D = (2 / math.sqrt(math.pi)) * math.sqrt(0.5) * 0.5    # M_2_SQRTPI * M_SQRT1_2 / 2


def _gelu_double_backward(ggI, gO, input, approximate):
    """ATen's ``gelu_double_backward``: gelu's second derivative times ``ggI * gO``."""
    if approximate == "tanh":
        kappa = 0.044715
        inner = _GELU_BETA_D * (input + kappa * input.pow(3))
        tanh_inner = inner.tanh()
        sech_inner = 1 / inner.cosh()
        f = 0.5 * input
        g = 1 - tanh_inner * tanh_inner
        h = _GELU_BETA_D * (1 + 3 * kappa * input * input)
        f_prime_gh = 0.5 * g * h
        g_prime = (2 * sech_inner) * (-sech_inner * tanh_inner) * h
        g_prime_fh = f * h * g_prime
        h_prime = 6 * kappa * input * _GELU_BETA_D
        h_prime_fg = f * g * h_prime
        return ggI * gO * (f_prime_gh + f_prime_gh + g_prime_fh + h_prime_fg)
    input_sq = input * input
    pdf = _GELU_PDF_D * (-0.5 * input_sq).exp()
    return ggI * gO * (2 * pdf - input_sq * pdf)


@op("GeluBackwardBackward0", name="gelu_backward", method=False, function=False,
    promote=NONE, tensors=("grad_output", "self"),
    grad_output=lambda grad, grad_output, self, approximate:
    gelu_backward(grad, self, approximate),
    self=lambda grad, grad_output, self, approximate:
    _gelu_double_backward(grad, grad_output, self, approximate))
def gelu_backward(grad_output, self, approximate="none"):
    """``gelu_backward``: gelu's gradient as its own node (torch's kernel)."""
    return _backward_kernel(_activation_math.gelu_backward, grad_output, self, approximate)


def _gelu_grad(grad, self, approximate):
    return gelu_backward(grad, self, approximate)


@op("GeluBackward0", name="gelu", method=False, function=False, self=_gelu_grad,
    raw={"self": _activation_math.gelu_backward})
def gelu(self, approximate="none"):
    """Gaussian error linear unit; ``approximate='tanh'`` uses the tanh formula."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    if approximate == "none" and self.dtype == np.float32:
        return _sleef.gelu(self, _libm.c_float("erff"))
    if approximate == "tanh" and self.dtype in (np.float32, np.float64):
        return _gelu_tanh(self)
    if self.dtype == np.float64:
        return _gelu_erf64(self)
    x = self.astype(np.float64)
    if approximate == "tanh":
        out = 0.5 * x * (1 + np.tanh(_SQRT_2_PI * (x + 0.044715 * x ** 3)))
    else:
        out = 0.5 * x * (1 + _unary._erf64(x / math.sqrt(2)))
    return out.astype(self.dtype)


_GELU_BETA = 1.41421356237309504880 * 1.12837916709551257390 * 0.5   # M_SQRT2*M_2_SQRTPI/2


def _gelu_tanh(x):
    """torch's ``0.5x(1 + tanh(beta (x + kappa x^3)))``, ``x + kappa x^3`` contracted to one
    fused multiply-add: Sleef's tanh in the vectors, glibc's one by one."""
    t = x.dtype.type
    beta, kappa, half, one = t(_GELU_BETA), t(0.044715), t(0.5), t(1)
    f32 = x.dtype == np.float32
    tanh_v = _sleef_ext.tanhf if f32 else _sleef_ext.tanhd
    tanh_s = _libm.float_fn("tanh") if f32 else _libm.double_fn("tanh")

    def form(tanh):
        def f(v):
            inner = beta * _exact.fma(np.full(v.shape, kappa), v * v * v, v)
            return half * v * (one + tanh(inner))
        return f

    with np.errstate(all="ignore"):
        return _sleef_ext.elementwise(x, form(tanh_v), form(tanh_s),
                                      _sleef.gelu_grain(x.size))


def _gelu_erf64(x):
    """torch's float64 ``x * 0.5 * (1 + erf(x / sqrt 2))``: Sleef's erf in the vectors,
    glibc's one by one."""
    k = 0.70710678118654752440
    erf_s = _libm.double_fn("erf")

    with np.errstate(all="ignore"):
        return _sleef_ext.elementwise(x, lambda v: v * 0.5 * (1 + _sleef_ext.erfd(v * k)),
                                      lambda v: v * 0.5 * (1 + erf_s(v * k)),
                                      _sleef.gelu_grain(x.size))


def _silu_grad(grad, self):
    # torch: GradMode::is_enabled() ? infinitely_differentiable_silu_backward : silu_backward
    out = _without_graph(silu_backward, grad, self)
    if out is not None:
        return out
    s = self.sigmoid()
    return grad * s * (1 + self * (1 - s))


@op(None, name="silu_backward", method=False, function=False, promote=NONE,
    tensors=("grad_output", "self"))
def silu_backward(grad_output, self):
    """``silu_backward``'s kernel (run without a graph: torch differentiates the composite)."""
    return _backward_kernel(_silu_grad_raw, grad_output, self)


def _silu_grad_raw(grad, self):
    """``silu_backward``'s kernel: ``dy * s * (1 + x * (1 - s))`` with the last multiply-add
    fused, ``s`` from Sleef's exp in the vectors and glibc's one by one."""
    x = self
    if x.dtype == np.float32:
        exp, exp1 = _sleef.expf, _sleef.expf_scalar
    elif x.dtype == np.float64:
        exp, exp1 = _sleef_d.expd, _sleef_d.exp_scalar
    else:
        return None
    if grad.shape != x.shape or not x.ndim:
        return None
    one = x.dtype.type(1)
    with np.errstate(all="ignore"):
        s = one / (one + exp(-x))
        mask = _sleef.binary_mask(grad, x)
        if mask.any():
            s[mask] = one / (one + exp1(-x[mask]))
        t = _exact.fma(x, one - s, np.full(x.shape, one))
        # the exact product's emulation overflows where |x| is near the largest float
        t = np.where(np.isnan(t) & ~np.isnan(x), x * (one - s) + one, t)
        return grad * s * t


@op("SiluBackward0", name="silu", method=False, function=False, self=_silu_grad,
    raw={"self": _silu_grad_raw})
def silu(self):
    """``x * sigmoid(x)``."""
    if self.dtype == xp.float32:
        return _sleef.silu(self)
    if self.dtype == xp.float64:
        return _sleef_d.silu(self)
    if self.dtype == xp.float16:        # torch's reduced-type loop: float32, rounded once
        return _sleef.silu(self.astype(xp.float32)).astype(xp.float16)
    with np.errstate(over="ignore"):
        return self / (1 + xp.exp(-self))


def _softplus_slope(self, beta, threshold):
    """``sigmoid(beta * x)``, differentiable where ``beta * x < threshold`` (torch's
    softplus_double_backward)."""
    bx = self * beta
    return _where(bx < threshold, bx, bx.detach()).sigmoid()


def _softplus_np(x, beta, threshold):
    out = _activation_math.softplus(x, beta, threshold)
    if out is not None:
        return out
    t = x.dtype.type
    with np.errstate(over="ignore"):
        bx = x * t(beta)
        return xp.where(bx > threshold, x, xp.log1p(xp.exp(bx)) / t(beta))


def _mish_grad(grad, self):
    # torch: GradMode::is_enabled() ? infinitely_differentiable_mish_backward : mish_backward
    out = _without_graph(mish_backward, grad, self)
    if out is not None:
        return out
    sigmoid = self.sigmoid()
    tanh_softplus = softplus(self).tanh()
    return grad * (tanh_softplus + self * sigmoid * (1 - tanh_softplus * tanh_softplus))


@op(None, name="mish_backward", method=False, function=False, promote=NONE,
    tensors=("grad_output", "self"))
def mish_backward(grad_output, self):
    """``mish_backward``'s kernel (run without a graph: torch differentiates the composite)."""
    return _backward_kernel(_activation_math.mish_backward, grad_output, self)


@op("MishBackward0", name="mish", method=False, function=False, self=_mish_grad,
    raw={"self": _activation_math.mish_backward})
def mish(self):
    """``x * tanh(softplus(x))``."""
    out = _activation_math.mish(self)
    if out is not None:
        return out
    return self * xp.tanh(_softplus_np(self, 1.0, 20.0))


def _softplus_double_backward(grad, input, beta, threshold):
    """ATen's ``softplus_double_backward``."""
    from .unary import sigmoid_backward
    x = mul_scalar(input, beta)
    return mul_scalar(sigmoid_backward(grad, x.sigmoid()) * (x < threshold).type_as(grad), beta)


@op("SoftplusBackwardBackward0", name="softplus_backward", method=False, function=False,
    promote=NONE, tensors=("grad_output", "self"),
    grad_output=lambda grad, grad_output, self, beta, threshold:
    softplus_backward(grad, self, beta, threshold),
    self=lambda grad, grad_output, self, beta, threshold:
    _softplus_double_backward(grad * grad_output, self, beta, threshold))
def softplus_backward(grad_output, self, beta=1.0, threshold=20.0):
    """``softplus_backward``: softplus's gradient as its own node (torch's kernel)."""
    return _backward_kernel(_activation_math.softplus_backward, grad_output, self, beta,
                            threshold)


@op("SoftplusBackward0", name="softplus", method=False, function=False,
    self=lambda grad, self, beta, threshold: softplus_backward(grad, self, beta, threshold),
    raw={"self": _activation_math.softplus_backward})
def softplus(self, beta=1.0, threshold=20.0):
    """``log(1 + exp(beta * x)) / beta``, linear above ``threshold``."""
    return _softplus_np(self, beta, threshold)


def _hardtanh_check(self, min_val=-1.0, max_val=1.0):
    """torch's hardtanh_out: no bool kernel; integer tensors take the limits as int64 (never
    negative for uint8), then clamp reads them as the element type."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if self.dtype == D.bool:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if not (self.dtype.is_floating_point or self.dtype.is_complex):
        min_val, max_val = int(min_val), int(max_val)
        if self.dtype == D.uint8 and (min_val < 0 or max_val < 0):
            raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    checked_numbers(self, min_val, max_val)


def _threshold_check(self, threshold, value):
    if self.dtype == D.bool:
        raise NotImplementedError("\"threshold_cpu\" not implemented for 'Bool'")
    for v in (threshold, value):
        D.checked_scalar(v, self._data.dtype)


@op("HardtanhBackward0", name="hardtanh", method=False, function=False,
    check=_hardtanh_check,
    self=lambda grad, self, min_val, max_val: _where((self > min_val) & (self < max_val), grad,
                                                     0.0))
def hardtanh(self, min_val=-1.0, max_val=1.0):
    """Clamp to ``[min_val, max_val]``."""
    if self.dtype.kind == "c":
        raise NotImplementedError("clamp is not supported for complex types")
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return xp.clip(self, min_val, max_val).astype(self.dtype)


# hardsigmoid_backward's ``scalar_t(1.0f / 6.0f)``: the float sixth, for doubles too
_FLOAT_SIXTH = float(np.float32(1.0) / np.float32(6.0))


@op("HardsigmoidBackward0", name="hardsigmoid", method=False, function=False,
    self=lambda grad, self: _where((self > -3) & (self < 3), grad * _FLOAT_SIXTH, 0.0))
def hardsigmoid(self):
    """``relu6(x + 3) / 6``."""
    return (xp.clip(self + 3, 0, 6) / 6).astype(self.dtype)


def _hardswish_grad_raw(grad_output, self):
    """``hardswish_backward``'s kernel: 0 up to -3, ``grad * (x / 3 + 0.5)`` below 3, then
    ``grad`` (float16 in float32, its opmath)."""
    dt = np.result_type(grad_output, self)
    if dt == np.float16:
        grad_output, self = grad_output.astype(np.float32), self.astype(np.float32)
    c = self.dtype.type if self.dtype.kind == "f" else float
    mid = grad_output * (self / c(3) + c(0.5))
    out = np.where(self <= c(-3), c(0), np.where(self < c(3), mid, grad_output))
    return out.astype(dt, copy=False)


@op("HardswishBackwardBackward0", name="hardswish_backward", method=False, function=False,
    promote=NONE, tensors=("grad_output", "self"),
    grad_output=lambda grad, grad_output, self: hardswish_backward(grad, self),
    self=lambda grad, grad_output, self: _where((self > -3.0) & (self < 3.0),
                                                grad * grad_output / 3.0, 0.0))
def hardswish_backward(grad_output, self):
    """``hardswish_backward(grad_output, self)``: hardswish's gradient as its own node, so
    that a second derivative sees torch's ``HardswishBackwardBackward0``."""
    with np.errstate(invalid="ignore", over="ignore"):
        return _hardswish_grad_raw(grad_output, self)


@op("HardswishBackward0", name="hardswish", method=False, function=False,
    self=lambda grad, self: hardswish_backward(grad, self),
    raw={"self": lambda grad, self: _hardswish_grad_raw(grad, self)})
def hardswish(self):
    """``x * relu6(x + 3) / 6``."""
    return (self * xp.clip(self + 3, 0, 6) / 6).astype(self.dtype)


def _log_sigmoid_double_backward(grad, self):
    """ATen's ``log_sigmoid_double_backward``: ``grad * (z - 1) * z``, ``z = sigmoid(x)``."""
    z = self.sigmoid()
    return grad * (z - 1) * z


@op("LogSigmoidBackwardBackward0", name="log_sigmoid_backward", method=False, function=False,
    promote=NONE, tensors=("grad_output", "self"),
    grad_output=lambda grad, grad_output, self: log_sigmoid_backward(grad, self),
    self=lambda grad, grad_output, self: _log_sigmoid_double_backward(grad * grad_output, self))
def log_sigmoid_backward(grad_output, self):
    """``log_sigmoid_backward(grad_output, self)``: log_sigmoid's gradient (Sleef's exp, as
    the forward kernel's buffer) as its own node, torch's ``LogSigmoidBackwardBackward0``."""
    if self.dtype == np.float16:
        # torch's half kernel reads the forward's buffer, exp(-|x|) stored as half
        x = self.astype(np.float32)
        with np.errstate(all="ignore"):
            z = _sleef.expf(-np.abs(x)).astype(np.float16).astype(np.float32)
            q = z / (np.float32(1) + z)
            return (np.where(x < 0, np.float32(1) - q, q)
                    * grad_output.astype(np.float32)).astype(np.float16)
    return _backward_kernel(_lm.log_sigmoid_backward, grad_output, self)


@op("LogSigmoidBackward0", name="log_sigmoid", method=False, function=False,
    pointwise=False,    # torch's log_sigmoid_forward returns a contiguous result
    self=lambda grad, self: log_sigmoid_backward(grad, self),
    raw={"self": lambda grad, self: _lm.log_sigmoid_backward(grad, self)})
def log_sigmoid(self):
    """``log(sigmoid(x))``, computed stably."""
    return _lm.log_sigmoid(self).astype(self.dtype, copy=False)


def _threshold_grad(grad, self, threshold):
    # (torch's threshold kernel compares a float16 input with the threshold as a float)
    return _where((self.float() if self.dtype is D.float16 else self) > threshold, grad, 0.0)


@op("ThresholdBackward0", name="threshold", method=False, check=_threshold_check,
    self=_threshold_grad)
def threshold(self, threshold, value):
    """``x`` where ``x > threshold``, else ``value``."""
    return xp.where(self > threshold, self, D.scalar_array(value, self.dtype))


def _prelu_shape(self_ndim, weight):
    n = weight.numel()
    if n == 1 or self_ndim < 2:
        return None
    return (1, n) + (1,) * (self_ndim - 2)


def _prelu_weight_grad(grad, self, weight):
    g = _where(self > 0, 0.0, grad * self)
    if weight.numel() == 1:
        return g.sum().reshape(weight.shape)
    dims = tuple(i for i in range(self.ndim) if i != 1)
    return g.sum(dims) if dims else g


def _prelu_self_grad(grad, self, weight):
    shp = _prelu_shape(self.ndim, weight)
    w = weight.reshape(shp) if shp else weight.reshape(()) if weight.numel() == 1 else weight
    return _where(self > 0, grad, grad * w)


@op("PreluKernelBackward0", name="prelu",
    self=_prelu_self_grad, weight=_prelu_weight_grad)
def prelu(self, weight):
    """``max(0, x) + weight * min(0, x)``, ``weight`` per channel (dim 1) or shared."""
    n = weight.size
    if n != 1 and (self.ndim < 2 and n != (self.shape[0] if self.ndim else 1)
                   or self.ndim >= 2 and self.shape[1] != n):
        raise RuntimeError("Mismatch of parameter numbers and input channel size. Found "
                           f"parameter numbers = {n} and channel size = "
                           f"{self.shape[1] if self.ndim >= 2 else 1}.")
    w = weight.reshape((1, n) + (1,) * (self.ndim - 2)) if n != 1 and self.ndim >= 2 \
        else weight.reshape(()) if n == 1 else weight
    return xp.where(self > 0, self, w * self).astype(self.dtype)


def _glu_grad(grad, self, dim):
    """``glu_backward_cpu_out``: ``sigmoid(b) * grad`` and ``(1 - s) * s * a * grad``."""
    n = self.shape[dim] // 2
    a = self.narrow(dim, 0, n)
    sb = self.narrow(dim, n, n).sigmoid()
    from .shape import cat
    return cat([sb * grad, (1 - sb) * sb * a * grad], dim)


@op("GluBackward0", name="glu", method=False, function=False, pointwise=False, self=_glu_grad)
def _glu(self, dim=-1):
    """``glu_kernel``: ``a * (1 / (1 + exp(-b)))``, Sleef's exp in the vectors and the C
    library's one by one (float32/float64)."""
    n = self.shape[dim]
    if n % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size {n}")
    a, b = xp.split(self, 2, axis=dim)
    one = self.dtype.type(1)
    with np.errstate(over="ignore"):
        if self.dtype == np.float32:
            exp, exp1 = _sleef.expf, _sleef.expf_scalar
        elif self.dtype == np.float64:
            exp, exp1 = _sleef_d.expd, _sleef_d.exp_scalar
        else:
            return a / (1 + xp.exp(-b))
        out = a * (one / (one + exp(-b)))
        mask = _sleef.binary_mask(a, b) if a.ndim else np.ones(a.shape, bool)
        if mask.any():
            out[mask] = a[mask] * (one / (one + exp1(-b[mask])))
        return out


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """``a * sigmoid(b)`` for the halves ``a, b`` of ``input`` along ``dim``."""
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return _glu(input, norm_dim(dim, input.ndim))


# ============================================================================ convolution

def _windows(x, out, kernel, stride, dilation):
    """A strided view (N, C, *out, *kernel) of the padded input ``x`` (N, C, *S)."""
    st = x.strides
    nd = len(kernel)
    shape = x.shape[:2] + tuple(out) + tuple(kernel)
    strides = st[:2] + tuple(st[2 + i] * stride[i] for i in range(nd)) \
        + tuple(st[2 + i] * dilation[i] for i in range(nd))
    return _as_strided(x, shape, strides, writeable=False)


def _pad_np(x, padding, value=0):
    """``x`` (N, C, *S) padded by ``padding`` (per spatial dim: ``p`` or ``(left, right)``).

    One allocation and one slice copy (``np.pad`` is several times slower for small inputs).
    """
    pairs = [(p, p) if np.ndim(p) == 0 else tuple(p) for p in padding]
    if not any(a or b for a, b in pairs):
        return x
    sp = x.shape[2:]
    shape = x.shape[:2] + tuple(s + a + b for s, (a, b) in zip(sp, pairs))
    out = xp.zeros(shape, x.dtype) if value == 0 else xp.full(shape, value, x.dtype)
    out[(slice(None),) * 2 + tuple(slice(a, a + s) for s, (a, _) in zip(sp, pairs))] = x
    return out


def _padded(sizes, padding):
    """Spatial sizes after symmetric ``padding``."""
    return tuple(s + 2 * p for s, p in zip(sizes, padding))


def _conv_out(sizes, kernel, stride, padding, dilation):
    return tuple((s + 2 * p - d * (k - 1) - 1) // st + 1
                 for s, k, st, p, d in zip(sizes, kernel, stride, padding, dilation))


def _cols(x, kernel, out, stride, padding, dilation, groups):
    """im2col: the columns (N, g, Cg * K, P) of ``x`` (N, C, *S), one copy of a strided view.

    Laid out per sample so that each sample's product is a small contiguous BLAS call (the
    spatial positions P innermost: the copy moves whole rows of the input).
    """
    xpad = _pad_np(x, padding)
    n, c = xpad.shape[:2]
    nd = len(kernel)
    st = xpad.strides
    shape = (n, c) + tuple(kernel) + tuple(out)
    strides = st[:2] + tuple(st[2 + i] * dilation[i] for i in range(nd)) \
        + tuple(st[2 + i] * stride[i] for i in range(nd))
    win = _as_strided(xpad, shape, strides, writeable=False)
    return win.reshape(n, groups, (c // groups) * math.prod(kernel), math.prod(out))


# ----- the "wide" layout (stride 1): positions on the padded grid's rows
# With stride 1, kernel offset ``k`` of output position ``q`` reads the padded input's flat
# element ``q + off[k]`` when ``q`` runs over the output rows laid on the padded grid (its
# trailing dims at their padded sizes, L = out[0] * prod(padded[1:]) positions, the extra
# ones garbage). Each column of the im2col is then one contiguous run of the flat input (a
# memcpy, several times faster than gathering short rows) and col2im adds whole runs; the
# price is the garbage positions (cropped from outputs, zeros in gradients).

def _wide_ok(padded, out, stride):
    p = math.prod(out)
    return (len(out) > 1 and p > 0 and all(s == 1 for s in stride)
            and out[0] * math.prod(padded[1:]) <= 1.25 * p)


def _wide_cols_ok(c, kp, o, padded, out, stride):
    """Whether the forward and weight-gradient products take the wide im2col: enough rows
    (C * K against O) for the faster copy to pay for the garbage positions."""
    return c * kp >= 2 * o and _wide_ok(padded, out, stride)


def _wide_geometry(padded, out, kernel, dilation):
    """(row strides of the padded grid, L, each kernel offset's flat shift, buffer size)."""
    nd = len(padded)
    rows = tuple(math.prod(padded[i + 1:]) for i in range(nd))
    length = out[0] * rows[0]
    offs = [sum(i * d * r for i, d, r in zip(idx, dilation, rows)) for idx in np.ndindex(*kernel)]
    return rows, length, offs, max(math.prod(padded), offs[-1] + length)


def _interior(padding, sizes):
    return (slice(None),) * 2 + tuple(slice(p, p + s) for p, s in zip(padding, sizes))


def _cols_wide(x, kernel, padded, padding, dilation, groups, out):
    """The wide im2col (N, g, Cg * K, L) of ``x`` (stride 1) on its ``padded`` grid."""
    n, c = x.shape[:2]
    rows, length, _, size = _wide_geometry(padded, out, kernel, dilation)
    buf = xp.zeros((n, c, size), x.dtype)
    buf[:, :, :math.prod(padded)].reshape((n, c) + padded)[_interior(padding, x.shape[2:])] = x
    st = buf.strides
    win = _as_strided(buf, (n, c) + tuple(kernel) + (length,),
                      st[:2] + tuple(st[2] * d * r for d, r in zip(dilation, rows)) + st[2:],
                      writeable=False)
    return win.reshape(n, groups, (c // groups) * math.prod(kernel), length)


def _widen(go, padded):
    """``go`` (N, O, *out) laid on the wide grid (N, O, L), zeros at the garbage positions."""
    n, o = go.shape[:2]
    out = go.shape[2:]
    wide = xp.zeros((n, o, out[0]) + tuple(padded[1:]), go.dtype)
    wide[(slice(None),) * 3 + tuple(slice(0, m) for m in out[1:])] = go
    return wide.reshape(n, o, out[0] * math.prod(padded[1:]))


def _slow_conv(shape, dtype, wshape, stride, dilation, groups):
    """Whether torch computes this convolution on ATen's slow path (im2col, then one MKL gemm
    per sample; with groups, each group's in turn, ``subtensor`` by ``subtensor``): 1-d/2-d,
    no dilation, and float64, or float32 where ``ConvParams::use_mkldnn`` declines (one
    group, one small sample and a kernel of at most 3x3; or an unstrided 1x1 kernel on fewer
    than 16 samples and one thread)."""
    nd = len(shape) - 2
    if nd not in (1, 2) or any(d != 1 for d in dilation) \
            or not _gemm.available(dtype):
        return False
    if dtype == np.float64:
        return True
    return dtype == np.float32 and not _onednn_conv.use_mkldnn(
        shape, wshape, stride, dilation, groups, _exact.get_num_threads())


def _finput(x, kernel, out, stride, padding):
    """ATen's ``unfolded2d_copy``: the im2col ``finput`` (N, K, P) of the slow path, in a
    64-byte aligned buffer as torch allocates it."""
    cols = _cols(x, kernel, out, stride, padding, (1,) * len(kernel), 1)[:, 0]
    finput = _gemm.aligned_empty(cols.shape, x.dtype)
    finput[...] = cols
    return finput


def _group_parts(a, groups, axis):
    """ATen's ``subtensor``: each group's contiguous slice of ``a`` along ``axis``."""
    return [np.ascontiguousarray(p) for p in np.split(a, groups, axis)]


def _conv_slow(x, w, bias, stride, padding):
    """ATen's ``slow_conv2d_forward``: per sample, the im2col ``finput`` (K × P) and one
    column-major gemm ``out (P × O) = finput (P × K) · weight (K × O)`` (+ the bias the
    result was filled with, ``beta = 1``), into a 64-byte aligned result as torch allocates
    it (the samples in parallel: MKL on one thread)."""
    n, c = x.shape[:2]
    o = w.shape[0]
    kernel = tuple(w.shape[2:])
    out = _conv_out(x.shape[2:], kernel, stride, padding, (1,) * len(kernel))
    p, k = math.prod(out), c * math.prod(kernel)
    cols = _finput(x, kernel, out, stride, padding)
    wm = np.ascontiguousarray(w.reshape(o, k))
    res = _gemm.aligned_empty((n, o, p), x.dtype)
    if bias is not None:
        res[...] = bias.reshape(1, o, 1)
    with (_gemm.one_thread() if n > 1 else contextlib.nullcontext()):
        for b in range(n):
            _gemm.gemm(False, False, p, o, k, 1.0, cols[b], p, wm, k,
                       0.0 if bias is None else 1.0, res[b], p)
    return res.reshape((n, o) + out)


def _conv_fwd(x, w, stride, padding, dilation, groups):
    n, c = x.shape[:2]
    o = w.shape[0]
    kernel = tuple(w.shape[2:])
    out = _conv_out(x.shape[2:], kernel, stride, padding, dilation)
    padded = _padded(x.shape[2:], padding)
    kp = math.prod(kernel)
    wm = w.reshape(groups, o // groups, (c // groups) * kp)              # (g, Og, CgK)
    if _wide_cols_ok(c, kp, o, padded, out, stride):
        cols = _cols_wide(x, kernel, padded, padding, dilation, groups, out)
        res = xp.matmul(wm, cols).reshape((n, o, out[0]) + padded[1:])
        return xp.ascontiguousarray(res[(slice(None),) * 3 + tuple(slice(0, m) for m in out[1:])])
    cols = _cols(x, kernel, out, stride, padding, dilation, groups)      # (N, g, CgK, P)
    return xp.matmul(wm, cols).reshape((n, o) + out)                      # (N, g, Og, P)


def _conv_input_grad_np(go, w, sizes, stride, padding, dilation, groups):
    """col2im of ``w^T @ go``: the gradient of a convolution's input (N, C, *sizes[2:])."""
    n, o = go.shape[:2]
    out = tuple(go.shape[2:])
    kernel = tuple(w.shape[2:])
    c = sizes[1]
    g = groups
    cg, og = c // g, o // g
    kp = math.prod(kernel)
    if all(s == 1 for s in stride) and o <= 3 * c:
        # stride 1: the full convolution of ``go`` with the flipped, transposed kernel (an
        # im2col copy of ``go`` and one product per sample, no col2im adds)
        full = tuple(d * (k - 1) - p for d, k, p in zip(dilation, kernel, padding))
        if min(full) >= 0 and all(m + 2 * f - d * (k - 1) == s for m, f, d, k, s in zip(
                out, full, dilation, kernel, sizes[2:])):
            wf = w.reshape((g, og, cg) + kernel).swapaxes(1, 2).reshape((c, og) + kernel)
            wf = xp.ascontiguousarray(wf[(slice(None),) * 2 + (slice(None, None, -1),) * len(out)])
            return _conv_fwd(go, wf, stride, full, dilation, groups)
    wt = w.reshape(g, og, cg * kp).transpose(0, 2, 1)                    # (g, CgK, Og)
    padded = _padded(sizes[2:], padding)
    if kp > 1 and _wide_ok(padded, out, stride):
        _, length, offs, size = _wide_geometry(padded, out, kernel, dilation)
        cols = xp.matmul(wt, _widen(go, padded).reshape(n, g, og, length))
        cols = cols.reshape(n, c, kp, length)
        buf = xp.zeros((n, c, size), cols.dtype)
        for k, off in enumerate(offs):
            dst = buf[:, :, off:off + length]
            xp.add(dst, cols[:, :, k], out=dst)
        gx = buf[:, :, :math.prod(padded)].reshape((n, c) + padded)
        return xp.ascontiguousarray(gx[_interior(padding, sizes[2:])])
    cols = xp.matmul(wt, go.reshape(n, g, og, math.prod(out)))           # (N, g, CgK, P)
    cols = cols.reshape((n, c) + kernel + out)
    gx = xp.zeros((n, c) + tuple(sizes[2:]), cols.dtype)
    # one slice-add per kernel offset, clipped to the input (no padded buffer, no crop)
    for idx in np.ndindex(*kernel):
        src, dst = [], []
        for i, d, s, m, size, pd in zip(idx, dilation, stride, out, sizes[2:], padding):
            off = i * d - pd                     # output position q reads input q * s + off
            lo = max(0, -(off // s))
            hi = min(m, (size - 1 - off) // s + 1)
            if hi <= lo:
                break
            src.append(slice(lo, hi))
            dst.append(slice(lo * s + off, (hi - 1) * s + off + 1, s))
        else:
            view = gx[(slice(None),) * 2 + tuple(dst)]
            xp.add(view, cols[(slice(None),) * 2 + idx + tuple(src)], out=view)
    return gx


def _conv_weight_grad_np(go, x, wsizes, stride, padding, dilation, groups):
    """``go @ im2col(x)^T`` summed over the batch: the gradient of a convolution's weight."""
    n, c = x.shape[:2]
    o = go.shape[1]
    out = tuple(go.shape[2:])
    kernel = tuple(wsizes[2:])
    padded = _padded(x.shape[2:], padding)
    if _wide_cols_ok(c, math.prod(kernel), o, padded, out, stride):
        cols = _cols_wide(x, kernel, padded, padding, dilation, groups, out)
        gm = _widen(go, padded)
    else:
        cols = _cols(x, kernel, out, stride, padding, dilation, groups)  # (N, g, CgK, P)
        gm = go
    gm = gm.reshape(n, groups, o // groups, cols.shape[3])               # (N, g, Og, P)
    gw = xp.matmul(gm, cols.transpose(0, 1, 3, 2))                        # (N, g, Og, CgK)
    return gw.sum(0).reshape(tuple(wsizes))


@op("ConvolutionBackwardBackward0", name="_conv_input_grad", method=False, function=False,
    promote=NONE, tensors=("grad_output", "weight"),
    grad_output=lambda grad, weight, stride, padding, dilation, groups:
    convolution(grad, weight, None, stride, padding, dilation, False, (0,) * len(stride), groups),
    weight=lambda grad, grad_output, weight_shape, stride, padding, dilation, groups:
    _conv_weight_grad(grad_output, grad, weight_shape, stride, padding, dilation, groups))
def _conv_input_grad(grad_output, weight, sizes, stride, padding, dilation, groups):
    return _input_grad_kernel(grad_output, weight, sizes, stride, padding, dilation, groups)


@op("ConvolutionBackwardBackward0", name="_conv_weight_grad", method=False, function=False,
    promote=NONE, tensors=("grad_output", "input"),
    grad_output=lambda grad, input, stride, padding, dilation, groups:
    convolution(input, grad, None, stride, padding, dilation, False, (0,) * len(stride), groups),
    input=lambda grad, grad_output, input_shape, stride, padding, dilation, groups:
    _conv_input_grad(grad_output, grad, input_shape, stride, padding, dilation, groups))
def _conv_weight_grad(grad_output, input, wsizes, stride, padding, dilation, groups):
    return _weight_grad_kernel(grad_output, input, wsizes, stride, padding, dilation, groups)


def _onednn_half(*arrays) -> bool:
    """Whether torch runs a convolution of these float16 arrays on oneDNN (where the CPU
    computes float16: :func:`ember._cpu.has_fp16_onednn`), whose float16 kernels accumulate in
    float32 and round each result once; elsewhere, or with ``backends.mkldnn.enabled`` off,
    ATen's slow path computes in the type."""
    return all(a is None or a.dtype == np.float16 for a in arrays) \
        and arrays[0].dtype == np.float16 and _cpu.has_fp16_onednn() and _onednn_conv.enabled()


def _in_float32(kernel, *args):
    """``kernel`` on float32 copies of its float16 arrays, its result rounded to float16."""
    return kernel(*(a.astype(np.float32) if isinstance(a, np.ndarray) and a.dtype == np.float16
                    else a for a in args)).astype(np.float16)


def _input_grad_kernel(grad, weight, input_shape, stride, padding, dilation, groups):
    """A convolution's input gradient as torch's kernel for it computes it: ATen's slow
    path where the forward took that path (see :func:`_slow_conv`), oneDNN's direct
    backward-data kernel where torch runs that, else the general product."""
    if _onednn_half(grad, weight):
        return _in_float32(_input_grad_kernel, grad, weight, input_shape, stride, padding,
                           dilation, groups)
    if _slow_conv(input_shape, grad.dtype, weight.shape, stride, dilation, groups):
        if groups == 1:
            return _slow_grad_input(grad, input_shape, weight, stride, padding)
        sizes = (input_shape[0], input_shape[1] // groups) + tuple(input_shape[2:])
        return np.concatenate([_slow_grad_input(g, sizes, w, stride, padding) for g, w in zip(
            _group_parts(grad, groups, 1), _group_parts(weight, groups, 0))], axis=1)
    threads = _exact.get_num_threads()
    out = None
    if _onednn_conv.direct_backward_data(grad, input_shape, weight, stride, padding, dilation,
                                         groups, threads):
        out = _onednn_conv.backward_data(grad, weight, input_shape, padding, dilation, groups)
    elif _onednn_conv.direct_backward_data_1x1(grad, input_shape, weight, stride, padding,
                                               dilation, groups, threads):
        out = _onednn_conv.backward_data_1x1(grad, weight)
    elif _onednn_conv.direct_backward_data_strided(grad, input_shape, weight, stride, padding,
                                                   dilation, groups, threads):
        out = _onednn_conv.backward_data_strided(grad, weight, input_shape, stride, padding)
    elif _onednn_conv.direct_backward_data_depthwise(grad, input_shape, weight, stride,
                                                     padding, dilation, groups, threads):
        out = _onednn_conv.backward_data_depthwise(grad, weight, input_shape, stride, padding)
    if out is not None:
        return out
    return _conv_input_grad_np(grad, weight, input_shape, stride, padding, dilation, groups)


def _weight_grad_kernel(grad, input, weight_shape, stride, padding, dilation, groups):
    """A convolution's weight gradient, as :func:`_input_grad_kernel` (oneDNN's
    backward-weights kernel)."""
    if _onednn_half(grad, input):
        return _in_float32(_weight_grad_kernel, grad, input, weight_shape, stride, padding,
                           dilation, groups)
    if _slow_conv(input.shape, grad.dtype, weight_shape, stride, dilation, groups):
        if groups == 1:
            return _slow_grad_weight(grad, input, weight_shape, stride, padding)
        shape = (weight_shape[0] // groups,) + tuple(weight_shape[1:])
        return np.concatenate([_slow_grad_weight(g, x, shape, stride, padding) for g, x in zip(
            _group_parts(grad, groups, 1), _group_parts(input, groups, 1))])
    threads = _exact.get_num_threads()
    if grad.dtype == np.float32 and _onednn_conv.direct_backward_weights(
            input, weight_shape, stride, padding, dilation, groups, threads):
        out = _onednn_conv.backward_weights(input, grad, weight_shape, stride, padding,
                                            dilation, threads)
        if out is not None:
            return out
    elif grad.dtype == np.float32 and _onednn_conv.direct_backward_weights_1x1(
            input, weight_shape, stride, padding, dilation, groups, threads):
        out = _onednn_conv.backward_weights_1x1(input, grad, weight_shape, stride, threads)
        if out is not None:
            return out
    elif grad.dtype == np.float32 and _onednn_conv.direct_depthwise_weights(
            input, weight_shape, stride, padding, dilation, groups, threads):
        out = _onednn_conv.backward_weights_depthwise(input, grad, weight_shape, stride,
                                                      padding, threads)
        if out is not None:
            return out
    elif grad.dtype == np.float32 and (
            _onednn_conv.gemm_depthwise_weights(input, weight_shape, stride, padding,
                                                dilation, groups, threads)
            or _onednn_conv.gemm_grouped_weights(input, weight_shape, stride, padding,
                                                 dilation, groups, threads)):
        out = _onednn_conv.weights_gemm(input, grad, weight_shape, stride, padding, dilation,
                                        groups)
        if out is not None:
            return out
    return _conv_weight_grad_np(grad, input, weight_shape, stride, padding, dilation, groups)


def _bias_grad_kernel(grad, input_shape, weight_shape, stride, padding, dilation, groups):
    """A convolution's bias gradient: oneDNN's, beside the weight's, where its
    backward-weights kernel runs; else the gradient summed over all but the channels
    (torch's sum; on ATen's slow path with groups, group by group)."""
    threads = _exact.get_num_threads()
    if _onednn_conv.direct_backward_bias(grad, input_shape, weight_shape, stride, padding,
                                         dilation, groups, threads):
        return _onednn_conv.backward_bias(grad, input_shape, weight_shape, stride, padding,
                                          dilation, threads)
    if _onednn_conv.direct_depthwise_bias(grad, input_shape, weight_shape, stride, padding,
                                          dilation, groups, threads):
        return _onednn_conv.backward_bias_depthwise(grad, input_shape, weight_shape, stride,
                                                    padding, threads)
    if _onednn_conv.gemm_depthwise_bias(grad, input_shape, weight_shape, stride, padding,
                                        dilation, groups, threads) \
            or _onednn_conv.gemm_grouped_bias(grad, input_shape, weight_shape, stride,
                                              padding, dilation, groups, threads):
        return _onednn_conv.bias_gemm(grad)
    dims = (0,) + tuple(range(2, grad.ndim))
    if groups > 1 and _slow_conv(input_shape, grad.dtype, weight_shape, stride, dilation,
                                 groups):
        # ATen's slow path sums each group's contiguous slice
        return np.concatenate([Tensor._wrap(g).sum(dims)._data
                               for g in _group_parts(grad, groups, 1)])
    return Tensor._wrap(grad).sum(dims)._data


def _conv_bias_grad(grad, input_shape, weight_shape, stride, padding, dilation, transposed,
                    groups):
    """The bias's formula: its kernel's (:func:`_raw_bias`) unless a graph is being built
    (then the sum's own gradient)."""
    if grad.requires_grad:
        return grad.sum((0,) + tuple(range(2, grad.ndim)))
    return Tensor._wrap(_raw_bias(grad._data, input_shape, weight_shape, stride, padding,
                                  dilation, transposed, groups))


def _transposed_size(input_shape, weight_shape, stride, padding, dilation, output_padding,
                     groups):
    sp = tuple((s - 1) * st - 2 * p + d * (k - 1) + op_ + 1
               for s, st, p, d, k, op_ in zip(input_shape[2:], stride, padding, dilation,
                                              weight_shape[2:], output_padding))
    return (input_shape[0], weight_shape[1] * groups) + sp


def _conv_grad_input(grad, input_shape, weight, stride, padding, dilation, transposed,
                     output_padding, groups):
    if transposed:
        gx = convolution(grad, weight, None, stride, padding, dilation, False,
                         (0,) * len(stride), groups)
        if tuple(gx.shape[2:]) != tuple(input_shape[2:]):
            # output padding that the stride's floor does not absorb (stride 1, dilation > 1)
            gx = gx[(slice(None),) * 2 + tuple(slice(0, s) for s in input_shape[2:])]
        return gx
    return _conv_input_grad(grad, weight, input_shape, stride, padding, dilation, groups)


def _conv_grad_weight(grad, input, weight_shape, stride, padding, dilation, transposed,
                      groups):
    if transposed:
        return _conv_weight_grad(input, grad, weight_shape, stride, padding, dilation, groups)
    return _conv_weight_grad(grad, input, weight_shape, stride, padding, dilation, groups)


def _conv_dtypes(input, weight, bias, *args):
    """The CPU kernels' refusal of a weight whose dtype is not the input's (no promotion)."""
    a, w = input.dtype, weight.dtype
    if a is w:
        return
    if a.name == "bfloat16" or a.is_complex:
        extra = (" or input should be a MKLDNN tensor and weight is a dense tensor"
                 if a.name == "bfloat16" else "")
        raise RuntimeError(f"Input type (CPU{a.scalar_name}Type) and weight type "
                           f"({weight.type()}) should be the same{extra}")
    raise RuntimeError(f"expected scalar type {a.scalar_name} but found {w.scalar_name}")


def _raw_input(grad, input_shape, weight, stride, padding, dilation, transposed,
               output_padding, groups):
    """The input's raw formula (see :func:`_input_grad_kernel`); None when transposed."""
    if transposed:
        return None
    return _input_grad_kernel(grad, weight, input_shape, stride, padding, dilation, groups)


def _raw_weight(grad, input, weight_shape, stride, padding, dilation, transposed, groups):
    """The weight's raw formula (see :func:`_weight_grad_kernel`); None when transposed."""
    if transposed:
        return None
    return _weight_grad_kernel(grad, input, weight_shape, stride, padding, dilation, groups)


def _raw_bias(grad, input_shape, weight_shape, stride, padding, dilation, transposed, groups):
    """The bias's raw formula (see :func:`_bias_grad_kernel`)."""
    if transposed:
        out = _onednn_conv.transposed_bias_grad(grad, input_shape, weight_shape, stride,
                                                dilation, groups, _exact.get_num_threads())
        return Tensor._wrap(grad).sum((0,) + tuple(range(2, grad.ndim)))._data \
            if out is None else out
    return _bias_grad_kernel(grad, input_shape, weight_shape, stride, padding, dilation,
                             groups)


def _slow_grad_input(grad, input_shape, weight, stride, padding):
    """Per sample, ``fgrad_input (K × P) = weightᵀ · grad`` (one gemm), then ATen's
    ``unfolded2d_acc``: each kernel offset's columns added in turn into a zero gradient."""
    n, c = input_shape[:2]
    o = weight.shape[0]
    kernel = tuple(weight.shape[2:])
    out = tuple(grad.shape[2:])
    p, k = math.prod(out), c * math.prod(kernel)
    g = np.ascontiguousarray(grad).reshape(n, o, p)
    wm = np.ascontiguousarray(weight.reshape(o, k))
    fcols = _gemm.aligned_empty((n, k, p), grad.dtype)
    with (_gemm.one_thread() if n > 1 else contextlib.nullcontext()):
        for b in range(n):
            _gemm.gemm(False, True, p, k, o, 1.0, g[b], p, wm, k, 0.0, fcols[b], p)
    fcols = fcols.reshape((n, c) + kernel + out)
    padded = tuple(s + 2 * q for s, q in zip(input_shape[2:], padding))
    gi = np.zeros((n, c) + padded, grad.dtype)
    for offs in np.ndindex(*kernel):
        dst = (slice(None), slice(None)) + tuple(
            slice(d, d + st * (m - 1) + 1, st) for d, st, m in zip(offs, stride, out))
        gi[dst] += fcols[(slice(None), slice(None)) + offs]
    return np.ascontiguousarray(gi[(slice(None),) * 2 + tuple(
        slice(q, q + s) for q, s in zip(padding, input_shape[2:]))])


def _slow_grad_weight(grad, input, weight_shape, stride, padding):
    """``grad_weight (O × K) += grad · finputᵀ`` sample after sample (one gemm each, the
    im2col recomputed), from zeros."""
    n, c = input.shape[:2]
    o = weight_shape[0]
    kernel = tuple(weight_shape[2:])
    out = tuple(grad.shape[2:])
    p, k = math.prod(out), c * math.prod(kernel)
    cols = _finput(input, kernel, out, stride, padding)
    g = np.ascontiguousarray(grad).reshape(n, o, p)
    gw = _gemm.aligned_empty((o, k), input.dtype, zero=True)
    for b in range(n):
        _gemm.gemm(True, False, k, o, p, 1.0, cols[b], p, g[b], p, 1.0, gw, k)
    return gw.reshape(weight_shape)


@op("ConvolutionBackward0", name="convolution", method=False, promote=NONE, check=_conv_dtypes,
    input=lambda grad, input_shape, weight, stride, padding, dilation, transposed,
    output_padding, groups: _conv_grad_input(grad, input_shape, weight, stride, padding,
                                             dilation, transposed, output_padding, groups),
    weight=lambda grad, input, weight_shape, stride, padding, dilation, transposed, groups:
    _conv_grad_weight(grad, input, weight_shape, stride, padding, dilation, transposed, groups),
    bias=lambda grad, input_shape, weight_shape, stride, padding, dilation, transposed, groups:
    _conv_bias_grad(grad, input_shape, weight_shape, stride, padding, dilation, transposed,
                    groups),
    raw={"input": _raw_input, "weight": _raw_weight, "bias": _raw_bias})
def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
                groups):
    """aten's ``convolution``: N-d (transposed) convolution with groups and dilation."""
    if _onednn_half(input, weight, bias):
        return _in_float32(_convolution_kernel, input, weight, bias, stride, padding, dilation,
                           transposed, output_padding, groups)
    return _convolution_kernel(input, weight, bias, stride, padding, dilation, transposed,
                               output_padding, groups)


def _convolution_kernel(input, weight, bias, stride, padding, dilation, transposed,
                        output_padding, groups):
    """:func:`convolution` on arrays."""
    if transposed:
        sizes = _transposed_size(input.shape, weight.shape, stride, padding, dilation,
                                 output_padding, groups)
        out = None
        threads = _exact.get_num_threads()
        if _onednn_conv.direct_transposed(input, weight, sizes, stride, padding, dilation,
                                          output_padding, groups, threads):
            out = _onednn_conv.backward_data(input, weight, sizes, padding, dilation, groups)
        elif _onednn_conv.strided_transposed(input, weight, sizes, stride, padding, dilation,
                                             groups, threads):
            out = _onednn_conv.backward_data_strided(input, weight, sizes, stride, padding)
        if out is None:
            out = _conv_input_grad_np(input, weight, sizes, stride, padding, dilation, groups)
    elif (bias is None or bias.dtype == input.dtype) and _slow_conv(
            input.shape, input.dtype, weight.shape, stride, dilation, groups):
        if groups == 1:
            out = _conv_slow(input, weight, bias, stride, padding)
        else:
            biases = [None] * groups if bias is None else np.split(bias, groups)
            out = np.concatenate([_conv_slow(x, w, b, stride, padding) for x, w, b in zip(
                _group_parts(input, groups, 1), _group_parts(weight, groups, 0), biases)],
                axis=1)
        return _mf.follow(out, input, weight)
    elif (bias is None or bias.dtype == input.dtype) and _onednn_conv.direct_forward(
            input, weight, stride, padding, dilation, groups, _exact.get_num_threads()) and (
            out := _onednn_conv.forward(input, weight, bias, stride, padding, dilation, groups)
    ) is not None:
        return out
    elif (bias is None or bias.dtype == input.dtype) and _onednn_conv.direct_forward_1x1(
            input, weight, stride, padding, dilation, groups, _exact.get_num_threads()) and (
            out := _onednn_conv.forward_1x1(input, weight, bias, stride)) is not None:
        return out
    elif (bias is None or bias.dtype == input.dtype) and _onednn_conv.direct_depthwise(
            input, weight, stride, padding, dilation, groups, _exact.get_num_threads()):
        return _onednn_conv.forward_depthwise(input, weight, bias, stride, padding, dilation)
    else:
        out = _conv_fwd(input, weight, stride, padding, dilation, groups)
    if bias is not None:
        b = bias.reshape((1, -1) + (1,) * (out.ndim - 2))
        if b.dtype == out.dtype:
            out += b                     # ``out`` is the kernel's own fresh array
        else:
            out = out + b
    # channels-last in (input or weight) gives channels-last out, as torch's CPU backends
    return _mf.follow(out, input, weight)


# ============================================================================ pooling

def _pool_out(size, k, s, p, d, ceil_mode):
    num = size + 2 * p - d * (k - 1) - 1
    o = (-(-num // s) if ceil_mode else num // s) + 1
    if ceil_mode and (o - 1) * s >= size + p:
        o -= 1
    return o


def _pool_geometry(shape, kernel, stride, padding, dilation, ceil_mode, channels):
    """Output sizes and the (left, right) padding that makes every window fit; torch's error,
    its sizes led by the channels, when a window does not fit."""
    if 0 in stride:
        raise RuntimeError("stride should not be zero")
    out = [_pool_out(*a, ceil_mode) for a in zip(shape, kernel, stride, padding, dilation)]
    if min(out) <= 0:
        raise RuntimeError(f"Given input size: ({channels}x{'x'.join(map(str, shape))}). "
                           f"Calculated output size: ({channels}x{'x'.join(map(str, out))}). "
                           "Output size is too small")
    pads = []
    for size, k, s, p, d, o in zip(shape, kernel, stride, padding, dilation, out):
        need = (o - 1) * s + d * (k - 1) + 1
        pads.append((p, max(0, need - size - p)))
    return tuple(out), pads


def _max_pool_indices(x, kernel, stride, padding, dilation, ceil_mode):
    """Flat (over the spatial dims) indices of each window's maximum: (N, C, *out).

    One strided view of the input per kernel offset: the windows' maxima are a chain of
    ``maximum`` over the views, and each window's index is its first offset (in torch's scan
    order) whose element equals the maximum. Windows holding a NaN (torch: the last NaN wins),
    and padded windows whose maximum is the padding value, take the exact scan instead.
    """
    sp = x.shape[2:]
    out, pads, windows, offs, starts = _max_pool_plan(sp, x.shape[1], tuple(kernel),
                                                      tuple(stride), tuple(padding),
                                                      tuple(dilation), ceil_mode)
    floating = x.dtype.kind == "f" or x.dtype in D.REDUCED
    fill = -np.inf if floating else np.iinfo(x.dtype).min
    xpad = _pad_np(x, pads, fill) if pads is not None else x
    views = [xpad[w] for w in windows]
    if len(views) == 1:
        best = views[0]
    else:
        best = xp.maximum(views[0], views[1])
        for v in views[2:]:
            xp.maximum(best, v, out=best)
    if best.size and ((floating and np.isnan(best).any())
                      or (pads is not None and (best == fill).any())):
        return _max_pool_scan(xpad, x.dtype, out, kernel, stride, padding, dilation, sp)
    # the first offset equal to the maximum: k = how many leading offsets differ from it
    k = xp.zeros(best.shape, np.uint8 if len(views) < 256 else np.int32)
    if len(views) > 1:
        ahead = views[0] != best
        k += ahead
        for v in views[1:-1]:
            ahead &= v != best
            k += ahead
    flat = offs.take(k)
    flat += starts
    return flat


@functools.lru_cache(maxsize=64)
def _max_pool_plan(sp, channels, kernel, stride, padding, dilation, ceil_mode):
    """:func:`_max_pool_indices`' sizes for spatial sizes ``sp``: the output's, the padding
    that makes every window fit (None: none), each kernel offset's window (an index of the
    padded input) and flat offset, and each window's flat start (over the output's dims)."""
    nd = len(kernel)
    out, pads = _pool_geometry(sp, kernel, stride, padding, dilation, ceil_mode, channels)
    rows = [math.prod(sp[i + 1:]) for i in range(nd)]       # flat stride of each spatial dim
    windows, offs = [], []
    for off in np.ndindex(*kernel):
        windows.append((slice(None),) * 2 + tuple(
            slice(i * d, i * d + s * (o - 1) + 1, s)
            for i, d, s, o in zip(off, dilation, stride, out)))
        offs.append(sum(i * d * r for i, d, r in zip(off, dilation, rows)))
    starts = np.zeros(out, np.int64)
    for i in range(nd):
        start = np.arange(out[i], dtype=np.int64) * stride[i] - padding[i]
        starts += (start * rows[i]).reshape((-1,) + (1,) * (nd - 1 - i))
    offs = np.asarray(offs, np.int64)
    offs.flags.writeable = starts.flags.writeable = False
    padded = any(a or b for a, b in pads)
    return tuple(out), pads if padded else None, windows, offs, starts


def _max_pool_scan(xpad, dtype, out, kernel, stride, padding, dilation, sp):
    """torch's exact scan over the kernel offsets (vectorised over every window): from the
    lowest value at the window's first element inside the input, a later element wins when
    it is larger or NaN (``val > max || isnan(val)``); the padding never does."""
    nd = len(kernel)
    win = _windows(xpad, out, kernel, stride, dilation)
    offsets = list(np.ndindex(*kernel))
    floating = dtype.kind == "f" or dtype in D.REDUCED
    best = np.full(win.shape[:2 + nd], -np.inf if floating else np.iinfo(dtype).min, dtype)
    arg = np.zeros(best.shape, np.int32)
    for i in range(nd):
        # the first kernel index of each window inside the input along dim i
        first = np.maximum(0, -((np.arange(out[i]) * stride[i] - padding[i]) // dilation[i]))
        arg += (first * math.prod(kernel[i + 1:])).astype(np.int32).reshape(
            (-1,) + (1,) * (nd - 1 - i))
    for k, off in enumerate(offsets):
        cand = win[(Ellipsis,) + off]
        take = cand > best
        if floating:
            take |= np.isnan(cand)
        best = np.where(take, cand, best)
        arg = np.where(take, np.int32(k), arg)
    koff = np.unravel_index(arg, kernel)
    flat = np.zeros(arg.shape, np.int64)
    for i in range(nd):
        o = np.arange(out[i]).reshape((-1,) + (1,) * (nd - 1 - i))
        coord = o * stride[i] - padding[i] + koff[i] * dilation[i]
        flat = flat * sp[i] + coord
    return flat


@functools.lru_cache(maxsize=64)
def _plane_offsets(lead, p, extra):
    """The flat offset of each plane (each index of the ``lead`` dims), broadcastable over
    ``extra`` dims (read-only: shared by the calls of these sizes)."""
    lead = tuple(lead)
    offsets = (np.arange(math.prod(lead), dtype=np.int64) * p).reshape(lead + (1,) * extra)
    offsets.flags.writeable = False
    return offsets


def _gather_flat(x, indices, nd):
    """``x``'s elements at per-plane flat ``indices`` over its last ``nd`` (spatial) dims."""
    p = math.prod(x.shape[x.ndim - nd:])
    return x.reshape(-1).take(indices + _plane_offsets(tuple(x.shape[:x.ndim - nd]), p, nd))


def _scatter_flat(g, indices, sizes, nd, unique=False, store=False):
    """The adjoint of :func:`_gather_flat`: ``g`` added into zeros of ``sizes`` at ``indices``.

    ``unique``: no two windows share an element (non-overlapping pooling), so one vectorised
    assignment replaces the accumulation (of each value onto +0, which turns -0 into +0 as
    torch's ``+=`` does); ``store``: the values stored as they are (max_unpool's writes).
    """
    lead = tuple(sizes[:len(sizes) - nd])
    p = math.prod(sizes[len(sizes) - nd:])
    total = math.prod(lead) * p
    flat = (indices + _plane_offsets(lead, p, nd)).ravel()
    if unique:
        out = xp.zeros(total, g.dtype)
        out[flat] = g.ravel() if store else g.ravel() + g.dtype.type(0)
        return out.reshape(sizes)
    out = xp.zeros(total, g.dtype)
    np.add.at(out, flat, g.ravel())       # one by one in the windows' order, as torch adds
    return out.reshape(sizes)


def _make_gather(node, nd, unique=False, follow=True, pool_args=False):
    """The pool's gather op by flat indices: ``(values, indices)``, the indices passed through
    as its second result, which its node saves with the input as torch's does (``self``,
    ``result1``); its backward scatters. ``follow``: the output takes the input's memory
    format (torch's 3-d adaptive max pool writes a contiguous one). ``pool_args``: the op
    takes max pooling's arguments besides (``kernel_size, stride, padding, dilation,
    ceil_mode``, the stride as given), which its node keeps as torch's does."""
    tag = node + ("_unique" if unique else "")
    keep = _mf.follow if follow else (lambda out, x: out)

    def gather_kernel(self, indices):
        return keep(_gather_flat(self, indices, nd), self), indices

    def self_grad(grad, self, result1):
        return scatter(grad, result1, self._data.shape)

    spec = dict(method=False, function=False, promote=NONE, tensors=("self", "indices"),
                reduced_in_float=False, outputs=2, saved_results={"result1": 1})
    gather = op(node, name="_pool_gather_" + tag, **spec, self=self_grad)(gather_kernel)
    scatter = op(node.replace("Backward0", "BackwardBackward0"), name="_pool_scatter_" + tag,
                 method=False, function=False, promote=NONE, tensors=("grad_output", "indices"),
                 grad_output=lambda grad, indices: gather(grad, indices)[0])(
        lambda grad_output, indices, sizes: _scatter_flat(grad_output, indices, sizes, nd,
                                                          unique))
    if not pool_args:
        return gather
    return op(node, name="_pool_gather_args_" + tag, **spec,
              self=lambda grad, self, result1, kernel_size, stride, padding, dilation,
              ceil_mode: self_grad(grad, self, result1))(
        lambda self, indices, kernel_size, stride, padding, dilation, ceil_mode:
        gather_kernel(self, indices))


_MAX_POOL_2D = _make_gather("MaxPool2DWithIndicesBackward0", 2)
_MAX_POOL_3D = _make_gather("MaxPool3DWithIndicesBackward0", 3)
# max pooling's own, keeping its arguments: windows that may overlap (any stride, dilation)
# and windows that never do
_MAX_POOLS = {(nd, unique): _make_gather(f"MaxPool{nd}DWithIndicesBackward0", nd, unique,
                                         pool_args=True)
              for nd in (2, 3) for unique in (False, True)}
_max_pool_gather = {1: _MAX_POOL_2D, 2: _MAX_POOL_2D, 3: _MAX_POOL_3D}
_adaptive_max_gather = {1: _make_gather("AdaptiveMaxPool2DBackward0", 2),
                        2: _make_gather("AdaptiveMaxPool2DBackward0", 2),
                        3: _make_gather("AdaptiveMaxPool3DBackward0", 3, follow=False)}


def max_pool_nd(input: Tensor, kernel_size, stride, padding, dilation, ceil_mode: bool,
                nd: int, given_stride=None) -> tuple[Tensor, Tensor]:
    """Max pooling over the last ``nd`` dims of an (N, C, ...) or unbatched (C, ...) input:
    values, indices (``given_stride``: the stride as the caller gave it, ``()`` for the
    kernel size, which the node keeps; ``stride`` by default)."""
    for p, k, d in zip(padding, kernel_size, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError("pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation={d}")
    if input.is_quantized:
        from ..ao.quantization import _ops as quantized
        return quantized.max_pool(input, lambda t: max_pool_nd(
            t, kernel_size, stride, padding, dilation, ceil_mode, nd, given_stride))
    x = input._data
    unbatched = x.ndim == nd + 1
    idx = _max_pool_indices(x[None] if unbatched else x, kernel_size, stride, padding,
                            dilation, ceil_mode)
    if unbatched:
        idx = idx[0]
    idx = _mf.follow(idx, x)            # torch's indices take the input's memory format
    apart = all(s >= d * (k - 1) + 1 for s, k, d in zip(stride, kernel_size, dilation))
    gather = _MAX_POOLS[3 if nd == 3 else 2, apart]
    return tuple(gather(input, Tensor._wrap(idx), tuple(kernel_size),
                        tuple(stride if given_stride is None else given_stride),
                        tuple(padding), tuple(dilation), bool(ceil_mode)))


def _avg_plan(sizes, channels, kernel, stride, padding, ceil_mode, count_include_pad,
              divisor_override, dtype):
    """``cpu_avg_pool``'s windows (per axis: clipped start and end arrays) and the divisor of
    each output (the padded pool size, the clipped one, or ``divisor_override``) as
    ``dtype``; a window left empty by ``ceil_mode`` gets 1 (its sum, +0, stays +0)."""
    nd = len(kernel)
    out, _ = _pool_geometry(sizes, kernel, stride, padding, (1,) * nd, ceil_mode, channels)
    bounds, div = [], np.ones((1,) * nd, np.int64)
    for i in range(nd):
        s, e, pool = _W.pool_bounds(sizes[i], kernel[i], stride[i], padding[i], out[i])
        bounds.append((s, e))
        d = pool if count_include_pad else np.maximum(e - s, 0)
        div = div * d.reshape((1,) * i + (-1,) + (1,) * (nd - 1 - i))
    if divisor_override:
        div = np.full(div.shape, divisor_override, np.int64)
    return bounds, np.where(div == 0, 1, div).astype(dtype)


def _divide(s, d):
    """``s / d`` as torch's kernels divide in ``s``'s dtype: integers truncate."""
    if s.dtype.kind == "f" or D.is_reduced(s.dtype):
        return s / d
    q = np.abs(s) // d
    return np.where(s < 0, -q, q).astype(s.dtype)


def _avg_pool_np(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """Each window's elements added one by one from +0 (raster order), then divided; float16
    sums and divides in float, rounding once (as bfloat16, which arrives as float32)."""
    if x.dtype == np.float16:
        return _avg_pool_np(x.astype(np.float32), kernel, stride, padding, ceil_mode,
                            count_include_pad, divisor_override).astype(np.float16)
    nd = len(kernel)                # (an unbatched input: (C, *spatial))
    bounds, div = _avg_plan(x.shape[-nd:], x.shape[-nd - 1], kernel, stride, padding,
                            ceil_mode, count_include_pad, divisor_override, x.dtype)
    return _divide(_W.window_sum(x, bounds), div)


def _avg_pool_backward_np(go, sizes, kernel, stride, padding, ceil_mode, count_include_pad,
                          divisor_override):
    """``grad / divisor`` of each output added to its window's elements, outputs in order."""
    nd = len(kernel)
    sp = tuple(sizes[-nd:])
    bounds, div = _avg_plan(sp, sizes[-nd - 1], kernel, stride, padding, ceil_mode,
                            count_include_pad, divisor_override, go.dtype)
    return _W.window_scatter(go / div, bounds, sp)


def _make_avg(node):
    # (torch's node keeps the input and the arguments, the stride as given: () for the
    # kernel size)
    fwd = op(node, name="_avg_pool_" + node, method=False, function=False, promote=NONE,
             reduced_in_float=False,
             self=lambda grad, self, kernel_size, stride, padding, ceil_mode,
             count_include_pad, divisor_override:
             bwd(grad, self._data.shape, kernel_size, stride or kernel_size, padding,
                 ceil_mode, count_include_pad, divisor_override))(
        lambda self, kernel_size, stride, padding, ceil_mode, count_include_pad,
        divisor_override:
        _mf.follow(_avg_pool_np(self, kernel_size, stride or kernel_size, padding, ceil_mode,
                                count_include_pad, divisor_override), self))
    bwd = op(node.replace("Backward0", "BackwardBackward0"), name="_avg_pool_bwd_" + node,
             method=False, function=False, promote=NONE,
             grad_output=lambda grad, kernel, stride, padding, ceil_mode, count_include_pad,
             divisor_override: fwd(grad, kernel, stride, padding, ceil_mode,
                                   count_include_pad, divisor_override))(
        lambda grad_output, sizes, kernel, stride, padding, ceil_mode, count_include_pad,
        divisor_override: _avg_pool_backward_np(grad_output, sizes, kernel, stride, padding,
                                                ceil_mode, count_include_pad, divisor_override))
    return fwd


avg_pool_nd = {1: _make_avg("AvgPool2DBackward0"), 2: _make_avg("AvgPool2DBackward0"),
               3: _make_avg("AvgPool3DBackward0")}


def _adaptive_bounds(size, o):
    return _W.adaptive_bounds(size, o)


def _channels_last(a):
    """Whether torch's kernels take ``a`` as channels-last (``suggest_memory_format``)."""
    return _mf.suggest(a) is not _mf.contiguous_format


def _adaptive_divide(s, bounds, channels_last, dtype=None):
    """``cpu_adaptive_avg_pool``'s average of window sums ``s`` (N, C, *out) or (C, *out):
    ``sum / kh / kw`` (``/ kd`` first in 3-d); its 2-d channels-last kernel divides its
    vector channels (:func:`_cpu.vector_channels` of ``dtype``, the tensor's, by default
    ``s``'s) by the product ``kh * kw`` instead."""
    nd = len(bounds)
    t = s.dtype.type
    lens = [(e - b).reshape((-1,) + (1,) * (nd - 1 - i)) for i, (b, e) in enumerate(bounds)]
    r = s
    for n in lens:
        r = _divide(r, n.astype(t))
    vec = _cpu.vector_channels(s.shape[1], dtype or s.dtype) if channels_last and nd == 2 \
        else 0
    if vec:
        r[:, :vec] = _divide(s[:, :vec], math.prod(lens).astype(t))
    return r


def adaptive_avg_np(x, output_size):
    """``adaptive_avg_pool{2,3}d`` over the last ``len(output_size)`` dims of ``x``. Half
    precision: the 2-d kernels sum and divide in float, rounding once; the 3-d kernel runs in
    the type itself, each addition and division rounded."""
    nd = len(output_size)
    bounds = [_W.adaptive_bounds(n, o) for n, o in zip(x.shape[x.ndim - nd:], output_size)]
    dt = x.dtype
    if nd == 2 and D.is_half(dt):
        s = _W.window_sum(x.astype(np.float32), bounds)
        return _adaptive_divide(s, bounds, _channels_last(x), dt).astype(dt)
    return _adaptive_divide(_W.window_sum(x, bounds), bounds, _channels_last(x))


def adaptive_avg_backward_np(grad, sizes, nd):
    """Each output's ``grad / kh / kw`` added to its window, outputs in raster order, into
    zeros of ``sizes`` (the last ``nd`` spatial); half precision rounds every step."""
    sp = tuple(sizes[len(sizes) - nd:])
    bounds = [_W.adaptive_bounds(n, o) for n, o in zip(sp, grad.shape[grad.ndim - nd:])]
    d = _adaptive_divide(grad, bounds, _channels_last(grad))
    return _W.window_scatter(d, bounds, sp)


def _make_adaptive_avg(node, name, nd):
    # torch's 3-d kernel writes a contiguous output whatever the input's format
    keep = _mf.follow if nd == 2 else (lambda out, x: out)
    fwd = op(node, name=name, method=False, function=False, promote=NONE,
             reduced_in_float=False,
             self=lambda grad, self_shape, output_size: bwd(grad, self_shape))(
        lambda self, output_size: keep(adaptive_avg_np(self, output_size), self))
    bwd = op(node.replace("Backward0", "BackwardBackward0"), name=name + "_backward",
             method=False, function=False, promote=NONE,
             grad_output=lambda grad, grad_output_shape: fwd(
                 grad, tuple(grad_output_shape[len(grad_output_shape) - nd:])))(
        lambda grad_output, sizes: adaptive_avg_backward_np(grad_output, sizes, nd))
    return fwd


_adaptive_avg_pool2d = _make_adaptive_avg("AdaptiveAvgPool2DBackward0", "_adaptive_avg_pool2d",
                                          2)
adaptive_avg_pool3d = _make_adaptive_avg("AdaptiveAvgPool3DBackward0", "_adaptive_avg_pool3d",
                                         3)


def adaptive_max_indices(x, output_size):
    """Flat indices of the maxima of torch's adaptive windows over the last 2 dims."""
    h, w = x.shape[-2:]
    if 0 in output_size:
        return np.zeros(x.shape[:-2] + tuple(output_size), np.int64)
    idx = []
    for size, o in zip((h, w), output_size):
        s, e = _adaptive_bounds(size, o)
        kmax = int((e - s).max())
        ii = s[:, None] + np.arange(kmax)[None, :]
        idx.append(np.minimum(ii, (e - 1)[:, None]))
    ih, iw = idx
    win = x[..., ih[:, :, None, None], iw[None, None, :, :]]   # (..., OH, KH, OW, KW)
    nd = win.ndim
    win = np.moveaxis(win, nd - 3, nd - 2)                       # (..., OH, OW, KH, KW)
    kh, kw = ih.shape[1], iw.shape[1]
    arg = win.reshape(win.shape[:-2] + (kh * kw,)).argmax(-1)
    a, b = np.divmod(arg, kw)
    oh = np.arange(ih.shape[0])[:, None]
    ow = np.arange(iw.shape[0])[None, :]
    return ih[oh, a] * w + iw[ow, b]


# ============================================================================ normalisation

def _bn_dims(ndim):
    return (0,) + tuple(range(2, ndim))


def _bcast(t, ndim, dim=1):
    return t.reshape((1,) * dim + (-1,) + (1,) * (ndim - dim - 1))


def _normalized_grad(grad, x, w_b, dims, eps):
    mean = x.mean(dims, keepdim=True)
    xc = x - mean
    invstd = 1 / ((xc * xc).mean(dims, keepdim=True) + eps).sqrt()
    xhat = xc * invstd
    g = grad if w_b is None else grad * w_b
    return invstd * (g - g.mean(dims, keepdim=True) - xhat * (g * xhat).mean(dims, keepdim=True))


def _xhat(x, dims, eps):
    mean = x.mean(dims, keepdim=True)
    xc = x - mean
    return xc / ((xc * xc).mean(dims, keepdim=True) + eps).sqrt()


def _records_graph(*tensors) -> bool:
    """Whether this backward records a graph through any of ``tensors`` (``create_graph``):
    the kernels' arrays are not differentiable, so the formulas run instead."""
    from ..autograd.grad_mode import _state as state
    return state.enabled and any(t is not None and t.requires_grad for t in tensors)


def _bn_kernel_grads(grad, self, weight, mean, invstd):
    """torch's backward kernel (grad_input, grad_weight, grad_bias) as tensors, for a
    backward that records no graph; None where the formulas must stay differentiable or
    the dtypes are not emulated."""
    if _records_graph(grad, self, weight):
        return None
    w = None if weight is None else weight._data
    if _bn_reduced_backward(grad._data, self._data, w, mean, invstd):
        return tuple(Tensor._wrap(np.asarray(a)) for a in
                     _norms.batch_norm_backward_reduced(grad._data, self._data, w, mean,
                                                        invstd))
    if _bn_reduced_generic(grad._data, self._data, w, mean, invstd):
        return tuple(Tensor._wrap(np.asarray(a)) for a in
                     _norms.batch_norm_backward_reduced_generic(
                         grad._data, self._data, w, mean, invstd, True, mean.dtype))
    if self._data.dtype.name in ("float16", "bfloat16"):  # other layouts: the float kernel
        grad, self, weight = _half_float(grad, self, weight)
        w = None if weight is None else weight._data
        mean, invstd = (np.asarray(a, np.float32) for a in (mean, invstd))
    if not _bn_exact(self._data, w, mean, invstd) or grad._data.dtype != self._data.dtype:
        return None
    return tuple(Tensor._wrap(np.asarray(a)) for a in
                 _norms.batch_norm_backward(grad._data, self._data, w, mean, invstd))


def _bn_train_self(grad, self, weight, eps, mean, invstd):
    exact = _bn_kernel_grads(grad, self, weight, mean, invstd)
    if exact is not None:
        return exact[0]
    grad, self, weight = _ln_float(grad, self, weight)
    w_b = None if weight is None else _bcast(weight, self.ndim)
    return _normalized_grad(grad, self, w_b, _bn_dims(self.ndim), eps)


def _bn_train_weight(grad, self, eps, mean, invstd):
    exact = _bn_kernel_grads(grad, self, None, mean, invstd)
    if exact is not None:
        return exact[1]
    grad, self = _ln_float(grad, self)
    return (grad * _xhat(self, _bn_dims(self.ndim), eps)).sum(_bn_dims(self.ndim))


def _bn_train_bias(grad, self, mean, invstd):
    exact = _bn_kernel_grads(grad, self, None, mean, invstd)
    if exact is not None:
        return exact[2]
    return _ln_float(grad)[0].sum(_bn_dims(grad.ndim))


def _batch_norm_train(self, weight, bias, eps, mean, invstd):
    """The training-mode normalisation by the batch's ``mean`` and ``invstd``."""
    if _bn_exact(self, weight, bias, mean):
        return _mf.follow(_norms.batch_norm_apply(self, weight, bias, mean, invstd), self)
    if _bn_reduced(self, weight, bias, mean):
        return _mf.follow(_norms.batch_norm_apply_reduced(self, weight, bias, mean, invstd),
                          self)
    shp = (1, -1) + (1,) * (self.ndim - 2)
    out = (self - mean.astype(self.dtype).reshape(shp)) * invstd.astype(self.dtype).reshape(shp)
    if weight is not None:
        out = out * weight.reshape(shp)
    if bias is not None:
        out = out + bias.reshape(shp)
    return out.astype(self.dtype)


def _bn_exact(x, *arrays):
    """Whether torch's float kernels are emulated: float32/float64 throughout."""
    return x.dtype in _exact.exact_dtype and x.size > 0 and all(
        a is None or a.dtype == x.dtype for a in arrays)


def _bn_reduced(x, *arrays):
    """Whether torch's reduced-type kernels are emulated: a contiguous or channels-last
    float16/bfloat16 input with float32 parameters and statistics or ones of its dtype."""
    return x.dtype.name in ("float16", "bfloat16") and x.size > 0 and (
        x.flags.c_contiguous or _norms._rows(x) is not None) \
        and all(a is None or a.dtype in (np.float32, x.dtype) for a in arrays)


def _bn_reduced_backward(g, x, *arrays):
    """Whether torch's mixed-type contiguous backward kernel is emulated: C-contiguous
    float16/bfloat16 gradient and input of one dtype, float32 parameters and statistics."""
    return _bn_reduced(x, *arrays) and x.flags.c_contiguous and g.dtype == x.dtype \
        and g.flags.c_contiguous and x[0, 0].size > 1


def _bn_reduced_generic(g, x, *arrays):
    """Whether torch's accessor backward path is emulated: float16/bfloat16 gradient and
    input of one dtype in different layouts (float32 parameters or ones of that dtype)."""
    return x.dtype.name in ("float16", "bfloat16") and g.dtype == x.dtype and x.size > 0 \
        and all(a is None or a.dtype in (np.float32, x.dtype) for a in arrays) \
        and not _norms._same_format(x, g)


def _check_mixed_dtype(input, *params):
    """ATen's CPU normalisation dtype checks (``mixed_type.h`` and the kernels' own): a
    first given parameter of another dtype than ``input`` makes the call mixed-type, which
    wants every parameter float32 and the input float16/bfloat16; otherwise every parameter
    must be of the input's dtype."""
    given = [p for p in params if p is not None]
    if not given:
        return
    dt = input.dtype
    if given[0].dtype != dt:
        if any(p.dtype is not D.float32 for p in given):
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of "
                               "Float")
        if dt not in (D.float16, D.bfloat16):
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
        return
    for p in given:
        if p.dtype != dt:
            raise RuntimeError(f"expected scalar type {dt.scalar_name} but found "
                               f"{p.dtype.scalar_name}")


def _bn_eval_scale(running_var, eps, ndim):
    return _bcast(1 / (running_var + eps).sqrt(), ndim)


def _bn_eval_kernel(grad, self, weight, running_mean, running_var, eps, which):
    """The evaluation-mode backward kernel's gradient ``which`` (0 input, 1 weight, 2 bias)
    as a tensor: ``dy * invstd * w``, and the training kernel's reductions around the
    running mean; None where the formulas must stay differentiable."""
    if running_mean is None or running_var is None:
        return None
    rv = running_var._data
    if rv.dtype != np.float32 and rv.dtype == self._data.dtype and rv.dtype.name in (
            "float16", "bfloat16"):
        rv = rv.astype(np.float32)      # the reduced types' kernel keeps invstd in float
    invstd = _norms.eval_backward_invstd(rv, eps)
    if which == 0:
        w = None if weight is None else weight._data
        if not _records_graph(grad, weight) and _bn_reduced_backward(
                grad._data, self._data, w, invstd, running_mean._data):
            return Tensor._wrap(_norms.batch_norm_backward_reduced(
                grad._data, self._data, w, running_mean._data, invstd, False)[0])
        rm = running_mean._data
        if not _records_graph(grad, weight) and _bn_reduced_generic(
                grad._data, self._data, w, rm, running_var._data):
            return Tensor._wrap(_norms.batch_norm_backward_reduced_generic(
                grad._data, self._data, w, rm, invstd, False, rm.dtype)[0])
        if self._data.dtype.name in ("float16", "bfloat16"):
            grad, self, weight = _half_float(grad, self, weight)
            w = None if weight is None else weight._data
        if _records_graph(grad, weight) or not _bn_exact(self._data, w, invstd) \
                or grad._data.dtype != invstd.dtype:
            return None
        shp = (1, -1) + (1,) * (self.ndim - 2)
        g = grad._data * invstd.reshape(shp)
        return Tensor._wrap(g if w is None else g * w.reshape(shp))
    exact = _bn_kernel_grads(grad, self, weight, running_mean._data, invstd)
    return None if exact is None else exact[which]


def _bn_eval_self(grad, self, weight, running_mean, running_var, eps):
    exact = _bn_eval_kernel(grad, self, weight, running_mean, running_var, eps, 0)
    if exact is not None:
        return exact
    grad, self, weight = _ln_float(grad, self, weight)
    return grad * _bn_eval_scale(running_var, eps, self.ndim) * (
        1 if weight is None else _bcast(weight, self.ndim))


def _bn_eval_weight(grad, self, running_mean, running_var, eps):
    exact = _bn_eval_kernel(grad, self, None, running_mean, running_var, eps, 1)
    if exact is not None:
        return exact
    grad, self = _ln_float(grad, self)
    return (grad * (self - _bcast(running_mean, self.ndim))
            * _bn_eval_scale(running_var, eps, self.ndim)).sum(_bn_dims(self.ndim))


def _bn_eval_bias(grad, self, running_mean, running_var, eps):
    exact = _bn_eval_kernel(grad, self, None, running_mean, running_var, eps, 2)
    if exact is not None:
        return exact
    return _ln_float(grad)[0].sum(_bn_dims(grad.ndim))


def _batch_norm_eval(self, weight, bias, running_mean, running_var, eps):
    """The evaluation-mode normalisation by the running statistics."""
    if _bn_exact(self, weight, bias, running_mean, running_var):
        return _mf.follow(_norms.batch_norm_apply(self, weight, bias, running_mean,
                                                  _norms.eval_invstd(running_var, eps)), self)
    if _bn_reduced(self, weight, bias, running_mean, running_var):
        return _mf.follow(_norms.batch_norm_apply_reduced(
            self, weight, bias, running_mean,
            _norms.eval_invstd(running_var.astype(np.float32), eps)), self)
    shp = (1, -1) + (1,) * (self.ndim - 2)
    invstd = 1 / np.sqrt(running_var + self.dtype.type(eps))
    out = (self - running_mean.reshape(shp)) * invstd.reshape(shp)
    if weight is not None:
        out = out * weight.reshape(shp)
    if bias is not None:
        out = out + bias.reshape(shp)
    return out.astype(self.dtype)


# torch's NativeBatchNormBackward0 keeps the input, weight, running statistics, the batch
# statistics (result1: mean, result2: invstd; empty in evaluation mode), training and eps

def _bn_input(grad, input, weight, running_mean, running_var, result1, result2, training,
              eps):
    if training:
        return _bn_train_self(grad, input, weight, eps, result1._data, result2._data)
    return _bn_eval_self(grad, input, weight, running_mean, running_var, eps)


def _bn_weight(grad, input, weight, running_mean, running_var, result1, result2, training,
               eps):
    if training:
        return _bn_train_weight(grad, input, eps, result1._data, result2._data)
    return _bn_eval_weight(grad, input, running_mean, running_var, eps)


def _bn_bias(grad, input, running_mean, running_var, result1, result2, training, eps):
    if training:
        return _bn_train_bias(grad, input, result1._data, result2._data)
    return _bn_eval_bias(grad, input, running_mean, running_var, eps)


def _bn_grads(grad, input, weight, running_mean, running_var, result1, result2, training,
              eps, output_mask):
    """The gradients ``output_mask`` asks for: in training mode all three from one call of
    torch's backward kernel where it is emulated, else each by its formula."""
    if training:
        exact = _bn_kernel_grads(grad, input, weight, result1._data, result2._data)
        if exact is not None:
            return exact
    stats = (running_mean, running_var, result1, result2, training, eps)
    return (_bn_input(grad, input, weight, *stats) if output_mask[0] else None,
            _bn_weight(grad, input, weight, *stats) if output_mask[1] else None,
            _bn_bias(grad, input, *stats) if output_mask[2] else None)


@op("NativeBatchNormBackward0", name="_native_batch_norm", method=False, function=False,
    promote=NONE, tensors=("input", "weight", "bias", "running_mean", "running_var"),
    outputs=3, saved_results={"result1": 1, "result2": 2}, reduced_in_float=False,
    **joint(_bn_grads, "input", "weight", "bias"))
def _native_batch_norm(input, weight, bias, running_mean, running_var, training, eps, mean,
                       invstd):
    """torch's native_batch_norm once the statistics are known: the output, and the batch's
    ``mean`` and ``invstd`` in training mode (empty in evaluation mode)."""
    if training:
        return _batch_norm_train(input, weight, bias, eps, mean, invstd), mean, invstd
    out = _batch_norm_eval(input, weight, bias, running_mean, running_var, eps)
    empty = np.empty(0, running_mean.dtype)
    return out, empty, empty


def batch_norm(input: Tensor, running_mean, running_var, weight=None, bias=None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Batch normalisation over dim 1; updates the running stats in training mode."""
    if training and input._data.size // input.shape[1] == 1:
        raise ValueError("Expected more than 1 value per channel when training, got "
                         f"input size {input.shape}")
    return batch_norm_unchecked(input, running_mean, running_var, weight, bias, training,
                             momentum, eps)


def _check_batch_norm_args(input, running_mean, running_var, weight, bias, training):
    """ATen's ``_batch_norm_impl_index`` checks: each given vector has one element per
    channel, and the running stats exist in evaluation mode (an empty input skips them)."""
    if input.numel() == 0:
        return
    channels = input.shape[1]
    for name, t in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):
        if t is None:
            if not training and name.startswith("running"):
                raise RuntimeError(f"{name} must be defined in evaluation mode")
        elif t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")


def batch_norm_unchecked(input: Tensor, running_mean, running_var, weight, bias,
                      training: bool, momentum: float, eps: float) -> Tensor:
    """:func:`batch_norm` without ``nn.functional``'s batch-size check (ATen's kernel)."""
    if input.numel() == 0:
        # ATen's batch_norm skips its checks and the running stats for an empty input
        out = input.clone()
        if weight is not None:
            out = out * weight.select(0, 0)
        if bias is not None:
            out = out + bias.select(0, 0)
        return out
    _check_batch_norm_args(input, running_mean, running_var, weight, bias, training)
    _check_mixed_dtype(input, weight, bias, running_mean, running_var)
    x = input._data
    dims = _bn_dims(x.ndim)
    if training:
        size = x.size // x.shape[1]
        rm = None if running_mean is None else running_mean._data
        rv = None if running_var is None else running_var._data
        if _bn_exact(x, rm, rv) and all(t is None or t._data.dtype == x.dtype
                                        for t in (weight, bias)):
            # (the kernel updates the running statistics in place without a version bump,
            # as torch's does: a node that saved them still reads them)
            mean, invstd = _norms.batch_norm_stats(x, rm, rv, momentum, eps)
            return _native_batch_norm(input, weight, bias, running_mean, running_var, True,
                                      eps, mean, invstd)[0]
        params = [None if t is None else t._data for t in (weight, bias)]
        param = np.float32 if any(a is not None and a.dtype == np.float32
                                  for a in (rm, rv, *params)) else x.dtype
        if _bn_reduced(x, rm, rv, *params):
            mean, invstd = _norms.batch_norm_stats_reduced(x, rm, rv, momentum, eps, param)
            return _native_batch_norm(input, weight, bias, running_mean, running_var, True,
                                      eps, mean, invstd)[0]
        mean = x.mean(axis=dims, dtype=np.float64)
        var = x.var(axis=dims, dtype=np.float64)
        if running_mean is not None:
            m = momentum
            rm = running_mean._data
            rm[...] = (1 - m) * rm + m * mean.astype(rm.dtype)
        if running_var is not None:
            rv = running_var._data
            rv[...] = (1 - momentum) * rv + momentum * (var * size / (size - 1)).astype(rv.dtype)
        return _native_batch_norm(input, weight, bias, running_mean, running_var, True, eps,
                                  mean, 1 / np.sqrt(var + eps))[0]
    return _native_batch_norm(input, weight, bias, running_mean, running_var, False, eps,
                              None, None)[0]


def _ln_dims(ndim, k):
    return tuple(range(ndim - k, ndim))


def _ln_lead(ndim, k):
    return tuple(range(ndim - k))


def _kernel_grad(kernel, grad, self, weight, which, *args):
    """The gradient ``which`` of a normalisation's backward kernel (``kernel(grad, x,
    weight, *args, which)``, torch's bits) as a tensor, for a backward that records no
    graph; None where the formulas must stay differentiable or the dtypes are not
    emulated."""
    if _records_graph(grad, self, weight):
        return None
    w = None if weight is None else weight._data
    if not _bn_exact(self._data, w) or grad._data.dtype != self._data.dtype:
        return None
    return Tensor._wrap(np.asarray(kernel(grad._data, self._data, w, *args, which)))


def _ln_kernel_grad(grad, self, weight, k, mean, rstd, which, param=None):
    """The layer norm gradient ``which`` by torch's kernel from the forward's statistics
    (``param``: the weight, whose dtype picks the mixed-type kernel of a float16/bfloat16
    input), None where not emulated."""
    x = self._data
    if x.dtype.char in "eE" and x.size and grad._data.dtype == x.dtype \
            and not _records_graph(grad, self, weight):
        pdt = x.dtype if param is None else param._data.dtype
        if pdt in (x.dtype, np.float32):
            w = None if weight is None else weight._data
            out = _norms.layer_norm_backward_reduced(grad._data, x, w, k, mean._data,
                                                     rstd._data, which, pdt)
            return Tensor._wrap(out.astype(x.dtype if which == "input" else pdt))
    return _kernel_grad(_norms.layer_norm_backward, grad, self, weight, which, k,
                        mean._data, rstd._data)


def _half_float(*tensors):
    """float16/bfloat16 tensors as float32: torch's float kernel on them, where its
    reduced-type kernel is not emulated (the engine rounds the gradients back)."""
    return [t.float() if t is not None and t.dtype in (D.float16, D.bfloat16) else t
            for t in tensors]


def _ln_float(*tensors):
    """bfloat16 tensors as float32 (the formulas' arithmetic where no kernel is emulated)."""
    return [t.float() if t is not None and t.dtype is D.bfloat16 else t for t in tensors]


# The formulas read what torch's node keeps: the input, weight, bias, normalized_shape and
# the forward's statistics (result1: mean, result2: rstd), from which torch's kernels
# compute; ``eps`` besides, for the differentiable formulas of a double backward.

def _ln_self(grad, input, weight, normalized_shape, eps, result1, result2):
    k = len(normalized_shape)
    exact = _ln_kernel_grad(grad, input, weight, k, result1, result2, "input", weight)
    if exact is not None:
        return exact
    grad, input, weight = _ln_float(grad, input, weight)
    return _normalized_grad(grad, input, weight, _ln_dims(input.ndim, k), eps)


def _ln_weight(grad, input, weight, normalized_shape, eps, result1, result2):
    k = len(normalized_shape)
    exact = _ln_kernel_grad(grad, input, None, k, result1, result2, "weight", weight)
    if exact is not None:
        return exact
    grad, input = _ln_float(grad, input)
    xhat = _xhat(input, _ln_dims(input.ndim, k), eps)
    return (grad * xhat).sum(_ln_lead(input.ndim, k)) if input.ndim > k else grad * xhat


def _ln_bias(grad, input, bias, normalized_shape, result1, result2):
    k = len(normalized_shape)
    exact = _ln_kernel_grad(grad, input, None, k, result1, result2, "bias", bias)
    if exact is not None:
        return exact
    (grad,) = _ln_float(grad)
    return grad.sum(_ln_lead(grad.ndim, k)) if grad.ndim > k else grad


@op("NativeLayerNormBackward0", name="_layer_norm", method=False, function=False,
    promote=NONE, tensors=("input", "weight", "bias"), outputs=3,
    saved_results={"result1": 1, "result2": 2}, pack_order=("weight", "input", "bias"),
    reduced_in_float=False,
    input=_ln_self, weight=_ln_weight, bias=_ln_bias)
def _layer_norm(input, weight, bias, normalized_shape, eps):
    """torch's native_layer_norm: the output, the mean and the rstd (shaped as the input
    with its normalized dims 1; float32 for a float16/bfloat16 input of float32 weight,
    else the input's dtype)."""
    k = len(normalized_shape)
    if input.dtype.char in "eE" and input.size:
        out, mean, rstd = _norms.layer_norm_reduced(input, weight, bias, k, eps)
        sdt = np.float32 if weight is not None and weight.dtype == np.float32 else input.dtype
        return out, mean.astype(sdt), rstd.astype(sdt)
    if _bn_exact(input, weight, bias):
        return _norms.layer_norm(input, weight, bias, k, eps)
    dims = _ln_dims(input.ndim, k)
    x = input.astype(np.float64)
    mean = x.mean(axis=dims, keepdims=True)
    rstd = 1 / np.sqrt(x.var(axis=dims, keepdims=True) + eps)
    out = ((x - mean) * rstd).astype(input.dtype)
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out, mean.astype(input.dtype), rstd.astype(input.dtype)


def layer_norm(input: Tensor, normalized_shape, weight=None, bias=None,
               eps: float = 1e-5) -> Tensor:
    """Normalise over the trailing ``normalized_shape`` dims, then scale and shift."""
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    k = len(normalized_shape)
    shape = [int(s) for s in normalized_shape]
    if not k:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                           "containing at least one element, but got normalized_shape = []")
    for name, t in (("weight", weight), ("bias", bias)):     # ATen's order of checks
        if t is not None and list(t.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but "
                               f"got {name} of shape {list(t.shape)} and normalized_shape = "
                               f"{shape}")
    if tuple(input.shape[input.ndim - k:]) != tuple(normalized_shape):
        raise RuntimeError(f"Given normalized_shape={list(normalized_shape)}, expected input "
                           f"with shape [*, {', '.join(map(str, normalized_shape))}], but got "
                           f"input of size{list(input.shape)}")
    _check_mixed_dtype(input, weight, bias)
    return _layer_norm(input, weight, bias, tuple(shape), eps)[0]


def _gn_kernel_grads(grad, input, weight, group, eps, output_mask, pdt):
    """torch's backward kernel's gradients of the input, weight and bias (those
    ``output_mask`` asks for) as tensors, ``pdt`` the parameters' dtype; None where the
    formulas must stay differentiable or the kernel is not emulated."""
    x = input._data
    if not (x.flags.c_contiguous or _norms.channels_last_backward(x)) \
            or _records_graph(grad, input, weight) or grad._data.dtype != x.dtype:
        return None
    w = None if weight is None else weight._data
    if x.dtype.char in "eE" and x.size:
        if pdt not in (x.dtype, np.float32):
            return None
        grads = _norms.group_norm_backward_reduced(grad._data, x, w, group, eps, output_mask,
                                                   pdt)
    elif _bn_exact(x, w):
        grads = _norms.group_norm_backward(grad._data, x, w, group, eps, output_mask)
    else:
        return None
    return tuple(None if v is None else Tensor._wrap(np.asarray(v)) for v in grads)


def _gn_input(grad, input, weight, group, eps):
    grad, input, weight = _ln_float(grad, input, weight)
    n = input.shape[0]
    xr = input.reshape(n, group, -1)
    g = grad if weight is None else grad * _bcast(weight, input.ndim)
    return _normalized_grad(g.reshape(n, group, -1), xr, None, (2,), eps).reshape(input.shape)


def _gn_weight(grad, input, group, eps, pdt):
    exact = _gn_kernel_grads(grad, input, None, group, eps, (False, True, False), pdt)
    if exact is not None:
        return exact[1]
    grad, input = _ln_float(grad, input)
    n = input.shape[0]
    xhat = _xhat(input.reshape(n, group, -1), (2,), eps).reshape(input.shape)
    return (grad * xhat).sum(_bn_dims(input.ndim))


def _gn_bias(grad, input, group, eps, pdt):
    exact = _gn_kernel_grads(grad, input, None, group, eps, (False, False, True), pdt)
    if exact is not None:
        return exact[2]
    (grad,) = _ln_float(grad)
    return grad.sum(_bn_dims(grad.ndim))


def _gn_grads(grad, input, weight, N, C, HxW, group, eps, result1, result2, output_mask):
    """``native_group_norm_backward``: the gradients ``output_mask`` asks for, by torch's
    kernel in one call where it is emulated (the parameters' dtype is the statistics'),
    else each by its formula (the weight's and bias's by the kernel where only the weight
    keeps it from running)."""
    pdt = result1._data.dtype
    exact = _gn_kernel_grads(grad, input, weight, group, eps, output_mask, pdt)
    if exact is not None:
        return exact
    return (_gn_input(grad, input, weight, group, eps) if output_mask[0] else None,
            _gn_weight(grad, input, group, eps, pdt) if output_mask[1] else None,
            _gn_bias(grad, input, group, eps, pdt) if output_mask[2] else None)


# torch's node keeps the input, weight, statistics (result1: mean, result2: rstd, (N, group),
# of the parameters' dtype), N, C, HxW, group and eps
@op("NativeGroupNormBackward0", name="_group_norm", method=False, function=False,
    promote=NONE, tensors=("input", "weight", "bias"), outputs=3,
    saved_results={"result1": 1, "result2": 2}, reduced_in_float=False,
    **joint(_gn_grads, "input", "weight", "bias"))
def _group_norm(input, weight, bias, N, C, HxW, group, eps):
    """torch's native_group_norm: the output, the mean and the rstd of each (sample, group)
    (float32 for a float16/bfloat16 input of float32 parameters, else the input's dtype)."""
    if input.dtype.char in "eE" and input.size:
        out, mean, rstd = _norms.group_norm_reduced(input, weight, bias, group, eps)
        sdt = next((p.dtype for p in (weight, bias) if p is not None), input.dtype)
        return out, mean.reshape(N, group).astype(sdt), rstd.reshape(N, group).astype(sdt)
    if _bn_exact(input, weight, bias):
        return _norms.group_norm(input, weight, bias, group, eps)
    x = input.astype(np.float64).reshape(N, group, -1)
    if x.size:
        mean = x.mean(axis=2, keepdims=True)
        var = x.var(axis=2, keepdims=True)
    else:           # (torch's statistics of no elements)
        mean, var = np.zeros((N, group, 1)), np.full((N, group, 1), np.nan)
    out = ((x - mean) / np.sqrt(var + eps)).reshape(input.shape).astype(input.dtype)
    shp = (1, -1) + (1,) * (input.ndim - 2)
    if weight is not None:
        out = out * weight.reshape(shp)
    if bias is not None:
        out = out + bias.reshape(shp)
    rstd = 1 / np.sqrt(var + eps)
    return out, mean.reshape(N, group).astype(input.dtype), rstd.reshape(N, group).astype(
        input.dtype)


def group_norm(input: Tensor, num_groups: int, weight=None, bias=None,
               eps: float = 1e-5) -> Tensor:
    """Normalise each of ``num_groups`` channel groups per sample, then scale and shift."""
    if input.ndim < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{input.ndim}")
    c = input.shape[1]
    if c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {list(input.shape)} and "
                           f"num_groups={num_groups}")
    _check_mixed_dtype(input, weight, bias)
    n = input.shape[0]
    return _group_norm(input, weight, bias, n, c, math.prod(input.shape[2:]), num_groups,
                       eps)[0]


# ============================================================================ embedding, padding

def _embedding_backward_np(go, indices, num_weights, padding_idx, scale_grad_by_freq=False):
    """``embedding_dense_backward_cpu``: each index's row adds the gradient rows that pick
    it, in their order, in the dtype (with ``scale_grad_by_freq``, each scaled by 1 / the
    index's count, cast to the dtype, in a fused multiply-add); the padding row gets none."""
    d = go.shape[-1]
    idx = indices.ravel()
    rows = go.reshape(-1, d)
    if padding_idx is not None and padding_idx >= 0:
        keep = idx != padding_idx
        counts_of = np.bincount(idx, minlength=num_weights)    # padding rows count too
        idx, rows = idx[keep], rows[keep]
    else:
        counts_of = np.bincount(idx, minlength=num_weights) if scale_grad_by_freq else None
    out = np.zeros((num_weights, d), go.dtype)
    if not scale_grad_by_freq:
        np.add.at(out, idx, rows)            # in order, one index at a time
        return out
    alpha = (1.0 / np.maximum(counts_of, 1)).astype(go.dtype)[:, None]
    order = np.argsort(idx, kind="stable")
    ranks = np.empty(idx.size, np.int64)
    first = np.searchsorted(idx[order], idx[order], side="left")
    ranks[order] = np.arange(idx.size) - first
    for r in range(int(ranks.max()) + 1 if idx.size else 0):
        at = ranks == r                       # each index's r-th row: distinct indices
        k = idx[at]
        out[k] = _exact.fma(rows[at], np.broadcast_to(alpha[k], rows[at].shape), out[k])
    return out


def _embedding_sparse_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq):
    """``embedding_sparse_backward``: the gradient rows as the values of an uncoalesced
    sparse ``(num_weights, features)`` tensor, one entry per index (the padding index's
    dropped), in the indices' order."""
    if scale_grad_by_freq:
        raise RuntimeError("embedding_backward: scale_grad_by_freq not supported with sparse "
                           "gradients")
    from ..sparse._sparse import _make
    d = grad.shape[-1]
    idx = indices._data.reshape(1, -1)
    rows = grad._data.reshape(-1, d)
    if padding_idx is not None and padding_idx >= 0:
        keep = idx[0] != padding_idx
        idx, rows = idx[:, keep], rows[keep]
    idx = idx.astype(np.int64, copy=False)
    return _make(idx, Tensor._wrap(rows), (num_weights, d), idx.shape[1] < 2)


@op("EmbeddingBackward0", name="_embedding", method=False, function=False, promote=NONE,
    tensors=("weight", "indices"),
    weight=lambda grad, indices, weight_shape, padding_idx, scale_grad_by_freq, sparse:
    (_embedding_sparse_backward if sparse else _embedding_backward)(
        grad, indices, weight_shape[0], padding_idx, scale_grad_by_freq))
def _embedding(weight, indices, padding_idx, scale_grad_by_freq=False, sparse=False):
    return weight[indices]


@op("EmbeddingBackwardBackward0", name="_embedding_backward", method=False, function=False,
    promote=NONE, tensors=("grad_output", "indices"),
    grad_output=lambda grad, indices, padding_idx: _embedding(grad, indices, padding_idx))
def _embedding_backward(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq=False):
    return _embedding_backward_np(grad_output, indices, num_weights, padding_idx,
                                  scale_grad_by_freq)


def embedding(input: Tensor, weight: Tensor, padding_idx=None, max_norm=None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False,
              sparse: bool = False) -> Tensor:
    """Rows of ``weight`` selected by the integer tensor ``input``."""
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    idx = input._data
    if max_norm is not None:
        if weight.ndim != 2:
            raise RuntimeError(f"Expected 2-dimensional tensor, but got {weight.ndim}-"
                               "dimensional tensor for argument #1 'self' (while checking "
                               "arguments for embedding_renorm_)")
        _check_indices(input, 2, "embedding_renorm_")
        embedding_renorm(weight, idx, max_norm, norm_type)
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    _check_indices(input, 1, "embedding")
    n = weight.shape[0]
    if idx.size and not n:      # torch's embedding is an index_select of the rows
        raise RuntimeError(_errors.INDEX_SELECT_EMPTY)
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise IndexError("index out of range in self")
    return _embedding(weight, input, padding_idx, bool(scale_grad_by_freq), bool(sparse))


def _check_indices(indices, position, fname):
    """torch's ``checkScalarTypes`` of an embedding's indices (long or int)."""
    check_scalar_types(indices, position, "indices", (D.int64, D.int32), fname)


def check_scalar_types(t, position, arg, allowed, fname):
    """torch's ``checkScalarTypes``: ``t`` (argument ``arg`` of ``fname``) is one of the
    ``allowed`` dtypes, else its RuntimeError."""
    dt = t.dtype
    if dt not in allowed:
        # (torch names the types of its legacy tensor classes so, the others by scalar type)
        name = D.cpu_type_name(dt)
        kinds = ", ".join(d.scalar_name for d in allowed)
        raise RuntimeError(f"Expected tensor for argument #{position} '{arg}' to have one of "
                           f"the following scalar types: {kinds}; but got {name} instead "
                           f"(while checking arguments for {fname})")




def embedding_renorm(weight: Tensor, indices, max_norm: float, norm_type: float) -> None:
    """Scale, in place, each row of ``weight`` named in ``indices`` whose ``norm_type``-norm
    exceeds ``max_norm`` down to ``max_norm`` (ATen's ``embedding_renorm_``)."""
    from .reduction import _vector_norm
    w = weight._data
    op_dtype = np.dtype(np.float32) if w.dtype.itemsize < 4 else w.dtype   # torch's opmath
    n = w.shape[0]
    for r in np.unique(indices):          # torch: one row at a time, ``row.norm(p)``
        if not -n <= r < n:
            raise IndexError(f"select(): index {r} out of range for tensor of size "
                             f"[{', '.join(map(str, w.shape))}] at dimension 0")
        row = w[r]
        norm = float(_vector_norm.kernel(row, norm_type, (0,), False, None))
        if norm > max_norm:               # ``row *= scale``: a double scalar, op math
            w[r] = row.astype(op_dtype) * op_dtype.type(max_norm / (norm + 1e-7))
    weight._vc.value += 1


def _constant_pad_np(x, pad, value):
    nd = len(pad) // 2
    widths = [(0, 0)] * (x.ndim - nd)
    crop = [slice(None)] * (x.ndim - nd)
    for i in range(nd):
        lo, hi = pad[2 * (nd - 1 - i)], pad[2 * (nd - 1 - i) + 1]
        widths.append((max(lo, 0), max(hi, 0)))
        size = x.shape[x.ndim - nd + i] + max(lo, 0) + max(hi, 0)
        crop.append(slice(-min(lo, 0), size + min(hi, 0)))
    out = np.pad(x, widths, constant_values=value) if any(a or b for a, b in widths) else x
    return out[tuple(crop)].copy()


@op("ConstantPadNdBackward0", name="constant_pad_nd", method=False, promote=NONE,
    self=lambda grad, pad: constant_pad_nd(grad, tuple(-p for p in pad), 0))
def constant_pad_nd(self, pad, value=0):
    """Pad (or crop, for negative sizes) the last ``len(pad) // 2`` dims with ``value``."""
    if all(p <= 0 for p in pad):        # (torch's: a clone of the narrowed input, its layout)
        nd = len(pad) // 2
        lead = self.ndim - nd
        crop = [slice(None)] * lead + [
            slice(-pad[2 * (nd - 1 - i)], self.shape[lead + i] + pad[2 * (nd - 1 - i) + 1])
            for i in range(nd)]
        if any(c.stop < c.start for c in crop[lead:]):
            raise RuntimeError("narrow(): length must be non-negative.")
        return _mf.copy_to_format(self[tuple(crop)])
    return _mf.follow(_constant_pad_np(self, pad, value), self)


def _check_pad_sizes(sizes, pad, mode):
    """ATen's size checks: reflection pads from the last dim back (argument #4, #6, #8 of
    its kernel), circular ones may wrap at most once and not empty a dim."""
    nd = len(pad) // 2
    for k in range(nd):             # k = 0: the last dim
        i = nd - 1 - k if mode == "reflect" else k
        lo, hi = pad[2 * (nd - 1 - i)], pad[2 * (nd - 1 - i) + 1]
        n = sizes[len(sizes) - nd + i]
        if mode == "reflect" and (lo >= n or hi >= n):
            raise RuntimeError(f"Argument #{4 + 2 * (nd - 1 - i)}: Padding size should be less "
                               f"than the corresponding input dimension, but got: padding "
                               f"({lo}, {hi}) at dimension {len(sizes) - nd + i} of input "
                               f"{list(sizes)}")
        if mode == "circular":
            if lo > n or hi > n:
                raise RuntimeError("Padding value causes wrapping around more than once.")
            if n + lo + hi < 0:
                raise RuntimeError("Negative padding value is resulting in an empty dimension")


def _pad_indices(sizes, pad, mode):
    _check_pad_sizes(sizes, pad, mode)
    nd = len(pad) // 2
    idx = []
    for i in range(nd):
        lo, hi = pad[2 * (nd - 1 - i)], pad[2 * (nd - 1 - i) + 1]
        n = sizes[len(sizes) - nd + i]
        j = np.arange(-lo, n + hi)
        if mode == "reflect":
            period = 2 * (n - 1) if n > 1 else 1
            j = np.abs(j) % period
            j = np.where(j >= n, period - j, j)
        else:
            j = np.clip(j, 0, n - 1)
        idx.append(j)
    return idx


def _index_pad_np(x, idx):
    nd = len(idx)
    grids = np.ix_(*idx)
    return x[(Ellipsis,) + grids] if nd else x


def _index_pad_backward_np(go, idx, sizes):
    nd = len(idx)
    lead = tuple(sizes[:len(sizes) - nd])
    flat = np.zeros(1, np.int64)
    for i, j in enumerate(idx):
        flat = (flat[..., None] * sizes[len(lead) + i] + j)
    m = int(np.prod(sizes[len(lead):]))
    g = go.reshape(-1, flat.size)
    rows = np.arange(g.shape[0])[:, None] * m
    pos = (rows + flat.ravel()[None]).ravel()

    # cpu_padding_backward: each output position adds into its input one, in order, in
    # the dtype
    out = np.zeros(g.shape[0] * m, go.dtype)
    np.add.at(out, pos, g.ravel())
    return out.reshape(sizes)


def _make_index_pad(node):
    fwd = op(node, name="_index_pad_" + node, method=False, function=False, promote=NONE,
             self=lambda grad, idx, self_shape: bwd(grad, idx, self_shape))(
        lambda self, idx: _mf.into(_index_pad_np(self, idx), _mf.suggest(self)))
    bwd = op(node.replace("Backward0", "BackwardBackward0"), name="_index_pad_bwd_" + node,
             method=False, function=False, promote=NONE,
             grad_output=lambda grad, idx: fwd(grad, idx))(
        lambda grad_output, idx, sizes: _index_pad_backward_np(grad_output, idx, sizes))
    return fwd


_PAD_OPS = {(m, n): _make_index_pad(f"{name}Pad{n}DBackward0")
            for m, name in (("reflect", "Reflection"), ("replicate", "Replication"))
            for n in (1, 2, 3)}


def pad(input: Tensor, pad, mode: str = "constant", value=None) -> Tensor:
    """Pad the last ``len(pad) // 2`` dims: ``pad = (left, right, top, bottom, …)``."""
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the "
                           "input dimension but got padding length "
                           f"{len(pad)} and input of dimension {input.ndim}")
    if mode == "constant":
        return constant_pad_nd(input, pad, 0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument.")
    n = len(pad) // 2
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if n > 3 or input.ndim not in (n + 1, n + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    if mode == "circular":
        _check_pad_sizes(tuple(input.shape), pad, mode)
        return _pad_circular(input, pad)
    idx = _pad_indices(tuple(input.shape), pad, mode)
    return _PAD_OPS[(mode, n)](input, tuple(idx))


def _pad_circular(input: Tensor, pad) -> Tensor:
    """torch's composite circular padding (``_pad_circular_symint``): the input, cropped by
    the negative pads, copied into the middle of a new tensor, then each dim's positive pads
    (the last dim first) copied from its other end (node ``CopySlices``)."""
    n, nd = len(pad) // 2, input.ndim
    out_shape = list(input.shape)
    for k in range(n):              # k = 0: the last dim
        out_shape[nd - 1 - k] += pad[2 * k] + pad[2 * k + 1]
    out = input.new_empty(out_shape)
    out_slice, in_slice = out, input
    for k in range(n):
        dim, pl, pr = nd - 1 - k, pad[2 * k], pad[2 * k + 1]
        out_slice = out_slice.narrow(dim, max(pl, 0), out_shape[dim] - max(pl, 0) - max(pr, 0))
        in_slice = in_slice.narrow(dim, max(-pl, 0),
                                   input.shape[dim] - max(-pl, 0) - max(-pr, 0))
    out_slice.copy_(in_slice)
    for k in range(n):
        dim, pl, pr = nd - 1 - k, pad[2 * k], pad[2 * k + 1]
        size, right = out_shape[dim], max(pr, 0)
        if pl > 0:
            out.narrow(dim, 0, pl).copy_(out.narrow(dim, size - pl - right, pl))
        if pr > 0:
            out.narrow(dim, size - pr, pr).copy_(out.narrow(dim, max(pl, 0), pr))
    return out


# ============================================================================ im2col / col2im
# ``unfold`` gathers every sliding block through one strided view; ``fold`` adds the blocks
# back with one vectorised slice-add per kernel offset. Each is the other's backward.

def _im2col_np(x, kernel, dilation, padding, stride):
    unb = x.ndim == 3
    if unb:
        x = x[None]
    n, c = x.shape[:2]
    out = _conv_out(x.shape[2:], kernel, stride, padding, dilation)
    win = _windows(_pad_np(x, padding), out, kernel, stride, dilation)   # N, C, oh, ow, kh, kw
    cols = win.transpose(0, 1, 4, 5, 2, 3).reshape(n, c * kernel[0] * kernel[1],
                                                   out[0] * out[1])
    return cols[0] if unb else cols


def _col2im_np(cols, output_size, kernel, dilation, padding, stride):
    unb = cols.ndim == 2
    if unb:
        cols = cols[None]
    (kh, kw), (dh, dw), (sh, sw) = kernel, dilation, stride
    n = cols.shape[0]
    c = cols.shape[1] // (kh * kw)
    oh, ow = _conv_out(output_size, kernel, stride, padding, dilation)
    blocks = cols.reshape(n, c, kh, kw, oh, ow)
    hp, wp = output_size[0] + 2 * padding[0], output_size[1] + 2 * padding[1]
    out = xp.zeros((n, c, hp, wp), cols.dtype)
    for i in range(kh):
        for j in range(kw):
            out[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                j * dw:j * dw + sw * (ow - 1) + 1:sw] += blocks[:, :, i, j]
    out = out[:, :, padding[0]:padding[0] + output_size[0], padding[1]:padding[1] + output_size[1]]
    out = xp.ascontiguousarray(out)
    return out[0] if unb else out


@op("Im2ColBackward0", name="im2col", method=False, function=False, promote=NONE,
    self=lambda grad, self_shape, kernel_size, dilation, padding, stride:
    col2im(grad, tuple(self_shape[-2:]), kernel_size, dilation, padding, stride))
def im2col(self, kernel_size, dilation, padding, stride):
    """Sliding blocks of (N, C, H, W) as columns (N, C * kh * kw, L)."""
    return _im2col_np(self, kernel_size, dilation, padding, stride)


@op("Col2ImBackward0", name="col2im", method=False, function=False, promote=NONE,
    self=lambda grad, kernel_size, dilation, padding, stride:
    im2col(grad, kernel_size, dilation, padding, stride))
def col2im(self, output_size, kernel_size, dilation, padding, stride):
    """Sum columns (N, C * kh * kw, L) back into (N, C, *output_size)."""
    return _col2im_np(self, output_size, kernel_size, dilation, padding, stride)

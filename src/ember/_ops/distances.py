"""Distances: ``dist`` (the p-norm of a difference) and ``cdist`` (pairwise p-norm distances).

``dist`` records ``DistBackward0`` and differentiates as torch's ``norm_backward``; ``cdist``
records ``CdistBackward0`` (torch's ``_cdist_forward``) with ``_cdist_backward``'s formulas,
and for p = 2 on more than 25 rows (or ``compute_mode="use_mm_for_euclid_dist"``) takes
torch's matrix-product route, ``‖a‖² - 2a·b + ‖b‖²`` (``EuclideanDistBackward0``); every
other case runs torch's direct kernel (:func:`_cdist_kernel`) bit for bit.
"""

from __future__ import annotations

from .. import _dtype as D
from .._device import xp
from .._tensor import Tensor
from .reduction import _norm_back, _vector_norm, ember_where
from .registry import SAME, expose, op, tensor_operands
from .shape import cat

_wrap = Tensor._wrap


def _check_float_difference(self, other, p=2) -> None:
    # torch's dist is norm(self - other): sub's errors, then norm's for the difference's type
    from .. import _dtype as D
    from .pointwise import _check_sub
    _check_sub(self, other)
    dt = D.result_type(self, other)
    if not (dt.is_floating_point or dt.is_complex):
        raise RuntimeError("norm(): input dtype should be either floating point or complex. "
                           f"Got {dt.scalar_name} instead.")


_check_float = tensor_operands("dist", then=_check_float_difference)


def _dist_grad(grad, self, other, p, result):
    diff = self - other
    return _norm_back(grad, diff, result, p, tuple(range(diff.ndim)), False)


@op("DistBackward0", name="dist", reduced_in_float=False, promote=SAME, check=_check_float,
    self=_dist_grad,
    other=lambda grad, self, other, p, result: -_dist_grad(grad, self, other, p, result))
def dist(self, other, p=2):
    """The ``p``-norm of ``self - other`` (broadcast), as one number.

    >>> ember.dist(ember.tensor([0., 3.]), ember.tensor([4., 0.]))
    tensor(5.)
    """
    diff = xp.subtract(self, other)
    if D.is_reduced(diff.dtype):    # (bfloat16: the difference rounded, the norm in float)
        diff = diff.astype(xp.float32)
    return _vector_norm.kernel(diff, p, tuple(range(diff.ndim)), False, None)


# ----------------------------------------------------------------------------- cdist

def check_reduced(kernel: str, t: Tensor) -> None:
    """The dispatch error of a distance kernel built for float32/float64 only (ATen's
    ``AT_DISPATCH_FLOATING_TYPES``) for a float16/bfloat16 tensor ``t``."""
    if t.dtype in (D.float16, D.bfloat16):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{t.dtype.scalar_name}'")


def _pair_diff(x1, x2):
    return x1.unsqueeze(-2) - x2.unsqueeze(-3)          # (..., r1, r2, m)


def _cdist_diff_grad(grad, x1, x2, p, result):
    """The gradient with respect to each pairwise difference (torch's ``_cdist_backward``)."""
    diff = _pair_diff(x1, x2)
    g, d = grad.unsqueeze(-1), result.unsqueeze(-1)
    zero = _wrap(d._data == 0)
    if p == 0:
        return diff * 0
    if p == 1:
        return diff.sgn() * g
    if p == 2:
        return ember_where(zero, 0.0, diff * g / d)
    if p == float("inf"):
        return diff.sgn() * _wrap(xp.abs(diff._data) == d._data) * g
    if diff._data.dtype in (xp.float32, xp.float64) and xp.__name__ == "numpy":
        # (``Dist``'s vector backward, Sleef's pow: pdist's term)
        from .nn_extra import _pdist_term
        return _wrap(_pdist_term(diff._data, g._data, d._data, p))
    if p < 2:
        dead = zero | _wrap(diff._data == 0) if p < 1 else zero
        return ember_where(dead, 0.0, diff.sgn() * diff.abs() ** (p - 1) * g / d ** (p - 1))
    return ember_where(zero, 0.0, diff * diff.abs() ** (p - 2) * g / d ** (p - 1))


def _in_turn(g):
    """The sum over dim -2 of the pairs' gradients, added row after row from 0, as
    ``_cdist_backward``'s loop adds them (torch has no derivative of it)."""
    from ._exact import seqsum
    return _wrap(seqsum(xp.moveaxis(g._data, -2, 0)))


@op("CdistBackward0", name="_cdist_forward", method=False, function=False, promote=SAME,
    pointwise=False,
    x1=lambda grad, x1, x2, p, result: _in_turn(_cdist_diff_grad(grad, x1, x2, p, result)),
    x2=lambda grad, x1, x2, p, result: _in_turn(_cdist_diff_grad(  # (the roles swapped)
        grad.mT, x2, x1, p, result.mT)))
def _cdist_forward(x1, x2, p):
    diff = xp.abs(x1[..., :, None, :] - x2[..., None, :, :])
    if diff.dtype in (xp.float32, xp.float64) and xp.__name__ == "numpy":
        return _cdist_kernel(diff, p)
    if p == 0:
        return (diff != 0).sum(-1).astype(diff.dtype)
    if p == 1:
        return diff.sum(-1)
    if p == 2:
        return xp.sqrt((diff * diff).sum(-1))
    if p == float("inf"):
        return diff.max(-1) if diff.shape[-1] else diff.sum(-1)
    return (diff ** p).sum(-1) ** (1.0 / p)


def _cdist_kernel(diff, p):
    """``Dist::run_parallel_cdist`` on the (…, r1, r2, m) absolute differences: per pair a
    scalar accumulator of the dtype from 0, over the m columns in turn. p = 2 adds
    ``d * d`` unfused in the compiled loop's blocks of four (float64: and in a pair after
    them), the last one to three fused; other p take glibc's ``powf``/``pow`` per element
    and ``pow(double(sum), 1.0 / p)`` at the end; inf keeps the larger (``std::max``: a nan
    never replaces the accumulator)."""
    import numpy as np

    from ._exact import fma, seqsum

    dt = diff.dtype.type
    m = diff.shape[-1]
    seq = np.moveaxis(diff, -1, 0)
    with np.errstate(all="ignore"):
        if m == 0:
            return np.zeros(diff.shape[:-1], dt)
        if p == 0:
            return seqsum(np.minimum(np.ceil(seq), dt(1)))
        if p == 1:
            return seqsum(seq)
        if p == 2:
            k = m - m % 4
            acc = seqsum(seq[:k] * seq[:k]) if k else np.zeros(seq.shape[1:], dt)
            if dt == np.float64 and m - k >= 2:
                acc = acc + seq[k] * seq[k]
                acc = acc + seq[k + 1] * seq[k + 1]
                k += 2
            for i in range(k, m):
                acc = fma(seq[i], seq[i], acc)
            return np.sqrt(acc)
        if p == float("inf"):
            return np.fmax.reduce(seq, axis=0, initial=dt(0)).astype(dt)
        from . import _libm
        pw = _libm.c_float("powf") if dt == np.float32 else _libm.double_fn("pow")
        seq = np.ascontiguousarray(seq)
        acc = seqsum(pw(seq, np.full(seq.shape, dt(p))))
        inv = np.full(acc.shape, 1.0 / np.float64(dt(p)))
        return _libm.double_fn("pow")(acc.astype(np.float64), inv).astype(dt)


def _euclid_ratio(grad, result):
    """``grad / result``, 0 where a distance is 0 (torch's subgradient)."""
    return (grad / result).masked_fill(result == 0, 0)


@op("EuclideanDistBackward0", name="_euclidean_dist", method=False, function=False,
    promote=SAME, pointwise=False,
    x1=lambda grad, x1, x2, result: x1 * _euclid_ratio(grad, result).sum(-1, True)
    - _euclid_ratio(grad, result).matmul(x2),
    x2=lambda grad, x1, x2, result: x2 * _euclid_ratio(grad, result).sum(-2).unsqueeze(-1)
    - _euclid_ratio(grad, result).mT.matmul(x1))
def _euclidean_dist(x1, x2):
    """torch's ``_euclidean_dist``: distances from one matrix product, ``[-2a, ‖a‖², 1] ·
    [b, 1, ‖b‖²]``, clamped and square-rooted; one node, whose backward is torch's
    ``_euclidean_dist_backward``."""
    x1, x2 = _wrap(x1), _wrap(x2)
    n1, n2 = x1.pow(2).sum(-1, keepdim=True), x2.pow(2).sum(-1, keepdim=True)
    a = cat([x1.mul(-2), n1, n1.new_ones(n1.shape)], -1)
    b = cat([x2, n2.new_ones(n2.shape), n2], -1)
    return a.matmul(b.mT).clamp_min_(1e-30).sqrt_()._data


_MODES = (None, "use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
          "donot_use_mm_for_euclid_dist")


@expose(method=False)
def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: str | None = None) -> Tensor:
    """The ``p``-norm distance between each row of ``x1`` and each row of ``x2`` (batched).

    >>> ember.cdist(ember.tensor([[0., 0.]]), ember.tensor([[3., 4.], [0., 1.]]))
    tensor([[5., 1.]])
    """
    if compute_mode not in _MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    for name, t in (("X1", x1), ("X2", x2)):
        if t.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: "
                               f"{t.ndim}D")
        if not t.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: "
                               f"{t.dtype.scalar_name}")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                           f"{x1.shape[-1]} X2: {x2.shape[-1]}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    r1, r2 = x1.shape[-2], x2.shape[-2]
    mm = compute_mode == "use_mm_for_euclid_dist" or (
        compute_mode in _MODES[:2] and (r1 > 25 or r2 > 25))
    if p == 2 and mm and x1.numel() and x2.numel():
        out = _euclidean_dist(x1, x2)
        return out.view(out.shape)           # torch views the batched result back
    if x1.numel() and x2.numel():
        check_reduced("cdist", x1)
    return _cdist_forward(x1, x2, float(p))

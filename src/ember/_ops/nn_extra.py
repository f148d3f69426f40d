"""More neural-network ops, each a primitive in torch: the shrinkage activations, rrelu, the
in-place activation nodes (``EluBackward1`` …, whose formulas read the result where torch's
do), the margin
losses, ``pdist``, ``norm`` over one dim and ``add`` of a number as ATen's C++ composites
record them (``NormBackward1``, ``AddBackward1``), ``channel_shuffle`` and ``conv_tbc``.

Backward formulas are written with ember ops (masks and index matrices are constants), so
double backward runs through them.
"""

from __future__ import annotations

import numpy as np

from .._device import xp
from .._tensor import Tensor
from . import _sleef
from . import nn as _nn
from .reduction import _norm_back, _vector_norm
from .registry import NONE, op, run_inplace

_wrap = Tensor._wrap


def _const(mask, like):
    """A boolean mask as a constant tensor of ``like``'s dtype."""
    return _wrap(mask.astype(like._data.dtype))


# ============================================================================ double backward

def _raise(message, error=RuntimeError):
    def formula(grad):
        raise error(message)
    return formula


_NO_DOUBLE = {}


def no_double_backward(t: Tensor, input: Tensor, name: str, message: str | None = None,
                       error=RuntimeError) -> Tensor:
    """``t`` (a gradient with respect to ``input``) behind a node that raises torch's error
    for the derivative of the backward function ``name`` (torch defines none for some); the
    node depends on ``input``, so ``t`` requires grad where torch's does."""
    fn = _NO_DOUBLE.get(name)
    if fn is None:
        text = message or f"derivative for aten::{name} is not implemented"
        fn = _NO_DOUBLE[name] = op("torch::autograd::NotImplemented",
                                   name="_no_derivative_" + name,
                                   method=False, function=False, promote=NONE,
                                   tensors=("self", "input"), self=_raise(text, error),
                                   input=_raise(text, error))(lambda self, input: self)
    return fn(t, input)


# ============================================================================ shrinkage

def _inside(x, lambd):
    lam = x.dtype.type(lambd)
    return (x >= -lam) & (x <= lam)


@op("HardshrinkBackward0", name="hardshrink", function=True, method=True, promote=NONE,
    pointwise=True,
    self=lambda grad, self, lambd: grad.where(_wrap(~_inside(self._data, lambd)), 0.0))
def hardshrink(self, lambd=0.5):
    """``x`` where ``|x| > lambd``, else 0 (node ``HardshrinkBackward0``)."""
    return xp.where(_inside(self, lambd), self.dtype.type(0), self)


@op("SoftshrinkBackward0", name="softshrink", function=False, method=False, promote=NONE,
    pointwise=True,
    self=lambda grad, self, lambd: grad.where(_wrap(~_inside(self._data, lambd)), 0.0))
def softshrink(self, lambd=0.5):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0, as ATen's
    ``cpu_kernel_vec`` computes it: the vectors mask the two branches (a zero is ``+0``, a NaN
    stays NaN), the one-by-one tail returns ``x * 0`` (``-0`` for a negative ``x``). Half and
    bfloat16 compute in float with ``lambd`` as a float."""
    dt = self.dtype
    reduced = dt.itemsize == 2
    lam = (np.float32 if reduced else dt.type)(lambd)

    def shrunk(inside):
        def fn(v):
            v = v.astype(np.float32) if reduced else v
            with np.errstate(invalid="ignore"):
                out = xp.where(v > lam, v - lam, xp.where(v < -lam, v + lam, inside(v)))
            return out.astype(dt) if reduced else out
        return fn

    return _sleef.elementwise(self, shrunk(lambda u: xp.where(u != u, u, 0)),
                              shrunk(lambda u: u * 0), avx512=False)


# ============================================================================ rrelu

@op("RreluWithNoiseBackward0", name="_rrelu_with_noise", method=False, function=False,
    promote=NONE, tensors=("self", "noise"), self=lambda grad, noise: grad * noise)
def rrelu_with_noise(self, noise):
    """``x * noise`` (the noise is 1 where ``x > 0``, the sampled or mean slope elsewhere),
    contiguous as torch's kernel writes it."""
    return np.ascontiguousarray(self * noise).astype(self.dtype, copy=False)


_rrelu_inplace = op("RreluWithNoiseBackward1", name="_rrelu_with_noise_", method=False,
                    function=False, promote=NONE, tensors=("self", "noise"),
                    self=lambda grad, noise: grad * noise)(rrelu_with_noise.kernel)


def rrelu_noise(x, lower, upper, training, generator):
    """torch's noise of ``rrelu_with_noise``: in training, one ``uniform(lower, upper)`` draw
    (53 bits of a 64-bit draw, in double) per element ``<= 0``, in order; else the mean
    slope ``(lower + upper) / 2``; 1 where ``x > 0``."""
    dt = x.dtype
    neg = ~(x > 0)
    if training:
        lo, hi = float(dt.type(lower)), float(dt.type(upper))
        noise = np.ones(x.shape, dt)
        k = int(neg.sum())
        if k:
            noise[neg] = (generator._u53(k) * (hi - lo) + lo).astype(dt)
        return noise
    # (torch's eval mode is leaky_relu with the mean slope, which float16 and bfloat16
    # kernels read as a float)
    ft = np.float32 if dt.char in "eE" else dt.type
    return np.where(neg, ft((lower + upper) / 2), ft(1))


def rrelu(input: Tensor, lower: float, upper: float, training: bool, inplace: bool,
          generator) -> Tensor:
    """``rrelu_with_noise`` (in place: node ``RreluWithNoiseBackward1``)."""
    noise = _wrap(rrelu_noise(input._data, lower, upper, training, generator))
    if inplace:
        return run_inplace(_rrelu_inplace, (input, noise))
    return rrelu_with_noise(input, noise)


# ============================================================================ in-place nodes

_NEG_ELU = ("In-place elu backward calculation is triggered with a negative slope which is not "
            "supported. This is caused by calling in-place forward function with a negative "
            "slope, please call out-of-place version instead.")
_NEG_LEAKY = ("In-place leakyReLu backward calculation is triggered with a negative slope which "
              "is not supported. This is caused by calling in-place forward function with a "
              "negative slope, please call out-of-place version instead. File an issue at "
              "https://github.com/pytorch/pytorch if you do require supporting in-place "
              "leakRelu backward calculation with negative slope")


def _elu_result_grad(grad, result, alpha, scale, input_scale):
    if alpha < 0:
        raise RuntimeError(_NEG_ELU)
    neg = _const(result._data <= 0, grad)
    return grad * (neg * (input_scale * (result + alpha * scale)) + (1 - neg) * scale)


_elu_ = op("EluBackward1", name="_elu_", method=False, function=False, promote=NONE,
           check=_nn._elu_check, self=_elu_result_grad)(_nn.elu.kernel)


def _celu_result_grad(grad, result, alpha):
    # torch: elu_backward(grad, alpha, 1, 1.0 / alpha.toFloat(), true, result)
    return _elu_result_grad(grad, result, alpha, 1.0, 1.0 / _nn._f32_of(alpha))


_celu_ = op("CeluBackward1", name="_celu_", method=False, function=False, promote=NONE,
            check=_nn._elu_check, self=_celu_result_grad)(_nn.celu.kernel)


def _leaky_result_grad(grad, result, negative_slope):
    if negative_slope < 0:
        raise RuntimeError(_NEG_LEAKY)
    pos = _const(result._data > 0, grad)
    return grad * (pos + (1 - pos) * negative_slope)


_leaky_relu_ = op("LeakyReluBackward1", name="_leaky_relu_", method=False, function=False,
                  promote=NONE, self=_leaky_result_grad)(_nn.leaky_relu.kernel)

_threshold_ = op("ThresholdBackward1", name="_threshold_", method=False, function=False,
                 promote=NONE,
                 self=lambda grad, self, threshold:
                 grad.where(_wrap(self._data > threshold), 0.0))(_nn.threshold.kernel)

INPLACE = {"elu": _elu_, "celu": _celu_, "leaky_relu": _leaky_relu_, "threshold": _threshold_}


def inplace(op_def, input: Tensor, *args) -> Tensor:
    """Run ``op_def`` writing into ``input`` (its in-place node where torch has one)."""
    return run_inplace(INPLACE.get(op_def.name, op_def), (input,) + args)


# ============================================================================ numbers, norms

@op("AddBackward1", name="_add_scalar", method=False, function=False, tensors=("self",),
    self=lambda grad: grad)
def add_scalar(self, other):
    """``self + other`` for a Python number (ATen's ``add.Scalar``)."""
    return self + self.dtype.type(other)


@op("NormBackward1", name="_norm_dim", method=False, function=False, promote=NONE,
    self=lambda grad, self, result, p, dim, keepdim:
    _norm_back(grad, self, result, p, (dim,), keepdim))
def norm_dim(self, p, dim, keepdim):
    """``self.norm(p, dim, keepdim)`` as ATen's ``norm.ScalarOpt_dim`` (``dim`` >= 0)."""
    return _vector_norm.kernel(self, p, (dim,), keepdim, None)


@op("NormBackward0", name="_norm_all", method=False, function=False, promote=NONE,
    reduced_in_float=False,
    self=lambda grad, self, result, p: _norm_back(grad, self, result, p,
                                                  tuple(range(self.dim())), False))
def norm_all(self, p):
    """``self.norm(p)`` over every element, as ATen's ``norm.Scalar``."""
    return _vector_norm.kernel(self, p, tuple(range(self.ndim)), False, None)


# ============================================================================ pdist

def _pairs(n):
    return np.triu_indices(n, 1)


def _pdist_grad(grad, self, result, p):
    g = _pdist_backward(grad._data, self._data, p, result._data)
    return no_double_backward(_wrap(g), self, "_pdist_backward",
                              "the derivative for '_pdist_backward' is not implemented.",
                              NotImplementedError)


def _sign(v):
    """``Dist::sign``: -1, 0 or 1 from ceil and floor (NaN stays NaN)."""
    one = v.dtype.type(1)
    return (np.minimum(np.maximum(0, np.ceil(v)), one)
            + np.minimum(np.maximum(-one, np.floor(v)), 0))


def _pdist_term(diff, g, d, p):
    """``Dist``'s backward of one pair for the norm ``p`` (vector Sleef ``pow``), in the
    input's type; ``g`` and ``d`` (the pair's gradient and distance) are columns."""
    from . import _sleef_ext
    dt = diff.dtype.type
    pw = _sleef_ext.vector_pow
    p = dt(p)
    with np.errstate(all="ignore"):
        if p == 1:
            return g * _sign(diff)
        if np.isinf(p):
            return g * _sign(diff) * (dt(1) - np.minimum(dt(1), np.ceil(np.abs(np.abs(diff) - d))))
        if p == 2:
            r = g * diff / d
        elif p < 2:
            r = _sign(diff) * pw(np.abs(diff), p - dt(1)) * g / pw(np.broadcast_to(d, diff.shape),
                                                                  p - dt(1))
            if p < 1:
                r = np.where(diff == 0, dt(0), r)
        else:
            r = diff * pw(np.abs(diff), p - dt(2)) * g / pw(np.broadcast_to(d, diff.shape),
                                                         p - dt(1))
        return np.where(d == 0, dt(0), r)


def _pdist_backward(grad, x, p, dist):
    """``apply_backward_pdist``: for each pair ``i < j`` in row-major order, the pair's term
    added to row ``i`` and taken from row ``j``, column by column (the columns are
    independent, so all of them go at once)."""
    n = x.shape[0]
    res = np.zeros_like(x)
    if p == 0 or n < 2 or x.dtype not in (np.float32, np.float64):
        return res if p == 0 or n < 2 else None
    k = 0
    for i in range(n - 1):
        cnt = n - 1 - i
        r = _pdist_term(x[i] - x[i + 1:], grad[k:k + cnt, None], dist[k:k + cnt, None], p)
        res[i] = np.add.accumulate(np.concatenate([res[i][None], r]), axis=0)[-1]
        res[i + 1:] -= r
        k += cnt
    return res


@op("PdistBackward0", name="_pdist_forward", method=False, function=False, promote=NONE,
    self=_pdist_grad)
def pdist_forward(self, p):
    """The p-norm distance of every pair of rows ``i < j``, in row-major order: ATen's
    ``map2_reduce_all`` of ``|x_i - x_j|`` mapped for ``p`` (Sleef's ``pow`` in general),
    then its finish (``sqrt``, or ``pow(agg, 1 / p)`` in double)."""
    i, j = _pairs(self.shape[0])
    if not i.size:
        return xp.zeros((0,), self.dtype)
    if self.dtype not in (np.float32, np.float64) or not self.shape[1]:
        return _vector_norm.kernel(self[i] - self[j], p, (1,), False, None)
    from . import _norms, _sleef_ext
    dt = self.dtype.type
    d = np.abs(self[i] - self[j])
    with np.errstate(all="ignore"):
        if np.isinf(p):
            return d.max(axis=1)
        if p == 0:
            return _norms.vec_sum_rows(np.minimum(np.ceil(d), dt(1)))
        if p == 1:
            return _norms.vec_sum_rows(d)
        if p == 2:
            return np.sqrt(_norms.vec_sum_rows(d * d))
        agg = _norms.vec_sum_rows(_sleef_ext.vector_pow(d, np.full(d.shape, dt(p))))
        from ._libm import double_fn
        root = double_fn("pow")(agg.astype(np.float64), np.float64(1.0 / p))
        return root.astype(self.dtype)


# ============================================================================ margin losses

def _soft_margin_grad(grad, self, target, reduction):
    """``soft_margin_loss_backward``'s in-place steps: ``target * z`` into a tensor of the
    input's dtype, times ``-norm`` (rounded to that dtype), divided by ``z + 1`` (rounded
    to it), times ``grad``; ``z = exp(-target * self)`` in the promoted dtype."""
    norm = 1.0 / self.numel() if reduction == 1 else 1.0
    z = (-target * self).exp()
    g = (target * z).to(self.dtype) * self.new_full((), -norm)
    return (g / (z + 1)).to(self.dtype) * grad


def _soft_margin_check(self, target, reduction):
    """torch's errors of its in-place steps on an input that is not floating."""
    from .pointwise import _no_bool_neg
    _no_bool_neg(self)
    if not (self.dtype.is_floating_point or self.dtype.is_complex):
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{self.dtype.scalar_name}")


@op("SoftMarginLossBackward0", name="_soft_margin_loss", method=False, function=False,
    promote=NONE, tensors=("self", "target"), check=_soft_margin_check,
    reduced_in_float=False, self=_soft_margin_grad)
def soft_margin_loss(self, target, reduction):
    """torch's in-place steps ``neg(self).mul_(target).exp_().log1p_()`` in the input's
    dtype (the product in the promoted one, each step rounded to the input's; float16 and
    bfloat16 by torch's float kernels), then reduced."""
    from . import _loss_math, _sleef_ext, _vml
    dt = self.dtype
    comp = np.result_type(self, target)
    half = dt.itemsize == 2
    if comp.itemsize == 2:
        comp = np.float32
    with np.errstate(all="ignore"):
        p = (-self.astype(comp) * target.astype(comp)).astype(dt)
        if half:
            z = _sleef.expf(p.astype(np.float32)).astype(dt).astype(np.float32)
            loss = _sleef_ext.unary("log1p", z).astype(dt)
            return _loss_math.reduce(loss.astype(np.float32), reduction).astype(dt)
        z = _vml.exp(p)
        loss = _sleef_ext.unary("log1p", z) if dt in (np.float32, np.float64) else xp.log1p(z)
    return _loss_math.reduce(loss, reduction)


def _multi_margin_grad(grad, self, target, p, margin, weight, reduction):
    g = _wrap(_multi_margin_backward(self._data, target._data, p, margin,
                                     None if weight is None else weight._data, reduction))
    g = g * (grad if reduction or grad.ndim == 0
             else grad.reshape(grad.shape + (1,) * (self.ndim - grad.ndim)))
    return no_double_backward(g, self, "multi_margin_loss_backward")


def _multi_margin_backward(x, target, p, margin, weight, reduction):
    """``multi_margin_loss_backward_cpu_kernel`` before its product with the gradient: the
    hinge ``(margin - x[y]) + x[d]`` and its factor ``g`` or ``(2 g) z`` (times ``weight[y]``)
    in the input's type, ``g`` the double ``1 / (N·C)`` (mean) or ``1 / C`` rounded once, and
    the target's entry minus each active factor in class order."""
    dt = x.dtype.type
    x2 = x if x.ndim == 2 else x.reshape(1, -1)
    n, c = x2.shape
    rows, t = np.arange(n), target.reshape(-1).astype(np.int64)
    g = dt(1.0 / (n * c) if reduction == 1 else 1.0 / c)
    z = (dt(margin) - x2[rows, t])[:, None] + x2
    on = z > 0
    on[rows, t] = False
    h = np.full(z.shape, g) if p == 1 else (g * dt(2)) * z
    if weight is not None:
        h = h * weight[t][:, None]
    h = np.where(on, h, dt(0))
    acc = np.zeros(n, x.dtype)
    for d in range(c):
        acc = acc - h[:, d]
    h[rows, t] = acc
    return h.reshape(x.shape)


@op("MultiMarginLossBackward0", name="_multi_margin_loss", method=False, function=False,
    promote=NONE, tensors=("self", "target", "weight"), self=_multi_margin_grad)
def multi_margin_loss(self, target, p, margin, weight, reduction):
    """``sum_{d != y} max(0, margin - x[y] + x[d])^p / C`` per sample, as
    ``multi_margin_loss_cpu_kernel``: each sample's hinges added in class order in the input's
    type, the samples' sums (``mean``/``sum``) in double, one after another."""
    x = self if self.ndim == 2 else self.reshape(1, -1)
    t = target.reshape(-1).astype(np.int64)
    n, c = x.shape
    if t.size and (t.min() < 0 or t.max() >= c):
        raise RuntimeError("target out of range")
    rows = np.arange(n)
    z = (self.dtype.type(margin) - x[rows, t])[:, None] + x
    on = z > 0
    on[rows, t] = False
    h = z if p == 1 else z * z
    if weight is not None:
        h = h * weight[t][:, None]
    h = np.where(on, h, self.dtype.type(0))
    per = np.zeros(n, self.dtype)
    for d in range(c):
        per = per + h[:, d]
    per = per / self.dtype.type(c)
    if reduction == 0:
        return per.reshape(-1) if target.ndim else per.reshape(())
    if not n:
        return np.array(np.nan if reduction == 1 else 0, self.dtype)
    total = np.add.accumulate(per.astype(np.float64))[-1]
    return np.array(total / n if reduction == 1 else total).astype(self.dtype)


def _multilabel_terms(x, target):
    """(N, C) arrays: ``is_target`` and, per target ``j`` and class ``i`` not a target, the
    active hinges ``1 - (x[y_j] - x[i]) > 0``: the loss sums and the per-class counts."""
    x2 = x if x.ndim == 2 else x.reshape(1, -1)
    t2 = target if target.ndim == 2 else target.reshape(1, -1)
    n, c = x2.shape
    if t2.size and (t2.min() < -1 or t2.max() >= c):
        raise RuntimeError("argument #2 'target' is out of range")
    ends = np.where((t2 == -1).any(1), (t2 == -1).argmax(1), c)
    valid = np.arange(c)[None, :] < ends[:, None]           # target slots before the first -1
    tt = np.where(valid, t2, 0)
    is_target = np.zeros((n, c), bool)
    rows = np.repeat(np.arange(n), c).reshape(n, c)
    is_target[rows[valid], tt[valid]] = True
    xt = np.take_along_axis(x2, tt, 1)                       # x[y_j]: (N, J)
    one = x2.dtype.type(1)
    z = (one - xt)[:, :, None] + x2[:, None, :]              # (N, J, C): ``1 - x[y_j] + x[i]``
    on = (z > 0) & valid[:, :, None] & ~is_target[:, None, :]
    return x2, tt, valid, on, z, is_target


def _multilabel_grad(grad, self, target, reduction):
    """torch's backward frame: ``g = 1 / (N C)`` (mean) or ``1 / C`` as the type, added (to
    each active class) or subtracted (from the target) one hinge at a time in the type."""
    x2, tt, valid, on, _, _ = _multilabel_terms(self._data, target._data)
    n, c = x2.shape
    dt = x2.dtype.type
    step = dt(1.0 / (n * c) if reduction == 1 else 1.0 / c)
    counts = np.zeros((n, c), np.int64)
    counts += on.sum(1)                                      # + for each active class
    np.add.at(counts, (np.repeat(np.arange(n), tt.shape[1]).reshape(tt.shape)[valid],
                       tt[valid]), -on.sum(2)[valid])        # - for each target slot
    k = int(np.abs(counts).max()) if counts.size else 0
    runs = np.zeros(k + 1, x2.dtype)                         # step added to 0, k times
    for i in range(1, k + 1):
        runs[i] = runs[i - 1] + step
    g = np.where(counts < 0, -runs[-counts], runs[np.abs(counts)])
    g = _wrap(g.reshape(self.shape).astype(self._data.dtype))
    g = g * (grad if reduction else grad.reshape(grad.shape + (1,) * (self.ndim - grad.ndim)))
    return no_double_backward(g, self, "multilabel_margin_loss_backward")


@op("MultilabelMarginLossBackward0", name="_multilabel_margin_loss", method=False,
    function=False, promote=NONE, tensors=("self", "target"), self=_multilabel_grad)
def multilabel_margin_loss(self, target, reduction):
    """``sum_j sum_{i not a target} max(0, 1 - (x[y_j] - x[i])) / C`` per sample, reduced."""
    x2, _, _, on, z, _ = _multilabel_terms(self, target)
    n, c = x2.shape
    # (each sample's hinges added in order, target slot by slot, in double (acc_type), the
    # sample's sum returned in the type)
    terms = np.where(on, z, 0).astype(np.float64).reshape(n, -1)
    sums = np.add.accumulate(terms, axis=1)[:, -1] if terms.shape[1] else np.zeros(n)
    sums = sums.astype(self.dtype)
    if reduction == 0:
        per = sums / self.dtype.type(c)
        return per if self.ndim == 2 else per.reshape(())
    total = np.add.accumulate(sums.astype(np.float64))[-1] if n else 0.0
    total = total / c
    if reduction == 1:
        with np.errstate(invalid="ignore", divide="ignore"):
            total = total / n
    return np.array(total).astype(self.dtype)


# ============================================================================ channel shuffle

def _shuffle_np(x, groups):
    n, c = x.shape[:2]
    return x.reshape((n, groups, c // groups) + x.shape[2:]).swapaxes(1, 2).reshape(x.shape)


@op("ChannelShuffleBackward0", name="_channel_shuffle", method=False, function=False,
    promote=NONE, self=lambda grad, self_shape, groups:
    channel_shuffle(grad, self_shape[1] // groups))
def channel_shuffle(self, groups):
    """Channels regrouped: (N, g, C/g, *) transposed to (N, C/g, g, *)."""
    return _shuffle_np(self, groups)


native_channel_shuffle = op("NotImplemented", name="_native_channel_shuffle", method=False,
                            function=False, promote=NONE,
                            self=_raise("derivative for aten::native_channel_shuffle is not "
                                        "implemented"))(
    lambda self, groups: _shuffle_np(self, groups))


# ============================================================================ conv_tbc

def _conv_tbc_np(x, w, b, pad):
    k = w.shape[0]
    if pad >= 0:
        xpad = np.pad(x, ((pad, pad), (0, 0), (0, 0)))
    else:
        xpad = x[-pad:x.shape[0] + pad]
    t_out = xpad.shape[0] - k + 1
    out = np.broadcast_to(b, (t_out, x.shape[1], w.shape[2])).astype(x.dtype)
    for i in range(k):
        out = out + xpad[i:i + t_out] @ w[i]
    return out.astype(x.dtype)


def _tbc_weight_grad(grad, input, weight, pad):
    k = weight.shape[0]
    t_out = grad.shape[0]
    xpad = _nn.constant_pad_nd(input, (0, 0, 0, 0, pad, pad)) if pad else input
    g = grad.reshape(-1, grad.shape[2])
    from .shape import stack
    return stack([xpad[i:i + t_out].reshape(-1, input.shape[2]).t().matmul(g)
                  for i in range(k)])


@op("ConvTbcBackward0", name="_conv_tbc", method=False, function=False, promote=NONE,
    self=lambda grad, weight, pad: conv_tbc(
        grad, weight.flip(0).transpose(1, 2),
        _wrap(np.zeros(weight.shape[1], weight._data.dtype)), weight.shape[0] - 1 - pad),
    weight=lambda grad, self, weight, pad: _tbc_weight_grad(grad, self, weight, pad),
    bias=lambda grad: grad.sum((0, 1)))
def conv_tbc(self, weight, bias, pad):
    """Temporal convolution of (time, batch, channel) input with a (k, in, out) weight."""
    return _conv_tbc_np(self, weight, bias, pad)


"""The rest of ``nn.functional``: shrinkage and randomized activations and the in-place
activation functions, LP, unpooling, fractional and 3-d adaptive max pooling, the margin,
Poisson, triplet and CTC losses, distances, alpha dropout, local response norm, channel
shuffle, ``conv_tbc`` and the deprecated upsampling wrappers.

Primitives of torch are one op each (:mod:`ember._ops.nn_extra`, ``pool_extra``, ``ctc``);
the others are composed exactly as torch composes them (in Python or in ATen's C++), so the
``grad_fn`` chains are torch's. Re-exported by :mod:`.functional`.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from .. import _dtype as _D
from .. import _factories as _Fac
from .. import _ops
from .._memory_format import contiguous_format as _contiguous
from .._ops import ctc as _C
from .._ops import nn as _N
from .._ops import nn_extra as _X
from .._ops import pool_extra as _P
from .._ops.reduction import vector_norm as _vector_norm
from .._ops.util import broadcast_shapes as _broadcast_shapes
from .._tensor import Tensor
from ..amp.autocast_mode import _fp32_inputs
from ..autograd.grad_mode import no_grad
from ..overrides import (  # noqa: F401  (torch's F re-exports them)
    handle_torch_function,
    has_torch_function,
    has_torch_function_unary,
    has_torch_function_variadic,
)
from ..random import default_generator
from . import functional as F

_wrap = Tensor._wrap


def _tuple(x, n):
    if isinstance(x, (tuple, list)):
        return tuple(int(v) for v in x) * (n if len(x) == 1 and n > 1 else 1)
    return (int(x),) * n


def _reduction(size_average, reduce, reduction):
    """torch's reduction number, after the legacy arguments."""
    return _N.reduction_enum(F._loss_reduction(size_average, reduce, reduction))


def _apply(loss, reduction):
    """ATen's ``apply_loss_reduction``."""
    if reduction == 1:
        return loss.mean()
    if reduction == 2:
        return loss.sum()
    return loss


# ============================================================================ activations

def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``x`` where ``|x| > lambd``, else 0 (node ``HardshrinkBackward0``)."""
    return _X.hardshrink(input, lambd)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""
    top = float(np.finfo(input._data.dtype).max) if input.dtype.is_floating_point else 0.0
    if not 0 <= lambd <= top:
        raise RuntimeError(f"lambda must be in range [0, {top:g}] for input dtype "
                           f"{input.dtype.scalar_name}, but found {lambd:g}")
    return _X.softshrink(input, lambd)


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          inplace: bool = False) -> Tensor:
    """Leaky ReLU whose negative slope is drawn from ``U(lower, upper)`` per element in
    training (torch's stream) and is ``(lower + upper) / 2`` otherwise."""
    return _rrelu(input, lower, upper, training, inplace, None)


def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
           training: bool = False, generator=None) -> Tensor:
    """In-place :func:`rrelu` (node ``RreluWithNoiseBackward1``); the noise is drawn from
    ``generator`` (default: the global one)."""
    return _rrelu(input, lower, upper, training, True, generator)


def _rrelu(input, lower, upper, training, inplace, generator):
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if not input.dtype.is_floating_point:
        kernel = "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    return _X.rrelu(input, lower, upper, training, inplace, generator or default_generator)


def elu_(input: Tensor, alpha: float = 1.0, scale: float = 1.0,
         input_scale: float = 1.0) -> Tensor:
    """In-place ELU, ``scale * (x if x > 0 else alpha * (exp(x * input_scale) - 1))`` (node
    ``EluBackward1``)."""
    return _X.inplace(_N.elu, input, alpha, scale, input_scale)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """In-place CELU (node ``CeluBackward1``)."""
    return _X.inplace(_N.celu, input, alpha)


def selu_(input: Tensor) -> Tensor:
    """In-place SELU (node ``EluBackward1``)."""
    return _X.inplace(_N.elu, input, _N._SELU_ALPHA, _N._SELU_SCALE, 1.0)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """In-place hardtanh (node ``HardtanhBackward0``)."""
    return _X.inplace(_N.hardtanh, input, min_val, max_val)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """In-place leaky ReLU (node ``LeakyReluBackward1``)."""
    return _X.inplace(_N.leaky_relu, input, negative_slope)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    """In-place threshold (node ``ThresholdBackward1``)."""
    return _X.inplace(_N.threshold, input, threshold, value)


def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10,
                   dim: int = -1) -> Tensor:
    """Softmax of ``(logits + Gumbel noise) / tau``; ``hard``: one-hot in forward with the
    soft gradient (straight through). The noise is ``-log(Exp(1))``, torch's stream."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    # (torch draws into legacy_contiguous_format: C order whatever the logits' layout)
    gumbels = -_Fac.empty_like(logits, memory_format=_contiguous).exponential_().log()
    gumbels = (logits + gumbels) / tau
    y_soft = gumbels.softmax(dim)
    if hard:
        index = y_soft.max(dim, keepdim=True)[1]
        y_hard = _Fac.zeros_like(logits, memory_format=_contiguous).scatter_(dim, index, 1.0)
        return y_hard - y_soft.detach() + y_soft
    return y_soft


# ============================================================================ dropout

_SELU_ALPHA = 1.7580993408473766


def _alpha_dropout(input, p, train, inplace, feature):
    F._check_dropout_p(p)
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        zero = _Fac.zeros((), dtype=input.dtype)
        return input.mul_(zero) if inplace else input * zero
    if feature:
        if input.ndim < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        shape = tuple(input.shape[:2]) + (1,) * (input.ndim - 2)
        noise = _wrap(np.empty(shape, input._data.dtype))
    else:
        noise = _Fac.empty_like(input)      # the input's layout: draws in its memory order
    noise.bernoulli_(1 - p)
    a = 1.0 / math.sqrt((_SELU_ALPHA * _SELU_ALPHA * p + 1) * (1 - p))
    b = noise.add(-1).mul_(_SELU_ALPHA * a).add_(_SELU_ALPHA * a * p)
    noise.mul_(a)
    return (input.mul_(noise) if inplace else input * noise).add_(b)


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                  inplace: bool = False) -> Tensor:
    """Dropout that keeps SELU's self-normalising mean and variance."""
    return _alpha_dropout(input, p, training, inplace, False)


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                          inplace: bool = False) -> Tensor:
    """Alpha dropout of whole channels."""
    return _alpha_dropout(input, p, training, inplace, True)


# ============================================================================ pooling

def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    """:func:`max_pool1d` values and indices."""
    return F.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    """:func:`max_pool2d` values and indices."""
    return F.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    """:func:`max_pool3d` values and indices."""
    return F.max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    """:func:`adaptive_max_pool1d` values and indices."""
    return F.adaptive_max_pool1d(input, output_size, True)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    """:func:`adaptive_max_pool2d` values and indices."""
    return F.adaptive_max_pool2d(input, output_size, True)


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    """:func:`adaptive_max_pool3d` values and indices."""
    size = F._adaptive_size(output_size, input, 3)
    if input.ndim not in (4, 5) or any(s == 0 for s in input.shape[input.ndim - 4 + 1:]):
        raise RuntimeError("adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: "
                           f"{list(input.shape)}")
    if len(size) != 3:
        raise RuntimeError("adaptive_max_pool3d(): internal error: output_size.size() must be 3")
    idx = _wrap(_P.adaptive_max_indices_nd(input._data, size))
    return tuple(_N._adaptive_max_gather[3](input, idx))


def adaptive_max_pool3d(input: Tensor, output_size, return_indices: bool = False):
    """Max over torch's adaptive windows of the last 3 dims (``AdaptiveMaxPool3DBackward0``)."""
    out, idx = adaptive_max_pool3d_with_indices(input, output_size)
    return (out, idx) if return_indices else out


def lp_pool1d(input: Tensor, norm_type, kernel_size, stride=None, ceil_mode: bool = False):
    """``(sum over each window of x^p)^(1/p)``, composed as torch (avg pool times k)."""
    if isinstance(norm_type, (int, float)):
        if norm_type == float("inf"):
            return F.max_pool1d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -F.max_pool1d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    out = F.avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return (_ops.sign(out) * F.relu(_ops.abs(out))).mul(kernel_size).pow(1.0 / norm_type)


def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, nd):
    k = _tuple(kernel_size, nd)
    pool = (F.max_pool2d, F.max_pool3d)[nd - 2]
    if isinstance(norm_type, (int, float)):
        if norm_type == float("inf"):
            return pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    avg = (F.avg_pool2d, F.avg_pool3d)[nd - 2]
    out = avg(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return (_ops.sign(out) * F.relu(_ops.abs(out))).mul(math.prod(k)).pow(1.0 / norm_type)


def lp_pool2d(input: Tensor, norm_type, kernel_size, stride=None, ceil_mode: bool = False):
    """2-D power-average pooling."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)


def lp_pool3d(input: Tensor, norm_type, kernel_size, stride=None, ceil_mode: bool = False):
    """3-D power-average pooling."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3)


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    nd = len(kernel_size)
    default = [(input.shape[input.ndim - nd + d] - 1) * stride[d] + kernel_size[d]
               - 2 * padding[d] for d in range(nd)]
    if output_size is None:
        ret = default
    else:
        if len(output_size) == nd + 2:
            output_size = output_size[2:]
        if len(output_size) != nd:
            raise ValueError(f"output_size should be a sequence containing {nd} or {nd + 2} "
                             f"elements, but it has a length of '{len(output_size)}'")
        for d in range(nd):
            lo, hi = default[d] - stride[d], default[d] + stride[d]
            if not lo < output_size[d] < hi:
                raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be '
                                 f"between {lo} and {hi})")
        ret = output_size
    for d in range(nd):
        if ret[d] < 0:
            raise ValueError("max_unpooling: output_size must contain non-negative spatial "
                             f"dimensions, but got output_size[{d}]={ret[d]}")
    return [int(v) for v in ret]


def _unpool(input, indices, kernel_size, stride, padding, output_size, nd):
    k = _tuple(kernel_size, nd)
    s = _tuple(stride, nd) if stride is not None else k
    p = _tuple(padding, nd)
    size = _unpool_output_size(input, k, s, p, output_size)
    if nd == 1:
        return max_unpool(input.unsqueeze(-1), indices.unsqueeze(-1), size + [1],
                          2).squeeze(-1)
    return max_unpool(input, indices, size, nd, s, p)


def max_unpool(input, indices, output_size, nd, stride=None, padding=None):
    """ATen's ``max_unpool2d(self, indices, output_size)`` / ``max_unpool3d(…, stride,
    padding)``, its checks in torch's order."""
    if indices.dtype is not _D.int64:
        raise RuntimeError("elements in indices should be type int64" + (
            f" but got: {indices.dtype.scalar_name}" if nd == 2 else ""))
    output_size = [int(v) for v in output_size]
    lengths = [("output_size", output_size, "")]
    if nd == 3:
        lengths += [("stride", list(stride), ":"), ("padding", list(padding), ":")]
    if nd == 2:
        _unpool_lengths(lengths, nd)
    if input.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"Input to max_unpooling{nd}d should be a {nd + 1}d or {nd + 2}d "
                           f"Tensor, but got a tensor with {input.ndim} dimensions.")
    if nd == 3:
        _unpool_lengths(lengths, nd)
    if tuple(input.shape) != tuple(indices.shape):
        raise RuntimeError("Expected shape of indices to be same as that of the input tensor "
                           f"({list(input.shape)}) but got indices tensor with shape: "
                           f"{list(indices.shape)}")
    for i in range(1, input.ndim):
        if input.shape[i] == 0:
            raise RuntimeError(f"max_unpooling{nd}d_forward_out_cpu(): Expected input to have "
                               "non-zero size for non-batch dimensions, but got "
                               f"{list(input.shape)} with dimension {i} being empty.")
    if nd == 3 and not all(v > 0 for v in stride):
        raise RuntimeError(f"strides should be greater than zero, but got stride: "
                           f"{list(stride)}")
    if any(v < 0 for v in output_size):
        raise RuntimeError(f"max_unpooling{nd}d(): output_size must contain non-negative "
                           f"spatial dimensions, but got output_size={tuple(output_size)}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"max_unpool{nd}d" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    return _P.max_unpool[nd](input, indices, tuple(output_size))


def _unpool_lengths(lengths, nd):
    names = ("two", "(height, width)") if nd == 2 else ("three", "(depth, height, width)")
    for what, value, colon in lengths:
        if len(value) != nd:
            raise RuntimeError(f"There should be exactly {names[0]} elements {names[1]} in "
                               f"{what}, but got{colon} {len(value)} elements.")


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Place each value at its max-pooling index in zeros (the partial inverse of
    :func:`max_pool1d`)."""
    return _unpool(input, indices, kernel_size, stride, padding, output_size, 1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of :func:`max_pool2d` (node ``MaxUnpool2DBackward0``)."""
    return _unpool(input, indices, kernel_size, stride, padding, output_size, 2)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of :func:`max_pool3d` (node ``MaxUnpool3DBackward0``)."""
    return _unpool(input, indices, kernel_size, stride, padding, output_size, 3)


def _fractional(input, kernel_size, output_size, output_ratio, samples, nd):
    name = f"fractional_max_pool{nd}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an "
                         "output_ratio")
    if output_size is None:
        if nd == 2 and len(output_ratio) > 2:
            raise ValueError(f"{name} requires output_ratio to either be a single Int or "
                             "tuple of Ints.")
        ratio = output_ratio if isinstance(output_ratio, (list, tuple)) else (
            output_ratio,) * nd
        ratio = tuple(ratio) * (nd if len(ratio) == 1 else 1)
        output_size = [int(input.shape[input.ndim - nd + d] * ratio[d]) for d in range(nd)]
    if samples is None:
        n_batch = 1 if input.ndim == nd + 1 else input.shape[0]
        samples = _Fac.rand(n_batch, input.size(-nd - 1), nd, dtype=input.dtype,
                            device=input.device)
    return fractional_max_pool(input, kernel_size, output_size, samples, nd)


def fractional_max_pool(input, kernel_size, output_size, random_samples, nd):
    """ATen's ``fractional_max_pool2d``/``3d(self, kernel_size, output_size,
    random_samples)``: ``(output, indices)``, its checks in torch's order."""
    name = f"fractional_max_pool{nd}d"
    k, o = (_int_list(v, nd) for v in (kernel_size, output_size))
    tuples = "tuple of Ints" if nd == 2 else "tuple of three Ints"
    for what, v in (("kernel_size", k), ("output_size", o)):
        if len(v) != nd:
            raise RuntimeError(f"{name}: {what} must either be a single Int or {tuples}")
    where = name if nd == 2 else name + "_out"
    if input.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"{where}(): Expected {nd + 1}D or {nd + 2}D tensor, but got: "
                           f"{list(input.shape)}")
    for i in range(1, input.ndim):
        if input.shape[i] == 0:
            raise RuntimeError(f"{where}(): Expected input to have non-zero size for "
                               f"non-batch dimensions, but got{list(input.shape)} with "
                               f"dimension {i} being empty.")
    names = ("time", "height", "width")[3 - nd:]
    for d in range(nd):
        size = input.shape[input.ndim - nd + d]
        if o[d] + k[d] - 1 > size or (nd == 3 and o[d] + k[d] - 1 == size):
            raise RuntimeError(f"{where}(): pool {names[d]} {k[d]} too large relative to "
                               f"input {names[d]} {size}")
    samples = random_samples
    if samples.dtype is not input.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.ndim != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.ndim}")
    batch = 1 if input.ndim == nd + 1 else input.shape[0]
    if samples.shape[0] < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.shape[1] != input.shape[-nd - 1]:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if samples.shape[2] != nd:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {nd}; got "
                           f"{samples.shape[2]}.")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"{name}_out_frame" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    x = input if input.ndim == nd + 2 else input.unsqueeze(0)
    idx = _P.fractional_indices(x._data, k, o, samples._data[:x.shape[0]]) if x.shape[0] \
        else np.zeros(x.shape[:2] + tuple(o), np.int64)
    if input.ndim == nd + 1:
        idx = idx[0]
    idx = _wrap(np.ascontiguousarray(idx))
    return tuple(_P.fractional_gather[nd](input, idx))


def _int_list(value, n):
    """An ``int[n]`` argument: a single number stands for all ``n``."""
    return [int(value)] * n if isinstance(value, (int, np.integer)) else [int(v) for v in value]


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    """Fractional max pooling values and indices (see :func:`fractional_max_pool2d`)."""
    return _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 2)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """Max over pseudo-random windows (torch's interval sequences); the samples, when not
    given, are ``torch.rand(N, C, 2)`` from torch's stream."""
    out, idx = _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 2)
    return (out, idx) if return_indices else out


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    """3-D fractional max pooling values and indices."""
    return _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 3)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """3-D fractional max pooling (samples ``torch.rand(N, C, 3)``)."""
    out, idx = _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 3)
    return (out, idx) if return_indices else out


# ============================================================================ distances

def pdist(input: Tensor, p: float = 2) -> Tensor:
    """The p-norm distance of every pair of rows ``i < j`` (node ``PdistBackward0``)."""
    if input.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    if not input.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    if input.shape[0] > 1 and input.shape[1]:
        from .._ops.distances import check_reduced
        check_reduced("pdist", input)
    return _X.pdist_forward(input.contiguous(), float(p))


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    """``||x1 - x2 + eps||_p`` over the last dim (ATen: ``norm(x1 - x2 + eps, p, -1)``)."""
    dim = max(x1.ndim, x2.ndim) - 1
    return _X.norm_dim(_X.add_scalar(x1 - x2, eps), float(p), max(dim, 0), keepdim)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """Cosine of the angle between ``x1`` and ``x2`` along ``dim``: each divided by its
    norm (clamped to ``eps``) first, as ATen."""
    dt = _D.result_type(x1, x2)
    if not dt.is_floating_point:
        raise RuntimeError("expected common dtype to be floating point, yet common dtype is "
                           f"{dt.scalar_name}")
    # (the parameters kept: a call torch's parser refuses is read back from them)
    a = x1 if x1.dtype.is_floating_point else x1.to(dt)
    b = x2 if x2.dtype.is_floating_point else x2.to(dt)
    if a.shape != b.shape:
        shape = _broadcast_shapes(a.shape, b.shape)
        a = a if a.shape == shape else a.expand(shape)
        b = b if b.shape == shape else b.expand(shape)
    n1 = _vector_norm(a, 2, dim, True).clone()
    n2 = _vector_norm(b, 2, dim, True).clone()
    with no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return ((a / n1) * (b / n2)).sum(dim)


# ============================================================================ normalisation

def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75,
                        k: float = 1.0) -> Tensor:
    """Normalise each element by the mean of squares over ``size`` neighbouring channels."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          "
                         f"input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = F.pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = F.avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = F.pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = F.avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


def _shuffle_check(input, groups):
    if groups <= 0:
        raise RuntimeError("Number of groups to divide channels in must be positive. Value of "
                           f"groups:{groups}")
    if input.ndim <= 2:
        raise RuntimeError("channel_shuffle expects input with > 2 dims, but got input with "
                           f"sizes {list(input.shape)}")
    c = input.shape[1]
    if c % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels "
                           f"and {groups} groups.")


def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Regroup the channels of (N, C, *) input (node ``ChannelShuffleBackward0``)."""
    _shuffle_check(input, groups)
    return _X.channel_shuffle(input, int(groups))


def native_channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """:func:`channel_shuffle`'s native kernel (torch gives it no derivative)."""
    _shuffle_check(input, groups)
    return _X.native_channel_shuffle(input, int(groups))


# ============================================================================ convolution

def conv_tbc(input: Tensor, weight: Tensor, bias: Tensor, pad: int = 0) -> Tensor:
    """1-D convolution of (time, batch, channel) input (node ``ConvTbcBackward0``)."""
    if input.ndim != 3:
        raise RuntimeError("Input must have 3 dims: time, batch, in_channel")
    if weight.ndim != 3:
        raise RuntimeError("Weight tensor must have 3 dims: kernel_width, in_channels, "
                           "out_channels.")
    if bias.ndim != 1:
        raise RuntimeError("Bias must be 1-D")
    if input.shape[2] != weight.shape[1]:
        raise RuntimeError("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
    if weight.shape[2] != bias.shape[0]:
        raise RuntimeError("Bias size must equal dim 2 in the weight tensor (output channels).")
    return _X.conv_tbc(input, weight, bias, int(pad))


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: :func:`interpolate` with ``mode='nearest'``."""
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return F.interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: :func:`interpolate` with ``mode='bilinear', align_corners=True``."""
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return F.interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# ============================================================================ losses

def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,
                         size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """``x`` where ``target == 1``, ``max(0, margin - x)`` where ``target == -1``."""
    red = _reduction(size_average, reduce, reduction)
    input, target = _fp32_inputs(input, target)
    zeros = _Fac.zeros_like(input)
    margin_clamp = _ops.sub(_Fac.tensor(float(margin), dtype=_D.float64), input).clamp_min_(0)
    out_margin = _ops.where(target != 1, margin_clamp, zeros)
    out_self = _ops.where(target != -1, input, zeros)
    return _apply(out_margin + out_self, red)


def soft_margin_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
                     reduction: str = "mean") -> Tensor:
    """``log(1 + exp(-target * input))`` (node ``SoftMarginLossBackward0``)."""
    red = _reduction(size_average, reduce, reduction)
    if tuple(input.shape) != tuple(target.shape):
        input, target = _ops.broadcast_tensors(input, target)
    return _X.soft_margin_loss(input, target, red)


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0,
                      weight: Tensor | None = None, size_average=None, reduce=None,
                      reduction: str = "mean") -> Tensor:
    """Multi-class hinge loss ``sum_{d != y} max(0, margin - x[y] + x[d])^p / C``."""
    red = _reduction(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    nd = input.ndim
    if not ((nd == 2 and input.shape[1] != 0) or (nd == 1 and input.shape[0] != 0) or nd == 0):
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch "
                           f"size, but got: {list(input.shape)}")
    nframe = 1 if nd <= 1 else input.shape[0]
    dim = 1 if nd == 0 else input.shape[-1]
    if not (target.ndim <= 1 and target.numel() == nframe):
        raise RuntimeError("multi_margin_loss: target tensor should be 1-D with size equal to "
                           "the number of input samples (batch size). Expected target size "
                           f"[{nframe}], but got {list(target.shape)}. Input has shape "
                           f"{list(input.shape)}.")
    if weight is not None and not (weight.ndim <= 1 and weight.numel() == dim):
        raise RuntimeError(f"inconsistent weight size, expected {dim} but got "
                           f"{list(weight.shape)}")
    out = _X.multi_margin_loss(input, target, p, float(margin), weight, red)
    return out


def multilabel_margin_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
                           reduction: str = "mean") -> Tensor:
    """Multi-label hinge loss over the targets listed before the first ``-1``."""
    red = _reduction(size_average, reduce, reduction)
    nd = input.ndim
    if not ((nd == 2 and input.shape[1] != 0) or (nd == 1 and input.shape[0] != 0) or nd == 0):
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch "
                           f"size, but got: {list(input.shape)}")
    if nd <= 1:
        dim = 1 if nd == 0 else input.shape[0]
        ok = target.ndim <= 1 and target.numel() == dim
    else:
        ok = target.ndim == 2 and tuple(target.shape) == tuple(input.shape)
    if not ok:
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of "
                           f"size: {list(input.shape)}")
    return _X.multilabel_margin_loss(input, target, red)


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                size_average=None, reduce=None,
                                reduction: str = "mean") -> Tensor:
    """Binary cross entropy of logits, averaged over classes, per sample."""
    if size_average is not None or reduce is not None:
        reduction = F._legacy_reduction(size_average, reduce, reduction)
    loss = -(target * F.logsigmoid(input) + (1 - target) * F.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    C = input.size(class_dim)
    loss = loss.sum(dim=class_dim) / C
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     size_average=None, eps: float = 1e-8, reduce=None,
                     reduction: str = "mean") -> Tensor:
    """Poisson negative log-likelihood: ``exp(x) - t * x`` (``log_input``) or
    ``x - t * log(x + eps)``; ``full`` adds Stirling's term where ``t > 1``."""
    input, target = _fp32_inputs(input, target)
    if size_average is not None or reduce is not None:
        reduction = F._legacy_reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * _X.add_scalar(input, eps).log()
    if full:
        stirling = target * target.log() - target + _N.mul_scalar(
            _N.mul_scalar(target, 2 * math.pi).log(), 0.5)
        loss += stirling.masked_fill(target <= 1, 0)
    return _apply(loss, _N.reduction_enum(reduction))


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0,
                        p: float = 2, eps: float = 1e-6, swap: bool = False, size_average=None,
                        reduce=None, reduction: str = "mean") -> Tensor:
    """``max(0, d(a, p) - d(a, n) + margin)`` with pairwise p-norm distances."""
    red = _reduction(size_average, reduce, reduction)
    anchor, positive, negative = _fp32_inputs(anchor, positive, negative)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    return _triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, red)


def _triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, red):
    """ATen's ``triplet_margin_loss`` (``red``: the reduction's number)."""
    a, pd, n = anchor.ndim, positive.ndim, negative.ndim
    if not (a == pd and pd == n):
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the "
                           f"same number of dimensions, but got: anchor {a}D, positive {pd}D, "
                           f"and negative {n}D inputs")
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = _ops.minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    out = _ops.clamp_min(_X.add_scalar(dist_pos, margin) - dist_neg, 0)
    return _apply(out, red)


def triplet_margin_with_distance_loss(anchor: Tensor, positive: Tensor, negative: Tensor, *,
                                      distance_function=None, margin: float = 1.0,
                                      swap: bool = False, reduction: str = "mean") -> Tensor:
    """:func:`triplet_margin_loss` with any ``distance_function`` (default
    :func:`pairwise_distance`)."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a, pd, n = anchor.ndim, positive.ndim, negative.ndim
    if not (a == pd and pd == n):
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the "
                           f"same number of dimensions, but got: anchor {a}D, positive {pd}D, "
                           f"and negative {n}D inputs")
    if distance_function is None:
        distance_function = pairwise_distance
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:
        dist_neg = _ops.minimum(dist_neg, distance_function(positive, negative))
    loss = _ops.clamp_min(margin + dist_pos - dist_neg, 0)
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.mean()
    return loss


def gaussian_nll_loss(input: Tensor, target: Tensor, var, full: bool = False,
                      eps: float = 1e-6, reduction: str = "mean") -> Tensor:
    """Gaussian negative log-likelihood with predicted variance ``var`` (clamped to ``eps``
    without gradient), homoscedastic or heteroscedastic."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * _Fac.ones_like(input)
    elif bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = var.unsqueeze(-1)
        elif input.ndim == var.ndim and sum(
                y for x, y in zip(input.size(), var.size()) if x != y) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _lengths(x, name):
    if isinstance(x, Tensor):
        if x.dtype.is_floating_point or x.dtype.is_complex or str(x.dtype) == "torch.bool":
            raise RuntimeError(f"{name} must be integral")
        return [int(v) for v in x._data.reshape(-1)]
    return [int(v) for v in x]


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths, target_lengths, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """Connectionist temporal classification loss of (T, N, C) log-probabilities (torch's
    algorithm and gradient, node ``CtcLossBackward0``)."""
    red = _N.reduction_enum(reduction)
    il = _lengths(input_lengths, "input_lengths")
    tl = _lengths(target_lengths, "target_lengths")
    batched = log_probs.ndim == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    tg = targets
    if lp.ndim != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {lp.ndim}-dimensional "
                           "tensor for argument #1 'log_probs' (while checking arguments for "
                           "ctc_loss_cpu)")
    T, N, C = lp.shape
    if not 0 <= blank < C:
        raise RuntimeError("blank must be in label range")
    if len(il) != N:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(tl) != N:
        raise RuntimeError("target_lengths must be of size batch_size")
    for n in il:
        if n < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got "
                               f"value {n} (while checking arguments for "
                               "ctc_loss_allocate_outputs)")
        if n > T:
            raise RuntimeError(f"Expected input_lengths to have value at most {T}, but got "
                               f"value {n} (while checking arguments for "
                               "ctc_loss_allocate_outputs)")
    for n in tl:
        if n < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got "
                               f"value {n} (while checking arguments for "
                               "ctc_loss_allocate_outputs)")
    if tg.ndim == 2:
        for n in tl:
            if n > tg.shape[1]:
                raise RuntimeError(f"Expected tensor to have size at least {n} at dimension "
                                   f"1, but got size {tg.shape[1]} for argument #2 'targets' "
                                   "(while checking arguments for ctc_loss_allocate_outputs)")
    elif tg.shape[0] != sum(tl):
        raise RuntimeError(f"Expected tensor to have size {sum(tl)} at dimension 0, but got "
                           f"size {tg.shape[0]} for argument #2 'targets' (while checking "
                           "arguments for ctc_loss_allocate_outputs)")
    res = _C.ctc_loss(lp, tg, tuple(il), tuple(tl), int(blank), bool(zero_infinity))
    if zero_infinity:
        res = _ops.where(res == float("inf"), _Fac.zeros((), dtype=res.dtype), res)
    if red == 1:
        lengths = _Fac.tensor(tl, dtype=res.dtype).clamp_min(1)
        out = (res / lengths).mean()
    elif red == 2:
        out = res.sum()
    else:
        out = res
    return out if batched else out.squeeze(0)


del annotations  # keep dir() to torch's names

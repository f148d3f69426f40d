"""``nn.functional``: the stateless forms of every layer, with torch's signatures.

Each function checks its arguments as torch does, then calls one op of
:mod:`ember._ops.nn` (or composes ember ops exactly where torch composes them, so that the
``grad_fn`` chain is torch's: ``cross_entropy`` is ``nll_loss(log_softmax(x))``, ``l1_loss`` is
``(x - y).abs().mean()``, ``dropout`` is ``x * mask``).
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from .. import _dtype as _D
from .. import _factories as _Fac
from .. import _lazy, _meta, _ops
from .. import _memory_format as _mf
from .._ops import nn as _N
from .._ops.nn import (  # noqa: F401  (re-exported)
    batch_norm,
    embedding,
    glu,
    group_norm,
    layer_norm,
    pad,
)
from .._ops.nn import (
    log_softmax as _log_softmax,
)
from .._ops.nn import nll_loss as _nll_loss
from .._ops.nn import (
    reduction_enum as _reduction_enum,
)
from .._ops.nn import (
    softmax as _softmax,
)
from .._tensor import Tensor
from ..amp.autocast_mode import _fp32_inputs
from ..amp.autocast_mode import _state as _amp_state
from ..autograd.grad_mode import is_grad_enabled as _is_grad_enabled
from ..autograd.grad_mode import no_grad as _no_grad

# the kernels of the rarer functions load on their first call
_attention = _lazy.defer(globals(), "_attention", "ember._ops.attention")
_X = _lazy.defer(globals(), "_X", "ember._ops.nn_extra")
_R = _lazy.defer(globals(), "_R", "ember._ops.resample")


def _tuple(x, n: int) -> tuple:
    if isinstance(x, (tuple, list)):
        if len(x) == 1 and n > 1:
            return tuple(x) * n
        return tuple(int(v) for v in x)
    return (int(x),) * n


def _legacy_reduction(size_average, reduce, reduction):
    """torch's ``_Reduction.legacy_get_string``: the reduction that the legacy
    ``size_average``/``reduce`` pair names, with its deprecation warning."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = ("mean" if size_average else "sum") if reduce else "none"
    warnings.warn("size_average and reduce args will be deprecated, please use "
                  f"reduction='{ret}' instead.", stacklevel=3)
    return ret


# ============================================================================ activations

def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """``max(x, 0)`` (node ``ReluBackward0``)."""
    return input.relu_() if inplace else input.relu()


def relu_(input: Tensor) -> Tensor:
    """In-place ``relu`` (node ``ReluBackward0``)."""
    return input.relu_()


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """``min(max(x, 0), 6)`` (node ``HardtanhBackward0``, keeping torch's integer limits)."""
    return hardtanh(input, 0, 6, inplace)


def _activation(op, input, *args, inplace=False):
    """``op(input, *args)``; ``inplace``: written into ``input`` with torch's in-place node."""
    return _X.inplace(op, input, *args) if inplace else op(input, *args)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """``x`` where positive, ``negative_slope * x`` elsewhere."""
    return _activation(_N.leaky_relu, input, negative_slope, inplace=inplace)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere."""
    return _activation(_N.elu, input, alpha, 1, 1, inplace=inplace)     # (torch's int scales)


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """Scaled ELU (node ``EluBackward0``)."""
    return _activation(_N.elu, input, _N._SELU_ALPHA, _N._SELU_SCALE, 1, inplace=inplace)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    return _activation(_N.celu, input, alpha, inplace=inplace)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """Gaussian error linear unit (``approximate='tanh'`` for the tanh form)."""
    return _N.gelu(input, approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * sigmoid(x)``."""
    return _activation(_N.silu, input, inplace=inplace)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * tanh(softplus(x))``."""
    return _activation(_N.mish, input, inplace=inplace)


def softplus(input: Tensor, beta: float = 1, threshold: float = 20) -> Tensor:
    """``log(1 + exp(beta * x)) / beta``."""
    return _N.softplus(input, beta, threshold)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    """Clamp to ``[min_val, max_val]`` (node ``HardtanhBackward0``)."""
    return _activation(_N.hardtanh, input, min_val, max_val, inplace=inplace)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """``relu6(x + 3) / 6``."""
    return _activation(_N.hardsigmoid, input, inplace=inplace)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * relu6(x + 3) / 6``."""
    return _activation(_N.hardswish, input, inplace=inplace)


def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(x))``, stable."""
    return _N.log_sigmoid(input)


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """``x`` where ``x > threshold`` else ``value``."""
    return _activation(_N.threshold, input, threshold, value, inplace=inplace)


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """``max(0, x) + weight * min(0, x)`` with a learnt ``weight``."""
    return _N.prelu(input, weight)


def tanh(input: Tensor) -> Tensor:
    """Hyperbolic tangent."""
    return input.tanh()


def sigmoid(input: Tensor) -> Tensor:
    """Logistic sigmoid."""
    return input.sigmoid()


def softsign(input: Tensor) -> Tensor:
    """``x / (1 + |x|)``."""
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:
    """``x - tanh(x)``."""
    return input - input.tanh()


def _softmax_dim(name: str, ndim: int) -> int:
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype=None) -> Tensor:
    """``exp(x) / exp(x).sum(dim)`` (node ``SoftmaxBackward0``)."""
    if dim is None:
        dim = _softmax_dim("softmax", input.ndim)
    return _softmax(input, dim, dtype)


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype=None) -> Tensor:
    """``softmax(-x)``."""
    if dim is None:
        dim = _softmax_dim("softmin", input.ndim)
    return _softmax(-input, dim, dtype)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype=None) -> Tensor:
    """``log(softmax(x))``, stable (node ``LogSoftmaxBackward0``)."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input.ndim)
    return _log_softmax(input, dim, dtype)


# ============================================================================ linear, dropout

def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``, on torch's paths: one ``addmm`` for 2-D input with a bias,
    and for contiguous input of other dims with a 1-D bias (flattened, then viewed back);
    otherwise ``matmul`` then the bias added in place (a float16 result rounded twice)."""
    if bias is not None and input.ndim == 2:
        return _ops.addmm(bias, input, weight.t())
    if bias is not None and bias.ndim == 1 and input.ndim > 0 and input.is_contiguous():
        try:
            lead = input.shape[:-1]
        except RuntimeError:        # (a nested tensor has no sizes)
            return _nested_linear(input, weight, bias)
        out = _ops.addmm(bias, input.reshape(-1, input.shape[-1]), weight.t())
        return out.view(*lead, weight.shape[0])
    try:
        out = input.matmul(weight.t())
    except RuntimeError:
        if not input.is_nested:
            raise
        return _nested_linear(input, weight, bias)
    return out if bias is None else out.add_(bias)


def _nested_linear(input, weight, bias):
    from ..nested._nested import linear as nested_linear
    return nested_linear(input, weight, bias)


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor,
             bias: Tensor | None = None) -> Tensor:
    """``x1^T A x2 + b`` for each output feature."""
    if input1.ndim != input2.ndim:
        raise RuntimeError("bilinear(): input dimensions do not match: got "
                           f"{input1.ndim} and {input2.ndim}")
    for i, (a, b) in enumerate(zip(input1.shape[:-1], input2.shape[:-1])):
        if a != b:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: "
                               f"got {a} and {b}")
    for k, x in ((1, input1), (2, input2)):
        if x.shape[-1] != weight.shape[k]:
            raise RuntimeError(f"bilinear(): input{k} size does not match weight size: got "
                               f"{x.shape[-1]} but expected {weight.shape[k]}")
    if bias is not None and bias.shape[0] != weight.shape[0]:
        raise RuntimeError("bilinear(): bias size does not match weight size: got "
                           f"{bias.shape[0]} but expected {weight.shape[0]}")
    lead = input1.shape[:-1]
    out = _ops._trilinear(input1.reshape(-1, input1.shape[-1]), weight,
                          input2.reshape(-1, input2.shape[-1]), (1, 3), (0,), (1, 2),
                          (2, 3)).reshape(*lead, weight.shape[0])
    return out if bias is None else out + bias


def _check_dropout_p(p) -> None:
    """The functional dropouts' check of ``p`` (a ValueError, raised in Python by torch)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input: Tensor, p: float = 0.5, training: bool = True,
            inplace: bool = False) -> Tensor:
    """Zero elements with probability ``p`` and scale the rest by ``1 / (1 - p)``."""
    _check_dropout_p(p)
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        return input.mul_(0) if inplace else input * 0
    q = 1.0 - p
    noise = _Fac.empty_like(input)            # the input's layout: drawn in memory order
    noise.bernoulli_(q)
    noise.div_(q)
    return input.mul_(noise) if inplace else input * noise


def _feature_dropout(input, p, training, inplace):
    """ATen's ``feature_dropout``: one draw per ``(N, C)`` channel of a batched input."""
    _check_dropout_p(p)
    if p == 0 or not training or input.numel() == 0:
        return input
    shape = (input.shape[0], input.shape[1]) + (1,) * (input.ndim - 2)
    if p == 1:
        return input.mul_(0) if inplace else input * 0
    q = 1.0 - p
    noise = _meta.placed(Tensor._wrap(np.empty(shape, input._data.dtype)), input.device)
    noise.bernoulli_(q)
    noise.div_(q)
    return input.mul_(noise) if inplace else input * noise


def _unbatched_feature_dropout(input, p, training, inplace, batched):
    """torch's functional wrappers: an unbatched input runs with a unit batch dimension."""
    if batched:
        return _feature_dropout(input, p, training, inplace)
    input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _feature_dropout(input, p, training, inplace)
    return result.squeeze_(0) if inplace else result.squeeze(0)


def _feature_dropout_dim_warning(name: str, ndim: int, spatial: int) -> None:
    import warnings
    warnings.warn(f"{name}: Received a {ndim}-D input to {name}, which is deprecated and will "
                  "result in an error in a future release. To retain the behavior and silence "
                  f"this warning, please use dropout instead. Note that {name} exists to "
                  f"provide channel-wise dropout on inputs with {spatial} spatial dimensions, a "
                  "channel dimension, and an optional batch dimension (i.e. "
                  f"{spatial + 1}D or {spatial + 2}D inputs).", UserWarning, stacklevel=3)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, L) or (C, L) input."""
    _check_dropout_p(p)
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.ndim}D input. Note "
            "that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
            "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D "
            "inputs).")
    return _unbatched_feature_dropout(input, p, training, inplace, input.ndim == 3)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, H, W) input (a 3-D input is taken as (N, C, L), as
    torch takes it)."""
    _check_dropout_p(p)
    if input.ndim not in (3, 4):
        _feature_dropout_dim_warning("dropout2d", input.ndim, 2)
    if input.ndim == 3:
        import warnings
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is "
            "the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead.",
            UserWarning, stacklevel=2)
    return _feature_dropout(input, p, training, inplace)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W) input."""
    _check_dropout_p(p)
    if input.ndim not in (4, 5):
        _feature_dropout_dim_warning("dropout3d", input.ndim, 3)
    return _unbatched_feature_dropout(input, p, training, inplace, input.ndim == 5)


# ============================================================================ convolution

def _check_conv_args(stride, padding, groups, output_padding=()) -> None:
    """ATen's checks of a convolution's arguments, in its order (before the shapes')."""
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if isinstance(padding, str):
        if padding == "same" and any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        return
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(o < 0 for o in output_padding):
        raise RuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")


def _check_dilation(dilation, transposed: bool) -> None:
    """The kernels' check of a zero dilation (1-d runs as 2-d with a unit height)."""
    if all(d > 0 for d in dilation):
        return
    if len(dilation) == 1:
        dilation = (1, *dilation)
    if transposed:
        names = ("depth", "height", "width")[-len(dilation):]
        got = ", ".join(f"dilation_{n}: {d}" for n, d in zip(names, dilation))
    else:
        got = str(list(dilation))
    raise RuntimeError(f"dilation should be greater than zero, but got {got}")


def _conv(input, weight, bias, stride, padding, dilation, groups, nd, name):
    unbatched = input.ndim == nd + 1
    if unbatched:
        input = input.unsqueeze(0)
    if input.ndim != nd + 2:
        raise RuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to "
                           f"{name}, but got input of size: {list(input.shape)}")
    stride = _tuple(stride, nd)
    dilation = _tuple(dilation, nd)
    if not isinstance(padding, str):
        padding = _tuple(padding, nd)
    _check_conv_args(stride, padding, groups)
    c = input.shape[1]
    if bias is not None and bias.dtype is not input.dtype:
        raise RuntimeError(f"Input type ({input.dtype.cpp_name}) and bias type "
                           f"({bias.dtype.cpp_name}) should be the same")
    if weight.ndim != nd + 2:
        raise RuntimeError(f"Expected {nd + 2}-dimensional input for {nd + 2}-dimensional "
                           f"weight {list(weight.shape)}, but got {input.ndim}-dimensional "
                           f"input of size {list(input.shape)} instead")
    if c != weight.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(weight.shape)}, "
                           f"expected input{list(input.shape)} to have "
                           f"{weight.shape[1] * groups} channels, but got {c} channels instead")
    _check_dilation(dilation, False)
    if isinstance(padding, str):
        if padding == "valid":
            padding = (0,) * nd
        elif padding == "same":
            if any(s != 1 for s in stride):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            left, extra = [], []
            for d, k in zip(dilation, weight.shape[2:]):
                total = d * (k - 1)
                left.append(total // 2)
                extra.append(total - 2 * (total // 2))
            if any(extra):
                from .._errors import warn_once
                warn_once("conv_same_asymmetric", (
                    "Using padding='same' with even kernel lengths and odd dilation may require "
                    "a zero-padded copy of the input be created (Triggered internally at "
                    "/__w/pytorch/pytorch/aten/src/ATen/native/Convolution.cpp:1101.)"))
                pads = []
                for e in reversed(extra):
                    pads += [0, e]
                input = pad(input, pads)
            padding = tuple(left)
        else:
            raise ValueError(f"Invalid padding string '{padding}', should be one of "
                             "{'valid', 'same'}")
    padded = [n + 2 * p for n, p in zip(input.shape[2:], padding)]
    reach = [d * (k - 1) + 1 for d, k in zip(dilation, weight.shape[2:])]
    if any(n < k for n, k in zip(padded, reach)):
        raise RuntimeError(f"Calculated padded input size per channel: "
                           f"({' x '.join(map(str, padded))}). Kernel size: "
                           f"({' x '.join(map(str, reach))}). Kernel size can't be greater "
                           f"than actual input size")
    out = _N.convolution(input, weight, bias, stride, padding, dilation, False, (0,) * nd,
                         groups)
    return out.squeeze(0) if unbatched else out


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
           dilation=1, groups: int = 1) -> Tensor:
    """1-D convolution over (N, C, L) input (node ``ConvolutionBackward0``)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
           dilation=1, groups: int = 1) -> Tensor:
    """2-D convolution over (N, C, H, W) input (node ``ConvolutionBackward0``).

    >>> import ember, ember.nn.functional as F
    >>> F.conv2d(ember.ones(1, 1, 3, 3), ember.ones(1, 1, 2, 2)).shape
    torch.Size([1, 1, 2, 2])
    """
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
           dilation=1, groups: int = 1) -> Tensor:
    """3-D convolution over (N, C, D, H, W) input."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def _check_output_padding(output_padding, stride, dilation) -> None:
    """ATen's transposed-convolution check (1-d runs as 2-d with a unit height)."""
    if all(o < s or o < d for o, s, d in zip(output_padding, stride, dilation)):
        return
    if len(stride) == 1:
        output_padding, stride, dilation = (0, *output_padding), (1, *stride), (1, *dilation)
    names = ("depth", "height", "width")[-len(stride):]
    got = " ".join(f"{what}_{n}: {v}" for what, vals in (("output_padding", output_padding),
                                                         ("stride", stride),
                                                         ("dilation", dilation))
                   for n, v in zip(names, vals))
    raise RuntimeError(f"output padding must be smaller than either stride or dilation, but "
                       f"got {got}")


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation,
                    nd):
    unbatched = input.ndim == nd + 1
    if unbatched:
        input = input.unsqueeze(0)
    stride, padding = _tuple(stride, nd), _tuple(padding, nd)
    output_padding, dilation = _tuple(output_padding, nd), _tuple(dilation, nd)
    _check_conv_args(stride, padding, groups, output_padding)
    _check_output_padding(output_padding, stride, dilation)
    _check_dilation(dilation, True)
    out = _N.convolution(input, weight, bias, stride, padding, dilation, True, output_padding,
                         groups)
    return out.squeeze(0) if unbatched else out


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups=1, dilation=1) -> Tensor:
    """1-D transposed convolution."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 1)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups=1, dilation=1) -> Tensor:
    """2-D transposed convolution (the gradient of conv2d w.r.t. its input)."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 2)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups=1, dilation=1) -> Tensor:
    """3-D transposed convolution."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 3)


# ============================================================================ pooling

def _no_stride(stride) -> bool:
    """Whether a pool's stride is not given (None or empty: the kernel size)."""
    return stride is None or (isinstance(stride, (list, tuple)) and not stride)


def _pool_args(kernel_size, stride, padding, dilation, nd):
    k = _tuple(kernel_size, nd)
    s = k if _no_stride(stride) else _tuple(stride, nd)
    return k, s, _tuple(padding, nd), _tuple(dilation, nd)


def _batched(input, nd):
    """(input as (N, C, *spatial), how to undo): unbatched inputs gain a batch dim."""
    if input.ndim == nd + 1:
        return input.unsqueeze(0), True
    if input.ndim != nd + 2:
        raise RuntimeError(f"Expected {nd + 1}D or {nd + 2}D input, but got input of size: "
                           f"{list(input.shape)}")
    return input, False


def _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, nd):
    k, s, p, d = _pool_args(kernel_size, stride, padding, dilation, nd)
    _batched(input, nd)              # (checks the dims)
    if any(v <= 0 for v in d) and (nd > 1 or return_indices):
        dims = (1, *d) if nd == 1 else d
        got = " ".join(f"dilation{n}: {v}" for n, v in zip("THW"[-len(dims):], dims))
        raise RuntimeError(f"dilation should be greater than zero, but got {got}")
    if nd == 1:                      # torch: a 2-d pooling of the unsqueezed input
        if not return_indices:      # max_pool1d's own kernel checks first
            if d[0] <= 0:
                raise RuntimeError("max_pool1d() dilation must be greater than zero, but got "
                                   f"{d[0]}")
            if s[0] <= 0:
                raise RuntimeError("max_pool1d() stride must be greater than zero, but got "
                                   f"{s[0]}")
            length = _N._pool_out(input.shape[-1], k[0], s[0], p[0], d[0], ceil_mode)
            if length <= 0:
                raise RuntimeError(f"max_pool1d() Invalid computed output size: {length}")
        x4 = input.unsqueeze(-2)
        out, idx = _N.max_pool_nd(x4, (1,) + k, (1,) + s, (0,) + p, (1,) + d, ceil_mode, 2)
        out, idx = out.squeeze(-2), idx.squeeze(-2)
    else:
        out, idx = _N.max_pool_nd(input, k, s, p, d, ceil_mode, nd,
                                  () if _no_stride(stride) else s)
    return (out, idx) if return_indices else out


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Max over sliding windows of the last dim."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices,
                     1)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Max over sliding windows of the last two dims (``MaxPool2DWithIndicesBackward0``)."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices,
                     2)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Max over sliding windows of the last three dims."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices,
                     3)


def _avg_pool_dtype_check(x, nd):
    """torch's NotImplementedError for a dtype its average pooling kernel has no loop for:
    float32, float64 and int64 everywhere, float16 and bfloat16 in 1-d and 2-d."""
    d = x.dtype
    if d in (_D.float32, _D.float64, _D.int64) or (
            nd < 3 and d in (_D.float16, _D.bfloat16)):
        return
    if nd == 1:         # the 2-d kernel's, on the input viewed as (N, C, 1, L)
        x = x.unsqueeze(-2)
    kernel = "avg_pool3d_out_frame" if nd == 3 else (
        "avg_pool2d_channels_last" if _N._channels_last(x._data) else "avg_pool2d")
    raise NotImplementedError(f'"{kernel}" not implemented for \'{d.scalar_name}\'')


def _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
              divisor_override, nd):
    k, s, p, _ = _pool_args(kernel_size, stride, padding, 1, nd)
    for pp, kk in zip(p, k):
        if pp > kk // 2:
            raise RuntimeError("pad should be at most half of effective kernel size, but got "
                               f"pad={pp}, kernel_size={kk} and dilation=1")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    if input.is_quantized and nd == 2:
        from ..ao.quantization import _ops as quantized
        return quantized.avg_pool2d(input, k, s, p, ceil_mode, count_include_pad,
                                    divisor_override)
    x, _ = _batched(input, nd)
    if nd == 3 and any(n < kk for n, kk in zip(x.shape[2:], k)):   # its own check, unpadded
        (t, h, w), (kt, kh, kw) = x.shape[2:], k
        raise RuntimeError(f"input image (T: {t} H: {h} W: {w}) smaller than kernel size "
                           f"(kT: {kt} kH: {kh} kW: {kw})")
    _avg_pool_dtype_check(x, nd)
    if nd > 1:              # (an unbatched input pools as it is, as torch's)
        return _N.avg_pool_nd[nd](input, k, () if _no_stride(stride) else s, p, ceil_mode,
                                  count_include_pad, divisor_override)
    return _N.avg_pool_nd[2](input.unsqueeze(-2), (1,) + k, (1,) + s, (0,) + p, ceil_mode,
                             count_include_pad, divisor_override).squeeze(-2)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """Mean over sliding windows of the last dim."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, None, 1)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """Mean over sliding windows of the last two dims (``AvgPool2DBackward0``)."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, 2)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """Mean over sliding windows of the last three dims."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, 3)


def _adaptive_size(output_size, input, nd, error=None):
    """torch's ``_list_with_default``: a list's ``None`` entries take the input's trailing
    sizes; then, where ``error`` is given, ATen's RuntimeError unless ``nd`` sizes remain."""
    if not isinstance(output_size, (list, tuple)):
        return _tuple(output_size, nd)
    k = len(output_size)
    if input.ndim <= k:
        raise ValueError(f"Input dimension should be at least {k + 1}")
    sp = input.shape[input.ndim - k:]
    out = tuple(d if o is None else int(o) for o, d in zip(output_size, sp))
    if error is not None and k != nd:
        raise RuntimeError(error)
    return out


def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:
    """Average over torch's adaptive windows so that the output is ``output_size``."""
    size = _adaptive_size(output_size, input, 2, "adaptive_avg_pool2d: output_size must be 2")
    if input.is_quantized:
        from ..ao.quantization import _ops as quantized
        return quantized.adaptive_avg_pool2d(input, size)
    if size == (1, 1):
        out = input.mean((-1, -2), keepdim=True)
        if input.ndim == 4 and _N._channels_last(input._data):
            # torch restrides the mean channels-last in place (``as_strided_``)
            n, c = input.shape[:2]
            out.as_strided_((n, c, 1, 1), (c, 1, c, c))
        return out
    return _N._adaptive_avg_pool2d(input, size)


def _check_pool1d_dims(input, name):
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor "
                           f"for argument #1 'self' (while checking arguments for {name})")


def adaptive_avg_pool1d(input: Tensor, output_size) -> Tensor:
    """Average over adaptive windows of the last dim."""
    _check_pool1d_dims(input, "adaptive_avg_pool1d")
    if isinstance(output_size, (list, tuple)) and len(output_size) != 1:
        raise RuntimeError("adaptive_avg_pool1d() argument 'output_size' should contain one "
                           f"int (got {len(output_size)})")
    o = output_size[0] if isinstance(output_size, (list, tuple)) else output_size
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, int(o))).squeeze(-2)


def adaptive_max_pool2d(input: Tensor, output_size, return_indices: bool = False):
    """Max over torch's adaptive windows so that the output is ``output_size``."""
    size = _adaptive_size(output_size, input, 2,
                          "adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    x, unb = _batched(input, 2)
    idx = _N.adaptive_max_indices(x._data, size)
    # torch's indices take the input's memory format
    idx = Tensor._wrap(idx[0] if unb else _mf.follow(idx, x._data))
    out, idx = _N._adaptive_max_gather[2](input, idx)
    return (out, idx) if return_indices else out


def adaptive_max_pool1d(input: Tensor, output_size, return_indices: bool = False):
    """Max over adaptive windows of the last dim."""
    _check_pool1d_dims(input, "adaptive_max_pool1d")
    if isinstance(output_size, (list, tuple)) and len(output_size) != 1:
        raise RuntimeError("adaptive_max_pool1d() argument 'output_size' should contain one "
                           f"int (got {len(output_size)})")
    o = output_size[0] if isinstance(output_size, (list, tuple)) else output_size
    out, idx = adaptive_max_pool2d(input.unsqueeze(-2), (1, int(o)), True)
    out, idx = out.squeeze(-2), idx.squeeze(-2)
    return (out, idx) if return_indices else out


# ============================================================================ normalisation

def instance_norm(input: Tensor, running_mean: Tensor | None = None,
                  running_var: Tensor | None = None, weight: Tensor | None = None,
                  bias: Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise each channel of each sample, as torch: a batch norm of the input viewed as
    ``(1, N*C, *)`` with weight, bias and running stats repeated N times; the running stats
    are then the mean over the batch (output node ``ViewBackward0``)."""
    if use_input_stats and math.prod(input.shape[2:]) == 1:
        raise ValueError("Expected more than 1 spatial element when training, got input size "
                         f"{input.shape}")
    return _instance_norm(input, weight, bias, running_mean, running_var, use_input_stats,
                          momentum, eps)


def _instance_norm(input, weight, bias, running_mean, running_var, use_input_stats: bool,
                   momentum: float, eps: float) -> Tensor:
    """ATen's ``instance_norm`` (no spatial-size check: that one is Python's)."""
    b, c = input.shape[0], input.shape[1]

    def rep(t):
        return None if t is None else t.repeat(b)
    rm, rv = rep(running_mean), rep(running_var)
    out = _N.batch_norm_unchecked(input.contiguous().view(1, b * c, *input.shape[2:]), rm, rv,
                                  rep(weight), rep(bias), use_input_stats, momentum, eps)
    with _no_grad():
        if running_mean is not None:
            running_mean.copy_(rm.view(b, c).mean(0))
        if running_var is not None:
            running_var.copy_(rv.view(b, c).mean(0))
    return out.view(input.shape)


def rms_norm(input: Tensor, normalized_shape, weight: Tensor | None = None,
             eps: float | None = None) -> Tensor:
    """Root-mean-square normalisation over the trailing ``normalized_shape`` dims, composed as
    torch composes it: ``x * rsqrt(x.pow(2).mean(dims, keepdim=True) + eps) * weight`` (half
    precision is computed in float32); ``eps`` defaults to the compute dtype's epsilon."""
    # (the parameters kept: a call torch's parser refuses is read back from them)
    shape = [int(normalized_shape)] if isinstance(normalized_shape, int) else [
        int(s) for s in normalized_shape]
    k = len(shape)
    if k < 1:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                           "containing at least one element, but got normalized_shape = []")
    if weight is not None and list(weight.shape) != shape:
        raise RuntimeError("Expected weight to be of same shape as normalized_shape, but got "
                           f"weight of shape {list(weight.shape)} and normalized_shape = "
                           f"{shape}")
    if input.ndim < k:
        raise ValueError(f"Input tensor must have at least {k} dimensions, but got "
                         f"{input.ndim}")
    if list(input.shape[input.ndim - k:]) != shape:
        raise RuntimeError(f"Given normalized_shape={shape}, expected input with shape "
                           f"[*{', '.join(map(str, shape))}], but got input of size"
                           f"{list(input.shape)}")
    x = input.float() if input.dtype.is_floating_point and input.element_size() < 4 else input
    epsilon = float(np.finfo(np.float64 if x.dtype is _D.float64 else np.float32).eps) \
        if eps is None else eps
    dims = tuple(range(input.ndim - 1, input.ndim - 1 - k, -1))
    out = x * (x.pow(2).mean(dims, keepdim=True) + epsilon).rsqrt()
    if weight is not None:
        out = out * weight
    return out.to(input.dtype) if x is not input else out


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,
              out=None) -> Tensor:
    """``input / max(||input||_p, eps)`` along ``dim`` (written into ``out`` when given)."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is None:
        return input / denom
    return _ops.FUNCTIONS["div"](input, denom, out=out)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Integer class indices to one-hot int64 rows."""
    if tensor.dtype is not _D.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    a = tensor._data
    if not a.size and num_classes <= 0:
        raise RuntimeError("Can not infer total number of classes from empty tensor.")
    if num_classes == -1:
        num_classes = int(a.max()) + 1 if a.size else 0
    if a.size and (a.min() < 0):
        raise RuntimeError("Class values must be non-negative.")
    if a.size and a.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return Tensor._wrap((a[..., None] == np.arange(num_classes)).astype(np.int64))


# ============================================================================ losses

def _check_sizes(input, target, name):
    if tuple(target.shape) != tuple(input.shape):
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input "
                      f"size ({input.shape}). This will likely lead to incorrect results due "
                      "to broadcasting. Please ensure they have the same size.", stacklevel=3)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean",
             weight=None) -> Tensor:
    """Mean squared error (node ``MseLossBackward0``)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_sizes(input, target, "mse_loss")
    if weight is not None:
        _check_weight(weight, input)
        return _weighted((input - target).pow(2), weight, reduction, True)
    return _N._mse_loss(input, target, _reduction_enum(reduction))


def _check_weight(weight, input) -> None:
    if tuple(weight.shape) != tuple(input.shape):
        raise ValueError("Weights and input must have the same size.")


def _weighted(loss, weight, reduction, mean_by_weight: bool) -> Tensor:
    """torch's weighted regression losses: the elementwise ``loss`` times ``weight``, reduced;
    "mean" divides by the weights' sum (l1, mse) or, with ``mean_by_weight`` False, by the
    number of elements (huber)."""
    loss = loss * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.sum() / weight.sum() if mean_by_weight else loss.mean()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', "
                     "'sum'.")


def _apply_reduction(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    _reduction_enum(reduction)
    return loss


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean",
            weight=None) -> Tensor:
    """Mean absolute error: ``(input - target).abs().mean()``."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    input, target, weight = _fp32_inputs(input, target, weight)
    _check_sizes(input, target, "l1_loss")
    if weight is not None:
        _check_weight(weight, input)
        return _weighted((input - target).abs(), weight, reduction, True)
    loss = (input - target).abs()
    return _apply_reduction(loss, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean",
                   beta: float = 1.0) -> Tensor:
    """Quadratic below ``beta``, linear above (node ``SmoothL1LossBackward0``)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    _check_sizes(input, target, "smooth_l1_loss")
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    return _N._smooth_l1_loss(input, target, _reduction_enum(reduction), float(beta))


def huber_loss(input, target, reduction="mean", delta: float = 1.0, weight=None) -> Tensor:
    """Quadratic below ``delta``, ``delta``-linear above (node ``HuberLossBackward0``)."""
    _check_sizes(input, target, "huber_loss")
    if weight is not None:
        _check_weight(weight, input)
        loss = _N._huber_loss(input, target, _reduction_enum("none"), float(delta))
        return _weighted(loss, weight, reduction, False)
    return _N._huber_loss(input, target, _reduction_enum(reduction), float(delta))


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean") -> Tensor:
    """``-(y log x + (1 - y) log(1 - x))``, logs clamped at -100."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Using a target size ({target.shape}) that is different to the "
                         f"input size ({input.shape}) is deprecated. Please ensure they have "
                         "the same size.")
    if target.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {target.dtype.scalar_name} but expected "
                           f"{input.dtype.scalar_name}")
    return _N._binary_cross_entropy(input, target, weight, _reduction_enum(reduction))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None,
                                     reduce=None, reduction="mean", pos_weight=None) -> Tensor:
    """``binary_cross_entropy(sigmoid(input), target)``, computed stably."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({target.shape}) must be the same as input size "
                         f"({input.shape})")
    # ATen computes ``(1 - target).mul_(input).sub_(...)``: in place on ``1 - target``, so
    # the loss takes the target's dtype and an integral or bool target is refused
    if target.dtype is _D.bool:
        _ops.pointwise._check_sub(target, target)
    if not (target.dtype.is_floating_point or target.dtype.is_complex):
        raise RuntimeError(f"result type {_D.result_type(input, target).scalar_name} can't "
                           f"be cast to the desired output type {target.dtype.scalar_name}")
    loss = _N._bce_with_logits(input, target, weight, pos_weight, _reduction_enum(reduction))
    return loss if loss.dtype is target.dtype else loss.to(target.dtype)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean",
           log_target: bool = False) -> Tensor:
    """Kullback-Leibler divergence of ``target`` from ``input`` (log-probabilities)."""
    input, target = _fp32_inputs(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce, reduction)
    elif reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the "
                      "support size.'batchmean' divides only by the batch size, and aligns with "
                      "the KL div math definition.'mean' will be changed to behave the same as "
                      "'batchmean' in the next major release.", stacklevel=2)
    if reduction == "batchmean":
        loss = _kl_div(input, target, "sum", log_target)
        return loss if input.ndim == 0 else loss / input.shape[0]
    return _kl_div(input, target, reduction, log_target)


def _kl_div(input, target, reduction: str, log_target: bool) -> Tensor:
    """ATen's ``kl_div``, without the Python-level warning and ``batchmean``. Its C++
    evaluates the right operand of ``-`` and ``*`` first, and that order of the nodes is the
    order in which ``target``'s gradient terms add up."""
    if log_target:
        diff = target - input
        loss = target.exp() * diff
    else:
        prod = target * input
        loss = _ops.xlogy(target, target) - prod
    return _apply_reduction(loss, reduction)


def nll_loss(input, target, weight=None, size_average=None, ignore_index: int = -100,
             reduce=None, reduction: str = "mean") -> Tensor:
    """Negative log-likelihood of ``target`` classes under log-probabilities ``input``
    (torch's argument order, with the legacy ``size_average``/``reduce``)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    return _nll_loss(input, target, weight, ignore_index, reduction)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index: int = -100,
                  reduce=None, reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """``nll_loss(log_softmax(input, 1), target)``; also class-probability targets and
    label smoothing, exactly as torch composes them."""
    if weight is None and reduction == "mean" and label_smoothing == 0 \
            and size_average is None and reduce is None and not _amp_state.enabled:
        loss = _N.cross_entropy_common(input, target, ignore_index)
        if loss is not None:
            return loss
    reduction = _legacy_reduction(size_average, reduce, reduction)
    input, target, weight = _fp32_inputs(input, target, weight)
    if label_smoothing < 0 or label_smoothing > 1:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                           f"{label_smoothing}")
    class_dim = 0 if input.ndim == 1 else 1
    probabilities = tuple(target.shape) == tuple(input.shape)   # as torch decides
    if probabilities:
        if not target.dtype.is_floating_point:
            raise RuntimeError("Expected floating point type for target with class "
                               f"probabilities, got {target.dtype.scalar_name}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        if not input.ndim:
            raise IndexError("Dimension specified as 1 but tensor has no dimensions")
    logp = _log_softmax(input, class_dim)
    n_classes = input.shape[class_dim]
    wshape = [1] * input.ndim
    wshape[class_dim] = n_classes
    if probabilities:
        if label_smoothing > 0:
            target = _N.mul_scalar(target, 1 - label_smoothing) + label_smoothing / n_classes
        prod = logp * target
        if weight is not None:
            prod = prod * weight.view(*wshape)
        if reduction == "mean":
            return _N.div_scalar(-prod.sum(), input.numel() / n_classes)
        if reduction == "sum":
            return -prod.sum()
        _reduction_enum(reduction)
        return -prod.sum(class_dim)
    nll = _nll_loss(logp, target, weight, ignore_index, reduction)
    if label_smoothing == 0:
        return nll
    ignore_mask = target == ignore_index
    if weight is not None:
        smooth = -(logp * weight.view(*wshape)).sum(class_dim)
    else:
        smooth = -logp.sum(class_dim)
    smooth = smooth.masked_fill(ignore_mask, 0.0)
    if reduction == "mean":
        keep = ~ignore_mask
        if weight is not None:
            ws = Tensor._wrap(weight._data[target._data[keep._data]]).sum()
            ret = smooth.sum() / ws
        else:
            ret = smooth.sum() / keep.sum()
    elif reduction == "sum":
        ret = smooth.sum()
    else:
        ret = smooth
    return _N.mul_scalar(nll, 1 - label_smoothing) + _N.mul_scalar(ret,
                                                                    label_smoothing / n_classes)


def _loss_reduction(size_average, reduce, reduction):
    """The reduction name after the legacy arguments, validated as torch's ``get_enum``."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce, reduction)
    _reduction_enum(reduction)
    return reduction


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                          size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """``1 - cos(x1, x2)`` where ``target == 1``, ``max(0, cos - margin)`` where ``-1``.

    >>> import ember, ember.nn.functional as F
    >>> F.cosine_embedding_loss(ember.ones(2, 3), ember.ones(2, 3), ember.ones(2)).item()
    0.0
    """
    reduction = _loss_reduction(size_average, reduce, reduction)
    input1, input2, target = _fp32_inputs(input1, input2, target)
    td = target.ndim
    if td not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if td == 1 and (input1.ndim != 2 or input2.ndim != 2):
        raise RuntimeError("1D target tensor expects 2D input tensors, but found inputs with "
                           f"sizes {list(input1.shape)} and {list(input2.shape)}.")
    if td == 0 and (input1.ndim != 1 or input2.ndim != 1):
        raise RuntimeError("0D target tensor expects 1D input tensors, but found inputs with "
                           f"sizes {list(input1.shape)} and {list(input2.shape)}.")
    prod_sum = (input1 * input2).sum(td)
    mag1 = (input1 * input1).sum(td) + 1e-12
    mag2 = (input2 * input2).sum(td) + 1e-12
    cos = prod_sum / (mag1 * mag2).sqrt_()
    zeros = _Fac.zeros_like(cos)
    pos = 1 - cos
    neg = (cos - margin).clamp_min_(0)
    out = _ops.where(target == 1, pos, zeros) + _ops.where(target == -1, neg, zeros)
    return _apply_reduction(out, reduction)


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                        size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """``max(0, -target * (input1 - input2) + margin)``.

    >>> import ember, ember.nn.functional as F
    >>> F.margin_ranking_loss(ember.tensor([1.]), ember.tensor([2.]), ember.tensor([1.])).item()
    1.0
    """
    reduction = _loss_reduction(size_average, reduce, reduction)
    input1, input2, target = _fp32_inputs(input1, input2, target)
    if input1.ndim != input2.ndim or input1.ndim != target.ndim:
        raise RuntimeError("margin_ranking_loss : All input tensors should have same dimension "
                           f"but got sizes: input1: {input1.size()}, input2: {input2.size()}, "
                           f"target: {target.size()} ")
    return _margin_ranking_loss(input1, input2, target, margin, reduction)


def _margin_ranking_loss(input1, input2, target, margin: float, reduction: str) -> Tensor:
    """ATen's ``margin_ranking_loss`` (it broadcasts; the dims check is Python's)."""
    out = (-target * (input1 - input2) + margin).clamp_min_(0)
    return _apply_reduction(out, reduction)


# ============================================================================ attention

def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask=None,
                                 dropout_p: float = 0.0, is_causal: bool = False, scale=None,
                                 enable_gqa: bool = False) -> Tensor:
    """``softmax(q @ k^T * scale + mask) @ v``: torch's CPU flash kernel where it applies
    (``_ops/attention.py``), else composed as torch's math backend.

    Bool masks keep ``True`` positions (others get ``-inf``); float masks are added. Rows
    masked everywhere give zeros (torch's ``_safe_softmax``).

    >>> import ember, ember.nn.functional as F
    >>> q = ember.ones(1, 2, 4)
    >>> F.scaled_dot_product_attention(q, q, q).shape
    torch.Size([1, 2, 4])
    """
    _attention.check_inputs(query, key, value, attn_mask)
    L, S = query.shape[-2], key.shape[-2]
    sc = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    root = math.sqrt(abs(sc))
    both = attn_mask is not None and is_causal
    if both and not _attention.flash_applies(query, key, value, attn_mask, dropout_p,
                                             enable_gqa):
        # (torch's CPU flash kernel takes a mask with the causal one; its math backend not)
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                           "when is_causal=True")
    if is_causal and not both:
        attn_mask = Tensor._wrap(np.tril(np.ones((L, S), dtype=bool)))
    if attn_mask is not None and attn_mask.dtype is _D.bool:
        attn_mask = Tensor._wrap(np.where(attn_mask._data, 0.0, -np.inf).astype(
            query._data.dtype))
    elif attn_mask is not None and attn_mask.dtype is not query.dtype \
            and query.dtype is _D.float64:
        # a float mask beside double inputs: torch's kernels add it converted (exactly)
        attn_mask = attn_mask.to(query.dtype)
    if both:
        # the kernel fills the keys after each query's position with -inf, then adds the mask:
        # one mask with those keys at -inf, as the block the kernel skips adds nothing
        attn_mask = Tensor._wrap(np.where(np.tril(np.ones((L, S), dtype=bool)),
                                          attn_mask._data, -np.inf).astype(attn_mask._data.dtype))
        is_causal = False
    if _attention.flash_applies(query, key, value, attn_mask, dropout_p, enable_gqa):
        return _attention.flash(query, key, value, attn_mask, scale, enable_gqa, is_causal)
    _attention.check_math_enabled()
    if enable_gqa and query.ndim >= 3 and key.shape[-3] != query.shape[-3]:
        rep = query.shape[-3] // key.shape[-3]
        key = key.repeat_interleave(rep, -3)
        value = value.repeat_interleave(rep, -3)
    q = query * (-root if sc < 0 else root)
    attn = _ops.matmul(q, key.transpose(-2, -1) * root)
    if attn_mask is not None:
        attn = attn + attn_mask
    attn = _N._safe_softmax(attn, attn.ndim - 1)
    if dropout_p > 0.0:
        attn = dropout(attn, dropout_p, True)
    return _ops.matmul(attn, value)




def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """torch's mask canonicalisation: a bool mask becomes a float one with ``-inf``."""
    if mask is not None:
        is_float = mask.dtype.is_floating_point
        if mask.dtype is not _D.bool and not is_float:
            raise AssertionError(f"only bool and floating types of {mask_name} are supported")
        if check_other and other_type is not None and mask.dtype != other_type:
            warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. "
                          "Use same type for both instead.", stacklevel=3)
        if not is_float:
            mask = _Fac.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _none_or_dtype(input):
    return None if input is None else input.dtype


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError("For batched (3-D) `query`, expected `key` and `value` to be 3-D"
                                 f" but found {key.dim()}-D and {value.dim()}-D tensors "
                                 "respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError("For batched (3-D) `query`, expected `key_padding_mask` to be "
                                 f"`None` or 2-D but found {key_padding_mask.dim()}-D tensor "
                                 "instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError("For batched (3-D) `query`, expected `attn_mask` to be `None`, "
                                 f"2-D or 3-D but found {attn_mask.dim()}-D tensor instead")
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError("For unbatched (2-D) `query`, expected `key` and `value` to be "
                                 f"2-D but found {key.dim()}-D and {value.dim()}-D tensors "
                                 "respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError("For unbatched (2-D) `query`, expected `key_padding_mask` to be "
                                 f"`None` or 1-D but found {key_padding_mask.dim()}-D tensor "
                                 "instead")
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError("For unbatched (2-D) `query`, expected `attn_mask` to be "
                                     f"`None`, 2-D or 3-D but found {attn_mask.dim()}-D tensor "
                                     "instead")
            if attn_mask.dim() == 3:
                expected = (num_heads, query.shape[0], key.shape[0])
                if attn_mask.shape != expected:
                    raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                                         f"{attn_mask.shape}")
        return False
    raise AssertionError("query should be unbatched 2D or batched 3D tensor but received "
                         f"{query.dim()}-D query tensor")


def _in_projection_packed(q, k, v, w, b=None):
    E = q.size(-1)
    if k is v:
        if q is k:
            proj = linear(q, w, b)
            proj = proj.unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(
                -2).contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        q_proj = linear(q, w_q, b_q)
        kv_proj = linear(k, w_kv, b_kv)
        kv_proj = kv_proj.unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2).squeeze(
            -2).contiguous()
        return q_proj, kv_proj[0], kv_proj[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    for name, w, shape in (("query", w_q, (Eq, Eq)), ("key", w_k, (Eq, Ek)),
                           ("value", w_v, (Eq, Ev))):
        if tuple(w.shape) != shape:
            raise AssertionError(f"expecting {name} weights shape of {shape}, but got {w.shape}")
    for name, bb in (("query", b_q), ("key", b_k), ("value", b_v)):
        if bb is not None and tuple(bb.shape) != (Eq,):
            raise AssertionError(f"expecting {name} bias shape of {(Eq,)}, but got {bb.shape}")
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _split_heads(t, static, name, heads, head_dim):
    """Keys or values as (batch * heads, length, head_dim): ``t`` split, or ``static``."""
    if static is None:
        return t.view(t.shape[0], heads, head_dim).transpose(0, 1)
    if static.size(0) != heads:
        raise AssertionError(f"expecting {name}.size(0) of {heads}, but got {static.size(0)}")
    if static.size(2) != head_dim:
        raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got "
                             f"{static.size(2)}")
    return static


def multi_head_attention_forward(query, key, value, embed_dim_to_check: int, num_heads: int,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v,
                                 add_zero_attn: bool, dropout_p: float, out_proj_weight,
                                 out_proj_bias, training: bool = True, key_padding_mask=None,
                                 need_weights: bool = True, attn_mask=None,
                                 use_separate_proj_weight: bool = False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights: bool = True,
                                 is_causal: bool = False):
    """torch's multi-head attention on (L, N, E) query and (S, N, E) key/value, step for
    step (packed or separate in-projections, ``bias_k``/``bias_v``, zero attention, masks,
    ``baddbmm``/``softmax``/``bmm`` when weights are needed, else scaled dot-product
    attention), so values and ``grad_fn`` names are torch's.

    >>> import ember, ember.nn.functional as F
    >>> x, w = ember.ones(2, 1, 4), ember.eye(4).repeat(3, 1)
    >>> F.multi_head_attention_forward(x, x, x, 4, 2, w, None, None, None, False, 0.0,
    ...                                ember.eye(4), None)[0].shape
    torch.Size([2, 1, 4])
    """
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask",
                                       _none_or_dtype(attn_mask), "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to "
                           "create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype,
                                    check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but "
                             f"got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match "
                                 f"value's {value.shape[:2]}")
    elif key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight "
                                     "is None")
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight,
                                 v_proj_weight, b_q, b_k, b_v)
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            correct = (tgt_len, src_len)
            if attn_mask.shape != correct:
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but "
                                   f"should be {correct}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            correct = (bsz * num_heads, tgt_len, src_len)
            if attn_mask.shape != correct:
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but "
                                   f"should be {correct}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = _ops.cat([k, bias_k.repeat(1, bsz, 1)])
        v = _ops.cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = _split_heads(k, static_k, "static_k", bsz * num_heads, head_dim)
    v = _split_heads(v, static_v, "static_v", bsz * num_heads, head_dim)
    if add_zero_attn:
        zshape = (bsz * num_heads, 1, head_dim)
        k = _ops.cat([k, _Fac.zeros(zshape, dtype=k.dtype, device=k.device)], dim=1)
        v = _ops.cat([v, _Fac.zeros(zshape, dtype=v.dtype, device=v.device)], dim=1)
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    src_len = k.size(1)
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                                 f"{key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(
            -1, num_heads, -1, -1).reshape(bsz * num_heads, 1, src_len)
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0
    if need_weights:
        E = q.shape[-1]
        q_scaled = q * math.sqrt(1.0 / float(E))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        if attn_mask is not None:
            weights = _ops.baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            weights = _ops.bmm(q_scaled, k.transpose(-2, -1))
        weights = softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        out = _ops.bmm(weights, v)
        out = out.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = linear(out, out_proj_weight, out_proj_bias)
        out = out.view(tgt_len, bsz, out.size(1))
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights
    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.size(1))
    if not is_batched:
        out = out.squeeze(1)
    return out, None


# ============================================================================ upsampling

def _is_int(x) -> bool:
    import numbers
    return isinstance(x, numbers.Integral) and not isinstance(x, bool) or (
        isinstance(x, Tensor) and not x.dtype.is_floating_point)


def interpolate(input: Tensor, size=None, scale_factor=None, mode: str = "nearest",
                align_corners=None, recompute_scale_factor=None,
                antialias: bool = False) -> Tensor:
    """Resample the spatial dims of (N, C, L), (N, C, H, W) or (N, C, D, H, W) input to
    ``size`` or by ``scale_factor``: modes ``'nearest'``, ``'nearest-exact'``, ``'linear'``
    (3-D), ``'bilinear'`` and ``'bicubic'`` (4-D, optionally ``antialias``), ``'trilinear'``
    (5-D), ``'area'`` (adaptive average pooling) and ``'lanczos'`` (4-D, antialias).

    >>> import ember, ember.nn.functional as F
    >>> F.interpolate(ember.arange(3.).view(1, 1, 3), scale_factor=2).tolist()
    [[[0.0, 0.0, 1.0, 1.0, 2.0, 2.0]]]
    """
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.ndim - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        scales = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {list(input.shape[2:])} and output size "
                    f"of {size}. Please provide input tensor in (N, C, d1, d2, ...,dK) format "
                    "and output size in (o1, o2, ...,oK) format.")
            if not all(_is_int(x) for x in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] "
                                "or Tuple[int, int, int], but got size with types "
                                f"{[type(x) for x in size]}")
            out_size = [int(s) for s in size]
        else:
            out_size = [int(size)] * dim
    elif scale_factor is not None:
        out_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but "
                    f"got input with spatial dimensions of {list(input.shape[2:])} and "
                    f"scale_factor of shape {scale_factor}. Please provide input tensor in "
                    "(N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.")
            scales = [float(s) for s in scale_factor]
        else:
            scales = [float(scale_factor)] * dim
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and out_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        out_size = [int(input.shape[i + 2] * scales[i]) for i in range(dim)]
        scales = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.ndim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos "
                         "modes and requires a 4-D tensor as input")
    key = _INTERP_KEYS.get((mode, input.ndim))
    if key is None:
        for m, need in (("bilinear", 4), ("trilinear", 5), ("linear", 3)):
            if mode == m and input.ndim in (3, 4, 5) and input.ndim != need:
                raise NotImplementedError(f"Got {input.ndim}D input, but {m} mode needs "
                                          f"{need}D input")
        raise NotImplementedError(
            "Input Error: Only 3D, 4D and 5D input Tensors supported"
            f" (got {input.ndim}D) for the modes: nearest | linear | bilinear | bicubic | "
            f"trilinear | lanczos | area | nearest-exact (got {mode})")
    if mode == "area":
        if dim == 1:
            return adaptive_avg_pool2d(input.unsqueeze(-2), (1, out_size[0])).squeeze(-2)
        if dim == 2:
            return adaptive_avg_pool2d(input, out_size)
        return adaptive_avg_pool3d(input, out_size)
    if mode == "lanczos":
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
    if out_size is None:
        out_size = [int(input.shape[i + 2] * scales[i]) for i in range(dim)]
    if any(s <= 0 for s in out_size) or any(s <= 0 for s in input.shape[2:]):
        names = ("H", "W")[-dim:] if dim <= 2 else ("D", "H", "W")
        i = ", ".join(f"{n}: {s}" for n, s in zip(names, input.shape[2:]))
        o = ", ".join(f"{n}: {s}" for n, s in zip(names, out_size))
        sep = " and" if dim == 1 else ""
        raise RuntimeError("Input and output sizes should be greater than 0, but got "
                           f"input ({i}){sep} output ({o})")
    if antialias and mode in ("bilinear", "bicubic") and input.dtype.is_floating_point \
            and input.dtype.itemsize == 2:
        raise NotImplementedError("\"compute_index_ranges_weights\" not implemented for "
                                  f"'{input.dtype.scalar_name}'")
    plan = _R.resample_plan(tuple(input.shape), out_size, mode, align_corners, scales,
                            input._data.dtype, antialias)
    return _R.RESAMPLE_OPS[key + "-aa" if antialias else key, dim](input, plan)


_INTERP_KEYS = {("nearest", 3): "nearest", ("nearest", 4): "nearest", ("nearest", 5): "nearest",
                ("nearest-exact", 3): "nearest-exact", ("nearest-exact", 4): "nearest-exact",
                ("nearest-exact", 5): "nearest-exact", ("area", 3): "area", ("area", 4): "area",
                ("area", 5): "area", ("linear", 3): "linear", ("bilinear", 4): "bilinear",
                ("trilinear", 5): "trilinear", ("bicubic", 4): "bicubic",
                ("lanczos", 4): "lanczos"}


def adaptive_avg_pool3d(input: Tensor, output_size) -> Tensor:
    """Average over torch's adaptive windows of the last 3 dims so the output is
    ``output_size`` (``None`` entries keep the input's size).

    >>> import ember, ember.nn.functional as F
    >>> F.adaptive_avg_pool3d(ember.ones(1, 2, 4, 4, 4), 2).shape
    torch.Size([1, 2, 2, 2, 2])
    """
    size = _adaptive_size(output_size, input, 3, "adaptive_avg_pool3d: output_size must be 3")
    if size == (1, 1, 1):
        return input.mean((-1, -2, -3), keepdim=True)
    return _N.adaptive_avg_pool3d(input, size)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated alias of :func:`interpolate`."""
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` "
                  "instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


# ============================================================================ unfold / fold

def _pair(x) -> tuple:
    return tuple(int(v) for v in x) if isinstance(x, (list, tuple)) else (int(x), int(x))


def _block_args_check(k, d, p, s, order):
    msgs = {"k": (k, "kernel size should be greater than zero, but got kernel_height: "
                  f"{k[0]} kernel_width: {k[1]}"),
            "d": (d, "dilation should be greater than zero, but got dilation_height: "
                  f"{d[0]} dilation_width: {d[1]}"),
            "s": (s, "stride should be greater than zero, but got stride_height: "
                  f"{s[0]} stride_width: {s[1]}")}
    for key in order:
        if key == "p":
            if p[0] < 0 or p[1] < 0:
                raise RuntimeError("padding should be non-negative, but got pad_height: "
                                   f"{p[0]} pad_width: {p[1]}")
            continue
        v, msg = msgs[key]
        if v[0] <= 0 or v[1] <= 0:
            raise RuntimeError(msg)


def unfold(input: Tensor, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Extract sliding blocks of (N, C, H, W) input as columns (N, C * kh * kw, L)
    (node ``Im2ColBackward0``).

    >>> import ember, ember.nn.functional as F
    >>> F.unfold(ember.ones(1, 2, 3, 3), 2).shape
    torch.Size([1, 8, 4])
    """
    from .._ops.util import norm_dim
    k, d, p, s = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    _block_args_check(k, d, p, s, "kdps")
    sh = input.shape
    nd = input.ndim
    if nd == 1 and input.requires_grad and _is_grad_enabled():
        norm_dim(-2, nd)   # torch's autograd kernel reads size(-2) first
    valid = sh[norm_dim(1, nd)] != 0 and sh[norm_dim(2, nd)] != 0
    if not ((nd == 3 and sh[0] != 0 and valid) or (nd == 4 and valid and sh[3] != 0)):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and "
                           f"other non-zero dimensions for input, but got: {list(sh)}")
    h, w = sh[-2:]
    oh, ow = _N._conv_out((h, w), k, s, p, d)
    if oh < 1 or ow < 1:
        raise RuntimeError(f"Given input with spatial size ({h}, {w}), kernel_size=({k[0]}, "
                           f"{k[1]}), dilation=({d[0]}, {d[1]}), padding=({p[0]}, {p[1]}), "
                           f"calculated shape of the array of sliding blocks as ({oh}, {ow}), "
                           "but its components must be at least one.")
    return _N.im2col(input, k, d, p, s)


def fold(input: Tensor, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Sum columns (N, C * kh * kw, L) of sliding blocks into (N, C, *output_size)
    (node ``Col2ImBackward0``); the adjoint of :func:`unfold`.

    >>> import ember, ember.nn.functional as F
    >>> F.fold(ember.ones(1, 4, 4), (3, 3), 2)[0, 0].tolist()
    [[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]
    """
    o = _pair(output_size)
    k, d, p, s = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    _block_args_check(k, d, p, s, "ksdp")
    sh = input.shape
    nd = input.ndim
    if not ((nd == 2 and sh[0] != 0 and sh[1] != 0) or (nd == 3 and sh[1] != 0 and sh[2] != 0)):
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: {list(sh)}")
    planes, length = sh[-2], sh[-1]
    if planes % (k[0] * k[1]):
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product "
                           f"of kernel_size, but got input.size(1)={planes} and "
                           f"kernel_size=({k[0]}, {k[1]}).")
    bh, bw = _N._conv_out(o, k, s, p, d)
    given = (f"Given output_size=({o[0]}, {o[1]}), kernel_size=({k[0]}, {k[1]}), "
             f"dilation=({d[0]}, {d[1]}), padding=({p[0]}, {p[1]}), stride=({s[0]}, {s[1]}), ")
    if length != bh * bw:
        raise RuntimeError(given + "expected size of input's dimension 2 to match the calculated "
                           f"number of sliding blocks {bh} * {bw} = {bh * bw}, but got "
                           f"input.size(2)={length}.")
    if bh < 1 or bw < 1:
        raise RuntimeError(given + f"calculated shape of the array of sliding blocks as ({bh}, "
                           f"{bw}), which is too small (non-positive)")
    if o[0] < 1 or o[1] < 1:
        raise RuntimeError("Expected output spatial size to be positive, but got: "
                           f"output_size=({o[0]}, {o[1]}).")
    return _N.col2im(input, o, k, d, p, s)


# the rest of torch's functional names (composed in ._functional_extra, loaded on first use)
from .. import _lazy  # noqa: E402

_EXTRA = (
    "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices",
    "adaptive_max_pool3d", "adaptive_max_pool3d_with_indices", "alpha_dropout", "celu_",
    "channel_shuffle", "conv_tbc", "cosine_similarity", "ctc_loss", "elu_",
    "feature_alpha_dropout", "fractional_max_pool2d", "fractional_max_pool2d_with_indices",
    "fractional_max_pool3d", "fractional_max_pool3d_with_indices", "gaussian_nll_loss",
    "gumbel_softmax", "handle_torch_function", "has_torch_function", "has_torch_function_unary",
    "has_torch_function_variadic", "hardshrink", "hardtanh_", "hinge_embedding_loss", "leaky_relu_",
    "local_response_norm", "lp_pool1d", "lp_pool2d", "lp_pool3d", "max_pool1d_with_indices",
    "max_pool2d_with_indices", "max_pool3d_with_indices", "max_unpool1d", "max_unpool2d",
    "max_unpool3d", "multi_margin_loss", "multilabel_margin_loss",
    "multilabel_soft_margin_loss", "native_channel_shuffle", "pairwise_distance", "pdist",
    "poisson_nll_loss", "rrelu", "rrelu_", "selu_", "soft_margin_loss", "softshrink",
    "threshold_", "triplet_margin_loss", "triplet_margin_with_distance_loss",
    "upsample_bilinear", "upsample_nearest")
_lazy.package(globals(), names={**dict.fromkeys(_EXTRA, "_functional_extra"),
                                "affine_grid": "_grid_sample", "grid_sample": "_grid_sample",
                                "embedding_bag": "_embedding_bag",
                                "pixel_shuffle": "_pixel_ops", "pixel_unshuffle": "_pixel_ops"})
del _lazy, _EXTRA

del annotations  # keep dir() to torch's names


from .._names import name_namespace as _name_namespace  # noqa: E402

_name_namespace(globals(), __name__)      # torch's __name__: ``relu`` …
del _name_namespace

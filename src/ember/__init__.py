"""Ember: PyTorch's tensor, autograd and nn programming model, in pure Python on NumPy.

``import ember as torch`` runs ordinary PyTorch code and gives PyTorch's answers: the same
random numbers after the same seed, the same printed tensors, the same gradients and errors.
"""

from __future__ import annotations

from . import _malloc

_malloc.tune()

from . import _dtype, _ops, autograd, cuda, random
from ._device import device
from ._dtype import (
    bool,
    cdouble,
    cfloat,
    complex64,
    complex128,
    double,
    dtype,
    float,
    float16,
    float32,
    float64,
    get_default_dtype,
    half,
    int,
    int8,
    int16,
    int32,
    int64,
    long,
    promote_types,
    result_type,
    set_default_dtype,
    short,
    uint8,
)
from ._factories import (
    arange,
    as_tensor,
    asarray,
    bernoulli,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    logspace,
    multinomial,
    normal,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    range,  # noqa: A004
    scalar_tensor,
    tensor,
    zeros,
    zeros_like,
)
from . import _printing as _tensor_str  # torch._tensor_str.printoptions
from ._printing import get_printoptions, printoptions, set_printoptions
from ._tensor import Size, Tensor
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled
from .autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .random import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)

from . import nn, optim, utils  # noqa: E402  (after the core names they use)
from . import multiprocessing  # noqa: E402  (torch.multiprocessing)
from . import linalg  # noqa: E402  (torch.linalg; registers inverse, det, svd …)
from .serialization import load, save  # noqa: E402

globals().update(_ops.FUNCTIONS)

__version__ = "0.1.0"

def is_tensor(obj) -> bool:
    """True if ``obj`` is an ember Tensor."""
    return isinstance(obj, Tensor)


def is_floating_point(input: Tensor) -> bool:
    return input.dtype.is_floating_point


def is_complex(input: Tensor) -> bool:
    return input.dtype.is_complex


def numel(input: Tensor) -> int:
    return input.numel()


def is_nonzero(input: Tensor) -> bool:
    return input.__bool__()


def can_cast(from_: dtype, to: dtype) -> bool:
    return _dtype.can_cast(from_, to)

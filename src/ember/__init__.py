"""Ember: PyTorch's tensor, autograd and nn programming model, in pure Python on NumPy.

``import ember as torch`` runs ordinary PyTorch code and gives PyTorch's answers: the same
random numbers after the same seed, the same printed tensors, the same gradients and errors.
"""

from __future__ import annotations

from . import _malloc, _mkl

_malloc.tune()
_mkl.start()                # MKL's runtime, where installed, loads while the import goes on

import numpy as _np

# torch never warns for inf * 0, 0 / 0, log(0), the mean of nothing …: NumPy's floating-point
# error state is set once here rather than around each kernel (docs/differences.md)
_np.seterr(all="ignore")

from . import _lazy

with _lazy.gc_paused():     # (the op families: thousands of long-lived objects, no garbage)
    from . import _dtype, _ops, autograd
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
    result_type_of as result_type,
    set_default_dtype,
    short,
    uint8,
    uint16,
    uint32,
    uint64,
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

from . import utils  # noqa: E402  (after the core names they use)

globals().update(_ops.FUNCTIONS)
del annotations  # keep dir() to torch's names

# ----- torch's API around the tensors: constants, versions, dtypes, devices, compile, amp
import math as _math

from . import _tensor_methods, amp, torch_version, version
from ._tensor_methods import ravel
from ._dtype import (
    bfloat16,
    float8_e4m3fn,
    float8_e4m3fnuz,
    float8_e5m2,
    float8_e5m2fnuz,
    qint8,
    qint32,
    quint2x4,
    quint4x2,
    quint8,
)
from ._memory_format import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    memory_format,
    preserve_format,
)
from .amp import autocast
from .amp.autocast_mode import get_autocast_dtype, is_autocast_enabled
from .amp.autocast_mode import set_autocast_dtype, set_autocast_enabled

inf, nan, pi, e = _math.inf, _math.nan, _math.pi, _math.e
__version__ = torch_version.TorchVersion(version.__version__)   # the torch API level


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


# ----- torch's smaller namespaces: layouts
from ._layout import (  # noqa: E402
    jagged,
    layout,
    sparse_bsc,
    sparse_bsr,
    sparse_coo,
    sparse_csc,
    sparse_csr,
    strided,
)


# ----- submodules and names loaded on first use (PEP 562), so that `import ember` stays quick:
# `ember.distributions.Normal`, `import ember.func`, `from ember import vmap` all load them
_LAZY_MODULES = ("_C", "__future__", "_aten", "_compile", "_cpu", "_decomp", "_dynamo", "_finfo",
                 "_inductor",
                 "_legacy",
                 "_logging", "_misc", "_printing", "_runtime", "_stl", "accelerator", "ao",
                 "backends", "classes", "compiler", "cpu", "cuda", "distributed",
                 "distributions", "export",
                 "fft", "func", "functional", "futures", "fx", "hub", "jit", "library", "linalg",
                 "masked", "multiprocessing", "nested", "nn", "optim", "overrides", "profiler",
                 "quantization", "quasirandom", "random", "return_types", "serialization",
                 "signal", "sparse", "special", "testing")
_LAZY_NAMES = {"load": "serialization", "save": "serialization", "vmap": "func",
               "compile": "_compile", "finfo": "_finfo", "iinfo": "_finfo", "ops": "_aten",
               "_amp_foreach_non_finite_check_and_unscale_": "amp.grad_scaler",
               "set_printoptions": "_printing", "_tensor_str": "_printing",
               "install_torch_alias": "_torch_alias", "remove_torch_alias": "_torch_alias"}
_LAZY_NAMES.update(dict.fromkeys((
    "Generator", "default_generator", "get_rng_state", "initial_seed", "manual_seed", "seed",
    "set_rng_state"), "random"))
_LAZY_NAMES.update(dict.fromkeys((
    "_assert", "as_strided_", "conj_physical_", "empty_permuted", "empty_strided", "fill",
    "frombuffer", "get_device", "is_inference", "is_same_size", "is_signed", "is_storage",
    "is_warn_always_enabled", "newaxis", "nonzero_static", "set_default_tensor_type",
    "set_flush_denormal", "set_warn_always", "typename"), "_misc"))
_LAZY_NAMES.update(dict.fromkeys((
    "BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor",
    "HalfTensor", "IntTensor", "LongTensor", "ShortTensor"), "_legacy"))
_LAZY_NAMES.update(dict.fromkeys((
    "are_deterministic_algorithms_enabled", "get_default_device",
    "get_float32_matmul_precision", "get_num_interop_threads", "get_num_threads",
    "is_deterministic_algorithms_warn_only_enabled", "set_default_device",
    "set_float32_matmul_precision", "set_num_interop_threads", "set_num_threads",
    "use_deterministic_algorithms"), "_runtime"))
# torch's top-level forms of the nn kernels (torch.conv2d, torch.dropout …)
_LAZY_NAMES.update(dict.fromkeys((
    "adaptive_avg_pool1d", "adaptive_max_pool1d", "affine_grid_generator", "alpha_dropout",
    "alpha_dropout_", "avg_pool1d", "batch_norm", "bilinear", "binary_cross_entropy_with_logits",
    "celu_", "channel_shuffle", "conv1d", "conv2d", "conv3d", "conv_tbc", "conv_transpose1d",
    "conv_transpose2d", "conv_transpose3d", "cosine_embedding_loss", "cosine_similarity",
    "ctc_loss", "dropout", "dropout_", "embedding", "embedding_bag", "embedding_renorm_",
    "feature_alpha_dropout", "feature_alpha_dropout_", "feature_dropout", "feature_dropout_",
    "grid_sampler", "grid_sampler_2d", "group_norm", "gru_cell", "hinge_embedding_loss",
    "instance_norm", "kl_div", "layer_norm", "lstm_cell", "margin_ranking_loss", "max_pool1d",
    "max_pool1d_with_indices", "max_pool2d", "max_pool3d", "norm_except_dim",
    "pairwise_distance", "pdist", "pixel_shuffle", "pixel_unshuffle", "poisson_nll_loss",
    "rms_norm", "rnn_relu_cell", "rnn_tanh_cell", "rrelu", "rrelu_", "selu_", "threshold_",
    "triplet_margin_loss"), "_nn_functions"))
# the linear algebra torch keeps at top level (legacy forms that warn, removed ones that raise)
_LAZY_NAMES.update(dict.fromkeys(("chain_matmul", "eig", "frobenius_norm", "lstsq", "lu",
                                  "lu_solve", "matrix_rank", "nuclear_norm", "solve", "symeig",
                                  "triangular_solve"), "_ops.linalg_legacy"))
_LAZY_NAMES["lu_unpack"] = "_ops.factorizations"
# signal processing and numerics
_LAZY_NAMES.update(dict.fromkeys(("bartlett_window", "blackman_window", "hamming_window",
                                  "hann_window", "kaiser_window", "stft", "istft"),
                                 "_ops.spectral"))
_LAZY_NAMES.update(gradient="_ops.numerics", unravel_index="_ops.numerics")
_LAZY_NAMES.update(dict.fromkeys(("geqrf", "orgqr", "ormqr"), "_ops.householder"))
_LAZY_NAMES.update(dict.fromkeys(("svd_lowrank", "pca_lowrank"), "_lowrank"))
_LAZY_NAMES.update(dict.fromkeys(("sparse_coo_tensor", "_sparse_coo_tensor_unsafe"),
                                 "sparse._sparse"))
_LAZY_NAMES["sparse_csr_tensor"] = "sparse._csr"
# quantized tensors (ember/ao/quantization/_tensor.py)
_LAZY_NAMES.update(dict.fromkeys((
    "quantize_per_tensor", "quantize_per_channel", "dequantize", "int_repr", "qscheme",
    "per_tensor_affine", "per_channel_affine", "per_tensor_symmetric", "per_channel_symmetric",
    "per_channel_affine_float_qparams", "_choose_qparams_per_tensor"), "ao.quantization._tensor"))
_LAZY_NAMES.update(dict.fromkeys(("_weight_norm", "_weight_norm_interface"), "_ops.weight_norm"))
# the foreach functions (ember/_foreach.py): unary, binary and ternary ops over tensor lists
_LAZY_NAMES.update(dict.fromkeys(
    [f"_foreach_{op}{tail}" for op in (
        "abs", "acos", "asin", "atan", "ceil", "cos", "cosh", "erf", "erfc", "exp", "expm1",
        "floor", "frac", "lgamma", "log", "log10", "log1p", "log2", "neg", "reciprocal",
        "round", "rsqrt", "sigmoid", "sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc",
        "add", "sub", "mul", "div", "clamp_min", "clamp_max", "maximum", "minimum", "pow",
        "addcmul", "addcdiv", "lerp") for tail in ("", "_")]
    + ["_foreach_zero_", "_foreach_copy_", "_foreach_clone", "_foreach_norm", "_foreach_max"],
    "_foreach"))


_LAZY_OPS = frozenset(_ops._FAMILY)    # the functions of the op families loaded on first use


def __getattr__(name: str):
    if name in _LAZY_OPS:
        from ._lazy import dispatching
        from ._names import named

        value = globals()[name] = dispatching(named(_ops.function(name), __name__, name),
                                              __name__, name)
        return value
    if name in _LAZY_MODULES or name in _LAZY_NAMES:
        from ._lazy import dispatching, import_module

        module = import_module(f".{_LAZY_NAMES.get(name, name)}", __name__)
        from ._names import named

        value = module if name in _LAZY_MODULES or name == "_tensor_str" else \
            dispatching(named(getattr(module, name), __name__, name), __name__, name)
        # (torch._tensor_str.printoptions: ember._printing, where the printing lives)
        globals()[name] = value
        if value is not module:     # (torch's error for a missing argument, as the others')
            _ops.registry.require_arguments({name: value}, False)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


globals().pop("_lazy", None)      # (ember._lazy: the mechanism, not a name of torch's)


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY_MODULES, *_LAZY_NAMES, *_LAZY_OPS})


from ._names import name_methods as _name_methods  # noqa: E402
from ._names import name_namespace as _name_namespace  # noqa: E402

_name_namespace(globals(), __name__)     # torch's __name__ for each function and method
_name_methods(Tensor)
del _name_methods, _name_namespace
_ops.registry.require_arguments(globals(), False)   # torch's error for a missing argument
_ops.registry.require_arguments(vars(Tensor), True)
globals().pop("_names", None)

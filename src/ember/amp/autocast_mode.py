"""``autocast``: CPU autocast runs torch's lower-precision ops in bfloat16 (or float16) and
its float32 ops in float32; CUDA autocast on a CPU-only build warns and stays off.

The op lists are torch's CPU lists (``autocast_mode.cpp``); ops not listed run in the dtype
their inputs promote to. The casts are recorded ops (``ToCopyBackward0``), and a float32 leaf
that requires grad is cast once per autocast region (torch's cast cache).
"""

from __future__ import annotations

import functools
import warnings

from .. import _dtype as _D

__all__ = ["autocast", "custom_bwd", "custom_fwd", "is_autocast_available",
           "is_autocast_enabled", "get_autocast_dtype", "set_autocast_enabled",
           "set_autocast_dtype"]

# torch's CPU autocast lists (autocast_mode.cpp), by the names of ember's ops that implement
# them: the lower-precision list (conv*, conv_transpose*, mm, bmm, addmm, baddbmm, addbmm,
# linear, which reaches these ops, prelu; matmul casts as mm before it dispatches, and mv,
# dot, addmv are not on the list) and, of the float32 list, the ops ember has
_LOWER = "lower"
_FP32 = "fp32"
_EMBER_OPS = {
    **dict.fromkeys(("_mm", "_bmm", "_addmm", "_baddbmm", "_addbmm", "convolution", "prelu"),
                    _LOWER),
    **dict.fromkeys(("_mse_loss", "_smooth_l1_loss", "_huber_loss", "_binary_cross_entropy",
                     "_bce_with_logits", "_nll_loss_NllLossBackward0",
                     "_nll_loss_NllLoss2DBackward0", "_soft_margin_loss", "_multi_margin_loss",
                     "_multilabel_margin_loss", "_ctc_loss", "_trace", "prod_all", "prod_dim",
                     "_avg_pool_AvgPool3DBackward0", "_pool_gather_MaxPool3DWithIndicesBackward0",
                     "_pool_gather_MaxPool3DWithIndicesBackward0_unique",
                     "_resample_AdaptiveAvgPool3DBackward0",
                     "_pool_gather_AdaptiveMaxPool3DBackward0", "cholesky_legacy",
                     "linalg_cholesky", "linalg_inv", "linalg_pinv", "linalg_solve"), _FP32),
}

_DEVICES = ("cpu", "cuda", "mps", "xpu", "hpu", "mtia", "xla", "ipu", "maia")
_DEFAULT_DTYPE = {"cpu": _D.bfloat16, "cuda": _D.float16}


class _State:
    __slots__ = ("enabled", "dtype", "cache", "depth", "cache_enabled")

    def __init__(self):
        self.enabled = False            # CPU autocast on
        self.dtype = _D.bfloat16         # its lower-precision dtype
        self.cache = {}                 # id(leaf) -> (leaf, cast) inside the outermost region
        self.depth = 0
        self.cache_enabled = True


_state = _State()
_other_enabled = {d: False for d in _DEVICES if d != "cpu"}
_other_dtype = {d: _D.float16 for d in _DEVICES if d != "cpu"}


def is_autocast_available(device_type: str) -> bool:
    return device_type in ("cpu", "cuda", "xpu", "mps", "hpu", "mtia", "maia", "xla")


def is_autocast_enabled(device_type: str | None = None) -> bool:
    """Whether autocast is on for ``device_type`` (CUDA when omitted, as torch)."""
    if device_type is None or device_type == "cuda":
        return _other_enabled["cuda"]
    if device_type == "cpu":
        return _state.enabled
    return _other_enabled.get(device_type, False)


def set_autocast_enabled(device_type, enabled=None) -> None:
    if enabled is None:         # the deprecated one-argument form: CUDA
        device_type, enabled = "cuda", device_type
    if device_type == "cpu":
        _state.enabled = bool(enabled)
    else:
        _other_enabled[device_type] = bool(enabled)


def get_autocast_dtype(device_type: str) -> _D.dtype:
    return _state.dtype if device_type == "cpu" else _other_dtype.get(device_type, _D.float16)


def set_autocast_dtype(device_type: str, dtype: _D.dtype) -> None:
    if device_type == "cpu":
        _state.dtype = dtype
    else:
        _other_dtype[device_type] = dtype


class autocast:
    """A context (and decorator) in which ops run in mixed precision as torch's autocast."""

    def __init__(self, device_type: str, dtype: _D.dtype | None = None, enabled: bool = True,
                 cache_enabled: bool | None = None):
        if not isinstance(device_type, str):
            raise ValueError("Expected `device_type` of type `str`, got: "
                             f"`{type(device_type)}`")
        from .._device import device
        device(device_type)         # torch's error for an unknown device type
        self.device = device_type
        self.fast_dtype = _DEFAULT_DTYPE.get(device_type, _D.float16) if dtype is None \
            else dtype
        self._cache_enabled = True if cache_enabled is None else bool(cache_enabled)
        if enabled and device_type == "cuda":
            warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.",
                          UserWarning, stacklevel=2)
            enabled = False
        elif enabled and device_type == "cpu" and self.fast_dtype not in (_D.bfloat16,
                                                                          _D.float16):
            warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling "
                          "autocast.\nCPU Autocast only supports dtypes of torch.bfloat16, "
                          "torch.float16 currently.", UserWarning, stacklevel=2)
            enabled = False
        self._enabled = bool(enabled)

    def __enter__(self):
        if self.device == "cpu":
            self.prev = (_state.enabled, _state.dtype, _state.cache_enabled)
            _state.enabled, _state.dtype = self._enabled, self.fast_dtype
            _state.cache_enabled = self._cache_enabled
            _state.depth += 1
        else:
            self.prev = (_other_enabled.get(self.device, False),
                         _other_dtype.get(self.device, _D.float16))
            _other_enabled[self.device] = self._enabled
            _other_dtype[self.device] = self.fast_dtype
        return self

    def __exit__(self, *exc):
        if self.device == "cpu":
            _state.enabled, _state.dtype, _state.cache_enabled = self.prev
            _state.depth -= 1
            if _state.depth == 0:
                _state.cache.clear()
        else:
            _other_enabled[self.device], _other_dtype[self.device] = self.prev
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorated(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return decorated


def _cast(t, to: _D.dtype):
    """``t`` cast to ``to`` as autocast casts (floating tensors only; cached leaves)."""
    from .._tensor import Tensor
    if not isinstance(t, Tensor) or not t.dtype.is_floating_point or t.dtype is to or \
            t.dtype is _D.float64:
        return t
    cacheable = (to is _state.dtype and t.dtype is _D.float32 and _state.cache_enabled
                 and t._requires_grad and t.grad_fn is None and t._base is None)
    if cacheable:
        hit = _state.cache.get(id(t))
        if hit is not None and hit[0] is t:
            return hit[1]
    out = t.to(to)
    if cacheable:
        _state.cache[id(t)] = (t, out)
    return out


def _cast_args(kind: str, args):
    """The arguments of an autocast-listed op, cast as its list says."""
    to = _state.dtype if kind == _LOWER else _D.float32
    return tuple(_cast(a, to) for a in args)


def _fp32_inputs(*tensors):
    """``tensors`` as CPU autocast casts the arguments of a composite op on torch's float32
    list (``cross_entropy_loss``, ``l1_loss``, ``kl_div`` …: floating tensors other than
    float64 to float32, before the op's checks); unchanged outside autocast."""
    return _cast_args(_FP32, tensors) if _state.enabled else tensors


def _cast_tree(value, device_type: str, dtype: _D.dtype):
    """``value`` with its floating tensors (not float64) cast to ``dtype``, through lists,
    tuples and dicts, as ``custom_fwd``'s ``cast_inputs`` casts."""
    from .._tensor import Tensor
    if isinstance(value, Tensor):
        eligible = (value.is_floating_point() and value.device.type == device_type
                    and value.dtype is not _D.float64)
        return value.to(dtype) if eligible else value
    if isinstance(value, (str, bytes)) or type(value).__module__ == "numpy":
        return value
    if isinstance(value, dict):
        return {_cast_tree(k, device_type, dtype): _cast_tree(v, device_type, dtype)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast_tree(v, device_type, dtype) for v in value)
    return value


def _check_device_type(device_type) -> None:
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")


def custom_fwd(fwd=None, *, device_type: str, cast_inputs: _D.dtype | None = None):
    """Decorator for a custom Function's ``forward``: it records the autocast state for
    ``backward`` and, with ``cast_inputs``, runs with autocast off on inputs cast to that
    dtype when called inside an autocast region."""
    _check_device_type(device_type)
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        args[0]._dtype = get_autocast_dtype(device_type)
        enabled = is_autocast_enabled(device_type)
        if cast_inputs is None:
            args[0]._fwd_used_autocast = enabled
            return fwd(*args, **kwargs)
        args[0]._fwd_used_autocast = False
        if not enabled:
            return fwd(*args, **kwargs)
        with autocast(device_type=device_type, enabled=False):
            return fwd(*_cast_tree(args, device_type, cast_inputs),
                       **_cast_tree(kwargs, device_type, cast_inputs))
    return decorate_fwd


def custom_bwd(bwd=None, *, device_type: str):
    """Decorator for a custom Function's ``backward``: it runs under the autocast state its
    ``forward`` (decorated with :func:`custom_fwd`) saw."""
    _check_device_type(device_type)
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        with autocast(device_type=device_type, enabled=args[0]._fwd_used_autocast,
                      dtype=args[0]._dtype):
            return bwd(*args, **kwargs)
    return decorate_bwd


del annotations  # keep dir() to torch's names

"""Process-wide settings torch keeps: threads, determinism, matmul precision, default device.

Ember computes with NumPy on the CPU, so these are kept and reported as torch reports them
without changing a result (as on a CPU torch, where none of them changes one either).
"""

from __future__ import annotations

import os
import warnings

from . import _errors
from ._device import CPU, DEFAULT, check, device
from ._ops import _exact, _vml

__all__ = ["set_num_threads", "get_num_threads", "set_num_interop_threads",
           "get_num_interop_threads", "use_deterministic_algorithms",
           "are_deterministic_algorithms_enabled", "is_deterministic_algorithms_warn_only_enabled",
           "set_float32_matmul_precision", "get_float32_matmul_precision",
           "set_default_device", "get_default_device"]

_state = {"interop": os.cpu_count() or 1,
          "deterministic": False, "warn_only": False, "precision": "highest"}


def _int_arg(value, fn: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuntimeError(f"{fn} expects an int, but got {type(value).__name__}")
    if value <= 0:
        raise RuntimeError(f"{fn} expects a positive integer")
    return value


def set_num_threads(num: int) -> None:
    """Set the number of intra-op threads torch would use: its reductions split their work by
    it, so the emulated kernels do too (the results' last bits follow it, as torch's)."""
    _exact.set_num_threads(_int_arg(num, "set_num_threads"))
    _vml.set_num_threads(_exact.get_num_threads())


def get_num_threads() -> int:
    return _exact.get_num_threads()


def set_num_interop_threads(num: int) -> None:
    _state["interop"] = _int_arg(num, "set_num_interop_threads")


def get_num_interop_threads() -> int:
    return _state["interop"]


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Ask for deterministic algorithms; ember's are all deterministic already."""
    if not isinstance(mode, bool):
        raise TypeError("_set_deterministic_algorithms(): argument 'mode' (position 1) must be "
                        f"bool, not {type(mode).__name__}")
    _state["deterministic"], _state["warn_only"] = mode, bool(warn_only)


def are_deterministic_algorithms_enabled() -> bool:
    return _state["deterministic"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return _state["warn_only"]


def set_float32_matmul_precision(precision: str) -> None:
    """``"highest"``, ``"high"`` or ``"medium"``; ember's matmuls are always full float32."""
    if not isinstance(precision, str):
        raise RuntimeError("set_float32_matmul_precision expects a str, but got "
                           f"{type(precision).__name__}")
    if precision not in ("highest", "high", "medium"):
        warnings.warn(_errors.internal(
            f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
            "setFloat32MatmulPrecision call has no effect.", "aten/src/ATen/Context.cpp:458"),
            UserWarning, stacklevel=2)
        return
    _state["precision"] = precision


def get_float32_matmul_precision() -> str:
    return _state["precision"]


def set_default_device(device) -> None:
    """Set the device factories use (None: the CPU): ``'cpu'`` or ``'meta'``; others raise
    the error a CPU build of torch raises."""
    DEFAULT[0] = CPU if device is None else check(device)


def get_default_device() -> device:
    """The device factories use (``set_default_device``, ``with ember.device(...)``)."""
    return DEFAULT[0]

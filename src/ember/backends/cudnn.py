"""``ember.backends.cudnn``: cuDNN's flags, as a build without cuDNN reports and keeps them."""

from __future__ import annotations

import sys
import types as _types

from ._flags import check_bool as _check_bool
from ._flags import scoped as _scoped

__all__ = ["is_available", "version", "flags", "enabled", "benchmark", "deterministic",
           "allow_tf32", "benchmark_limit"]

_SETTERS = {"enabled": "set_enabled_cudnn", "benchmark": "set_benchmark_cudnn",
            "deterministic": "set_deterministic_cudnn", "allow_tf32": "set_allow_tf32_cudnn"}


def is_available() -> bool:
    """False: there is no cuDNN."""
    return False


def version() -> None:
    """None: there is no cuDNN."""
    return None


def is_acceptable(tensor) -> bool:
    """False: no tensor can run through cuDNN."""
    return False


def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False,
          allow_tf32=True, fp32_precision="none", depthwise_kernel="auto"):
    """A context in which cuDNN's flags take the given values (torch's defaults when omitted)."""
    return _scoped(sys.modules[__name__], enabled=enabled, benchmark=benchmark,
                  benchmark_limit=benchmark_limit, deterministic=deterministic,
                  allow_tf32=allow_tf32)


class _CudnnModule(_types.ModuleType):
    """Checks the type of each flag set, as torch's ``CudnnModule`` does."""

    def __setattr__(self, name, value):
        if name in _SETTERS:
            _check_bool(value, _SETTERS[name])
        super().__setattr__(name, value)


enabled = True
benchmark = False
deterministic = False
allow_tf32 = True
benchmark_limit = 10

sys.modules[__name__].__class__ = _CudnnModule


del annotations  # keep dir() to torch's names

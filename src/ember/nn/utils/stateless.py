"""``nn.utils.stateless.functional_call``: torch's deprecated spelling of
``func.functional_call``."""

from __future__ import annotations

import warnings as _warnings

from ...func._functional_call import functional_call as _functional_call

__all__ = ["functional_call"]


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *,
                    tie_weights: bool = True, strict: bool = False):
    """``func.functional_call``, with torch's deprecation warning."""
    _warnings.warn("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 "
                  "and will be removed in a future version of PyTorch. Please use "
                  "`torch.func.functional_call` instead which is a drop-in replacement.",
                  FutureWarning, stacklevel=2)
    return _functional_call(module, parameters_and_buffers, args, kwargs,
                            tie_weights=tie_weights, strict=strict)


del annotations  # keep dir() to torch's names

"""``ember.nn.attention``: choosing the kernels of ``F.scaled_dot_product_attention``.

On the CPU, as in torch, the flash kernel runs where it applies and the math composition
elsewhere; ``sdpa_kernel`` limits the choice within a ``with`` block.

>>> import ember, ember.nn.functional as F
>>> from ember.nn.attention import SDPBackend, sdpa_kernel
>>> q = ember.ones(1, 1, 2, 4, requires_grad=True)
>>> with sdpa_kernel(SDPBackend.MATH):
...     F.scaled_dot_product_attention(q, q, q).grad_fn.name()
'UnsafeViewBackward0'
"""

from __future__ import annotations

import contextlib
from enum import Enum as _Enum

from ...backends import cuda as _flags

__all__ = ["SDPBackend", "sdpa_kernel"]


class SDPBackend(_Enum):
    """The kernels of scaled dot-product attention."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    def __repr__(self) -> str:
        return f"<SDPBackend.{self.name}: {self.value}>"

    def __str__(self) -> str:
        return f"SDPBackend.{self.name}"


_FLAG = {SDPBackend.MATH: "math", SDPBackend.FLASH_ATTENTION: "flash",
         SDPBackend.EFFICIENT_ATTENTION: "mem_efficient", SDPBackend.CUDNN_ATTENTION: "cudnn"}


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority: bool = False):
    """Within the block, let attention use only ``backends`` (one ``SDPBackend`` or a list)."""
    if isinstance(backends, SDPBackend):
        backends = [backends]
    if not isinstance(backends, (list, tuple, set)) or not all(
            isinstance(b, SDPBackend) for b in backends):
        raise AssertionError("Backend must be an instance of SDPBackend or a list of SDPBackend "
                             f"instances, got {type(backends).__name__}")
    saved = dict(_flags._sdp)
    _flags._sdp.update({flag: b in backends for b, flag in _FLAG.items()})
    try:
        yield {}
    finally:
        _flags._sdp.clear()
        _flags._sdp.update(saved)


del annotations  # keep dir() to torch's names

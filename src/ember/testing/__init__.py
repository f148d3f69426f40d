"""``ember.testing``: ``assert_close`` and ``make_tensor``, as ``torch.testing``."""

from __future__ import annotations

from ._comparison import assert_allclose, assert_close
from ._creation import make_tensor

__all__ = ["assert_close", "assert_allclose", "make_tensor"]


del annotations  # keep dir() to torch's names

"""``ember.backends.mha``: whether ``nn.MultiheadAttention`` and ``nn.TransformerEncoderLayer``
take torch's native inference fast path (``ember.nn._native_attention``) when its conditions
hold."""

from __future__ import annotations

_is_fastpath_enabled: bool = True


def get_fastpath_enabled() -> bool:
    """Whether the fast path of TransformerEncoder and MultiheadAttention is enabled."""
    return _is_fastpath_enabled


def set_fastpath_enabled(value: bool) -> None:
    """Enable or disable the fast path."""
    global _is_fastpath_enabled
    _is_fastpath_enabled = value


del annotations  # keep dir() to torch's names

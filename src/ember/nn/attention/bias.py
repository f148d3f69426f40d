"""``ember.nn.attention.bias``: causal masks that ``F.scaled_dot_product_attention`` understands.

A ``CausalBias`` is a Tensor subclass standing for a triangular boolean mask; passed as
``attn_mask`` it takes over the call through ``__torch_function__``, as in torch: the
upper-left variant (and any square one) becomes ``is_causal=True``, the lower-right one is
materialised (no CUDA kernel takes it here).

>>> import ember, ember.nn.functional as F
>>> from ember.nn.attention.bias import causal_lower_right
>>> causal_lower_right(2, 3)._materialize()
tensor([[ True,  True, False],
        [ True,  True,  True]])
"""

from __future__ import annotations

from enum import IntEnum, auto
from warnings import warn

from ... import _dtype as _D
from ... import _factories, _tensor
from ...overrides import _activate
from .. import functional as F

__all__ = ["causal_upper_left", "causal_lower_right", "CausalVariant", "CausalBias"]


class CausalVariant(IntEnum):
    """Which corner the causal triangle is aligned to when ``seq_len_q != seq_len_kv``."""

    UPPER_LEFT = auto()
    LOWER_RIGHT = auto()


class CausalBias(_tensor.Tensor):
    """A causal attention bias; build it with ``causal_upper_left`` or ``causal_lower_right``."""

    # Importing this module must not switch dispatch on for the whole process: the first
    # bias made does (see ember.overrides).
    _dispatch_from_first_instance = True

    def __init__(self, variant: CausalVariant, seq_len_q: int, seq_len_kv: int) -> None:
        if not isinstance(variant, CausalVariant):
            raise AssertionError(
                f"variant must be a CausalVariant, got {type(variant).__name__}")
        super().__init__()
        _activate()
        self.variant = variant
        self.seq_len_q = seq_len_q
        self.seq_len_kv = seq_len_kv
        if seq_len_q > seq_len_kv and variant == CausalVariant.LOWER_RIGHT:
            warn("Lower right causal bias will produce NaNs in the output when "
                 "seq_len_q > seq_len_kv!", stacklevel=2)

    def _materialize(self, device=None) -> _tensor.Tensor:
        """The boolean mask this bias stands for."""
        mask = _factories.ones(self.seq_len_q, self.seq_len_kv, dtype=_D.bool, device=device)
        if self.variant == CausalVariant.UPPER_LEFT:
            return mask.tril()
        if self.variant == CausalVariant.LOWER_RIGHT:
            return mask.tril(diagonal=self.seq_len_kv - self.seq_len_q)
        return None

    @staticmethod
    def _dispatch(query, key, value, attn_mask: CausalBias, dropout_p: float = 0.0,
                  is_causal: bool = False, scale=None, enable_gqa: bool = False):
        """Attention under this bias (what ``scaled_dot_product_attention`` becomes)."""
        if is_causal:
            raise ValueError("CausalBias should not be used with causal=True")
        if attn_mask.seq_len_q == attn_mask.seq_len_kv \
                or attn_mask.variant == CausalVariant.UPPER_LEFT:
            return F.scaled_dot_product_attention(query, key, value, attn_mask=None,
                                                  dropout_p=dropout_p, is_causal=True,
                                                  scale=scale, enable_gqa=enable_gqa)
        if attn_mask.variant == CausalVariant.LOWER_RIGHT:
            return F.scaled_dot_product_attention(query, key, value,
                                                  attn_mask=attn_mask._materialize(),
                                                  dropout_p=dropout_p, is_causal=False,
                                                  scale=scale, enable_gqa=enable_gqa)
        raise ValueError("CausalBias.variant must be a CausalVariant type, but found: "
                         f"{attn_mask.variant}")

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        """Route ``scaled_dot_product_attention`` to ``_dispatch``; everything else as a Tensor."""
        if kwargs is None:
            kwargs = {}
        if func is F.scaled_dot_product_attention:
            return cls._dispatch(*args, **kwargs)
        return super().__torch_function__(func, types, args, kwargs)

    def __repr__(self) -> str:
        return self._materialize().__repr__()


def causal_upper_left(*size) -> CausalBias:
    """A causal bias aligned to the upper left: ``tril(ones(size, dtype=bool))``."""
    if len(size) != 2:
        raise AssertionError("causal_upper_left only supports 2D tensors")
    seq_len_q, seq_len_kv = size
    return CausalBias(CausalVariant.UPPER_LEFT, seq_len_q, seq_len_kv)


def causal_lower_right(*size) -> CausalBias:
    """A causal bias aligned to the lower right:
    ``tril(ones(size, dtype=bool), diagonal=size[1] - size[0])``."""
    if len(size) != 2:
        raise AssertionError("causal_lower_right only supports 2D tensors")
    seq_len_q, seq_len_kv = size
    return CausalBias(CausalVariant.LOWER_RIGHT, seq_len_q, seq_len_kv)


del annotations  # keep dir() to torch's names

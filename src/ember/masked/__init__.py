"""``torch.masked``: the prototype :class:`MaskedTensor` (a tensor whose elements each carry
a "specified" bit) and its constructors."""

from ._core import MaskedTensor, as_masked_tensor, is_masked_tensor, masked_tensor

__all__ = ["MaskedTensor", "as_masked_tensor", "is_masked_tensor", "masked_tensor"]

"""``torch.nested``: nested tensors of the default (strided) layout.

``nested_tensor`` / ``as_nested_tensor`` make a :class:`~ember.nested._nested.NestedTensor`
from a list of tensors of one dimension whose sizes may differ; ``to_padded_tensor`` turns
it into a dense tensor. Indexing, ``unbind``, the regular sizes, printing, the pointwise ops
torch has nested kernels for (``relu``, ``tanh``, ``abs``, ``sin`` …, ``+ - * /`` of nested
tensors of one structure or with numbers), ``softmax``, ``matmul`` / ``bmm``,
``transpose`` / ``reshape`` / ``view`` of the inner dimensions and ``sum`` over the last
one compute what torch's do, with autograd through the constituents. The jagged layout is
not in Ember.
"""

from __future__ import annotations

from ._nested import NestedTensor, as_nested_tensor, nested_tensor, to_padded_tensor

__all__ = ["nested_tensor", "as_nested_tensor", "to_padded_tensor"]

del NestedTensor, annotations

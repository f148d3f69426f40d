"""``torch.return_types``: the named tuples ops return (``max``, ``sort``, ``topk`` …)."""

from ._ops.search import RETURN_TYPES as _TYPES

globals().update(_TYPES)
__all__ = sorted(_TYPES)

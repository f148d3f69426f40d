"""``torch.return_types``: the named tuples ops return (``max``, ``sort``, ``topk`` …)."""

from . import _ops, linalg  # noqa: F401  (the families that define most of them)
from ._ops.search import RETURN_TYPES as _TYPES

_ops.load_all()

globals().update(_TYPES)
__all__ = sorted(_TYPES)

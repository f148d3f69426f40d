"""``torch.return_types``: the named tuples ops return (``max``, ``sort``, ``topk`` …)."""

from . import _ops
from . import linalg as _linalg  # noqa: F401  (with the op families, where they are defined)
from ._ops.search import RETURN_TYPES as _TYPES

_ops.load_all()

globals().update(_TYPES)
__all__ = sorted(_TYPES)

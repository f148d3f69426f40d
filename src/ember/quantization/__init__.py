"""``torch.quantization``: the older name of :mod:`ember.ao.quantization`, and
``torch.quantization._numeric_suite``."""

from ..ao.quantization import *  # noqa: F401,F403
from ..ao.quantization import __all__ as _all
from .. import _lazy

__all__ = list(_all)
_lazy.package(globals(), modules=("_numeric_suite",))
del _lazy, _all

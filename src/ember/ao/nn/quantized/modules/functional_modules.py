"""``torch.ao.nn.quantized.modules.functional_modules``: the home of ``FloatFunctional``
and ``QFunctional``."""

from . import FloatFunctional, QFunctional  # noqa: F401

__all__ = ["FloatFunctional", "QFunctional"]

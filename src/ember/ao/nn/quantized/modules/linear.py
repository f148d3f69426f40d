"""``torch.ao.nn.quantized.modules.linear``: the home of ``Linear``."""

from . import Linear  # noqa: F401

__all__ = ["Linear"]

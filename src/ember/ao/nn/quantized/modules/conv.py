"""``torch.ao.nn.quantized.modules.conv``: the home of ``Conv2d``."""

from . import Conv2d  # noqa: F401

__all__ = ["Conv2d"]

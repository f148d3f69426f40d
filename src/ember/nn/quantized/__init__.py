"""``torch.nn.quantized``: the older name of :mod:`ember.ao.nn.quantized`."""

from ...ao.nn.quantized import *  # noqa: F401,F403
from ...ao.nn.quantized import __all__  # noqa: F401
from . import dynamic  # noqa: F401

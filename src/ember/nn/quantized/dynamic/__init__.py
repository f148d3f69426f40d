"""``torch.nn.quantized.dynamic``: the older name of :mod:`ember.ao.nn.quantized.dynamic`."""

from ....ao.nn.quantized.dynamic import *  # noqa: F401,F403
from ....ao.nn.quantized.dynamic import __all__  # noqa: F401

"""``torch.quantization._numeric_suite``: :mod:`ember.ao.ns._numeric_suite`."""

from ..ao.ns._numeric_suite import *  # noqa: F401,F403
from ..ao.ns._numeric_suite import __all__  # noqa: F401

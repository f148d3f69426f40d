"""``ember.nn``: modules, parameters, functional ops, initialisers and utilities.

Mirrors ``torch.nn``: ``nn.Module`` with registration by attribute, the layers of
:mod:`.modules`, ``nn.functional`` (:mod:`.functional`), ``nn.init`` and ``nn.utils``.
"""

from . import functional, init, utils  # noqa: F401
from .modules import *  # noqa: F401,F403
from .modules import Module  # noqa: F401
from .modules.module import _IncompatibleKeys  # noqa: F401
from .parameter import Buffer, Parameter  # noqa: F401
from .parameter import UninitializedBuffer, UninitializedParameter  # noqa: F401
from . import attention  # noqa: E402,F401  (torch.nn.attention: sdpa_kernel, SDPBackend)
from . import parallel  # noqa: E402,F401
from .parallel import DataParallel  # noqa: E402,F401

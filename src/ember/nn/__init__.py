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
from .. import _lazy  # noqa: E402

_lazy.package(globals(), modules=("parallel",), names={"DataParallel": "parallel"})
del _lazy

"""``ember.nn``: modules, parameters, functional ops, initialisers and utilities.

Mirrors ``torch.nn``: ``nn.Module`` with registration by attribute, the layers of
:mod:`.modules`, ``nn.functional`` (:mod:`.functional`), ``nn.init`` and ``nn.utils``.
"""

from . import functional, init  # noqa: F401
from . import modules as _modules
from .modules import Module  # noqa: F401
from .modules.module import _IncompatibleKeys  # noqa: F401
from .parameter import Buffer, Parameter  # noqa: F401
from .parameter import UninitializedBuffer, UninitializedParameter  # noqa: F401
from .. import _lazy  # noqa: E402

# the layers of modules' __all__; those it loads on first use (most) load on first use here
# too, as do nn.attention, nn.parallel and nn.utils
_LATER = [n for n in _modules.__all__ if n not in vars(_modules)]
globals().update({n: getattr(_modules, n) for n in _modules.__all__ if n not in _LATER})
_lazy.package(globals(), modules=("attention", "parallel", "quantized", "utils"),
              names={"DataParallel": "parallel", **dict.fromkeys(_LATER, "modules")})
del _lazy, _modules, _LATER

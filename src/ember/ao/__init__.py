"""``torch.ao``: quantization (:mod:`ember.ao.quantization`) and its modules
(:mod:`ember.ao.nn`), loaded on first use."""

from .. import _lazy

_lazy.package(globals(), modules=("nn", "quantization", "ns"))
del _lazy

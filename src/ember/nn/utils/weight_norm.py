"""``nn.utils.weight_norm``: the hook-based (deprecated) weight normalisation.

The parameter ``name`` is replaced by ``name_g`` (its norm over every dim but ``dim``) and
``name_v`` (its direction), and a forward pre-hook recomputes ``name = name_g · name_v /
‖name_v‖`` with ``torch._weight_norm`` before every forward — torch's design, name for name.
"""

from __future__ import annotations

import warnings as _warnings
from typing import Any, TypeVar

from ..._nn_functions import norm_except_dim
from ..._ops.weight_norm import _weight_norm
from ..modules.module import Module
from ..parameter import Parameter, UninitializedParameter

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]

_DEPRECATED = ("`torch.nn.utils.weight_norm` is deprecated in favor of "
               "`torch.nn.utils.parametrizations.weight_norm`.")


class WeightNorm:
    """The forward pre-hook that recomputes ``module.<name>`` from ``<name>_g`` and
    ``<name>_v``."""

    name: str
    dim: int

    def __init__(self, name: str, dim: int) -> None:
        if dim is None:
            dim = -1
        self.name = name
        self.dim = dim

    def compute_weight(self, module: Module) -> Any:
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module, name: str, dim: int) -> WeightNorm:
        _warnings.warn(_DEPRECATED, FutureWarning, stacklevel=2)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two weight_norm hooks on the same parameter {name}")
        if dim is None:
            dim = -1
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        if isinstance(weight, UninitializedParameter):
            raise ValueError(
                "The module passed to `WeightNorm` can't have uninitialized parameters. "
                "Make sure to run the dummy forward before applying weight normalization")
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    apply.__deprecated__ = _DEPRECATED

    def remove(self, module: Module) -> None:
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module))


T_module = TypeVar("T_module", bound=Module)


def weight_norm(module: T_module, name: str = "weight", dim: int = 0) -> T_module:
    """Reparametrise ``module.<name>`` as ``g · v / ‖v‖`` (deprecated in favour of
    :func:`ember.nn.utils.parametrizations.weight_norm`); ``dim=None`` normalises the whole
    tensor.

    >>> m = torch.nn.utils.weight_norm(torch.nn.Linear(20, 40), name="weight")
    >>> m.weight_g.size(), m.weight_v.size()
    (torch.Size([40, 1]), torch.Size([40, 20]))
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: T_module, name: str = "weight") -> T_module:
    """Undo :func:`weight_norm`: ``module.<name>`` is a plain parameter again.

    >>> m = torch.nn.utils.remove_weight_norm(torch.nn.utils.weight_norm(torch.nn.Linear(2, 3)))
    """
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")


del annotations  # keep dir() to torch's names

"""``LazyModuleMixin``: modules whose parameter shapes come from their first input.

Until the first call a lazy module holds :class:`UninitializedParameter` s (and buffers); a
forward pre-hook then infers the shapes, materialises and initialises the parameters (the RNG
draws happen then, as in torch), removes itself and turns the module into ``cls_to_become``
(``LazyLinear`` becomes ``Linear``). A state dict of initialised values loads into a lazy
module, materialising it.
"""

from __future__ import annotations

import itertools

from ...autograd.grad_mode import no_grad as _no_grad
from ..parameter import is_lazy


class LazyModuleMixin:
    """Mixin of the lazy modules (put it first among the bases)."""

    cls_to_become: type | None = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters,
                                                               with_kwargs=True)

    def _save_to_state_dict(self, destination, prefix, keep_vars) -> None:
        for name, param in self._parameters.items():
            if param is not None:
                if not (is_lazy(param) or keep_vars):
                    param = param.detach()
                destination[prefix + name] = param
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                if not (is_lazy(buf) or keep_vars):
                    buf = buf.detach()
                destination[prefix + name] = buf

    def _lazy_load_hook(self, state_dict, prefix, local_metadata, strict, missing_keys,
                        unexpected_keys, error_msgs) -> None:
        """Materialise each lazy parameter/buffer that the state dict holds initialised."""
        for name, param in itertools.chain(self._parameters.items(), self._buffers.items()):
            key = prefix + name
            if key in state_dict and param is not None:
                input_param = state_dict[key]
                if is_lazy(param) and not is_lazy(input_param):
                    with _no_grad():
                        param.materialize(input_param.shape)

    def initialize_parameters(self, *args, **kwargs) -> None:
        """Infer the shapes from the input batch and initialise the parameters."""
        raise NotImplementedError(
            f"initialize_parameters is not implemented for {self.__class__.__name__}")

    def has_uninitialized_params(self) -> bool:
        """Whether the module still holds uninitialised parameters or buffers."""
        return any(is_lazy(p) for p in itertools.chain(self._parameters.values(),
                                                       self._buffers.values()))

    def _infer_parameters(self, module, args, kwargs=None) -> None:
        kwargs = kwargs if kwargs else {}
        module.initialize_parameters(*args, **kwargs)
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        module._load_hook.remove()
        delattr(module, "_initialize_hook")
        delattr(module, "_load_hook")
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _replicate_for_data_parallel(self):
        raise RuntimeError("Modules with uninitialized parameters can't be used with "
                           "`DataParallel`. Run a dummy forward pass to correctly initialize "
                           "the modules")


del annotations  # keep dir() to torch's names

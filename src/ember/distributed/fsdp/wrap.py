"""Which submodules FSDP wraps in units of their own: the auto-wrap policies, and
``enable_wrap``/``wrap`` for wrapping by hand (torch.distributed.fsdp.wrap)."""

from __future__ import annotations

import contextlib as _contextlib

from ...nn.modules.container import ModuleDict as _ModuleDict
from ...nn.modules.container import ModuleList as _ModuleList
from ...nn.modules.transformer import MultiheadAttention as _MultiheadAttention

__all__ = ["always_wrap_policy", "lambda_auto_wrap_policy", "transformer_auto_wrap_policy",
           "size_based_auto_wrap_policy", "enable_wrap", "wrap", "CustomPolicy",
           "ModuleWrapPolicy"]


def always_wrap_policy(*args, **kwargs) -> bool:
    """Wrap every submodule."""
    return True


def _module_wrap_policy(module, recurse: bool, nonwrapped_numel: int, module_classes) -> bool:
    if recurse:
        return True
    return isinstance(module, tuple(module_classes))


def lambda_auto_wrap_policy(module, recurse: bool, nonwrapped_numel: int, lambda_fn) -> bool:
    """Wrap the submodules for which ``lambda_fn(module)`` is true."""
    if recurse:
        return True
    return lambda_fn(module)


def transformer_auto_wrap_policy(module, recurse: bool, nonwrapped_numel: int,
                                 transformer_layer_cls) -> bool:
    """Wrap the submodules that are instances of ``transformer_layer_cls`` (a set of
    classes), e.g. a transformer's blocks."""
    return _module_wrap_policy(module, recurse, nonwrapped_numel, transformer_layer_cls)


def size_based_auto_wrap_policy(module, recurse: bool, nonwrapped_numel: int,
                                min_num_params: int = int(1e8), force_leaf_modules=None,
                                exclude_wrap_modules=None) -> bool:
    """Wrap a submodule once at least ``min_num_params`` of its parameters are not yet in
    a unit of their own (``ModuleList``/``ModuleDict`` are never wrapped, and
    ``MultiheadAttention`` is not looked into)."""
    force_leaf_modules = (size_based_auto_wrap_policy.FORCE_LEAF_MODULES
                          if force_leaf_modules is None else force_leaf_modules)
    exclude_wrap_modules = (size_based_auto_wrap_policy.EXCLUDE_WRAP_MODULES
                            if exclude_wrap_modules is None else exclude_wrap_modules)
    is_large = nonwrapped_numel >= min_num_params
    if recurse:
        return is_large and not isinstance(module, tuple(force_leaf_modules))
    return is_large and not isinstance(module, tuple(exclude_wrap_modules))


size_based_auto_wrap_policy.EXCLUDE_WRAP_MODULES = {_ModuleList, _ModuleDict}
size_based_auto_wrap_policy.FORCE_LEAF_MODULES = {_MultiheadAttention}


class _Policy:
    """A policy object: FSDP calls it as ``policy(module=, recurse=, nonwrapped_numel=)``."""

    def __call__(self, module, recurse: bool, nonwrapped_numel: int):
        raise NotImplementedError


class ModuleWrapPolicy(_Policy):
    """Wrap every submodule that is an instance of one of ``module_classes``."""

    def __init__(self, module_classes) -> None:
        self._module_classes = set(module_classes)
        self._module_classes_str = str(self._module_classes)

    def __call__(self, module, recurse: bool, nonwrapped_numel: int) -> bool:
        return _module_wrap_policy(module, recurse, nonwrapped_numel, self._module_classes)

    def __repr__(self) -> str:
        return super().__repr__() + f"({self._module_classes_str})"


class CustomPolicy(_Policy):
    """Wrap the submodules for which ``lambda_fn(module)`` is true; a dict result gives
    that submodule's own FSDP keyword arguments."""

    def __init__(self, lambda_fn) -> None:
        self._lambda_fn = lambda_fn

    def __call__(self, module, recurse: bool, nonwrapped_numel: int):
        if recurse:
            return True
        return self._lambda_fn(module)


class _ConfigAutoWrap:
    in_autowrap_context = False
    wrapper_cls = None
    kwargs: dict = {}


@_contextlib.contextmanager
def enable_wrap(*, wrapper_cls, **wrapper_kwargs):
    """Within this context ``wrap(module)`` wraps ``module`` in ``wrapper_cls`` (FSDP) with
    these keyword arguments."""
    if _ConfigAutoWrap.in_autowrap_context:
        raise NotImplementedError(
            "You are already within an autowrap context and we currently do not supported "
            "nested autowrap.")
    _ConfigAutoWrap.in_autowrap_context = True
    _ConfigAutoWrap.wrapper_cls = wrapper_cls
    _ConfigAutoWrap.kwargs = dict(wrapper_kwargs)
    try:
        yield
    finally:
        _ConfigAutoWrap.in_autowrap_context = False
        _ConfigAutoWrap.wrapper_cls = None
        _ConfigAutoWrap.kwargs = {}


def wrap(module, **wrap_overrides):
    """``module`` wrapped as ``enable_wrap`` set up (unchanged outside it)."""
    if _ConfigAutoWrap.in_autowrap_context:
        kwargs = {**_ConfigAutoWrap.kwargs, **wrap_overrides}
        return _ConfigAutoWrap.wrapper_cls(module, **kwargs)
    return module


def _run_policy(policy, module, recurse: bool, nonwrapped_numel: int):
    return policy(module=module, recurse=recurse, nonwrapped_numel=nonwrapped_numel)


def _recursive_wrap(module, policy, wrapper, ignored_modules: set, ignored_params: set,
                    only_wrap_children: bool = False):
    """torch's ``_recursive_wrap``: wrap the children the policy picks, bottom up; returns
    the (possibly wrapped) module and the number of parameters now in units."""
    nonwrapped = sum(p.numel() for p in module.parameters() if p not in ignored_params)
    if not _run_policy(policy, module, True, nonwrapped):
        return module, 0
    wrapped = 0
    for name, child in module.named_children():
        if child in ignored_modules:
            continue
        new, n = _recursive_wrap(child, policy, wrapper, ignored_modules, ignored_params)
        setattr(module, name, new)
        wrapped += n
    remainder = nonwrapped - wrapped
    if not only_wrap_children:
        decision = _run_policy(policy, module, False, remainder)
        if decision:
            overrides = decision if isinstance(decision, dict) else {}
            return wrapper(module, **overrides), nonwrapped
    return module, wrapped


del annotations

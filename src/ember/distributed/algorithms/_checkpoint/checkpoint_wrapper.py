"""Activation checkpointing as module wrappers (torch's ``checkpoint_wrapper``): a wrapped
module's forward runs through ``torch.utils.checkpoint.checkpoint``, so its activations are
recomputed in backward instead of kept. The wrapped module sits under
``_checkpoint_wrapped_module``; that prefix is left out of state-dict keys and parameter
names, and added back when a state dict is loaded, so checkpoints move freely between
wrapped and unwrapped models."""

from __future__ import annotations

from enum import Enum, auto
from functools import partial

from ....autograd.graph import save_on_cpu
from ....nn.modules.module import Module
from ....utils.checkpoint import checkpoint as torch_utils_checkpoint

_CHECKPOINT_WRAPPED_MODULE = "_checkpoint_wrapped_module"
_CHECKPOINT_PREFIX = _CHECKPOINT_WRAPPED_MODULE + "."


class CheckpointImpl(Enum):
    """Which ``torch.utils.checkpoint`` implementation the wrapper uses."""

    REENTRANT = auto()
    NO_REENTRANT = auto()


def _replace_by_prefix(state_dict: dict, old_prefix: str, new_prefix: str) -> None:
    if old_prefix == new_prefix:
        raise ValueError("old_prefix and new_prefix must be distinct")
    for key in list(state_dict.keys()):
        if not key.startswith(old_prefix):
            continue
        new_key = new_prefix + key[len(old_prefix):]
        state_dict[new_key] = state_dict[key]
        del state_dict[key]


class ActivationWrapper(Module):
    """The base of the checkpoint and offload wrappers (not made directly)."""

    def __init__(self, mod: Module) -> None:
        super().__init__()
        self._checkpoint_wrapped_module = mod
        self._register_state_dict_hook(self._post_state_dict_hook)
        self.register_load_state_dict_pre_hook(self._pre_load_state_dict_hook)

    def forward(self, *args, **kwargs):
        raise ValueError("Subclasses should implement forward().")

    def __getattr__(self, name: str):
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self._checkpoint_wrapped_module, name)

    def __getitem__(self, key):
        return self._checkpoint_wrapped_module.__getitem__(key)

    def named_parameters(self, *args, **kwargs):
        """The parameters, their names without the ``_checkpoint_wrapped_module.`` parts."""
        for name, p in super().named_parameters(*args, **kwargs):
            yield name.replace(_CHECKPOINT_PREFIX, ""), p

    @staticmethod
    def _post_state_dict_hook(module, state_dict, prefix, *args):
        _replace_by_prefix(state_dict, f"{prefix}{_CHECKPOINT_PREFIX}", prefix)
        return state_dict

    @staticmethod
    def _pre_load_state_dict_hook(module, state_dict, prefix, *args):
        _replace_by_prefix(state_dict, prefix, prefix + _CHECKPOINT_PREFIX)


class OffloadWrapper(ActivationWrapper):
    """Keeps the wrapped module's saved activations on the CPU (``save_on_cpu``)."""

    def forward(self, *args, **kwargs):
        with save_on_cpu(pin_memory=True):
            return self._checkpoint_wrapped_module(*args, **kwargs)


class CheckpointWrapper(ActivationWrapper):
    """Runs the wrapped module under activation checkpointing (use ``checkpoint_wrapper``)."""

    def __init__(self, mod: Module, checkpoint_impl: CheckpointImpl = CheckpointImpl.NO_REENTRANT,
                 checkpoint_fn=None, **checkpoint_fn_kwargs) -> None:
        super().__init__(mod)
        self.checkpoint_impl = checkpoint_impl
        if checkpoint_fn is None:
            self.checkpoint_fn = partial(
                torch_utils_checkpoint,
                use_reentrant=(self.checkpoint_impl == CheckpointImpl.REENTRANT),
                **checkpoint_fn_kwargs)
        else:
            self.checkpoint_fn = partial(checkpoint_fn, **checkpoint_fn_kwargs)

    def forward(self, *args, **kwargs):
        if self.checkpoint_impl == CheckpointImpl.REENTRANT and kwargs != {}:
            keys = list(kwargs)
            flat = (*args, *kwargs.values())
            n = len(args)

            def my_function(*inputs):
                return self._checkpoint_wrapped_module(
                    *inputs[:n], **dict(zip(keys, inputs[n:])))

            return self.checkpoint_fn(my_function, *flat)
        return self.checkpoint_fn(self._checkpoint_wrapped_module, *args, **kwargs)


def offload_wrapper(module: Module) -> Module:
    """``module`` wrapped so that its saved activations are kept on the CPU."""
    return OffloadWrapper(module)


def checkpoint_wrapper(module: Module,
                       checkpoint_impl: CheckpointImpl = CheckpointImpl.NO_REENTRANT,
                       checkpoint_fn=None, **checkpoint_fn_kwargs) -> Module:
    """``module`` wrapped so that each call runs under activation checkpointing
    (``checkpoint_fn``, by default ``torch.utils.checkpoint.checkpoint`` with
    ``use_reentrant`` as ``checkpoint_impl`` says)."""
    return CheckpointWrapper(module, checkpoint_impl, checkpoint_fn, **checkpoint_fn_kwargs)


def apply_activation_checkpointing(model, checkpoint_wrapper_fn=checkpoint_wrapper,
                                   check_fn=lambda _: True, auto_wrap_policy=None) -> None:
    """Wrap, in place, each submodule of ``model`` for which ``check_fn`` is true (or that
    ``auto_wrap_policy`` picks) with ``checkpoint_wrapper_fn``."""
    from ...fsdp.wrap import _Policy, _recursive_wrap, lambda_auto_wrap_policy
    policy = (auto_wrap_policy if auto_wrap_policy is not None
              else partial(lambda_auto_wrap_policy, lambda_fn=check_fn))
    if not callable(policy) and not isinstance(policy, _Policy):
        raise ValueError(f"Expected {policy} to be callable or be a pre-defined wrap policy")
    _recursive_wrap(model, policy, checkpoint_wrapper_fn, set(), set(),
                    only_wrap_children=True)


del annotations

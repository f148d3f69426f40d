"""``ember.utils.hooks``: the handle every ``register_*hook`` returns, and hook markers."""

from __future__ import annotations

import warnings as _warnings

from ..autograd.graph import RemovableHandle

__all__ = ["RemovableHandle", "unserializable_hook", "warn_if_has_hooks"]


def unserializable_hook(f):
    """Mark ``f`` as a hook that is not saved with its tensor (no warning on save)."""
    f.__torch_unserializable__ = True
    return f


def warn_if_has_hooks(tensor) -> None:
    """Warn for each backward hook of ``tensor`` that saving it will drop."""
    hooks = getattr(tensor, "_backward_hooks", None) or {}
    for hook in hooks.values():
        if not hasattr(hook, "__torch_unserializable__"):
            _warnings.warn(f"backward hook {hook!r} on tensor will not be serialized.  If this "
                           "is expected, you can decorate the function with "
                           "@torch.utils.hooks.unserializable_hook to suppress this warning",
                           stacklevel=2)


del annotations  # keep dir() to torch's names

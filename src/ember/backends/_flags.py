"""Shared mechanics of the backend flag modules: typed flags and the ``flags()`` context."""

from __future__ import annotations

import contextlib


def check_bool(value, setter: str) -> bool:
    """torch's check on a boolean backend flag (``set_deterministic_cudnn expects a bool``)."""
    if not isinstance(value, bool):
        raise RuntimeError(f"{setter} expects a bool, but got {type(value).__name__}")
    return value


@contextlib.contextmanager
def scoped(module, **values):
    """Set ``module``'s flags to ``values`` for the block, then restore them."""
    old = {k: getattr(module, k) for k in values}
    for k, v in values.items():
        setattr(module, k, v)
    try:
        yield
    finally:
        for k, v in old.items():
            setattr(module, k, v)

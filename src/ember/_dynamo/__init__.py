"""``ember._dynamo``: the parts of torch's graph tracer that user code calls.

Ember runs everything eagerly (see :func:`ember.compile`), so there is no cache to reset and
nothing to exclude from tracing; these calls are accepted as torch accepts them.
"""

from __future__ import annotations

from .._compile import list_backends
from .._config_module import ConfigModule as _ConfigModule

__all__ = ["reset", "disable", "is_compiling", "config", "list_backends", "InvalidBackend",
           "mark_dynamic", "mark_static", "allow_in_graph"]


class InvalidBackend(RuntimeError):
    """An unknown ``backend=`` for ``compile``."""


def reset() -> None:
    """Forget compiled code (there is none: ember runs eagerly)."""


def is_compiling() -> bool:
    return False


def disable(fn=None, recursive: bool = True, *, reason=None, wrapping: bool = True):
    """Exclude ``fn`` from compilation: it runs as it is (usable as a decorator)."""
    if fn is None:
        return lambda f: f
    return fn


def mark_dynamic(t, index, *, min=None, max=None) -> None:
    """A hint for the tracer about a dynamic dimension (nothing to do eagerly)."""


def mark_static(t, index=None) -> None:
    """A hint for the tracer about a static dimension (nothing to do eagerly)."""


def allow_in_graph(fn):
    return fn


config = _ConfigModule("torch._dynamo.config")   # torch's settings (they steer nothing here)

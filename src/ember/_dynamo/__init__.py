"""``ember._dynamo``: the parts of torch's graph tracer that user code calls.

Ember runs everything eagerly (see :func:`ember.compile`), so there is no cache to reset and
nothing to exclude from tracing; these calls are accepted as torch accepts them.
"""

from __future__ import annotations

from .._compile import list_backends
from .._config_module import ConfigModule as _ConfigModule

__all__ = ["reset", "disable", "is_compiling", "config", "list_backends", "InvalidBackend",
           "mark_dynamic", "mark_static", "allow_in_graph", "explain"]


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


def explain(f, *extra_args, **extra_kwargs):
    """``explain(f)(*args)``: the graphs torch's tracer would capture ``f`` as, with their
    ``call_function`` ops (modules traced through, as torch inlines them), run once on
    ``args``. Ember captures by symbolic tracing: a function it cannot trace whole (control
    flow on tensor values) is reported with no graphs and the tracer's error as the break
    reason, where torch splits it at the break. There are no guards, and nothing is compiled
    (``compile_times`` lists no entries)."""
    def inner(*args, **kwargs):
        import contextlib
        import io
        import traceback

        from ..fx import GraphModule, Tracer
        from .backends.debugging import ExplainOutput, GraphCompileReason

        class Inlining(Tracer):
            def is_leaf_module(self, m, name) -> bool:
                return False

        graphs, reasons = [], []
        tracer = Inlining()
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                graph = tracer.trace(f)
            if any(n.op.startswith("call_") for n in graph.nodes):
                graphs.append(GraphModule(tracer.root, graph))
        except Exception as e:   # noqa: BLE001  (the part torch would split off)
            stack = traceback.extract_tb(e.__traceback__)
            reasons.append(GraphCompileReason(f"{type(e).__name__}: {e}", stack[-1:]))
        f(*args, **kwargs)
        ops = [[n.target for n in g.graph.nodes if n.op == "call_function"] for g in graphs]
        return ExplainOutput(graphs, len(graphs), len(graphs) - 1, reasons,
                             sum(map(len, ops)), ops, [],
                             "TorchDynamo compilation metrics:\nFunction, Runtimes (s)\n")

    if extra_args or extra_kwargs:
        import warnings
        warnings.warn(
            "explain(f, *args, **kwargs) is deprecated, use explain(f)(*args, **kwargs) instead.  "
            "If you don't migrate, we may break your explain call in the future if your user "
            "defined kwargs conflict with future kwargs added to explain(f).",
            FutureWarning, stacklevel=2)
        return inner(*extra_args, **extra_kwargs)
    return inner


config = _ConfigModule("torch._dynamo.config")   # torch's settings (they steer nothing here)

"""``ember.autograd``: reverse-mode automatic differentiation, as ``torch.autograd``.

``backward`` accumulates gradients into the leaves' ``.grad``; ``grad`` returns them instead
and leaves ``.grad`` untouched. The engine is in :mod:`.engine`, the graph in :mod:`.graph`.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping as _Mapping

from .. import _errors
from .. import _lazy
from . import grad_mode, graph  # noqa: F401
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .engine import execute as _execute
from .function import Function
from .grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from .variable import Variable

__all__ = ["backward", "grad", "Function", "Variable", "gradcheck", "gradgradcheck", "no_grad",
           "enable_grad", "set_grad_enabled", "inference_mode", "detect_anomaly",
           "set_detect_anomaly", "functional", "graph"]


def _as_tuple(x):
    if x is None:
        return None
    from .._tensor import Tensor
    if isinstance(x, (Tensor, graph.GradientEdge)):
        return (x,)
    return tuple(x)


def backward(tensors, grad_tensors=None, retain_graph: bool | None = None,
             create_graph: bool = False, grad_variables=None, inputs=None) -> None:
    """Accumulate d(tensors)/d(leaf) into each leaf's ``.grad`` (or only into ``inputs``).

    >>> import ember
    >>> x = ember.ones(3, requires_grad=True)
    >>> ember.autograd.backward((x * 2).sum())
    >>> x.grad
    tensor([2., 2., 2.])
    """
    tensors = _as_tuple(tensors)
    grads = _as_tuple(grad_tensors) if grad_tensors is not None else (None,) * len(tensors)
    if len(grads) != len(tensors):
        raise RuntimeError(f"got {len(grads)} tensors and {len(tensors)} gradients")
    if create_graph:
        warnings.warn(_errors.CREATE_GRAPH_WARNING, UserWarning, stacklevel=3)
    inputs = _as_tuple(inputs)
    if inputs is not None and len(inputs) == 0:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    non_leaves = [t for t in inputs if not isinstance(t, graph.GradientEdge)
                  and t.grad_fn is not None] if inputs else []
    captured = _execute(tensors, grads, retain_graph, create_graph, inputs=inputs,
                       accumulate=True, allow_unused=True)
    if non_leaves:   # non-leaf inputs get their .grad like leaves do
        for t, g in zip(inputs, captured):
            if not isinstance(t, graph.GradientEdge) and t.grad_fn is not None \
                    and g is not None:
                g = g if create_graph else g.detach()
                t._grad = g if t._grad is None else t._grad + g


def grad(outputs, inputs, grad_outputs=None, retain_graph: bool | None = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: bool | None = None,
         is_grads_batched: bool = False, materialize_grads: bool = False):
    """The gradients of ``outputs`` with respect to ``inputs``, as a tuple.

    >>> import ember
    >>> x = ember.tensor(3.0, requires_grad=True)
    >>> ember.autograd.grad(x ** 2, x)
    (tensor(6.),)
    """
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    outputs = _as_tuple(outputs)
    if type(inputs) is dict:                   # {name: tensor} in, {name: grad} out
        keys, inputs_t = tuple(inputs), tuple(inputs.values())
    elif isinstance(inputs, _Mapping):
        raise TypeError(f"`inputs` argument to `grad()` must be a dict, not "
                        f"{type(inputs).__name__}. Other Mapping types are not supported.")
    else:
        keys, inputs_t = None, _as_tuple(inputs)
    if len(inputs_t) == 0:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    grads = _as_tuple(grad_outputs) if grad_outputs is not None else (None,) * len(outputs)
    if len(grads) != len(outputs):
        raise RuntimeError(f"grad requires one grad_output per output: got {len(grads)} "
                           f"grad_outputs and {len(outputs)} outputs")
    if is_grads_batched and grad_outputs is not None:
        out = _batched_grad(outputs, inputs_t, grads, retain_graph, create_graph, allow_unused,
                            materialize_grads)
    else:
        result = _execute(outputs, grads, retain_graph, create_graph, inputs=inputs_t,
                          accumulate=False, allow_unused=allow_unused)
        out = []
        for t, g in zip(inputs_t, result):
            if g is None and materialize_grads:
                from .._factories import zeros_like
                g = zeros_like(t, requires_grad=create_graph)
            elif g is not None and not create_graph:
                g = g.detach()
            out.append(g)
        out = tuple(out)
    return out if keys is None else dict(zip(keys, out))


def _batched_grad(outputs, inputs, grads, retain_graph, create_graph, allow_unused,
                  materialize_grads):
    """``grad(..., is_grads_batched=True)``: one backward per slice along dim 0 of the
    grad_outputs (torch vmaps the backward over it), the results stacked along dim 0."""
    from .._ops.shape import stack
    n = next(g.shape[0] for g in grads if g is not None)
    keep = create_graph if retain_graph is None else retain_graph
    per = [grad(outputs, inputs, tuple(None if g is None else g[i] for g in grads),
                retain_graph=True if i < n - 1 else keep, create_graph=create_graph,
                allow_unused=allow_unused, materialize_grads=materialize_grads)
           for i in range(n)]
    return tuple(None if column[0] is None else stack(list(column)) for column in zip(*per))


# the engine, gradcheck and the graph pictures are importable modules, but not names of the
# package (torch.autograd has none of them)
# forward_ad, functional and profiler load on first use
_lazy.package(globals(), modules=("forward_ad", "functional", "profiler", "profiler_util"),
              names={"gradcheck": "gradcheck", "gradgradcheck": "gradcheck"},
              hide=("engine", "gradcheck", "visualize"))
del engine, _lazy  # noqa: F821
del annotations  # keep dir() to torch's names

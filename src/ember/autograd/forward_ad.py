"""Forward-mode AD (``torch.autograd.forward_ad``), by the double-backward trick.

``make_dual(p, t)`` marks ``p`` (an alias that records the ops applied to it) with the tangent
``t``; ``unpack_dual(y)`` computes ``J·t`` as the gradient, with respect to a dummy cotangent
``u``, of ``<vjp(u), t>`` (the vjp is linear in ``u``, so its own vjp is the jvp). The values
are torch's; a dual tensor prints as a plain tensor. A custom Function with a ``jvp`` gives
its outputs the tangents ``jvp`` computes: they join the level as duals, and the gradients
read through them stop at the Function's node (its ``backward`` is not what defines them).
"""

from __future__ import annotations

from collections import namedtuple as _namedtuple

__all__ = ["dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual",
           "UnpackedDualTensor"]

_levels: list[list] = []      # per level: [(dual, tangent, primal required grad)]
_cuts: list[set] = []         # per level: nodes of custom Functions whose jvp gave tangents


class UnpackedDualTensor(_namedtuple("UnpackedDualTensor", ["primal", "tangent"])):
    """The primal and tangent of a dual tensor (tangent None when it has none)."""


def enter_dual_level() -> int:
    """Open a new level (torch supports one at a time) and return its index."""
    if _levels:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _levels.append([])
    _cuts.append(set())
    return len(_levels) - 1


def exit_dual_level(*, level: int | None = None) -> None:
    """Close the level: its dual tensors lose their tangents."""
    if not _levels:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that "
                           "was created. This is not supported.")
    _levels.pop()
    _cuts.pop()


class dual_level:
    """``with dual_level():`` scopes the tangents made by :func:`make_dual`."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc) -> None:
        exit_dual_level()


def make_dual(tensor, tangent, *, level: int | None = None):
    """A view of ``tensor`` carrying the forward gradient ``tangent``."""
    if not _levels:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, "
                           "make sure to enter_dual_level() first.")
    if not (tensor.dtype.is_floating_point or tensor.dtype.is_complex):
        raise ValueError("Expected primal to be floating point or complex, but got: "
                         f"{tensor.dtype}")
    if not (tangent.dtype.is_floating_point or tangent.dtype.is_complex):
        raise ValueError("Expected tangent to be floating point or complex, but got: "
                         f"{tangent.dtype}")
    if tuple(tensor.shape) != tuple(tangent.shape):
        raise RuntimeError("Trying to set a forward gradient that has a different size than "
                           "that of the original Tensor, this is not supported. Tensor is of "
                           f"size {list(tensor.shape)} while the given forward gradient is of "
                           f"size {list(tangent.shape)}.")
    from .grad_mode import enable_grad
    with enable_grad():
        dual = tensor.view_as(tensor) if tensor.requires_grad else (
            tensor.detach().requires_grad_(True))
    _levels[-1].append((dual, tangent, tensor.requires_grad))
    return dual


def unpack_dual(tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """``(primal, tangent)`` of ``tensor``: the tangent is ``J·t`` summed over the dual
    tensors it was computed from, None when it depends on none."""
    from .._tensor import Tensor
    if not _levels or not isinstance(tensor, Tensor):
        return UnpackedDualTensor(tensor, None)
    duals = _levels[-1]
    user_graph = any(req for _, _, req in duals)
    primal = tensor if user_graph else tensor.detach()
    for d, t, _ in duals:
        if tensor is d:
            return UnpackedDualTensor(primal, t)
    if not tensor.requires_grad or not duals:
        return UnpackedDualTensor(primal, None)
    from .._factories import zeros_like
    from . import engine
    from . import grad as _grad
    from .grad_mode import enable_grad
    with enable_grad():
        u = zeros_like(tensor).requires_grad_(True)
        gs = engine.execute([tensor], [u], True, True, inputs=[d for d, _, _ in duals],
                            accumulate=False, allow_unused=True, cut=_cuts[-1])
        used = [(g, t) for g, (_, t, _) in zip(gs, duals) if g is not None and g.requires_grad]
        if not used:
            if any(g is not None for g in gs):       # linear in the duals: J t has no u in it
                return UnpackedDualTensor(primal, zeros_like(tensor))
            return UnpackedDualTensor(primal, None)
        (jt,) = _grad([g for g, _ in used], [u], [t for _, t in used], allow_unused=True,
                      create_graph=user_graph)
    return UnpackedDualTensor(primal, zeros_like(tensor) if jt is None else jt)


def _function_jvp(cls, ctx, args, outputs) -> None:
    """Give the tensor outputs of a custom Function applied (inside a level) to tensors with
    tangents the tangents of ``cls.jvp(ctx, *input tangents)`` (zeros for an input without
    one, None for a non-tensor argument)."""
    from .._factories import zeros_like
    from .._tensor import Tensor
    from .grad_mode import enable_grad, no_grad
    tangents = [unpack_dual(a).tangent if isinstance(a, Tensor) else None for a in args]
    if all(t is None for t in tangents):
        return
    tangents = [zeros_like(a) if t is None and isinstance(a, Tensor) else t
                for a, t in zip(args, tangents)]
    level = _levels[-1]
    # the tangents carry a graph where the user's primals require grad, as torch's do
    ctx._in_jvp = True
    try:
        with enable_grad() if any(req for _, _, req in level) else no_grad():
            out_t = cls.jvp(ctx, *tangents)
    finally:
        ctx._in_jvp = False
    if not isinstance(out_t, tuple):
        out_t = (out_t,)
    for o, t in zip(outputs, out_t):
        if isinstance(o, Tensor) and t is not None and o.grad_fn is ctx:
            level.append((o, t, False))
    _cuts[-1].add(ctx)


del annotations  # keep dir() to torch's names

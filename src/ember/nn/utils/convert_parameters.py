"""Flatten parameters into one vector and back."""

from __future__ import annotations

from collections.abc import Iterable

from ..._tensor import Tensor as _Tensor


def parameters_to_vector(parameters: Iterable[_Tensor]) -> _Tensor:
    """One 1-D tensor of every parameter's elements, in order (differentiable)."""
    from ..._ops import cat
    if isinstance(parameters, _Tensor):
        raise TypeError(f"expected Iterable of Tensors, but got: {type(parameters).__name__}")
    return cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec: _Tensor, parameters: Iterable[_Tensor]) -> None:
    """Make each parameter's data the next slice of ``vec``, viewed in its shape (as torch
    does: the parameters then share ``vec``'s memory and take its dtype)."""
    if not isinstance(vec, _Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    pointer = 0
    for param in parameters:
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n


del annotations  # keep dir() to torch's names

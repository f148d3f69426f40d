"""Numerical helpers composed of ops: ``gradient`` (finite differences, ATen's formulas in
ATen's order, so values, dtypes and gradients are torch's) and ``unravel_index`` (torch's
Python, on ember tensors). Loaded on first use.
"""

from __future__ import annotations

import itertools
import operator

from .. import _dtype as D
from .. import _factories as F
from .._tensor import Tensor
from .shape import cat
from .util import norm_dim

__all__ = ["gradient", "unravel_index"]


def _sl(x: Tensor, dim: int, start: int, end: int | None = None) -> Tensor:
    return x[(slice(None),) * dim + (slice(start, end),)]


def _checks(x: Tensor, n_spacing: int, dims, edge_order: int) -> list:
    """ATen's ``pre_check_gradient``; the dims, wrapped."""
    if x.dtype is D.uint8:
        raise RuntimeError("torch.gradient does not support uint8 input.")
    if dims is None and n_spacing != x.ndim:
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar, or a list of length "
            f"equal to 'self.dim() = {x.ndim}', since dim argument was not given, but got a "
            f"list of length {n_spacing}")
    if dims is not None and n_spacing != len(dims):
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and "
            "dim arguments to have the same length, but got a spacing argument of length "
            f"{n_spacing} and a dim argument of length {len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    wrapped = [norm_dim(d, x.ndim) for d in (range(x.ndim) if dims is None else dims)]
    for d in wrapped:
        if dims is not None and wrapped.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        if x.shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least "
                               "edge_order+1")
    return wrapped


def _uniform(x: Tensor, d: int, h, edge_order: int) -> Tensor:
    """ATen's ``gradient_helper_float``: a constant spacing ``h`` along ``d``."""
    center = (_sl(x, d, 2) - _sl(x, d, 0, -2)) / h
    if edge_order == 1:
        first = (_sl(x, d, 1, 2) - _sl(x, d, 0, 1)) / h
        last = (_sl(x, d, -1) - _sl(x, d, -2, -1)) / h
    else:
        first = (-1.5 * _sl(x, d, 0, 1) + 2 * _sl(x, d, 1, 2) - 0.5 * _sl(x, d, 2, 3)) / h
        last = (0.5 * _sl(x, d, -3, -2) - 2 * _sl(x, d, -2, -1) + 1.5 * _sl(x, d, -1)) / h
    return cat([first, center / 2, last], d)


def _coordinates(x: Tensor, d: int, coords: Tensor, edge_order: int) -> Tensor:
    """ATen's ``gradient_helper``: sample coordinates ``coords`` along ``d``."""
    if coords.ndim != 1:
        raise RuntimeError("torch.gradient expected each element of spacing to have one "
                           f"dimension, but got an element with {coords.ndim} dimensions!")
    shape = [1] * x.ndim
    shape[d] = -1
    dx = coords.diff(1, 0)
    dx1, dx2 = dx[:-1], dx[1:]
    a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
    b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
    c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
    center = a * _sl(x, d, 0, -2) + b * _sl(x, d, 1, -1) + c * _sl(x, d, 2)
    if edge_order == 1:
        first = (_sl(x, d, 1, 2) - _sl(x, d, 0, 1)) / dx[0]
        last = (_sl(x, d, -1) - _sl(x, d, -2, -1)) / dx[-1]
    else:
        h0, h1 = dx[0], dx[1]
        a = -(2.0 * h0 + h1) / (h0 * (h0 + h1))
        b = (h0 + h1) / (h0 * h1)
        c = (-h0) / (h1 * (h0 + h1))
        first = a * _sl(x, d, 0, 1) + b * _sl(x, d, 1, 2) + c * _sl(x, d, 2, 3)
        h0, h1 = dx[-1], dx[-2]
        a = h0 / (h1 * (h0 + h1))
        b = -(h0 + h1) / (h0 * h1)
        c = (2 * h0 + h1) / (h0 * (h0 + h1))
        last = a * _sl(x, d, -3, -2) + b * _sl(x, d, -2, -1) + c * _sl(x, d, -1)
    return cat([first, center, last], d)


def gradient(input: Tensor, *, spacing=1, dim=None, edge_order: int = 1) -> tuple:
    """Estimates of the derivative of ``input`` along each of ``dim`` (all by default), by
    central differences inside and one-sided ones at the ends (first or second order), with
    samples ``spacing`` apart (a number, one per dim) or at coordinates (one tensor per dim).

    >>> ember.gradient(ember.tensor([1., 4., 9., 16.]))
    (tensor([3., 4., 6., 7.]),)
    """
    if isinstance(spacing, Tensor):
        raise TypeError(
            "gradient() received an invalid combination of arguments - got (Tensor, "
            + ", ".join(f"{k}={type(v).__name__}" for k, v in
                        (("dim", dim), ("spacing", spacing)) if v is not None)
            + "), but expected one of:\n"
            " * (Tensor input, *, tuple of ints dim, int edge_order = 1)\n"
            " * (Tensor input, *, Number spacing, tuple of ints dim, int edge_order = 1)\n"
            " * (Tensor input, *, Number spacing = None, int dim = None, int edge_order = 1)\n"
            " * (Tensor input, *, tuple of Scalars spacing, int dim = None, int edge_order = 1)\n"
            " * (Tensor input, *, tuple of Scalars spacing, tuple of ints dim, int edge_order ="
            " 1)\n"
            " * (Tensor input, *, tuple of Tensors spacing, int dim = None, int edge_order = 1)\n"
            " * (Tensor input, *, tuple of Tensors spacing, tuple of ints dim, int edge_order ="
            " 1)\n")
    if spacing is None:
        spacing = 1.0
    dims = None if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    if isinstance(spacing, (list, tuple)):
        spacings = list(spacing)
    else:
        spacings = [spacing] * (input.ndim if dims is None else len(dims))
    wrapped = _checks(input, len(spacings), dims, edge_order)
    out = []
    for d, h in zip(wrapped, spacings):
        if isinstance(h, Tensor):
            out.append(_coordinates(input, d, h, edge_order))
        else:
            out.append(_uniform(input, d, h, edge_order))
    return tuple(out)


def unravel_index(indices: Tensor, shape) -> tuple:
    """The coordinates, in a tensor of ``shape``, of each flat index in ``indices``: one
    tensor per dimension.

    >>> ember.unravel_index(ember.tensor([4, 1]), (3, 2))
    (tensor([2, 0]), tensor([0, 1]))
    """
    if indices.dtype.is_complex or indices.dtype.is_floating_point or indices.dtype is D.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if not isinstance(shape, (int, list, tuple)):
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {type(shape)}")
    if isinstance(shape, int):
        shape = (shape,)
    else:
        for n in shape:
            if not isinstance(n, int):
                raise TypeError(f"expected 'shape' sequence to only contain ints, but got "
                                f"{type(n)}")
        shape = tuple(shape)
    if any(n < 0 for n in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {tuple(shape)}")
    coefs = list(reversed(list(itertools.accumulate(reversed(shape[1:] + (1,)),
                                                    func=operator.mul))))
    res = indices.unsqueeze(-1).floor_divide(F.tensor(coefs, dtype=D.int64)) \
        % F.tensor(shape, dtype=D.int64)
    return res.unbind(-1)

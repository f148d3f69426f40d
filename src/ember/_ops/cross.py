"""The cross product: ``linalg.cross`` (the op) and ``torch.cross`` / ``Tensor.cross`` (torch's
deprecated default dim: the first dim of size 3), as ATen's ``Cross.cpp``."""

from __future__ import annotations

import warnings

from .. import _dtype as D
from .. import _errors
from .._device import xp
from ._exact import fma
from .registry import expose, op, run
from .util import broadcast_shapes, c_order, norm_dim

_DEFAULT_DIM_WARNING = _errors.internal(
    "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the "
    "dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to "
    "agree with that of linalg.cross in a future release.", "aten/src/ATen/native/Cross.cpp:63")
_warned = False


def _conj(t):
    return t.conj() if t.dtype.is_complex else t


@op("LinalgCrossBackward0", name="linalg_cross", method=False, function=False, promote=None,
    holomorphic=False,
    self=lambda grad, other, dim: _linalg_cross(_conj(other), grad, dim),
    other=lambda grad, self, dim: _linalg_cross(grad, _conj(self), dim))
def _linalg_cross(self, other, dim):
    a = xp.moveaxis(self, dim, -1)
    b = xp.moveaxis(other, dim, -1)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    if a.dtype.kind == "f" and a.dtype.itemsize >= 4:
        # (torch's compiled float loop: the first product fused into the difference)
        out = xp.stack([fma(a1, b2, -(a2 * b1)), fma(a2, b0, -(a0 * b2)),
                        fma(a0, b1, -(a1 * b0))], axis=-1)
    elif a.dtype.kind == "c" and xp.__name__ == "numpy":
        # (c10::complex's products: complex64's each part rounded, complex128's contracted)
        from ._fused import complex_product

        def mul(x, y):
            return complex_product(x, y, a.dtype == xp.complex128)
        out = xp.stack([mul(a1, b2) - mul(a2, b1), mul(a2, b0) - mul(a0, b2),
                        mul(a0, b1) - mul(a1, b0)], axis=-1)
    else:   # (half types: each product and difference rounded to the type)
        out = xp.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return c_order(xp.moveaxis(out, -1, dim))      # (torch's result is contiguous)


def linalg_cross(input, other, *, dim: int = -1, out=None):
    """The cross product of 3-vectors along ``dim``, broadcasting the other dims."""
    if input.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    d = norm_dim(dim, input.ndim, scalar=False)
    if input.shape[d] != 3 or other.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{input.shape[d]} and {other.shape[d]}")
    broadcast_shapes(input.shape, other.shape)
    if input.dtype is D.bool:
        raise NotImplementedError("\"cross\" not implemented for 'Bool'")
    if input.dtype is not other.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.scalar_name} but found "
                           f"{other.dtype.scalar_name}")
    return run(_linalg_cross, (input, other, d), out)


@expose
def cross(input, other, dim: int | None = None, *, out=None):
    """The cross product along ``dim``; without ``dim`` (deprecated in torch), along the first
    dim of size 3."""
    global _warned
    if dim is None:
        if not _warned:       # TORCH_WARN_ONCE
            _warned = True
            warnings.warn(_DEFAULT_DIM_WARNING, UserWarning, stacklevel=2)
        dim = next((i for i, s in enumerate(input.shape) if s == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return linalg_cross(input, other, dim=dim, out=out)

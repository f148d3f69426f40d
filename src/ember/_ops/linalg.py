"""Matrix products: mm, mv, dot, bmm, addmm and matmul composed from them as torch does.

``matmul`` dispatches on the operands' dims exactly like torch (1-d·1-d → dot, 2-d·1-d → mv,
folding batched·matrix into one mm, broadcasting batches into bmm), so results carry torch's
grad_fn names (``MmBackward0``, ``UnsafeViewBackward0`` …).
"""

from __future__ import annotations

from .. import _dtype as D
from .._device import xp
from .registry import expose, op
from .shape import _squeeze_matmul, _unsafe_view


def _dims(t):
    return "x".join(str(s) for s in t.shape)


def _c_type(dt):
    return {"float32": "float", "float64": "double", "float16": "c10::Half",
            "int64": "long int", "int32": "int"}.get(dt.name, dt.name)


def _same_dtype(a, b):
    if a.dtype is not b.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{_c_type(a.dtype)} != {_c_type(b.dtype)}")


@op("MmBackward0", promote=None,
    self=lambda grad, mat2: grad.mm(mat2.t()),
    mat2=lambda grad, self: self.t().mm(grad))
def _mm(self, mat2):
    return xp.matmul(self, mat2)


@expose
def mm(input, mat2, *, out=None):
    """Matrix product of two 2-d tensors."""
    if input.ndim != 2 or mat2.ndim != 2:
        bad = input if input.ndim != 2 else mat2
        raise RuntimeError(f"{'self' if bad is input else 'mat2'} must be a matrix")
    if input.shape[1] != mat2.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_dims(input)} and "
                           f"{_dims(mat2)})")
    _same_dtype(input, mat2)
    from .registry import run
    return run(_mm, (input, mat2), out)


@op("MvBackward0", promote=None,
    self=lambda grad, vec: grad.unsqueeze(1) * vec.unsqueeze(0),
    vec=lambda grad, self: self.t().mv(grad))
def _mv(self, vec):
    return xp.matmul(self, vec)


@expose
def mv(input, vec, *, out=None):
    """Matrix-vector product."""
    if input.ndim != 2 or vec.ndim != 1 or input.shape[1] != vec.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({input.shape[0] if input.ndim else 0}),"
                           f" mat ({_dims(input)}), vec ({_dims(vec)})")
    _same_dtype(input, vec)
    from .registry import run
    return run(_mv, (input, vec), out)


@op("DotBackward0", promote=None,
    self=lambda grad, tensor: grad * tensor,
    tensor=lambda grad, self: grad * self)
def _dot(self, tensor):
    return xp.dot(self, tensor)


@expose
def dot(input, tensor, *, out=None):
    """Inner product of two 1-d tensors."""
    if input.ndim != 1 or tensor.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {tensor.ndim}D "
                           "tensors")
    if input.shape[0] != tensor.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{input.shape[0]}] and "
                           f"src [{tensor.shape[0]}] to have the same number of elements, but "
                           f"got {input.shape[0]} and {tensor.shape[0]} elements respectively")
    if input.dtype is not tensor.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{input.dtype._legacy[:-6]} and {tensor.dtype._legacy[:-6]}")
    from .registry import run
    return run(_dot, (input, tensor), out)


@op("BmmBackward0", promote=None,
    self=lambda grad, mat2: grad.bmm(mat2.transpose(1, 2)),
    mat2=lambda grad, self: self.transpose(1, 2).bmm(grad))
def _bmm(self, mat2):
    return xp.matmul(self, mat2)


@expose
def bmm(input, mat2, *, out=None):
    """Batched matrix product of two 3-d tensors."""
    if input.ndim != 3 or mat2.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if input.ndim != 3 else
                           "batch2 must be a 3D tensor")
    if input.shape[0] != mat2.shape[0] or input.shape[2] != mat2.shape[1]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{input.shape[0]}, {input.shape[2]}] but got: [{mat2.shape[0]}, "
            f"{mat2.shape[1]}].")
    _same_dtype(input, mat2)
    from .registry import run
    return run(_bmm, (input, mat2), out)


@op("AddmmBackward0", promote=None,
    self=lambda grad, beta: grad if beta == 1 else grad * beta,
    mat1=lambda grad, mat2, alpha: _alpha(grad.mm(mat2.t()), alpha),
    mat2=lambda grad, mat1, alpha: _alpha(mat1.t().mm(grad), alpha))
def _addmm(self, mat1, mat2, *, beta=1, alpha=1):
    prod = xp.matmul(mat1, mat2)
    if alpha != 1:
        prod = prod * prod.dtype.type(alpha)
    if beta == 0:
        return prod
    return prod + (self if beta == 1 else self * self.dtype.type(beta))


def _alpha(g, alpha):
    return g if alpha == 1 else g * alpha


@expose
def addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * (mat1 @ mat2)``."""
    if mat1.ndim != 2 or mat2.ndim != 2 or mat1.shape[1] != mat2.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_dims(mat1)} and "
                           f"{_dims(mat2)})")
    _same_dtype(mat1, mat2)
    from .registry import run
    return run(_addmm, (input, mat1, mat2, beta, alpha), out)


@expose
def matmul(input, other, *, out=None):
    """Matrix product with torch's dispatch over the operands' dims and batch broadcasting."""
    from .._tensor import Tensor
    if not isinstance(input, Tensor) or not isinstance(other, Tensor):
        raise TypeError(f"matmul(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(other if isinstance(input, Tensor) else input).__name__}")
    d1, d2 = input.ndim, other.ndim
    if d1 == 0 or d2 == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{d1}D and {d2}D")
    if d1 == 1 and d2 == 1:
        return dot(input, other, out=out)
    if d1 == 2 and d2 == 1:
        return mv(input, other, out=out)
    if d1 == 1 and d2 == 2:
        if input.shape[0] != other.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied (1x{input.shape[0]} "
                               f"and {_dims(other)})")
        return _squeeze_matmul(mm(input.unsqueeze(0), other), 0)
    if d1 == 2 and d2 == 2:
        return mm(input, other, out=out)
    if d1 >= 3 and d2 <= 2:
        folded = input.reshape(-1, input.shape[-1])
        if d2 == 1:
            if input.shape[-1] != other.shape[0]:
                raise RuntimeError(f"size mismatch, got input ({folded.shape[0]}), mat "
                                   f"({_dims(folded)}), vec ({other.shape[0]})")
            return _unsafe_view(mv(folded, other), input.shape[:-1])
        if input.shape[-1] != other.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_dims(folded)} and "
                               f"{_dims(other)})")
        return _unsafe_view(mm(folded, other), tuple(input.shape[:-1]) + (other.shape[1],))
    # batched: broadcast the batch dims and run one bmm
    a = input.unsqueeze(0) if d1 == 1 else input
    b = other.unsqueeze(-1) if d2 == 1 else other
    n, m1 = a.shape[-2], a.shape[-1]
    m2, p = b.shape[-2], b.shape[-1]
    if m1 != m2:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{_batch(a.shape[:-2], b.shape[:-2])}, {m1}] but got: "
                           f"[{_batch(a.shape[:-2], b.shape[:-2])}, {m2}].")
    from .util import broadcast_shapes
    batch = broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    nb = 1
    for s in batch:
        nb *= s
    a3 = a.expand(batch + (n, m1)).reshape(nb, n, m1)
    b3 = b.expand(batch + (m2, p)).reshape(nb, m2, p)
    shape = batch + ((n,) if d1 > 1 else ()) + ((p,) if d2 > 1 else ())
    return _unsafe_view(bmm(a3, b3), shape)


def _batch(s1, s2):
    n = 1
    for s in s1 or s2:
        n *= s
    return n


del D

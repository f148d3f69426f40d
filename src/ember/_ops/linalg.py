"""Matrix products: mm, mv, dot, bmm, addmm and matmul composed from them as torch does.

``matmul`` dispatches on the operands' dims exactly like torch (1-d·1-d → dot, 2-d·1-d → mv,
folding batched·matrix into one mm, broadcasting batches into bmm), so results carry torch's
grad_fn names (``MmBackward0``, ``UnsafeViewBackward0`` …).
"""

from __future__ import annotations

from .. import _dtype as D
from .._device import xp
from .registry import _scalar_name, expose, op
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
    if input.dtype is not vec.dtype:
        v, m = _scalar_name(vec.dtype), _scalar_name(input.dtype)
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {v}, {m}, "
                           f"and {v}")
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
    if input.dtype is not mat2.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_name(input.dtype)} but found "
                           f"{_scalar_name(mat2.dtype)}")
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


def _should_fold(t1, t2) -> bool:
    """torch's should_fold: run a batched·matrix product as one mm (or mv)."""
    larger = t1.ndim >= t2.ndim
    big = t1 if larger else t2.mT
    small_dim = t2.ndim if larger else t1.ndim
    if not (big.ndim >= 3 and small_dim <= 2):
        return False
    if (t2 if larger else t1).requires_grad:
        return True
    if t1.ndim == 2:
        return False
    if big._data.size == 0:
        return True
    st, sh = big.stride(), big.shape
    return all(st[i] == st[i + 1] * sh[i + 1] for i in range(big.ndim - 2))


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
    if _should_fold(input, other):
        # fold the batch of the larger operand into the rows of one mm (or mv)
        transpose = d2 > d1
        t1 = other.mT if transpose else input
        t2 = (input.t() if d1 == 2 else input) if transpose else other
        shape = tuple(t1.shape[:-1])
        folded = t1.reshape(-1 if t1._data.shape[-1] else _numel(shape), t1.shape[-1])
        if t2.ndim == 2:
            output = _unsafe_view(mm(folded, t2), shape + (t2.shape[1],))
            return output.mT.contiguous() if transpose else output
        if t1.shape[-1] != t2.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({folded.shape[0]}), mat "
                               f"({_dims(folded)}), vec ({t2.shape[0]})")
        return _unsafe_view(mv(folded, t2), shape)
    # batched: broadcast the batch dims and run one bmm
    n = input.shape[-2] if d1 > 1 else 1
    m1 = input.shape[-1]
    m2 = other.shape[-2] if d2 > 1 else other.shape[0]
    p = other.shape[-1] if d2 > 1 else 1
    from .util import broadcast_shapes
    batch = broadcast_shapes(tuple(input.shape[:-2]), tuple(other.shape[:-2]))
    nb = _numel(batch)
    a3 = input.expand(batch + (n, m1)).reshape(nb, n, m1)
    if d2 == 1:
        b3 = other.expand(batch + (m2,)).reshape(nb, m2).unsqueeze(2)
    else:
        b3 = other.expand(batch + (m2, p)).reshape(nb, m2, p)
    shape = batch + ((n,) if d1 > 1 else ()) + ((p,) if d2 > 1 else ())
    res = bmm(a3, b3)
    return _unsafe_view(res.squeeze(-1) if d2 == 1 else res, shape)


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


del D

"""Matrix products and matrix-shaped ops: mm, mv, dot, vdot, bmm, addmm, addmv, baddbmm,
addbmm, outer, matmul, einsum, tensordot, kron, trace, diagonal, diag, diag_embed, tril, triu.

``matmul`` dispatches on the operands' dims exactly like torch (1-d·1-d → dot, 2-d·1-d → mv,
folding batched·matrix into one mm, broadcasting batches into bmm), so results carry torch's
grad_fn names (``MmBackward0``, ``UnsafeViewBackward0`` …). ``einsum``, ``tensordot`` and
``kron`` are composed from views, ``bmm``/``mm`` and ``mul`` the way ATen composes them, so
their graphs (and grad_fn names) are torch's. The decompositions (inv, det, svd …) live in
``decompositions.py``.
"""

from __future__ import annotations

from .. import _dtype as D
from .._device import xp
from ..amp.autocast_mode import _state as _amp
from . import _gemm
from .registry import (
    PLAIN_RUNNERS,
    _raw_readable,
    _requires,
    _scalar_name,
    _state,
    _wrap,
    _write_out,
    autocast_inputs,
    check_out_dtype,
    expose,
    op,
    run,
)
from .shape import _squeeze_matmul, _unsafe_view
from .util import broadcast_shapes, norm_dim

_ndarray = xp.ndarray


def _dims(t):
    return "x".join(str(s) for s in t.shape)


def _same_dtype(a, b):
    if a.dtype is not b.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{a.dtype.cpp_name} != {b.dtype.cpp_name}")


def _colmajor(shape, strides) -> bool:
    """torch's test for a column-major matrix, whose gradient it returns column-major too."""
    return strides[0] == 1 and strides[1] == shape[0]


def _mat1_grad(grad, mat2, mat1_shape, mat1_strides, alpha=1):
    """torch's ``mm_mat1_backward``: the gradient laid out like ``mat1``."""
    if _colmajor(mat1_shape, mat1_strides):
        return _alpha(mat2.mm(grad.t()).t(), alpha)
    return _alpha(grad.mm(mat2.t()), alpha)


def _mat2_grad(grad, mat1, mat2_shape, mat2_strides, alpha=1):
    """torch's ``mm_mat2_backward``: the gradient laid out like ``mat2`` (a linear layer's
    ``weight.t()`` gets its gradient as ``(grad.t() @ input).t()``, contiguous for the weight)."""
    if _colmajor(mat2_shape, mat2_strides):
        return _alpha(grad.t().mm(mat1).t(), alpha)
    return _alpha(mat1.t().mm(grad), alpha)


def _alpha(g, alpha):
    return g if alpha == 1 else g * alpha


def _mat1_grad_raw(grad, mat2, mat1_shape, mat1_strides, alpha=1):
    """:func:`_mat1_grad` on arrays (None for a scaled product: the general path)."""
    if alpha != 1:
        return None
    if _colmajor(mat1_shape, mat1_strides):
        return _product(mat2, grad.T).T
    return _product(grad, mat2.T)


def _mat2_grad_raw(grad, mat1, mat2_shape, mat2_strides, alpha=1):
    """:func:`_mat2_grad` on arrays (None for a scaled product: the general path)."""
    if alpha != 1:
        return None
    if _colmajor(mat2_shape, mat2_strides):
        return _product(grad.T, mat1).T
    return _product(mat1.T, grad)


# (complex products: torch's formulas as written, the other factor conjugated, so the
# zeros of the gradient keep torch's signs)
@op("MmBackward0", promote=None, holomorphic=False,
    self=lambda grad, mat2, self_shape, self_strides: _mat1_grad(grad, mat2.conj(), self_shape,
                                                                 self_strides),
    mat2=lambda grad, self, mat2_shape, mat2_strides: _mat2_grad(grad, self.conj(), mat2_shape,
                                                                 mat2_strides),
    raw={"self": lambda grad, mat2, self_shape, self_strides: _mat1_grad_raw(
        grad, mat2, self_shape, self_strides),
         "mat2": lambda grad, self, mat2_shape, mat2_strides: _mat2_grad_raw(
        grad, self, mat2_shape, mat2_strides)})
def _mm(self, mat2):
    return _product(self, mat2)


def _product(a, b):
    """``a @ b`` of two matrices: torch's BLAS call where MKL is installed, else NumPy's."""
    out = _gemm.addmm(None, a, b)
    return _matmul_np(a, b, "addmm_impl_cpu_") if out is None else out


def _matmul_np(a, b, kernel):
    """NumPy's product, where torch has a kernel (none for bool: its error names ``kernel``;
    an empty product returns before the dispatch)."""
    if a.dtype == xp.bool_ and a.size and b.size:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    return xp.matmul(a, b)


@expose
def mm(input, mat2, *, out=None):
    """Matrix product of two 2-d tensors."""
    input, mat2 = autocast_inputs(_mm, input, mat2)
    a, b = input._data, mat2._data
    if (a.__class__ is not _ndarray or b.__class__ is not _ndarray) \
            and not (input.is_meta or mat2.is_meta):                  # a sparse operand
        from ..sparse._sparse import any_mm
        return any_mm(input, mat2)
    if a.ndim != 2 or b.ndim != 2:
        raise RuntimeError(f"{'self' if a.ndim != 2 else 'mat2'} must be a matrix")
    if a.shape[1] != b.shape[0]:
        if input.is_meta or mat2.is_meta:       # (torch's meta function says it so)
            raise RuntimeError(f"a and b must have same reduction dim, but got "
                               f"{list(a.shape)} X {list(b.shape)}.")
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_dims(input)} and "
                           f"{_dims(mat2)})")
    if a.dtype != b.dtype:
        _same_dtype(input, mat2)
    return run(_mm, (input, mat2), out)


@expose(method=False)
def spmm(input, mat2):
    """``torch.spmm``: ``mm``, for a sparse first operand as for a strided one."""
    return mm(input, mat2)


@op("MvBackward0", promote=None,
    self=lambda grad, vec: grad.unsqueeze(1) * vec.unsqueeze(0),
    vec=lambda grad, self: self.t().mv(grad))
def _mv(self, vec):
    out = _gemm.addmv(None, self, vec)
    return _matmul_np(self, vec, "addmv_impl_cpu") if out is None else out


@expose
def mv(input, vec, *, out=None):
    """Matrix-vector product."""
    input, vec = autocast_inputs(_mv, input, vec)
    if not input.ndim:                        # (torch's result takes input.size(0) first)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if input.ndim != 2 or vec.ndim != 1:      # (torch's addmv checks the dims first)
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input.ndim}, "
                           f"{vec.ndim}")
    if input.shape[1] != vec.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({input.shape[0] if input.ndim else 0}),"
                           f" mat ({_dims(input)}), vec ({_dims(vec)})")
    if input.dtype is not vec.dtype:
        v, m = _scalar_name(vec.dtype), _scalar_name(input.dtype)
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {v}, {m}, "
                           f"and {v}")
    if input._data.__class__ is not _ndarray and input.is_sparse:
        from ..sparse._sparse import dense_mv
        return dense_mv(input, vec)
    return run(_mv, (input, vec), out)


@op("DotBackward0", promote=None,
    self=lambda grad, tensor: grad * tensor,
    tensor=lambda grad, self: grad * self)
def _dot(self, tensor):
    out = _gemm.dot(self, tensor)
    return _matmul_np(self, tensor, "dot") if out is None else out


@expose
def dot(input, tensor, *, out=None):
    """Inner product of two 1-d tensors."""
    input, tensor = autocast_inputs(_dot, input, tensor)
    if input.ndim != 1 or tensor.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {tensor.ndim}D "
                           "tensors")
    if input.dtype is not tensor.dtype:        # (torch checks the types first)
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{input.dtype._legacy[:-6]} and {tensor.dtype._legacy[:-6]}")
    if input.shape[0] != tensor.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{input.shape[0]}] and "
                           f"src [{tensor.shape[0]}] to have the same number of elements, but "
                           f"got {input.shape[0]} and {tensor.shape[0]} elements respectively")
    if input.dtype is D.bool:
        raise NotImplementedError("\"dot\" not implemented for 'Bool'")
    if out is not None and out.dtype is not input.dtype:
        raise RuntimeError(f"result dtype {out.dtype.scalar_name} does not match input dtype "
                           f"{input.dtype.scalar_name}")
    return run(_dot, (input, tensor), out)


@op("BmmBackward0", promote=None, holomorphic=False,
    self=lambda grad, mat2: grad.bmm(mat2.transpose(1, 2).conj()),
    mat2=lambda grad, self: self.transpose(1, 2).conj().bmm(grad))
def _bmm(self, mat2):
    out = _gemm.baddbmm(None, self, mat2)
    return _matmul_np(self, mat2, "bmm") if out is None else out


@expose
def bmm(input, mat2, *, out=None):
    """Batched matrix product of two 3-d tensors."""
    input, mat2 = autocast_inputs(_bmm, input, mat2)
    if input.ndim != 3 or mat2.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if input.ndim != 3 else
                           "batch2 must be a 3D tensor")
    try:
        mismatch = input.shape[0] != mat2.shape[0] or input.shape[2] != mat2.shape[1]
    except RuntimeError:
        done = _nested_form("bmm", input, mat2)
        if done is None:
            raise
        return done
    if mismatch:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{input.shape[0]}, {input.shape[2]}] but got: [{mat2.shape[0]}, "
            f"{mat2.shape[1]}].")
    if input.dtype is not mat2.dtype or input.dtype is D.bool:
        # the meta function gives the result mat2's dtype (an out= of another dtype: its
        # error first); bmm_out_or_baddbmm_: an empty product returns (zeros) before the
        # dispatch on input's dtype, which comes before mat2's is read as it
        check_out_dtype(out, mat2.dtype)
        if 0 in (input.shape[0], input.shape[1], mat2.shape[2], input.shape[2]):
            from .._factories import zeros
            res = zeros(input.shape[0], input.shape[1], mat2.shape[2], dtype=mat2.dtype)
            if out is None:
                return res
            _write_out(out, res._data)
            return out
        shape = (input.shape[0], input.shape[1], mat2.shape[2])
        if out is not None and tuple(out.shape) != shape:
            _write_out(out, xp.empty(shape, out._data.dtype))     # (the meta's resize)
        if input.dtype is D.bool:
            raise NotImplementedError("\"bmm\" not implemented for 'Bool'")
        raise RuntimeError(f"expected scalar type {_scalar_name(input.dtype)} but found "
                           f"{_scalar_name(mat2.dtype)}")
    return run(_bmm, (input, mat2), out)


def _nested_form(name, *args):
    """The op on nested operands (``ember.nested``), else None; called only on an error path
    (a nested tensor has no sizes), so that dense operands pay nothing."""
    if not any(getattr(a, "is_nested", False) for a in args):
        return None
    from ..nested._nested import nested_op
    return nested_op(name, *args)


@op("AddmmBackward0", promote=None,
    self=lambda grad, beta: grad if beta == 1 else grad * beta,
    mat1=_mat1_grad, mat2=lambda grad, mat1, mat2_shape, mat2_strides, alpha: _mat2_grad(
        grad, mat1, mat2_shape, mat2_strides, alpha),
    raw={"self": lambda grad, beta: grad if beta == 1 else None, "mat1": _mat1_grad_raw,
         "mat2": lambda grad, mat1, mat2_shape, mat2_strides, alpha: _mat2_grad_raw(
        grad, mat1, mat2_shape, mat2_strides, alpha)})
def _addmm(self, mat1, mat2, *, beta=1, alpha=1):
    if mat1.dtype == xp.float16:
        return _in_float(_addmm, self, mat1, mat2, beta=beta, alpha=alpha)
    out = _gemm.addmm(self, mat1, mat2, beta, alpha)
    if out is not None:
        return out
    prod = _matmul_np(mat1, mat2, "addmm_impl_cpu_")
    if alpha != 1:
        prod = prod * prod.dtype.type(alpha)
    if beta == 0:
        return prod
    other = self if beta == 1 else self * self.dtype.type(beta)
    if other.dtype == prod.dtype and prod.ndim == 2 and other.shape == prod.shape[other.ndim - 2:]:
        return xp.add(prod, other, out=prod)          # the product is fresh: add in place
    return prod + other


@expose
def addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * (mat1 @ mat2)``."""
    if out is None and run is PLAIN_RUNNERS[0] and not _amp.enabled:
        res = _addmm_common(input, mat1, mat2, beta, alpha)
        if res is not None:
            return res
    input, mat1, mat2 = autocast_inputs(_addmm, input, mat1, mat2)
    a, b = mat1._data, mat2._data
    if a.__class__ is not _ndarray and mat1.is_sparse:
        from ..sparse._sparse import dense_addmm
        return dense_addmm(input, mat1, mat2, beta, alpha)
    for x, y, names in ((mat1, mat2, "mat1 and mat2"), (input, mat2, "self and mat2")):
        if x.dtype is not y.dtype:                    # torch checks dtypes before shapes
            raise RuntimeError(f"{names} must have the same dtype, but got "
                               f"{x.dtype.scalar_name} and {y.dtype.scalar_name}")
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_dims(mat1)} and "
                           f"{_dims(mat2)})")
    return run(_addmm, (input, mat1, mat2, beta, alpha), out)


_GEMM_DTYPES = frozenset((xp.dtype(xp.float32), xp.dtype(xp.float64)))
_NUMBERS = (int, float)


def _addmm_common(input, mat1, mat2, beta, alpha):
    """addmm's common case, a linear layer's: plain float32/float64 matrices of one dtype
    that fit, a bias of the result's shape or of its rows', numbers for ``beta`` and
    ``alpha``. Computes and records what ``run`` does for it, without the checks that only
    the other cases need; None for every other case (the general path)."""
    if not (_raw_readable(mat1) and _raw_readable(mat2) and _raw_readable(input)) \
            or beta.__class__ not in _NUMBERS or alpha.__class__ not in _NUMBERS:
        return None
    c, a, b = input._data, mat1._data, mat2._data
    if c.__class__ is not _ndarray or a.__class__ is not _ndarray \
            or b.__class__ is not _ndarray:
        return None
    dt = a.dtype
    if dt not in _GEMM_DTYPES or b.dtype != dt or c.dtype != dt or a.ndim != 2 \
            or b.ndim != 2 or a.shape[1] != b.shape[0] \
            or (c.shape != (b.shape[1],) and c.shape != (a.shape[0], b.shape[1])):
        return None
    res = _gemm.addmm(c, a, b, beta, alpha)
    if res is None:
        return None
    res = _wrap(res)
    args = (input, mat1, mat2, beta, alpha)
    if _state.enabled and _requires(_addmm, args):
        _addmm.record(args, (res,))
    return res


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
        from .._errors import ArgTypeError, type_name
        which = "'other' (position 2)" if isinstance(input, Tensor) else "'input' (position 1)"
        raise ArgTypeError(f"matmul(): argument {which} must be Tensor, not "
                           f"{type_name(other if isinstance(input, Tensor) else input)}")
    input, other = autocast_inputs(_mm, input, other)     # matmul is on mm's autocast list
    d1, d2 = input.ndim, other.ndim
    if d1 == 0 or d2 == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{d1}D and {d2}D")
    if d1 == 1 and d2 == 1:
        return dot(input, other, out=out)
    if d1 == 2 and d2 == 1:
        return mv(input, other, out=out)
    if out is not None and not (d1 == 2 and d2 == 2):
        return _matmul_into(input, other, out)
    if d1 == 1 and d2 == 2:
        if input.shape[0] != other.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied (1x{input.shape[0]} "
                               f"and {_dims(other)})")
        return _squeeze_matmul(mm(input.unsqueeze(0), other), 0)
    if d1 == 2 and d2 == 2:
        return mm(input, other, out=out)
    try:
        fold = _should_fold(input, other)
    except RuntimeError:
        done = _nested_form("matmul", input, other)
        if done is None:
            raise
        return done
    if fold:
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
    try:
        n = input.shape[-2] if d1 > 1 else 1
        m2 = other.shape[-2] if d2 > 1 else other.shape[0]
    except RuntimeError:
        done = _nested_form("matmul", input, other)
        if done is None:
            raise
        return done
    m1 = input.shape[-1]
    p = other.shape[-1] if d2 > 1 else 1
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


def _matmul_into(input, other, out):
    """``matmul_out`` where torch folds or batches the operands: mm_out or bmm_out into the
    out= (resized to the result), which must have the result's dtype."""
    from .. import _errors
    from .registry import _state, _write_out, check_out_dtype
    if _state.enabled and (input.requires_grad or other.requires_grad):
        raise RuntimeError(_errors.OUT_REQUIRES_GRAD.format("matmul"))
    if other.ndim == 1 and input.ndim > 2 and out.dtype is not input.dtype:
        # (a batch times a vector folds into mv_out, whose addmv checks the dtypes)
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{out.dtype.scalar_name}, {input.dtype.scalar_name}, and "
                           f"{other.dtype.scalar_name}")
    check_out_dtype(out, input.dtype)
    res = matmul(input, other)
    _write_out(out, res._data)
    return out


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n



# ----------------------------------------------------------------------------- more products

@op("VdotBackward0", promote=None, holomorphic=False,
    self=lambda grad, other: grad.conj() * other,
    other=lambda grad, self: grad * self)
def _vdot(self, other):
    out = _gemm.dot(self, other, conj=True) if self.dtype.kind == "c" else _gemm.dot(self, other)
    return xp.vdot(self, other) if out is None else out


@expose
def vdot(input, other, *, out=None):
    """Inner product of two 1-d tensors, conjugating the first."""
    if input.ndim != 1 or other.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {other.ndim}D "
                           "tensors")
    if input.dtype is not other.dtype:        # (torch checks the types first)
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{input.dtype._legacy[:-6]} and {other.dtype._legacy[:-6]}")
    if input.shape[0] != other.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{input.shape[0]}] and "
                           f"src [{other.shape[0]}] to have the same number of elements, but "
                           f"got {input.shape[0]} and {other.shape[0]} elements respectively")
    if input.dtype is D.bool:
        raise NotImplementedError("\"dot\" not implemented for 'Bool'")
    return run(_vdot, (input, other), out)


@op("AddrBackward0", promote=None,
    self=lambda grad, beta: grad if beta == 1 else grad * beta,
    vec1=lambda grad, vec2, alpha: grad.mv(vec2) * alpha,
    vec2=lambda grad, vec1, alpha: grad.t().mv(vec1) * alpha)
def _addr(self, vec1, vec2, *, beta=1, alpha=1):
    a, b = vec1[:, None], vec2[None, :]
    shape = (a.shape[0], b.shape[1])
    if a.dtype == xp.bool_:                  # torch's logical form for bool tensors
        prod = a & b if alpha else xp.zeros(shape, bool)
        return xp.broadcast_to(prod | self if beta else prod, shape).copy()
    if beta == 0:
        return xp.broadcast_to(_c(alpha, a) * a * b, shape).copy()
    scaled = self * _c(beta, self)
    if alpha == 0:
        return xp.broadcast_to(scaled, shape).copy()
    return scaled + _c(alpha, a) * a * b          # torch: beta * self + alpha * v1 * v2


@expose
def addr(input, vec1, vec2, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * outer(vec1, vec2)`` (logical and/or for bool tensors)."""
    for name, t in (("vec1", vec1), ("vec2", vec2)):
        if t.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {t.ndim}-D")
    msg = _expand_msg((vec1.shape[0], vec2.shape[0]), input)
    if msg:
        raise RuntimeError(msg)
    dt = D.result_type(input, vec1, vec2)
    if not (dt.is_floating_point or dt.is_complex) and dt is not D.bool:
        for name, v in (("beta", beta), ("alpha", alpha)):
            if isinstance(v, float):
                raise RuntimeError(f"For integral input tensors, argument {name} must not be "
                                   "a floating point number.")
    input, vec1, vec2 = (t if t.dtype is dt else t.to(dt) for t in (input, vec1, vec2))
    return run(_addr, (input, vec1, vec2, beta, alpha), out)


@expose
def outer(input, vec2, *, out=None):
    """Outer product of two vectors (``input.reshape(-1, 1) * vec2``, as torch computes it)."""
    for name, t in (("self", input), ("vec2", vec2)):
        if t.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.ndim}-D")
    res = input.reshape(input.shape[0], 1) * vec2
    if out is not None:
        from .registry import _write_out
        return _write_out(out, res._data)
    return res


ger = expose(outer, name="ger")


def _c(v, arr):
    return arr.dtype.type(v)


def _in_float(op, self, m1, m2, *, beta, alpha):
    """torch's float16 product kernels: accumulate, scale by ``alpha``/``beta`` and add
    ``self`` in float32, rounding to float16 once."""
    f = xp.float32
    return op.kernel(self.astype(f), m1.astype(f), m2.astype(f), beta, alpha).astype(xp.float16)


@op("AddmvBackward0", promote=None,
    self=lambda grad, beta: grad if beta == 1 else grad * beta,
    mat=lambda grad, vec, alpha: _alpha(grad.unsqueeze(1) * vec.unsqueeze(0), alpha),
    vec=lambda grad, mat, alpha: _alpha(mat.t().mv(grad), alpha))
def _addmv(self, mat, vec, *, beta=1, alpha=1):
    out = _gemm.addmv(self, mat, vec, beta, alpha)
    if out is not None:
        return out
    prod = xp.matmul(mat, vec)
    if alpha != 1:
        prod = prod * _c(alpha, prod)
    if beta == 0:
        return xp.broadcast_to(prod, prod.shape).copy()
    return prod + (self if beta == 1 else self * _c(beta, self))


@expose
def addmv(input, mat, vec, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * (mat @ vec)``."""
    input, mat, vec = autocast_inputs(_addmv, input, mat, vec)
    if mat.ndim != 2 or vec.ndim != 1 or input.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.ndim}, {mat.ndim}, "
                           f"{vec.ndim}")
    if mat.shape[1] != vec.shape[0] or (input.ndim == 1 and input.shape[0] not in
                                        (1, mat.shape[0])):
        raise RuntimeError(f"size mismatch, got input ({input.shape[0] if input.ndim else 1}),"
                           f" mat ({_dims(mat)}), vec ({vec.shape[0]})")
    if not (input.dtype is mat.dtype is vec.dtype):
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{_scalar_name(input.dtype)}, {_scalar_name(mat.dtype)}, and "
                           f"{_scalar_name(vec.dtype)}")
    return run(_addmv, (input, mat, vec, beta, alpha), out)


def _expand_msg(target, t):
    """torch's expand error for an ``input`` that does not broadcast to the product."""
    try:
        full = broadcast_shapes(tuple(t.shape), target)
    except RuntimeError:
        full = None
    if full == tuple(target):
        return None
    lead = len(target) - t.ndim
    for i in range(t.ndim - 1, -1, -1):
        s = t.shape[i]
        if s != 1 and s != target[i + lead]:
            return (f"The expanded size of the tensor ({target[i + lead]}) must match the "
                    f"existing size ({s}) at non-singleton dimension {i + lead}.  Target "
                    f"sizes: {list(target)}.  Tensor sizes: {list(t.shape)}")
    return f"expand: input of {t.ndim} dims does not fit {list(target)}"


@op("BaddbmmBackward0", promote=None,
    self=lambda grad, beta: grad if beta == 1 else grad * beta,
    batch1=lambda grad, batch2, alpha: _alpha(grad.bmm(batch2.transpose(1, 2)), alpha),
    batch2=lambda grad, batch1, alpha: _alpha(batch1.transpose(1, 2).bmm(grad), alpha))
def _baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
    if batch1.dtype == xp.float16:
        return _in_float(_baddbmm, self, batch1, batch2, beta=beta, alpha=alpha)
    out = _gemm.baddbmm(self, batch1, batch2, beta, alpha)
    if out is not None:
        return out
    prod = xp.matmul(batch1, batch2)
    if alpha != 1:
        prod = prod * _c(alpha, prod)
    if beta == 0:
        return prod
    return prod + (self if beta == 1 else self * _c(beta, self))


def _check_batches(b1, b2, input=None):
    if input is not None and b1.ndim >= 2 and b2.ndim >= 1:
        # torch expands ``input`` to the product's size before it checks the dims
        msg = _expand_msg((b1.shape[0], b1.shape[1], b2.shape[-1]), input)
        if msg:
            raise RuntimeError(msg)
    if b1.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b2.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")


@expose
def baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * bmm(batch1, batch2)``."""
    input, batch1, batch2 = autocast_inputs(_baddbmm, input, batch1, batch2)
    if batch1.ndim == 3 and batch2.ndim == 3 and (
            batch1.shape[0] != batch2.shape[0] or batch1.shape[2] != batch2.shape[1]):
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{batch1.shape[0]}, {batch1.shape[2]}] but got: [{batch2.shape[0]}, "
            f"{batch2.shape[1]}].")
    _check_batches(batch1, batch2, input)
    if not (input.dtype is batch1.dtype is batch2.dtype):
        raise RuntimeError(f"expected scalar type {_scalar_name(input.dtype)} but found "
                           f"{_scalar_name(batch1.dtype if batch1.dtype is not input.dtype else batch2.dtype)}")  # noqa: E501
    return run(_baddbmm, (input, batch1, batch2, beta, alpha), out)


@op("AddbmmBackward0", promote=None,
    self=lambda grad, beta: grad if beta == 1 else grad * beta,
    batch1=lambda grad, batch1, batch2, alpha: _alpha(
        grad.unsqueeze(0).expand(batch1.shape[0], *grad.shape).bmm(batch2.transpose(1, 2)),
        alpha),
    batch2=lambda grad, batch1, batch2, alpha: _alpha(
        batch1.transpose(1, 2).bmm(grad.unsqueeze(0).expand(batch2.shape[0], *grad.shape)),
        alpha))
def _addbmm(self, batch1, batch2, *, beta=1, alpha=1):
    if batch1.shape[0] and batch1.dtype.kind == "f":
        # torch's loop: ``result.addmm_(batch1[b], batch2[b], beta, alpha)``, beta = 1 after the
        # first batch, so a float16 result is rounded once per batch
        out = self
        for b in range(batch1.shape[0]):
            out = _addmm.kernel(out, batch1[b], batch2[b], beta if b == 0 else 1, alpha)
        return xp.broadcast_to(out, (batch1.shape[1], batch2.shape[2])).copy()
    prod = xp.matmul(batch1, batch2).sum(0)
    if alpha != 1:
        prod = prod * _c(alpha, prod)
    if beta == 0:
        return prod
    return prod + (self if beta == 1 else self * _c(beta, self))


@expose
def addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``."""
    input, batch1, batch2 = autocast_inputs(_addbmm, input, batch1, batch2)
    _check_batches(batch1, batch2)
    if batch1.shape[0] != batch2.shape[0] or batch1.shape[2] != batch2.shape[1]:
        if batch1.shape[2] != batch2.shape[1]:
            raise RuntimeError(f"Incompatible matrix sizes for bmm ({batch1.shape[1]}x"
                               f"{batch1.shape[2]} and {batch2.shape[1]}x{batch2.shape[2]})")
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got "
                           f"{batch1.shape[0]} and {batch2.shape[0]}")
    msg = _expand_msg((batch1.shape[1], batch2.shape[2]), input)
    if msg:
        raise RuntimeError(msg)
    return run(_addbmm, (input, batch1, batch2, beta, alpha), out)


# ----------------------------------------------------------------------------- diagonals

def _diag_view(a, offset, dim1, dim2):
    """A writable NumPy view of a diagonal (NumPy's own is read-only)."""
    d = xp.diagonal(a, offset, dim1, dim2)
    if a.flags.writeable:
        d.flags.writeable = True
    return d


@op("DiagonalBackwardBackward0", name="diagonal_backward", method=False, function=False,
    promote=None,
    grad_output=lambda grad, offset, dim1, dim2: diagonal(grad, offset, dim1, dim2))
def _diagonal_backward(grad_output, input_sizes, offset, dim1, dim2):
    out = xp.zeros(input_sizes, grad_output.dtype)
    _diag_view(out, offset, dim1, dim2)[...] = grad_output
    return out


@op("DiagonalBackward0", name="diagonal_", method=False, function=False, view=True,
    promote=None,
    self=lambda grad, self_shape, offset, dim1, dim2:
        _diagonal_backward(grad, self_shape, offset, dim1, dim2))
def _diagonal(self, offset, dim1, dim2):
    return _diag_view(self, offset, dim1, dim2)


def _diag_dims(nd, dim1, dim2):
    d1, d2 = norm_dim(dim1, nd), norm_dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


@expose
def diagonal(input, offset=0, dim1=0, dim2=1):
    """A view of the diagonal ``offset`` of the planes spanned by ``dim1`` and ``dim2``."""
    d1, d2 = _diag_dims(input.ndim, dim1, dim2)
    return _diagonal(input, offset, d1, d2)


@op("DiagonalBackward0_copy", name="diagonal_copy", method=False, function=False,
    promote=None,
    self=lambda grad, self_shape, offset, dim1, dim2:
        _diagonal_backward(grad, self_shape, offset, dim1, dim2))
def _diagonal_copy(self, offset, dim1, dim2):
    return xp.diagonal(self, offset, dim1, dim2).copy()


@op("DiagEmbedBackward0", name="diag_embed_", method=False, function=False, promote=None,
    self=lambda grad, offset, dim1, dim2: diagonal(grad, offset, dim1, dim2))
def _diag_embed(self, offset, dim1, dim2):
    n = self.shape[-1] + abs(offset) if self.ndim else 1
    nd = self.ndim + 1
    rest = list(self.shape[:-1])
    shape = []
    it = iter(rest)
    for i in range(nd):
        shape.append(n if i in (dim1, dim2) else next(it))
    out = xp.zeros(shape, self.dtype)
    _diag_view(out, offset, dim1, dim2)[...] = self
    return out


@expose
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Tensors whose diagonals (over ``dim1``, ``dim2``) are the last dim of ``input``."""
    d1, d2 = _diag_dims(input.ndim + 1, dim1, dim2)
    return _diag_embed(input, offset, d1, d2)


@expose
def diag(input, diagonal=0, *, out=None):
    """A 1-d input's diagonal matrix, or a 2-d input's diagonal (a copy)."""
    if input.ndim == 1:
        res = _diag_embed(input, diagonal, 0, 1)
    elif input.ndim == 2:
        res = _diagonal_copy(input, diagonal, 0, 1)
    else:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.ndim}D")
    if out is not None:
        from .registry import _write_out
        return _write_out(out, res._data)
    return res


@op("TraceBackward0", promote=None,
    self=lambda grad, self_shape: _trace_backward(grad, self_shape))
def _trace(self):
    if self.dtype.kind in "biu":
        return xp.asarray(xp.trace(self, dtype=xp.int64), xp.int64)
    # trace_cpu adds the diagonal in order in at::acc_type<T, false> (double for float,
    # float for the 16-bit types), one rounding to T at the end
    acc = xp.complex128 if self.dtype.kind == "c" else \
        xp.float64 if self.dtype.itemsize >= 4 else xp.float32
    diag = xp.diagonal(self).astype(acc)
    out = xp.cumsum(diag)[-1] if diag.size else acc(0)
    return xp.asarray(out).astype(self.dtype)


def _trace_backward(grad, shape):
    n = min(shape)
    return _diagonal_backward(grad.expand(n), shape, 0, 0, 1)


@expose
def trace(input):
    """The sum of a matrix's diagonal."""
    if input.dtype is D.bool:
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    if input.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.ndim}")
    return run(_trace, (input,))


def _tri_check(name):
    def check(self, diagonal=0):
        if self.ndim < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return check


@op("TrilBackward0", promote=None, inplace=True, check=_tri_check("tril"),
    self=lambda grad, diagonal: grad.tril(diagonal))
def tril(self, diagonal=0):
    """The lower triangle (``diagonal`` shifts it) of the last two dims; the rest zero."""
    out = xp.tril(self, diagonal)
    return out if out.flags.c_contiguous else out.copy(order="C")     # (torch's: contiguous)


@op("TriuBackward0", promote=None, inplace=True, check=_tri_check("triu"),
    self=lambda grad, diagonal: grad.triu(diagonal))
def triu(self, diagonal=0):
    """The upper triangle (``diagonal`` shifts it) of the last two dims; the rest zero."""
    out = xp.triu(self, diagonal)
    return out if out.flags.c_contiguous else out.copy(order="C")     # (torch's: contiguous)


# ----------------------------------------------------------------------------- einsum

def _einsum_parse(equation, operands):
    """Labels per operand (``None`` stands for the ellipsis) and the output's labels, parsed
    as ATen parses them (spaces count in the reported indices)."""
    lhs, arrow, rhs = equation.partition("->")
    ops: list = [[] for _ in operands]
    curr, ell, i = 0, False, 0
    while i < len(lhs):
        c = lhs[i]
        if c == ".":
            if ell:
                raise RuntimeError(f"einsum(): found '.' for operand {curr} for which an "
                                   "ellipsis was already found")
            if not lhs.startswith("...", i):
                raise RuntimeError(f"einsum(): found '.' for operand {curr} that is not part "
                                   "of any ellipsis")
            ops[curr].append(None)
            ell, i = True, i + 2
        elif c == ",":
            curr, ell = curr + 1, False
            if curr >= len(operands):
                raise RuntimeError("einsum(): fewer operands were provided than specified in "
                                   "the equation")
        elif c != " ":
            if not (c.isascii() and c.isalpha()):
                raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the "
                                   "equation string, subscripts must be in [a-zA-Z]")
            ops[curr].append(c)
        i += 1
    if curr != len(operands) - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation")

    for i, (lab, t) in enumerate(zip(ops, operands)):
        n = len([x for x in lab if x is not None])
        if None in lab:
            if n > t.ndim:
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) "
                                   f"is more than the number of dimensions ({t.ndim}) for "
                                   f"operand {i}")
        elif n != t.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) does "
                               f"not match the number of dimensions ({t.ndim}) for operand "
                               f"{i} and no ellipsis was given")
    if arrow:
        out, i, ell = [], 0, False
        while i < len(rhs):
            c = rhs[i]
            if c == ".":
                if ell:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) "
                                       "was already found")
                if not rhs.startswith("...", i):
                    raise RuntimeError("einsum(): found '.' for output that is not part of "
                                       "any ellipsis (...)")
                out.append(None)
                ell, i = True, i + 2
            elif c != " ":
                if not (c.isascii() and c.isalpha()):
                    raise RuntimeError(f"einsum(): invalid subscript given at index "
                                       f"{len(lhs) + 2 + i} in the equation string, "
                                       "subscripts must be in [a-zA-Z]")
                if c in out or not any(c in lab for lab in ops):
                    raise RuntimeError(f"einsum(): output subscript {c}" + (
                        " appears more than once in the output" if c in out else
                        " does not appear in the equation for any input operand"))
                out.append(c)
            i += 1
    else:
        counts: dict = {}
        for lab in ops:
            for x in lab:
                if x is not None:
                    counts[x] = counts.get(x, 0) + 1
        out = ([None] if any(None in lab for lab in ops) else []) + sorted(
            (x for x, c in counts.items() if c == 1), key=lambda c: (c.islower(), c))
    return ops, out


def _sublist_subscript(n) -> str:
    """A label of einsum's sublist form: ``...`` for ``Ellipsis``, else ``A``-``Z``,
    ``a``-``z`` for 0-51."""
    if n is Ellipsis:
        return "..."
    if 0 <= n < 26:
        return chr(ord("A") + n)
    if 26 <= n < 52:
        return chr(ord("a") + n - 26)
    raise ValueError("einsum(): subscript in subscript list is not within the valid range "
                     "[0, 52)")


def _sublist_equation(args):
    """``einsum(op0, sub0, op1, sub1, ..., [out])``: the equation and the operands."""
    equation = ",".join("".join(_sublist_subscript(s) for s in sub) for sub in args[1::2])
    if len(args) % 2 == 1:
        equation += "->" + "".join(_sublist_subscript(s) for s in args[-1])
        return equation, args[:-1:2]
    return equation, args[::2]


@expose(method=False)
def einsum(*args):
    """Einstein summation, composed (like ATen) of diagonals, permutes, ``mul`` and ``bmm``;
    also the sublist form ``einsum(a, [0, 1], b, [1, 2], [0, 2])``.

    >>> import ember
    >>> ember.einsum("ij,jk->ik", ember.ones(2, 3), ember.ones(3, 2))
    tensor([[3., 3.],
            [3., 3.]])
    """
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one "
                         "operand, or at least one operand and its subscripts list")
    equation, *operands = args
    if not isinstance(equation, str) and hasattr(equation, "_data"):
        equation, operands = _sublist_equation(args)
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        return einsum(equation, *operands[0])
    ops, out = _einsum_parse(equation, operands)
    # the ellipsis spans as many dims as the widest operand leaves over
    ell = max((t.ndim - (len(lab) - 1) for lab, t in zip(ops, operands) if None in lab),
              default=0)
    ell_labels = [("...", k) for k in range(ell)]

    def expand(lab, nd):
        res = []
        for x in lab:
            if x is None:
                k = nd - (len(lab) - 1)
                res.extend(ell_labels[ell - k:])
            else:
                res.append(x)
        return res
    ops = [expand(lab, t.ndim) for lab, t in zip(ops, operands)]
    out = expand(out, len(out) - 1 + ell) if None in out else out
    # ATen's order: the output's dims, the ellipsis when it is summed out, then the summed
    # labels alphabetically (capitals first)
    labels = {x for lab in ops for x in lab if isinstance(x, str)}
    contracted = [x for x in ell_labels if x not in out] + sorted(
        labels.difference(out), key=lambda c: (c.islower(), c))
    order = list(out) + contracted
    sizes: dict = {}
    aligned = []
    for i, (lab, t) in enumerate(zip(ops, operands)):
        # repeated labels take the diagonal, then every operand is permuted to ``order``
        lab = list(lab)
        j = 0
        while j < len(lab):
            x = lab[j]
            first = lab.index(x)
            if first < j:
                if t.shape[first] != t.shape[j]:
                    raise RuntimeError(f"einsum(): subscript {x} is repeated for operand {i} "
                                       f"but the sizes don't match, {t.shape[j]} != "
                                       f"{t.shape[first]}")
                d = t.diagonal(0, first, j)
                rest = list(range(d.ndim - 1))
                t = d.permute(rest[:first] + [d.ndim - 1] + rest[first:])
                del lab[j]
            else:
                j += 1
        for dim, (x, s) in enumerate(zip(lab, t.shape)):
            prev = sizes.get(x)
            if prev is None or prev == 1:
                sizes[x] = s
            elif s != 1 and s != prev:
                if isinstance(x, str):
                    raise RuntimeError(f"einsum(): subscript {x} has size {s} for operand {i} "
                                       f"which does not broadcast with previously seen size "
                                       f"{prev}")
                raise RuntimeError(f"einsum(): dimension {dim} covered by ellipsis in operand "
                                   f"{i}has size {s} which does not broadcast with previously "
                                   f"seen ellipsis with size {prev} for the respective "
                                   "dimension")
        nd = t.ndim
        for _ in range(len(order) - len(lab)):
            t = t.unsqueeze(-1)
        missing = iter(range(nd, len(order)))
        perm = [lab.index(x) if x in lab else next(missing) for x in order]
        aligned.append(t.permute(perm))
    nout = len(out)
    if len(aligned) == 1:
        res = aligned[0]
        return res.sum(tuple(range(nout, len(order)))) if contracted else res
    # ATen's contraction, left to right: a summed dim is contracted by the ``bmm`` of the
    # last two operands that span it, or summed beforehand where only one operand left does
    counts = [sum(t.shape[d] != 1 for t in aligned) for d in range(len(order))]
    res = aligned[0]
    for b in aligned[1:]:
        sum_dims, a_sum, b_sum = [], [], []
        for d in range(nout, len(order)):
            if res.shape[d] != 1 and b.shape[d] != 1:
                counts[d] -= 1
                if counts[d] == 1:
                    sum_dims.append(d)
                    counts[d] = 0
            elif counts[d] == 1 and (res.shape[d] != 1 or b.shape[d] != 1):
                (a_sum if res.shape[d] != 1 else b_sum).append(d)
                counts[d] = 0
        if a_sum:
            res = res.sum(a_sum, keepdim=True)
        if b_sum:
            b = b.sum(b_sum, keepdim=True)
        res = _sumproduct_pair(res, b, sum_dims)
    if contracted:
        return res.view(res.shape[:nout])
    return res


def _sumproduct_pair(left, right, sum_dims):
    """``(left * right).sum(sum_dims, keepdim=True)`` by permutes and one ``bmm`` (ATen's)."""
    if not sum_dims:
        return left * right
    lro, lo, ro = [], [], []
    sum_size = 1
    for i in range(left.ndim):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if sl and sr:
                sum_size *= left.shape[i]
            elif sl:
                left = left.sum(i, keepdim=True)
            elif sr:
                right = right.sum(i, keepdim=True)
        elif sl and sr:
            lro.append(i)
        elif sl:
            lo.append(i)
        else:
            ro.append(i)
    if lo and ro and ro[-1] < lo[0]:        # bmm then writes the output in its own order
        left, right, lo, ro = right, left, ro, lo
    sd = list(sum_dims)
    sz, rsz = left.shape, right.shape
    lro_size, lo_size, ro_size = (_numel(sz[d] for d in lro), _numel(sz[d] for d in lo),
                                  _numel(rsz[d] for d in ro))
    out_size = [sz[d] for d in lro + lo] + [1] * len(sd) + [rsz[d] for d in ro]
    operm = [0] * left.ndim
    for k, d in enumerate(lro + lo + sd + ro):
        operm[d] = k
    lm = left.permute(lro + lo + sd + ro).reshape(lro_size, lo_size, sum_size)
    rm = right.permute(lro + sd + ro + lo).reshape(lro_size, sum_size, ro_size)
    return bmm(lm, rm).view(out_size).permute(operm)


def _trilinear_composed(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim=1):
    """ATen's ``_trilinear`` on tensors: ``(i1 * i2 * i3).sum(sumdim)`` after unsqueezing
    each at its ``expand`` dims, one slice of ``unroll_dim`` at a time, each slice two
    ``sumproduct_pair`` contractions added into a zero result."""
    from .._factories import zeros
    total = i1.ndim + len(expand1)
    e1, e2, e3, sd = (set(d) for d in (expand1, expand2, expand3, sumdim))
    sum12, sum23, size, unroll = [], [], [], -1
    for i in range(total):
        s = 0
        if i in e1:
            i1 = i1.unsqueeze(i)
        else:
            s = i1.shape[i]
        if i in e2:
            i2 = i2.unsqueeze(i)
        else:
            s = i2.shape[i]
        if i in e3:
            i3 = i3.unsqueeze(i)
            if i in sd and i != unroll_dim:
                sum12.append(i)
        else:
            s = i3.shape[i]
            if i in sd and i != unroll_dim:
                sum23.append(i)
        size.append(1 if i in sd else s)
        if i == unroll_dim:
            unroll = s
    step = [0 if unroll_dim in e else 1 for e in (e1, e2, e3)]
    out = zeros(size, dtype=i1.dtype)
    if i1.numel() and i2.numel() and i3.numel():
        for k in range(unroll):
            buf = _sumproduct_pair(i1.narrow(unroll_dim, k * step[0], 1),
                                   i2.narrow(unroll_dim, k * step[1], 1), sum12)
            buf = _sumproduct_pair(buf, i3.narrow(unroll_dim, k * step[2], 1), sum23)
            (out if unroll_dim in sd else out.narrow(unroll_dim, k, 1)).add_(buf)
    for i in range(out.ndim - 1, -1, -1):
        if i in sd:
            out = out.squeeze(i)
    return out


@op("TrilinearBackward0", name="_trilinear", method=False, promote=None,
    tensors=("i1", "i2", "i3"),
    i1=lambda grad, i2, i3, expand1, expand2, expand3, sumdim: _trilinear(
        grad, i2, i3, sumdim, expand2, expand3, expand1),
    i2=lambda grad, i1, i3, expand1, expand2, expand3, sumdim: _trilinear(
        i1, grad, i3, expand1, sumdim, expand3, expand2),
    i3=lambda grad, i1, i2, expand1, expand2, expand3, sumdim: _trilinear(
        i1, i2, grad, expand1, expand2, sumdim, expand3))
def _trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim=1):
    """``torch._trilinear``: the contraction behind ``bilinear`` and its gradients, one node
    (``TrilinearBackward0``) whose formulas are ``_trilinear`` again (ATen's
    ``_trilinear_backward``)."""
    from .._tensor import Tensor
    return _trilinear_composed(Tensor._wrap(i1), Tensor._wrap(i2), Tensor._wrap(i3),
                               tuple(expand1), tuple(expand2), tuple(expand3), tuple(sumdim),
                               unroll_dim)._data


# ----------------------------------------------------------------------------- tensordot, kron

@expose(method=False)
def tensordot(a, b, dims=2, out=None):
    """Contract ``dims`` (a count, or two lists) of ``a`` with those of ``b``.

    >>> import ember
    >>> ember.tensordot(ember.ones(2, 3), ember.ones(3, 4), dims=1).shape
    torch.Size([2, 4])
    """
    from .._tensor import Tensor
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > a.ndim or dims > b.ndim:
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        da, db = list(range(-dims, 0)), list(range(dims))
    else:
        da, db = dims
        da = [da] if isinstance(da, int) else list(da)
        db = [db] if isinstance(db, int) else list(db)
    if len(da) != len(db):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    t1, t2, csize = a, b, 1
    for x, y in zip(da, db):
        sa, sb = a.shape[norm_dim(x, a.ndim)], b.shape[norm_dim(y, b.ndim)]
        if sb == 1:             # (a dim of size 1 against any: summed right away, as ATen)
            t1 = t1.sum(x, True, dtype=t1.dtype)
        elif sa == 1:
            t2 = t2.sum(y, True, dtype=t2.dtype)
        elif sa != sb:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {sa} "
                               f"in dim {x} and second has size {sb} in dim {y}")
        else:
            csize *= sa
    da = [norm_dim(d, a.ndim) for d in da]
    db = [norm_dim(d, b.ndim) for d in db]
    fa = [d for d in range(a.ndim) if d not in da]
    fb = [d for d in range(b.ndim) if d not in db]
    pa, pb = _numel(t1.shape[d] for d in fa), _numel(t2.shape[d] for d in fb)
    shape = [t1.shape[d] for d in fa] + [t2.shape[d] for d in fb]
    if pa == pb == 1:
        # (one element out: ATen 2.13 takes the dot product of two contiguous operands, else
        # sums their product in their own dtype)
        t1, t2 = t1.permute(fa + da), t2.permute(db + fb)
        res = dot(t1.flatten(), t2.flatten()) if t1.is_contiguous() and t2.is_contiguous() \
            else (t1.squeeze() * t2.squeeze()).sum(dtype=t1.dtype)
        res = res.reshape(shape)
    else:
        res = mm(t1.permute(fa + da).reshape(pa, csize),
                 t2.permute(db + fb).reshape(csize, pb)).reshape(shape)
    if out is not None:
        if out.dtype is not res.dtype:
            raise RuntimeError(f"tensordot: Expected the output tensor to have dtype "
                               f"{res.dtype.scalar_name}, but got an output tensor with dtype "
                               f"{out.dtype.scalar_name}")
        from .registry import _write_out
        return _write_out(out, res._data)
    return res


@expose
def kron(input, other, *, out=None):
    """The Kronecker product of two tensors (dims padded to the larger count)."""
    from .. import _errors
    from .._tensor import Tensor
    for pos, (param, value) in enumerate((("input", input), ("other", other)), 1):
        if not isinstance(value, Tensor):
            raise _errors.ArgTypeError(_errors.must_be_tensor("kron", param, pos, value))
    nd = max(input.ndim, other.ndim)
    sa = (1,) * (nd - input.ndim) + tuple(input.shape)
    sb = (1,) * (nd - other.ndim) + tuple(other.shape)
    a = input.reshape([x for s in sa for x in (s, 1)])
    b = other.reshape([x for s in sb for x in (1, s)])
    shape = tuple(x * y for x, y in zip(sa, sb))
    if out is not None:
        # (torch's kron_out multiplies into a view of the resized ``out``: no view of the
        # product is taken, which kron's own _unsafe_view refuses for some layouts)
        from .registry import _write_out, check_out_cast
        res = a * b
        check_out_cast(res.dtype, out)
        return _write_out(out, res._data.reshape(shape))
    return _unsafe_view(a * b, shape)


# ----------------------------------------------------------------------------- in-place forms

@expose(function=False)
def addmv_(self, mat, vec, *, beta=1, alpha=1):
    """In-place :func:`addmv`."""
    addmv(self.detach(), mat.detach(), vec.detach(), beta=beta, alpha=alpha)   # the checks
    from .registry import run_inplace
    return run_inplace(_addmv, (self, mat, vec, beta, alpha))


@expose(function=False)
def addmm_(self, mat1, mat2, *, beta=1, alpha=1):
    """In-place :func:`addmm`."""
    res = addmm(self.detach(), mat1.detach(), mat2.detach(), beta=beta, alpha=alpha)
    _same_size_in_place(self, res)
    from .registry import run_inplace
    return run_inplace(_addmm, (self, mat1, mat2, beta, alpha))


@expose(function=False)
def addr_(self, vec1, vec2, *, beta=1, alpha=1):
    """In-place :func:`addr`."""
    if vec1.ndim == 1 and vec2.ndim == 1 and tuple(self.shape) != (vec1.shape[0], vec2.shape[0]):
        raise RuntimeError(f"size mismatch, input: {list(self.shape)}, v1: {list(vec1.shape)}, "
                           f"v2: {list(vec2.shape)}")
    addr(self.detach(), vec1.detach(), vec2.detach(), beta=beta, alpha=alpha)   # the checks
    from .registry import run_inplace
    return run_inplace(_addr, (self, vec1, vec2, beta, alpha))


def _same_size_in_place(self, res):
    if tuple(self.shape) != tuple(res.shape):
        raise RuntimeError(f"Bad in-place call: input tensor size {list(self.shape)} and output "
                           f"tensor size {list(res.shape)} should match")


@expose(function=False)
def baddbmm_(self, batch1, batch2, *, beta=1, alpha=1):
    """In-place :func:`baddbmm`."""
    baddbmm(self.detach(), batch1.detach(), batch2.detach(), beta=beta, alpha=alpha)
    from .registry import run_inplace
    return run_inplace(_baddbmm, (self, batch1, batch2, beta, alpha))


@expose(function=False)
def addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
    """In-place :func:`addbmm`."""
    addbmm(self.detach(), batch1.detach(), batch2.detach(), beta=beta, alpha=alpha)
    from .registry import run_inplace
    return run_inplace(_addbmm, (self, batch1, batch2, beta, alpha))

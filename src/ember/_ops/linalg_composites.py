"""torch.linalg's composite functions: ``cond``, ``matrix_rank``, ``multi_dot``, ``tensorinv``,
``tensorsolve``, ``vander``, ``vecdot``. Loaded on first use.

Each is composed from ember ops the way ATen composes it, so results carry torch's grad_fn
names (``multi_dot`` ends in a view, ``cond`` in ``nan_to_num`` or a squeeze …).
"""

from __future__ import annotations

import math

from .._device import xp
from .._tensor import Tensor
from .decompositions import (
    _check_matrix,
    _out,
    _singular_error,
    eigvalsh,
    inv_ex,
    matrix_norm,
    solve,
    svdvals,
)
from .linalg import _mm, mm, vdot
from .reduction import cumprod
from .registry import _scalar_name, autocast_inputs, run
from .shape import _reshape_alias, cat, movedim

_wrap = Tensor._wrap


def _is_float(t) -> bool:
    return t.dtype.is_floating_point or t.dtype.is_complex


def _num(p) -> str:
    """A number as torch's Scalar prints it (``1``, ``inf``)."""
    return f"{p:g}" if isinstance(p, float) else str(p)


# ----------------------------------------------------------------------------- cond

def cond(input: Tensor, p=None, *, out=None) -> Tensor:
    """The condition number of ``A`` in the norm ``p`` (``None``/``2``: largest over smallest
    singular value; ``-2``, ``'fro'``, ``'nuc'``, ``1``, ``-1``, ``inf``, ``-inf``).

    >>> ember.linalg.cond(ember.tensor([[1., 0.], [0., 4.]]))
    tensor(4.)
    """
    if input.ndim < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    inf = math.inf
    if p not in (None, 2, -2, "fro", "nuc", 1, -1, inf, -inf):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    if p is None or p in (2, -2):
        S = svdvals(input)
        s_max, s_min = S.narrow(-1, 0, 1), S.narrow(-1, S.shape[-1] - 1, 1)
        res = (s_min / s_max if p == -2 else s_max / s_min).squeeze(-1)
        return _out(res, out)
    if input.shape[-1] != input.shape[-2]:
        raise RuntimeError(f"linalg.cond(ord={p if isinstance(p, str) else _num(p)}): A must be "
                           f"batches of square matrices, but they are {input.shape[-2]} by "
                           f"{input.shape[-1]} matrices")
    _check_matrix(input, "linalg.cond")
    inverse, info = inv_ex(input)
    if p == "nuc":
        return _out(matrix_norm(input, p) * matrix_norm(inverse, p), out)
    # torch fills the inverse in place (so its backward raises torch's in-place error)
    inverse.masked_fill_(info.unsqueeze(-1).unsqueeze(-1) > 0, inf)
    res = matrix_norm(input, p) * matrix_norm(inverse, p)
    return _out(res.nan_to_num(inf, inf, -inf), out)     # 0 · inf is inf, as NumPy's


# ----------------------------------------------------------------------------- matrix_rank

def matrix_rank(input: Tensor, tol=None, hermitian: bool = False, *, atol=None, rtol=None,
                out=None) -> Tensor:
    """The number of singular values (eigenvalue magnitudes, when ``hermitian``) above
    ``max(atol, rtol · σ₁)``; ``tol`` is the deprecated name of ``atol`` (with ``rtol = 0``).

    >>> ember.linalg.matrix_rank(ember.tensor([[1., 2.], [2., 4.]]))
    tensor(1)
    """
    if input.ndim < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at "
                           "least 2 dimensions.")
    if not _is_float(input):
        raise RuntimeError("This function doesn't handle types other than float and double")
    if tol is not None:
        atol, rtol = tol, 0.0
    a = input._data
    m, n = a.shape[-2:]
    if hermitian:
        s = xp.abs(eigvalsh(input)._data) if a.size else xp.zeros(a.shape[:-1], a.real.dtype)
        s_max = s.max(-1, keepdims=True, initial=0)
    else:
        s = svdvals(input)._data if a.size else \
            xp.zeros(a.shape[:-2] + (min(m, n),), a.real.dtype)
        s_max = s[..., :1] if s.shape[-1] else xp.zeros(s.shape[:-1] + (1,), s.dtype)
    at = xp.asarray(0.0 if atol is None else getattr(atol, "_data", atol))
    default = xp.finfo(s.dtype).eps * max(m, n)
    if rtol is None:
        rt = xp.where(at > 0, 0.0, default) if atol is not None else xp.asarray(default)
    else:
        rt = xp.asarray(getattr(rtol, "_data", rtol))
    cut = xp.maximum(at[..., None], rt[..., None] * s_max)
    return _out(_wrap((s > cut).sum(-1).astype(xp.int64)), out)


# ----------------------------------------------------------------------------- multi_dot

def _chain_order(shapes):
    """torch's matrix-chain order: ``split[i][j]``, the best last split of ``i..j``."""
    n = len(shapes)
    dims = [shapes[0][0]] + [s[1] for s in shapes]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain(ts, split, i, j):
    if i == j:
        return ts[i]
    k = split[i][j]
    return mm(_chain(ts, split, i, k), _chain(ts, split, k + 1, j))


def _multi_dot(tensors, fname):
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"{fname}(): expected at least 2 tensors but got {n}")
    first, last = tensors[0], tensors[-1]
    if first.ndim not in (1, 2):
        raise RuntimeError(f"{fname}(): the first tensor must be 1D or 2D but got "
                           f"{first.ndim}D")
    if last.ndim not in (1, 2):
        raise RuntimeError(f"{fname}(): the last tensor must be 1D or 2D but got {last.ndim}D")
    for i, t in enumerate(tensors[1:-1], 1):
        if t.ndim != 2:
            raise RuntimeError(f"{fname}(): tensor {i} must be 2D but got {t.ndim}D")
    ts = [first.unsqueeze(0) if first.ndim == 1 else first, *tensors[1:-1],
          last.unsqueeze(-1) if last.ndim == 1 else last]
    for i, t in enumerate(ts[1:], 1):
        if t.dtype is not ts[0].dtype:
            raise RuntimeError(f"{fname}(): all tensors must have be the same dtype but tensor 0 "
                               f"is {ts[0].dtype.cpp_name} and tensor {i} "
                               f"{t.dtype.cpp_name}")
        if t.shape[0] != ts[i - 1].shape[1]:
            raise RuntimeError(f"{fname}(): tensors {i - 1} and {i} with shapes "
                               f"{list(tensors[i - 1].shape)} and {list(tensors[i].shape)} "
                               f"cannot be multiplied")
    if n == 2:
        res = mm(ts[0], ts[1])
    elif n == 3:
        a, b, c, d = ts[0].shape[0], ts[1].shape[0], ts[2].shape[0], ts[2].shape[1]
        if (a * c) * (b + d) > (b * d) * (a + c):
            res = mm(ts[0], mm(ts[1], ts[2]))
        else:
            res = mm(mm(ts[0], ts[1]), ts[2])
    else:
        res = _chain(ts, _chain_order([tuple(t.shape) for t in ts]), 0, n - 1)
    shape = ([first.shape[0]] if first.ndim == 2 else []) + \
        ([last.shape[1]] if last.ndim == 2 else [])
    return res.view(shape)


def multi_dot(tensors, *, out=None) -> Tensor:
    """The product of a chain of matrices (the first and last may be vectors), multiplied in
    the cheapest order.

    >>> ember.linalg.multi_dot([ember.ones(2), ember.eye(2), ember.ones(2)])
    tensor(2.)
    """
    return _out(_multi_dot(list(tensors), "multi_dot"), out)


# ----------------------------------------------------------------------------- tensorinv/solve

def _prod(shape) -> int:
    return math.prod(shape)


def tensorinv(input: Tensor, ind: int = 2, *, out=None) -> Tensor:
    """The inverse of ``A`` for :func:`ember.tensordot` over its first ``ind`` dims: the
    result has shape ``A.shape[ind:] + A.shape[:ind]``."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    end, start = tuple(input.shape[ind:]), tuple(input.shape[:ind])
    p_end, p_start = _prod(end), _prod(start)
    if p_end != p_start:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {p_end} != {p_start}")
    A2 = input.reshape(p_start, p_end)
    inverse, info = inv_ex(A2)
    if info._data.any():
        _singular_error(A2._data, "inv")
    return _out(run(_reshape_alias, (inverse, end + start)), out)


def tensorsolve(input: Tensor, other: Tensor, dims=None, *, out=None) -> Tensor:
    """The ``X`` with ``tensordot(A, X, X.ndim) == B`` (``dims``: axes of ``A`` moved to the
    end first)."""
    A = input if dims is None else movedim(
        input, list(dims), list(range(input.ndim - len(dims), input.ndim)))
    result_shape = tuple(A.shape[other.ndim:])
    p_res, p_b = _prod(result_shape), _prod(other.shape)
    if p_res != p_b:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape["
                           f"other.ndim:]) == prod(self.shape[:other.ndim]), but got {p_res} "
                           f"!= {p_b}")
    X = solve(A.reshape(p_b, p_res), other.flatten())
    return _out(X.reshape(result_shape), out)


# ----------------------------------------------------------------------------- vander, vecdot

def vander(x: Tensor, N: int | None = None) -> Tensor:
    """The Vandermonde matrix of ``x``: columns ``x⁰, x¹, …, x^(N-1)`` (``N`` defaults to
    ``x.shape[-1]``).

    >>> ember.linalg.vander(ember.tensor([1, 2, 3]))
    tensor([[1, 1, 1],
            [1, 2, 4],
            [1, 3, 9]])
    """
    n = N if N is not None else (x.shape[-1] if x.ndim else 0)
    if x.ndim == 0 or n <= 1:
        raise RuntimeError("N must be greater than 1.")
    powers = cumprod(x.unsqueeze(-1).expand(*x.shape, n - 1), -1)
    return cat([powers.new_ones((*x.shape, 1)), powers], -1)


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1, out=None) -> Tensor:
    """The dot product of ``x`` and ``y`` along ``dim`` (``x`` conjugated), broadcasting.

    >>> ember.linalg.vecdot(ember.tensor([1., 2.]), ember.tensor([3., 4.]))
    tensor(11.)
    """
    x, y = autocast_inputs(_mm, x, y)        # on autocast's lower-precision list, as mm
    if not _is_float(x):
        raise RuntimeError(f"linalg.vecdot: Expected a floating point or complex tensor as "
                           f"input. Got {_scalar_name(x.dtype)}")
    if x.dtype is not y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found "
                           f"x of type {_scalar_name(x.dtype)} and y of type "
                           f"{_scalar_name(y.dtype)} instead")
    if x.ndim == 1 and y.ndim == 1 and dim in (0, -1):
        return _out(vdot(x, y), out)
    return _out(((x.conj() if x.dtype.is_complex else x) * y).sum(dim), out)

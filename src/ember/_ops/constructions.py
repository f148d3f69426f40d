"""torch's smaller top-level functions: shapes and index grids (``broadcast_shapes``,
``tril_indices``, ``cartesian_prod``, ``combinations``, ``block_diag``, ``vander``,
``diagflat``), finite differences and integrals (``diff``, ``trapezoid``,
``cumulative_trapezoid``), matrix functions (``matrix_power``, ``matrix_exp``, ``inner``,
``spmm``) and the real/complex accessors (``real``, ``imag``, ``positive``, ``isreal``).

Composites follow torch's own composition op for op, so the last node of the chain and the
gradients are torch's; ``matrix_exp`` and ``block_diag`` are ops with their own nodes.
"""

from __future__ import annotations

import itertools
import numbers

from .. import _dtype as D
from .. import _memory_format as _mf
from .. import _meta
from .._device import xp
from .._errors import type_name
from .._tensor import Size, Tensor
from . import _lapack
from .nn import div_scalar, mul_scalar
from .registry import NONE, _requires_list, _write_out, expose, op, record_list
from .util import norm_dim

_wrap = Tensor._wrap


@expose(method=False)
def broadcast_shapes(*shapes) -> Size:
    """The shape that tensors of ``shapes`` broadcast to.

    >>> ember.broadcast_shapes((2, 1), (3, 1, 4))
    torch.Size([3, 2, 4])
    """
    sizes = [(int(s),) if isinstance(s, int) else tuple(int(n) for n in s) for s in shapes]
    result = [1] * max((len(s) for s in sizes), default=0)
    for k, s in enumerate(sizes):
        for i in range(-1, -1 - len(s), -1):
            n = s[i]
            if n < 0:
                raise ValueError("Attempting to broadcast a dimension with negative length!")
            if n == 1 or n == result[i]:
                continue
            if result[i] != 1:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {n} at {i}! "
                                   f"Mismatching argument at index {k} had {s}; but expected "
                                   f"shape should be broadcastable to {result}")
            result[i] = n
    return Size(result)


def _indices(row, col, offset, dtype, upper):
    for name, n in (("row", row), ("col", col)):     # (torch's message has no space)
        if n < 0:
            raise RuntimeError(f"{name} must be non-negative, got{n}")
    dt = D.int64 if dtype is None else dtype
    if dt not in (D.int32, D.int64):
        name = "triu_indices" if upper else "tril_indices"
        raise RuntimeError(f'"{name}" not implemented for \'{dt.scalar_name}\'')
    f = xp.triu_indices if upper else xp.tril_indices
    r, c = f(row, offset, col) if row and col else (xp.zeros(0, int), xp.zeros(0, int))
    return _wrap(xp.stack([r, c]).astype(dt.np).reshape(2, -1))


@expose(method=False)
def tril_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None,
                 layout=None, pin_memory=False) -> Tensor:
    """The ``(2, N)`` coordinates of a ``row × col`` matrix's lower triangle, row by row.

    >>> ember.tril_indices(2, 2)
    tensor([[0, 1, 1],
            [0, 0, 1]])
    """
    return _meta.placed(_indices(row, col, offset, dtype, False), device)


@expose(method=False)
def triu_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None,
                 layout=None, pin_memory=False) -> Tensor:
    """The ``(2, N)`` coordinates of a ``row × col`` matrix's upper triangle, row by row."""
    return _meta.placed(_indices(row, col, offset, dtype, True), device)


@expose(method=False)
def cartesian_prod(*tensors: Tensor) -> Tensor:
    """The Cartesian product of 1-D tensors, one row per combination.

    >>> ember.cartesian_prod(ember.tensor([1, 2]), ember.tensor([3, 4]))
    tensor([[1, 3],
            [1, 4],
            [2, 3],
            [2, 4]])
    """
    for t in tensors:
        if t.ndim != 1:
            raise RuntimeError("Expect a 1D vector, but got shape "
                               f"{list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    grids = _meshgrid(tensors)
    return _stack([g.flatten() for g in grids], 1)


def _meshgrid(tensors):
    from .shape import meshgrid
    return meshgrid(*tensors, indexing="ij")


def _stack(tensors, dim):
    from .shape import stack
    return stack(tensors, dim)


@expose(method=False)
def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """The length-``r`` combinations of a 1-D tensor's elements, as ``itertools`` orders them.

    >>> ember.combinations(ember.tensor([1, 2, 3]))
    tensor([[1, 2],
            [1, 3],
            [2, 3]])
    """
    if input.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return input.new_empty(0)
    pick = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    idx = xp.array(list(pick(range(input.shape[0]), r)), dtype=xp.int64).reshape(-1, r)
    return _stack([input[_wrap(idx[:, j].copy())] for j in range(r)], 1)


@expose(method=False)
def block_diag(*tensors: Tensor) -> Tensor:
    """A block-diagonal matrix of the given tensors (0-d and 1-d ones as rows).

    >>> ember.block_diag(ember.tensor([[1, 2]]), ember.tensor([[3], [4]]))
    tensor([[1, 2, 0],
            [0, 0, 3],
            [0, 0, 4]])
    """
    mats = []
    for i, t in enumerate(tensors):
        if t.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer "
                               f"dimensions. Input {i} has {t.ndim} dimensions")
        mats.append(t._data.reshape(1, -1) if t.ndim < 2 else t._data)
    dt = D.result_type(*tensors) if tensors else D.get_default_dtype()
    rows = sum(m.shape[0] for m in mats) if mats else 1     # torch's (1, 0) for no blocks
    cols = sum(m.shape[1] for m in mats)
    out = xp.zeros((rows, cols), dt.np)
    spans = []
    r = c = 0
    for m in mats:
        out[r:r + m.shape[0], c:c + m.shape[1]] = m
        spans.append((r, c, m.shape))
        r, c = r + m.shape[0], c + m.shape[1]
    result = _wrap(out)
    if _requires_list(tensors):
        shapes = [t.shape for t in tensors]

        def backward(grad):
            return [grad[r:r + s[0], c:c + s[1]].reshape(shape)
                    for (r, c, s), shape in zip(spans, shapes)]
        record_list("BlockDiagBackward0", tensors, result, backward)
    return result


@expose
def vander(x: Tensor, N: int | None = None, increasing: bool = False) -> Tensor:
    """The Vandermonde matrix of a 1-D tensor: columns ``x**(N-1) … x**0`` (or increasing).

    >>> ember.vander(ember.tensor([1, 2, 3]))
    tensor([[1, 1, 1],
            [4, 2, 1],
            [9, 3, 1]])
    """
    if x.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    dt = D.promote_types(x.dtype, D.int64)
    result = x.new_ones((x.shape[0], n), dtype=dt)
    if n > 1:
        result[:, 1:] = x.unsqueeze(1).expand(x.shape[0], n - 1).cumprod(1)
    return result if increasing else result.flip(1)


@expose
def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    """A 2-D matrix with the flattened ``input`` on its ``offset`` diagonal."""
    from .linalg import diag_embed
    return diag_embed(input.contiguous().view(-1), offset)


# ----------------------------------------------------------------------------- differences

@expose
def diff(input: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None,
         append: Tensor | None = None, *, out=None) -> Tensor:
    """The ``n``-th forward difference along ``dim`` (``prepend``/``append`` joined first).

    >>> ember.diff(ember.tensor([1, 3, 6, 10]))
    tensor([2, 3, 4])
    """
    from .shape import cat
    if input.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    d = norm_dim(dim, input.ndim)
    for other in (prepend, append):
        if other is not None:
            _diff_check_compatible(input, other, d)
    parts = [t for t in (prepend, input, append) if t is not None]
    x = cat(parts, d) if len(parts) > 1 else input
    from .registry import FUNCTIONS
    n = min(n, x.shape[d])
    for i in range(n):
        m = x.shape[d]
        hi, lo = x.narrow(d, 1, m - 1), x.narrow(d, 0, m - 1)
        # (the last difference into out=: torch's sub_out, with its cast check)
        x = FUNCTIONS["logical_xor" if x.dtype is D.bool else "sub"](
            hi, lo, out=out if i == n - 1 else None)
    return x if out is None or n else _write_out(out, x._data)


def _diff_check_compatible(input: Tensor, other: Tensor, d: int) -> None:
    """torch's check that a tensor to prepend or append has the input's shape off ``d``."""
    if other.ndim != input.ndim:
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    for i in range(other.ndim):
        if i != d and other.shape[i] != input.shape[i]:
            raise RuntimeError(
                "diff expects the shape of tensor to prepend or append to match that of input "
                f"except along the differencing dimension; input.size({i}) = "
                f"{input.shape[i]}, but got tensor.size({i}) = {other.shape[i]}")


@expose(method=False)
def trapezoid(y: Tensor, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """The trapezoidal rule along ``dim``, with sample points ``x`` or spacing ``dx``.

    >>> ember.trapezoid(ember.tensor([1., 2., 3.]))
    tensor(4.)
    """
    # (torch's checks after the size of ``dim``: an empty integral gives zeros first)
    if isinstance(x, Tensor):
        if dx is not None:
            raise TypeError("trapezoid() received an invalid combination of arguments")
        d = norm_dim(dim, y.ndim)
        if y.shape[d] == 0:
            return y.sum(d) * 0
        if D.bool in (y.dtype, x.dtype):
            raise RuntimeError("trapezoid: received a bool input for `x` or `y`, but bool is "
                               "not supported")
        if x.ndim == 1:
            if x.shape[0] != y.shape[d]:
                raise RuntimeError("trapezoid: There must be one `x` value for each sample "
                                   "point")
            shape = [1] * y.ndim
            shape[d] = x.shape[0] - 1
            dxs = x.diff().view(shape)
        else:
            dxs = x.diff(dim=dim)
        total = (dxs * (y.narrow(d, 1, y.shape[d] - 1) + y.narrow(d, 0, y.shape[d] - 1))).sum(d)
        # (an integer sum divided by 2.: torch's div.Scalar, true division)
        return div_scalar(total, 2.0) if total.dtype._category >= 2 else total / 2.0
    spacing = 1 if dx is None and x is None else (dx if dx is not None else x)
    d = norm_dim(dim, y.ndim, scalar=False)
    if y.shape[d] == 0:         # (torch's zeros_like_except: y's dtype)
        return y.new_zeros(y.shape[:d] + y.shape[d + 1:])
    if isinstance(spacing, Tensor):
        raise TypeError("trapezoid(): dx must be a number")
    if y.dtype is D.bool:
        raise RuntimeError("trapezoid: received a bool input for `y`, but bool is not "
                           "supported")
    if isinstance(spacing, (bool, complex)):
        raise RuntimeError("trapezoid: Currently, we only support dx as a real number.")
    if y.dtype._category < 2:       # (integers: torch's mul.Scalar by 0.5 gives floats)
        return (y.sum(d) - (y.select(d, 0) + y.select(d, -1)) * 0.5) * spacing
    ends = mul_scalar(y.select(d, 0) + y.select(d, -1), 0.5)
    return mul_scalar(y.sum(d) - ends, spacing)


@expose(method=False)
def trapz(y: Tensor, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """An alias of :func:`trapezoid`."""
    return trapezoid(y, x, dx=dx, dim=dim)


@expose(method=False)
def cumulative_trapezoid(y: Tensor, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """The running trapezoidal integral along ``dim`` (one element fewer than ``y``)."""
    d = norm_dim(dim, y.ndim)
    m = y.shape[d]
    left, right = y.narrow(d, 0, max(m - 1, 0)), y.narrow(d, min(1, m), max(m - 1, 0))
    if isinstance(x, Tensor):
        if x.ndim == 1:
            shape = [1] * y.ndim
            shape[d] = x.shape[0] - 1
            dxs = x.diff().view(shape)
        else:
            dxs = x.diff(dim=dim)
        total = (dxs * (left + right)).cumsum(d)
        return div_scalar(total, 2.0) if total.dtype._category >= 2 else total / 2.0
    spacing = 1 if dx is None and x is None else (dx if dx is not None else x)
    if y.dtype._category < 2:       # (integers: torch's mul.Scalar gives floats)
        return ((left + right) * (spacing / 2.0)).cumsum(d)
    return mul_scalar(left + right, spacing / 2.0).cumsum(d)


# ----------------------------------------------------------------------------- matrices

@expose
def inner(input: Tensor, other: Tensor, *, out=None) -> Tensor:
    """The inner product over the last dims (a product for a 0-d operand)."""
    if input.ndim == 0 or other.ndim == 0:
        res = input * other
    else:       # (the dtypes are tensordot's to check, after the shapes)
        if input.shape[-1] != other.shape[-1]:
            raise RuntimeError(f"inner() the last dimension must match on both input "
                               f"tensors but got shapes {list(input.shape)} and "
                               f"{list(other.shape)}")
        from .linalg import tensordot
        res = tensordot(input, other, ([-1], [-1]))
    return res if out is None else _write_out(out, res._data)


@expose
def matrix_power(input: Tensor, n: int, *, out=None) -> Tensor:
    """``input`` (square matrices) to the integer power ``n``, by repeated squaring."""
    if input.ndim < 2 or input.shape[-1] != input.shape[-2]:
        raise RuntimeError("linalg.matrix_power: A must be batches of square matrices, but "
                           f"they are {input.shape[-2] if input.ndim > 1 else 1} by "
                           f"{input.shape[-1] if input.ndim else 1} matrices")
    from .linalg import matmul
    a = input
    if n == 0:
        eye = _wrap(xp.eye(a.shape[-1], dtype=a._data.dtype))
        res = a.clone(memory_format=None).copy_(eye.expand(a.shape))
    else:
        if n < 0:
            a, n = a.inverse(), -n
        if n == 1:
            res = a.clone()
        elif n == 2:
            res = matmul(a, a)
        elif n == 3:
            res = matmul(matmul(a, a), a)
        else:
            z = res = None
            while n > 0:
                bit, n = n % 2, n // 2
                z = a if z is None else matmul(z, z)
                if bit:
                    res = z if res is None else matmul(res, z)
    return res if out is None else _write_out(out, res._data)


# torch's linalg_matrix_exp (Bader, Blanes and Casas, "Computing the matrix exponential with an
# optimized Taylor polynomial approximation", 2019): the degree (1, 2, 4, 8, 12 or 18) chosen
# per matrix from its 1-norm, degree 18 with scaling and squaring above the last bound
_THETAS = {
    4: (1.192092800768788e-07, 5.978858893805233e-04, 5.116619363445086e-02,
        5.800524627688768e-01, 1.461661507209034e+00, 3.010066362817634e+00),
    8: (2.220446049250313e-16, 2.580956802971767e-08, 3.397168839976962e-04,
        4.991228871115323e-02, 2.996158913811580e-01, 1.090863719290036e+00)}
_T12 = ((9.0198e-16, 0.46932117595418237389, -0.20099424927047284052,
         -0.04623946134063071740),
        (5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031,
         0.01108844528519167989),
        (0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968,
         0.00610700528898058230),
        (-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079,
         -0.00675951846863086359))
_T18 = ((0., -1.00365581030144618291e-01, -8.02924648241156932449e-03,
         -8.92138498045729985177e-04, 0.),
        (0., 3.97849749499645077844e-01, 1.36783778460411720168e+00,
         4.98289622525382669416e-01, -6.37898194594723280150e-04),
        (-1.09676396052962061844e+01, 1.68015813878906206114e+00,
         5.71779846478865511061e-02, -6.98210122488052056106e-03,
         3.34975017086070470649e-05),
        (-9.04316832390810593223e-02, -6.76404519071381882256e-02,
         6.75961301770459654925e-02, 2.95552570429315521194e-02,
         -1.39180257516060693404e-05),
        (0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02,
         -1.40086798182036094347e-05))


def _bmm(a, b):
    """torch's batched product of two (B, n, n) stacks (``_matmul_impl`` → ``bmm``)."""
    from . import _gemm
    a, b = xp.ascontiguousarray(a), xp.ascontiguousarray(b)
    out = _gemm.baddbmm(None, a, b)
    return xp.matmul(a, b) if out is None else out


def _powers(a, k):
    """The first ``k`` of ``I, A, A², A³, A⁶`` (``_fill_matrix_powers``)."""
    p = [xp.broadcast_to(xp.eye(a.shape[-1], dtype=a.dtype), a.shape), a]
    if k > 2:
        p.append(_bmm(a, a))
    if k > 3:
        p.append(_bmm(a, p[2]))
    if k > 4:
        p.append(_bmm(p[3], p[3]))
    return p[:k]


def _combine(ps, coeffs, real):
    """``Σⱼ cⱼ Pⱼ`` as ``_compute_linear_combination`` adds it: from zero, each product
    rounded, the coefficients in the matrices' precision."""
    res = xp.zeros_like(ps[0])
    for c, p in zip(coeffs, ps):
        res = res + p * real(c)
    return res


def _t8_coefficients(real):
    """compute_T8's constants: ``constexpr scalar_t`` expressions evaluated in double from
    the rounded ``sqrt_177`` and ``x3``."""
    s, t = float(real(0.1330413469565007072504e+2)), float(real(2. / 3.))
    return tuple(real(v) for v in (
        t * ((1. + s) / 88.), t * ((1. + s) / 352.), t,
        (-271. + 29. * s) / (315. * t), (-11. + 11. * s) / (1260. * t),
        (-99. + 11. * s) / (5040. * t), (89. - s) / (5040. * t), (857. - 58. * s) / 630.))


def _taylor(a, degree, real):
    if degree == 1:
        p = _powers(a, 2)
        return p[0] + p[1]
    if degree == 2:
        p = _powers(a, 3)
        return p[0] + p[1] + p[2] / real(2)
    if degree == 4:
        p = _powers(a, 3)
        p.append(_bmm(p[2], _combine(p, (1 / 2, 1 / 6, 1 / 24), real)))
        return _combine(p, (1., 1., 0., 1.), real)
    if degree == 8:
        x1, x2, x3, x4, x5, x6, x7, y2 = _t8_coefficients(real)
        p = _powers(a, 3)
        p.append(_bmm(p[2], _combine(p[1:], (x1, x2), real)))
        p.append(_bmm(_combine(p[2:], (x3, 1.), real), _combine(p, (x4, x5, x6, x7), real)))
        return _combine(p, (1., 1., y2, 0., 1.), real)
    p = _powers(a, 4 if degree == 12 else 5)
    B = [_combine(p, row, real) for row in (_T12 if degree == 12 else _T18)]
    if degree == 12:
        B[2] = B[2] + _bmm(B[3], B[3])
        return B[0] + _bmm(B[1] + B[2], B[2])
    B[3] = B[3] + _bmm(B[0], B[4])
    return B[1] + _bmm(B[2] + B[3], B[3])


def _scale_square(flat, norm, theta, real):
    """compute_T18_scale_square: degree 18 on ``A / 2^s``, then ``s`` squarings, each a
    batched product of the matrices still to square."""
    with xp.errstate(all="ignore"):
        s = xp.maximum(0, xp.ceil(xp.log2(norm / real(theta))))
    s = xp.nan_to_num(s).astype(xp.int64)
    m = _taylor(flat / (2.0 ** s).astype(real)[:, None, None], 18, real)
    for i in range(int(s.max(initial=0))):
        sel = s > i
        m[sel] = _bmm(m[sel], m[sel])
    return m


def _expm(a):
    """exp of square matrices (batched), as torch's CPU kernel computes it: one matrix by
    the Taylor degree its 1-norm calls for, a batch of several all by degree 18 with
    scaling and squaring (torch's ``compute_highest_degree_approx``)."""
    if a.shape[-1] <= 1:
        return xp.exp(a)
    low = a.dtype not in (xp.float32, xp.float64, xp.complex64, xp.complex128)
    x = a.astype(xp.float32) if low else a
    real = xp.dtype(x.dtype.char.lower()).type if x.dtype.kind == "c" else x.dtype.type
    thetas = _THETAS[4 if x.dtype in (xp.float32, xp.complex64) and not low else 8]
    flat = xp.ascontiguousarray(x.reshape((-1,) + x.shape[-2:]))
    from .unary import abs as _abs
    norm = _abs.kernel(flat).sum(-2).max(-1)          # (a complex abs: Sleef's hypot)
    if flat.shape[0] > 1:
        res = _scale_square(flat, norm, thetas[5], real)
        return res.reshape(a.shape).astype(a.dtype, copy=False)
    res = xp.empty_like(flat)
    for i, degree in enumerate((1, 2, 4, 8, 12)):
        sel = ((thetas[i - 1] if i else -1) < norm) & (norm <= thetas[i])
        if sel.any():
            res[sel] = _taylor(flat[sel], degree, real)
    big = ~(norm < thetas[4])
    if big.any():
        res[big] = _scale_square(flat[big], norm[big], thetas[5], real)
    return res.reshape(a.shape).astype(a.dtype, copy=False)


def _matrix_exp_backward(grad, self):
    """torch's backward: the upper-right block of exp([[Aᴴ, G], [0, Aᴴ]])."""
    from .shape import cat
    n = self.shape[-1]
    at = self.transpose(-2, -1)
    top = cat([at, grad], -1)
    bottom = cat([at.new_zeros(at.shape), at], -1)
    big = matrix_exp(cat([top, bottom], -2))
    return big[..., :n, n:]


def _matrix_exp_check(self):
    if self.ndim < 2:
        raise RuntimeError("linalg.matrix_exp: The input tensor A must have at least 2 "
                           "dimensions.")
    if self.shape[-1] != self.shape[-2]:
        raise RuntimeError("linalg.matrix_exp: A must be batches of square matrices, but they "
                           f"are {self.shape[-2]} by {self.shape[-1]} matrices")
    if not (self.dtype.is_floating_point or self.dtype.is_complex):
        raise RuntimeError("linalg.matrix_exp: Expected a floating point or complex tensor as "
                           f"input. Got {self.dtype.scalar_name}")


@op("LinalgMatrixExpBackward0", name="matrix_exp", promote=NONE, check=_matrix_exp_check,
    self=_matrix_exp_backward)
def matrix_exp(self):
    """The matrix exponential of square matrices (batched).

    >>> ember.matrix_exp(ember.zeros(2, 2))
    tensor([[1., 0.],
            [0., 1.]])
    """
    return _expm(self)


def _gram(L, upper):
    """``L Lᴴ`` (``Uᴴ U`` when ``upper``) of the factor arrays (LAPACK reads only their
    triangle)."""
    L = xp.triu(L) if upper else xp.tril(L)
    Lt = xp.swapaxes(L, -1, -2).conj()
    return Lt @ L if upper else L @ Lt


def _cholesky_solve_backward_b(grad, input2, upper):
    return cholesky_solve(grad, input2, upper)


def _cholesky_solve_backward_L(grad, input2, upper, result):
    g = cholesky_solve(grad, input2, upper)
    common = g.matmul(result.mH)
    common = common + common.mH
    return -input2.matmul(common) if upper else -common.matmul(input2)


def _cholesky_check(self, input2, upper=False):
    for t, name in ((self, "b"), (input2, "u")):
        if t.ndim < 2:
            raise RuntimeError(f"{name} should have at least 2 dimensions, but has {t.ndim} "
                               "dimensions instead")
    if self.dtype is not input2.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{self.dtype.scalar_name} and A of type "
                           f"{input2.dtype.scalar_name} instead.")
    if input2.shape[-1] != input2.shape[-2]:
        raise RuntimeError(f"A must be batches of square matrices, but they are "
                           f"{input2.shape[-2]} by {input2.shape[-1]} matrices")


@op("CholeskySolveBackward0", name="cholesky_solve", promote=NONE, check=_cholesky_check,
    self=_cholesky_solve_backward_b, input2=_cholesky_solve_backward_L)
def cholesky_solve(self, input2, upper=False):
    """The solution ``X`` of ``A X = B`` for ``A = L Lᴴ`` given its Cholesky factor ``input2``
    (``L``, or ``U`` with ``upper``)."""
    shape = xp.broadcast_shapes(input2.shape[:-2], self.shape[:-2])
    done = _lapack.potrs(xp.broadcast_to(self, shape + self.shape[-2:]),
                         xp.broadcast_to(input2, shape + input2.shape[-2:]), upper)
    if done is not None:
        return done
    a = _gram(input2, upper)
    a = xp.broadcast_to(a, shape + a.shape[-2:])
    b = xp.broadcast_to(self, shape + self.shape[-2:])
    return xp.linalg.solve(a, b).astype(self.dtype)


def _cholesky_inverse_backward(grad, self, upper, result):
    common = grad + grad.mH
    common = result.matmul(common.matmul(result))
    return -self.matmul(common) if upper else -common.matmul(self)


@op("CholeskyInverseBackward0", name="cholesky_inverse", promote=NONE,
    self=_cholesky_inverse_backward)
def cholesky_inverse(self, upper=False):
    """The inverse of ``A = L Lᴴ`` from its Cholesky factor ``L`` (``U`` with ``upper``)."""
    if self.ndim < 2:
        raise RuntimeError("cholesky_inverse: The input tensor A must have at least 2 "
                           "dimensions.")
    if self.shape[-1] != self.shape[-2]:
        raise RuntimeError(f"cholesky_inverse: A must be batches of square matrices, but they "
                           f"are {self.shape[-2]} by {self.shape[-1]} matrices")
    done = _lapack.potri(self, upper)
    if done is not None:
        return done
    return xp.linalg.inv(_gram(self, upper)).astype(self.dtype)


@expose(method=False)
def spmm(input: Tensor, mat2: Tensor) -> Tensor:
    """The matrix product (torch's sparse × dense entry point, for strided tensors ``mm``)."""
    return input.mm(mat2)


# ----------------------------------------------------------------------------- real, imag

@op(None, name="real_view", method=False, function=False, promote=NONE, view=True,
    tensors=("self",))
def _real_view(self):
    return self.real


@op(None, name="imag_view", method=False, function=False, promote=NONE, view=True,
    tensors=("self",))
def _imag_view(self):
    return self.imag


def _grad_enabled() -> bool:
    from ..autograd import grad_mode
    return grad_mode._state.enabled


@expose(method=False)
def real(input: Tensor) -> Tensor:
    """The real part of a complex tensor, as a view (a real tensor is returned as is)."""
    if not input.dtype.is_complex:
        return input
    if input.requires_grad and _grad_enabled():
        # torch's real is select(view_as_real(input), -1, 0): its grad_fn is SelectBackward0
        from .complex_views import _view_as_real
        return _view_as_real(input).select(-1, 0)
    return _real_view(input)


@expose(method=False)
def imag(input: Tensor) -> Tensor:
    """The imaginary part of a complex tensor, as a view."""
    if not input.dtype.is_complex:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    if input.requires_grad and _grad_enabled():
        from .complex_views import _view_as_real
        return _view_as_real(input).select(-1, 1)
    return _imag_view(input)


def _set_part(part):
    def setter(self, value):
        getattr(self, part).copy_(value if isinstance(value, Tensor) else
                                  _wrap(xp.asarray(value)))
    return setter


Tensor.real = property(real, _set_part("real"), doc="The real part (a view).")
Tensor.imag = property(imag, _set_part("imag"), doc="The imaginary part (a view).")


@expose
def positive(input: Tensor) -> Tensor:
    """``input`` itself (``+x``); bool tensors are refused, as torch refuses them."""
    if input.dtype is D.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


@expose
def isreal(input: Tensor) -> Tensor:
    """True where an element has no imaginary part (everywhere, for a real tensor)."""
    if input.dtype.is_complex:
        return _wrap(_mf.ti_layout(input._data.imag == 0, input._data))
    out = _mf.empty_like(input._data, xp.dtype(bool))   # torch's ones_like
    out[...] = True
    return _wrap(out)


@expose(method=False)
def isin(elements=None, test_elements=None, *, assume_unique: bool = False,
         invert: bool = False, out=None, element=None, test_element=None) -> Tensor:
    """True where an element of ``elements`` occurs in ``test_elements``.

    >>> ember.isin(ember.tensor([1, 2, 3]), ember.tensor([2, 5]))
    tensor([False,  True, False])
    """
    # (torch's overloads name a number operand ``element`` / ``test_element``)
    # (its parameters kept as given: a call torch's parser refuses reads them back)
    first = element if elements is None else elements
    second = test_element if test_elements is None else test_elements
    if not _isin_operand(first) or not _isin_operand(second) \
            or not (isinstance(first, Tensor) or isinstance(second, Tensor)) \
            or not isinstance(assume_unique, bool) or not isinstance(invert, bool):
        got = [type_name(first), type_name(second)]
        got += [f"{k}={type_name(v)}" for k, v in (("assume_unique", assume_unique),
                                                   ("invert", invert)) if v is not False]
        raise TypeError(
            f"isin() received an invalid combination of arguments - got ({', '.join(got)}), "
            "but expected one of:\n"
            " * (Tensor elements, Tensor test_elements, *, bool assume_unique = False, "
            "bool invert = False, Tensor out = None)\n"
            " * (Number element, Tensor test_elements, *, bool assume_unique = False, "
            "bool invert = False, Tensor out = None)\n"
            " * (Tensor elements, Number test_element, *, bool assume_unique = False, "
            "bool invert = False, Tensor out = None)\n")
    for x in (first, second):
        # (a number is read as torch's wrapped scalar: a Python complex is complex128)
        dt = x.dtype if isinstance(x, Tensor) else D.bool if isinstance(x, bool) else \
            D.complex128 if isinstance(x, complex) else D.int64
        if dt is D.bool or dt.is_complex:
            raise RuntimeError(f"Unsupported input type encountered for isin(): "
                               f"{dt.scalar_name}")
    a = first._data if isinstance(first, Tensor) else xp.asarray(first)
    b = second._data if isinstance(second, Tensor) else xp.asarray(second)
    if a.dtype.kind == "c" or b.dtype.kind == "c":
        dt = D._BY_NP[xp.result_type(a, b)]
        raise RuntimeError(f"Unsupported input type encountered for isin(): {dt.scalar_name}")
    D.no_barebones_kernel("isin_default_cpu", *(getattr(x, "dtype", None)
                                                for x in (first, second)))
    res = _wrap(xp.asarray(xp.isin(a, b, invert=invert)))
    return res if out is None else _write_out(out, res._data)


def _isin_operand(x) -> bool:
    return isinstance(x, (Tensor, numbers.Number))


__all__ = ["broadcast_shapes", "tril_indices", "triu_indices", "cartesian_prod",
           "combinations", "block_diag", "vander", "diagflat", "diff", "trapezoid", "trapz",
           "cumulative_trapezoid", "inner", "matrix_power", "matrix_exp", "cholesky_solve",
           "cholesky_inverse", "spmm", "real",
           "imag", "positive", "isreal", "isin"]

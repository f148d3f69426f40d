"""torch's CPU arithmetic for the pointwise ops with a scalar factor, bit for bit.

torch's kernels round these once per element, as fused multiply-adds:

* ``add(self, other, alpha)`` (``ufunc/add.h``) is ``vec::fmadd(other, alpha, self)`` in the
  vector steps and ``self + alpha * other`` in the scalar loop, which the compiler contracts
  to the same fma; ``sub`` is ``add`` with ``-alpha`` and ``rsub(self, other)`` is
  ``sub(other, self)``. One exception: where ``other`` is a single element (a number),
  the compiler hoists ``alpha * other`` out of the scalar loop and runs the tail of a
  contiguous row (:func:`_hoisted_tail`) partly on 16-byte vectors that add the rounded
  product.
* ``lerp`` (``Lerp.h``, ``LerpKernel.cpp``) is ``fmadd(weight, end - self, self)`` where
  ``|weight| < 0.5``, else ``fmadd(weight - 1, end - self, end)``.
* ``addcmul`` (``PointwiseOpsKernel.cpp``) is ``self + value * t1 * t2``, contracted to
  ``fmadd(value * t1, t2, self)``.

The functions take arrays of one dtype (and numbers); float32 and float64 run the exact fma
(:func:`ember._ops._exact.fma`), other dtypes plain arithmetic. The in-place forms serve
the optimizers, whose updates are these same kernels.
"""

from __future__ import annotations

import numpy as np

from .. import _cpu
from .. import _memory_format as _mf
from . import _exact, _libm, _sleef
from ._blas import axpy_blocks
from ._exact import fma as _exact_fma

_F32 = np.dtype(np.float32)
_EXACT = frozenset((_F32, np.dtype(np.float64)))


def fma(x, y, z, out: np.ndarray | None = None) -> np.ndarray:
    """``x * y + z`` rounded once for float32/float64 (plain arithmetic for other dtypes),
    with broadcasting; ``out`` receives the result."""
    dt = np.result_type(x, y, z)
    if out is not None and out.dtype == dt == _F32 and x.__class__ is y.__class__ is \
            z.__class__ is np.ndarray and x.shape == y.shape == z.shape == out.shape:
        _exact.fma32_into(x, y, z, out)
        return out
    if dt in _EXACT:
        res = _exact_fma(np.asarray(x, dt), y, z)
    else:
        res = x * y + z
    if out is None:
        return np.asarray(res, dt)
    np.copyto(out, res, casting="unsafe")
    return out


def fma_(a: np.ndarray, s, b: np.ndarray) -> None:
    """``a = s * b + a`` rounded once, in place (``s`` a number of ``a``'s dtype): by the
    BLAS's fused kernel where it qualifies (``_ops._blas``), else by :func:`fma`."""
    if a.dtype in _EXACT:
        if axpy_blocks(a, s, b):
            return
    fma(s, b, a, out=a)


def add(a, b, alpha, subtract: bool = False):
    """``torch.add(a, b, alpha=alpha)`` (``sub`` where ``subtract``) for arrays (or numbers)
    of one dtype."""
    dt = np.result_type(a, b)
    if dt.char in "eE":                             # float16, bfloat16
        return _reduced_add(np.asarray(a), np.asarray(b), -alpha if subtract else alpha)
    if dt not in _EXACT:
        fn = np.subtract if subtract else np.add
        return fn(a, np.multiply(b, alpha).astype(dt, copy=False))
    s = dt.type(-alpha if subtract else alpha)
    if s == 1 or s == -1:                           # the product is exact
        with np.errstate(over="ignore", invalid="ignore"):
            return np.add(a, np.multiply(b, s))
    if isinstance(a, np.ndarray) and np.shape(b) in (a.shape, ()):
        r = np.array(a, order="K")
        fma_(r, s, b if np.ndim(b) else np.full_like(r, b))
    else:
        r = fma(s, b, a)
    if r.ndim:
        mask = _hoisted_mask(np.asarray(a), np.asarray(b), r.shape)
        if mask is not None:
            idx = np.nonzero(mask)
            a, b = np.broadcast_to(a, r.shape)[idx], np.broadcast_to(b, r.shape)[idx]
            with np.errstate(over="ignore", invalid="ignore"):
                r[idx] = a + s * b
    return r


def _reduced_add(a, b, alpha):
    """``a + alpha * b`` for float16/bfloat16 arrays as ATen's ``add`` kernel: ``alpha`` and
    ``b`` in the type; the vectors take ``fmadd(b, alpha, a)`` in float, rounded once, the
    one-by-one tail rounds ``alpha * b`` to the type before adding it."""
    dt = a.dtype
    s = np.float32(dt.type(np.float32(alpha)))     # (c10's Half and BFloat16 take a float)
    a32, b32 = a.astype(_F32), b.astype(_F32)
    with np.errstate(over="ignore", invalid="ignore"):
        out = (a32 + (s * b32).astype(dt).astype(_F32)).astype(dt)
        if out.ndim:
            vec = fma(b32, s, a32).astype(dt)
            mask = _sleef.binary_mask(np.broadcast_to(a, out.shape),
                                      np.broadcast_to(b, out.shape), avx512=False)
            out = np.where(mask, out, vec)
    return out


def _hoisted_mask(a, b, shape):
    """Where torch's ``add`` adds a rounded ``alpha * b`` (None: nowhere).

    A row of the loop along which the output and ``a`` are contiguous and ``b`` is
    broadcast (``vectorized_loop`` with ``b`` as its scalar operand) leaves ``b`` constant
    in its compiled tail, where the compiler hoists the product; after one peeled element
    it runs whole 16-byte vectors of ``a + product``, then fuses the rest again. The rows
    are those of torch's iterator: dims ordered (``reorder_dimensions``) and coalesced as
    ``a``'s and ``b``'s strides allow."""
    if b.shape == shape and all(s for s, n in zip(b.strides, shape) if n > 1):
        return None                 # ``b`` is broadcast along no dim: no row has it constant
    st = [np.broadcast_to(x, shape).strides for x in (a, b)]
    if min(st[0] + st[1], default=0) < 0:
        return None
    groups = _mf.iter_groups(shape, *st)
    if not groups or groups[0][1][0] != a.itemsize or groups[0][1][1] != 0:
        return None
    return _sleef.tail_mask(shape, [(g[0], g[2]) for g in groups],
                            _cpu.kernel_step(a.dtype, avx512=False),
                            tail=_hoisted_tail(a.itemsize))


def _hoisted_tail(itemsize: int):
    """The part of an ``n``-element tail that adds the hoisted product (one element peeled,
    then whole 16-byte vectors)."""
    lanes = 16 // itemsize

    def part(n: int) -> tuple[int, int]:
        return (1, 1 + (n - 1) // lanes * lanes) if n > lanes else (0, 0)
    return part


def add_(a: np.ndarray, b, alpha=1) -> None:
    """``a.add_(b, alpha=alpha)`` (``b`` the same shape as ``a``, or broadcast to it)."""
    if a.dtype.char in "eE":                        # float16, bfloat16
        a[...] = _reduced_add(a, np.asarray(b, a.dtype), float(alpha))
        return
    s = a.dtype.type(alpha)
    if s == 1:
        np.add(a, b, out=a)
    elif np.size(b) == 1 and a.size > 1:
        a[...] = add(a, b, s)
    else:
        fma_(a, s, b)


def lerp(a, end, weight):
    """``torch.lerp(a, end, weight)``: ``weight`` a number or an array of ``a``'s dtype."""
    if a.dtype.kind == "c":
        return _complex_lerp(a, end, weight)
    return _lerp_fma(a, end, weight)


def _lerp_fma(a, end, weight):
    """lerp as ``fma(weight, end - a, a)`` or ``fma(weight - 1, end - a, end)``."""
    one = a.dtype.type(1)
    with np.errstate(over="ignore", invalid="ignore"):
        diff = end - a
        if not isinstance(weight, np.ndarray):
            w = a.dtype.type(weight)
            small = abs(w) < 0.5
            if isinstance(end, np.ndarray) and end.shape == a.shape:
                r = np.array(a if small else end)
                fma_(r, w if small else w - one, diff)
                return r
            return fma(w, diff, a) if small else fma(w - one, diff, end)
        small = np.abs(weight) < 0.5
        return fma(np.where(small, weight, weight - one), diff, np.where(small, a, end))


def _complex_lerp(a, end, weight):
    """torch's complex lerp: ``lerp_vec``, ``fmadd(coeff, end - a, base)`` with the plain
    ``Vectorized`` product, where ``coeff, base`` are ``weight, a`` for ``|weight| < 0.5``
    else ``weight - 1, end``; complex64's vector ``abs`` gives each odd element of a vector
    the test of the even one before it. The scalar tail of each row (after one more vector
    where half a step is left) computes ``a + weight * (end - a)`` or ``end - (end - a) *
    (1 - weight)`` with the compiler's contracted product."""
    dt = a.dtype
    shape = np.broadcast_shapes(a.shape, np.shape(end), np.shape(weight))
    w = np.broadcast_to(np.asarray(weight, dt), shape)
    a, end = np.broadcast_to(a, shape), np.broadcast_to(end, shape)
    one = dt.type(1)
    groups = _mf.iter_groups(shape, a.strides, end.strides, w.strides)
    loops = [(g[0], g[2]) for g in groups]
    with np.errstate(over="ignore", invalid="ignore"):
        d = end - a
        small = np.abs(w) < 0.5
        if not groups:
            tail = np.ones(shape, bool)
        else:
            inner = groups[0][1]
            vectorised = all(x in (0, dt.itemsize) for x in inner) and any(inner)
            step = _cpu.kernel_step(dt) if vectorised else int(np.prod(shape)) + 1
            half = step // 2 if vectorised else 0
            tail = _sleef.tail_mask(shape, loops, step,
                                    tail=lambda n: (half if n >= half else 0, n))
        small_v = _even_lanes(small, groups, loops) if dt == np.complex64 and groups \
            else small
        out = complex_product(np.where(small_v, w, w - one), d) + np.where(small_v, a, end)
        if tail.any():
            scalar = np.where(small, a + complex_product(w, d, True),
                              end - complex_product(d, one - w, True))
            out = np.where(tail, scalar, out)
    return out


def _even_lanes(mask, groups, loops):
    """``mask`` with each odd element of a loop's row (in the iterator's order) replaced by
    the even one before it."""
    shape = mask.shape
    keep = [d for d in range(mask.ndim) if shape[d] != 1]
    ax = [keep.index(m) for g in groups for m in g[2]][::-1]       # slowest first
    sub = mask.reshape([shape[d] for d in keep])
    flat = np.transpose(sub, ax).reshape(-1).copy()
    pos = np.transpose(_sleef.row_positions(shape, loops).reshape(sub.shape), ax).reshape(-1)
    odd = np.flatnonzero(pos % 2)
    flat[odd] = flat[odd - 1]
    back = flat.reshape([sub.shape[a] for a in ax])
    return np.transpose(back, np.argsort(ax)).reshape(shape)


def lerp_(a: np.ndarray, end: np.ndarray, weight) -> None:
    """``a.lerp_(end, weight)`` for a number ``weight``."""
    w = a.dtype.type(weight)
    with np.errstate(over="ignore", invalid="ignore"):
        if abs(w) < 0.5:
            fma_(a, w, end - a)
        else:
            fma(w - a.dtype.type(1), end - a, end, out=a)


def addcmul(a, t1, t2, value=1):
    """``torch.addcmul(a, t1, t2, value=value)``: ``a + (value * t1) * t2``."""
    v = np.result_type(a, t1, t2).type(value)
    with np.errstate(over="ignore", invalid="ignore"):
        return fma(t1 if v == 1 else v * t1, t2, a)


def complex_addcmul(a, t1, t2, value):
    """torch's complex ``addcmul``: ``self + value * t1 * t2`` with the plain ``Vectorized``
    products in steps of eight elements; the compiler contracts the second product of the
    row's next four (when as many are left), the rest plain; a row that does not vectorise
    (strided or broadcast) runs pairs contracted, an odd last one plain."""
    dt = np.result_type(a, t1, t2)
    shape = np.broadcast_shapes(np.shape(a), np.shape(t1), np.shape(t2))
    ops = [np.broadcast_to(np.asarray(x, dt), shape) for x in (a, t1, t2)]
    groups = _mf.iter_groups(shape, *(x.strides for x in ops))
    if not groups:
        tail = dt == np.complex128
    elif all(st == dt.itemsize for st in groups[0][1]):
        tail = _sleef.tail_mask(shape, [(g[0], g[2]) for g in groups],
                                _cpu.kernel_step(dt, avx512=False),
                                tail=lambda n: (0, 4) if n >= 4 else (0, 0))
    else:
        tail = _sleef.tail_mask(shape, [(g[0], g[2]) for g in groups], int(np.prod(shape)) + 1,
                                tail=lambda n: (0, n - n % 2))
    with np.errstate(over="ignore", invalid="ignore"):
        return complex_product(complex_product(dt.type(value), ops[1]), ops[2], tail) + ops[0]


def addcmul_(a: np.ndarray, t1, t2, value=1) -> None:
    """``a.addcmul_(t1, t2, value=value)``."""
    v = a.dtype.type(value)
    with np.errstate(over="ignore", invalid="ignore"):
        fma(t1 if v == 1 else v * t1, t2, a, out=a)


def complex_product(a, b, tail: np.ndarray | bool = False) -> np.ndarray:
    """``a * b`` for complex arrays as ``(ac - bd) + (ad + bc)i``, each product rounded
    (torch's ``Vectorized`` complex multiply, and the plain C++ loops built without fused
    multiply-adds), NumPy's multiply contracting some of them; where ``tail`` is set the
    compiler's contraction ``fma(a, c, -bd) + fma(a, d, bc)i``."""
    a, b = np.asarray(a), np.asarray(b)
    dt = np.result_type(a, b)
    a, b = np.broadcast_arrays(a.astype(dt, copy=False), b.astype(dt, copy=False))
    ar, ai, br, bi = a.real, a.imag, b.real, b.imag
    out = np.empty(a.shape, dt)
    with np.errstate(over="ignore", invalid="ignore"):
        bd, bc = ai * bi, ai * br
        out.real = ar * br - bd
        out.imag = ar * bi + bc
        if np.any(tail):
            t = np.broadcast_to(tail, out.shape)
            out.real[t] = _exact_fma(ar[t], br[t], -bd[t])
            out.imag[t] = _exact_fma(ar[t], bi[t], bc[t])
    return out


def complex_quotient(a, b, plain: np.ndarray | bool = False) -> np.ndarray:
    """``a / b`` for complex arrays as ``c10::complex``'s scalar division computes it, the
    compiler contracting its products into fused multiply-adds: NumPy's scaled (Smith)
    algorithm, the ratio taken of the smaller part of ``b`` to the larger. Where ``plain``
    is set only the denominator is contracted, the numerators rounded product and sum."""
    dt = np.result_type(np.asarray(a), np.asarray(b))
    a, b = np.broadcast_arrays(np.asarray(a, dt), np.asarray(b, dt))
    ar, ai, c, d = a.real, a.imag, b.real, b.imag
    out = np.empty(a.shape, dt)
    one = ar.dtype.type(1)
    with np.errstate(all="ignore"):
        big_c = np.abs(c) >= np.abs(d)
        zero = big_c & (c == 0) & (d == 0)
        rat = np.where(big_c, d / c, c / d)
        scl = one / np.where(big_c, _exact_fma(d, rat, c), _exact_fma(c, rat, d))
        out.real = np.where(big_c, _exact_fma(ai, rat, ar), _exact_fma(ar, rat, ai)) * scl
        out.imag = np.where(big_c, _exact_fma(-ar, rat, ai), _exact_fma(ai, rat, -ar)) * scl
        if np.any(plain):
            p = np.broadcast_to(plain, out.shape)
            bp, r, sp = big_c[p], rat[p], scl[p]
            out.real[p] = np.where(bp, ar[p] + ai[p] * r, ar[p] * r + ai[p]) * sp
            out.imag[p] = np.where(bp, ai[p] - ar[p] * r, ai[p] * r - ar[p]) * sp
        if zero.any():      # (a zero divisor: an infinity or NaN from each part on its own)
            out.real[zero] = ar[zero] / np.abs(c[zero])
            out.imag[zero] = ai[zero] / np.abs(d[zero])
    return out


def c10_log1p(z):
    """c10's complex ``log1p`` on the CPU: ``u = z + 1``; ``z`` where ``u`` is 1, ``log(u)``
    where ``u - 1`` is ``z``, else ``log(u) * (z / (u - 1))`` (c10's fused arithmetic)."""
    one = z.real.dtype.type(1)
    u = z.copy()
    u.real += one                                   # (the imaginary part untouched: its zero
    back = u.copy()                                 # keeps its sign)
    back.real -= one
    log_u = _libm.c_complex("clog", u)
    res = complex_product(log_u, complex_quotient(z, back), True)
    res = np.where((back.real == z.real) & (back.imag == z.imag), log_u, res)
    return np.where((u.real == one) & (u.imag == 0), z, res)


def complex_div(a, b) -> np.ndarray:
    """``torch.div`` of complex operands (arrays or numbers), as torch's CPU kernel rounds
    it: :func:`complex_quotient` element by element (its ``Vectorized`` division loops over
    the elements too), the odd last element of each row's tail with plain numerators
    (complex64; the compiler contracts the others in pairs)."""
    dt = np.result_type(np.asarray(a), np.asarray(b))
    shape = np.broadcast_shapes(np.shape(a), np.shape(b))
    plain = False
    if dt == np.complex64:
        st = [np.broadcast_to(np.asarray(x, dt), shape).strides for x in (a, b)]
        groups = _mf.iter_groups(shape, *st) if shape else None
        plain = _sleef.tail_mask(shape, [(g[0], g[2]) for g in groups], _cpu.kernel_step(dt),
                                 tail=_odd_last) if groups else True    # (one element: odd)
    return complex_quotient(a, b, plain)


def _odd_last(n):
    return (n - 1, n) if n % 2 else (0, 0)


def complex_mul(a, b) -> np.ndarray:
    """``torch.mul`` of complex operands (arrays or numbers), as torch's CPU kernel rounds
    it: :func:`complex_product`, with the scalar tail of each row of ``cpu_kernel_vec``
    (after its 64-byte steps) contracted by the compiler. complex128 contracts the whole
    tail; complex64 pairs of elements (an odd last one stays plain), or, where one operand
    is broadcast along the row (a number), one peeled plain element, then four contracted
    (one 32-byte vector), then plain ones."""
    dt = np.result_type(np.asarray(a), np.asarray(b))
    shape = np.broadcast_shapes(np.shape(a), np.shape(b))
    return complex_product(a, b, _complex_tail(np.asarray(a, dt), np.asarray(b, dt), shape))


def complex_square(a: np.ndarray) -> np.ndarray:
    """``a ** 2`` as torch's pow kernel computes it, ``base * base`` with its complex
    multiply: the ``Vectorized`` products (a kernel built for AVX512) except in each row's
    scalar tail, which the compiler contracts throughout (a row that does not vectorise,
    strided, is all tail)."""
    return complex_power(a, 2)


def complex_power(a: np.ndarray, n: int) -> np.ndarray:
    """``a ** n`` for the exponents torch's pow kernel writes out: 2 (``base * base``), 3
    (``base * base * base``) and -2 (the reciprocal of the square, divided as
    :func:`complex_div` divides, in the input's loop)."""
    c64 = a.dtype == np.complex64
    groups = _mf.iter_groups(a.shape, a.strides)
    if not groups:
        tail = plain = True
        tail4 = not c64
    else:
        inner = groups[0][1][0]
        step = _cpu.kernel_step(a.dtype) if inner in (0, a.itemsize) else a.size + 1
        dims = [(g[0], g[2]) for g in groups]
        tail = _sleef.tail_mask(a.shape, dims, step)
        plain = _sleef.tail_mask(a.shape, dims, step, tail=_odd_last) if c64 else False
        # (complex64's cube: the compiler runs the tail four elements at a time, the rest
        # with the second product plain)
        tail4 = _sleef.tail_mask(a.shape, dims, step, tail=_fours) if c64 else tail
    sq = complex_product(a, a, tail)
    if n == 2:
        return sq
    if n == 3:
        return complex_product(sq, a, tail4)
    return complex_quotient(a.dtype.type(1), sq, plain)


def _fours(n):
    return 0, n - n % 4


def _complex_tail(a, b, shape):
    """Where :func:`complex_mul` contracts (False: nowhere). A row the
    kernel cannot vectorise (strided operands) is all tail."""
    st = [np.broadcast_to(x, shape).strides for x in (a, b)]
    groups = _mf.iter_groups(shape, *st)
    dt = np.dtype(np.result_type(a, b))
    if not groups:                             # one element: complex128 contracts it
        return dt.itemsize == 16
    inner = groups[0][1]
    vectorised = all(s in (0, dt.itemsize) for s in inner) and inner != [0, 0] \
        and min(s for g in groups for s in g[1]) >= 0
    step = _cpu.kernel_step(dt, avx512=False) if vectorised else int(np.prod(shape)) + 1
    if dt.itemsize == 16:
        part = None
    elif vectorised and 0 in inner:
        def part(n):
            return (1, 5) if n >= 5 else (0, 0)
    else:
        def part(n):
            return 0, n - n % 2
    return _sleef.tail_mask(shape, [(g[0], g[2]) for g in groups], step, tail=part)

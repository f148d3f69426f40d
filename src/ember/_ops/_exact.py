"""torch's CPU reduction order, reproduced with NumPy so that sums round as torch's do.

torch reduces through a TensorIterator: the dims are reordered (reduced dims first, then by
input stride), adjacent dims are coalesced, and a 2-D loop runs over the first two dims while
the outer ones are iterated one by one, each call adding its partial results into the output.
Floating sums (``SumKernel.cpp``, ``cascade_sum``) use a four-level cascade with 4-way
interleaved accumulators and, on a contiguous row, ``Vectorized<T>`` lanes (AVX2 here: 8
floats, 4 doubles); products (``Reduce.h``, ``binary_kernel_reduce_vec``) use four vector
accumulators. Inputs of 32768 elements or more are split between threads as
``TensorIteratorReduce.cpp`` does (``set_num_threads`` says how many torch would use).

Every helper reduces along axis 0 of an array whose other axes are independent columns; a
NumPy reduction over an axis that is not the innermost in memory runs sequentially, which is
what torch's scalar accumulators do.
"""

from __future__ import annotations

import functools
import os

import numpy as np

from .._memory_format import sort_dims
from .._meta import MetaArray
from . import _libm

GRAIN = 32768
_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4,
          np.dtype(np.complex64): 4, np.dtype(np.complex128): 2}   # (a complex: 2 lanes)


def _default_threads() -> int:
    """torch's intra-op default: the physical cores, fewer where ``OMP_NUM_THREADS`` asks."""
    cores = _physical_cores()
    env = os.environ.get("OMP_NUM_THREADS", "")
    if env.isdigit() and int(env) > 0:
        return min(int(env), cores)
    return cores


def _physical_cores() -> int:
    try:
        cores, cur = set(), {}
        with open("/proc/cpuinfo") as f:
            for line in f:
                k, _, v = line.partition(":")
                k = k.strip()
                if k in ("physical id", "core id"):
                    cur[k] = v.strip()
                elif not k and cur:
                    cores.add((cur.get("physical id"), cur.get("core id")))
                    cur = {}
        if cur:
            cores.add((cur.get("physical id"), cur.get("core id")))
        if len(cores) > 0 and all(c != (None, None) for c in cores):
            return min(len(cores), os.cpu_count() or len(cores))
    except OSError:
        pass
    return os.cpu_count() or 1


_threads = [_default_threads()]


def get_num_threads() -> int:
    """The intra-op thread count torch would use (its reductions split work by it)."""
    return _threads[0]


def set_num_threads(n: int) -> None:
    _threads[0] = max(1, int(n))


def runs_inline(numiter: int, grain: int = 1) -> bool:
    """Whether ATen's ``at::parallel_for`` over ``numiter`` iterations calls its body inline
    (one thread, ``numiter <= grain``, or a single iteration; Ember never nests parallel
    regions) rather than through OpenMP. The inlined copy of a kernel's loop is compiled
    apart from the outlined one, and the two can contract or vectorise differently."""
    return numiter <= grain or numiter <= 1 or get_num_threads() == 1


def parallel_threads(numiter: int, grain: int = 1) -> int:
    """How many threads ``at::parallel_for`` splits ``numiter`` iterations between (each
    takes ``ceil(numiter / threads)`` of them, the last the rest)."""
    if runs_inline(numiter, grain):
        return 1
    return min(get_num_threads(), -(-numiter // max(grain, 1)))


_LANES16 = 16        # a Vectorized<Half>/<BFloat16> of the reductions' kernels: 32 bytes

exact_dtype = frozenset(_LANES) - {np.dtype(np.complex64), np.dtype(np.complex128)}
# (the real dtypes the emulated kernels cover; sums cover complex ones too, whose additions
# are two real ones)
summed_dtype = frozenset(_LANES)


# ----------------------------------------------------------------------------- sequential sums

def _mul(x, y, fused=True):
    """``x * y``; complex as c10::complex multiplies, ``fused``: contracted by the compiler
    (the scalar loops), else each product rounded (``Vectorized``'s)."""
    if x.dtype.kind != "c":
        return x * y
    from ._fused import complex_product
    return complex_product(x, y, fused)


def seqprod(a, fused=True):
    """``(a[0] * a[1]) * …`` along axis 0 (1 when empty)."""
    n = a.shape[0]
    if a.dtype.kind == "c":
        acc = np.ones(a.shape[1:], a.dtype)
        for i in range(n):
            acc = _mul(acc, a[i], fused)
        return acc
    if n <= 4:
        acc = np.ones(a.shape[1:], a.dtype)
        for i in range(n):
            acc = acc * a[i]
        return acc
    if a[0].size <= 1:
        return np.multiply.accumulate(a, axis=0)[-1]
    if not _outer_axis0(a):
        a = np.ascontiguousarray(a)
    return np.multiply.reduce(a, axis=0)


_LOOP_ROWS, _LOOP_MIN, _LOOP_RUN = 64, 8192, 64
_COPY_MIN = 4096       # elements of a strided sum worth a contiguous copy first


def _run(a) -> int:
    """How many elements of ``a`` lie next to each other in memory along its fastest axes."""
    run = 1
    for st, n in sorted((abs(st), n) for st, n in zip(a.strides, a.shape) if n > 1):
        if st != run * a.itemsize:
            break
        run *= n
    return run


def seqsum(a, start=None):
    """``((start + a[0]) + a[1]) + …`` along axis 0 (``start`` +0 when None)."""
    n = a.shape[0]
    if n == 0:
        z = np.zeros(a.shape[1:], a.dtype)
        return z if start is None else start + z
    if n <= 4:
        acc = a[0] + np.zeros((), a.dtype) if start is None else start + a[0]
        for i in range(1, n):
            acc = acc + a[i]
        return acc
    if a[0].size <= 1:
        r = np.add.accumulate(a, axis=0)[-1]
        return r + np.zeros((), a.dtype) if start is None else start + r
    if n <= _LOOP_ROWS and a[0].size >= _LOOP_MIN and _run(a[0]) <= _LOOP_RUN:
        # a few large slices made of short runs, which NumPy's reduction over them walks
        # slowly. einsum adds them slice after slice into its output (from +0, one add
        # per element: its contiguous inner loop runs over a slice, as long as axis 0 is
        # not the one nearest in memory), up to three times as fast; else one in-place add
        # per slice, twice as fast
        if start is None and abs(a.strides[0]) > min(
                abs(st) for st, k in zip(a.strides[1:], a.shape[1:]) if k > 1):
            return np.einsum("i...->...", a)
        acc = a[0] + np.zeros((), a.dtype) if start is None else start + a[0]
        for i in range(1, n):
            np.add(acc, a[i], out=acc)
        return acc
    if not _outer_axis0(a) or (a.size >= _COPY_MIN and not a.flags.c_contiguous
                               and _run(a[0]) <= _LOOP_RUN):
        # (a slice made of short runs: NumPy walks them about twice as slowly as it copies
        # them and then adds whole rows, in the same order)
        a = np.ascontiguousarray(a)
    r = np.add.reduce(a, axis=0)
    return r + np.zeros((), a.dtype) if start is None else start + r


def _outer_axis0(a) -> bool:
    """True when axis 0 is not the innermost in memory (NumPy then adds sequentially)."""
    s0 = abs(a.strides[0])
    return any(abs(st) < s0 and n > 1 for st, n in zip(a.strides[1:], a.shape[1:]))


def cascade(x):
    """SumKernel's ``multi_row_sum``: the four-level cascade over axis 0, per column."""
    n = x.shape[0]
    cols = x.shape[1:]
    if 16 <= n < 256 and x.flags.c_contiguous and x[0].size >= 2:
        r = _cascade_short(x.reshape(n, -1))
        r.shape = cols              # (a fresh array: reshaped in place, not viewed)
        return r
    p = max(4, ((n - 1).bit_length() if n > 2 else 1) // 4)
    s = 1 << p
    nb = n // s
    if nb == 0:
        return seqsum(x)
    if nb < s:
        # one level of blocks (n < 256): ((tail + rest0) + 0) + 0 with the levels above
        # empty; no sequential sum is -0, so the +0s change nothing and a missing tail is +0
        r = seqsum(seqsum(_blocks(x[:nb * s], s, cols)))
        return r if nb * s == n else seqsum(x[nb * s:]) + r
    tail = seqsum(x[nb * s:])
    lv = seqsum(_blocks(x[:nb * s], s, cols))
    rest = []
    for _ in range(2):
        g = lv.shape[0] // s
        rest.append(seqsum(lv[g * s:]))
        lv = seqsum(_blocks(lv[:g * s], s, cols)) if g else lv[:0]
    return ((tail + rest[0]) + rest[1]) + seqsum(lv)


def _cascade_short(x):
    """:func:`cascade` of a C-contiguous (n, cols) array, 16 <= n < 256 and cols >= 2: one
    level of blocks of 16 rows. NumPy adds along an axis that is not the innermost one row
    after row, so each block's sum and the sum of the blocks are two reductions; a sum
    started from the first row rather than +0 differs only in the sign of a zero, which
    the final +0 settles (a sum started from +0 is never -0)."""
    n, c = x.shape
    nb = n >> 4
    zero = np.zeros((), x.dtype)
    r = np.add.reduce(np.add.reduce(x[:nb << 4].reshape(nb, 16, c), axis=1), axis=0) + zero
    if nb << 4 == n:
        return r
    return (np.add.reduce(x[nb << 4:], axis=0) + zero) + r


def _blocks(x, s, cols):
    """``x`` (n·s, *cols) as (s, n, *cols): axis 0 runs within each block of ``s`` items."""
    return x.reshape((x.shape[0] // s, s) + cols).swapaxes(0, 1)


def row_sum(x):
    """SumKernel's ``row_sum``: four interleaved cascades, the leftovers, then p0+p1+p2+p3
    (the leftovers added to p0 first: one sequential sum)."""
    n = x.shape[0]
    m = n // 4
    part = cascade(x[:m * 4].reshape((m, 4) + x.shape[1:]))
    if m * 4 < n:
        part = np.concatenate([part[:1], x[m * 4:], part[1:]], axis=0)
    return np.add.accumulate(part, axis=0)[-1]


def _inner_vec(x, lanes):
    """``vectorized_inner_sum``: rows contiguous along axis 0 (the reduced one). The lanes'
    vector (:func:`row_sum`, or one accumulator adding fewer than four vectors in turn) is
    summed after the scalar tail, in one sequential sum from +0; started from the tail's
    first row instead, it differs only in the sign of a zero, which the final +0 settles."""
    n = x.shape[0]
    vs = n // lanes
    if vs < 4:
        v = x[:lanes]
        for i in range(1, vs):
            v = v + x[i * lanes:(i + 1) * lanes]
    else:
        v = row_sum(x[:vs * lanes].reshape((vs, lanes) + x.shape[1:]))
    seq = np.concatenate([x[vs * lanes:], v], axis=0)
    return np.add.accumulate(seq, axis=0)[-1] + np.zeros((), x.dtype)


def _col_blocks(x, width, fn):
    """Apply ``fn`` to the columns (axis 1) in blocks of ``width``, concatenated back."""
    n1 = x.shape[1]
    nb = n1 // width
    if nb == 0:
        return None, 0
    blk = x[:, :nb * width].reshape((x.shape[0], nb, width) + x.shape[2:])
    return fn(blk).reshape((nb * width,) + x.shape[2:]), nb * width


def loop2d(y, esize, lanes, ignore_nan=False):
    """The 2-D loop of ``cascade_sum`` on ``y`` (size0, size1, *outer): dim 0 is reduced.

    Returns the partial stored for each (dim-1 index, outer index)."""
    s0, s1 = y.shape[:2]
    st0, st1 = y.strides[:2]
    if ignore_nan:
        nan = np.isnan(y)
        if nan.any():
            y = np.where(nan, np.zeros((), y.dtype), y)
    if lanes and st0 == esize and s0 >= lanes:
        return _inner_vec(y, lanes)
    if lanes and st1 == esize and s1 >= lanes:
        w = 4 * lanes
        head, j = _col_blocks(y, w, cascade)
        parts = [] if head is None else [head]
        if j + lanes <= s1:
            mid, k = _col_blocks(y[:, j:], lanes, row_sum)
            parts.append(mid)
            j += k
        if j < s1:
            parts.append(row_sum(y[:, j:]))
        return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=0)
    if st0 < st1:
        return row_sum(y)
    head, j = _col_blocks(y, 4, cascade)
    if j == s1:
        return head
    tail = row_sum(y[:, j:])
    return tail if head is None else np.concatenate([head, tail], axis=0)


# ----------------------------------------------------------------------------- the iterator

@functools.lru_cache(maxsize=512)
def reduce_plan(shape, strides, dims):
    """TensorIterator's dims for a reduction of an array (``strides`` in bytes) over ``dims``.

    Returns ``(layout, order, sizes)``: ``layout`` lists (size, input stride, output stride,
    reduced) per iterator dim, fastest first, after reordering and coalescing; the input as
    ``a.transpose(order).reshape(sizes)`` is that iterator's view (axis 0 fastest)."""
    red = set(dims)
    out_st, acc = {}, 1
    for d in range(len(shape) - 1, -1, -1):
        if d not in red:
            out_st[d] = acc
            acc *= shape[d]
    keep = [d for d in range(len(shape)) if shape[d] != 1]
    dl = [(shape[d], strides[d], 0 if d in red else out_st[d], d in red) for d in keep]
    perm = list(range(len(dl) - 1, -1, -1))

    def swap(a, b):
        (na, ia, oa, _), (nb, ib, ob, _) = dl[a], dl[b]
        if (oa == 0) != (ob == 0):
            return 1 if ob == 0 else -1
        for sa, sb in ((oa, ob), (ia, ib)):
            if sa == 0 or sb == 0:
                continue
            if sa < sb:
                return -1
            if sa > sb:
                return 1
            if na > nb:
                return 1
        return 0

    sort_dims(perm, swap)
    merged, members = [], []
    for p in perm:
        d = list(dl[p])
        if merged:
            q = merged[-1]
            if q[0] * q[1] == d[1] and q[0] * q[2] == d[2]:
                q[0] *= d[0]
                members[-1].append(keep[p])
                continue
        merged.append(d)
        members.append([keep[p]])
    order = [m for grp in members for m in reversed(grp)]
    order += [d for d in range(len(shape)) if shape[d] == 1]
    layout = tuple(tuple(d) for d in merged)
    return layout, tuple(order), tuple(d[0] for d in layout)


def reduce_layout(shape, strides, dims):
    """The iterator dims of :func:`reduce_plan` alone."""
    return list(reduce_plan(tuple(shape), tuple(strides), tuple(dims))[0])


@functools.lru_cache(maxsize=512)
def _plan(shape, strides, dims, keepdim):
    if not dims:
        dims = tuple(range(len(shape)))
    out_shape = tuple(1 if d in dims else n for d, n in enumerate(shape)) if keepdim else \
        tuple(n for d, n in enumerate(shape) if d not in dims)
    layout, order, sizes = reduce_plan(shape, strides, dims)
    if not layout:
        layout, order, sizes = ((1, 0, 0, True),), tuple(range(len(shape))), (1,)
    return list(layout), order, sizes, out_shape, sum(1 for d in layout if d[3])


def _prepare(a, dims, keepdim):
    """(iterator layout, the input as the iterator's view or None when empty, the output
    shape, the number of reduced iterator dims)."""
    if min(a.strides, default=0) < 0:
        a = np.ascontiguousarray(a)
    layout, order, sizes, out_shape, nred = _plan(a.shape, a.strides, tuple(dims), keepdim)
    if a.size == 0:
        return layout, None, out_shape, nred
    return layout, a.transpose(order).reshape(sizes), out_shape, nred


def _to_out(r, out_shape):
    """The result over the kept iterator dims (reverse logical order) as a fresh array."""
    r = np.transpose(r).reshape(out_shape)
    # an array of its own (not a view of a temporary), as NumPy's reductions return
    return r if r.base is None and r.flags.c_contiguous else r.copy()


def _pad2(y):
    while y.ndim < 2:
        y = y.reshape(y.shape + (1,))
    return y


def _serial(y, nred, esize, lanes, nan, into=None):
    """All loop calls over the full range: partials per (dim1, outer…), then the sequential
    accumulation over the reduced dims beyond dim 0 (dim 1 fastest), rounded to ``into``
    after each add when given."""
    part = loop2d(y, esize, lanes, nan)
    if nred <= 1:
        return part
    k = nred - 1
    red_shape = part.shape[:k]
    rest = part.shape[k:]
    seq = np.transpose(part, tuple(range(k - 1, -1, -1)) + tuple(range(k, part.ndim)))
    seq = seq.reshape((_prod(red_shape),) + rest)
    if into is None:
        return seqsum(seq)
    acc = np.zeros(rest, into)     # (``*out += value``: the value rounded to the type first)
    for row in seq:
        acc = (acc.astype(seq.dtype) + row.astype(into).astype(seq.dtype)).astype(into)
    return acc.astype(seq.dtype)


def _prod(xs):
    r = 1
    for x in xs:
        r *= x
    return r


def _calls(shape, begin, end):
    """``serial_for_each``'s loop calls over [begin, end): (start index, step0, step1)."""
    vals = []
    rem = begin
    for n in shape:
        vals.append(rem % n)
        rem //= n
    off = begin
    out = []
    while off < end:
        s0 = min(shape[0] - vals[0], end - off)
        s1 = 1
        if s0 == shape[0] and len(shape) > 1:
            s1 = min(shape[1] - vals[1], (end - off) // shape[0])
        out.append((tuple(vals), s0, s1))
        off += s0 * s1
        i, over = (1, s1) if s1 != 1 else (0, s0)
        while i < len(shape) and over > 0:
            v = vals[i] + over
            if v >= shape[i]:
                over, v = 1, v - shape[i]
            else:
                over = 0
            vals[i] = v
            i += 1
    return out


def _two_pass(y, esize, lanes, nan, threads):
    """A full reduction split between threads: each sums its share of the flat range into
    its own slot, then the slots are summed as a tensor of ``threads`` elements."""
    numel = y.size
    nt = min(threads, -(-numel // GRAIN))
    if numel <= GRAIN:
        nt = 1
    chunk = -(-numel // nt)
    buf = np.zeros(threads, y.dtype)
    shape = y.shape
    for t in range(nt):
        b, e = t * chunk, min(numel, (t + 1) * chunk)
        if b >= e:
            continue
        seq = []
        for vals, s0, s1 in _calls(shape, b, e):
            idx = (slice(vals[0], vals[0] + s0), slice(vals[1], vals[1] + s1)) + vals[2:] \
                if len(shape) > 1 else (slice(vals[0], vals[0] + s0),)
            blk = _pad2(y[idx])
            seq.append(loop2d(blk, esize, lanes, nan).reshape(-1))
        buf[t] = seqsum(np.concatenate(seq))
    return cascade_sum(buf, (0,), False, nan)


def _split_cols(y, layout, nred, esize, lanes, nan, threads):
    """``parallel_dim_reduction`` when the split falls on dim 1 of the 2-D loop and columns
    are not rounded to 128 bytes: each thread's loop sees only its columns."""
    cols = y.shape[1]
    nt = min(threads, cols)
    chunk = -(-cols // nt)
    parts = [loop2d(y[:, b:min(cols, b + chunk)], esize, lanes, nan)
             for b in range(0, cols, chunk)]
    return np.concatenate(parts, axis=0)


def in_layout(a, dtype):
    """``a`` converted to ``dtype`` with its strides (in elements; a broadcast dim's too), so
    that the iterator's plan over it is the one over ``a``."""
    if min(a.strides, default=0) < 0 or not a.size:
        return a.astype(dtype)
    steps = [st // a.itemsize for st in a.strides]
    span = 1 + sum((n - 1) * st for n, st in zip(a.shape, steps))
    dt = np.dtype(dtype)
    out = np.lib.stride_tricks.as_strided(np.empty(span, dt), a.shape,
                                          [st * dt.itemsize for st in steps])
    np.copyto(out, a, casting="unsafe")
    return out


def cascade_sum(a, dims, keepdim, nan=False, into=None):
    """``torch.sum(a, dims, keepdim)`` (``nansum`` with ``nan``) for float32/float64 arrays,
    added in torch's order. ``dims`` is the sorted tuple of reduced dims (all when empty).
    ``into``: the dtype of an output each row's float sum is added into, rounding each time
    (a float16/bfloat16 ``nansum``, which has no float buffer as ``sum`` has)."""
    if a.__class__ is MetaArray:    # a meta stand-in: no elements to add, only the shape
        return np.add.reduce(a, axis=tuple(dims) or None, keepdims=keepdim)
    if dims == (0,) and not nan and a.ndim == 2 and 2 <= a.shape[0] < 256 \
            and a.shape[1] >= _LANES[a.dtype] and a.flags.c_contiguous \
            and (a.size < GRAIN or _threads[0] == 1):
        # a bias gradient's sum over rows: the iterator's 2-D loop on (rows, columns) is
        # loop2d's column blocks, each column added on its own, so the blocks of 4 vectors
        # (cascade) and the rest (row_sum) run on all their columns at once
        w = 4 * _LANES[a.dtype]
        h = a.shape[1] - a.shape[1] % w
        if h == a.shape[1]:
            r = cascade(a)
        elif h == 0:
            r = row_sum(a)
        else:
            r = np.concatenate([cascade(a[:, :h]), row_sum(a[:, h:])])
        if r.flags.c_contiguous:
            if r.base is not None:
                r = r.copy()            # an array of its own, as NumPy's reductions return
            r.shape = (1, a.shape[1]) if keepdim else (a.shape[1],)
            return r
        return _to_out(r, (1, a.shape[1]) if keepdim else (a.shape[1],))
    layout, y, out_shape, nred = _prepare(a, dims, keepdim)
    if y is None:
        return np.zeros(out_shape, a.dtype)
    esize = a.itemsize
    lanes = _LANES[a.dtype]
    threads = _threads[0]
    if nred == 0:
        r = y + np.zeros((), a.dtype)
        if nan:
            r = np.where(np.isnan(r), np.zeros((), a.dtype), r)
    else:
        y = _pad2(y)
        big = a.size >= GRAIN and threads > 1
        if big and nred == len(layout):
            r = _two_pass(y, esize, lanes, nan, threads)
        elif big and nred == 1 and len(layout) > 1 and split_dim(layout, nred, threads) == 1 \
                and layout[1][1] != esize:
            r = _split_cols(y, layout, nred, esize, lanes, nan, threads)
        else:
            r = _serial(y, nred, esize, lanes, nan, into)
    return _to_out(r, out_shape)


def split_dim(layout, nred, threads):
    """``find_split_dim``: the outermost kept dim with at least ``threads`` entries, else
    the largest kept one."""
    best = len(layout) - 1
    for d in range(len(layout) - 1, nred - 1, -1):
        if layout[d][0] >= threads:
            return d
        if layout[d][0] > layout[best][0]:
            best = d
    return best


# ----------------------------------------------------------------------------- products

def _prod_factors(y, esize, lanes):
    """The factors one loop call multiplies into each output, in order, along axis 0.

    ``binary_kernel_reduce_vec``: a contiguous row of at least four vectors is multiplied
    in four vector accumulators, folded ``(a0*a1)*(a2*a3)`` and then lane by lane; the rest
    of the row, and every other layout, multiplies in element by element."""
    w = 4 * lanes
    s0 = y.shape[0]
    if y.strides[0] != esize or s0 < w:
        return y
    cnt = s0 // w
    acc = seqprod(y[:cnt * w].reshape((cnt, 4, lanes) + y.shape[1:]), False)
    acc = _mul(_mul(acc[0], acc[1], False), _mul(acc[2], acc[3], False), False)
    b = acc[0]
    for k in range(1, lanes):
        b = _mul(b, acc[k])
    return np.concatenate([b[None], y[cnt * w:]], axis=0)


def _prod_seq(f, nred):
    """Factors (nf, d1, …) to one sequence per output: factors fastest, then d1, d2 …"""
    k = nred
    seq = np.transpose(f, tuple(range(k - 1, -1, -1)) + tuple(range(k, f.ndim)))
    return seq.reshape((-1,) + f.shape[k:])


def reduce_prod(a, dims, keepdim):
    """``torch.prod`` over ``dims`` (all when empty) for float32/float64, complex, float16
    and bfloat16 (each product rounded to the type, as c10::Half's and Vectorized<Half>'s
    are), in torch's order."""
    layout, y, out_shape, nred = _prepare(a, dims, keepdim)
    if y is None:
        return np.ones(out_shape, a.dtype)
    esize, lanes = a.itemsize, _LANES.get(a.dtype, _LANES16)
    y = _pad2(y)
    threads = _threads[0]
    if nred == 0:
        r = y.reshape([d[0] for d in layout]) * np.ones((), a.dtype)
    elif a.size >= GRAIN and threads > 1 and nred == len(layout):
        numel = y.size
        nt = 1 if numel <= GRAIN else min(threads, -(-numel // GRAIN))
        chunk = -(-numel // nt)
        buf = np.ones(threads, a.dtype)
        for t in range(nt):
            b, e = t * chunk, min(numel, (t + 1) * chunk)
            seq = []
            for vals, s0, s1 in _calls(y.shape, b, e):
                idx = (slice(vals[0], vals[0] + s0), slice(vals[1], vals[1] + s1)) + vals[2:]
                f = _prod_factors(_pad2(y[idx]), esize, lanes)
                seq.append(_prod_seq(f, 2).reshape(-1))
            buf[t] = seqprod(np.concatenate(seq))
        r = seqprod(buf)
    else:
        r = seqprod(_prod_seq(_prod_factors(y, esize, lanes), nred))
        if a.dtype.kind == "c" and y.ndim == 2 and y.strides[0] != esize \
                and y.strides[1] == esize:
            # vectorized_outer_reduction: the outputs in runs of four vectors multiply as
            # vectors (each product rounded), the rest one by one
            k = y.shape[1] // (4 * lanes) * 4 * lanes
            r[:k] = seqprod(y[:, :k], False)
    return _to_out(r, out_shape)


# ----------------------------------------------------------------------------- variance

def welford(a, dims, correction, take_sqrt, keepdim):
    """``WelfordOps`` over ``dims`` in double: (var or std, mean) as ``a``'s dtype, each
    output's elements taken in the iterator's order. Several outputs are split between
    threads (each output whole); a single output of ``GRAIN`` or more elements is split
    into one run per thread, the runs' states then combined in order."""
    layout, y, out_shape, nred = _prepare(a, dims, keepdim)
    if nred == 0:                           # reduced dims of size 1: one element each
        seq = np.asarray(y, dtype=np.float64)[None]
    else:
        seq = np.transpose(y, tuple(range(nred - 1, -1, -1)) + tuple(range(nred, y.ndim)))
        seq = np.ascontiguousarray(seq.reshape((-1,) + y.shape[nred:]), dtype=np.float64)
    n = seq.shape[0]
    threads = _threads[0]
    if seq[0].size == 1 and n >= GRAIN and threads > 1:
        nt = min(threads, -(-n // GRAIN))
        chunk = -(-n // nt)
        mean, m2, cnt = 0.0, 0.0, 0.0
        for t in range(nt):                 # WelfordOps::combine, thread by thread
            run = seq[t * chunk:(t + 1) * chunk].reshape(-1, 1)
            if not run.size:
                continue
            mu, s2 = (float(v[0]) for v in _welford_steps(run))
            if cnt == 0:
                mean, m2, cnt = mu, s2, float(run.size)
                continue
            delta = mu - mean
            new = cnt + run.size
            nb = run.size / new
            mean, m2 = mean + delta * nb, m2 + s2 + delta * delta * cnt * nb
            cnt = new
        mean = np.full(seq.shape[1:], mean)
        m2 = np.full(seq.shape[1:], m2)
    else:
        mean, m2 = _welford_steps(seq)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = m2 / np.float64(n - correction if n > correction else 0.0)
        if take_sqrt:
            var = np.sqrt(var)
    return _to_out(var.astype(a.dtype), out_shape), _to_out(mean.astype(a.dtype), out_shape)


def _welford_steps(seq):
    """``WelfordOps::reduce`` along axis 0 of a float64 array for every column at once:
    (mean, m2)."""
    mean = np.zeros(seq.shape[1:])
    m2 = np.zeros(seq.shape[1:])
    if seq[0].size <= 2:
        # one or two outputs: Python's floats round as the doubles do, at a fraction of
        # the cost of NumPy calls on tiny arrays
        for k, col in enumerate(seq.reshape(seq.shape[0], -1).T.tolist()):
            mu, s2 = 0.0, 0.0
            for i, x in enumerate(col, 1):
                d = x - mu
                mu = mu + d / i
                s2 = s2 + d * (x - mu)
            mean.reshape(-1)[k] = mu
            m2.reshape(-1)[k] = s2
        return mean, m2
    delta = np.empty(seq.shape[1:])
    tmp = np.empty(seq.shape[1:])
    sub, add, mul, div = np.subtract, np.add, np.multiply, np.divide
    for i in range(seq.shape[0]):           # in place: one NumPy call per operation
        x = seq[i]
        sub(x, mean, out=delta)
        add(mean, div(delta, float(i + 1), out=tmp), out=mean)
        add(m2, mul(delta, sub(x, mean, out=tmp), out=tmp), out=m2)
    return mean, m2


def var_all(a, mean, correction, take_sqrt):
    """``std_var_all_cpu``: the squared deviations from ``mean`` (torch's float mean) added
    in double, in memory order, one run per thread."""
    if min(a.strides, default=0) < 0:
        a = np.ascontiguousarray(a)
    layout, y, _, _ = _prepare(a, tuple(range(a.ndim)), False)
    flat = y.reshape(-1) if y.ndim <= 1 else np.transpose(y).reshape(-1)
    dx = flat.astype(np.float64) - float(np.asarray(mean).reshape(-1)[0])
    sq = dx * dx
    numel = sq.size
    nt = parallel_threads(numel, GRAIN)
    chunk = -(-numel // nt)
    total = 0.0
    for t in range(nt):
        part = sq[t * chunk:(t + 1) * chunk]
        if part.size:
            total = total + float(np.add.accumulate(part)[-1])
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.float64(total) / np.float64(max(0.0, numel - correction))
        return np.sqrt(var) if take_sqrt else var


# ----------------------------------------------------------------------------- norms

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
# (0-d arrays: quicker ufunc operands than NumPy scalars, with the same result)
_LOW29, _MID29 = np.array(np.int64(0x1FFFFFFF)), np.array(np.int64(0x10000000))


def wide(x):
    """``x`` as float64: an array's float64 copy, a number's float64. NumPy runs a ufunc on
    operands of mixed dtypes (or with a ``dtype=`` other than theirs) through a buffered
    casting loop, several times slower at any size than a cast and a plain float64 loop."""
    return x.astype(np.float64) if x.__class__ is np.ndarray else np.float64(x)


def fma(a, b, c):
    """``a * b + c`` rounded once (the compiler contracts some of torch's scalar loops).

    float32: the product is exact in double and the sum is rounded twice only when the
    double result lies exactly halfway between two floats, which is corrected from the
    sum's exact error. float64: Dekker's error-free product and sum."""
    if a.dtype == _F32:
        p, cw = np.multiply(wide(a), wide(b)), wide(c)
        s = np.add(p, cw)
        r = s.astype(np.float32)
        half = (s.view(np.int64) & _LOW29) == _MID29
        if np.count_nonzero(half):
            return _fix_midpoints(a, b, c, s, r, half, p, cw)
        return r
    if _FUSED[0] is None:
        _FUSED[0] = _fused_works()
    if _FUSED[0]:
        return _fused64(a, b, c)
    return _emulated64(_wide64(a), _wide64(b), _wide64(c))


def _wide64(x):
    """``x`` as float64, uncopied where it is a float64 array already (:func:`_fused64`
    widens its operands as it packs them; the emulation must see the same values)."""
    return x if x.__class__ is np.ndarray and x.dtype == _F64 else wide(x)


def fma32_into(a, b, c, out) -> None:
    """:func:`fma` of float32 arrays of ``out``'s shape, written into ``out`` (which may be
    ``c``): its steps with fewer temporaries, for the optimizers' large updates."""
    s = a.astype(np.float64)
    w = b.astype(np.float64)
    np.multiply(s, w, out=s)
    np.copyto(w, c)
    np.add(s, w, out=s)
    low = w.view(np.int64)
    np.bitwise_and(s.view(np.int64), _LOW29, out=low)
    half = low == _MID29
    if half.any():
        np.copyto(out, _fix_midpoints(a, b, c, s, s.astype(np.float32), half))
    else:
        np.copyto(out, s, casting="unsafe")


def _emulated64(a, b, c):
    """float64 :func:`fma` from error-free products and sums."""
    out = _fma64(a, b, c)
    if not np.isfinite(out).all():
        out = _huge_terms(a, b, c, out)
    return out


_FUSED = [None]     # whether _fused64 rounds once here (probed at the first float64 fma)


def _fused64(a, b, c):
    """float64 ``a * b + c`` rounded once by NumPy's own ``vecdot`` loop, which this NumPy's
    build contracts into a fused multiply-add: ``[c, a] · [1, b]`` starts from ``c * 1`` and
    adds ``a * b`` in one rounding (:func:`_fused_works` checks it). A zero result takes its
    sign from the emulation (the loop's start, +0, loses the sign of an underflowed product):
    the plain sum where a factor is zero, :func:`_emulated64` elsewhere."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
    ab = np.empty((2, 2) + shape)
    ab[0, 0] = c
    ab[0, 1] = a
    ab[1, 0] = 1.0
    ab[1, 1] = b
    with np.errstate(all="ignore"):
        out = np.asarray(np.vecdot(ab[0], ab[1], axis=0))
        if not out.all():
            zero = out == 0
            av, bv, cv = ab[0, 1], ab[1, 1], ab[0, 0]
            plain = zero & ((av == 0) | (bv == 0))
            out[plain] = av[plain] * bv[plain] + cv[plain]
            rest = zero & ~plain
            if rest.any():
                out[rest] = _emulated64(av[rest], bv[rest], cv[rest])
    return out


def _fused_works() -> bool:
    """Whether :func:`_fused64` gives :func:`_emulated64`'s bits: on products that nearly
    cancel the addend (where two roundings show), on wide exponents and on special values."""
    if not hasattr(np, "vecdot"):
        return False
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(2000), rng.standard_normal(2000)
    c = -(a * b) * (1 + rng.standard_normal(2000) * 2.0 ** -50)
    e = rng.standard_normal(3000) * 2.0 ** rng.integers(-1074, 1024, 3000)
    sp = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -3.0, 5e-324, -1e-300, 1e308])
    grid = np.array(np.meshgrid(sp, sp, sp)).reshape(3, -1)
    a, b, c = (np.concatenate(v) for v in ((a, e[:1000], grid[0]), (b, e[1000:2000], grid[1]),
                                          (c, e[2000:], grid[2])))
    with np.errstate(all="ignore"):
        want, got = _emulated64(a, b, c), _fused64(a, b, c)
    return bool(np.all((want.view(np.int64) == got.view(np.int64))
                       | (np.isnan(want) & np.isnan(got))))


def _fma64(a, b, c):
    p = a * b
    sp = 134217729.0
    ah = a * sp
    ah = ah - (ah - a)
    al = a - ah
    bh = b * sp
    bh = bh - (bh - b)
    bl = b - bh
    pe = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    if not np.isfinite(pe).all():
        pe = _large_product_error(a, b, p, pe)
    s = p + c
    bb = s - p
    se = (p - (s - bb)) + (c - bb)
    return fma_specials(a, b, c, np.abs(p) < _DEKKER_MIN, s, sum_errors(s, se, pe))


def _huge_terms(a, b, c, out):
    """The fma where a term near the largest double overflowed the error-free sums though
    the operands are finite: computed with the larger factor and the addend scaled by
    2^-8 and scaled back (an addend that vanishes keeps its sign as the smallest subnormal,
    all it can still decide: which way a tie rounds)."""
    a, b, c, out = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, c, out)))
    bad = ~np.isfinite(out) & np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
    if not bad.any():
        return out
    out = out.copy()
    a, b, c = a[bad], b[bad], c[bad]
    swap = np.abs(a) < np.abs(b)
    a, b = np.where(swap, b, a) * 2.0 ** -8, np.where(swap, a, b)
    cs = c * 2.0 ** -8
    cs = np.where((cs == 0) & (c != 0), np.copysign(5e-324, c), cs)
    with np.errstate(over="ignore", invalid="ignore"):
        out[bad] = _fma64(a, b, cs) * 256.0
    return out


def sum_errors(s, se, pe):
    """``s + se + pe`` rounded once, for ``s`` a rounded sum and ``se``, ``pe`` the exact
    errors of that sum and of its product term. ``s + (se + pe)`` is that, except where it
    falls exactly halfway between two doubles while ``se + pe`` was rounded: the rounding
    error of ``se + pe`` then says which way (a product with a short mantissa, such as
    ``-1e-3 * -104``, meets a tiny addend)."""
    with np.errstate(invalid="ignore", over="ignore"):
        t = se + pe
        r = s + t
        z = r - s
        e2 = (s - (r - z)) + (t - z)      # r + e2 = s + t exactly
        # a tie leaves half a gap between doubles, a power of two: a normal double with
        # an empty mantissa, or any nonzero subnormal (kept as a candidate; the check
        # below keeps only true ties): none such, no tie
        bits = e2.view(np.int64)
        expo = bits & _EXP_BITS
        tie = np.where(expo != 0, (bits & _MANT_BITS) == 0, e2 != 0)
        if not tie.any():
            return r
        bb = t - se
        te = (se - (t - bb)) + (pe - bb)
        cand = tie & (te != 0) & (np.signbit(te) == np.signbit(e2))
        if not np.any(cand):
            return r
        nb = np.nextafter(r, np.copysign(np.inf, e2))
        return np.where(cand & (nb - r == 2 * e2), nb, r)


_EXP_BITS, _MANT_BITS = np.int64(0x7FF0000000000000), np.int64(0x000FFFFFFFFFFFFF)
_DEKKER_MIN = 2.0 ** -960         # below this, a product's error lies under the subnormals
_ABSORBS = 2.0 ** -850            # an addend this large swallows such a product whole


def fma_specials(a, b, c, tiny, plain, out):
    """The emulated float64 fma ``out`` put right where the error terms fail: an infinite
    product or addend (``plain``, the rounded sum, is then IEEE's answer, or the addend)
    and products
    flagged ``tiny``, unless the addend is large enough that the result is the addend
    (which ``out`` then already is)."""
    if not np.isfinite(plain).all():
        # an infinite addend wins over a finite product, even one that overflows
        inf_c = np.isinf(c) & np.isfinite(a) & np.isfinite(b)
        out = np.where(np.isfinite(plain), out, np.where(inf_c, c, plain))
    if not np.all(out):                   # a zero product plus a zero: the sign is the sum's
        out = np.where((out == 0) & ((a == 0) | (b == 0)), plain, out)
    if tiny.any():
        tiny = tiny & ~(np.abs(c) >= _ABSORBS)
    if tiny.any():
        out = _tiny_products(a, b, c, out, tiny)
    return out


def _tiny_products(a, b, c, out, tiny):
    """The fma where the product is too small for Dekker's error term, exactly: the
    operands as integer multiples of 2^-2300, added as Python integers (an object array)
    and divided back, which Python rounds correctly, subnormals and signed zeros included."""
    a, b, c, out = (np.broadcast_to(np.asarray(v, np.float64), np.shape(out))
                    for v in (a, b, c, out))
    tiny = np.broadcast_to(tiny, out.shape) & (a != 0) & (b != 0) & np.isfinite(c)
    out = out.copy()
    (ma, ea), (mb, eb), (mc, ec) = (np.frexp(v[tiny]) for v in (a, b, c))

    def ints(m):
        return (m * 2.0 ** 53).astype(np.int64).astype(object)
    n = (ints(ma) * ints(mb)) << (ea + eb + (_UNIT - 106)).astype(object)
    n += ints(mc) << (ec + (_UNIT - 53)).astype(object)
    out[tiny] = (n / (1 << _UNIT)).astype(np.float64)
    return out


_UNIT = 2300          # 2^-2300 divides every product of two doubles and every double


def _large_product_error(a, b, p, pe):
    """Dekker's ``a * b - p`` where splitting an operand overflowed (operands near the
    largest double): the split is done on the mantissas instead and scaled back."""
    a, b, p, pe = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, p, pe)))
    pe = pe.copy()
    bad = ~np.isfinite(pe) & np.isfinite(p)
    ma, ea = np.frexp(a[bad])
    mb, eb = np.frexp(b[bad])
    mp = ma * mb
    sp = 134217729.0
    ah = ma * sp
    ah = ah - (ah - ma)
    al = ma - ah
    bh = mb * sp
    bh = bh - (bh - mb)
    bl = mb - bh
    pe[bad] = np.ldexp(((ah * bh - mp) + ah * bl + al * bh) + al * bl, ea + eb)
    return pe


def _tiny_product_error(a, b, p):
    """``a * b - p`` rounded once, for ``p``, the rounded product, under ``_DEKKER_MIN``
    (where Dekker's terms fall among the subnormals): the mantissas' product, its exact
    error and the gap between it and ``p`` scaled up, added, and scaled back, which
    rounds only once (the gap is nonzero only where ``p`` is subnormal, and the error is
    then under half the smallest subnormal)."""
    ma, ea = np.frexp(a)
    mb, eb = np.frexp(b)
    k = ea + eb
    mp = ma * mb
    sp = 134217729.0
    ah = ma * sp
    ah = ah - (ah - ma)
    al = ma - ah
    bh = mb * sp
    bh = bh - (bh - mb)
    bl = mb - bh
    err = ((ah * bh - mp) + ah * bl + al * bh) + al * bl
    return np.ldexp(err + (mp - np.ldexp(p, -k)), k)


def _fix_midpoints(a, b, c, s, r, half=None, p=None, cw=None):
    """The float32 fma ``r`` (rounded from the double ``s``) where ``s`` fell exactly
    halfway between two floats: the sum's exact error says which way it really lies.
    ``p`` and ``cw``: the product and the addend in double, where the caller has them."""
    if half is None:
        half = (s.view(np.int64) & _LOW29) == _MID29
    if np.ndim(s) == 0:
        p = np.multiply(wide(a), wide(b))
        bb = s - p
        err = (p - (s - bb)) + (c - bb)
        nudged = np.where(err > 0, np.nextafter(s, np.inf), np.nextafter(s, -np.inf))
        return np.where(half & (err != 0), nudged.astype(np.float32), r)
    if s.size <= 4096 or np.count_nonzero(half) > s.size // 8:     # (few: fewer passes)
        if p is None:
            p, cw = np.multiply(wide(a), wide(b)), wide(c)
        bb = s - p
        err = (p - (s - bb)) + (cw - bb)
        wrong = half & (err != 0)
        if not np.count_nonzero(wrong):
            return r
        nudged = np.nextafter(s[wrong], np.copysign(np.inf, err[wrong]))
        r = np.array(r, copy=True)
        r[wrong] = nudged.astype(np.float32)
        return r
    idx = np.flatnonzero(half)             # the halfway sums only
    shape = s.shape
    sh = s.reshape(-1)[idx]
    a, b, c = (_pick(v, shape, idx) for v in (a, b, c))
    p = a * b
    bb = sh - p
    err = (p - (sh - bb)) + (c - bb)
    wrong = np.flatnonzero(err)
    if not wrong.size:
        return r
    sh, err = sh[wrong], err[wrong]
    r = r.copy() if not r.flags.writeable else r
    fixed = np.nextafter(sh, np.copysign(np.inf, err)).astype(np.float32)
    if r.flags.c_contiguous:
        r.reshape(-1)[idx[wrong]] = fixed
    else:
        r[np.unravel_index(idx[wrong], shape)] = fixed
    return r


class FmaChain:
    """float32 fused multiply-adds on arrays of one shape, for a kernel that runs many.

    Each result is the exact double product plus the addend, rounded to float32 (:func:`fma`
    without its check); the doubles and the operands are kept, so that :meth:`midpoints`
    finds at the end, in one pass over all of them, the elements where a double rounding
    hit (a sum halfway between two floats that was not exact). The kernel recomputes those
    few elements with :func:`fma`. A step whose double sum is exact (``exact=True``, the
    kernel's proof) cannot round twice and is not kept. Operands are float32 arrays or
    numbers that are floats (a float64 operand is taken as the float32 it holds exactly)."""

    __slots__ = ("buf", "n", "ops")

    def __init__(self, shape, steps: int):
        self.buf = np.empty((steps + 1,) + tuple(shape))       # the last row: exact steps
        self.n = 0
        self.ops = []

    def _row(self, exact, a, b, c, sign):
        if exact:
            return self.buf[-1]
        s = self.buf[self.n]
        self.n += 1
        self.ops.append((a, b, c, sign))
        return s

    def _product(self, exact, a, b, c, sign):
        """``a * b`` (exact) in the row kept for this step, as doubles."""
        s = self._row(exact, a, b, c, sign)
        s[...] = a
        return np.multiply(s, wide(b), out=s)

    def fma(self, a, b, c, exact=False):
        """``a * b + c`` rounded once (unless :meth:`midpoints` says otherwise)."""
        s = self._product(exact, a, b, c, 1)
        return np.add(s, wide(c), out=s).astype(np.float32)

    def fms(self, a, b, c, exact=False):
        """``a * b - c`` rounded once."""
        s = self._product(exact, a, b, c, 2)
        return np.subtract(s, wide(c), out=s).astype(np.float32)

    def nfma(self, a, b, c, exact=False):
        """``-a * b + c`` (``c - a * b``) rounded once."""
        s = self._product(exact, a, b, c, 3)
        return np.subtract(wide(c), s, out=s).astype(np.float32)

    def midpoints(self):
        """Where a kept sum was rounded twice (None: nowhere): one pass over all the sums
        finds those halfway between two floats; only these are checked for exactness."""
        hit = np.bitwise_and(self.buf[:self.n].view(np.int64), _LOW29)
        hit = hit == _MID29
        if not np.count_nonzero(hit):
            return None
        shape = self.buf.shape[1:]
        redo = np.zeros(shape, bool).reshape(-1)
        for row, (a, b, c, sign) in enumerate(self.ops):
            idx = np.flatnonzero(hit[row])
            if not idx.size:
                continue
            a, b, c = (_pick(v, shape, idx) for v in (a, b, c))
            p = a * b
            if sign == 2:
                c = -c
            elif sign == 3:
                p = -p
            s = self.buf[row].reshape(-1)[idx]
            bb = s - p
            err = (p - (s - bb)) + (c - bb)
            redo[idx[err != 0]] = True
        return redo.reshape(shape) if redo.any() else None


def _pick(v, shape, idx):
    """The elements at flat indices ``idx`` of ``v`` broadcast to ``shape``, as doubles
    (a broadcast operand is indexed, not expanded)."""
    v = np.asarray(v)
    if v.shape == shape:
        return v.reshape(-1)[idx].astype(np.float64)
    return np.broadcast_to(v, shape).flat[idx].astype(np.float64)


def _sequence(y, nred):
    """Each output's reduced elements in the iterator's order, along axis 0 (one element
    each when the reduced dims are all of size 1: none left in the iterator)."""
    if nred == 0:
        return y[None]
    k = nred
    seq = np.transpose(y, tuple(range(k - 1, -1, -1)) + tuple(range(k, y.ndim)))
    return seq.reshape((-1,) + y.shape[k:])


def _binary_reduce(seq, step, combine_zero=True):
    """``binary_kernel_reduce`` with an additive accumulator from 0: one run per output,
    or, for a single output of 32768 elements or more, one run per thread then combined."""
    n = seq.shape[0]
    threads = _threads[0]
    terms = step(seq)
    if seq[0].size == 1 and n >= GRAIN and threads > 1:
        nt = min(threads, -(-n // GRAIN))
        chunk = -(-n // nt)
        total = np.zeros(seq.shape[1:], seq.dtype)
        for t in range(nt):
            total = total + seqsum(terms[t * chunk:(t + 1) * chunk])
        return total
    return seqsum(terms)


def vector_norm(a, p, dims, keepdim, vectorised=True):
    """``norm_stub`` for p = 1, 2 or another finite nonzero p on float32/float64: torch's
    vectorised sum of squares over a contiguous last dim (p = 2; not ``vectorised``: the
    magnitudes of a complex input), else a float accumulator per output in the iterator's
    order."""
    layout, y, out_shape, nred = _prepare(a, dims, keepdim)
    if y is None:
        return np.zeros(out_shape, a.dtype)
    if a.size == int(np.prod(out_shape)):     # only dims of size 1 reduced: torch's is |a|
        return np.abs(a).reshape(out_shape).copy(order="C")
    lanes = _LANES[a.dtype]
    if p == 2 and nred == 1 and y.strides[0] == a.itemsize and vectorised:
        n0 = y.shape[0]
        vs = n0 // lanes
        v = y[:vs * lanes].reshape((vs, lanes) + y.shape[1:])
        acc = seqsum(v * v)
        b = acc[0]
        for k in range(1, lanes):
            b = b + acc[k]
        # the compiled tail: a block of four multiply-then-adds, the rest fused
        plain = vs * lanes + (4 if n0 - vs * lanes >= 4 else 0)
        for i in range(vs * lanes, n0):
            b = b + y[i] * y[i] if i < plain else fma(y[i], y[i], b)
        return _to_out(np.sqrt(b), out_shape)
    seq = _sequence(y, nred)
    if p == 2:
        r = np.sqrt(_binary_reduce(seq, lambda s: s * s))
    elif p == 1:
        r = _binary_reduce(seq, np.abs)
    else:
        pf = a.dtype.type(p)
        # glibc's pow/powf one by one (NumPy's AVX512 loops round otherwise); an array
        # exponent keeps NumPy off its sqrt/square shortcuts where it is glibc's
        pw = _libm.c_float("powf") if a.dtype == np.float32 else _libm.double_fn("pow")
        r = _binary_reduce(seq, lambda s: pw(np.abs(s), np.full(s.shape, pf)))
        with np.errstate(all="ignore"):
            r = pw(r, np.full(r.shape, a.dtype.type(1) / pf))
    return _to_out(r, out_shape)

"""Memory formats: ``ember.contiguous_format``, ``channels_last`` … and the layouts they name.

A tensor's strides are its NumPy array's, so a channels-last tensor is truly laid out
channels-last: its array is a transposed view of an NHWC (NDHWC) buffer, and NumPy's
ufuncs, which keep their inputs' layout, give channels-last results as torch's
TensorIterator does.
"""

from __future__ import annotations

import numpy as np

from ._layout import TorchConstant as _TorchConstant
from ._storage import has_own_strides, own_strides

__all__ = ["memory_format", "contiguous_format", "preserve_format", "channels_last",
           "channels_last_3d"]


class memory_format(_TorchConstant):
    """A memory layout, printed as ``torch.channels_last`` like torch's."""

    __slots__ = ()


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")

# the order of dimensions from the innermost outwards, and the rank each format needs
_ORDER = {channels_last: (1, 3, 2, 0), channels_last_3d: (1, 4, 3, 2, 0)}


def _by_name(name: str) -> memory_format:
    return globals()[name]


memory_format._by_name = staticmethod(_by_name)


def _check_rank(ndim: int, fmt: memory_format) -> None:
    order = _ORDER.get(fmt)
    if order is not None and ndim != len(order):
        raise RuntimeError(f"required rank {len(order)} tensor to use {fmt.name} format")


def _check_format(fmt) -> None:
    if fmt is not None and not isinstance(fmt, memory_format):
        raise TypeError(f"memory_format must be torch.memory_format, not "
                        f"{type(fmt).__name__}")


def is_contiguous(arr: np.ndarray, fmt=None) -> bool:
    """torch's ``is_contiguous(memory_format=fmt)``: dimensions of size 1 do not count."""
    if fmt is None or fmt is contiguous_format or fmt is preserve_format:
        return arr.flags.c_contiguous
    order = _ORDER.get(fmt)
    if order is None:
        _check_format(fmt)
    if arr.ndim != len(order):
        return False
    expected = arr.itemsize
    for d in order:
        n = arr.shape[d]
        if n != 1:
            if arr.strides[d] != expected:
                return False
            expected *= n
    return True


def suggest(arr: np.ndarray) -> memory_format:
    """torch's suggest_memory_format: channels-last when the strides say so."""
    for fmt, order in _ORDER.items():
        if arr.ndim == len(order) and not arr.flags.c_contiguous and _strides_like(arr, order):
            return fmt
    return contiguous_format


def _strides_like(arr, order) -> bool:
    """c10's ``is_channels_last_strides_2d``/``_3d``: the strides grow along ``order``, dims
    of size 1 counted with their own stride; the ambiguous cases (a channel stride of 0, one
    equal to the batch's) are NCHW."""
    shape, strides = arr.shape, arr.strides
    if strides[1] == 0:
        return False
    least = 0
    for d in order:
        if shape[d] == 0 or strides[d] < least or d == 0 and least == strides[1]:
            return False
        least = strides[d] * (shape[d] if shape[d] > 1 else 1)
    return True


def common(arrays) -> memory_format:
    """torch's ``compute_output_memory_format`` (cat's result): the format all ``arrays``
    suggest, else contiguous."""
    fmt = None
    for a in arrays:
        f = suggest(a)
        if f is contiguous_format or (fmt is not None and f is not fmt):
            return contiguous_format
        fmt = f
    return fmt or contiguous_format


def view_strides(old_shape, old_strides, new_shape):
    """ATen's ``computeStride``: the strides (in the unit of ``old_strides``) of a view of
    ``new_shape`` over a tensor of ``old_shape``; dims of size 1 take the stride of the chunk
    they fall in, as in torch (NumPy gives them its own). None when no view exists."""
    if not old_shape:
        return (1,) * len(new_shape)
    new = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    base = old_strides[-1]
    tensor_numel = view_numel = 1
    for d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[d]
        if d == 0 or (old_shape[d - 1] != 1 and old_strides[d - 1] != tensor_numel * base):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new[view_d] = view_numel * base
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d > 0:
                base = old_strides[d - 1]
                tensor_numel = view_numel = 1
    return None if view_d != -1 else tuple(new)


def contiguous_strides(shape) -> tuple:
    """torch's strides of a contiguous tensor of ``shape`` (a dim of size 0 counts as 1)."""
    out, acc = [], 1
    for s in reversed(shape):
        out.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(out))


def format_strides(shape, fmt) -> tuple | None:
    """The strides (in elements) of a dense tensor of ``shape`` laid out in ``fmt``; None for
    C order (a format that does not apply to this rank included)."""
    order = _ORDER.get(fmt)
    if order is None or len(order) != len(shape):
        return None
    strides, acc = [0] * len(shape), 1
    for d in order:
        strides[d] = acc
        acc *= max(shape[d], 1)
    return tuple(strides)


def in_order(shape, npdt, outer) -> np.ndarray:
    """An uninitialised dense array of ``shape`` whose dims lie in memory in the order
    ``outer`` (outermost first)."""
    return dense_empty(np.empty([shape[d] for d in outer], npdt)).transpose(_inverse(outer))


def _inverse(perm) -> list:
    """The inverse of the permutation ``perm`` (``argsort`` of it, without NumPy's cost
    for a short list)."""
    inv = [0] * len(perm)
    for i, d in enumerate(perm):
        inv[d] = i
    return inv


def dense_empty(arr: np.ndarray) -> np.ndarray:
    """``arr``; when it has no elements, with torch's contiguous strides in place of the
    zeros NumPy gives (so that its transposes and permutations show torch's strides)."""
    if arr.size or not arr.ndim:
        return arr
    st = [s * arr.itemsize for s in contiguous_strides(arr.shape)]
    return np.lib.stride_tricks.as_strided(arr, arr.shape, st)


def empty(shape, npdt, fmt) -> np.ndarray:
    """An uninitialised array of ``shape`` laid out in ``fmt`` (contiguous or channels-last)."""
    order = _ORDER.get(fmt)
    if order is None:
        return dense_empty(np.empty(shape, npdt))
    _check_rank(len(shape), fmt)
    return in_order(shape, npdt, order[::-1])   # outermost first: N, H, W, C (N, D, H, W, C)


def over_flat(flat: np.ndarray, shape, fmt=None) -> np.ndarray:
    """The 1-d ``flat`` seen as ``shape`` with ``fmt``'s strides (a view; contiguous unless
    ``fmt`` is a channels-last format): what ``resize_`` makes of its storage."""
    order = _ORDER.get(fmt)
    if order is None:
        _check_format(fmt)
        if fmt is preserve_format:
            raise RuntimeError("Unsupported memory formatPreserve")
        return flat.reshape(shape)
    _check_rank(len(shape), fmt)
    outer = order[::-1]
    return flat.reshape([shape[d] for d in outer]).transpose(_inverse(outer))


def _dense(arr: np.ndarray) -> bool:
    """Non-overlapping and dense: some permutation of the dims makes it C-contiguous."""
    if arr.flags.c_contiguous or arr.size == 0:
        return True
    perm = sorted(range(arr.ndim), key=lambda d: -arr.strides[d] if arr.shape[d] != 1 else 0)
    return arr.transpose(perm).flags.c_contiguous and min(arr.strides, default=0) >= 0


def plain_dense(arr: np.ndarray) -> bool:
    """Whether a ``preserve_format`` copy of ``arr`` is a plain C-ordered array (C-contiguous,
    no dim of size 1, and no zero strides of its own, :func:`empty_like`'s cases)."""
    return arr.flags.c_contiguous and 1 not in arr.shape and (arr.size > 0 or not arr.ndim
                                                              or not has_own_strides(arr))


def empty_like(arr: np.ndarray, npdt, fmt=None) -> np.ndarray:
    """An uninitialised array like ``arr``: ``preserve_format`` (None) keeps a dense
    layout's strides exactly (torch's empty_like), else the format's layout."""
    _check_format(fmt)
    if fmt is None or fmt is preserve_format:
        if arr.size == 0 and arr.ndim and not any(arr.strides) and has_own_strides(arr):
            out = np.empty(arr.shape, npdt)     # (zero strides, NumPy's), kept as torch's
            own_strides(out)
            return out
        if arr.flags.c_contiguous:
            out = np.empty(arr.shape, npdt)
            if 1 not in arr.shape or _same_steps(out, arr):
                return out
        if _dense(arr):
            if arr.size == 0:
                return np.empty_like(arr, npdt, order="K")
            # torch keeps the strides exactly, a size-1 dim's too (NumPy's order="K" not)
            item = np.dtype(npdt).itemsize
            strides = tuple(s // arr.itemsize * item for s in arr.strides)
            return np.lib.stride_tricks.as_strided(np.empty(arr.size, npdt), arr.shape, strides)
        if min(arr.strides, default=0) >= 0:
            # strided but not dense: dense strides in the input's dim order
            # (infer_dense_strides, TensorIterator's ordering)
            outer = iter_order(arr.shape, arr.strides)[::-1]
            return in_order(arr.shape, npdt, outer)
        fmt = suggest(arr)
    return empty(arr.shape, npdt, fmt)


def _same_steps(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether ``a`` and ``b`` have the same strides in elements (NumPy's flags ignore those
    of dims of size 1, which torch keeps)."""
    return all(x // a.itemsize == y // b.itemsize for x, y in zip(a.strides, b.strides))


def iter_order(shape, *strides) -> list:
    """TensorIterator's dim order for operands with these ``strides``, innermost dim first
    (also ``infer_dense_strides``'): an insertion sort where the first operand whose strides
    differ decides (a zero stride leaves the order to the next; equal strides put the smaller
    size first)."""
    perm = list(range(len(shape)))[::-1]

    def should_swap(d0, d1):
        for st in strides:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    return sort_dims(perm, should_swap)


def sort_dims(perm: list, should_swap) -> list:
    """TensorIterator's insertion sort of ``perm`` (in place, returned): each entry moves
    inwards while ``should_swap(outer, inner)`` is positive, and stops at a negative answer;
    0 (ambiguous) looks further in."""
    for i in range(1, len(perm)):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    return perm


def iter_groups(shape, *strides) -> list:
    """TensorIterator's dims after reordering (:func:`iter_order`) and coalescing, fastest
    first: ``[size, each operand's stride, logical dims fastest first]``; dims of size 1 drop
    out (they coalesce with anything)."""
    groups = []
    for d in iter_order(shape, *strides):
        if shape[d] == 1:
            continue
        st = [s[d] for s in strides]
        if groups and all(groups[-1][0] * g == s for g, s in zip(groups[-1][1], st)):
            groups[-1][0] *= shape[d]
            groups[-1][2].append(d)
        else:
            groups.append([shape[d], st, [d]])
    return groups


def _c_steps(a: np.ndarray) -> bool:
    """Whether ``a``'s strides are torch's contiguous ones, a size-1 dim's too (which
    NumPy's flags ignore and TensorIterator's ordering reads)."""
    return a.strides == tuple(s * a.itemsize for s in contiguous_strides(a.shape))


def ti_layout(res: np.ndarray, *inputs) -> np.ndarray:
    """``res``, the result of a pointwise op on ``inputs`` (arrays, or None for numbers), laid
    out as TensorIterator lays out a new output: in the dim order of the inputs' strides, the
    first input whose strides tell two dims apart deciding (:func:`iter_order`; broadcast dims
    count as stride 0). NumPy's ufuncs fall back to C order where their inputs' layouts
    disagree (``a.t() + b``), where torch follows ``a``."""
    # TensorIterator's fast setup: operands all of one shape and contiguous (size-1 dims
    # aside) give a contiguous output; else its dim ordering reads every stride
    same = all(a is None or a.shape == res.shape for a in inputs)
    for a in inputs:
        if a is not None and not (a.flags.c_contiguous and (same or 1 not in a.shape
                                                              or _c_steps(a))):
            break
    else:
        return res          # C-contiguous inputs: C order, as NumPy's
    shape = res.shape
    nd = len(shape)
    if nd < 2 or res.size == 0 or res.__class__ is not np.ndarray:     # (or a meta stand-in)
        return res
    strides = []
    for a in inputs:
        if a is None or a.ndim == 0:
            continue
        pad = nd - a.ndim
        st = [0] * pad
        for n, s, m in zip(a.shape, a.strides, shape[pad:]):
            if n != m and n != 1:
                return res      # not an elementwise result of ``a``
            st.append(0 if n != m else s)     # a broadcast dim: stride 0
        strides.append(st)
    outer = iter_order(shape, *strides)[::-1]
    target = in_order(shape, res.dtype, outer)
    if target.strides == res.strides:
        return res
    np.copyto(target, res)
    return target


def copy_to_format(arr: np.ndarray, fmt=None, like: np.ndarray | None = None) -> np.ndarray:
    """A copy of ``arr`` laid out as :func:`empty_like` lays it (or ``like``, an array of its
    shape: a result computed in another layout) out."""
    out = empty_like(arr if like is None else like, arr.dtype, fmt)
    np.copyto(out, arr)
    return out


def into(out: np.ndarray, fmt) -> np.ndarray:
    """``out`` laid out in ``fmt`` (contiguous or channels-last): itself if it is (its dims
    of size 1 given the strides torch allocates them with), else a copy."""
    if is_contiguous(out, fmt):
        if 1 in out.shape and out.size:
            order = _ORDER.get(fmt) or range(out.ndim - 1, -1, -1)
            want, acc = [0] * out.ndim, out.itemsize
            for d in order:
                want[d] = acc
                acc *= out.shape[d]
            if out.strides != tuple(want):
                return np.lib.stride_tricks.as_strided(out, out.shape, want)
        return out
    target = empty(out.shape, out.dtype, fmt)
    np.copyto(target, out)
    return target


def follow(out: np.ndarray, *inputs: np.ndarray) -> np.ndarray:
    """``out`` in the first channels-last format that ``inputs`` suggest (a kernel that
    allocates its output with ``suggest_memory_format``: convolution, batch norm), else as
    it is."""
    for a in inputs:
        fmt = suggest(a)
        if fmt is not contiguous_format:
            if out.ndim != a.ndim:
                return out
            target = empty(out.shape, out.dtype, fmt)
            if target.strides == out.strides:
                return out
            np.copyto(target, out)
            return target
    return out

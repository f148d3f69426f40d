"""The meta device: tensors with a shape, a dtype and strides but no data.

A meta tensor's ``_data`` is a :class:`MetaArray`, a stand-in that every element reads from one
slot (all strides zero), so that ``empty(10**6, 10**6, device='meta')`` allocates nothing. The
stand-in carries the meta-ness through the kernels: a NumPy ufunc given one is computed on a
single element of each operand and answers a stand-in of the broadcast (or reduced) shape and
of the dtype NumPy gives; NumPy's other functions and the array's methods run as NumPy runs
them, on real memory (a kernel may hand a copy to C), their results marked meta; writes into a
stand-in do nothing. The op dispatcher (``_ops.registry.run``) turns what a kernel returns for
meta inputs into stand-ins (:func:`like`), once any stand-in exists (``USED``), so the CPU path
pays nothing. The strides a meta tensor reports are its own
(``lstrides``, in elements): contiguous when made, permuted by transposes.
"""

from __future__ import annotations

import numpy as np

from ._device import META, check
from ._memory_format import contiguous_strides

__all__ = ["MetaArray", "empty", "like", "is_meta", "copy", "USED"]

USED = [False]      # whether any stand-in was made (the dispatcher checks for them only then)

_as_strided = np.lib.stride_tricks.as_strided


def empty(shape, dtype, strides=None) -> MetaArray:
    """A stand-in of ``shape`` and ``dtype`` (``strides``: the tensor's, in elements)."""
    USED[0] = True
    shape = tuple(shape)
    one = np.zeros(1, dtype)
    arr = _as_strided(one, shape, (0,) * len(shape), writeable=True).view(MetaArray)
    arr.lstrides = strides
    return arr


def placed(t, device):
    """``t``, a new tensor, on ``device`` (None: the default device): there a meta tensor
    when that is ``meta``; ``device`` checked as a factory's."""
    if check(device) is META and t._data.__class__ is not MetaArray:
        t._data = like(t._data)
    return t


def like(arr) -> MetaArray:
    """``arr`` (an array or a NumPy scalar) as a stand-in (itself when it is one)."""
    if arr.__class__ is MetaArray:
        return arr
    return empty(np.shape(arr), arr.dtype)


def is_meta(arr) -> bool:
    return arr.__class__ is MetaArray


def copy(arr: np.ndarray) -> np.ndarray:
    """A copy of a tensor's array (of a stand-in: another stand-in, laid out as it is)."""
    return arr.twin() if arr.__class__ is MetaArray else arr.copy()


def check_broadcast(shapes) -> None:
    """torch's error for operands of a meta op whose shapes do not broadcast (its reference
    implementations', which its meta functions of the pointwise ops run)."""
    common = [1] * max(len(s) for s in shapes)
    for i, shape in enumerate(shapes):
        for d in range(-1, -1 - len(shape), -1):
            if common[d] == 1:
                common[d] = shape[d]
            elif shape[d] != 1 and common[d] != shape[d]:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {shape[d]} at {d}! "
                    f"Mismatching argument at index {i} had torch.Size({list(shape)}); but "
                    f"expected shape should be broadcastable to {common}")


def _address(arr) -> int:
    return arr.__array_interface__["data"][0]


def view_of(src: MetaArray, probe: np.ndarray, view: np.ndarray) -> MetaArray:
    """The stand-in of a view of ``src``: ``view`` is that view taken of ``probe``, which is
    ``src.layout()``; its strides and offset are the stand-in's."""
    out = empty(view.shape, view.dtype)
    size = view.itemsize
    out.lstrides = tuple(s // size for s in view.strides)
    out.loffset = src.loffset + (_address(view) - _address(probe)) // size
    return out


def _small(x):
    """One element of ``x`` (an array) of its dtype; anything else as it is."""
    if isinstance(x, np.ndarray):
        return np.zeros((), x.dtype)
    return x


def _plain(x):
    return x.view(np.ndarray) if isinstance(x, MetaArray) else x


def _matmul_shape(a, b) -> tuple:
    sa, sb = a.shape, b.shape
    if not sa or not sb:
        raise ValueError("matmul: Input operand does not have enough dimensions")
    k = sa[-1]
    kb = sb[0] if len(sb) == 1 else sb[-2]
    if k != kb:
        raise ValueError("matmul: Input operand 1 has a mismatch in its core dimension 0")
    batch = np.broadcast_shapes(sa[:-2], sb[:-2])
    return batch + sa[-2:-1] + sb[-1:] * (len(sb) > 1)


def _reduced_shape(shape, axis, keepdims) -> tuple:
    nd = len(shape)
    if axis is None:
        axes = set(range(nd))
    else:
        axes = {a % nd for a in (axis if isinstance(axis, tuple) else (axis,))}
    if keepdims:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def _outputs(res, shape):
    if isinstance(res, tuple):
        return tuple(empty(shape, np.asarray(r).dtype) for r in res)
    return empty(shape, np.asarray(res).dtype)


def _marked(res):
    """A function's result with its arrays marked meta (views of the same memory: a kernel
    may hand them to C as they are)."""
    if isinstance(res, np.ndarray):
        return res if res.__class__ is MetaArray else res.view(MetaArray)
    if isinstance(res, np.generic):
        return like(res)
    if isinstance(res, (tuple, list)):
        return type(res)(_marked(r) for r in res)
    return res


_WRITES = {np.copyto, np.put, np.place, np.putmask}


def _basic(key) -> bool:
    """Whether ``key`` indexes without copying (ints, slices, None, Ellipsis)."""
    if isinstance(key, tuple):
        return all(_basic(k) for k in key)
    return key is None or key is Ellipsis or isinstance(key, (int, slice, np.integer)) \
        and not isinstance(key, (bool, np.bool_))


class MetaArray(np.ndarray):
    """The elements of a meta tensor: its shape and dtype, all elements one slot."""

    lstrides = None     # the tensor's strides, in elements (None: contiguous)
    loffset = 0         # its storage offset

    def __array_finalize__(self, obj) -> None:
        self.lstrides = None
        self.loffset = 0

    def __getitem__(self, key):
        out = np.ndarray.__getitem__(self, key)
        if isinstance(out, MetaArray) and _basic(key):
            probe = self.layout()
            return view_of(self, probe, probe[key])
        return out

    def reshape(self, *shape, **kwargs) -> MetaArray:
        out = np.ndarray.reshape(self, *shape, **kwargs)
        if self.lstrides is not None:
            probe = self.layout()
            try:
                view = np.reshape(probe, out.shape, copy=False)  # (where the strides allow)
            except ValueError:
                return out
            return view_of(self, probe, view)
        return out

    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        if method == "__call__" and (ufunc.signature is None or ufunc is np.matmul):
            if ufunc is np.matmul:
                shape = _matmul_shape(*inputs)
                small = [np.zeros((1,) * x.ndim, x.dtype) for x in inputs]
            else:
                shape = np.broadcast_shapes(*(x.shape if isinstance(x, np.ndarray) else ()
                                             for x in inputs))
                small = [_small(x) for x in inputs]
            if "where" in kwargs:
                kwargs["where"] = True
            with np.errstate(all="ignore"):
                res = ufunc(*small, **kwargs)
            return out[0] if out and len(out) == 1 else out if out else _outputs(res, shape)
        if method in ("reduce", "accumulate") and len(inputs) == 1:
            x = inputs[0]
            axis = kwargs.get("axis", 0)
            small = np.zeros(tuple(min(n, 1) for n in x.shape), x.dtype)
            if "where" in kwargs:
                kwargs["where"] = True
            with np.errstate(all="ignore"):
                res = getattr(ufunc, method)(small, **kwargs)
            if out:
                return out[0]
            shape = x.shape if method == "accumulate" else \
                _reduced_shape(x.shape, axis, kwargs.get("keepdims", False))
            return empty(shape, np.asarray(res).dtype)
        kw = dict(kwargs)
        if out:
            kw["out"] = tuple(_plain(o) for o in out)
        res = getattr(ufunc, method)(*(_plain(x) for x in inputs), **kw)
        return None if res is None else out[0] if out and len(out) == 1 else _marked(res)

    def __array_function__(self, func, types, args, kwargs):
        if func in _WRITES:
            return None
        if func is np.broadcast_to:
            probe = args[0].layout()
            return view_of(args[0], probe, np.broadcast_to(probe, *args[1:], **kwargs))
        return _marked(super().__array_function__(func, types, args, kwargs))

    # writes go nowhere (copies are dense, as kernels expect: the dispatcher slims them)
    def __setitem__(self, key, value) -> None:
        return None

    def fill(self, value) -> None:
        return None

    def twin(self) -> MetaArray:
        """A new stand-in with this one's shape, dtype and strides (a copy, of nothing)."""
        return empty(self.shape, self.dtype, self.lstrides)

    def strides_of(self) -> tuple:
        """The tensor's strides in elements."""
        st = self.lstrides
        return contiguous_strides(self.shape) if st is None else st

    def layout(self) -> np.ndarray:
        """An array of this shape with the tensor's strides, for its layout flags only: its
        elements lie beyond its memory and must never be read."""
        st = [s * self.itemsize for s in self.strides_of()]
        return _as_strided(np.zeros(1, self.dtype), self.shape, st, writeable=False)

    def transpose(self, *axes) -> MetaArray:
        probe = self.layout()
        return view_of(self, probe, probe.transpose(*axes))

    @property
    def T(self) -> MetaArray:
        return self.transpose()

    def swapaxes(self, a: int, b: int) -> MetaArray:
        order = list(range(self.ndim))
        order[a], order[b] = order[b], order[a]
        return self.transpose(order)

    def __reduce__(self):
        return (empty, (self.shape, self.dtype, self.lstrides))

    def tobytes(self, order="C") -> bytes:
        raise NotImplementedError("Cannot copy out of meta tensor; no data!")

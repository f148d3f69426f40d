"""Storages: the memory behind a tensor, as torch's ``UntypedStorage`` (bytes) and the
deprecated ``TypedStorage`` (elements) present it.

A tensor's storage is the NumPy array at the root of its views' ``base`` chain.
"""

from __future__ import annotations

import warnings
import weakref

import numpy as np

from . import _dtype as D
from ._device import CPU

__all__ = ["UntypedStorage", "TypedStorage", "root_array"]

_TYPED_DEPRECATED = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be "
    "the only storage class. This should only matter to you if you are using storages "
    "directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead of "
    "tensor.storage()")


_BORROWED = weakref.WeakValueDictionary()   # id: an array whose memory a tensor borrows from
# NumPy (from_numpy), which torch cannot resize


def borrow(arr: np.ndarray) -> None:
    """Mark the memory of ``arr`` as borrowed from NumPy: a tensor over it cannot grow it."""
    root = root_array(arr)
    _BORROWED[id(root)] = root


_OWN_STRIDES = weakref.WeakValueDictionary()    # id: an empty array whose zero strides are
# the tensor's own (torch's from_numpy keeps NumPy's; empty_like keeps those), not NumPy's
# stand-in for contiguous ones


def own_strides(arr: np.ndarray) -> None:
    """Mark the strides of the empty ``arr`` (and its views) as the tensor's own."""
    root = root_array(arr)
    _OWN_STRIDES[id(root)] = root


def has_own_strides(arr: np.ndarray) -> bool:
    """Whether the zero strides of the empty ``arr`` are the tensor's own (:func:`own_strides`)."""
    root = root_array(arr)
    return _OWN_STRIDES.get(id(root)) is root


def resizable(root: np.ndarray) -> bool:
    """Whether a tensor may grow the storage ``root`` (torch's ``StorageImpl.resizable()``)."""
    return _BORROWED.get(id(root)) is not root


def root_array(arr: np.ndarray) -> np.ndarray:
    """The array that owns ``arr``'s memory (the end of its ``base`` chain; NumPy's
    ``as_strided`` keeps its source behind a non-array holder, followed too)."""
    while True:
        base = arr.base
        if isinstance(base, np.ndarray):
            arr = base
        elif base is not None and isinstance(getattr(base, "base", None), np.ndarray):
            arr = base.base
        else:
            return arr


def is_shared(arr: np.ndarray) -> bool:
    """Whether ``arr``'s memory is a shared mapping (:func:`share`)."""
    import mmap
    return isinstance(root_array(arr).base, mmap.mmap)


def share(arr: np.ndarray) -> np.ndarray:
    """``arr`` moved into an anonymous shared mapping, which processes forked afterwards
    share (torch's ``share_memory_``): a view of the same shape and strides over a copy of
    its storage."""
    import mmap
    root = root_array(arr)
    if isinstance(root.base, mmap.mmap):
        return arr
    buf = mmap.mmap(-1, max(root.nbytes, 1))
    moved = np.ndarray(root.shape, root.dtype, buffer=buf, strides=root.strides)
    np.copyto(moved, root)
    offset = arr.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    return np.ndarray(arr.shape, arr.dtype, buffer=buf, offset=offset, strides=arr.strides)


class UntypedStorage:
    """The bytes of a tensor's memory."""

    def __init__(self, array: np.ndarray):
        self._array = root_array(array)

    @property
    def device(self):
        return CPU

    def _bytes(self) -> np.ndarray:
        return self._array.reshape(-1).view(np.uint8) if self._array.flags.c_contiguous \
            else np.ascontiguousarray(self._array).reshape(-1).view(np.uint8)

    def size(self) -> int:
        return self._array.nbytes

    nbytes = size

    def __len__(self) -> int:
        return self._array.nbytes

    def element_size(self) -> int:
        return 1

    def data_ptr(self) -> int:
        return self._array.__array_interface__["data"][0]

    def __getitem__(self, i):
        return int(self._bytes()[i]) if isinstance(i, int) else self._bytes()[i].tolist()

    def tolist(self) -> list:
        return self._bytes().tolist()

    def is_shared(self) -> bool:
        return is_shared(self._array)

    def is_pinned(self, device="cuda") -> bool:
        return False

    def __eq__(self, other) -> bool:
        return isinstance(other, UntypedStorage) and other._array is self._array

    def __hash__(self) -> int:
        return id(self._array)

    def __repr__(self) -> str:
        body = "\n".join(f" {b}" for b in self.tolist())
        return (f"{body}\n" if body else "") + \
            f"[torch.storage.UntypedStorage(device=cpu) of size {self.size()}]"


class TypedStorage:
    """The elements of a tensor's memory, in its dtype (deprecated in torch)."""

    def __init__(self, array: np.ndarray, warn: bool = True):
        if warn:
            warnings.warn(_TYPED_DEPRECATED, UserWarning, stacklevel=3)
        self._array = root_array(array)
        self.dtype = D._BY_NP[self._array.dtype]

    @property
    def device(self):
        return CPU

    def _flat(self) -> np.ndarray:
        return self._array.reshape(-1)

    def size(self) -> int:
        return self._array.size

    __len__ = size

    def element_size(self) -> int:
        return self._array.itemsize

    def nbytes(self) -> int:
        return self._array.nbytes

    def data_ptr(self) -> int:
        return self._array.__array_interface__["data"][0]

    def untyped(self) -> UntypedStorage:
        return UntypedStorage(self._array)

    def __getitem__(self, i):
        v = self._flat()[i]
        return v.tolist() if isinstance(i, slice) else v.item()

    def tolist(self) -> list:
        return self._flat().tolist()

    def is_shared(self) -> bool:
        return is_shared(self._array)

    def is_pinned(self, device="cuda") -> bool:
        return False

    def __repr__(self) -> str:
        body = "\n".join(f" {v}" for v in self.tolist())
        return (f"{body}\n" if body else "") + (
            f"[torch.storage.TypedStorage(dtype={self.dtype}, device=cpu) of size "
            f"{self.size()}]")

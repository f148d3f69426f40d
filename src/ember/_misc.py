"""torch's small top-level functions around tensors and the runtime: strided factories
(``empty_strided``, ``empty_permuted``, ``frombuffer``), predicates (``is_signed``,
``is_inference``, ``is_storage``, ``is_same_size``), ``typename``, the legacy switches
(``set_default_tensor_type``, ``set_flush_denormal``, ``set_warn_always``). The errors of the
functions torch removed (``eig``, ``symeig`` …) live with the legacy linear algebra
(``_ops/linalg_legacy.py``)."""

from __future__ import annotations

import warnings

import numpy as np

from . import _dtype as D
from . import _errors, _meta
from ._device import META, check
from ._storage import TypedStorage, UntypedStorage
from ._tensor import Tensor
from ._torch_alias import torch_module

newaxis = None


def _assert(condition, message):
    """A wrapper around Python's assert which is symbolically traceable (``torch.fx``
    records it as a call)."""
    if not condition:
        raise AssertionError(message)


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                  pin_memory=False) -> Tensor:
    """An uninitialised tensor with the given sizes and strides (in elements); ember fills it
    with zeros.

    >>> ember.empty_strided((2, 3), (1, 2)).stride()
    (1, 2)
    """
    shape, strides = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    if len(shape) != len(strides):
        raise RuntimeError("mismatch in length of strides and shape")
    dt = dtype or D.get_default_dtype()
    if check(device) is META:
        t = Tensor._wrap(_meta.empty(shape, dt.np, strides))
    else:
        n = 1 + sum((k - 1) * s for k, s in zip(shape, strides)) if all(shape) else 0
        flat = np.zeros(n, dt.np)
        it = flat.itemsize
        t = Tensor._wrap(np.lib.stride_tricks.as_strided(flat, shape,
                                                         tuple(s * it for s in strides)))
    if requires_grad:
        t.requires_grad_()
    return t


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None,
                   requires_grad=False, pin_memory=False) -> Tensor:
    """An uninitialised tensor of ``size`` whose dims lie in memory in the order
    ``physical_layout`` (outermost first); ember fills it with zeros.

    >>> ember.empty_permuted((2, 3, 4), (0, 2, 1)).stride()
    (12, 1, 3)
    """
    size, order = tuple(int(s) for s in size), tuple(int(d) for d in physical_layout)
    if sorted(order) != list(range(len(size))):
        raise RuntimeError(f"Dimension {len(size)} is not a permutation of "
                           f"{list(range(len(size)))}")
    dt = dtype or D.get_default_dtype()
    arr = np.zeros(tuple(size[d] for d in order), dt.np)
    t = Tensor._wrap(arr.transpose(np.argsort(order)))
    if requires_grad:
        t.requires_grad_()
    return t


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False) -> Tensor:
    """A 1-d tensor sharing the memory of an object with the buffer protocol.

    >>> ember.frombuffer(bytearray(b'\\x01\\x00\\x02\\x00'), dtype=ember.int16)
    tensor([1, 2], dtype=torch.int16)
    """
    view = memoryview(buffer)
    nbytes = view.nbytes
    it = dtype.itemsize
    if nbytes <= 0:
        raise ValueError(f"both buffer length ({nbytes}) and count ({count}) must not be 0")
    if not 0 <= offset < nbytes:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than "
                         f"buffer length ({nbytes} bytes) minus 1")
    if count <= 0 and (nbytes - offset) % it:
        raise ValueError(f"buffer length ({nbytes - offset} bytes) after offset ({offset} "
                         f"bytes) must be a multiple of element size ({it})")
    n = (nbytes - offset) // it if count < 0 else count
    if offset + n * it > nbytes:
        raise ValueError(f"requested buffer length ({n} * {it} bytes) after offset ({offset} "
                         f"bytes) must not be greater than actual buffer length ({nbytes} "
                         "bytes)")
    arr = np.frombuffer(buffer, dtype.np, n, offset)
    if arr.flags.writeable is False:
        warnings.warn(_errors.internal(
            "The given buffer is not writable, and PyTorch does not support non-writable "
            "tensors. This means you can write to the underlying (supposedly non-writable) "
            "buffer using the tensor. You may want to copy the buffer to protect its data or "
            "make it writable before converting it to a tensor. This type of warning will be "
            "suppressed for the rest of this program.", "torch/csrc/utils/tensor_new.cpp:1556"),
            UserWarning, stacklevel=2)
    t = Tensor._wrap(arr)
    if requires_grad:
        t.requires_grad_()
    return t


def is_signed(input: Tensor) -> bool:
    """Whether the tensor's dtype is signed (every floating and complex dtype is)."""
    return input.dtype.is_signed


def is_inference(input: Tensor) -> bool:
    """Whether ``input`` was made in inference mode."""
    return input.is_inference()


def is_same_size(input: Tensor, other: Tensor) -> bool:
    return input.shape == other.shape


def is_storage(obj) -> bool:
    """Whether ``obj`` is a storage (typed or untyped)."""
    return isinstance(obj, (TypedStorage, UntypedStorage))


def get_device(input: Tensor) -> int:
    """The CUDA ordinal of ``input``'s device: -1 for a CPU tensor."""
    return input.get_device()


def nonzero_static(input: Tensor, *, size: int, fill_value: int = -1) -> Tensor:
    """``nonzero(input)`` cut or padded (with ``fill_value`` rows) to exactly ``size`` rows.

    >>> ember.nonzero_static(ember.tensor([1, 0, 2]), size=3)
    tensor([[ 0],
            [ 2],
            [-1]])
    """
    return input.nonzero_static(size=size, fill_value=fill_value)


def as_strided_(input: Tensor, size, stride, storage_offset=None) -> Tensor:
    """In-place :func:`as_strided`: ``input`` becomes that view of its storage."""
    return input.as_strided_(size, stride, storage_offset)


def conj_physical_(input: Tensor) -> Tensor:
    """In-place :func:`conj_physical`."""
    return input.conj_physical_()


def fill(input: Tensor, value) -> Tensor:
    """A tensor like ``input`` filled with ``value`` (out of place)."""
    return input.clone().fill_(value)


def typename(obj) -> str:
    """The type of ``obj`` as a string: ``torch.FloatTensor`` style for tensors.

    >>> ember.typename(ember.ones(1))
    'torch.FloatTensor'
    """
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    qualname = ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    module = torch_module(module) or module
    return f"{module}.{qualname}" if module not in ("", "builtins") else qualname


def set_default_tensor_type(t, /) -> None:
    """Deprecated in torch: set the default floating dtype from a tensor type
    (``torch.DoubleTensor`` or its name)."""
    warnings.warn(_errors.internal(
        "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
        "torch.set_default_dtype() and torch.set_default_device() as alternatives.",
        "torch/csrc/tensor/python_tensor.cpp:434"), UserWarning, stacklevel=2)
    name = t if isinstance(t, str) else getattr(t, "__name__", str(t))
    legacy = {d._legacy: d for d in D.ALL}
    dt = legacy.get(name.rsplit(".", 1)[-1])
    if dt is None:
        raise TypeError(f"invalid type: '{name}'")
    if not dt.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    D.set_default_dtype(dt)


_flags = {"warn_always": False}


def set_flush_denormal(mode: bool) -> bool:
    """Whether denormal floats can be flushed to zero on this CPU: True (SSE3), though
    NumPy's kernels keep computing denormals."""
    return True


def set_warn_always(b: bool) -> None:
    """Make warnings that torch gives once per process given every time (a flag only)."""
    _flags["warn_always"] = bool(b)


def is_warn_always_enabled() -> bool:
    return _flags["warn_always"]



"""Tensor methods around the ops: resizing, in-place squeeze/unsqueeze, ``new``, storages,
and what a CPU tensor answers about pinned memory and other devices."""

from __future__ import annotations

import warnings

import numpy as np

from . import _dtype as D
from . import _errors, _lazy
from . import _memory_format as _MF
from ._ops.registry import check_inplace, expose
from ._ops.shape import SQUEEZE_OVERLOADS
from ._storage import TypedStorage, UntypedStorage, resizable, root_array
from ._tensor import Size, Tensor
from .autograd import grad_mode
from .autograd.function import Function

__all__ = ["ravel"]

_spectral = _lazy.defer(globals(), "_spectral", "ember._ops.spectral")   # (on first use)


def _sizes(sizes) -> tuple:
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list, Size)):
        sizes = tuple(sizes[0])
    return tuple(int(s) for s in sizes)


def _resize_(self: Tensor, *sizes, memory_format=None) -> Tensor:
    """Give ``self`` the shape ``sizes`` over its own storage (grown with zeros when short)."""
    sizes = _sizes(sizes)
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    for n in sizes:
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: "
                               f"{list(sizes)}")
    if sizes == self._data.shape and memory_format is None:
        return self                     # (torch keeps the strides then)
    n = int(np.prod(sizes, dtype=np.int64))
    root = root_array(self._data)
    start = self.storage_offset()
    if root.flags.c_contiguous and start + n <= root.size:
        flat = root.reshape(-1)[start:start + n]
    elif start + n > root.size and not resizable(root):
        raise RuntimeError("Trying to resize storage that is not resizable")
    else:
        if root.flags.c_contiguous:
            # the storage grows: its bytes are kept (those outside the view too), and the
            # view's offset into it
            whole = np.zeros(start + n, self._data.dtype)
            old = root.reshape(-1)
            whole[:old.size] = old
            flat = whole[start:]
        else:
            flat = np.zeros(n, self._data.dtype)
            old = np.ascontiguousarray(self._data).reshape(-1)[:n]
            flat[:old.size] = old
    self._data = _MF.over_flat(flat, sizes, memory_format)
    if self._inference and not grad_mode._state.inference:
        # (torch resizes an inference tensor, then refuses to count the write)
        raise RuntimeError(_errors.INFERENCE_INPLACE)
    self._vc.value += 1
    return self


class Resize(Function):
    """torch's ``Tensor.resize``: a reshape to as many elements (``ResizeBackward``)."""

    @staticmethod
    def forward(ctx, tensor, sizes):
        numel = int(np.prod(sizes, dtype=np.int64))
        if tensor.numel() != numel:
            raise RuntimeError(
                f"requested resize to {'x'.join(map(str, sizes))} ({numel} elements in total), "
                f"but the given tensor has a size of {'x'.join(map(str, tensor.size()))} "
                f"({tensor.numel()} elements). autograd's resize can only change the shape of "
                "a given tensor, while preserving the number of elements. ")
        ctx.input_sizes = tensor.size()
        return tensor.contiguous().clone().view(*sizes)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.contiguous().view(ctx.input_sizes), None


def _resize(self: Tensor, *sizes) -> Tensor:
    """Deprecated in torch: a copy of ``self`` in the shape ``sizes`` (same element count)."""
    warnings.warn("non-inplace resize is deprecated", UserWarning, stacklevel=2)
    return Resize.apply(self, _sizes(sizes))


def _resize_as_(self: Tensor, the_template: Tensor, *, memory_format=None) -> Tensor:
    return _resize_(self, the_template.size(), memory_format=memory_format)


@expose
def ravel(input: Tensor) -> Tensor:
    """The elements as one dimension: a view of a contiguous tensor, else a contiguous copy
    (torch's ``contiguous().view(-1)``)."""
    return input.contiguous().view(-1)


def _in_place_view(self: Tensor, view: Tensor) -> Tensor:
    """Make ``self`` take ``view``'s shape, and its history when it is recorded (under the
    in-place op's node name: ``squeeze_(0)`` records ``SqueezeBackward4``)."""
    self._data = view._data
    if view.grad_fn is not None:
        self.grad_fn, self._output_nr = in_place_node(view).grad_fn, view._output_nr
    self._vc.value += 1
    return self


def in_place_node(t: Tensor) -> Tensor:
    """``t``, its grad_fn renamed to the op's in-place node where torch's differs
    (``SqueezeBackward1`` -> ``SqueezeBackward4``, ``LeakyReluBackward0`` -> ``…1``)."""
    node = t.grad_fn
    cls = node.__class__ if node is not None else None
    name = _IN_PLACE_NODES.get(cls.__name__) if node is not None else None
    if name is not None:
        sub = _IN_PLACE_CLASSES.get(cls)
        if sub is None:
            sub = _IN_PLACE_CLASSES[cls] = type(name, (cls,), {"__slots__": (), "_name": name})
        node.__class__ = sub
    return t


# the node of each view op's in-place form (derivatives.yaml's squeeze_, transpose_ … entries)
_IN_PLACE_NODES = {"SqueezeBackward0": "SqueezeBackward3", "SqueezeBackward1": "SqueezeBackward4",
                   "SqueezeBackward2": "SqueezeBackward5", "UnsqueezeBackward0":
                   "UnsqueezeBackward1", "TransposeBackward0": "TransposeBackward1",
                   "TBackward0": "TBackward1", "LeakyReluBackward0": "LeakyReluBackward1",
                   "EluBackward0": "EluBackward1", "CeluBackward0": "CeluBackward1",
                   "ThresholdBackward0": "ThresholdBackward1",
                   "AsStridedBackward0": "AsStridedBackward1"}
_IN_PLACE_CLASSES: dict = {}


def _unsqueeze_(self: Tensor, dim: int) -> Tensor:
    """In-place ``unsqueeze``."""
    check_inplace(self)
    return _in_place_view(self, self.unsqueeze(dim))


def _squeeze_(self: Tensor, *args, **kwargs) -> Tensor:
    """In-place ``squeeze``: all dims of size 1, or those of ``dim`` (an int or a tuple)."""
    dim = (args[0] if len(args) == 1 else args) if args and not kwargs else \
        kwargs["dim"] if not args and list(kwargs) == ["dim"] else _errors.NOT_GIVEN
    if dim is None or dim is _errors.NOT_GIVEN and (args or kwargs):
        raise _errors.parser_error("squeeze_", _errors.method_options(SQUEEZE_OVERLOADS),
                                   args, kwargs)
    check_inplace(self)
    return _in_place_view(self, self.squeeze() if dim is _errors.NOT_GIVEN else
                          self.squeeze(dim))


def _transpose_(self: Tensor, dim0: int, dim1: int) -> Tensor:
    """In-place ``transpose``."""
    check_inplace(self)
    return _in_place_view(self, self.transpose(dim0, dim1))


def _swapaxes_(self: Tensor, axis0: int, axis1: int) -> Tensor:
    """In-place ``swapaxes``."""
    return _transpose_(self, axis0, axis1)


def _t_(self: Tensor) -> Tensor:
    """In-place ``t``."""
    check_inplace(self)
    if self.ndim > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is "
                           f"{self.ndim}D")
    return _in_place_view(self, self.t())


def _new(self: Tensor, *args, **kwargs) -> Tensor:
    """torch's legacy constructor in ``self``'s dtype: ``x.new(2, 3)``, ``x.new([1, 2])``."""
    from ._legacy import legacy_new
    return legacy_new(self.dtype, args, kwargs)


def _pin_memory(self: Tensor, device=None) -> Tensor:
    raise RuntimeError("Cannot access accelerator device when none is available.")


def _is_pinned(self: Tensor, device=None) -> bool:
    return False


def _record_stream(self: Tensor, stream) -> None:
    raise RuntimeError("unknown parameter type")


def _storage(self: Tensor) -> TypedStorage:
    """The deprecated typed storage of ``self`` (it warns as torch does)."""
    return TypedStorage(self._data)


def _untyped_storage(self: Tensor) -> UntypedStorage:
    """The bytes behind ``self`` (shared by its views)."""
    return UntypedStorage(self._data)


def _share_memory_(self: Tensor) -> Tensor:
    """Move ``self``'s storage into shared memory, which processes forked afterwards share
    (views made before keep the old storage)."""
    from ._storage import share
    self._data = share(self._data)
    return self


def _stft(self: Tensor, n_fft: int, hop_length: int | None = None,
          win_length: int | None = None, window: Tensor | None = None, center: bool = True,
          pad_mode: str = "reflect", normalized: bool = False, onesided: bool | None = None,
          return_complex: bool | None = None, align_to_window: bool | None = None) -> Tensor:
    """``ember.stft(self, …)``."""
    return _spectral.stft(self, n_fft, hop_length, win_length, window, center, pad_mode,
                          normalized, onesided, return_complex, align_to_window)


def _istft(self: Tensor, n_fft: int, hop_length: int | None = None,
           win_length: int | None = None, window: Tensor | None = None, center: bool = True,
           normalized: bool = False, onesided: bool | None = None, length: int | None = None,
           return_complex: bool = False) -> Tensor:
    """``ember.istft(self, …)``."""
    return _spectral.istft(self, n_fft, hop_length, win_length, window, center, normalized,
                           onesided, length, return_complex)


Tensor.stft = _stft
Tensor.istft = _istft
Tensor.resize_ = _resize_
Tensor.resize = _resize
Tensor.resize_as_ = _resize_as_
Tensor.unsqueeze_ = _unsqueeze_
Tensor.squeeze_ = _squeeze_
Tensor.transpose_ = Tensor.swapdims_ = _transpose_
Tensor.swapaxes_ = _swapaxes_
Tensor.t_ = _t_
Tensor.new = _new
Tensor.pin_memory = _pin_memory
Tensor.is_pinned = _is_pinned
Tensor.record_stream = _record_stream
Tensor.storage = _storage
Tensor.untyped_storage = _untyped_storage
Tensor.share_memory_ = _share_memory_
Tensor.is_nested = Tensor.is_xpu = False



def _dequantize(self: Tensor) -> Tensor:
    """A tensor that is not quantized, as float32: itself when it is float32 (as torch)."""
    return self if self.dtype is D.float32 else self.detach().float()


Tensor.dequantize = _dequantize


def _quantized_only(name: str):
    def method(self: Tensor):
        raise _errors.no_backend_kernel(f"aten::{name}", "CPU")
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"``{name}`` of a quantized tensor (a plain one has none: torch's error)."
    return method


for _name in ("q_scale", "q_zero_point", "int_repr", "qscheme", "q_per_channel_scales",
              "q_per_channel_zero_points", "q_per_channel_axis"):
    setattr(Tensor, _name, _quantized_only(_name))
del _name


# ----------------------------------------------------------------------------- small methods

def _requires_no_grad(self: Tensor, name: str) -> None:
    if self.requires_grad:
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use "
                           f"var.detach().{name}() instead.")


def _apply_(self: Tensor, callable) -> Tensor:
    """Replace each element ``v`` by ``callable(v)`` (a Python function, element by element)."""
    _requires_no_grad(self, "apply_")
    flat = [callable(v) for v in self._data.reshape(-1).tolist()]
    self._data[...] = np.asarray(flat, dtype=self._data.dtype).reshape(self._data.shape)
    self._vc.value += 1
    return self


def _map_(self: Tensor, tensor: Tensor, callable) -> Tensor:
    """``self[i] = callable(self[i], tensor[i])``, ``tensor`` broadcast to ``self``."""
    _requires_no_grad(self, "map_")
    other = np.broadcast_to(tensor._data, self._data.shape).reshape(-1).tolist()
    flat = [callable(a, b) for a, b in zip(self._data.reshape(-1).tolist(), other)]
    self._data[...] = np.asarray(flat, dtype=self._data.dtype).reshape(self._data.shape)
    self._vc.value += 1
    return self


def _map2_(self: Tensor, x: Tensor, y: Tensor, callable) -> Tensor:
    """``self[i] = callable(self[i], x[i], y[i])``, ``x`` and ``y`` broadcast to ``self``."""
    _requires_no_grad(self, "map2_")
    shape = self._data.shape
    xs = np.broadcast_to(x._data, shape).reshape(-1).tolist()
    ys = np.broadcast_to(y._data, shape).reshape(-1).tolist()
    flat = [callable(a, b, c) for a, b, c in zip(self._data.reshape(-1).tolist(), xs, ys)]
    self._data[...] = np.asarray(flat, dtype=self._data.dtype).reshape(shape)
    self._vc.value += 1
    return self


def _fill_diagonal_(self: Tensor, fill_value, wrap: bool = False) -> Tensor:
    """Fill the main diagonal (all indices equal) with ``fill_value``; for a tall matrix,
    ``wrap`` starts it again ``N + 1`` rows further down, as NumPy's ``fill_diagonal``."""
    nd = self._data.ndim
    if nd < 2:
        raise RuntimeError("dimensions must larger than 1")
    if nd > 2 and len(set(self._data.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    n = min(self._data.shape)
    rows = self._data.shape[0]
    if nd == 2 and wrap and rows > n + 1:
        idx = np.arange(0, rows, n + 1)
        pos = [(r + i, i) for r in idx for i in range(n) if r + i < rows]
        index = tuple(np.array(p) for p in zip(*pos))
    else:
        index = (np.arange(n),) * nd
    mask = np.zeros(self._data.shape, bool)
    mask[index] = True
    from ._factories import tensor
    return self.masked_fill_(tensor(mask), fill_value)


def _resize_as(self: Tensor, tensor: Tensor) -> Tensor:
    """Deprecated in torch: a copy of ``self`` in ``tensor``'s shape (same element count)."""
    warnings.warn("non-inplace resize_as is deprecated", UserWarning, stacklevel=2)
    return Resize.apply(self, tuple(tensor.size()))


def _get_device(self: Tensor) -> int:
    """The CUDA ordinal of the tensor's device: -1 on the CPU."""
    return -1


def _is_same_size(self: Tensor, other: Tensor) -> bool:
    return self.shape == other.shape


def _is_set_to(self: Tensor, tensor: Tensor) -> bool:
    """Whether both tensors are the same view of the same storage (sizes, strides, offset)."""
    return (root_array(self._data) is root_array(tensor._data)
            and self.storage_offset() == tensor.storage_offset()
            and self.shape == tensor.shape and self.stride() == tensor.stride())


def _new_empty_strided(self: Tensor, size, stride, *, dtype=None, layout=None, device=None,
                       pin_memory=False, requires_grad=False) -> Tensor:
    """An uninitialised tensor of the given sizes and strides (``self``'s dtype by default)."""
    from ._misc import empty_strided
    return empty_strided(size, stride, dtype=dtype or self.dtype, device=device,
                         requires_grad=requires_grad)


def _as_strided_(self: Tensor, size, stride, storage_offset=None) -> Tensor:
    """Make ``self`` the view ``as_strided(size, stride, storage_offset)`` of its storage."""
    check_inplace(self)
    return _in_place_view(self, self.as_strided(size, stride, storage_offset))


def _set_(self: Tensor, source=None, storage_offset: int = 0, size=None, stride=None) -> Tensor:
    """Make ``self`` share ``source``'s storage (a tensor, or a storage seen from
    ``storage_offset`` with ``size``/``stride``); no source: an empty tensor."""
    if self.requires_grad and self.grad_fn is None:
        check_inplace(self)
    if source is None:
        self._data = np.empty(0, self._data.dtype)
    elif isinstance(source, Tensor):
        if source.dtype != self.dtype:
            raise RuntimeError(f"Could not set tensor of type {source.dtype.scalar_name} to a "
                               f"tensor of type {self.dtype.scalar_name}")
        self._data = source._data
    else:
        if isinstance(source, TypedStorage):
            source = source.untyped_storage()
        flat = source._array.reshape(-1).view(self._data.dtype)
        size = _sizes((size,)) if size is not None else (flat.size - storage_offset,)
        if stride is None:
            stride, step = [], 1
            for n in reversed(size):
                stride.insert(0, step)
                step *= max(n, 1)
        it = flat.itemsize
        self._data = np.lib.stride_tricks.as_strided(
            flat[storage_offset:], size, tuple(int(s) * it for s in stride))
    self._vc.value += 1
    return self


def _conj_physical_(self: Tensor) -> Tensor:
    """In-place :meth:`conj_physical`."""
    return self.copy_(self.conj_physical()) if self.is_complex() else self


def _mvlgamma_(self: Tensor, p: int) -> Tensor:
    """In-place :meth:`mvlgamma`."""
    result = self.mvlgamma(p)
    if not D.can_cast(result.dtype, self.dtype):
        raise RuntimeError(f"mvlgamma: result type {self.dtype.scalar_name} can't be cast to "
                           f"the desired output type {result.dtype.scalar_name}")
    return self.copy_(result)


def _nonzero_static(self: Tensor, *, size: int, fill_value: int = -1) -> Tensor:
    """``nonzero()`` cut or padded (with ``fill_value`` rows) to exactly ``size`` rows."""
    if size < 0:
        raise RuntimeError(f"nonzero_static: 'size' must be an non-negative integer, but got "
                           f"{size}")
    found = self.nonzero()._data[:size]
    out = np.full((size, self._data.ndim), fill_value, np.int64)
    out[:found.shape[0]] = found
    return Tensor._wrap(out)


def _dim_order(self: Tensor, *, ambiguity_check=False) -> tuple:
    """The dims from outermost to innermost in memory (strides descending, ties by dim)."""
    strides = self.stride()
    if ambiguity_check is not False:
        sizes = self.shape
        multiple = any(a == b for a, b in zip(strides, strides[1:])) or 1 in sizes
        formats = ambiguity_check if isinstance(ambiguity_check, list) else []
        if multiple and not any(self.is_contiguous(memory_format=f) for f in formats):
            raise RuntimeError("The tensor does not have unique dim order, or cannot map to "
                               "exact one of the given memory formats.")
    return tuple(sorted(range(self._data.ndim), key=lambda d: -strides[d]))


def _is_shared(self: Tensor) -> bool:
    from ._storage import is_shared
    return is_shared(self._data)


def _const_data_ptr(self: Tensor) -> int:
    return self.data_ptr()


def _module_load(self: Tensor, other: Tensor, assign: bool = False) -> Tensor:
    """How ``load_state_dict`` turns ``other`` into the value swapped in for ``self``."""
    return other.detach() if assign else self.copy_(other).detach()


def _is_nonzero(self: Tensor) -> bool:
    """The truth value of a one-element tensor."""
    return self.__bool__()


def _int_repr(self: Tensor):
    raise NotImplementedError(_no_cpu_kernel("int_repr"))


def _no_cpu_kernel(name: str) -> str:
    return (f"Could not run 'aten::{name}' with arguments from the 'CPU' backend. This could be "
            "because the operator doesn't exist for this backend, or was omitted during the "
            "selective/custom build process (if using custom build). If you are a Facebook "
            "employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for "
            f"possible resolutions. 'aten::{name}' is only available for these backends: ")


Tensor.apply_ = _apply_
Tensor.map_ = _map_
Tensor.map2_ = _map2_
Tensor.fill_diagonal_ = _fill_diagonal_
Tensor.get_device = _get_device
Tensor.is_same_size = _is_same_size
Tensor.is_set_to = _is_set_to
Tensor.new_empty_strided = _new_empty_strided
Tensor.as_strided_ = _as_strided_
Tensor.set_ = _set_
Tensor.conj_physical_ = _conj_physical_
Tensor.mvlgamma_ = _mvlgamma_
Tensor.nonzero_static = _nonzero_static
Tensor.dim_order = _dim_order
Tensor.is_shared = _is_shared
Tensor.const_data_ptr = _const_data_ptr
Tensor.module_load = _module_load
Tensor.is_nonzero = _is_nonzero
Tensor.int_repr = _int_repr
Tensor.resize_as = _resize_as
Tensor.is_cpu = True
Tensor.is_sparse_csr = Tensor.is_mkldnn = Tensor.is_vulkan = Tensor.is_xla = False
Tensor.is_ipu = Tensor.is_maia = Tensor.is_mtia = False
Tensor.output_nr = property(lambda self: self._output_nr,
                            doc="The index of this tensor among its grad_fn's outputs.")
Tensor.is_distributed = lambda self: False

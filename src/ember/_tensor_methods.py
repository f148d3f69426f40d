"""Tensor methods around the ops: resizing, in-place squeeze/unsqueeze, ``new``, storages,
and what a CPU tensor answers about pinned memory and other devices."""

from __future__ import annotations

import warnings

import numpy as np

from . import _dtype as D
from . import _lazy
from ._legacy import legacy_new
from ._ops.registry import check_inplace, expose
from ._storage import TypedStorage, UntypedStorage, root_array
from ._tensor import Size, Tensor
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
    n = int(np.prod(sizes, dtype=np.int64))
    root = root_array(self._data)
    start = self.storage_offset()
    if root.flags.c_contiguous and start + n <= root.size:
        self._data = root.reshape(-1)[start:start + n].reshape(sizes)
    else:
        flat = np.zeros(n, self._data.dtype)
        old = np.ascontiguousarray(self._data).reshape(-1)[:n]
        flat[:old.size] = old
        self._data = flat.reshape(sizes)
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
    return _resize_(self, the_template.size())


@expose
def ravel(input: Tensor) -> Tensor:
    """The elements as one dimension (a view when the layout allows, as ``reshape``)."""
    return input.reshape(-1)


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
                   "ThresholdBackward0": "ThresholdBackward1"}
_IN_PLACE_CLASSES: dict = {}


def _unsqueeze_(self: Tensor, dim: int) -> Tensor:
    """In-place ``unsqueeze``."""
    check_inplace(self)
    return _in_place_view(self, self.unsqueeze(dim))


def _squeeze_(self: Tensor, dim=None) -> Tensor:
    """In-place ``squeeze``."""
    check_inplace(self)
    return _in_place_view(self, self.squeeze() if dim is None else self.squeeze(dim))


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
    return _in_place_view(self, self.t())


def _new(self: Tensor, *args, **kwargs) -> Tensor:
    """torch's legacy constructor in ``self``'s dtype: ``x.new(2, 3)``, ``x.new([1, 2])``."""
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

"""``ember.save`` / ``ember.load`` in torch's own file format.

A checkpoint is an uncompressed zip archive ``<name>/data.pkl`` (a protocol-2 pickle in which
tensors are ``torch._utils._rebuild_tensor_v2`` calls over persistent storages), the raw
little-endian storages ``<name>/data/<key>`` aligned to 64 bytes, and the small records
torch writes beside them. Files written here load in torch 2.13 and the other way round.

``load`` defaults to ``weights_only=True`` like torch ≥ 2.6: an allow-listed unpickler that
only rebuilds tensors, parameters, containers and numbers, and refuses any other global, so
a malicious checkpoint cannot run code.
"""

from __future__ import annotations

import collections as _collections
import contextlib as _contextlib
import io
import os
import pickle
import struct
import types as _types
import zipfile as _zipfile
import zlib as _zlib
from typing import Any

import numpy as _np

from . import _dtype as _D
from . import _layout as _layout_module
from . import _memory_format as _mf
from ._tensor import Tensor as _Tensor
from ._torch_alias import torch_module as _torch_module

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals",
           "safe_globals"]

_STORAGE_NAMES = {
    _D.float32: "FloatStorage", _D.float64: "DoubleStorage", _D.float16: "HalfStorage",
    _D.int64: "LongStorage", _D.int32: "IntStorage", _D.int16: "ShortStorage",
    _D.int8: "CharStorage", _D.uint8: "ByteStorage", _D.bool: "BoolStorage",
    _D.complex64: "ComplexFloatStorage", _D.complex128: "ComplexDoubleStorage",
    _D.bfloat16: "BFloat16Storage", _D.qint8: "QInt8Storage", _D.quint8: "QUInt8Storage",
    _D.qint32: "QInt32Storage",
}
_QSCHEMES = frozenset(("per_tensor_affine", "per_channel_affine", "per_tensor_symmetric",
                       "per_channel_symmetric", "per_channel_affine_float_qparams"))
_STORAGE_DTYPES = {v: k for k, v in _STORAGE_NAMES.items()}


# ----------------------------------------------------------------------------- markers
# Stand-ins that pickle as torch's globals without importing torch.

class _StorageType:
    def __init__(self, name: str):
        self.name = name


_STORAGE_TYPES = {name: _StorageType(name) for name in _STORAGE_NAMES.values()}


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad=False,
                       backward_hooks=None, metadata=None):
    """Rebuild a tensor from a storage (an ndarray of its dtype), offset, size and stride."""
    item = storage.itemsize
    if int(_np.prod(size)) == 0:
        arr = _np.zeros(size, storage.dtype)
    else:                             # a view: tensors saved over one storage share it again
        arr = _np.ndarray(tuple(size), storage.dtype, storage, storage_offset * item,
                          tuple(s * item for s in stride))
    t = _Tensor._wrap(arr)
    t._requires_grad = bool(requires_grad) and (t.dtype.is_floating_point or
                                                 t.dtype.is_complex)
    return t


def _rebuild_qtensor(storage, storage_offset, size, stride, quantizer_params, requires_grad,
                     backward_hooks=None):
    """Rebuild a quantized tensor from its integers' storage and its quantizer parameters:
    ``(per_tensor_affine, scale, zero_point)`` or ``(per_channel_affine, scales, zero_points,
    axis)``."""
    from .ao.quantization._tensor import _new, per_channel_affine_float_qparams
    qdtype = {_np.dtype(_np.int8): _D.qint8, _np.dtype(_np.uint8): _D.quint8,
              _np.dtype(_np.int32): _D.qint32}[storage.dtype]
    arr = _rebuild_tensor_v2(storage, storage_offset, size, stride)._data
    scheme = quantizer_params[0]
    if scheme.name == "per_tensor_affine":
        return _new(arr, qdtype, scheme, float(quantizer_params[1]), int(quantizer_params[2]))
    _, scales, zero_points, axis = quantizer_params
    zp = zero_points._data
    if zp.dtype.kind == "f":
        scheme = per_channel_affine_float_qparams
    return _new(arr, qdtype, scheme, _np.asarray(scales._data, _np.float64), zp, axis)


def _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad):
    """A meta tensor (saved without a storage: it has no data)."""
    from . import _meta
    t = _Tensor._wrap(_meta.empty(tuple(size), dtype.np, tuple(stride)))
    t._requires_grad = bool(requires_grad)
    return t


def _rebuild_parameter(data, requires_grad, backward_hooks=None):
    from .nn import Parameter
    return Parameter(data, requires_grad=requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    p = _rebuild_parameter(data, requires_grad)
    for k, v in (state or {}).items():
        setattr(p, k, v)
    return p


def _rebuild_sparse_tensor(layout, data):
    """A sparse COO tensor from its pickled ``(indices, values, size, is_coalesced)``."""
    from .sparse._sparse import _rebuild_sparse
    return _rebuild_sparse(layout, data)


def _get_layout(name: str):
    """The layout named ``"torch.sparse_coo"`` (how torch pickles a layout)."""
    return getattr(_layout_module, name.rsplit(".", 1)[-1])


_GLOBAL_NAMES = {
    _rebuild_tensor_v2: ("torch._utils", "_rebuild_tensor_v2"),
    _rebuild_parameter: ("torch._utils", "_rebuild_parameter"),
    _rebuild_sparse_tensor: ("torch._utils", "_rebuild_sparse_tensor"),
    _rebuild_qtensor: ("torch._utils", "_rebuild_qtensor"),
    _rebuild_meta_tensor_no_storage: ("torch._utils", "_rebuild_meta_tensor_no_storage"),
    _get_layout: ("torch.serialization", "_get_layout"),
}


class _Storage:
    __slots__ = ("array", "key", "dtype")

    def __init__(self, array: _np.ndarray, key: str, dtype=None):
        self.array, self.key, self.dtype = array, key, dtype


def _torch_name(obj, name=None):
    """``(module, name)`` torch's files use for an ember class or dtype (``torch.Size``,
    ``torch.nn.modules.linear.Linear``), so that torch itself can load what Ember saves."""
    module = getattr(obj, "__module__", None)
    name = name or getattr(obj, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(name, str) or "." in name:
        return None
    module = _torch_module(module)
    return None if module is None else (module, name)


class _Pickler(pickle._Pickler):
    """Writes tensors as torch does: rebuild calls over persistent storages."""

    def __init__(self, file, storages: list):
        super().__init__(file, protocol=2)
        self.storages = storages
        self.roots: dict = {}         # id(root array) -> (root, its storage)

    def save_global(self, obj, name=None):
        spec = _GLOBAL_NAMES.get(obj) if callable(obj) and not isinstance(obj, type) else None
        if isinstance(obj, _StorageType):
            spec = ("torch", obj.name)
        if spec is None:
            spec = _torch_name(obj, name)
        if spec is None:
            return super().save_global(obj, name)
        self.write(pickle.GLOBAL + f"{spec[0]}\n{spec[1]}\n".encode())
        self.memoize(obj)

    def save(self, obj, save_persistent_id=True):
        if isinstance(obj, _StorageType):
            x = self.memo.get(id(obj))
            if x is not None:
                self.write(self.get(x[0]))
                return
            return self.save_global(obj)
        return super().save(obj, save_persistent_id)

    dispatch = pickle._Pickler.dispatch.copy()
    dispatch[_types.FunctionType] = save_global

    def persistent_id(self, obj):
        if isinstance(obj, _Storage):
            dt = obj.dtype or _D.from_numpy_dtype(obj.array.dtype)
            return ("storage", _STORAGE_TYPES[_STORAGE_NAMES[dt]], obj.key, "cpu",
                    obj.array.size)
        return None

    def reducer_override(self, obj):
        if isinstance(obj, _D.dtype):
            return obj.name                   # a global: ``torch.float32``, as torch writes
        if isinstance(obj, _layout_module.layout):
            return (_get_layout, ("torch." + obj.name,))
        if obj.__class__.__name__ == "qscheme" and getattr(obj, "name", None) in _QSCHEMES:
            return obj.name                   # a global: ``torch.per_tensor_affine``
        if isinstance(obj, _Tensor):
            if obj.is_quantized:
                return self._reduce_quantized(obj)
            if obj.is_sparse:
                return (_rebuild_sparse_tensor, (obj.layout, (
                    obj._indices(), obj._values().detach(), obj.shape, obj.is_coalesced())))
            if getattr(obj, "_is_param", False):
                plain = _Tensor._wrap(obj._data)
                return (_rebuild_parameter,
                        (plain, obj.requires_grad, _collections.OrderedDict()))
            if obj.is_meta:
                return (_rebuild_meta_tensor_no_storage, (obj.dtype, tuple(obj.shape),
                                                          obj.stride(), obj.requires_grad))
            if obj.dtype in _D.FLOAT8:
                raise RuntimeError(f"ember.save cannot write {obj.dtype} tensors yet (torch "
                                   "keeps them in untyped storages); save them converted, "
                                   "e.g. with .float()")
            storage, offset, arr = self._shared_storage(obj._data)
            if storage is None:
                arr = _np.asarray(obj._data, order="C")   # (ascontiguousarray makes 0-d 1-d)
                storage = self._new_storage(arr.reshape(-1))
            stride = tuple(s // arr.itemsize for s in arr.strides) if arr.ndim else ()
            if arr.size <= 1:
                stride = _mf.contiguous_strides(arr.shape)
            return (_rebuild_tensor_v2, (storage, offset, tuple(arr.shape), stride,
                                         obj.requires_grad, _collections.OrderedDict()))
        return NotImplemented

    def _reduce_quantized(self, obj):
        """torch's ``_rebuild_qtensor`` call: the integers in a storage of the quantized
        dtype, and the quantizer's parameters."""
        arr = obj.int_repr()._data
        storage = _Storage(arr.reshape(-1), str(len(self.storages)), obj.dtype)
        self.storages.append(storage)
        if obj.qscheme().name == "per_tensor_affine":
            params = (obj.qscheme(), obj.q_scale(), obj.q_zero_point())
        else:
            from .ao.quantization._tensor import per_channel_affine
            params = (per_channel_affine, obj.q_per_channel_scales(),
                      obj.q_per_channel_zero_points(), obj.q_per_channel_axis())
        return (_rebuild_qtensor, (storage, 0, tuple(arr.shape),
                                   _mf.contiguous_strides(arr.shape), params,
                                   obj.requires_grad, _collections.OrderedDict()))

    def _new_storage(self, flat: _np.ndarray, root=None) -> _Storage:
        storage = _Storage(flat, str(len(self.storages)))
        self.storages.append(storage)
        if root is not None:
            self.roots[id(root)] = (root, storage)
        return storage

    def _shared_storage(self, arr: _np.ndarray):
        """(storage, offset, arr) when ``arr`` views a dense array of its dtype (the
        storage's one record then serves every tensor viewing it, as torch shares a
        storage), else (None, 0, arr)."""
        root = arr
        while isinstance(root.base, _np.ndarray):
            root = root.base
        item = arr.itemsize
        if (arr.size == 0 or root.dtype != arr.dtype or not (root.flags.c_contiguous or
                                                             root.flags.f_contiguous)
                or any(s < 0 or s % item for s in arr.strides)):
            return None, 0, arr
        hit = self.roots.get(id(root))
        storage = hit[1] if hit is not None else self._new_storage(root.reshape(-1, order="A"),
                                                                   root)
        start = root.__array_interface__["data"][0]
        return storage, (arr.__array_interface__["data"][0] - start) // item, arr


class _StreamWriter:
    """The archive ``PyTorchStreamWriter`` (miniz) writes, byte for byte: each record stored
    uncompressed behind a local header without sizes (flag bit 3) whose ``FB`` extra field pads
    the data to a multiple of 64 bytes, then a data descriptor; a central directory without
    extra fields; the ZIP64 end record, its locator, and the classic end record."""

    def __init__(self, fh):
        self.fh, self.offset, self.entries = fh, 0, []

    def _put(self, b: bytes) -> None:
        self.fh.write(b)
        self.offset += len(b)

    def record(self, name: str, data: bytes) -> None:
        raw = name.encode()
        pad = (-(self.offset + 30 + len(raw) + 4)) % 64
        extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad
        crc = _zlib.crc32(data)
        self.entries.append((raw, crc, len(data), self.offset))
        self._put(struct.pack("<IHHHHHIIIHH", 0x04034B50, 0, 0x0808, 0, 0, 0, 0, 0, 0,
                              len(raw), len(extra)) + raw + extra)
        self._put(data)
        self._put(struct.pack("<IIII", 0x08074B50, crc, len(data), len(data)))

    def finish(self) -> None:
        cd_start = self.offset
        for raw, crc, size, at in self.entries:
            self._put(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0, 0, 0x0808, 0, 0, 0,
                                  crc, size, size, len(raw), 0, 0, 0, 0, 0, at) + raw)
        cd_size, n = self.offset - cd_start, len(self.entries)
        end64 = self.offset
        self._put(struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x031E, 45, 0, 0, n, n, cd_size,
                              cd_start))
        self._put(struct.pack("<IIQI", 0x07064B50, 0, end64, 1))
        self._put(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, cd_size, cd_start, 0))


def save(obj: Any, f, pickle_module=None, pickle_protocol: int = 2,
         _use_new_zipfile_serialization: bool = True) -> None:
    """Save ``obj`` (tensors, state dicts, nested containers) in torch's checkpoint format."""
    if isinstance(f, (str, os.PathLike)):
        name = os.path.splitext(os.path.basename(os.fspath(f)))[0] or "archive"
        with open(f, "wb") as fh:
            return _save(obj, fh, name)
    return _save(obj, f, "archive")


def _save(obj, fh, name: str) -> None:
    storages: list = []
    buf = io.BytesIO()
    _Pickler(buf, storages).dump(obj)
    zf = _StreamWriter(fh)
    zf.record(f"{name}/data.pkl", buf.getvalue())
    zf.record(f"{name}/.format_version", b"1")
    zf.record(f"{name}/.storage_alignment", b"64")
    zf.record(f"{name}/byteorder", b"little")
    for s in storages:
        a = s.array
        if a.dtype not in _D.REDUCED:
            a = a.astype(a.dtype.newbyteorder("<"), copy=False)
        zf.record(f"{name}/data/{s.key}", a.tobytes())
    zf.record(f"{name}/version", b"3\n")
    zf.record(f"{name}/.data/serialization_id", os.urandom(20).hex().encode())
    zf.finish()


# ----------------------------------------------------------------------------- loading

_SAFE = {
    ("collections", "OrderedDict"): _collections.OrderedDict,
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor_v2,
    ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
    ("torch._utils", "_rebuild_parameter_with_state"): _rebuild_parameter_with_state,
    ("torch._utils", "_rebuild_sparse_tensor"): _rebuild_sparse_tensor,
    ("torch._utils", "_rebuild_qtensor"): _rebuild_qtensor,
    ("torch._utils", "_rebuild_meta_tensor_no_storage"): _rebuild_meta_tensor_no_storage,
    ("torch.serialization", "_get_layout"): _get_layout,
    ("builtins", "set"): set,
    ("builtins", "frozenset"): frozenset,
    ("builtins", "complex"): complex,
    ("torch", "Size"): tuple,
}


def _weights_only_error(module: str, name: str) -> pickle.UnpicklingError:
    return pickle.UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two "
        "options, \033[1mdo those steps only if you trust the source of the checkpoint\033[0m. "
        "\n\t(1) In "
        "PyTorch 2.6, we changed the default value of the `weights_only` argument in "
        "`torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set "
        "to `False` will likely succeed, but it can result in arbitrary code execution. Do it "
        "only if you got the file from a trusted source.\n\t(2) Alternatively, to load with "
        "`weights_only=True` please check the recommended steps in the following error "
        "message.\n\tWeightsUnpickler error: Unsupported global: GLOBAL "
        f"{module}.{name} was not an allowed global by default. Please use "
        f"`torch.serialization.add_safe_globals([{module}.{name}])` or the "
        f"`torch.serialization.safe_globals([{module}.{name}])` context manager to allowlist "
        "this global if you trust this class/function.\n\nCheck the documentation of torch.load to "
        "learn more about types accepted by default with weights_only "
        "https://pytorch.org/docs/stable/generated/torch.load.html.")


_USER_SAFE: dict = {}     # (module, name) -> object: what add_safe_globals allowed
_USER_ENTRIES: list = []  # the entries as given, for get_safe_globals


def add_safe_globals(safe_globals: list) -> None:
    """Allow ``load(weights_only=True)`` to rebuild these classes and functions; an entry is
    the object or ``(object, "module.name")`` (the name the checkpoint uses)."""
    for entry in safe_globals:
        if isinstance(entry, tuple):
            obj, full = entry
            module, _, name = full.rpartition(".")
        else:
            obj, module, name = entry, entry.__module__, entry.__qualname__
        _USER_SAFE[(module, name)] = obj
        _USER_ENTRIES.append(entry)


def get_safe_globals() -> list:
    """The entries :func:`add_safe_globals` allowed."""
    return list(_USER_ENTRIES)


def clear_safe_globals() -> None:
    """Forget every entry :func:`add_safe_globals` allowed."""
    _USER_SAFE.clear()
    _USER_ENTRIES.clear()


@_contextlib.contextmanager
def safe_globals(safe_globals: list):
    """Within the block, allow these globals as :func:`add_safe_globals` does."""
    saved, entries = dict(_USER_SAFE), list(_USER_ENTRIES)
    add_safe_globals(safe_globals)
    try:
        yield
    finally:
        _USER_SAFE.clear()
        _USER_SAFE.update(saved)
        _USER_ENTRIES[:] = entries


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, zf: _zipfile.ZipFile, prefix: str, weights_only: bool):
        super().__init__(file)
        self.zf, self.prefix, self.weights_only = zf, prefix, weights_only
        self.loaded: dict = {}

    def find_class(self, module, name):
        if (module, name) in _SAFE:
            return _SAFE[(module, name)]
        if (module, name) in _USER_SAFE:
            return _USER_SAFE[(module, name)]
        if module == "torch" and name in _STORAGE_DTYPES:
            return _STORAGE_TYPES[name]
        if module == "torch" and name in _D._BY_NAME:
            return _D._BY_NAME[name]
        if module == "torch" and name in _QSCHEMES:
            from .ao.quantization import _tensor
            return getattr(_tensor, name)
        if self.weights_only:
            raise _weights_only_error(module, name)
        if module == "torch" or module.startswith("torch."):
            import importlib
            return getattr(importlib.import_module(__package__ + module[5:]), name)
        return super().find_class(module, name)

    def persistent_load(self, pid):
        kind, storage_type, key, _location, numel = pid
        if kind != "storage":
            raise pickle.UnpicklingError(f"unknown persistent id {kind!r}")
        if isinstance(storage_type, _StorageType):
            dt = _STORAGE_DTYPES[storage_type.name]
        else:
            dt = storage_type
        arr = self.loaded.get(key)
        if arr is None:
            raw = self.zf.read(f"{self.prefix}/data/{key}")
            # (ml_dtypes' types have one byte order: this machine's, little-endian as torch's)
            le = dt.np if dt.np in _D.REDUCED else dt.np.newbyteorder("<")
            arr = _np.frombuffer(raw, dtype=le).astype(dt.np)
            self.loaded[key] = arr
        return arr


def load(f, map_location=None, pickle_module=None, *, weights_only: bool | None = None,
         mmap: bool | None = None, **pickle_load_args) -> Any:
    """Load a checkpoint written by ``ember.save`` or by ``torch.save``.

    ``weights_only`` (default True) refuses any pickled global other than tensors,
    parameters, containers and numbers. ``map_location`` is accepted (everything is CPU).
    """
    if weights_only is None:
        weights_only = True
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            return _load(fh, weights_only)
    return _load(f, weights_only)


def _load(fh, weights_only: bool):
    with _zipfile.ZipFile(fh) as zf:
        pkl = next((n for n in zf.namelist() if n.endswith("/data.pkl")), None)
        if pkl is None:
            raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not "
                               "found")
        prefix = pkl[: -len("/data.pkl")]
        return _Unpickler(io.BytesIO(zf.read(pkl)), zf, prefix, weights_only).load()


del annotations  # keep dir() to torch's names

"""The Tensor: a NumPy array plus autograd metadata.

``_data`` is the ndarray holding the elements; views (``view``, ``transpose``, basic
slicing …) hold NumPy views of their base's array and share its version counter ``_vc``.
Autograd metadata: ``grad_fn`` (None for leaves) with ``_output_nr``, the leaf flag
``_requires_grad``, ``_grad``, ``_retains_grad``, hooks of a leaf, and a weak reference to a
leaf's :class:`AccumulateGrad` node. Operators and methods are thin: they call the ops
defined once in :mod:`ember._ops`, which also install most methods on this class.
"""

from __future__ import annotations

import warnings
import weakref

import numpy as np

from . import _dtype as D
from . import _errors, _meta
from . import _memory_format as _mf
from . import autograd as _autograd
from ._device import CPU, META
from ._layout import strided as _STRIDED
from ._meta import MetaArray
from ._storage import has_own_strides
from .autograd import grad_mode
from .autograd.graph import AccumulateGrad, _add_hook, _HookDict

_DT = D._BY_NP
_inference_used = grad_mode._inference_used
_ArgTypeError = _errors.ArgTypeError


def _refused(err: Exception) -> Exception:
    """``err``, a tensor's refusal to be read as a number, or torch's parser error where an
    op given the tensor for a number was called as torch's parser refuses."""
    return _errors.call_failure(err) or err


class _VersionCounter:
    """Counts in-place writes; shared by a tensor, its views and its ``detach()``.

    ``views`` is set only once the counter has float views (then it is a
    :class:`_WatchedCounter`): weak references to those of them whose ``grad_fn`` is current.
    """

    __slots__ = ("value", "views", "conjs")

    def __init__(self):
        self.value = 0


class _Marked(dict):
    """A set of live objects, by identity, holding them weakly (a ``WeakSet`` would compare
    tensors with ``==``); its truth is the dict's, so an empty one costs nothing to test."""

    __slots__ = ()

    def __contains__(self, obj) -> bool:
        ref = self.get(id(obj))
        return ref is not None and ref() is obj

    def add(self, obj) -> None:
        key = id(obj)

        def gone(ref, refs=self):
            if refs.get(key) is ref:
                del refs[key]
        self[key] = weakref.ref(obj, gone)


# the tensors with torch's conjugate bit set (``Tensor.conj()`` of a complex tensor and the
# views of those). Their elements are stored conjugated; a conjugate view made outside autograd
# is kept in step with what it views by its version counter (:func:`watch_conj`)
CONJ = _Marked()


def watch_conj(view, source: np.ndarray) -> None:
    """Keep ``view`` (whose elements are the conjugates of the array ``source``, which it
    views in torch) in step with ``source``: after each write counted by their shared version
    counter, a write through the view is carried back conjugated, and the view re-read."""
    vc = view._vc
    if vc.__class__ is _VersionCounter:
        vc.__class__ = _WatchedCounter
        vc.views = []
    if getattr(vc, "conjs", None) is None:
        vc.conjs = []
    # (the view's array, weakly: a conjugate of it, or a NumPy view of it, keeps it alive)
    vc.conjs.append([weakref.ref(view._data), source, view._data.tobytes()])


def _sync_conjs(records) -> None:
    records[:] = [r for r in records if r[0]() is not None]
    for rec in reversed(records):           # writes through a conjugate view go back up …
        data = rec[0]()
        if data is not None and data.tobytes() != rec[2]:
            np.copyto(rec[1], np.conj(data))
    for rec in records:                      # … then every view is read again
        data = rec[0]()
        if data is not None:
            np.copyto(data, np.conj(rec[1]))
            rec[2] = data.tobytes()


_new_object = object.__new__
_vc_get = _VersionCounter.value.__get__
_vc_set = _VersionCounter.value.__set__


class _WatchedCounter(_VersionCounter):
    """The counter of a base that has float views: each write marks them stale.

    This is torch's ``attr_version`` check, turned around so that it costs nothing on tensors
    without views: a write turns the live views into :class:`_StaleView`, whose ``grad_fn``
    is regenerated (an ``AsStridedBackward0`` on the base's current history) when next read.
    """

    __slots__ = ()

    def _bump(self, value):
        _vc_set(self, value)
        views = self.views
        if views:
            for r in views:
                t = r()
                if t is not None and t.__class__ is Tensor:
                    t.__class__ = _StaleView
            views.clear()
        conjs = getattr(self, "conjs", None)
        if conjs:
            _sync_conjs(conjs)

    value = property(_vc_get, _bump)


class Size(tuple):
    """A tensor's shape: a tuple that prints as ``torch.Size([3, 5])``."""

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, key):
        out = tuple.__getitem__(self, key)
        return Size(out) if isinstance(key, slice) else out

    def __add__(self, other):
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other):
        return Size(tuple(other) + tuple(self))

    def __mul__(self, n):
        return Size(tuple(self) * n)

    __rmul__ = __mul__

    def __reduce__(self):
        return (Size, (tuple(self),))

    def __getattr__(self, name):
        # torch.Size is a C type named "torch.Size" in its AttributeError
        raise AttributeError(f"'torch.Size' object has no attribute {name!r}", name=name,
                             obj=self)


def _disabled_torch_function_impl(func, types, args=(), kwargs=None):
    """A class's ``__torch_function__`` that turns dispatch off for its instances
    (``nn.Parameter``'s): the function runs as for a plain tensor."""
    return func(*args, **(kwargs or {}))


class Tensor:
    """A multi-dimensional array that records the operations applied to it for autograd.

    >>> import ember
    >>> x = ember.tensor([1.0, 2.0], requires_grad=True)
    >>> (x * x).sum().backward()
    >>> x.grad
    tensor([2., 4.])
    """

    __slots__ = ("_data", "_requires_grad", "_grad", "grad_fn", "_output_nr", "_vc", "_base",
                 "_retains_grad", "_acc", "_hooks", "__weakref__", "__dict__")

    _inference = False
    __array_priority__ = 1000       # numpy defers to our reflected operators

    def __new__(cls, *args, **kwargs):
        from ._factories import _legacy_new
        return _legacy_new(cls, *args, **kwargs)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if getattr(cls, "__torch_function__", None) is not _disabled_torch_function_impl \
                and not cls.__dict__.get("_dispatch_from_first_instance", False):
            from .overrides import _activate
            _activate()      # (a subclass that dispatches: see ember.overrides)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        """Run ``func`` with subclass dispatch off and return its tensors as ``cls``: the
        default of the ``__torch_function__`` protocol (:mod:`ember.overrides`)."""
        from .overrides import _default_torch_function
        return _default_torch_function(cls, func, types, args, kwargs)

    def as_subclass(self, cls):
        """An alias of this tensor (same data, attached to the same graph) of the Tensor
        subclass ``cls``."""
        from .overrides import _as_subclass
        return _as_subclass(self, cls)

    @staticmethod
    def _make_subclass(cls, data, require_grad=False, **kwargs):
        """A new leaf of the Tensor subclass ``cls`` sharing ``data``'s elements."""
        from .overrides import _make_subclass
        return _make_subclass(cls, data, require_grad, **kwargs)

    @classmethod
    def _wrap(cls, data: np.ndarray) -> Tensor:
        """A new leaf around ``data`` (no copy): the fast constructor every op uses."""
        t = object.__new__(cls)
        t._data = data
        t._requires_grad = False
        t._grad = t.grad_fn = t._base = t._acc = t._hooks = None
        t._output_nr = 0
        t._vc = vc = _new_object(_VersionCounter)     # _VersionCounter(), without a call
        vc.value = 0
        t._retains_grad = False
        if _inference_used[0] and grad_mode._state.inference:
            t._inference = True
        return t

    def _inference_flag(self) -> bool:
        return self._inference

    # ----- basic properties
    @property
    def dtype(self) -> D.dtype:
        return _DT[self._data.dtype]

    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None):
        """The shape as a ``Size``, or the length of dimension ``dim``."""
        if dim is None:
            return Size(self._data.shape)
        from ._ops.util import norm_dim
        return self._data.shape[norm_dim(dim, self._data.ndim)]

    def dim(self) -> int:
        return self._data.ndim

    ndimension = dim

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return self._data.size

    nelement = numel

    def element_size(self) -> int:
        return self._data.itemsize

    @property
    def itemsize(self) -> int:
        return self._data.itemsize

    @property
    def nbytes(self) -> int:
        return self._data.nbytes

    @property
    def device(self):
        return META if self._data.__class__ is MetaArray else CPU

    @property
    def is_cuda(self) -> bool:
        return False

    @property
    def is_meta(self) -> bool:
        """Whether the tensor is on the ``meta`` device (a shape and dtype without data)."""
        return self._data.__class__ is MetaArray

    is_sparse = is_quantized = is_mps = False

    @property
    def layout(self):
        return _STRIDED

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    def is_complex(self) -> bool:
        return self.dtype.is_complex

    def is_signed(self) -> bool:
        return self.dtype.is_signed

    def is_inference(self) -> bool:
        return self._inference

    def stride(self, dim: int | None = None):
        """Strides in elements, like torch's (``x.t().stride() == (1, n)``)."""
        a = self._data
        st = tuple(s // a.itemsize for s in a.strides) if a.__class__ is not MetaArray \
            else a.strides_of()
        if not a.size and a.ndim and 0 in st and not has_own_strides(a):
            # NumPy gives a fresh empty array zero strides; torch's are contiguous ones
            # (a dim of size 0 counts as 1). An array from ``from_numpy`` keeps its own,
            # as torch's does.
            st = _mf.contiguous_strides(a.shape)
        if dim is None:
            return st
        from ._ops.util import norm_dim
        return st[norm_dim(dim, self._data.ndim)]

    def is_contiguous(self, memory_format=None) -> bool:
        """Whether the strides are those of ``memory_format`` (sizes of 1 do not count)."""
        if self._data.__class__ is MetaArray:
            return _mf.is_contiguous(self._data.layout(), memory_format)
        if memory_format is None:
            return self._data.flags.c_contiguous
        from ._memory_format import is_contiguous
        return is_contiguous(self._data, memory_format)

    def storage_offset(self) -> int:
        if self._data.__class__ is MetaArray:
            return self._data.loffset
        from ._storage import root_array
        base = root_array(self._data)
        off = self._data.__array_interface__["data"][0] - base.__array_interface__["data"][0]
        return off // self._data.itemsize

    def data_ptr(self) -> int:
        if self._data.__class__ is MetaArray:
            return 0
        return self._data.__array_interface__["data"][0]

    @property
    def _version(self) -> int:
        return self._vc.value

    def _is_view(self) -> bool:
        return self._base is not None

    def _watch(self, _ref=weakref.ref, _plain=_VersionCounter) -> None:
        """Register this float view with its version counter, to be marked stale by writes."""
        vc = self._vc
        if vc.__class__ is _plain:
            vc.__class__ = _WatchedCounter
            vc.views = [_ref(self)]
            return
        views = vc.views
        views.append(_ref(self))
        n = len(views)
        if n >= 64 and not n & (n - 1):     # drop dead references now and then
            views[:] = [r for r in views if r() is not None]

    # ----- autograd metadata
    @property
    def requires_grad(self) -> bool:
        if self._requires_grad or self.grad_fn is not None:
            return True
        base = self._base     # a view of a base that requires grad (made in no_grad …) does
        return base is not None and base.requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self._set_requires_grad(bool(value), attribute=True)

    def _set_requires_grad(self, value: bool, attribute: bool = False) -> None:
        if self.grad_fn is not None:
            if value and not attribute:
                return
            msg = _errors.NON_LEAF_REQUIRES_GRAD
            raise RuntimeError(msg if not value else msg.split(" If ")[0])
        if value:
            dt = self.dtype
            if not (dt.is_floating_point or dt.is_complex):
                raise RuntimeError(_errors.INT_REQUIRES_GRAD_ATTR if attribute
                                   else _errors.INT_REQUIRES_GRAD)
            if self._inference and not grad_mode._state.inference:
                raise RuntimeError(_errors.INFERENCE_REQUIRES_GRAD)
        self._requires_grad = value

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set ``requires_grad`` in place (leaves only for False) and return self."""
        self._set_requires_grad(bool(requires_grad))
        return self

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def grad(self):
        # torch warns only while a non-leaf's grad is undefined (backward(inputs=) sets it)
        if self.grad_fn is not None and not self._retains_grad and self._grad is None:
            warnings.warn(_errors.NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError("assigned grad expected to be a Tensor or None but got grad of "
                                f"type {type(value).__name__}")
            if value.dtype is not self.dtype:
                from ._ops.registry import _scalar_name
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{value.dtype.cpp_name}' to a "
                    f"tensor with grad_dtype '{_scalar_name(self.dtype)}'. The gradient must "
                    "match the tensor's grad_dtype (defaults to the tensor's dtype). You can set "
                    "the tensor's grad_dtype attribute with a specific dtype, or None to allow "
                    "any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor "
                    "and its gradient may break downstream systems that assume they match.")
            if value.shape != self.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a "
                    f"tensor of size '{list(self.shape)}'. Please ensure that the gradient and "
                    "the tensor are the same size")
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def retain_grad(self) -> None:
        """Keep ``.grad`` of this non-leaf after backward (a no-op on leaves)."""
        if not self.requires_grad:
            raise RuntimeError(_errors.RETAIN_NO_GRAD)
        if self.grad_fn is None or self._retains_grad:
            return
        self.grad_fn._set_retain_grad(self._output_nr, self)
        self._retains_grad = True

    def register_hook(self, hook):
        """Run ``hook(grad)`` when this tensor's gradient is computed; it may return a new one."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            return self.grad_fn._register_tensor_hook(self._output_nr, hook)
        if self._hooks is None:
            self._hooks = _HookDict()
        return _add_hook(self._hooks, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """Run ``hook(self)`` each time backward has accumulated a gradient into ``self.grad``
        (leaves only)."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                               "tensors")
        hooks = self.__dict__.get("_post_accumulate_grad_hooks")
        if hooks is None:
            hooks = self._post_accumulate_grad_hooks = _HookDict()
        return _add_hook(hooks, hook)

    def _grad_accumulator(self) -> AccumulateGrad:
        acc = self._acc() if self._acc is not None else None
        if acc is None:
            acc = AccumulateGrad(self)
            self._acc = weakref.ref(acc)
        return acc

    def _edge(self):
        """The edge an op's node keeps to this input: ``(node, input_nr)``."""
        if self.grad_fn is not None:
            return (self.grad_fn, self._output_nr)
        if self._requires_grad:
            return (self._grad_accumulator(), 0)
        return (None, 0)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Accumulate the gradient of this tensor into the ``.grad`` of the graph's leaves."""
        _autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    @property
    def data(self) -> Tensor:
        """The same storage, cut from autograd, with a version counter of its own."""
        t = Tensor._wrap(self._data)
        return t

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if (value._data.__class__ is MetaArray) is not (self._data.__class__ is MetaArray):
            raise RuntimeError("Attempted to call `variable.set_data(tensor)`, but `variable` "
                               "and `tensor` have incompatible tensor type.")
        if self.requires_grad and not (value.is_floating_point() or value.is_complex()):
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        self._data = value._data

    def detach(self) -> Tensor:
        """A tensor sharing storage and version counter, cut from the graph."""
        t = Tensor._wrap(self._data)
        t._vc = self._vc
        if CONJ and self in CONJ:
            CONJ.add(t)
        return t

    def detach_(self) -> Tensor:
        """Cut this tensor from the graph in place, making it a leaf (not for a view)."""
        if self._base is not None:
            raise RuntimeError(_errors.DETACH_VIEW_INPLACE)
        self.grad_fn = None
        self._requires_grad = False
        self._output_nr = 0
        return self

    # ----- conversion to Python and NumPy
    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The NumPy array behind this tensor (shared memory)."""
        if self.requires_grad and not force and grad_mode._state.enabled:
            raise RuntimeError(_errors.NUMPY_GRAD)     # (torch allows it under no_grad)
        if CONJ and self in CONJ and not force:
            raise RuntimeError("Can't call numpy() on Tensor that has conjugate bit set. Use "
                               "tensor.resolve_conj().numpy() instead.")
        if grad_mode._state.vmap is not None:
            self._read_in_vmap(_errors.VMAP_NO_STORAGE)
        if self._data.dtype in D.REDUCED:
            raise TypeError(f"Got unsupported ScalarType {self.dtype.scalar_name}")
        if self._data.__class__ is MetaArray:
            raise TypeError(_errors.META_NUMPY)
        return self._data.view()      # a new array each call, as torch's (its shape is its own)

    def __array_wrap__(self, array):
        """NumPy's result of an operator the tensor deferred to (``t * ndarray``), as a tensor;
        torch's signature (NumPy 2 warns that it takes no ``context``), bool as uint8."""
        if array.dtype == bool:
            array = array.astype("uint8")
        from ._factories import from_numpy
        return from_numpy(np.asarray(array))

    def __array__(self, dtype=None, copy=None):
        if self._data.__class__ is MetaArray:
            raise TypeError(_errors.META_NUMPY)
        if self._data.dtype in D.REDUCED:
            raise TypeError(f"Got unsupported ScalarType {self.dtype.scalar_name}")
        if self.requires_grad and grad_mode._state.enabled:
            raise RuntimeError(_errors.NUMPY_GRAD)
        return self._data if dtype is None else self._data.astype(dtype)

    def _read_in_vmap(self, message=_errors.VMAP_ITEM):
        """Inside vmap: torch's error for reading a batched slice's values; the other reads
        are counted (a function that returns such a number read one)."""
        frame = grad_mode._state.vmap
        if id(self) in frame.slices:
            raise RuntimeError(message)
        frame.reads += 1

    def item(self):
        """The single element as a Python number."""
        if grad_mode._state.vmap is not None:
            self._read_in_vmap()
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted "
                               "to Scalar")
        if self._data.__class__ is MetaArray:
            raise RuntimeError(_errors.META_ITEM)
        return self._data.reshape(()).item()

    def tolist(self):
        if grad_mode._state.vmap is not None:
            self._read_in_vmap(_errors.VMAP_NO_STORAGE)
        if self._data.__class__ is MetaArray:
            raise NotImplementedError(_errors.META_COPY)
        return self._data.tolist()

    def _scalar(self, kind):
        if grad_mode._state.vmap is not None:
            self._read_in_vmap()
        if self._data.size != 1:
            raise _refused(ValueError("only one element tensors can be converted to Python "
                                      "scalars"))
        if self._data.__class__ is MetaArray:
            raise RuntimeError(_errors.META_ITEM)
        return kind(self._data.reshape(()).item())

    def __float__(self) -> float:
        _warn_scalar_of_grad(self)
        return self._scalar(float)

    def __int__(self) -> int:
        return self._scalar(int)

    def __complex__(self) -> complex:
        _warn_scalar_of_grad(self)
        return self._scalar(complex)

    def __index__(self) -> int:
        if self._data.size != 1 or self.dtype.is_floating_point or self.dtype.is_complex:
            raise _refused(TypeError("only integer tensors of a single element can be converted "
                                     "to an index"))
        if self._data.__class__ is MetaArray:
            raise RuntimeError(_errors.META_ITEM)
        return int(self._data.reshape(()).item())

    def __bool__(self) -> bool:
        if grad_mode._state.vmap is not None:
            self._read_in_vmap(_errors.VMAP_CONTROL_FLOW)
        n = self._data.size
        if n == 0:
            raise _refused(RuntimeError("Boolean value of Tensor with no values is ambiguous"))
        if n > 1:
            raise _refused(RuntimeError("Boolean value of Tensor with more than one value is "
                                        "ambiguous"))
        if self._data.__class__ is MetaArray:
            raise RuntimeError(_errors.META_ITEM)
        return bool(self._data.reshape(()).item())

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        # (torch's reads dim() through its public method: a subclass's __torch_function__
        # sees that call, though not one for __iter__ itself)
        if (self._data.ndim if self.__class__ is Tensor else self.dim()) == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self, *, tensor_contents=None) -> str:
        from ._printing import format_tensor
        try:
            gf = self.grad_fn
            name = type(gf).__name__ if gf is not None else None     # as torch prints it
            if name == "CppFunction":       # a C++ node without a class of its own in torch
                name = gf.name().rsplit("::", 1)[-1]
        except RuntimeError:    # a view that may not follow its base's write (torch's repr)
            name = "Invalid"
        cls = type(self)
        plain = cls is Tensor or cls is _StaleView or cls.__dict__.get("_is_param", False)
        return format_tensor(self._data, self.dtype.name,
                             default_dtype_name=D.get_default_dtype().name,
                             grad_fn_name=name,
                             requires_grad=self.requires_grad,
                             is_parameter=getattr(self, "_is_param", False),
                             prefix="tensor(" if plain else cls.__name__ + "(",
                             parameter_class=any("_is_param" in c.__dict__
                                                 for c in cls.__mro__),
                             meta=self._data.__class__ is MetaArray)

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0 and self._data.__class__ is not MetaArray:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __deepcopy__(self, memo):
        if not self.is_leaf:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) "
                               "support the deepcopy protocol at the moment.  If you were "
                               "attempting to deepcopy a module, this may be because of a "
                               "torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        if id(self) in memo:
            return memo[id(self)]
        cls = type(self)
        if cls is not Tensor and cls is not _StaleView and \
                getattr(cls, "__torch_function__", None) is not _disabled_torch_function_impl \
                and type(self.new_empty([])) is not cls:
            raise RuntimeError(_errors.SUBCLASS_DEEPCOPY)
        data = _meta.copy(self._data)
        new = cls.__new__(cls, data) if cls is not Tensor and cls is not _StaleView \
            else Tensor._wrap(data)
        new._requires_grad = self._requires_grad
        if self._grad is not None:
            new._grad = self._grad.__deepcopy__(memo)
        new.__dict__.update({k: v for k, v in self.__dict__.items()})
        memo[id(self)] = new
        return new

    def __reduce_ex__(self, protocol):
        return (_rebuild, (self._data.copy(), self.requires_grad))

    # ----- dtype / device conversion
    def to(self, *args, **kwargs) -> Tensor:
        """Convert dtype and/or device: ``to(dtype)``, ``to('cpu')``, ``to(other)``."""
        from ._factories import parse_to_device
        fmt = kwargs.pop("memory_format", None)
        dtype, copy, device = parse_to_device(args, kwargs)
        if device is not None and (device is META) is not (self._data.__class__ is MetaArray):
            if device is not META:
                raise NotImplementedError(_errors.META_COPY)
            from ._meta import like
            from ._ops import _to_copy
            out = _to_copy(self, self.dtype if dtype is None else dtype)
            out._data = like(out._data)
            return out
        if fmt is not None and fmt.name != "preserve_format":
            same = dtype is None or dtype is self.dtype
            if same and not copy and _mf.suggest(self._data) is fmt:
                _mf._check_rank(self.ndim, fmt)
                return self             # (torch's to_will_alias)
            out = self if same else self.to(dtype)
            if copy and out is self:
                return self.clone(memory_format=fmt)
            return out.contiguous(memory_format=fmt)
        if dtype is None or dtype is self.dtype:
            return self.clone() if copy else self
        from ._ops import _to_copy
        return _to_copy(self, dtype)

    def cpu(self, memory_format=None) -> Tensor:
        if self._data.__class__ is MetaArray:
            raise NotImplementedError(_errors.META_COPY)
        return self

    def cuda(self, *args, **kwargs):
        from ._device import check
        check("cuda")

    def type(self, dtype=None, non_blocking=False, **kwargs):
        """Without arguments the type name (``'torch.FloatTensor'``); else convert."""
        if dtype is None:
            layout = self.layout
            if layout is _STRIDED:
                return "torch." + self.dtype._legacy
            if layout.name == "sparse_coo":
                return "torch.sparse." + self.dtype._legacy
            raise RuntimeError("Unimplemented backend SparseCsrCPU")
        from . import _legacy
        if isinstance(dtype, str):
            legacy = dtype.rsplit(".", 1)[-1]
            match = [d for d in D.ALL if d._legacy == legacy]
            if match and dtype == "torch.cuda." + legacy:
                raise RuntimeError(_legacy.CUDA_NOT_LOADED)
            if not match or dtype != "torch." + legacy:
                raise ValueError(f"invalid type: '{dtype}'")
            dtype = match[0]
        elif isinstance(dtype, _legacy.tensortype):
            dtype = dtype.dtype
        elif isinstance(dtype, type) and getattr(dtype, "is_cuda", False):
            raise RuntimeError(_legacy.CUDA_NOT_LOADED)
        elif not isinstance(dtype, D.dtype):
            raise TypeError("dtype must be a type, str, or dtype object")
        return self.to(dtype)

    def type_as(self, other: Tensor) -> Tensor:
        return self.to(other.dtype)

    def float(self, memory_format=None) -> Tensor:
        return self.to(D.float32)

    def double(self, memory_format=None) -> Tensor:
        return self.to(D.float64)

    def half(self, memory_format=None) -> Tensor:
        return self.to(D.float16)

    def bfloat16(self, memory_format=None) -> Tensor:
        return self.to(D.bfloat16)

    def long(self, memory_format=None) -> Tensor:
        return self.to(D.int64)

    def int(self, memory_format=None) -> Tensor:
        return self.to(D.int32)

    def short(self, memory_format=None) -> Tensor:
        return self.to(D.int16)

    def char(self, memory_format=None) -> Tensor:
        return self.to(D.int8)

    def byte(self, memory_format=None) -> Tensor:
        return self.to(D.uint8)

    def bool(self, memory_format=None) -> Tensor:
        return self.to(D.bool)

    def cfloat(self) -> Tensor:
        return self.to(D.complex64)

    def cdouble(self) -> Tensor:
        return self.to(D.complex128)

    def contiguous(self, memory_format=None) -> Tensor:
        """Self when already contiguous in ``memory_format``, else a copy laid out so
        (``CloneBackward0``)."""
        if memory_format is None or memory_format.name in ("contiguous_format",
                                                           "preserve_format"):
            if self._data.flags.c_contiguous:
                return self
            from ._memory_format import contiguous_format
            return self.clone(memory_format=contiguous_format)
        from ._memory_format import _check_rank, is_contiguous
        _check_rank(self._data.ndim, memory_format)
        if is_contiguous(self._data, memory_format):
            return self
        return self.clone(memory_format=memory_format)

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False, layout=None,
                   pin_memory=False) -> Tensor:
        from ._factories import copy_of, warn_copy_construct
        if isinstance(data, Tensor):
            warn_copy_construct("tensor.new_tensor")
        return copy_of(data, dtype or self.dtype, requires_grad,
                       self.device if device is None else device)

    def _new_size(self, sizes: tuple, size, device, name: str):
        """``new_zeros``/``new_ones``/``new_empty``'s shape and device, checked in torch's
        order: the arguments' types, then the device, then the sizes' signs."""
        from . import _device
        from ._factories import _sizes
        from ._ops.util import as_size
        sizes = _sizes(sizes, size, name)
        dev = self.device if device is None else _device.check(device)
        return as_size(sizes), dev

    def new_zeros(self, *sizes, size=None, dtype=None, device=None, requires_grad=False,
                  layout=None, pin_memory=False) -> Tensor:
        from ._factories import zeros
        shape, dev = self._new_size(sizes, size, device, "new_zeros")
        return zeros(shape, dtype=dtype or self.dtype, requires_grad=requires_grad, device=dev)

    def new_ones(self, *sizes, size=None, dtype=None, device=None, requires_grad=False,
                  layout=None, pin_memory=False) -> Tensor:
        from ._factories import ones
        shape, dev = self._new_size(sizes, size, device, "new_ones")
        return ones(shape, dtype=dtype or self.dtype, requires_grad=requires_grad, device=dev)

    def new_empty(self, *sizes, size=None, dtype=None, device=None, requires_grad=False,
                  layout=None, pin_memory=False) -> Tensor:
        from ._factories import empty
        shape, dev = self._new_size(sizes, size, device, "new_empty")
        return empty(shape, dtype=dtype or self.dtype, requires_grad=requires_grad, device=dev)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False,
                 layout=None, pin_memory=False) -> Tensor:
        from ._factories import full
        return full(size, fill_value, dtype=dtype or self.dtype, requires_grad=requires_grad,
                    device=self.device if device is None else device)

    # ----- operators: thin, they call the ops
    def __add__(self, other):
        try:
            return _ops.add(self, other)
        except _ArgTypeError:
            return NotImplemented

    def __radd__(self, other):
        try:
            return _ops.add(self, other)
        except _ArgTypeError:
            return NotImplemented

    def __iadd__(self, other):
        return self.add_(other)

    def __sub__(self, other):
        try:
            return _ops.sub(self, other)
        except _ArgTypeError:
            return NotImplemented

    def __rsub__(self, other):
        try:
            return _ops.rsub(self, other)
        except _ArgTypeError:
            return NotImplemented

    def __isub__(self, other):
        return self.sub_(other)

    def __mul__(self, other):
        try:
            return _ops.mul(self, other)
        except _ArgTypeError:
            return NotImplemented

    def __rmul__(self, other):
        try:
            return _ops.mul(self, other)
        except _ArgTypeError:
            return NotImplemented

    def __imul__(self, other):
        return self.mul_(other)

    def __truediv__(self, other):
        try:
            return _ops.div(self, other)
        except _ArgTypeError:
            return NotImplemented

    def __rtruediv__(self, other):
        try:
            return _ops.mul(_ops.reciprocal(self), other)
        except _ArgTypeError:
            return NotImplemented

    def __itruediv__(self, other):
        return self.div_(other)

    __idiv__ = __itruediv__

    def __ifloordiv__(self, other):
        return self.floor_divide_(other)

    def __imod__(self, other):
        return self.remainder_(other)

    def __iand__(self, other):
        return self.bitwise_and_(other)

    def __ior__(self, other):
        return self.bitwise_or_(other)

    def __ixor__(self, other):
        return self.bitwise_xor_(other)

    def __floordiv__(self, other):
        try:
            return _ops.floor_divide(self, other)
        except _ArgTypeError:
            return NotImplemented

    def __rfloordiv__(self, other):
        try:
            return _ops.floor_divide(_ops.scalar_tensor_like(other, self), self)
        except _ArgTypeError:
            return NotImplemented

    def __mod__(self, other):
        try:
            return _ops.remainder(self, other)
        except _ArgTypeError:
            return NotImplemented

    def __rmod__(self, other):
        try:
            return _ops.remainder(other, self)     # remainder(Scalar, Tensor): NotImplemented
        except _ArgTypeError:
            return NotImplemented

    def __pow__(self, exponent):
        try:
            return _ops.pow(self, exponent)
        except _ArgTypeError:
            return NotImplemented

    def __rpow__(self, other):
        try:
            return _ops.pow(other, self)
        except _ArgTypeError:
            return NotImplemented

    def __ipow__(self, exponent):
        return self.pow_(exponent)

    def __matmul__(self, other):
        try:
            return _ops.matmul(self, other)
        except _ArgTypeError:
            return NotImplemented

    def __rmatmul__(self, other):
        try:
            return _ops.matmul(other, self)
        except _ArgTypeError:
            return NotImplemented

    def __neg__(self):
        return _ops.neg(self)

    def __pos__(self):
        if self._data.dtype == np.bool_:
            raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
        return self

    def __abs__(self):
        return _ops.abs(self)

    def __invert__(self):
        if self._data.dtype.kind not in "biu":       # torch's Python binding checks first
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                            "tensors")
        return _ops.bitwise_not(self)

    def __and__(self, other):
        try:
            return _ops.bitwise_and(self, other)
        except _ArgTypeError:
            return NotImplemented

    __rand__ = __and__

    def __or__(self, other):
        try:
            return _ops.bitwise_or(self, other)
        except _ArgTypeError:
            return NotImplemented

    __ror__ = __or__

    def __xor__(self, other):
        try:
            return _ops.bitwise_xor(self, other)
        except _ArgTypeError:
            return NotImplemented

    __rxor__ = __xor__

    def __eq__(self, other):
        try:
            return _ops.eq(self, other)
        except _ArgTypeError:
            return NotImplemented

    def __ne__(self, other):
        try:
            return _ops.ne(self, other)
        except _ArgTypeError:
            return NotImplemented

    def __lt__(self, other):
        try:
            return _ops.lt(self, other)
        except _ArgTypeError:
            return NotImplemented

    def __le__(self, other):
        try:
            return _ops.le(self, other)
        except _ArgTypeError:
            return NotImplemented

    def __gt__(self, other):
        try:
            return _ops.gt(self, other)
        except _ArgTypeError:
            return NotImplemented

    def __ge__(self, other):
        try:
            return _ops.ge(self, other)
        except _ArgTypeError:
            return NotImplemented

    def __getitem__(self, index):
        return _ops.getitem(self, index)

    def __setitem__(self, index, value):
        _ops.setitem(self, index, value)

    @property
    def T(self) -> Tensor:
        if self._data.ndim != 2:
            _warn_reversed_t(self._data.ndim)
        return _ops.permute(self, tuple(range(self._data.ndim - 1, -1, -1)))

    @property
    def mT(self) -> Tensor:
        return _ops.transpose(self, -2, -1)


_gf_get = Tensor.grad_fn.__get__
_gf_set = Tensor.grad_fn.__set__


def _stale_grad_fn(self):
    from ._ops.views import regenerate
    return regenerate(self)


def _fresh_grad_fn(self, fn):
    _gf_set(self, fn)
    self.__class__ = Tensor
    self._watch()


_t_warned = {0: False, "other": False}


def _warn_reversed_t(ndim: int) -> None:
    """torch's two ``TORCH_WARN_ONCE`` of ``x.T`` on a tensor that is not a matrix (the 0-d
    one first, on a 0-d tensor; either warns once per process)."""
    import warnings
    if ndim == 0 and not _t_warned[0]:
        _t_warned[0] = True
        warnings.warn(_errors.internal(
            "Tensor.T is deprecated on 0-D tensors. This function is the identity in these "
            "cases.", "aten/src/ATen/native/TensorShape.cpp:4321"), UserWarning, stacklevel=3)
    elif not _t_warned["other"]:
        _t_warned["other"] = True
        warnings.warn(_errors.internal(
            "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
            "deprecated and it will throw an error in a future release. Consider `x.mT` to "
            "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
            "reverse the dimensions of a tensor.", "aten/src/ATen/native/TensorShape.cpp:4314"),
            UserWarning, stacklevel=3)


_scalar_of_grad_warned = False


def _warn_scalar_of_grad(t: Tensor) -> None:
    """torch's ``TORCH_WARN_ONCE`` of ``float()``/``complex()`` on a tensor that requires grad
    while grad mode is on (``int()``, ``bool()`` and ``item()`` do not warn)."""
    global _scalar_of_grad_warned
    if not _scalar_of_grad_warned and grad_mode._state.enabled and t.requires_grad:
        _scalar_of_grad_warned = True
        warnings.warn(_errors.SCALAR_OF_GRAD_WARNING, UserWarning, stacklevel=3)


def _stale_requires_grad(self):
    # torch's DifferentiableViewMeta::requires_grad: no regeneration, the base counts
    return self._requires_grad or _gf_get(self) is not None or self._base.requires_grad


class _StaleView(Tensor):
    """A float view whose base was written since its ``grad_fn`` was set.

    Reading ``grad_fn`` regenerates it (torch's ``VariableHooks::grad_fn``) and turns the view
    back into a plain :class:`Tensor`; setting it makes the view current again.
    """

    __slots__ = ()
    __torch_function__ = _disabled_torch_function_impl
    grad_fn = property(_stale_grad_fn, _fresh_grad_fn)
    requires_grad = property(_stale_requires_grad, Tensor.requires_grad.fset)


_StaleView.__name__ = _StaleView.__qualname__ = "Tensor"


def _rebuild(data, requires_grad):
    t = Tensor._wrap(data)
    t._requires_grad = requires_grad
    return t


Tensor.__module__ = Size.__module__ = __package__     # ``<class 'ember.Tensor'>``, as torch's

from . import _ops  # noqa: E402  (the ops install themselves on Tensor; imported last)

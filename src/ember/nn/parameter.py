"""``nn.Parameter``: a Tensor that a Module registers as one of its parameters.

A Parameter shares its data with the tensor it was made from (as in torch), is a leaf and
requires grad by default. Operations on a Parameter return plain Tensors.
"""

from __future__ import annotations

import numpy as _np

from .. import _errors, _meta
from .. import _factories as _Fac
from .._tensor import Tensor as _Tensor
from .._tensor import _disabled_torch_function_impl


class _ParameterMeta(type):
    """``isinstance(t, Parameter)`` is also True for a Tensor subclass's instance made a
    parameter (``Parameter(sub)`` marks it ``_is_param``), as in torch."""

    def __instancecheck__(cls, instance) -> bool:
        if cls is Parameter and isinstance(instance, _Tensor) \
                and getattr(instance, "_is_param", False):
            return True
        return super().__instancecheck__(instance)


class Parameter(_Tensor, metaclass=_ParameterMeta):
    """A tensor that is a module parameter; prints as ``Parameter containing:``.

    A Tensor subclass's instance stays of its class: ``Parameter(sub)`` is ``sub.detach()``
    marked as a parameter (``_is_param``), as torch makes it.

    >>> import ember
    >>> p = ember.nn.Parameter(ember.zeros(2))
    >>> p.requires_grad
    True
    """

    __torch_function__ = _disabled_torch_function_impl

    _is_param = True

    def __new__(cls, data: _Tensor | _np.ndarray | None = None, requires_grad: bool = True):
        make = getattr(type(data), "_as_parameter", None)
        if make is not None:        # a tensor subclass with parameters of its own (DTensor)
            return make(data, requires_grad)
        if data is None:
            arr = _np.empty((0,), dtype=_np.float32)
        elif isinstance(data, _Tensor) and type(data) is not _Tensor \
                and type(data) is not Parameter:
            return _subclass_parameter(data, requires_grad)
        elif isinstance(data, _Tensor):
            arr = data._data
        else:
            arr = _np.asarray(data)
        t = _Tensor._wrap.__func__(cls, arr)
        if isinstance(data, _Tensor):
            t._vc = data._vc
        if requires_grad:
            if not (t.dtype.is_floating_point or t.dtype.is_complex):
                raise RuntimeError(_errors.INT_REQUIRES_GRAD_FACTORY)
            t.requires_grad_(True)
        return t

    def __init__(self, data=None, requires_grad: bool = True) -> None:
        pass

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        new = Parameter(_Tensor._wrap(_meta.copy(self._data)), self.requires_grad)
        if self._grad is not None:
            new._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = new
        return new

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (self._data.copy(), self.requires_grad))


def _subclass_parameter(data: _Tensor, requires_grad: bool) -> _Tensor:
    t = data.detach().requires_grad_(requires_grad)
    if type(t) is not type(data):
        raise RuntimeError(
            f"Creating a Parameter from an instance of type {type(data).__name__} requires that "
            f"detach() returns an instance of the same type, but return type {type(t).__name__} "
            "was found instead. To use the type as a Parameter, please correct the detach() "
            "semantics defined by its __torch_dispatch__() implementation.")
    t._is_param = True
    return t


def _rebuild_parameter(data, requires_grad):
    return Parameter(_Tensor._wrap(data), requires_grad)


class Buffer(_Tensor):
    """Marker type: ``nn.Buffer(t)`` assigned to a Module registers ``t`` as a buffer."""

    __torch_function__ = _disabled_torch_function_impl

    def __new__(cls, data: _Tensor | None = None, *, persistent: bool = True):
        t = data if data is not None else _Tensor._wrap(_np.empty((0,), _np.float32))
        t = t.detach()
        t._buffer_persistent = persistent
        return t


# torch's UninitializedTensorMixin._allowed_methods (by name)
_LAZY_ALLOWED = frozenset({"size", "copy_", "is_complex", "is_floating_point", "half", "float",
                           "double", "char", "short", "int", "long", "cuda", "cpu", "to",
                           "get_device", "materialize", "share_memory_"})


class UninitializedTensorMixin:
    """A parameter or buffer whose shape is not known yet (a lazy module's, before its first call).

    Only dtype/device conversions and :meth:`materialize` work on it; any other tensor method
    raises torch's ``ValueError`` and ``.shape`` raises its ``RuntimeError``.
    """

    __slots__ = ()
    cls_to_become: type

    def __getattribute__(self, name: str):
        if name[:1] != "_" and name not in _LAZY_ALLOWED and callable(getattr(_Tensor, name, None)):
            cls = type(self).__name__
            raise ValueError(
                f"Attempted to use an uninitialized parameter in <method '{name}' of "
                "'torch._C.TensorBase' objects>. This error happens when you are using a "
                "`LazyModule` or explicitly manipulating `torch.nn.parameter."
                f"{cls}` objects. When using LazyModules Call `forward` with a dummy batch "
                "to initialize the parameters before calling torch functions")
        return object.__getattribute__(self, name)

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Give the tensor ``shape`` (keeping its dtype unless ``dtype``) and turn it into
        ``cls_to_become`` (``Parameter`` or ``Tensor``) in place."""
        self.data = _Fac.empty(shape, dtype=self.dtype if dtype is None else dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually "
            "happens in `load_state_dict` when trying to load an uninitialized parameter into "
            "an initialized one. Call `forward` to initialize the parameters before accessing "
            "their attributes.")

    def share_memory_(self):
        raise RuntimeError(
            "Can't share memory on an uninitialized parameter or buffer. Call `forward` to "
            "initialize the parameters before calling `module.share_memory()`.")

    def __repr__(self) -> str:
        return f"<{self.__class__.__name__}>"

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        return (self.__class__, (self.requires_grad,))

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.requires_grad, None, self.dtype)
        memo[id(self)] = result
        return result


def is_lazy(param) -> bool:
    """Whether ``param`` is an ``UninitializedParameter`` or ``UninitializedBuffer``."""
    return isinstance(param, UninitializedTensorMixin)


def _empty_data(device, dtype) -> _np.ndarray:
    return _Fac.empty(0, device=device, dtype=dtype)._data


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A Parameter of unknown shape; :meth:`materialize` makes it a ``Parameter``."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad: bool = True, device=None, dtype=None):
        t = _Tensor._wrap.__func__(cls, _empty_data(device, dtype))
        t._requires_grad = bool(requires_grad)
        return t

    def __init__(self, requires_grad: bool = True, device=None, dtype=None) -> None:
        pass


class UninitializedBuffer(UninitializedTensorMixin, _Tensor):
    """A buffer of unknown shape; :meth:`materialize` makes it a plain ``Tensor``."""

    __torch_function__ = _disabled_torch_function_impl

    cls_to_become = _Tensor

    def __new__(cls, requires_grad: bool = False, device=None, dtype=None,
                persistent: bool = True):
        t = _Tensor._wrap.__func__(cls, _empty_data(device, dtype))
        t._requires_grad = bool(requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        t._buffer_persistent = persistent      # registers it when assigned to a Module
        return t

    def __init__(self, requires_grad: bool = False, device=None, dtype=None,
                 persistent: bool = True) -> None:
        pass


del annotations  # keep dir() to torch's names

"""``torch.overrides``: the ``__torch_function__`` protocol, by which Tensor subclasses, tensor-like
types and modes take over torch's functions.

A call of a public function (``torch.add``, ``Tensor.add``, ``F.relu``, ``x + y``, ``x.shape``)
whose arguments include an object whose type defines ``__torch_function__`` (a Tensor subclass,
or any class: a "tensor-like"), or made while a :class:`TorchFunctionMode` is active, is handed
to the mode and then to those types, in torch's order (subclasses before their bases, else left
to right): ``__torch_function__(func, types, args, kwargs)``, the first result other than
``NotImplemented`` being the call's result. ``Tensor.__torch_function__`` itself runs the
function with subclass dispatch off and turns the tensors it returns into the subclass.

Nothing of this costs a plain program anything. Dispatch is switched on by the first Tensor
subclass that keeps ``__torch_function__`` (``nn.Parameter`` and Ember's own subclasses turn
it off), or the first mode entered: from then on the op runners look at their arguments, and
the Python-level public functions (``ember.nn.functional``, ``Tensor``'s methods and
properties, the hand-written ``ember.*`` functions) are replaced by dispatching wrappers
(names from torch's lists: ``tools/overridable_names.py``). A tensor-like that is not a
Tensor needs no switch where an op, or a function taking ``dim``, raises on it: its error path
hands the call over; the other Python-level functions see it once dispatch is on.
"""

from __future__ import annotations

import functools
import sys

from ._tensor import Tensor as _TensorCls  # (a private name: dir() stays torch's)
from ._tensor import _disabled_torch_function_impl

__all__ = ["TorchFunctionMode", "enable_reentrant_dispatch", "get_default_nowrap_functions",
           "get_ignored_functions", "get_overridable_functions", "handle_torch_function",
           "has_torch_function", "has_torch_function_unary", "has_torch_function_variadic",
           "is_tensor_like", "is_tensor_method_or_property", "resolve_name",
           "wrap_torch_function"]


class _State:
    """Dispatch state: nesting depth of the disabling blocks, the mode stack, whether the
    dispatching paths are installed, and how often a package rebound the namespaces' functions
    (``ember.masked`` routes some through its own; caches of them key on the count)."""

    __slots__ = ("subclass_off", "all_off", "modes", "active", "rebinds")

    def __init__(self):
        self.subclass_off = 0
        self.all_off = 0
        self.modes: list = []
        self.active = False
        self.rebinds = 0


_S = _State()


class _DisableTorchFunctionSubclass:
    """A block in which Tensor subclasses' ``__torch_function__`` is not called (modes and
    tensor-likes that are not Tensors still are)."""

    __slots__ = ()

    def __enter__(self):
        _S.subclass_off += 1
        return self

    def __exit__(self, *exc):
        _S.subclass_off -= 1
        return False


# torch's name and home (torch._C) for it
_DisableTorchFunctionSubclass.__name__ = "DisableTorchFunctionSubclass"
_DisableTorchFunctionSubclass.__qualname__ = "DisableTorchFunctionSubclass"
_DisableTorchFunctionSubclass.__module__ = __package__ + "._C"


class _DisableTorchFunction:
    """A block in which no ``__torch_function__`` is called, modes' included."""

    __slots__ = ()

    def __enter__(self):
        _S.all_off += 1
        return self

    def __exit__(self, *exc):
        _S.all_off -= 1
        return False


def _is_torch_function_enabled() -> bool:
    return not _S.all_off and not _S.subclass_off


def _is_torch_function_mode_enabled() -> bool:
    return not _S.all_off and bool(_S.modes)


# ----------------------------------------------------------------------------- the arguments

_PLAIN_TYPES = (int, float, bool, complex, str, type(None))


def _overrides(obj) -> bool:
    """Whether ``obj``'s type takes part in dispatch now."""
    cls = obj.__class__
    if cls in _PLAIN_TYPES or cls is _TensorCls:
        return False
    tf = getattr(cls, "__torch_function__", None)
    if tf is None or tf is _disabled_torch_function_impl:
        return False
    if _S.subclass_off and isinstance(obj, _TensorCls):
        return False
    return True


def _get_overloaded_args(relevant_args, get_type_fn=None) -> list:
    """The arguments whose types define ``__torch_function__``, one per type, in the order
    torch calls them: a subclass before its base class, otherwise left to right (lists and
    tuples searched one level deep)."""
    if _S.all_off:
        return []
    seen: list = []
    found: list = []
    for arg in _flat(relevant_args):
        if not _overrides(arg):
            continue
        cls = arg.__class__ if get_type_fn is None else get_type_fn(arg)
        if cls in seen:
            continue
        seen.append(cls)
        index = len(found)
        for i, other in enumerate(found):
            if issubclass(cls, other.__class__ if get_type_fn is None else get_type_fn(other)):
                index = i
                break
        found.insert(index, arg)
    return found


def _flat(values):
    for v in values:
        if v.__class__ is list or v.__class__ is tuple:
            yield from v
        else:
            yield v


def has_torch_function(relevant_args) -> bool:
    """Whether any of ``relevant_args`` (or a mode) asks for ``__torch_function__`` dispatch."""
    return _is_torch_function_mode_enabled() or bool(_get_overloaded_args(relevant_args))


def has_torch_function_unary(arg) -> bool:
    """:func:`has_torch_function` of the one argument ``arg``."""
    return has_torch_function((arg,))


def has_torch_function_variadic(*args) -> bool:
    """:func:`has_torch_function` of ``args``."""
    return has_torch_function(args)


def is_tensor_like(inp) -> bool:
    """Whether ``inp`` is a Tensor or has a ``__torch_function__`` (torch's "tensor-like")."""
    return isinstance(inp, _TensorCls) or hasattr(type(inp), "__torch_function__")


# ----------------------------------------------------------------------------- dispatching

def _public_name(func) -> str:
    """torch's dotted name of a public function, for its messages."""
    name = getattr(func, "__name__", None)
    for space, prefix in (("ember", "torch"), ("ember.nn.functional", "torch.nn.functional")):
        ns = sys.modules.get(space)
        if name and ns is not None and vars(ns).get(name) is func:
            return f"{prefix}.{name}"
    if name and getattr(_TensorCls, name, None) is func:
        return f"torch.Tensor.{name}"
    module = getattr(func, "__module__", None) or ""
    name = getattr(func, "__qualname__", None) or getattr(func, "__name__", repr(func))
    if module == "ember" or module.startswith("ember."):
        module = "torch" + module[5:]
    return f"{module}.{name}" if module else name


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Call the active mode's and then the overloading types' ``__torch_function__`` for the
    call ``public_api(*args, **kwargs)``; the first result that is not ``NotImplemented``."""
    return _handle(public_api, _get_overloaded_args(relevant_args), args, kwargs, False)


def _handle(func, overloaded, args, kwargs, native):
    types = tuple(a.__class__ for a in overloaded)
    if _S.modes and not _S.all_off:
        mode = _S.modes.pop()
        try:
            result = mode.__torch_function__(func, types, args, kwargs)
        finally:
            _S.modes.append(mode)
        if result is not NotImplemented:
            return result
    for arg in overloaded:
        result = arg.__class__.__torch_function__(func, types, args, kwargs)
        if result is not NotImplemented:
            return result
    name = _public_name(func)
    if native:
        from . import _errors
        lines = "".join(f"  - {'tensor subclass' if _is_tensor(a) else 'tensor-like'} "
                        f"{a.__class__}\n" for a in overloaded)
        if _S.modes and not _S.all_off:
            lines = f"  - mode object {_S.modes[-1]!r}\n" + lines
        raise _errors.ArgTypeError(
            f"Multiple dispatch failed for '{name}'; all __torch_function__ handlers returned "
            f"NotImplemented:\n\n{lines}\nFor more information, try re-running with "
            "TORCH_LOGS=not_implemented")
    raise TypeError(f"no implementation found for '{name}' on types that implement "
                    f"__torch_function__: {[a.__class__ for a in overloaded]}")


def _is_tensor(obj) -> bool:
    return isinstance(obj, _TensorCls)


def wrap_torch_function(dispatcher):
    """Decorator: the function hands its calls to ``__torch_function__`` when
    ``dispatcher(*args, **kwargs)`` (the relevant arguments) asks for it."""
    def inner(func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            relevant = dispatcher(*args, **kwargs)
            if has_torch_function(relevant):
                return handle_torch_function(wrapped, relevant, *args, **kwargs)
            return func(*args, **kwargs)
        return wrapped
    return inner


def get_default_nowrap_functions() -> set:
    """The functions whose results ``Tensor.__torch_function__`` returns as they are (not
    turned into the subclass): the getters of ``_base``, ``grad`` and ``_grad``."""
    T = _TensorCls
    return {_getter(T, "_base"), _getter(T, "grad"), _getter(T, "_grad")}


def _getter(cls, name):
    prop = cls.__dict__.get(name)
    return prop.fget if isinstance(prop, property) else prop


def get_overridable_functions() -> dict:
    """The functions that hand their calls to ``__torch_function__``, by namespace (a
    module, or ``Tensor`` for its methods and property getters)."""
    from . import _overridable
    T = _TensorCls
    out: dict = {}
    for module, names in _overridable.FUNCTIONS.items():
        ns = sys.modules.get(module) or __import__(module, fromlist=["_"])
        out[ns] = [f for f in (getattr(ns, n, None) for n in names) if callable(f)]
    methods = []
    for n in (*_overridable.METHODS, *_overridable.PROPERTIES):
        v = getattr(T, n, None) if n not in vars(T) else vars(T)[n]
        if isinstance(v, property):
            v = v.fget
        if callable(v):
            methods.append(v)
    out[T] = methods
    return out


def get_ignored_functions() -> set:
    """The public functions that take no part in ``__torch_function__`` (those without
    tensor arguments, the factories, which only a mode sees, among them)."""
    package = sys.modules[__package__]
    overridable = {id(f) for fs in get_overridable_functions().values() for f in fs}
    return {v for k, v in vars(package).items() if not k.startswith("_") and callable(v)
            and not isinstance(v, type) and id(v) not in overridable}


def resolve_name(f) -> str | None:
    """torch's dotted name of the public function ``f`` (``"torch.add"``), or None."""
    name = _public_name(f)
    return name if name.startswith("torch.") else None


def is_tensor_method_or_property(func) -> bool:
    """Whether ``func`` is one of Tensor's methods or property getters."""
    T = _TensorCls
    for v in vars(T).values():
        if v is func or (isinstance(v, property) and v.fget is func):
            return True
    return False


@functools.cache
def _nowrap() -> frozenset:
    return frozenset(get_default_nowrap_functions())


def _default_torch_function(cls, func, types, args=(), kwargs=None):
    """``Tensor.__torch_function__``: run ``func`` with subclass dispatch off and return its
    tensors as ``cls`` (unless another overloading type is not a base of ``cls``)."""
    if kwargs is None:
        kwargs = {}
    if not all(issubclass(cls, t) for t in types):
        return NotImplemented
    with _DisableTorchFunctionSubclass():
        ret = func(*args, **kwargs)
        if func in _nowrap():
            return ret
        return _convert(ret, cls)




def _convert(ret, cls):
    T = _TensorCls
    if cls is T:
        return ret
    if isinstance(ret, T) and not isinstance(ret, cls):
        return _as_subclass(ret, cls)
    if isinstance(ret, (tuple, list)):
        items = [_convert(r, cls) for r in ret]
        if hasattr(ret, "_fields"):         # a named tuple
            return type(ret)(*items)
        return type(ret)(items)             # (torch.return_types: built from one sequence)
    return ret


def _as_subclass(tensor, cls):
    """``Tensor.as_subclass``: an alias of ``tensor`` (same data, version counter and autograd
    history, through ``AliasBackward0`` when it requires grad) of the class ``cls``."""
    T = _TensorCls
    if not (isinstance(cls, type) and issubclass(cls, T)):
        raise TypeError(f"cls must be a type (got {type(cls).__name__})")
    from ._ops.registry import OPS
    with _DisableTorchFunction():
        out = OPS["alias"](tensor)
    return _reclass(out, cls)


def _reclass(t, cls):
    try:
        t.__class__ = cls
        return t
    except TypeError:       # a subclass with slots of its own: a new object of that class
        new = object.__new__(cls)
        for slot in _slots(_TensorCls):
            if hasattr(t, slot):
                object.__setattr__(new, slot, getattr(t, slot))
        return new


def _slots(cls) -> tuple:
    return tuple(s for s in cls.__slots__ if s not in ("__dict__", "__weakref__")) + ("__dict__",)


def _make_subclass(cls, data, require_grad: bool = False, **_ignored):
    """``Tensor._make_subclass``: a new leaf of the class ``cls`` sharing ``data``'s
    elements and version counter, requiring grad when asked."""
    T = _TensorCls
    if not (isinstance(cls, type) and issubclass(cls, T)):
        raise TypeError(f"cls must be a type (got {type(cls).__name__})")
    t = T._wrap.__func__(cls, data._data)
    t._vc = data._vc
    if require_grad:
        t.requires_grad_(True)
    return t


# ----------------------------------------------------------------------------- modes

class TorchFunctionMode:
    """A context manager whose ``__torch_function__`` sees every call of a public function
    made inside it (while it runs, the mode is off, so its calls run as usual)."""

    inner: TorchFunctionMode | None = None

    def __init__(self):
        pass

    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError

    def __enter__(self):
        _activate()
        _S.modes.append(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if _S.modes and _S.modes[-1] is self:
            _S.modes.pop()
        elif self in _S.modes:
            _S.modes.remove(self)
        return False

    @classmethod
    def push(cls, *args, **kwargs):
        """Make a mode and push it (kept for torch's older API)."""
        import warnings
        warnings.warn("`Mode.push()` is no longer necessary and can be replaced with just "
                      "`with Mode()`", stacklevel=2)
        return cls(*args, **kwargs)


class BaseTorchFunctionMode(TorchFunctionMode):
    """A mode that runs every function as it is."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def _get_current_function_mode():
    return _S.modes[-1] if _S.modes else None


def _get_current_function_mode_stack() -> list:
    return list(_S.modes)


def _push_mode(mode) -> None:
    _activate()
    _S.modes.append(mode)


def _pop_mode():
    return _S.modes.pop()


class _pop_mode_temporarily:
    def __enter__(self):
        self.mode = _S.modes.pop()
        return self.mode

    def __exit__(self, *exc):
        _S.modes.append(self.mode)
        return False


class enable_reentrant_dispatch:
    """Kept for torch's API: a block that changes nothing here."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


# ----------------------------------------------------------------------------- switching on

def _activate() -> None:
    """Install the dispatching paths (once): the op runners that look at their arguments and
    the wrappers of the Python-level public functions."""
    if _S.active:
        return
    _S.active = True
    from . import _dispatch
    _dispatch.install()



del annotations  # keep dir() to torch's names

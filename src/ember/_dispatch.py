"""The dispatching paths of ``__torch_function__`` (see :mod:`ember.overrides`), installed on
the first Tensor subclass that keeps it or the first mode entered.

The ops of the registry are dispatched by their runner, which sees every call once the
generated fast paths are routed through it; the call's arguments are given to
``__torch_function__`` as the caller would have written them (the defaults left out), with
the public function (``torch.add``; ``Tensor.add_`` for an in-place op) as ``func``. The
Python-level public functions and Tensor's methods and properties are replaced by wrappers
that look at their arguments first. Backward runs with dispatch off: torch's engine calls no
Python function.
"""

from __future__ import annotations

import inspect
import sys
import types

from . import overrides as O
from ._ops import registry as R
from ._overridable import FUNCTIONS as _NAMES
from ._overridable import METHODS as _METHOD_NAMES
from ._overridable import MODE_ONLY as _MODE_ONLY
from ._overridable import PROPERTIES as _PROPERTY_NAMES
from ._overridable import PYTHON_FUNCTIONAL as _PYTHON_FUNCTIONAL
from ._overridable import PYTHON_METHODS as _PYTHON_METHODS
from ._tensor import Tensor

_S = O._S
# (the functions without tensor arguments that torch hands to a mode dispatch alike)
_FUNCTIONS = {k: frozenset(v) | frozenset(_MODE_ONLY.get(k, ())) for k, v in _NAMES.items()}
_METHODS = frozenset(_METHOD_NAMES)
_PROPERTIES = frozenset(_PROPERTY_NAMES)
_PLAIN = (int, float, bool, complex, str, type(None))
_EMPTY = inspect.Parameter.empty
_KW_ONLY = inspect.Parameter.KEYWORD_ONLY

# the modules whose public functions are wrapped (when they are loaded)
NAMESPACES = ("ember", "ember.nn.functional", "ember.linalg", "ember.fft", "ember.special")
# Tensor attributes that never dispatch
_TENSOR_SKIP = frozenset({
    "__new__", "__init__", "__init_subclass__", "__torch_function__", "__getattr__",
    "__getattribute__", "__setattr__", "__delattr__", "__class_getitem__", "__subclasshook__",
    "__reduce__", "__dir__", "as_subclass", "_make_subclass"})


def _wants(values) -> bool:
    """Whether any of ``values`` (lists and tuples one level deep) may overload."""
    for v in values:
        c = v.__class__
        if c is Tensor or c in _PLAIN:
            continue
        if c is list or c is tuple:
            if _wants(v):
                return True
            continue
        if O._overrides(v):
            return True
    return False


# ----------------------------------------------------------------------------- op runners

_PUBLIC: dict = {}      # (op name, in-place) -> the public function, or None


def _public(op, inplace: bool, method: bool = False):
    """The public function torch would hand to ``__torch_function__`` for the op called as a
    function, an in-place method or a method, or None (an internal op, or one torch does not
    dispatch)."""
    key = (op.name, inplace, method)
    fn = _PUBLIC.get(key, False)
    if fn is False:
        fn = None
        if inplace:
            if op.name + "_" in _METHODS:
                fn = Tensor.__dict__.get(op.name + "_")
        elif method and op.name in _METHODS:
            fn = Tensor.__dict__.get(op.name)
        elif op.name in R.FUNCTIONS:
            if op.name in _FUNCTIONS["ember"]:
                fn = getattr(sys.modules["ember"], op.name, None) or R.FUNCTIONS[op.name]
        elif op.name in _METHODS:
            fn = Tensor.__dict__.get(op.name)
        _PUBLIC[key] = fn
    return fn


def _is_default(v, d) -> bool:
    if v is d:
        return True
    if d is _EMPTY or isinstance(v, Tensor) or type(v) is not type(d):
        return False
    try:
        return bool(v == d)
    except Exception:  # noqa: BLE001 - a value that does not compare is not the default
        return False


def call_args(op, args, out=None):
    """The op's arguments as a caller writes them: ``(args, kwargs)`` with the trailing
    defaults and the keyword-only defaults left out."""
    pos: list = []
    kw: dict = {}
    defaults: list = []
    for p, v in zip(op.signature, args):
        if p.kind is _KW_ONLY:
            if not _is_default(v, p.default):
                kw[p.name] = v
        else:
            pos.append(v)
            defaults.append(p.default)
    while pos and _is_default(pos[-1], defaults[len(pos) - 1]):
        pos.pop()
    if out is not None:
        kw["out"] = out
    return tuple(pos), kw


def _make_run(inner):
    def run(op, args, out=None, method=False):
        if not _S.all_off and (_S.modes or _wants(args) or (out is not None and _wants((out,)))):
            func = _public(op, False, method)
            if func is not None:
                overloaded = O._get_overloaded_args(args if out is None else (*args, out))
                if overloaded or _S.modes:
                    a, kw = call_args(op, args, out)
                    return O._handle(func, overloaded, a, kw, True)
        return inner(op, args, out, method)
    return run


def _make_run_inplace(inner):
    def run_inplace(op, args):
        if not _S.all_off and (_S.modes or _wants(args)):
            func = _public(op, True)
            if func is not None:
                overloaded = O._get_overloaded_args(args)
                if overloaded or _S.modes:
                    a, kw = call_args(op, args)
                    return O._handle(func, overloaded, a, kw, True)
        return inner(op, args)
    return run_inplace


def foreign(op, args, out=None, inplace=False):
    """The result of handing an op whose arguments hold a tensor-like that is not a Tensor
    to its ``__torch_function__`` (the op's error path); None when there is none."""
    if _S.all_off:
        return None
    extra = () if out is None else (out,)
    overloaded = [a for a in O._get_overloaded_args((*args, *extra))
                  if not isinstance(a, Tensor)]
    if not overloaded:
        return None
    func = _public(op, inplace)
    if func is None:
        return None
    a, kw = call_args(op, args, out)
    return (O._handle(func, O._get_overloaded_args((*args, *extra)), a, kw, True),)


def foreign_call(fn, args, kwargs):
    """``(result,)`` of handing the call ``fn(*args, **kwargs)`` of a public function (its
    error path) to the ``__torch_function__`` of a tensor-like among the arguments that is
    not a Tensor; None when there is none."""
    if _S.all_off:
        return None
    overloaded = O._get_overloaded_args((*args, *kwargs.values()))
    if not any(not isinstance(a, Tensor) for a in overloaded):
        return None
    public = getattr(sys.modules["ember"], fn.__name__, None)
    func = public if getattr(public, "__wrapped__", None) is getattr(fn, "__wrapped__", 0) \
        else fn
    return (O._handle(func, overloaded, args, kwargs, True),)


# ----------------------------------------------------------------------------- Python functions

def _dispatching(fn, name: str | None = None, native: bool = True, public=None,
                 spelled=None, operator: bool = False):
    """``fn`` behind a check of its arguments (``name``: the wrapper's ``__name__``;
    ``public()``: the function handed to ``__torch_function__``, else the wrapper;
    ``spelled(args, kwargs)``: the arguments as torch hands them, else as given;
    ``operator``: a binary operator, whose TypeError is Python's ``NotImplemented``)."""
    def wrapper(*args, **kwargs):
        if not _S.all_off and (_S.modes or _wants(args) or (kwargs and _wants(kwargs.values()))):
            overloaded = O._get_overloaded_args((*args, *kwargs.values()))
            if overloaded or _S.modes:
                if spelled is not None:
                    args, kwargs = spelled(args, kwargs)
                func = wrapper if public is None else public()
                if not operator:
                    return O._handle(func, overloaded, args, kwargs, native)
                try:
                    return O._handle(func, overloaded, args, kwargs, native)
                except TypeError:
                    return NotImplemented
        return fn(*args, **kwargs)
    wrapper.__dict__.update(getattr(fn, "__dict__", {}))
    wrapper.__name__ = name or fn.__name__
    wrapper.__qualname__ = getattr(fn, "__qualname__", wrapper.__name__)
    wrapper.__module__ = getattr(fn, "__module__", None)
    wrapper.__doc__ = fn.__doc__
    wrapper.__wrapped__ = fn
    wrapper._ember_dispatch = True
    return wrapper


def _generated(fn) -> bool:
    """Whether ``fn`` is a function the registry generated (its runner dispatches it)."""
    return isinstance(fn.__globals__.get("_op"), R.OpDef)


def _wrappable(value) -> bool:
    return type(value) is types.FunctionType and not getattr(value, "_ember_dispatch", False) \
        and not _generated(value)


def _functional_spelling(fn):
    """How torch's ``nn.functional`` hands a call to ``__torch_function__``: the required
    parameters by position, every other one by keyword (defaults included)."""
    sig = inspect.signature(fn)
    required = [p.name for p in sig.parameters.values()
                if (p.default is _EMPTY or p.default is R.REQUIRED)
                and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]

    def spelled(args, kwargs):
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError:
            return args, kwargs
        bound.apply_defaults()
        values = dict(bound.arguments)
        return tuple(values.pop(n) for n in required), values
    return spelled


def _wrap_function(value, module: str):
    if module == "ember.nn.functional" and value.__name__ in _PYTHON_FUNCTIONAL:
        return _dispatching(value, native=False, spelled=_functional_spelling(value))
    return _dispatching(value, native=module == "ember")


def wrap_namespace(ns: dict, module: str) -> None:
    """Replace the Python-level functions of the module ``module`` (globals ``ns``) that torch
    dispatches."""
    for k in _FUNCTIONS.get(module, ()):
        v = ns.get(k)
        if v is not None and _wrappable(v):
            ns[k] = _wrap_function(v, module)


def wrap_value(value, module: str, name: str):
    """``module.name``, loaded on first use: wrapped when torch dispatches it."""
    if _S.active and name in _FUNCTIONS.get(module, ()) and _wrappable(value):
        return _wrap_function(value, module)
    return value


# Tensor's operators that torch hands over as the named method they call
_OPERATORS = {"__abs__": "abs", "__add__": "add", "__div__": "div", "__ge__": "ge",
              "__gt__": "gt", "__iadd__": "add_", "__idiv__": "div_",
              "__ifloordiv__": "floor_divide_", "__imod__": "remainder_", "__imul__": "mul_",
              "__ipow__": "pow_", "__isub__": "sub_", "__itruediv__": "div_", "__le__": "le",
              "__lt__": "lt", "__matmul__": "matmul", "__mod__": "remainder", "__mul__": "mul",
              "__ne__": "ne", "__neg__": "neg", "__pos__": "positive", "__pow__": "pow",
              "__radd__": "add", "__rand__": "bitwise_and", "__rmul__": "mul",
              "__ror__": "bitwise_or", "__rxor__": "bitwise_xor", "__sub__": "sub",
              "__truediv__": "div"}


def _wrap_tensor() -> None:
    for k, v in list(vars(Tensor).items()):
        if k in _TENSOR_SKIP or not (k in _METHODS or k in _PROPERTIES
                                     or getattr(v, "__name__", None) in _METHODS):
            continue
        if isinstance(v, property) and v.fget is not None:
            setattr(Tensor, k, property(_dispatching(v.fget, "__get__"), v.fset, v.fdel,
                                        v.__doc__))
            continue
        target = _OPERATORS.get(k)
        operator = k in _BINARY
        if target is not None:
            if not isinstance(v, types.FunctionType) or getattr(v, "_ember_dispatch", False):
                continue
            setattr(Tensor, k, _dispatching(v, public=_method(target), operator=operator))
        elif _wrappable(v):
            spelled = _functional_spelling(v) if k in _PYTHON_METHODS else None
            setattr(Tensor, k, _dispatching(v, operator=operator, spelled=spelled))


_BINARY = frozenset(f"__{p}{n}__" for n in (
    "add", "sub", "mul", "truediv", "div", "floordiv", "mod", "pow", "matmul", "and", "or",
    "xor", "lshift", "rshift") for p in ("", "r", "i")) | frozenset(
    ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"))


def _method(name):
    return lambda: getattr(Tensor, name)


def _quiet_execute(execute):
    def run(*args, **kwargs):
        _S.all_off += 1
        try:
            return execute(*args, **kwargs)
        finally:
            _S.all_off -= 1
    run._ember_dispatch = True
    return run


def install() -> None:
    """Route the op runners through dispatch and wrap the Python-level public functions."""
    R.route(_make_run(R.run), _make_run_inplace(R.run_inplace))
    from . import autograd
    autograd._execute = _quiet_execute(autograd._execute)
    from . import fft, linalg, special  # noqa: F401  (loaded to be wrapped: a lazy
    from .nn import functional  # noqa: F401  namespace loaded later would not be)
    for name in NAMESPACES:
        module = sys.modules.get(name)
        if module is not None:
            wrap_namespace(vars(module), name)
    _wrap_tensor()
    O._nowrap.cache_clear()     # (the getters torch leaves unwrapped are the wrappers now)

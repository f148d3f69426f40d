"""Modules loaded on first use, so that ``import ember`` compiles and runs only what scripts use.

:func:`package` gives a package a module ``__getattr__`` (PEP 562): submodules and names
listed there are imported on first access (``ember.optim.lr_scheduler``, ``from ember.optim
import LBFGS``, ``import ember.utils.data``), and ``dir()`` lists them as if they were loaded.
:func:`defer` stands in for a module that another one imports but uses only inside functions
(``_sleef_ext`` in the op families): the first attribute read imports it and rebinds the name
to the module itself, so later reads cost nothing extra.

Every import made here runs with the cyclic garbage collector paused (:class:`gc_paused`):
loading a module allocates thousands of long-lived objects (functions, code, classes) and no
garbage, and the collections those allocations trigger would each walk every object alive.
"""

from __future__ import annotations

import gc
import importlib
import sys
import types

from . import _names

_HOOKS = ("__getattr__", "__dir__")


class gc_paused:
    """A block run with the cyclic garbage collector paused (and enabled again after it, if
    it was enabled before): for the imports of ember's modules."""

    __slots__ = ("_was_enabled",)

    def __enter__(self):
        self._was_enabled = gc.isenabled()
        gc.disable()
        return self

    def __exit__(self, *exc):
        if self._was_enabled:
            gc.enable()
        return False


def import_module(name: str, package: str | None = None):
    """``importlib.import_module(name, package)``, with the garbage collector paused."""
    with gc_paused():
        module = importlib.import_module(name, package)
    tensor = sys.modules.get(f"{__package__}._tensor")
    if tensor is not None:      # torch's names for the methods the module installed
        _names.name_methods(tensor.Tensor)
    return module


def dispatching(value, module: str, name: str):
    """``module.name`` loaded on first use, behind ``__torch_function__`` dispatch once that
    is on (see :mod:`ember.overrides`)."""
    d = sys.modules.get(f"{__package__}._dispatch")
    return value if d is None else d.wrap_value(value, module, name)


def package(ns: dict, modules=(), names=None, hide=()) -> None:
    """Load ``modules`` (submodules of the package whose globals are ``ns``) and ``names``
    (``{name: submodule defining it}``, relative to the package, or to a module's own
    package) on first access. A submodule imported for a name alone stays out of the
    namespace, and ``dir()`` leaves out the submodules in ``hide`` (as the package's own
    ``del`` of them did when it imported them itself) unless a listed name shares theirs."""
    modules = frozenset(modules)
    names = dict(names or {})
    pkg = ns["__name__"]
    base_pkg = ns.get("__package__") or pkg
    prev_getattr = ns.get("__getattr__")
    prev_dir = ns.get("__dir__")
    hidden = {h for h in _HOOKS if h not in ns}
    hide = frozenset(hide)

    def __getattr__(name: str):
        if name in names:
            sub = names[name]
            had = sub in ns
            module = import_module(f"{base_pkg}.{sub}")
            value = dispatching(_names.named(getattr(module, name), pkg, name), pkg, name)
            if not had and sub not in modules and "." not in sub:
                ns.pop(sub, None)
        elif name in modules:
            value = import_module(f"{pkg}.{name}")
        elif prev_getattr is not None:
            return prev_getattr(name)
        else:
            raise AttributeError(f"module {pkg!r} has no attribute {name!r}")
        ns[name] = value
        if pkg in ("ember.linalg", "ember.special", "ember.fft"):
            from ._ops.registry import require_namespace
            require_namespace((value,))     # (torch's error for a missing argument)
        return value

    def __dir__() -> list[str]:
        base = prev_dir() if prev_dir is not None else ns
        return sorted({*base, *modules, *names} - hidden - (hide - names.keys()))

    ns["__getattr__"] = __getattr__
    ns["__dir__"] = __dir__
    if hide:    # the import system sets a loaded submodule on its package: not these
        sys.modules[pkg].__class__ = type("module", (types.ModuleType,), {
            "__slots__": (), "__setattr__": _setter(hide)})


def _setter(hide):
    def __setattr__(self, name, value):
        if name in hide and isinstance(value, types.ModuleType):
            return
        types.ModuleType.__setattr__(self, name, value)
    return __setattr__


class _Deferred:
    """A module not yet imported, bound as ``name`` in the namespace ``ns``."""

    __slots__ = ("_deferred_ns", "_deferred_name", "_deferred_target")

    def __init__(self, ns, name, target):
        object.__setattr__(self, "_deferred_ns", ns)
        object.__setattr__(self, "_deferred_name", name)
        object.__setattr__(self, "_deferred_target", target)

    def _deferred_load(self):
        module = import_module(object.__getattribute__(self, "_deferred_target"))
        ns = object.__getattribute__(self, "_deferred_ns")
        name = object.__getattribute__(self, "_deferred_name")
        if ns.get(name) is self:
            ns[name] = module
        return module

    def __getattr__(self, attr):
        return getattr(self._deferred_load(), attr)

    def __setattr__(self, attr, value):
        setattr(self._deferred_load(), attr, value)

    def __delattr__(self, attr):
        delattr(self._deferred_load(), attr)

    def __dir__(self):
        return dir(self._deferred_load())

    def __repr__(self) -> str:
        return f"<deferred module {object.__getattribute__(self, '_deferred_target')!r}>"


class _LazyMethod:
    """A method of ``cls`` defined in module ``target``, not yet imported: the first read
    loads the module, which sets the real method on the class in this one's place."""

    __slots__ = ("_target", "_name", "_load")

    def __init__(self, target, name, load):
        self._target, self._name, self._load = target, name, load

    def __get__(self, obj, cls=None):
        cls = cls if cls is not None else type(obj)
        # the class holding this stand-in (a subclass may override the method and reach this
        # one through super())
        owners = [k for k in cls.__mro__ if k.__dict__.get(self._name) is self][:1]
        self._load(self._target)
        real = next((k.__dict__[self._name] for k in owners or cls.__mro__
                     if self._name in k.__dict__), None)
        if real is self or real is None:
            raise AttributeError(f"{self._target} did not define {cls.__name__}.{self._name}")
        return real.__get__(obj, cls) if hasattr(real, "__get__") else real


def methods(cls: type, target: str, names, load=import_module) -> None:
    """Give ``cls`` the methods ``names`` that module ``target`` (absolute name) sets on it,
    imported on the first read of any of them (``load(target)``)."""
    for name in names:
        setattr(cls, name, _LazyMethod(target, name, load))


def defer(ns: dict, name: str, target: str):
    """The module ``target`` (absolute name) if it is loaded, else a stand-in that imports it
    on first use and rebinds ``ns[name]`` to it."""
    module = sys.modules.get(target)
    return module if module is not None else _Deferred(ns, name, target)

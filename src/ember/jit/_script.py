"""What ``torch.jit.script`` and ``torch.jit.trace`` hand back, run eagerly.

Scripting a module gives a ``RecursiveScriptModule``: a new module object over the same
parameters and buffers, whose submodules are scripted too and which prints as torch prints
one (``RecursiveScriptModule(original_name=Linear)``). Tracing gives a ``TopLevelTracedModule``
(its submodules ``TracedModule``\\ s) that keeps its classes' names in print. Both run the
original class's ``forward``: each scripted class is made once per original class, deriving
from it, and pickles by the original class's name (so :func:`ember.jit.save` can write it).
"""

from __future__ import annotations

import copy as _copy
import functools

from ..nn.modules.module import Module

_CLASSES: dict = {}      # (kind, original class) -> its scripted class


class ScriptModule(Module):
    """A compiled module; subclasses' submodules are scripted as they are assigned, and
    ``@torch.jit.script_method`` marks the methods torch compiles (they run as written)."""

    def __setattr__(self, name: str, value) -> None:
        if isinstance(value, Module) and not isinstance(value, ScriptModule) \
                and "_modules" in self.__dict__:
            value = scripted(value, "script")
        super().__setattr__(name, value)

    def __reduce_ex__(self, protocol):
        kind = getattr(type(self), "_kind", None)
        if kind is None:
            return super().__reduce_ex__(protocol)
        return _rebuild, (kind, type(self)._original, self.__dict__)

    def save(self, f, _extra_files=None) -> None:
        """Write this module to ``f`` (:func:`ember.jit.save`)."""
        from . import save
        save(self, f, _extra_files)


class RecursiveScriptModule(ScriptModule):
    """A scripted module: prints as ``RecursiveScriptModule(original_name=<class>)``."""

    _kind = "script"

    def _get_name(self) -> str:
        return "RecursiveScriptModule"

    def extra_repr(self) -> str:
        return f"original_name={self.original_name}"

    def __repr__(self) -> str:
        if self.__dict__.get("_frozen"):        # frozen: the submodules are inlined
            return f"RecursiveScriptModule({self.extra_repr()})"
        return super().__repr__()


class TracedModule(ScriptModule):
    """A traced module: prints its class's name with ``original_name=<class>``."""

    _kind = "trace"

    def _get_name(self) -> str:
        return self.original_name

    def extra_repr(self) -> str:
        return f"original_name={self.original_name}"


class TopLevelTracedModule(TracedModule):
    """The module ``torch.jit.trace`` returns (its submodules are ``TracedModule``\\ s)."""

    _kind = "trace_top"


_BASES = {"script": RecursiveScriptModule, "trace": TracedModule,
          "trace_top": TopLevelTracedModule}


def _scripted_class(kind: str, original: type) -> type:
    cls = _CLASSES.get((kind, original))
    if cls is None:
        base = _BASES[kind]
        cls = _CLASSES[kind, original] = type(base.__name__, (base, original), {
            "_kind": kind, "_original": original, "__module__": "torch.jit._script",
            "original_name": original.__name__, "__qualname__": base.__name__})
    return cls


def _original_class(module: Module) -> type:
    return getattr(type(module), "_original", type(module))


def scripted(module: Module, kind: str) -> Module:
    """A ``kind`` (``"script"``, ``"trace"``, ``"trace_top"``) copy of ``module``: a new
    object sharing its parameters, buffers and attributes, with its submodules copied alike."""
    copy = object.__new__(_scripted_class(kind, _original_class(module)))
    state = {key: _copy.copy(v) if isinstance(v, (dict, set)) else v
             for key, v in module.__dict__.items()}
    child = "trace" if kind == "trace_top" else kind
    if "_modules" in state:
        state["_modules"] = type(state["_modules"])(
            (name, None if m is None else scripted(m, child))
            for name, m in state["_modules"].items())
    object.__setattr__(copy, "__dict__", state)
    return copy


def _rebuild(kind: str, original: type, state: dict) -> Module:
    obj = object.__new__(_scripted_class(kind, original))
    object.__setattr__(obj, "__dict__", state)
    return obj


class ScriptFunction:
    """A scripted function: calls the function it was made from."""

    def __init__(self, fn) -> None:
        self._fn = fn
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<torch.jit.ScriptFunction object at {hex(id(self))}>"


ScriptFunction.__module__ = "torch.jit"

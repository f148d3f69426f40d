"""``ember.jit``: TorchScript's entry points, run eagerly.

``script`` of a module gives a ``RecursiveScriptModule`` and ``trace`` a
``TopLevelTracedModule``: new module objects over the same parameters that run the original
``forward`` and print as torch prints them (``_script.py``); a traced module is run once on
its example inputs, as torch runs it to record. ``script`` of a function gives a
``ScriptFunction``; the decorators that steer the compiler return what they decorate.
``save``/``load`` keep a whole module with :func:`ember.save` (a pickle in torch's checkpoint
format, not a TorchScript archive); a loaded module is a ``RecursiveScriptModule``, as in
torch.
"""

from __future__ import annotations

from typing import Final  # noqa: F401  (torch.jit.Final)

from ._script import (
    RecursiveScriptModule,
    ScriptFunction,
    ScriptModule,
    TopLevelTracedModule,
    TracedModule,
)
from ._script import scripted as _scripted


__all__ = ["script", "trace", "trace_module", "ignore", "unused", "export", "is_scripting",
           "is_tracing", "save", "load", "freeze", "optimize_for_inference", "interface",
           "Final", "fork", "wait", "annotate", "ScriptModule", "ScriptFunction",
           "RecursiveScriptModule", "TopLevelTracedModule", "TracedModule", "script_method"]


def script(obj, optimize=None, _frames_up: int = 0, _rcb=None, example_inputs=None):
    """A module's ``RecursiveScriptModule`` (sharing its parameters), a function's
    ``ScriptFunction``; anything else (a class) is returned as it is. All run eagerly."""
    from ..nn.modules.module import Module
    if isinstance(obj, ScriptModule):
        return obj
    if isinstance(obj, Module):
        return _scripted(obj, "script")
    if callable(obj) and not isinstance(obj, type) and hasattr(obj, "__code__"):
        return ScriptFunction(obj)
    return obj


def script_method(fn):
    """Mark a ``ScriptModule`` method for compilation: it runs as written."""
    return fn


def trace(func, example_inputs=None, optimize=None, check_trace: bool = True,
          check_inputs=None, check_tolerance: float = 1e-05, strict: bool = True,
          _force_outplace: bool = False, _module_class=None, _compilation_unit=None,
          example_kwarg_inputs=None, _store_inputs: bool = True):
    """Run ``func`` once on ``example_inputs`` (as tracing does) and return it."""
    from .. import no_grad
    if example_inputs is not None or example_kwarg_inputs is not None:
        args = example_inputs if isinstance(example_inputs, tuple) else (
            () if example_inputs is None else (example_inputs,))
        with no_grad():
            func(*args, **(example_kwarg_inputs or {}))
    from ..nn.modules.module import Module
    if isinstance(func, Module) and not isinstance(func, ScriptModule):
        return _scripted(func, "trace_top")
    if callable(func) and not isinstance(func, (type, Module)) and hasattr(func, "__code__"):
        return ScriptFunction(func)
    return func


def trace_module(mod, inputs, *args, **kwargs):
    """Run each named method on its example inputs and return the module."""
    for name, example in inputs.items():
        trace(getattr(mod, name), example)
    return mod


def _identity(fn=None, *args, **kwargs):
    if fn is None or not callable(fn):
        return lambda f: f
    return fn


ignore = unused = export = interface = _identity


def script_if_tracing(fn):
    """Return ``fn`` itself (it is compiled only while tracing, which runs eagerly here)."""
    return fn


def is_scripting() -> bool:
    return False


def is_tracing() -> bool:
    return False


def annotate(the_type, the_value):
    return the_value


def fork(func, *args, **kwargs):
    """Run ``func`` now; ``wait`` returns its result."""
    return _Future(func(*args, **kwargs))


def wait(future):
    return future.value


class _Future:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def freeze(mod, preserved_attrs=None, optimize_numerics: bool = True):
    """A copy of an eval-mode module whose parameters are constants (plain tensors that do
    not require grad), as torch's frozen modules have them; ``preserved_attrs`` stay
    parameters."""
    import copy
    if not isinstance(mod, ScriptModule):
        raise RuntimeError("Freezing expects a ScriptModule as input. Please use torch.jit."
                           "script or torch.jit.trace to script your 'nn.Module'.")
    if mod.training:
        raise RuntimeError("Freezing is currently only implemented for modules in eval mode. "
                           "Please call .eval() on your module before freezing.")
    keep = set(preserved_attrs or ())
    frozen = copy.deepcopy(mod)
    for prefix, sub in frozen.named_modules():
        for name in list(sub._parameters):
            if f"{prefix}.{name}".lstrip(".") in keep or name in keep:
                continue
            p = sub._parameters.pop(name)
            object.__setattr__(sub, name, None if p is None else p.detach())
    frozen = _scripted(frozen, "script")
    frozen.__dict__["_frozen"] = True
    return frozen


def optimize_for_inference(mod, other_methods=None):
    return mod


def save(m, f, _extra_files=None) -> None:
    """Write the whole scripted or traced module ``m`` to ``f`` with :func:`ember.save`."""
    if not isinstance(m, ScriptModule):
        raise AttributeError(f"'{type(m).__name__}' object has no attribute 'save_to_buffer'")
    from ..serialization import save as _save
    _save(m, f)


def load(f, map_location=None, _extra_files=None):
    """Read a module written by :func:`save`: a ``RecursiveScriptModule``, as in torch."""
    from ..serialization import load as _load
    m = _load(f, weights_only=False)
    if isinstance(m, ScriptModule):
        frozen = m.__dict__.get("_frozen")
        m = _scripted(m, "script")
        if frozen:
            m.__dict__["_frozen"] = True
    return m

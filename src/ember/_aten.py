"""``ember.ops``: torch's operator namespace, ``torch.ops.aten.<op>[.<overload>](...)``.

``torch.ops.aten.add`` (an op packet) and ``torch.ops.aten.add.Tensor`` (one overload) call
Ember's own ``add``; in-place ops (``add_``) call the tensor method. Ember's functions choose
by their arguments what torch's overloads choose by schema, so every overload name resolves
to the same function.

>>> import ember
>>> ember.ops.aten.add.Tensor(ember.ones(2), ember.ones(2), alpha=2)
tensor([3., 3.])
"""

from __future__ import annotations

import inspect
import types

from . import _ops
from ._tensor import Tensor

__all__ = ["ops"]


class OpOverload:
    """One overload of an operator (``aten.add.Tensor``)."""

    def __init__(self, packet: OpOverloadPacket, overload: str) -> None:
        self.overloadpacket, self._overloadname = packet, overload
        self._fn = packet._fn
        if packet._ns != "aten" and overload != "default":
            from .library import _OPS as OPS
            self._fn = OPS.get(f"{packet._ns}::{packet._name}.{overload}", packet._fn)

    @property
    def _schema(self):
        """The operator's schema (ops defined by schema and custom ops)."""
        schema = getattr(self._fn, "_schema", None)
        if schema is None:
            raise AttributeError("_schema")
        return schema

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    def name(self) -> str:
        """The schema name: ``aten::add.Tensor`` (``aten::neg`` for the default)."""
        base = f"{self.overloadpacket._ns}::{self.overloadpacket._name}"
        return base if self._overloadname == "default" else f"{base}.{self._overloadname}"

    def __repr__(self) -> str:
        return f"<OpOverload(op='{self.overloadpacket}', overload='{self._overloadname}')>"

    def __str__(self) -> str:
        return f"{self.overloadpacket}.{self._overloadname}"


class OpOverloadPacket:
    """An operator with all its overloads (``aten.add``); calling it picks by the arguments."""

    def __init__(self, ns: str, name: str, fn) -> None:
        self._ns, self._name, self._fn = ns, name, fn
        self.__name__ = name

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    def __getattr__(self, overload: str) -> OpOverload:
        if overload.startswith("__"):
            raise AttributeError(overload)
        ov = OpOverload(self, overload)
        self.__dict__[overload] = ov
        return ov

    def __repr__(self) -> str:
        return f"<OpOverloadPacket(op='{self}')>"

    def overloads(self) -> list:
        """The overload names (``'default'`` for the unnamed one)."""
        if self._ns == "aten":
            return ["default"]
        from .library import _OPS as OPS
        prefix = f"{self._ns}::{self._name}."
        names = [k[len(prefix):] for k in OPS if k.startswith(prefix)]
        return names + ["default"] if f"{self._ns}::{self._name}" in OPS else names

    def __str__(self) -> str:
        return f"{self._ns}.{self._name}"


# aten ops whose torch.nn.functional namesake is another op (``aten::unfold`` is
# ``Tensor.unfold``)
_METHODS = {"unfold"}
# the name of a schema parameter in the nn.functional function (None: not passed on)
_F_NAMES = {"self": "input", "train": "training", "random_samples": "_random_samples",
            "cudnn_enabled": None, "cudnn_enable": None, "generator": None}
_F_OWN_NAMES = {"embedding": {"indices": "input"}, "one_hot": {"self": "tensor"}}
_REDUCTIONS = ("none", "mean", "sum")


def _nn_form(name: str):
    """``torch._C._nn``'s (or the top-level) function of an aten op whose nn.functional
    namesake takes other arguments, parameters named as the schema's; None for the rest."""
    from .nn import _functional_extra as FX
    if name == "elu":
        return lambda self, alpha=1, scale=1, input_scale=1: _ops.nn.elu(
            self, alpha, scale, input_scale)
    if name in ("max_unpool2d", "max_unpool3d"):
        nd = int(name[-2])
        return lambda self, indices, output_size, stride=None, padding=None: FX.max_unpool(
            self, indices, output_size, nd, stride, padding)
    if name in ("fractional_max_pool2d", "fractional_max_pool3d"):
        nd = int(name[-2])
        return lambda self, kernel_size, output_size, random_samples: FX.fractional_max_pool(
            self, kernel_size, output_size, random_samples, nd)
    if name == "embedding_bag":
        from . import _nn_functions
        return _nn_functions.embedding_bag
    return None


def _f_value(op: str, param: str, value):
    """A schema argument as the nn.functional function takes it: a reduction by its name,
    embedding's negative padding_idx (none) as None."""
    if param == "reduction" and isinstance(value, int):
        return _REDUCTIONS[value]
    if op == "embedding" and param == "padding_idx" and value < 0:
        return None
    return value


def _bind(name: str, params, text: str, args, kwargs):
    """The arguments of a call by one overload's schema (by its parameters' names), or the
    RuntimeError torch raises where the call does not fit it."""
    decl = f"Declaration: aten::{name}{text}"
    n_pos = sum(not a.kwarg_only for a in params)
    if len(args) > n_pos:
        return RuntimeError(f"aten::{name}() expected at most {n_pos} argument(s) but "
                            f"received {len(args)} argument(s). {decl}")
    given = dict(zip((a.name for a in params), args))
    for key, v in kwargs.items():
        if key in given or all(a.name != key for a in params):
            return RuntimeError(f"Unknown keyword argument '{key}' for operator "
                                f"'aten::{name}'. Schema: aten::{name}{text}")
        given[key] = v
    for a in params:
        if a.name not in given:
            if not a.has_default:
                return RuntimeError(f"aten::{name}() is missing value for argument "
                                    f"'{a.name}'. {decl}")
            given[a.name] = a.default
    return given


def _schema_form(name: str, fn, names=None):
    """``fn`` called as ``aten::name``: its arguments bound by the positions and names of
    the default overload's schema (its first, where it has none) or, failing that, of another
    that has no keyword-only parameters (``embedding_bag.padding_idx``), and passed on by
    ``fn``'s names (``names``: schema name to ``fn``'s, None to drop one; by default
    nn.functional's); a call that fits none raises torch's RuntimeError (the first
    overload's)."""
    from .export._schema import schemas
    from .export._schemas import SCHEMAS
    found = schemas(name)
    if not found:
        return fn
    k = next((i for i, s in enumerate(found) if s.overload == "default"), 0)
    order = [k] + [i for i, s in enumerate(found)
                   if i != k and not any(a.kwarg_only for a in s.args)]
    forms = [(found[i].args, SCHEMAS[name][i]) for i in order]
    if names is None:
        names = {**_F_NAMES, **_F_OWN_NAMES.get(name, {})}

    def call(*args, **kwargs):
        bound = [_bind(name, params, text, args, kwargs) for params, text in forms]
        given = next((b for b in bound if isinstance(b, dict)), None)
        if given is None:
            raise bound[0]
        out = {}
        for key, value in given.items():
            target = names.get(key, key)
            if target is not None:
                out[target] = _f_value(name, key, value)
        return fn(**out)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = fn.__doc__
    call.__signature__ = inspect.Signature([
        inspect.Parameter(a.name, inspect.Parameter.KEYWORD_ONLY if a.kwarg_only else
                          inspect.Parameter.POSITIONAL_OR_KEYWORD,
                          **({"default": a.default} if a.has_default else {}))
        for a in forms[0][0]])
    return call


def _resolve(name: str):
    if (name.endswith("_") and not name.endswith("__") or name in _METHODS) \
            and hasattr(Tensor, name):
        return getattr(Tensor, name)
    fn = _ops.function(name) or _ops.FUNCTIONS.get(name)
    if fn is not None:
        return fn
    own = _nn_form(name)
    if own is not None:
        return _schema_form(name, own, {})
    from .nn import functional as F  # (nn is imported after the ops it is built on)
    fn = getattr(F, name, None)
    return fn if fn is None else _schema_form(name, fn)


class _OpNamespace(types.ModuleType):
    """``torch.ops.aten``: its attributes are the operators."""

    def __getattr__(self, name: str) -> OpOverloadPacket:
        ns = self.__name__.rsplit(".", 1)[-1]
        if name.startswith("__"):
            fn = None
        elif ns == "aten":
            fn = _resolve(name)
        elif ns == "profiler":     # torch's record_function ops
            from .autograd.profiler import _PROFILER_OPS
            fn = _PROFILER_OPS.get(name)
        else:                    # a namespace of custom ops (ember.library.custom_op)
            from .library import _OPS as OPS
            fn = OPS.get(f"{ns}::{name}") or next(
                (op for key, op in OPS.items() if key.startswith(f"{ns}::{name}.")), None)
        if fn is None:
            raise AttributeError(f"'_OpNamespace' '{ns}' object has no attribute '{name}'")
        packet = OpOverloadPacket(ns, name, fn)
        setattr(self, name, packet)
        return packet


class _Ops(types.ModuleType):
    """``torch.ops``: operator namespaces (``aten``)."""

    def __init__(self) -> None:
        super().__init__("torch.ops")
        self.aten = _OpNamespace("torch.ops.aten")
        self.loaded_libraries: set = set()

    def load_library(self, path) -> None:
        """Load the shared library at ``path`` into the process (as torch does, with
        ``ctypes``) and add its resolved path to :attr:`loaded_libraries`. The operators a
        library built against libtorch registers in C++ do not reach Ember; such a library
        usually fails to load here, for want of libtorch, with torch's ``OSError``."""
        import ctypes
        import os
        path = os.path.realpath(path)
        try:
            ctypes.CDLL(path)
        except Exception as e:
            raise OSError(f"Could not load this library: {path}") from e
        self.loaded_libraries.add(path)

    def __getattr__(self, name: str) -> _OpNamespace:
        if name.startswith("__"):
            raise AttributeError(name)
        space = _OpNamespace(f"torch.ops.{name}")
        setattr(self, name, space)
        return space


ops = _Ops()

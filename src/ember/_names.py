"""torch's ``__name__`` for its public callables, given to ember's.

torch's functions are mostly C builtins, each named after the attribute that holds it:
``torch.absolute.__name__`` is ``"absolute"`` though it computes ``abs``, ``torch.linalg.det``
is ``"linalg_det"``, ``torch.special.erf`` ``"special_erf"``, ``torch.fft.fft`` ``"fft_fft"``,
``Tensor.clip`` ``"clip"``. Ember's aliases share one function (``absolute = abs``) and its
helpers carry private names (``_cholesky_fn``), so :func:`name_namespace` gives each public
callable a copy under torch's name (a copy, as one function may stand for several names): same
code, globals, defaults and attributes, with a ``__qualname__`` and ``__module__`` that lead
``pickle`` back to where it is published. The packages call it on their namespaces once loaded,
and the lazy loaders (:mod:`ember._lazy`, ``_ops.load``) on what they install.
"""

from __future__ import annotations

import types

_PREFIX = {"ember": "", "ember.linalg": "linalg_", "ember.special": "special_",
           "ember.fft": "fft_", "ember.nn.functional": ""}
# torch's callables whose name is not the rule's
_OWN = {("ember", "sym_sqrt"): "_sym_sqrt", ("ember", "symeig"): "_symeig",
        ("ember", "to_dlpack"): "_to_dlpack",
        ("ember.nn.functional", "logsigmoid"): "log_sigmoid",
        ("ember.nn.functional", "threshold"): "_threshold",
        ("ember.nn.functional", "has_torch_function"): "_has_torch_function",
        ("ember.nn.functional", "has_torch_function_unary"): "_has_torch_function_unary",
        ("ember.nn.functional", "has_torch_function_variadic"): "_has_torch_function_variadic"}
# Tensor's operator methods that torch binds to its named ones
_TENSOR_OWN = {"__abs__": "abs", "__ipow__": "pow_", "__itruediv__": "__idiv__",
               "__neg__": "neg", "__pos__": "positive", "__pow__": "pow",
               "__rtruediv__": "__rdiv__"}


def torch_name(module: str, attr: str) -> str | None:
    """torch's ``__name__`` for its callable ``module.attr`` (``module`` named as ember's:
    ``"ember.linalg"``), or None for a module whose names are left as they are."""
    prefix = _PREFIX.get(module)
    if prefix is None:
        return None
    return _OWN.get((module, attr), prefix + attr)


def _copy(fn, name: str, qualname: str, module: str):
    # (its own code object, named so: what an error reads off the stack names the function)
    new = types.FunctionType(fn.__code__.replace(co_name=name), fn.__globals__, name,
                             fn.__defaults__, fn.__closure__)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__dict__.update(fn.__dict__)
    new.__doc__ = fn.__doc__
    new.__annotations__ = fn.__annotations__
    new.__qualname__ = qualname
    new.__module__ = module
    return new


def named(value, module: str, attr: str):
    """``value``, published as ``module.attr``, under torch's name: a renamed copy of a
    function, an op entry given the name, anything else as it is."""
    want = torch_name(module, attr)
    if want is None or attr.startswith("_"):
        return value
    if type(value) is types.FunctionType:
        if value.__name__ == want:
            return value
        return _copy(value, want, attr, module)
    if type(value).__name__ == "OpDef" and "__name__" not in vars(value):
        value.__name__ = want          # (an op entry published as the function itself)
    return value


def name_namespace(ns: dict, module: str, names=None) -> None:
    """Give the public callables in the namespace ``ns`` of ``module`` torch's names (those
    in ``names`` only, when given)."""
    for attr in list(ns) if names is None else names:
        value = ns.get(attr)
        if value is not None:
            new = named(value, module, attr)
            if new is not value:
                ns[attr] = new


def name_methods(cls: type, names=None) -> None:
    """Give the methods of ``cls`` (the Tensor) torch's names: the attribute's own, but for
    the operators torch binds to named methods (those in ``names`` only, when given)."""
    attrs = vars(cls)
    for attr in list(attrs) if names is None else names:
        fn = attrs.get(attr)
        if type(fn) is not types.FunctionType:
            continue
        if attr.startswith("__") and attr not in _TENSOR_OWN:
            continue
        want = _TENSOR_OWN.get(attr, attr)
        if fn.__name__ != want:
            setattr(cls, attr, _copy(fn, want, f"{cls.__name__}.{attr}", cls.__module__))

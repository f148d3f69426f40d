"""NumPy's names for ``dim`` and ``keepdim``: ``axis`` and ``keepdims``, accepted wherever
torch's argument parser accepts them (``x.sum(axis=0, keepdims=True)``, ``x.argmax(axis=1)``).

Only ops whose signature has ``dim``/``keepdim`` get a wrapper, and the wrapper renames the
keyword before the call; the signature shown stays torch's (``inspect`` follows
``__wrapped__``). Passing both names raises torch's TypeError.
"""

from __future__ import annotations

import functools
import inspect
import types

from ._params import parameters

_ALIASES = {"axis": "dim", "keepdims": "keepdim"}
_WRAPPED: dict = {}


def with_numpy_names(fn):
    """``fn`` accepting ``axis``/``keepdims`` for its ``dim``/``keepdim`` (``fn`` itself if it
    has neither). One wrapper per function, so a function published twice stays one object."""
    if id(fn) in _WRAPPED:
        return _WRAPPED[id(fn)][1]
    code = getattr(fn, "__code__", None)
    if type(fn) is types.FunctionType and not hasattr(fn, "__wrapped__"):
        # (the common case, read off the code object: hundreds of functions at import)
        if code.co_flags & inspect.CO_VARKEYWORDS:
            return fn
        argnames = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
        if "dim" not in argnames and "keepdim" not in argnames:
            return fn
    try:
        params = {p.name: p for p in parameters(fn)}
    except (TypeError, ValueError):
        return fn
    names = tuple(a for a, t in _ALIASES.items() if t in params and a not in params)
    if not names or any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return fn

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if kwargs:
            for alias in names:
                if alias in kwargs:
                    target = _ALIASES[alias]
                    if target in kwargs:
                        raise TypeError(f"{fn.__name__}() got an unexpected keyword argument "
                                        f"'{alias}'")
                    kwargs[target] = kwargs.pop(alias)
        return fn(*args, **kwargs)

    _WRAPPED[id(fn)] = (fn, wrapper)
    return wrapper


def install(functions: dict, cls: type) -> None:
    """Give every function in ``functions`` and every method of ``cls`` the NumPy names."""
    for name, fn in list(functions.items()):
        if isinstance(fn, types.FunctionType):
            functions[name] = with_numpy_names(fn)
    for name, fn in list(vars(cls).items()):
        if isinstance(fn, types.FunctionType) and not name.startswith("__"):
            setattr(cls, name, with_numpy_names(fn))

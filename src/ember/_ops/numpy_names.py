"""NumPy's names for ``dim`` and ``keepdim``: ``axis`` and ``keepdims``, accepted wherever
torch's argument parser accepts them (``x.sum(axis=0, keepdims=True)``, ``x.argmax(axis=1)``).

Only ops whose signature has ``dim``/``keepdim`` get a wrapper, and the wrapper renames the
keyword before the call; the signature shown stays torch's (``inspect`` follows
``__wrapped__``). Passing both names raises torch's TypeError.
"""

from __future__ import annotations

import functools
import inspect
import sys
import types

from .. import _errors
from ._params import parameters

_ALIASES = {"axis": "dim", "keepdims": "keepdim"}
_WRAPPED: dict = {}       # (id of a function, method): (the function, its wrapper)
_WRAPPERS: set = set()    # ids of the wrappers


def with_numpy_names(fn, method: bool = False):
    """``fn`` accepting ``axis``/``keepdims`` for its ``dim``/``keepdim`` (``fn`` itself if it
    has neither). One wrapper per function and form (``method``: a Tensor method's, whose
    errors torch words as the method's), so a function published twice stays one object."""
    key = (id(fn), method)
    if key in _WRAPPED:
        return _WRAPPED[key][1]
    if id(fn) in _WRAPPERS:
        return fn
    if type(fn) is types.FunctionType and "__wrapped__" not in fn.__dict__:
        code = fn.__code__
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
        try:
            return fn(*args, **kwargs)
        except Exception as e:
            # (a tensor-like that is not a Tensor: handed to its __torch_function__)
            from .._dispatch import foreign_call
            done = foreign_call(wrapper, args, kwargs)
            if done is None:
                # (by the name it is published under: an alias's copy of this function,
                # ``concat``, runs under a code of that name)
                name = sys._getframe().f_code.co_name
                new = _errors.reparsed(e, fn.__name__ if name == "wrapper" else name,
                                       method, args, kwargs)
                if new is None:
                    raise
                raise new from None
            return done[0]

    _WRAPPED[key] = (fn, wrapper)
    _WRAPPERS.add(id(wrapper))
    return wrapper


def install(functions: dict, cls: type, names=None, methods=None) -> None:
    """Give the functions in ``functions`` and the methods of ``cls`` the NumPy names: all of
    them, or those named in ``names`` and ``methods``."""
    for name in list(functions) if names is None else names:
        fn = functions[name]
        if isinstance(fn, types.FunctionType):
            functions[name] = with_numpy_names(fn)
    attrs = vars(cls)
    for name in list(attrs) if methods is None else methods:
        fn = attrs.get(name)
        if isinstance(fn, types.FunctionType) and not name.startswith("__"):
            wrapped = with_numpy_names(fn, True)
            if wrapped is not fn:       # (setting a class attribute is not free)
                setattr(cls, name, wrapped)

"""Function parameters as ``inspect.signature`` gives them, read quickly off code objects.

The registry and the NumPy-names wrapper read the parameters of hundreds of kernels and
formulas while ``import ember`` runs, where ``inspect.signature`` costs a large share of it.
"""

from __future__ import annotations

import inspect
import types

_P = inspect.Parameter


class Param:
    """The parts of an ``inspect.Parameter`` the registry reads (name, kind, default)."""

    __slots__ = ("name", "kind", "default")
    empty, KEYWORD_ONLY, VAR_KEYWORD = _P.empty, _P.KEYWORD_ONLY, _P.VAR_KEYWORD

    def __init__(self, name: str, kind, default) -> None:
        self.name, self.kind, self.default = name, kind, default


def parameters(fn) -> list[Param]:
    """``inspect.signature(fn)``'s parameters, read off a plain function's code object: the
    registry reads hundreds of kernels and formulas at import, where ``inspect`` is slow."""
    if (type(fn) is not types.FunctionType or "__wrapped__" in fn.__dict__
            or fn.__code__.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS)):
        return [Param(p.name, p.kind, p.default)
                for p in inspect.signature(fn).parameters.values()]
    code = fn.__code__
    npos, nkw = code.co_argcount, code.co_kwonlyargcount
    defaults, kwdefaults = fn.__defaults__ or (), fn.__kwdefaults__ or {}
    first_default = npos - len(defaults)
    out = []
    for i, name in enumerate(code.co_varnames[:npos + nkw]):
        if i < npos:
            kind = _P.POSITIONAL_ONLY if i < code.co_posonlyargcount else _P.POSITIONAL_OR_KEYWORD
            default = defaults[i - first_default] if i >= first_default else _P.empty
        else:
            kind, default = _P.KEYWORD_ONLY, kwdefaults.get(name, _P.empty)
        out.append(Param(name, kind, default))
    return out

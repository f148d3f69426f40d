"""ATen schemas: which overload a call picks, and the arguments torch records for it.

A call ``x.view(2, 5)`` or ``torch.add(x, 1)`` is bound to the overloads of its ATen op in
torch's order (a Python number for a ``Tensor`` parameter only when no overload takes it as
a ``Scalar``); the recorded arguments are those torch's dispatcher hands on: positional
ones up to the last that differs from its default, keyword-only ones where they differ.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from ._schemas import SCHEMAS


class Arg:
    """One parameter of a schema."""

    __slots__ = ("name", "type", "default", "has_default", "kwarg_only", "written")

    def __init__(self, name, type_, default, has_default, kwarg_only, written) -> None:
        self.name, self.type, self.default = name, type_, default
        self.has_default, self.kwarg_only, self.written = has_default, kwarg_only, written


class Schema:
    """One overload: ``aten::name.overload(args) -> returns``."""

    def __init__(self, name: str, overload: str, args: list[Arg], returns: str) -> None:
        self.name, self.overload, self.args, self.returns = name, overload, args, returns

    @property
    def is_mutable(self) -> bool:
        """Whether the op writes to an argument."""
        return any(a.written for a in self.args)


def _split(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "[(" and 1 or (-1 if ch in "])" else 0)
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return out + [cur.strip()] if cur.strip() else out


def _default(text: str) -> Any:
    text = text.strip()
    if text in ("None", "True", "False"):
        return {"None": None, "True": True, "False": False}[text]
    if text.startswith("[") and text.endswith("]"):
        return [_default(t) for t in _split(text[1:-1])]
    if text[:1] in "\"'":
        return text[1:-1]
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text      # contiguous_format, Mean, ...


@functools.cache
def schemas(name: str) -> tuple[Schema, ...]:
    """The overloads of ``aten::name`` in torch's order (none when torch has no such op)."""
    out = []
    for text in SCHEMAS.get(name, ()):
        m = re.match(r"(?:\.(\w+))?\((.*)\) -> (.*)$", text)
        overload, args_text, returns = m.groups()
        args, kwarg_only = [], False
        for a in _split(args_text):
            if a == "*":
                kwarg_only = True
                continue
            decl, eq, default = a.partition("=")
            typ, argname = decl.rsplit(" ", 1)
            written = "!" in typ
            typ = re.sub(r"\([^)]*\)", "", typ)       # alias annotations: Tensor(a!)
            value = _default(default) if eq else None
            n_items = _list_size(typ)
            if n_items is not None and value is not None and not isinstance(value, list):
                value = [value] * n_items      # ``int[2] padding=0`` defaults to [0, 0]
            args.append(Arg(argname, typ, value, bool(eq), kwarg_only, written))
        out.append(Schema(name, overload or "default", args, returns))
    return tuple(out)


# ----------------------------------------------------------------------------- binding

class _NoMatch(Exception):
    pass


def _list_size(typ: str) -> int | None:
    m = re.search(r"\[(\d+)\]", typ)
    return int(m.group(1)) if m else None


def _convert(typ: str, value: Any, strict: bool) -> Any:
    """``value`` as an argument of type ``typ`` (raises _NoMatch)."""
    from .. import Tensor, dtype
    optional = typ.endswith("?")
    base = typ.rstrip("?")
    if value is None:
        if optional:
            return None
        raise _NoMatch
    if base in ("Tensor",):
        if isinstance(value, Tensor) or (not strict and _is_number(value)):
            return value
        raise _NoMatch
    if base in ("Tensor[]", "Tensor?[]"):
        if isinstance(value, (list, tuple)) and all(
                isinstance(v, Tensor) or (v is None and base == "Tensor?[]") for v in value):
            return list(value)
        raise _NoMatch
    if base in ("Scalar",):
        if _is_number(value):
            return value
        raise _NoMatch
    if base in ("int", "SymInt"):
        if _is_int(value):
            return value
        raise _NoMatch
    if base in ("float",):
        if _is_number(value) and not isinstance(value, complex):
            return value
        raise _NoMatch
    if base == "bool":
        if isinstance(value, bool):
            return value
        raise _NoMatch
    if base == "str":
        if isinstance(value, str):
            return value
        raise _NoMatch
    if base == "ScalarType":
        if isinstance(value, dtype):
            return value
        raise _NoMatch
    if re.fullmatch(r"(int|SymInt)\[\d*\]", base):
        n = _list_size(base)
        if _is_int(value) and n is not None:
            return [value] * n
        if isinstance(value, (list, tuple)) and all(_is_int(v) for v in value):
            return list(value)
        raise _NoMatch
    if re.fullmatch(r"(float|bool|Scalar)\[\d*\]", base):
        if isinstance(value, (list, tuple)):
            return list(value)
        raise _NoMatch
    if base in ("Device", "Layout", "MemoryFormat", "Generator", "Storage", "Stream"):
        return value
    raise _NoMatch


def _is_int(v: Any) -> bool:
    return (isinstance(v, int) and not isinstance(v, bool)) or hasattr(v, "_sym_expr")


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float, complex)) or hasattr(v, "_sym_expr")


def _same(a: Any, b: Any, typ: str = "") -> bool:
    """Whether argument ``a`` equals default ``b`` as torch's dispatcher compares them: a
    ``Scalar`` keeps its Python type (``1.0`` is no default ``1``), a ``float`` does not."""
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y, typ) for x, y in zip(a, b, strict=True))
    if hasattr(a, "_sym_expr") or hasattr(b, "_sym_expr"):
        return False
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b and (type(a) is type(b) or not typ.startswith("Scalar"))
    try:
        return type(a) is type(b) and a == b
    except Exception:   # noqa: BLE001
        return False


def _bind_one(schema: Schema, args: tuple, kwargs: dict, strict: bool) -> tuple[tuple, dict]:
    positional = [a for a in schema.args if not a.kwarg_only]
    values: dict[str, Any] = {}
    args = list(args)
    # x.view(2, 5), torch.ones(2, 3): the ints from the first int[] parameter on fill it
    lists = [i for i, p in enumerate(positional[:2])
             if re.fullmatch(r"(int|SymInt)\[\]", p.type)]
    if lists:
        i = lists[0]
        if (len(args) > i and (len(args) > len(positional) or len(args) == i + 1)
                and all(_is_int(v) for v in args[i:])):
            args = args[:i] + [list(args[i:])]
    if len(args) > len(positional):
        raise _NoMatch
    for p, v in zip(positional, args, strict=False):
        values[p.name] = _convert(p.type, v, strict)
    names = {a.name: a for a in schema.args}
    for k, v in kwargs.items():
        key = k
        if key not in names:
            key = {"input": "self", "self": "input"}.get(k, k)
        if key not in names or key in values:
            raise _NoMatch
        values[key] = _convert(names[key].type, v, strict)
    for a in schema.args:
        if a.name not in values and not a.has_default:
            raise _NoMatch
    out_args = []
    for a in positional:
        out_args.append(values.get(a.name, a.default))
    # trailing positional arguments equal to their defaults are not recorded
    n = len(out_args)
    while n and positional[n - 1].has_default and (
            positional[n - 1].name not in values
            or _same(values[positional[n - 1].name], positional[n - 1].default,
                     positional[n - 1].type)):
        n -= 1
    out_kwargs = {a.name: values[a.name] for a in schema.args
                  if a.kwarg_only and a.name in values
                  and not _same(values[a.name], a.default, a.type)}
    return tuple(out_args[:n]), out_kwargs


def bind(name: str, args: tuple, kwargs: dict,
         overload: str | None = None) -> tuple[Schema, tuple, dict] | None:
    """(the overload of ``aten::name`` the call picks, or ``overload``; its recorded args
    and kwargs), or None when no overload takes the call."""
    for strict in (True, False):
        for schema in schemas(name):
            if overload is not None and schema.overload != overload:
                continue
            try:
                a, k = _bind_one(schema, args, kwargs, strict)
            except _NoMatch:
                continue
            return schema, a, k
    return None

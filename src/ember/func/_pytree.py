"""Nested inputs and outputs (tuples, lists, dicts of tensors), flattened and rebuilt."""

from __future__ import annotations

from typing import Any

_LEAF = None


def tree_flatten(tree: Any) -> tuple[list, Any]:
    """The leaves of ``tree`` (depth first, dicts in key order) and its structure."""
    if isinstance(tree, (tuple, list)):
        leaves, specs = [], []
        for x in tree:
            sub, spec = tree_flatten(x)
            leaves += sub
            specs.append((len(sub), spec))
        return leaves, (type(tree), None, specs)
    if isinstance(tree, dict):
        leaves, specs = [], []
        keys = list(tree)
        for k in keys:
            sub, spec = tree_flatten(tree[k])
            leaves += sub
            specs.append((len(sub), spec))
        return leaves, (type(tree), keys, specs)
    return [tree], _LEAF


def tree_unflatten(leaves: list, spec: Any) -> Any:
    """The inverse of :func:`tree_flatten`."""
    if spec is _LEAF:
        return leaves[0]
    kind, keys, specs = spec
    parts, i = [], 0
    for n, sub in specs:
        parts.append(tree_unflatten(leaves[i:i + n], sub))
        i += n
    if keys is not None:
        return kind(zip(keys, parts))
    if kind is tuple or kind is list:
        return kind(parts)
    return kind(*parts)      # a namedtuple


def tree_map(fn, tree: Any) -> Any:
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(x) for x in leaves], spec)


def spec_repr(spec: Any, indent: int = 0) -> str:
    """The structure as torch's ``TreeSpec`` prints it (leaves are ``*``)."""
    if spec is _LEAF:
        return "*"
    kind, keys, specs = spec
    children = [sub for _, sub in specs]
    text = f"TreeSpec({kind.__name__}, {keys}, ["
    if children:
        indent += 2
        text += spec_repr(children[0], indent) + ("," if len(children) > 1 else "")
        text += ",".join("\n" + " " * indent + spec_repr(c, indent) for c in children[1:])
    return text + "])"

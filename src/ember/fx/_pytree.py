"""``torch.fx._pytree``: flatten a value along a known :class:`TreeSpec` (the inputs of a
GraphModule traced with container ``concrete_args``)."""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from typing import Any

from ..utils._pytree import TreeSpec, is_namedtuple_class, tree_flatten

__all__ = ["register_pytree_flatten_spec", "tree_flatten_spec"]

SUPPORTED_NODES: dict[type, Callable[[Any, TreeSpec], list]] = {}


def register_pytree_flatten_spec(cls: type, flatten_fn_spec: Callable[[Any, TreeSpec], list],
                                 flatten_fn_exact_match_spec: Any = None) -> None:
    """Flatten instances of ``cls`` with ``flatten_fn_spec(value, spec)`` (their children,
    in the spec's order)."""
    SUPPORTED_NODES[cls] = flatten_fn_spec


def tree_flatten_spec(pytree: Any, spec: TreeSpec) -> list:
    """The leaves of ``pytree`` at the places ``spec`` has leaves (a dict's keys in the
    spec's order; extra keys are ignored)."""
    if spec.is_leaf():
        return [pytree]
    flatten_fn = SUPPORTED_NODES.get(spec.type)
    if flatten_fn is None and isinstance(spec.type, type) and is_namedtuple_class(spec.type):
        flatten_fn = _sequence_flatten_spec         # the torch.return_types
    if flatten_fn is not None:
        result: list = []
        for child, child_spec in zip(flatten_fn(pytree, spec), spec.children(), strict=False):
            result += tree_flatten_spec(child, child_spec)
        return result
    flat_result, real_spec = tree_flatten(pytree)
    if spec != real_spec:
        raise RuntimeError(
            f"Real spec {real_spec} of object {pytree} is different from expected spec "
            f"{spec}. Please file an issue at "
            "https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml")
    return flat_result


def _dict_flatten_spec(d: dict, spec: TreeSpec) -> list:
    return [d[k] for k in spec.context]


def _sequence_flatten_spec(d: Any, spec: TreeSpec) -> list:
    return [d[i] for i in range(spec.num_children)]


register_pytree_flatten_spec(dict, _dict_flatten_spec)
register_pytree_flatten_spec(list, _sequence_flatten_spec)
register_pytree_flatten_spec(tuple, _sequence_flatten_spec)
register_pytree_flatten_spec(namedtuple, _sequence_flatten_spec)

"""``torch.fx.subgraph_rewriter``: replace the occurrences of a pattern in a
:class:`~ember.fx.GraphModule`'s graph by another subgraph."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..nn import Module as _Module
from ._symbolic_trace import symbolic_trace
from .graph import Graph
from .graph_module import GraphModule
from .node import Node

__all__ = ["Match", "replace_pattern", "replace_pattern_with_filters", "ReplacedPatterns"]


class Match(NamedTuple):
    """Where a pattern was replaced: the graph node its first output matched (``anchor``)
    and the pattern's nodes mapped to the graph's (``nodes_map``)."""

    anchor: Node
    nodes_map: dict[Node, Node]


@dataclass
class ReplacedPatterns:
    """A replaced occurrence of a pattern, with the nodes put in its place
    (``replacements``)."""

    anchor: Node
    nodes_map: dict[Node, Node]
    replacements: list[Node]


def _replace_attributes(gm: GraphModule, replacement: _Module) -> None:
    gm.delete_all_unused_submodules()
    if isinstance(replacement, GraphModule):
        replacement.graph.lint()

    def try_get_attr(mod: _Module, target: str) -> Any:
        module_path, _, attr_name = target.rpartition(".")
        try:
            mod = mod.get_submodule(module_path)
        except AttributeError:
            return None
        return getattr(mod, attr_name, None)

    for node in gm.graph.nodes:
        if node.op not in ("call_module", "get_attr"):
            continue
        if try_get_attr(gm, node.target) is not None:    # the module's own comes first
            continue
        replacement_attr = try_get_attr(replacement, node.target)
        if replacement_attr is None:
            raise RuntimeError('Attempted to create a "', node.op,
                               '" node during subgraph rewriting '
                               f"with target {node.target}, but "
                               "the referenced attribute does not "
                               "exist in the replacement GraphModule")
        new_attr = copy.deepcopy(replacement_attr)
        if isinstance(replacement_attr, _Module):
            gm.add_submodule(node.target, new_attr)
        else:
            setattr(gm, node.target, new_attr)
    gm.graph.lint()


def replace_pattern(gm: GraphModule, pattern: Callable[..., Any] | GraphModule,
                    replacement: Callable[..., Any] | GraphModule) -> list[Match]:
    """Replace every non-overlapping occurrence of ``pattern`` (a function, traced, or a
    GraphModule) in ``gm``'s graph by ``replacement`` (taking the same inputs), and
    recompile ``gm``. Nodes match by their operation and use-def relations, not by name;
    the pattern's inputs match any value, and only the nodes it returns may be used outside
    an occurrence. Returns the occurrences replaced, in graph order."""
    return [Match(anchor=m.anchor, nodes_map=m.nodes_map)
            for m in _replace_pattern(gm, pattern, replacement)]


def replace_pattern_with_filters(
        gm: GraphModule, pattern: Callable[..., Any] | Graph | GraphModule,
        replacement: Callable[..., Any] | Graph | GraphModule | None = None,
        match_filters: list[Callable[..., bool]] | None = None, ignore_literals: bool = False,
        replacement_callback: Callable[..., Graph] | None = None,
        node_name_match: str = "") -> list[ReplacedPatterns]:
    """:func:`replace_pattern`, keeping only the occurrences every
    ``match_filter(match, original_graph, pattern_graph)`` accepts; ``ignore_literals``
    lets literal arguments match any value, ``replacement_callback(match, original_graph,
    pattern_graph)`` builds each occurrence's replacement graph, and a non-empty
    ``node_name_match`` makes any graph node whose name contains it match."""
    return _replace_pattern(gm, pattern, replacement, match_filters, ignore_literals,
                            replacement_callback, node_name_match)


def _as_graph(obj: Any) -> Graph:
    if isinstance(obj, GraphModule):
        return obj.graph
    if isinstance(obj, Graph):
        return obj
    return symbolic_trace(obj).graph


def _replace_pattern(gm, pattern, replacement=None, match_filters=None,
                     ignore_literals=False, replacement_callback=None,
                     node_name_match="") -> list[ReplacedPatterns]:
    from .passes.utils.matcher_utils import SubgraphMatcher

    original_graph: Graph = gm.graph
    pattern_graph = _as_graph(pattern)
    matcher = SubgraphMatcher(pattern_graph, match_output=False, match_placeholder=False,
                              remove_overlapping_matches=True,
                              ignore_literals=ignore_literals)
    matches = [m for m in matcher.match(original_graph, node_name_match=node_name_match)
               if all(f(m, original_graph, pattern_graph) for f in match_filters or ())]
    if isinstance(replacement, (GraphModule, Graph)) or callable(replacement):
        common_replacement_graph = _as_graph(replacement)
    elif replacement_callback is None:
        raise AssertionError(
            "Must provide either a replacement GraphModule or a replacement callback")
    else:
        common_replacement_graph = None

    # what an earlier replacement put in place of a node a later match reads
    match_changed_node: dict[Node, Node] = {}
    match_and_replacements = []
    for match in matches:
        replacement_graph = (common_replacement_graph if replacement_callback is None else
                             replacement_callback(match, original_graph, pattern_graph))
        replacement_placeholders = [n for n in replacement_graph.nodes
                                    if n.op == "placeholder"]
        if len(match.placeholder_nodes) != len(replacement_placeholders):
            raise AssertionError(f"Placeholder count mismatch: {len(match.placeholder_nodes)}"
                                 f" vs {len(replacement_placeholders)}")
        val_map: dict[Node, Any] = {}
        for rn, gn in zip(replacement_placeholders, match.placeholder_nodes, strict=True):
            if isinstance(gn, Node):
                val_map[rn] = match_changed_node.get(gn, gn)
                if gn != val_map[rn]:
                    gn_ind = match.placeholder_nodes.index(gn)
                    match.placeholder_nodes[gn_ind] = match_changed_node[gn]
                    map_key = list(match.nodes_map.keys())[
                        list(match.nodes_map.values()).index(gn)]
                    match.nodes_map[map_key] = match_changed_node[gn]
            else:
                val_map[rn] = gn

        # the replacement goes before the first user of the nodes the match returns, or
        # (with no users) after the last of them
        user_nodes: set[Node] = set()
        for n in match.returning_nodes:
            user_nodes.update(n.users)
        insert_point = next((n for n in original_graph.nodes if n in user_nodes), None)
        if insert_point is None:
            next_node = None
            for n in reversed(original_graph.nodes):
                if n in match.returning_nodes:
                    insert_point = next_node
                    break
                next_node = n
        if insert_point is None:
            raise AssertionError("The insert point can't be None")
        with original_graph.inserting_before(insert_point):
            copied_returning_nodes = original_graph.graph_copy(replacement_graph, val_map)
        if isinstance(copied_returning_nodes, Node):
            copied_returning_nodes = (copied_returning_nodes,)
        replacement_nodes = [v for v in val_map.values() if v not in match.placeholder_nodes]
        if len(match.returning_nodes) != len(copied_returning_nodes):
            raise AssertionError(f"Returning nodes count mismatch: "
                                 f"{len(match.returning_nodes)} vs "
                                 f"{len(copied_returning_nodes)}")
        for gn, copied_node in zip(match.returning_nodes, copied_returning_nodes,
                                   strict=True):
            gn.replace_all_uses_with(copied_node)
            match_changed_node[gn] = copied_node
        for node in reversed(pattern_graph.nodes):
            if node.op not in ("placeholder", "output"):
                gm.graph.erase_node(match.nodes_map[node])
        match_and_replacements.append(ReplacedPatterns(
            anchor=match.anchors[0], nodes_map=match.nodes_map,
            replacements=replacement_nodes))
    gm.recompile()
    if isinstance(replacement, _Module):
        _replace_attributes(gm, replacement)
    return match_and_replacements


del annotations  # keep dir() to torch's names

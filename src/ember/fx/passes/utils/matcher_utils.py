"""``torch.fx.passes.utils.matcher_utils``: find the places where a pattern graph occurs in
a larger graph (:class:`SubgraphMatcher`)."""

from __future__ import annotations

import copy
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ...graph import Graph
from ...node import Node
from .fuser_utils import validate_partition as _validate_partition

__all__ = ["SubgraphMatcher", "InternalMatch"]


@dataclass
class InternalMatch:
    """One occurrence of a pattern: ``nodes_map`` maps the pattern's nodes to the graph's;
    ``placeholder_nodes`` are what the pattern's inputs matched, ``returning_nodes`` what
    its outputs matched."""

    anchors: list[Node]
    nodes_map: dict[Node, Node] = field(default_factory=dict)
    placeholder_nodes: list[Node] = field(default_factory=list)
    returning_nodes: list[Node] = field(default_factory=list)
    name_node_map: dict[str, Node] = field(default_factory=dict)

    def __copy__(self) -> InternalMatch:
        return InternalMatch(anchors=self.anchors, nodes_map=self.nodes_map.copy(),
                             placeholder_nodes=self.placeholder_nodes.copy(),
                             returning_nodes=self.returning_nodes.copy())


def _get_attr(model, target: str) -> Any:
    for atom in target.split("."):
        model = getattr(model, atom)
    return model


class SubgraphMatcher:
    """Matches ``pattern`` against graphs by walking both backwards from the pattern's
    outputs (its anchors), node against node: ``op`` and ``target`` must agree, and the
    arguments recursively; the pattern's placeholders match anything (unless
    ``match_placeholder``), and literal arguments must be equal (unless
    ``ignore_literals``)."""

    def __init__(self, pattern: Graph, match_output: bool = False,
                 match_placeholder: bool = False, remove_overlapping_matches: bool = True,
                 ignore_literals: bool = False) -> None:
        self.pattern = pattern
        self.match_output = match_output
        self.match_placeholder = match_placeholder
        self.remove_overlapping_matches = remove_overlapping_matches
        self.ignore_literals = ignore_literals
        if len(pattern.nodes) == 0:
            raise ValueError("SubgraphMatcher cannot be initialized with an empty pattern")
        for node in pattern.nodes:
            if node.op != "output" and not node.is_impure() and len(node.users) == 0:
                raise AssertionError(
                    "SubgraphMatcher cannot be initialized with an pattern with dead code")
        self.pattern_placeholder_nodes = [n for n in pattern.nodes if n.op == "placeholder"]
        output_node = next(iter(reversed(pattern.nodes)))
        self.pattern_returning_nodes: list[Node] = output_node.all_input_nodes
        if match_output:
            self.pattern_anchors = [output_node]
        else:
            # a node whose only user is the output is a sink of the pattern
            self.pattern_anchors = [n for n in output_node.all_input_nodes
                                    if len(n.users) == 1]

    def _match_attributes(self, pn: Node, gn: Node) -> bool:
        from .... import Tensor
        if not isinstance(pn.target, str):
            raise AssertionError(f"pn.target {pn.target} must be a string.")
        if not isinstance(gn.target, str):
            raise AssertionError(f"gn.target {gn.target} must be a string.")
        if pn.graph.owning_module is None:
            raise AssertionError("pn.graph.owning_module must not be None")
        if gn.graph.owning_module is None:
            raise AssertionError("gn.graph.owning_module must not be None")
        pn_value = _get_attr(pn.graph.owning_module, pn.target)
        gn_value = _get_attr(gn.graph.owning_module, gn.target)
        if type(pn_value) is not type(gn_value):
            return False
        if isinstance(pn_value, Tensor):       # the values need not agree
            return isinstance(gn_value, Tensor)
        raise RuntimeError(f"Unsupported type {pn_value} when matching attributes")

    def _nodes_are_equal(self, pn: Node, gn: Node, node_name_match: str = "") -> bool:
        if not self.match_placeholder and pn.op == "placeholder":
            return True
        if node_name_match and node_name_match in gn.name:
            return True
        if pn.op == gn.op:
            if pn.op in ("placeholder", "output"):
                return True
            if pn.op == "get_attr":
                return self._match_attributes(pn, gn)
            return pn.target == gn.target
        return False

    def _is_contained(self, nodes_map: dict[Node, Node]) -> bool:
        # only the placeholders and the returned nodes may be used outside the match
        lookup = {gn: pn for pn, gn in nodes_map.items() if pn.op != "placeholder"}
        for gn, pn in lookup.items():
            if pn in self.pattern_returning_nodes:
                continue
            if any(user not in lookup for user in gn.users):
                return False
        return True

    def _remove_overlapping_matches(self, matches: list[InternalMatch]) -> list[InternalMatch]:
        non_overlapping: list[InternalMatch] = []
        nodes_matched: set[Node] = set()
        for match in matches:
            inner = [gn for pn, gn in match.nodes_map.items()
                     if pn.op not in ("placeholder", "output")]
            if not any(gn in nodes_matched for gn in inner):
                non_overlapping.append(match)
                nodes_matched.update(inner)
        return non_overlapping

    def _match_literals(self, pn: Any, gn: Any, match: InternalMatch) -> bool:
        if isinstance(pn, Node) and isinstance(gn, Node):
            raise AssertionError("pn and gn cannot both be Node")
        if isinstance(pn, Node):
            if pn.op == "placeholder":
                if pn in match.nodes_map:
                    return match.nodes_map[pn] == gn
                match.nodes_map[pn] = gn
                return True
            return False
        if isinstance(gn, Node):
            return False
        return type(gn) is type(pn) and gn == pn

    def _match_nodes(self, pn: Node, gn: Node, match: InternalMatch,
                     node_name_match: str = "") -> bool:
        if not (isinstance(pn, Node) and isinstance(gn, Node)):
            raise AssertionError(f"pn and gn must be Node, pn: {pn}, gn: {gn}")
        if pn in match.nodes_map:
            return match.nodes_map[pn] == gn
        if gn in match.nodes_map.values():
            return False
        if not self._nodes_are_equal(pn, gn, node_name_match):
            return False
        match.nodes_map[pn] = gn
        if pn.op == "placeholder":      # a wildcard: matches any value
            return True

        def match_args(args1, args2) -> bool:
            if len(args1) != len(args2):
                return False
            for a1, a2 in zip(args1, args2, strict=True):
                if isinstance(a1, Node) and isinstance(a2, Node):
                    matched = self._match_nodes(a1, a2, match)
                elif isinstance(a1, (list, tuple)) and isinstance(a2, (list, tuple)):
                    matched = match_args(a1, a2)
                else:
                    matched = self._match_literals(a1, a2, match) or self.ignore_literals
                if not matched:
                    return False
            return True

        # a failed match leaves its partial entries in ``match``, as torch's does
        if len(pn.args) != len(gn.args) or list(pn.kwargs) != list(gn.kwargs):
            return False
        return match_args([*pn.args, *pn.kwargs.values()], [*gn.args, *gn.kwargs.values()])

    def match(self, graph: Graph, node_name_match: str = "") -> list[InternalMatch]:
        """The occurrences of the pattern in ``graph``, each self-contained (only the nodes
        matching the pattern's inputs and outputs are used outside it), none closing a
        cycle if fused, and (with ``remove_overlapping_matches``) none sharing a node with
        an earlier one."""
        match_candidates: dict[Node, list[Node]] = defaultdict(list)
        for pattern_anchor in self.pattern_anchors:
            for node in graph.nodes:
                if self._nodes_are_equal(pattern_anchor, node, node_name_match):
                    match_candidates[pattern_anchor].append(node)
        match_candidates_list = list(match_candidates.items())
        matches: list[InternalMatch] = []

        def backtracking(anchor_index: int, match: InternalMatch) -> None:
            if anchor_index == len(match_candidates_list):
                match.placeholder_nodes = [match.nodes_map[pn]
                                           for pn in self.pattern_placeholder_nodes]
                match.returning_nodes = [match.nodes_map[pn]
                                         for pn in self.pattern_returning_nodes]
                matches.append(match)
                return
            pattern_anchor, candidate_nodes = match_candidates_list[anchor_index]
            saved_match = copy.copy(match)
            for node in candidate_nodes:
                if self._match_nodes(pattern_anchor, node, match, node_name_match):
                    backtracking(anchor_index + 1, match)
                match = copy.copy(saved_match)

        if match_candidates_list:
            backtracking(0, InternalMatch(anchors=self.pattern_anchors))
        matches = [m for m in matches if self._is_contained(m.nodes_map)]
        matches = [m for m in matches if _validate_partition(
            [gn for pn, gn in m.nodes_map.items() if pn.op not in ("placeholder", "output")])]
        if self.remove_overlapping_matches:
            matches = self._remove_overlapping_matches(matches)
        return matches


del annotations  # keep dir() to torch's names

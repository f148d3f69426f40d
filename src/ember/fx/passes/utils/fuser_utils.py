"""``torch.fx.passes.utils.fuser_utils``: checks on groups of nodes meant to become one."""

from __future__ import annotations

from ...node import Node

__all__ = ["validate_partition"]


def validate_partition(partition: list[Node]) -> bool:
    """Whether the nodes of ``partition`` can be fused into one without a dependency cycle
    (no path leaves the partition and comes back into it)."""
    partition_set = set(partition)
    queue = [user for node in partition_set for user in node.users
             if user not in partition_set]
    visited: set[Node] = set()
    while queue:
        current = queue.pop()
        visited.add(current)
        if current in partition_set:
            return False
        queue.extend(user for user in current.users if user not in visited)
    return True


del annotations  # keep dir() to torch's names

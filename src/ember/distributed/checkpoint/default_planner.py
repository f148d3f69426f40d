"""The planners ``save`` and ``load`` use unless told otherwise."""

from .planner import LoadPlanner, SavePlanner

__all__ = ["DefaultSavePlanner", "DefaultLoadPlanner"]


class DefaultSavePlanner(SavePlanner):
    """Saves each rank's shards, each replicated tensor once (from the lowest rank), nested
    containers flattened to dotted keys."""

    def __init__(self, flatten_state_dict: bool = True, flatten_sharded_tensors: bool = True,
                 dedup_replicated_tensors=None, dedup_save_to_lowest_rank: bool = False,
                 enable_plan_caching: bool = False) -> None:
        self.flatten_state_dict = flatten_state_dict
        self.flatten_sharded_tensors = flatten_sharded_tensors
        self.dedup_save_to_lowest_rank = dedup_save_to_lowest_rank
        self.enable_plan_caching = enable_plan_caching


class DefaultLoadPlanner(LoadPlanner):
    """Loads every key of the target state dict (with ``allow_partial_load``, keys the
    checkpoint lacks are left as they are), tensors in place, from whichever saved chunks
    overlap each target (so a checkpoint loads into a differently sharded model)."""

    def __init__(self, flatten_state_dict: bool = True, flatten_sharded_tensors: bool = True,
                 allow_partial_load: bool = False) -> None:
        self.flatten_state_dict = flatten_state_dict
        self.flatten_sharded_tensors = flatten_sharded_tensors
        self.allow_partial_load = allow_partial_load

"""``load``: every rank fills its (sharded) state dict from a checkpoint, in place."""

from __future__ import annotations

import warnings

from . import _core
from .default_planner import DefaultLoadPlanner
from .filesystem import FileSystemReader as _FileSystemReader

__all__ = ["load_state_dict", "load"]


def load(state_dict: dict, *, checkpoint_id=None, storage_reader=None, planner=None,
         process_group=None, no_dist: bool = False) -> None:
    """Load a checkpoint into ``state_dict`` in place, SPMD style: each tensor (or each
    local shard of a ``ShardedTensor``) is filled from the saved chunks that overlap it, so
    the checkpoint may have been saved by differently sharded ranks; other values are
    replaced; ``Stateful`` values get ``load_state_dict``."""
    storage_reader = _core.storage(checkpoint_id, storage_reader, _FileSystemReader)
    _core.load(state_dict, storage_reader, planner or DefaultLoadPlanner(), process_group,
               no_dist)


def load_state_dict(state_dict: dict, storage_reader, process_group=None,
                    coordinator_rank: int = 0, no_dist: bool = False, planner=None) -> None:
    """The former name of ``load`` (torch deprecates it)."""
    warnings.warn("'load_state_dict' is deprecated and will be removed in future versions. "
                  "Please use 'load' instead.", FutureWarning, stacklevel=2)
    load(state_dict, storage_reader=storage_reader, process_group=process_group,
         no_dist=no_dist, planner=planner)


del annotations

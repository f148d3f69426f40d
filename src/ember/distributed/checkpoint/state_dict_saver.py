"""``save``: every rank writes its part of a (sharded) state dict to a checkpoint."""

from __future__ import annotations

import warnings

from . import _core
from .default_planner import DefaultSavePlanner
from .filesystem import FileSystemWriter as _FileSystemWriter

__all__ = ["save_state_dict", "save", "async_save"]


def save(state_dict: dict, *, checkpoint_id=None, storage_writer=None, planner=None,
         process_group=None, no_dist: bool = False, use_collectives: bool = True):
    """Save ``state_dict`` SPMD style: every rank of the group calls it with its own state
    dict; each ``ShardedTensor``'s local shards are written by the rank holding them, other
    tensors and values once. ``checkpoint_id`` (a directory) or ``storage_writer`` says
    where. Returns the checkpoint's ``Metadata``."""
    storage_writer = _core.storage(checkpoint_id, storage_writer, _FileSystemWriter)
    return _core.save(state_dict, storage_writer, planner or DefaultSavePlanner(),
                      process_group, no_dist)


def save_state_dict(state_dict: dict, storage_writer, process_group=None,
                    coordinator_rank: int = 0, no_dist: bool = False, planner=None):
    """The former name of ``save`` (torch deprecates it)."""
    warnings.warn("'save_state_dict' is deprecated and will be removed in future versions."
                  "Please use 'save' instead.", FutureWarning, stacklevel=2)
    return save(state_dict, storage_writer=storage_writer, process_group=process_group,
                no_dist=no_dist, planner=planner)


def async_save(state_dict: dict, *, checkpoint_id=None, storage_writer=None, planner=None,
               process_group=None, async_checkpointer_type=None, async_stager=None,
               no_dist: bool = False, use_collectives: bool = True):
    """``save``, done before returning; the result is a completed future."""
    from ...futures import Future
    fut = Future()
    fut.set_result(save(state_dict, checkpoint_id=checkpoint_id,
                        storage_writer=storage_writer, planner=planner,
                        process_group=process_group, no_dist=no_dist))
    return fut


del annotations

"""torch.multiprocessing: Python's :mod:`multiprocessing`, plus torch's ``spawn``.

Ember's tensors are NumPy arrays and pickle by value, so no shared-memory reducers are
registered; everything else is Python's module, as torch re-exports it.
"""

from __future__ import annotations

import multiprocessing as _mp
from multiprocessing import *  # noqa: F403

from .spawn import (
    ProcessContext,
    ProcessExitedException,
    ProcessRaisedException,
    spawn,
    start_processes,
)

__all__ = ["ProcessContext", "ProcessExitedException", "ProcessRaisedException", "spawn",
           "start_processes", *_mp.__all__]


def get_all_sharing_strategies() -> set[str]:
    """The tensor sharing strategies (torch's answer on Linux)."""
    return {"file_descriptor", "file_system"}


_sharing_strategy = "file_descriptor"


def set_sharing_strategy(new_strategy: str) -> None:
    """Choose how tensors are shared between processes (recorded; arrays pickle by value)."""
    global _sharing_strategy
    assert new_strategy in get_all_sharing_strategies()
    _sharing_strategy = new_strategy


def get_sharing_strategy() -> str:
    return _sharing_strategy


del annotations  # keep dir() to torch's names

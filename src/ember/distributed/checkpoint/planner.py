"""The planners' base classes and the items they plan (what each rank writes or reads)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, auto
from typing import Any

__all__ = ["WriteItemType", "LoadItemType", "WriteItem", "ReadItem", "SavePlan", "LoadPlan",
           "SavePlanner", "LoadPlanner"]


class WriteItemType(Enum):
    TENSOR = auto()
    SHARD = auto()
    BYTE_IO = auto()


class LoadItemType(Enum):
    TENSOR = auto()
    BYTE_IO = auto()


@dataclass(frozen=True)
class WriteItem:
    """One thing a rank writes: a tensor chunk (``index`` names it) or pickled bytes."""

    index: Any
    type: WriteItemType
    tensor_data: Any = None


@dataclass(frozen=True)
class ReadItem:
    """One thing a rank reads: part of a saved chunk into part of a target."""

    type: LoadItemType
    dest_index: Any
    dest_offsets: tuple
    storage_index: Any
    storage_offsets: tuple
    lengths: tuple


@dataclass(frozen=True)
class SavePlan:
    items: list
    storage_data: Any = None
    planner_data: Any = None
    usable: bool = True


@dataclass
class LoadPlan:
    items: list
    storage_data: Any = None
    planner_data: Any = None


class SavePlanner:
    """Decides what a rank saves (``DefaultSavePlanner`` is the one ``save`` uses)."""

    flatten_state_dict: bool = True


class LoadPlanner:
    """Decides what a rank loads (``DefaultLoadPlanner`` is the one ``load`` uses)."""

    flatten_state_dict: bool = True
    allow_partial_load: bool = False


del annotations

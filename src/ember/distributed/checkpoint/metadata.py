"""What a distributed checkpoint's ``.metadata`` file records: every saved key, and for a
tensor its global size and the chunks (offsets and sizes) that the ranks wrote."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ChunkStorageMetadata", "TensorStorageMetadata", "BytesStorageMetadata",
           "Metadata", "MetadataIndex", "TensorProperties", "StorageMeta"]


@dataclass
class ChunkStorageMetadata:
    """One saved chunk of a tensor: where it starts and how large it is."""

    offsets: tuple
    sizes: tuple


@dataclass
class TensorProperties:
    """The saved tensor's dtype (and torch's other creation properties)."""

    dtype: Any = None
    layout: Any = None
    requires_grad: bool = False
    memory_format: Any = None
    pin_memory: bool = False


@dataclass
class TensorStorageMetadata:
    """A saved tensor: its properties, global size and chunks."""

    properties: TensorProperties
    size: tuple
    chunks: list


@dataclass
class BytesStorageMetadata:
    """A saved non-tensor value (pickled)."""


@dataclass
class StorageMeta:
    """Where the checkpoint was saved."""

    checkpoint_id: str | os.PathLike | None = None
    save_id: str | None = None
    load_id: str | None = None
    modules: list = field(default_factory=list)


@dataclass
class Metadata:
    """The whole checkpoint: each key's storage metadata, and where each item's bytes are."""

    state_dict_metadata: dict
    planner_data: Any = None
    storage_data: Any = None
    storage_meta: StorageMeta | None = None
    version: str | None = None


@dataclass(frozen=True)
class MetadataIndex:
    """Names one saved item: its key and, for a tensor chunk, the chunk's offsets."""

    fqn: str
    offset: tuple | None = None
    index: int | None = field(hash=False, compare=False, default=None)


del annotations

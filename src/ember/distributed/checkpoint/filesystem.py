"""Checkpoints in a directory: ``__<rank>_0.distcp`` holds what rank ``<rank>`` wrote (each
item pickled, one after the other; the metadata records each item's offset and length) and
``.metadata`` the pickled ``Metadata``."""

from __future__ import annotations

import os
import pickle
from dataclasses import dataclass

from .metadata import Metadata

__all__ = ["FileSystemWriter", "FileSystemReader"]

_metadata_fn = ".metadata"


@dataclass
class _StorageInfo:
    """Where one item's bytes are."""

    relative_path: str
    offset: int
    length: int


class FileSystemWriter:
    """Writes a checkpoint into the directory ``path`` (made if missing)."""

    def __init__(self, path, single_file_per_rank: bool = True, sync_files: bool = True,
                 thread_count: int = 1, per_thread_copy_ahead: int = 10_000_000,
                 cache_staged_state_dict: bool = False, overwrite: bool = True,
                 _extensions=None, serialization_format=None) -> None:
        self.path = os.fspath(path)
        self.single_file_per_rank = single_file_per_rank
        self.sync_files = sync_files
        self.thread_count = thread_count
        self.overwrite = overwrite

    def _write_items(self, rank: int, items: list) -> dict:
        """Write ``(MetadataIndex, value)`` pairs; returns index -> _StorageInfo."""
        os.makedirs(self.path, exist_ok=True)
        name = f"__{rank}_0.distcp"
        where = {}
        with open(os.path.join(self.path, name), "wb") as f:
            for index, value in items:
                blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
                where[index] = _StorageInfo(name, f.tell(), len(blob))
                f.write(blob)
            if self.sync_files:
                f.flush()
                os.fsync(f.fileno())
        return where

    def _write_metadata(self, metadata: Metadata) -> None:
        path = os.path.join(self.path, _metadata_fn)
        if os.path.exists(path) and not self.overwrite:
            raise RuntimeError(f"Checkpoint already exists at {self.path} and overwrite is "
                               "False")
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            pickle.dump(metadata, f)
            if self.sync_files:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)


class FileSystemReader:
    """Reads a checkpoint from the directory ``path``."""

    def __init__(self, path, _extension_registry=None) -> None:
        self.path = os.fspath(path)

    def read_metadata(self) -> Metadata:
        """The checkpoint's ``Metadata``."""
        with open(os.path.join(self.path, _metadata_fn), "rb") as f:
            return pickle.load(f)

    def _read_item(self, info: _StorageInfo):
        with open(os.path.join(self.path, info.relative_path), "rb") as f:
            f.seek(info.offset)
            return pickle.loads(f.read(info.length))


del annotations

"""What ``save`` and ``load`` do: flatten the state dict to dotted keys, write each rank's
shards and the replicated values once, record every chunk in the metadata; on load, fill
each target (a tensor, or a ``ShardedTensor``'s local shards) from the saved chunks that
overlap it."""

from __future__ import annotations

import os as _os

import numpy as _np

from ..._tensor import Tensor as _Tensor
from .. import distributed_c10d as _c10d
from ..fsdp._shard_utils import ShardedTensor
from ..tensor import DTensor
from .api import CheckpointException
from .metadata import (
    BytesStorageMetadata,
    ChunkStorageMetadata,
    Metadata,
    MetadataIndex,
    StorageMeta,
    TensorProperties,
    TensorStorageMetadata,
)
from .stateful import Stateful


def storage(checkpoint_id, given, cls):
    """The storage reader or writer ``save``/``load`` use: ``given``, pointed at
    ``checkpoint_id`` if one is named, else ``cls(checkpoint_id)``."""
    if given:
        if checkpoint_id is not None:
            given.path = _os.fspath(checkpoint_id)
        return given
    if not checkpoint_id:
        raise RuntimeError("`checkpoint_id` must be specified if "
                           "storage_reader/storage_writer is None.")
    return cls(checkpoint_id)


def flatten(state_dict: dict) -> tuple[dict, dict]:
    """Nested dicts and lists flattened to dotted keys; the mapping leads back to each
    value's place (a path of keys)."""
    flat, mapping = {}, {}

    def visit(path, value):
        if isinstance(value, dict) and not isinstance(value, ShardedTensor) and (
                path == () or value):
            for k, v in value.items():
                visit(path + (k,), v)
        elif isinstance(value, list) and value and all(
                isinstance(v, (_Tensor, ShardedTensor, dict, list)) for v in value):
            for i, v in enumerate(value):
                visit(path + (i,), v)
        else:
            key = ".".join(str(p) for p in path)
            flat[key] = value
            mapping[key] = path

    visit((), state_dict)
    return flat, mapping


def set_path(root, path: tuple, value) -> None:
    for p in path[:-1]:
        root = root[p]
    root[path[-1]] = value


def _group(process_group, no_dist: bool):
    if no_dist or not _c10d.is_initialized():
        return None
    return _c10d._pg(process_group)


def _states(state_dict: dict) -> dict:
    return {k: (v.state_dict() if isinstance(v, Stateful) and not isinstance(v, _Tensor)
                else v) for k, v in state_dict.items()}


def _dtensor_chunk(value, coord) -> tuple[tuple, tuple]:
    """(offsets, sizes) of the piece of DTensor ``value`` that the mesh coordinate ``coord``
    holds (``torch.chunk``'s pieces along each sharded dimension, mesh dimensions in order)."""
    lo, size = [0] * value.ndim, list(value.shape)
    for i, p in enumerate(value.placements):
        if p.is_shard():
            n = value.device_mesh.size(i)
            step = -(-size[p.dim] // n)
            start = min(coord[i] * step, size[p.dim])
            lo[p.dim] += start
            size[p.dim] = min(step, size[p.dim] - start)
    return tuple(lo), tuple(size)


def _dtensor_pieces(value) -> tuple[list, tuple | None]:
    """The distinct nonempty pieces of a DTensor, as ChunkStorageMetadata, and this rank's
    (offsets, writes) where ``writes`` is whether this rank saves its piece (the first
    replica of it)."""
    import itertools
    mesh = value.device_mesh
    chunks = {}
    for coord in itertools.product(*(range(n) for n in mesh.shape)):
        offsets, sizes = _dtensor_chunk(value, coord)
        if all(sizes):
            chunks.setdefault(offsets, ChunkStorageMetadata(offsets, sizes))
    mine = mesh.get_coordinate()
    if mine is None:
        return list(chunks.values()), None
    offsets, sizes = _dtensor_chunk(value, mine)
    writes = all(sizes) and all(c == 0 for c, p in zip(mine, value.placements)
                                if not p.is_shard())
    return list(chunks.values()), (offsets, writes)


def _replicated_partials(value):
    from ..tensor import Replicate
    if any(p.is_partial() for p in value.placements):
        return value.redistribute(placements=[Replicate() if p.is_partial() else p
                                              for p in value.placements])
    return value


def save(state_dict: dict, writer, planner, process_group, no_dist: bool) -> Metadata:
    pg = _group(process_group, no_dist)
    rank = pg.rank() if pg is not None else 0
    flat, _ = flatten(_states(state_dict)) if planner.flatten_state_dict else (
        dict(_states(state_dict)), None)
    items, meta = [], {}
    for key, value in flat.items():
        if isinstance(value, DTensor):
            value = _replicated_partials(value)
            chunks, mine = _dtensor_pieces(value)
            if mine is not None and mine[1]:
                items.append((MetadataIndex(key, mine[0]),
                              value._local_tensor.detach().numpy().copy()))
            meta[key] = TensorStorageMetadata(TensorProperties(dtype=value.dtype),
                                              tuple(value.shape), chunks)
        elif isinstance(value, ShardedTensor):
            for s in value.local_shards():
                offsets = tuple(s.metadata.shard_offsets)
                items.append((MetadataIndex(key, offsets), s.tensor.detach().numpy().copy()))
            meta[key] = TensorStorageMetadata(
                TensorProperties(dtype=value.dtype), tuple(value.size()),
                [ChunkStorageMetadata(tuple(m.shard_offsets), tuple(m.shard_sizes))
                 for m in value.metadata().shards_metadata])
        elif isinstance(value, _Tensor):
            offsets = (0,) * value.dim()
            if rank == 0:
                items.append((MetadataIndex(key, offsets), value.detach().numpy().copy()))
            meta[key] = TensorStorageMetadata(TensorProperties(dtype=value.dtype),
                                              tuple(value.shape),
                                              [ChunkStorageMetadata(offsets, tuple(value.shape))])
        else:
            if rank == 0:
                items.append((MetadataIndex(key), value))
            meta[key] = BytesStorageMetadata()
    where = writer._write_items(rank, items)
    if pg is not None:
        everyone = [None] * pg.size()
        _c10d.all_gather_object(everyone, where, group=pg)
    else:
        everyone = [where]
    storage = {k: v for w in everyone for k, v in w.items()}
    metadata = Metadata(meta, storage_data=storage,
                        storage_meta=StorageMeta(checkpoint_id=writer.path), version="1.0.0")
    if rank == 0:
        writer._write_metadata(metadata)
    if pg is not None:
        _c10d.barrier(group=pg)
    return metadata


def _targets(value):
    """(offsets, array to fill) of each region a loaded value fills."""
    if isinstance(value, ShardedTensor):
        return [(tuple(s.metadata.shard_offsets), s.tensor) for s in value.local_shards()]
    if isinstance(value, DTensor):
        coord = value.device_mesh.get_coordinate()
        if coord is None or not value._local_tensor.numel():
            return []
        return [(_dtensor_chunk(value, coord)[0], value._local_tensor)]
    return [((0,) * value.dim(), value)]


def load(state_dict: dict, reader, planner, process_group, no_dist: bool) -> None:
    pg = _group(process_group, no_dist)
    try:
        _load(state_dict, reader, planner)
    except Exception as e:
        # torch gathers each rank's failure into one CheckpointException
        rank = pg.rank() if pg is not None else 0
        raise CheckpointException(f"rank {rank} failed to load", {rank: e}) from e


def _load(state_dict: dict, reader, planner) -> None:
    metadata = reader.read_metadata()
    stateful = {k: v for k, v in state_dict.items()
                if isinstance(v, Stateful) and not isinstance(v, _Tensor)}
    work = _states(state_dict)
    flat, mapping = flatten(work) if planner.flatten_state_dict else (
        dict(work), {k: (k,) for k in work})
    cache: dict = {}

    def read(index):
        if index not in cache:
            cache[index] = reader._read_item(metadata.storage_data[index])
        return cache[index]

    for key, value in flat.items():
        saved = metadata.state_dict_metadata.get(key)
        if saved is None:
            if planner.allow_partial_load:
                continue
            raise RuntimeError(f"Missing key in checkpoint state_dict: {key}.")
        if isinstance(saved, BytesStorageMetadata):
            set_path(work, mapping[key], read(MetadataIndex(key)))
            continue
        if not isinstance(value, (_Tensor, ShardedTensor)):
            raise RuntimeError(f"{key}: the checkpoint holds a tensor, the state dict a "
                               f"{type(value).__name__}")
        full = tuple(value.size()) if isinstance(value, ShardedTensor) else tuple(value.shape)
        if full != tuple(saved.size):
            raise ValueError(f"Size mismatch between saved {saved.size} and current: "
                             f"{full} for {key}")
        for offsets, target in _targets(value):
            arr = target._data
            for chunk in saved.chunks:
                lo = [max(a, b) for a, b in zip(offsets, chunk.offsets)]
                hi = [min(a + n, b + m) for a, n, b, m in
                      zip(offsets, arr.shape, chunk.offsets, chunk.sizes)]
                if any(h <= l for l, h in zip(lo, hi)) and arr.ndim:
                    continue
                data = read(MetadataIndex(key, tuple(chunk.offsets)))
                dst = tuple(slice(l - o, h - o) for l, h, o in zip(lo, hi, offsets))
                src = tuple(slice(l - o, h - o) for l, h, o in zip(lo, hi, chunk.offsets))
                arr[dst] = _np.asarray(data[src]).astype(arr.dtype, copy=False)
            target._vc.value += 1
    for k, obj in stateful.items():
        obj.load_state_dict(work[k])
    for k, v in work.items():
        if k not in stateful:
            state_dict[k] = v


del annotations

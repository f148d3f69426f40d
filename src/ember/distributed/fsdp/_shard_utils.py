"""A tensor sharded across ranks, as the sharded state dicts give it (torch's
``ShardedTensor``, reduced to what FSDP's state dicts and ``distributed.checkpoint`` use):
each rank holds its local shards, and every rank knows where every shard lies in the
global tensor."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as _np

from ..._tensor import Tensor as _Tensor
from .. import distributed_c10d as _c10d


@dataclass
class ShardMetadata:
    """Where one shard lies in the global tensor, and which rank holds it."""

    shard_offsets: list
    shard_sizes: list
    placement: str = ""


@dataclass
class Shard:
    """One local shard: its tensor and its metadata."""

    tensor: _Tensor
    metadata: ShardMetadata


@dataclass
class ShardedTensorMetadata:
    """The global tensor's shards, size and dtype."""

    shards_metadata: list
    size: tuple
    dtype: object


class ShardedTensor:
    """A global tensor of ``size`` of which this rank holds ``local_shards()``."""

    def __init__(self, local_shards: list, size, dtype, shards_metadata: list, pg) -> None:
        self._local_shards = local_shards
        self._size = tuple(size)
        self.dtype = dtype
        self._metadata = ShardedTensorMetadata(shards_metadata, self._size, dtype)
        self._pg = pg

    @classmethod
    def from_local(cls, local: _Tensor | None, offsets: list, size, dtype, pg):
        """Every rank's shard (``local`` at ``offsets``; None for no shard), agreed across
        the group, as one sharded tensor."""
        mine = None if local is None else (list(offsets), list(local.shape))
        everyone = [None] * pg.size()
        _c10d.all_gather_object(everyone, mine, group=pg)
        metas = [ShardMetadata(o, s, f"rank:{r}/cpu")
                 for r, m in enumerate(everyone) if m is not None for o, s in [m]]
        shards = [] if local is None else [
            Shard(local, ShardMetadata(list(offsets), list(local.shape),
                                       f"rank:{pg.rank()}/cpu"))]
        return cls(shards, size, dtype, metas, pg)

    def local_shards(self) -> list:
        return self._local_shards

    def metadata(self) -> ShardedTensorMetadata:
        return self._metadata

    def size(self, dim: int | None = None):
        from ..._tensor import Size
        s = Size(self._size)
        return s if dim is None else s[dim]

    @property
    def shape(self):
        return self.size()

    def local_tensor(self) -> _Tensor:
        if len(self._local_shards) != 1:
            raise NotImplementedError("Only single local shard is supported.")
        return self._local_shards[0].tensor

    def full(self) -> _Tensor:
        """The global tensor, put together from every rank's shards (a collective)."""
        mine = [(s.metadata.shard_offsets, s.tensor.detach().numpy())
                for s in self._local_shards]
        everyone = [None] * self._pg.size()
        _c10d.all_gather_object(everyone, mine, group=self._pg)
        out = _np.zeros(self._size, self.dtype.np)
        for shards in everyone:
            for offsets, arr in shards:
                out[tuple(slice(o, o + n) for o, n in zip(offsets, arr.shape))] = arr
        return _Tensor._wrap(out)

    def __repr__(self) -> str:
        return f"ShardedTensor({self._metadata})"


def chunk_dim0(full: _Tensor, pg) -> ShardedTensor:
    """``full`` sharded as FSDP's sharded state dict shards a parameter: ``torch.chunk``
    along dim 0, chunk ``rank`` on each rank (none where chunk gives fewer)."""
    world, rank = pg.size(), pg.rank()
    if full.dim() == 0:
        local = full.detach().clone() if rank == 0 else None
        return ShardedTensor.from_local(local, [], (), full.dtype, pg)
    chunks = full.chunk(world, 0) if full.shape[0] else ()
    step = chunks[0].shape[0] if chunks else 0
    local = chunks[rank].detach().clone() if rank < len(chunks) else None
    offsets = [rank * step] + [0] * (full.dim() - 1)
    return ShardedTensor.from_local(local, offsets, tuple(full.shape), full.dtype, pg)


del annotations

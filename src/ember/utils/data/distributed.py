"""``DistributedSampler``: each rank's share of a dataset, in torch's exact order."""

from __future__ import annotations

import math
from collections.abc import Iterator
from collections.abc import Sized as _Sized
from typing import TypeVar

from .sampler import Sampler

__all__ = ["DistributedSampler"]

_T_co = TypeVar("T_co", covariant=True)


class DistributedSampler(Sampler[_T_co]):
    """The indices of ``dataset`` that rank ``rank`` of ``num_replicas`` visits.

    As torch's: with ``shuffle`` a permutation drawn from a generator seeded with
    ``seed + epoch`` (call :meth:`set_epoch` each epoch), padded by repeating the first
    indices to a multiple of ``num_replicas`` (or cut to one with ``drop_last``), then every
    ``num_replicas``-th index from ``rank`` on. ``num_replicas`` and ``rank`` default to the
    default process group's world size and rank.

    >>> list(DistributedSampler(range(5), num_replicas=2, rank=1, shuffle=False))
    [1, 3, 0]
    """

    def __init__(self, dataset: _Sized, num_replicas: int | None = None, rank: int | None = None,
                 shuffle: bool = True, seed: int = 0, drop_last: bool = False) -> None:
        from ... import distributed as dist
        if num_replicas is None:
            if not dist.is_available():
                raise RuntimeError("Requires distributed package to be available")
            num_replicas = dist.get_world_size()
        if rank is None:
            if not dist.is_available():
                raise RuntimeError("Requires distributed package to be available")
            rank = dist.get_rank()
        if rank >= num_replicas or rank < 0:
            raise ValueError(
                f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]")
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        if self.drop_last and len(self.dataset) % self.num_replicas != 0:
            self.num_samples = math.ceil((len(self.dataset) - self.num_replicas)
                                         / self.num_replicas)
        else:
            self.num_samples = math.ceil(len(self.dataset) / self.num_replicas)
        self.total_size = self.num_samples * self.num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self) -> Iterator[_T_co]:
        if self.shuffle:
            from ..._factories import randperm
            from ...random import Generator
            g = Generator()
            g.manual_seed(self.seed + self.epoch)
            indices = randperm(len(self.dataset), generator=g).tolist()
        else:
            indices = list(range(len(self.dataset)))
        if not self.drop_last:
            padding_size = self.total_size - len(indices)
            if padding_size <= len(indices):
                indices += indices[:padding_size]
            else:
                indices += (indices * math.ceil(padding_size / len(indices)))[:padding_size]
        else:
            indices = indices[:self.total_size]
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """Set the epoch: with ``shuffle``, each epoch draws another order."""
        self.epoch = epoch


del annotations  # keep dir() to torch's names

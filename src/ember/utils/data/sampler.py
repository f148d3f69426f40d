"""Samplers: the order in which a DataLoader visits a map-style dataset's indices.

``RandomSampler`` reproduces torch's draws exactly: without a generator it takes a seed from
the default generator (``empty((), dtype=int64).random_()``) and permutes with a fresh
generator seeded by it; with one it permutes with that generator directly.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence, Sized
from typing import Generic, TypeVar

from ... import _dtype as _D
from ... import _factories as _F

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler",
           "WeightedRandomSampler", "BatchSampler"]

_T_co = TypeVar("T_co", covariant=True)


def _draw_seed(generator=None) -> int:
    """torch's ``int(torch.empty((), dtype=torch.int64).random_(generator=g).item())``."""
    return int(_F.empty((), dtype=_D.int64).random_(generator=generator).item())


class Sampler(Generic[_T_co]):
    """Base class: an iterable over dataset indices (or batches of them)."""

    def __init__(self, data_source: Sized | None = None) -> None:
        pass

    def __iter__(self) -> Iterator[_T_co]:
        raise NotImplementedError


class SequentialSampler(Sampler[int]):
    """Indices ``0 … len(data_source)-1`` in order.

    >>> list(SequentialSampler(range(3)))
    [0, 1, 2]
    """

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler[int]):
    """Random indices: a permutation (or ``num_samples`` draws with replacement)."""

    def __init__(self, data_source: Sized, replacement: bool = False,
                 num_samples: int | None = None, generator=None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError("replacement should be a boolean value, but got "
                            f"replacement={self.replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        from ...random import Generator
        n = len(self.data_source)
        if self.generator is None:
            seed = _draw_seed()
            generator = Generator()
            generator.manual_seed(seed)
        else:
            generator = self.generator
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from _F.randint(high=n, size=(32,), dtype=_D.int64,
                                     generator=generator).tolist()
            yield from _F.randint(high=n, size=(self.num_samples % 32,), dtype=_D.int64,
                                 generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from _F.randperm(n, generator=generator).tolist()
            yield from _F.randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler[int]):
    """The given indices in a random order (``randperm`` with ``generator``)."""

    def __init__(self, indices: Sequence[int], generator=None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for i in _F.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler[int]):
    """``num_samples`` indices drawn with probabilities proportional to ``weights``
    (``multinomial`` in float64, as torch)."""

    def __init__(self, weights: Sequence[float], num_samples: int, replacement: bool = True,
                 generator=None) -> None:
        if (not isinstance(num_samples, int) or isinstance(num_samples, bool)
                or num_samples <= 0):
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value, but got "
                             f"replacement={replacement}")
        weights_tensor = _F.as_tensor(weights, dtype=_D.float64)
        if len(weights_tensor.shape) != 1:
            raise ValueError("weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights_tensor.shape)}")
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        rand_tensor = _F.multinomial(self.weights, self.num_samples, self.replacement,
                                    generator=self.generator)
        yield from iter(rand_tensor.tolist())

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler[list[int]]):
    """Groups another sampler's indices into lists of ``batch_size``.

    >>> list(BatchSampler(SequentialSampler(range(5)), batch_size=2, drop_last=False))
    [[0, 1], [2, 3], [4]]
    """

    def __init__(self, sampler: Sampler[int] | Iterable[int], batch_size: int,
                 drop_last: bool) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError("batch_size should be a positive integer value, but got "
                             f"batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError("drop_last should be a boolean value, but got "
                             f"drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        sampler_iter = iter(self.sampler)
        if self.drop_last:
            args = [sampler_iter] * self.batch_size
            for batch_droplast in zip(*args):
                yield [*batch_droplast]
        else:
            batch = [*itertools.islice(sampler_iter, self.batch_size)]
            while batch:
                yield batch
                batch = [*itertools.islice(sampler_iter, self.batch_size)]

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size  # type: ignore[arg-type]
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size  # type: ignore


del annotations  # keep dir() to torch's names

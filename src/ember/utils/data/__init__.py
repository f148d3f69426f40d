"""``ember.utils.data``: datasets, samplers and the DataLoader, drawing torch's random numbers.

With the same seed, ``DataLoader(..., shuffle=True)``, ``random_split`` and the random samplers
visit the same indices as torch's.
"""

from __future__ import annotations

from ._utils.collate import default_collate, default_convert
from ._worker import get_worker_info
from .dataloader import DataLoader
from .dataset import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
    Subset,
    TensorDataset,
    random_split,
)
from .sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)
from . import distributed
from .distributed import DistributedSampler

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "StackDataset", "ConcatDataset",
           "ChainDataset", "Subset", "random_split", "DataLoader", "default_collate",
           "default_convert", "get_worker_info", "Sampler", "SequentialSampler",
           "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler", "BatchSampler",
           "DistributedSampler"]


del annotations  # keep dir() to torch's names

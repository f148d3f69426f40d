# Models: torch.utils.data plumbing from data-loading tutorials: StackDataset of tuples and
# dicts, ConcatDataset cumulative sizes, ChainDataset of IterableDatasets, Subset and
# random_split with fractions and a seeded generator, WeightedRandomSampler for class balance,
# BatchSampler(drop_last), SequentialSampler/RandomSampler(num_samples), default_collate of
# namedtuples, dicts and numpy arrays, default_convert, get_worker_info in the main process,
# and a DataLoader with a batch_sampler and a custom collate_fn.
import collections

import numpy as np
import torch
from torch.utils.data import (
    BatchSampler,
    ChainDataset,
    ConcatDataset,
    DataLoader,
    Dataset,
    IterableDataset,
    RandomSampler,
    SequentialSampler,
    StackDataset,
    Subset,
    TensorDataset,
    WeightedRandomSampler,
    get_worker_info,
    random_split,
)
from torch.utils.data._utils.collate import default_collate, default_convert

torch.manual_seed(6)
feats = torch.randn(10, 3)
labels = torch.tensor([0, 0, 0, 0, 0, 0, 0, 1, 1, 2])
stacked = StackDataset(TensorDataset(feats), TensorDataset(labels))
print(len(stacked), stacked[0])
named = StackDataset(x=feats, y=labels)
print(named[1], named[[1, 2]] if hasattr(named, "__getitems__") else None)
cat = ConcatDataset([TensorDataset(feats[:4]), TensorDataset(feats[4:])])
print(len(cat), cat.cumulative_sizes, torch.equal(cat[5][0], feats[5]))


class Counter(IterableDataset):
    def __init__(self, start, end):
        self.start, self.end = start, end

    def __iter__(self):
        info = get_worker_info()
        print("worker info:", info)
        return iter(range(self.start, self.end))


chain = ChainDataset([Counter(0, 3), Counter(10, 12)])
print(list(chain))
print([b.tolist() for b in DataLoader(chain, batch_size=2)])
sub = Subset(TensorDataset(feats, labels), [9, 3, 7])
print(len(sub), sub[0][1], sub.indices)
g = torch.Generator().manual_seed(42)
parts = random_split(range(10), [0.5, 0.3, 0.2], generator=g)
print([list(p) for p in parts])
parts = random_split(TensorDataset(feats), [7, 3], generator=torch.Generator().manual_seed(1))
print([p.indices for p in parts])

class_count = torch.bincount(labels).float()
weights = (1.0 / class_count)[labels]
sampler = WeightedRandomSampler(weights, num_samples=30, replacement=True,
                                generator=torch.Generator().manual_seed(0))
drawn = labels[list(sampler)]
print("balanced draws:", torch.bincount(drawn).tolist())
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=4, drop_last=True)))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=4, drop_last=False)))
rs = RandomSampler(range(10), replacement=True, num_samples=6,
                   generator=torch.Generator().manual_seed(3))
print(list(rs), len(rs))

Point = collections.namedtuple("Point", ["x", "y"])
print(default_collate([Point(1, 2.0), Point(3, 4.0)]))
print(default_collate([{"a": np.array([1, 2]), "b": "s1"}, {"a": np.array([3, 4]), "b": "s2"}]))
print(default_collate([(torch.ones(2), 1), (torch.zeros(2), 0)]))
print(default_convert({"n": np.arange(3), "l": [np.float64(1.5)]}))


class Pairs(Dataset):
    def __len__(self):
        return 7

    def __getitem__(self, i):
        return {"id": i, "seq": torch.arange(i % 3 + 1)}


def pad_collate(batch):
    seqs = [b["seq"] for b in batch]
    padded = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1)
    return torch.tensor([b["id"] for b in batch]), padded


loader = DataLoader(Pairs(), batch_sampler=BatchSampler(
    RandomSampler(range(7), generator=torch.Generator().manual_seed(5)), 3, False),
    collate_fn=pad_collate)
for ids, padded in loader:
    print(ids.tolist(), padded.tolist())
print(len(loader), loader.batch_size, loader.drop_last)

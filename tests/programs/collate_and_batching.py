# Models: a data-loading deep dive ("how default_collate builds your batches"): collating
# dicts, tuples, namedtuples, NumPy arrays, Python numbers, strings and nested structures,
# default_convert, the errors for ragged samples, BatchSampler/SequentialSampler/
# RandomSampler(replacement, num_samples) lengths, ConcatDataset/Subset indexing, a custom
# collate_fn with padding and a bucketing batch sampler, and len() of the loaders.
import collections

import numpy as np
import torch
from torch.utils.data import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    Dataset,
    RandomSampler,
    SequentialSampler,
    Subset,
    TensorDataset,
)
from torch.utils.data.dataloader import default_collate, default_convert

torch.manual_seed(0)


def show(title, fn):
    try:
        print(f"[ok] {title}: {fn()}")
    except Exception as e:
        print(f"[{type(e).__name__}] {title}: {e}")


Point = collections.namedtuple("Point", ["x", "y"])
show(
    "dicts",
    lambda: default_collate(
        [{"a": 1, "b": torch.tensor([1.0])}, {"a": 2, "b": torch.tensor([2.0])}]
    ),
)
show("tuples", lambda: default_collate([(1, 2.5), (3, 4.5)]))
show("namedtuple", lambda: default_collate([Point(1, 2), Point(3, 4)]))
show("numpy", lambda: default_collate([np.array([1, 2]), np.array([3, 4])]))
show("numpy float64", lambda: default_collate([np.float64(1.5), np.float64(2.5)]).dtype)
show("strings", lambda: default_collate(["cat", "dog"]))
show("bools", lambda: default_collate([True, False]))
show(
    "nested",
    lambda: default_collate([{"img": torch.ones(2), "meta": {"id": 1, "tags": ["a", "b"]}}] * 2),
)
show("ragged tensors", lambda: default_collate([torch.ones(3), torch.ones(2)]))
show("ragged lists", lambda: default_collate([[1, 2], [3]]))
show("mixed types", lambda: default_collate([1, "a"]))
show("object", lambda: default_collate([object(), object()]))
show("numpy strings", lambda: default_collate([np.array(["a"]), np.array(["b"])]))
show("convert", lambda: default_convert([np.array([1.0]), {"k": np.int64(3)}]))
show("convert scalar", lambda: type(default_convert(np.float32(2.0))).__name__)

print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(
    list(BatchSampler(range(7), batch_size=3, drop_last=True)), len(BatchSampler(range(7), 3, True))
)
g = torch.Generator().manual_seed(1)
rs = RandomSampler(range(5), replacement=True, num_samples=8, generator=g)
print(list(rs), len(rs))
print(list(RandomSampler(range(5), generator=torch.Generator().manual_seed(2))))
show("num_samples invalid", lambda: RandomSampler(range(5), num_samples=0))
show("replacement type", lambda: RandomSampler(range(5), replacement=1))
show("batch_size invalid", lambda: BatchSampler(range(5), batch_size=0, drop_last=False))
show("drop_last invalid", lambda: BatchSampler(range(5), batch_size=2, drop_last=None))

a = TensorDataset(torch.arange(4.0), torch.arange(4))
b = TensorDataset(torch.arange(10.0, 13.0), torch.arange(3))
cat = ConcatDataset([a, b])
print(len(cat), cat.cumulative_sizes, cat[4], cat[-1], cat[-7])
show("concat out of range", lambda: cat[-8])
sub = Subset(cat, [6, 0, 3])
print(
    len(sub),
    [sub[i][1].item() for i in range(len(sub))],
)


class Sentences(Dataset):
    def __init__(self):
        lengths = torch.randint(2, 9, (14,))
        self.data = [torch.randint(1, 20, (int(n),)) for n in lengths]

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return self.data[i], len(self.data[i])


def pad_collate(batch):
    seqs, lens = zip(*batch)
    padded = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True)
    return padded, torch.tensor(lens)


class BucketSampler(torch.utils.data.Sampler):
    def __init__(self, lengths, batch_size):
        self.order = sorted(range(len(lengths)), key=lambda i: lengths[i])
        self.batch_size = batch_size

    def __iter__(self):
        batches = [
            self.order[i : i + self.batch_size] for i in range(0, len(self.order), self.batch_size)
        ]
        for j in torch.randperm(len(batches)).tolist():
            yield batches[j]

    def __len__(self):
        return (len(self.order) + self.batch_size - 1) // self.batch_size


ds = Sentences()
lengths = [len(s) for s in ds.data]
loader = DataLoader(ds, batch_sampler=BucketSampler(lengths, 4), collate_fn=pad_collate)
print("batches", len(loader))
for padded, lens in loader:
    print(tuple(padded.shape), lens.tolist(), int((padded == 0).sum()))
plain = DataLoader(ds, batch_size=5, shuffle=True, collate_fn=pad_collate, drop_last=True)
print("plain batches", len(plain), [tuple(p.shape) for p, _ in plain])
show("default collate ragged in loader", lambda: next(iter(DataLoader(ds, batch_size=3))))

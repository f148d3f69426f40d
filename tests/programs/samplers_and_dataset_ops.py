# Models: an imbalanced-classification data loader as a forum answer builds it:
# WeightedRandomSampler from inverse class frequencies, BatchSampler, SubsetRandomSampler for a
# validation split, random_split with fractions and a seeded Generator, ConcatDataset and Subset
# index arithmetic, a custom collate_fn, and drop_last, each printing the batches it yields.
import torch
from torch.utils.data import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    RandomSampler,
    SequentialSampler,
    Subset,
    SubsetRandomSampler,
    TensorDataset,
    WeightedRandomSampler,
    random_split,
)

torch.manual_seed(11)
labels = torch.tensor([0] * 14 + [1] * 4 + [2] * 2)
feats = torch.arange(len(labels) * 2, dtype=torch.float32).reshape(-1, 2)
ds = TensorDataset(feats, labels)
counts = torch.bincount(labels)
weights = (1.0 / counts.float())[labels]
print("counts", counts, "weights", weights[:3], weights[-3:])
sampler = WeightedRandomSampler(weights, num_samples=30, replacement=True)
drawn = list(sampler)
print("drawn", drawn)
print("class histogram", torch.bincount(labels[drawn], minlength=3))
loader = DataLoader(ds, batch_size=6, sampler=sampler)
for xb, yb in loader:
    print(xb.shape, yb.tolist())
no_rep = WeightedRandomSampler([0.1, 0.5, 0.2, 0.9, 0.05], 4, replacement=False)
print("no replacement", list(no_rep), len(no_rep))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=4, drop_last=False)))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=4, drop_last=True)))
g = torch.Generator().manual_seed(42)
print(list(BatchSampler(RandomSampler(range(7), generator=g), 3, False)))
train, val, test = random_split(ds, [0.6, 0.25, 0.15], generator=torch.Generator().manual_seed(1))
print(len(train), len(val), len(test), train.indices[:5], val.indices, test.indices)
train2, val2 = random_split(range(10), [7, 3], generator=torch.Generator().manual_seed(1))
print(list(train2), list(val2))
val_sampler = SubsetRandomSampler(val.indices, generator=torch.Generator().manual_seed(3))
print("val order", list(val_sampler))
both = ConcatDataset([ds, TensorDataset(-feats[:3], labels[:3] + 10)])
print(len(both), both.cumulative_sizes, both[19], both[21])
sub = Subset(both, [0, 19, 20, 22])
print([s[1].item() for s in sub], len(sub))


def collate(batch):
    xs, ys = zip(*batch)
    return {"x": torch.stack(xs), "y": torch.stack(ys), "n": len(batch)}


dl = DataLoader(both, batch_size=5, shuffle=True, collate_fn=collate, drop_last=True,
                generator=torch.Generator().manual_seed(7))
print("batches", len(dl))
for b in dl:
    print(b["n"], b["y"].tolist(), b["x"].sum().item())
dl2 = DataLoader(ds, batch_sampler=BatchSampler(SubsetRandomSampler(range(0, 20, 2)), 4, False))
for xb, yb in dl2:
    print(xb[:, 0].tolist(), yb.tolist())
try:
    random_split(ds, [10, 5])
except ValueError as e:
    print("ValueError:", e)
try:
    WeightedRandomSampler(weights, num_samples=0)
except ValueError as e:
    print("ValueError:", e)
try:
    DataLoader(ds, batch_size=4, shuffle=True, sampler=sampler)
except ValueError as e:
    print("ValueError:", e)

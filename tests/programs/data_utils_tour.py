# Models: a data-loading tutorial: random_split, Subset, ConcatDataset, samplers, collate.
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

torch.manual_seed(42)
X = torch.arange(40, dtype=torch.float32).reshape(20, 2)
y = torch.arange(20) % 3
ds = TensorDataset(X, y)
train, val = random_split(ds, [0.75, 0.25], generator=torch.Generator().manual_seed(1))
print(len(train), len(val), train.indices, val.indices)
a, b, c = random_split(range(10), [3, 3, 4])
print(list(a), list(b), list(c))
cat = ConcatDataset([Subset(ds, [0, 1, 2]), Subset(ds, [10, 11])])
print(len(cat), cat[3], cat.cumulative_sizes)
weights = torch.tensor([0.1 if t == 0 else 1.0 for t in y])
sampler = WeightedRandomSampler(weights, num_samples=10, replacement=True)
print(list(sampler))
print(list(WeightedRandomSampler([0.2, 0.3, 0.5], 3, replacement=False)))
print(list(SubsetRandomSampler([1, 5, 7, 9])))
print(list(BatchSampler(SequentialSampler(range(7)), 3, drop_last=False)))
print(list(RandomSampler(range(6), replacement=True, num_samples=8)))
loader = DataLoader(train, batch_size=4, shuffle=True, drop_last=True)
for i, (xb, yb) in enumerate(loader):
    print(i, xb.sum().item(), yb.tolist())


def collate(batch):
    xs, ys = zip(*batch)
    return torch.stack(xs).mean(0), torch.tensor(ys)


for xb, yb in DataLoader(val, batch_size=2, collate_fn=collate):
    print(xb, yb)
dl = DataLoader(ds, batch_size=None, sampler=[3, 1])
print([t for t in dl])
dl = DataLoader([{"a": torch.tensor(i), "b": [i, i * 2]} for i in range(4)], batch_size=2)
for batch in dl:
    print(batch)

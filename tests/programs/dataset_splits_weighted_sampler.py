# Models: dataset plumbing from a classification recipe: random_split with fractions and a
# seeded generator, Subset indices, ConcatDataset lengths and cumulative sizes,
# WeightedRandomSampler for class balance, SubsetRandomSampler, BatchSampler, and the class
# counts they produce.
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

torch.manual_seed(0)
x = torch.arange(20.0).unsqueeze(1)
y = torch.tensor([0] * 14 + [1] * 4 + [2] * 2)
ds = TensorDataset(x, y)
train, val, test = random_split(ds, [0.6, 0.2, 0.2], generator=torch.Generator().manual_seed(42))
print("split lengths", len(train), len(val), len(test))
print("train indices", train.indices)
print("val indices", val.indices, type(val).__name__)
a, b = random_split(range(10), [7, 3], generator=torch.Generator().manual_seed(1))
print("range split", list(a), list(b))
try:
    random_split(ds, [10, 5])
except ValueError as e:
    print("ValueError:", e)
sub = Subset(ds, [0, 5, 19])
print("subset item", sub[2], len(sub))
cat = ConcatDataset([sub, Subset(ds, range(3)), ds])
print("concat len", len(cat), "cumulative", cat.cumulative_sizes)
print("concat item 4", cat[4], "last", cat[-1])
counts = torch.bincount(y)
weights = (1.0 / counts.float())[y]
sampler = WeightedRandomSampler(
    weights, num_samples=30, replacement=True, generator=torch.Generator().manual_seed(5)
)
drawn = list(sampler)
print("weighted draws", drawn)
print("class counts", torch.bincount(y[drawn], minlength=3))
nr = WeightedRandomSampler(
    [0.1, 0.9, 0.4, 0.7], 3, replacement=False, generator=torch.Generator().manual_seed(2)
)
print("no replacement", list(nr))
srs = SubsetRandomSampler([1, 3, 5, 7], generator=torch.Generator().manual_seed(3))
print("subset random", list(srs))
print("batch sampler", list(BatchSampler(SequentialSampler(range(7)), 3, drop_last=False)))
print("drop_last", list(BatchSampler(SequentialSampler(range(7)), 3, drop_last=True)))
rs = RandomSampler(
    range(6), replacement=True, num_samples=8, generator=torch.Generator().manual_seed(4)
)
print("random with replacement", list(rs))
loader = DataLoader(ds, batch_size=8, sampler=sampler)
for xb, yb in loader:
    print("batch", tuple(xb.shape), yb.tolist())
try:
    DataLoader(ds, shuffle=True, sampler=sampler)
except ValueError as e:
    print("ValueError:", e)

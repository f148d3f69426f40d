# Models: the data loading tutorial, utilities section: TensorDataset indexing, random_split
# with counts and with fractions under a seeded generator, Subset and ConcatDataset indexing,
# default_collate on dicts, tuples, numbers and NumPy arrays, and a DataLoader over the splits.
import numpy as np
import torch
from torch.utils.data import (
    ConcatDataset,
    DataLoader,
    Subset,
    TensorDataset,
    default_collate,
    random_split,
)

X = torch.arange(20.0).reshape(10, 2)
y = torch.arange(10) % 3
ds = TensorDataset(X, y)
print(len(ds), ds[3], ds[-1])
a, b = random_split(ds, [7, 3], generator=torch.Generator().manual_seed(42))
print("split idx", a.indices, b.indices)
p, q, r = random_split(range(11), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(1))
print("fractions", len(p), len(q), len(r), list(p), list(q), list(r))
sub = Subset(ds, [9, 0, 4])
print("subset", sub[0], len(sub))
cat = ConcatDataset([sub, b])
print("concat", len(cat), cat.cumulative_sizes, cat[3], cat[-1])
print(default_collate([{"x": torch.ones(2), "n": 1}, {"x": torch.zeros(2), "n": 2}]))
print(default_collate([(1.5, "a"), (2.5, "b")]))
print(default_collate([np.array([1, 2]), np.array([3, 4])]))
print(default_collate([[1, 2], [3, 4]]))
dl = DataLoader(a, batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(7))
for xb, yb in dl:
    print(xb.tolist(), yb.tolist())
try:
    random_split(ds, [5, 3])
except ValueError as e:
    print("ValueError:", e)
try:
    default_collate([torch.ones(2), torch.ones(3)])
except RuntimeError as e:
    print("RuntimeError:", e)

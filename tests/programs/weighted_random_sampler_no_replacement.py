# Models: an imbalanced-data recipe: WeightedRandomSampler with and without replacement under
# seeded generators, per-class weights from inverse frequencies, the class counts drawn per
# epoch, num_samples larger than the dataset, and the errors for bad arguments.
import torch
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler

labels = torch.tensor([0] * 12 + [1] * 3 + [2] * 1)
class_w = 1.0 / torch.bincount(labels).float()
sample_w = class_w[labels]
print("class weights", class_w)
g = torch.Generator().manual_seed(0)
s = WeightedRandomSampler(sample_w, num_samples=32, replacement=True, generator=g)
idx = list(s)
print("drawn", idx)
print("class counts", torch.bincount(labels[idx], minlength=3).tolist())
s2 = WeightedRandomSampler(sample_w, num_samples=6, replacement=False,
                           generator=torch.Generator().manual_seed(1))
print("no replacement", list(s2), len(s2))
ds = TensorDataset(torch.arange(16.0), labels)
dl = DataLoader(ds, batch_size=8, sampler=WeightedRandomSampler(
    sample_w.tolist(), 16, generator=torch.Generator().manual_seed(2)))
for xb, yb in dl:
    print(xb.tolist(), torch.bincount(yb, minlength=3).tolist())
for bad in [lambda: WeightedRandomSampler(sample_w, num_samples=0),
            lambda: WeightedRandomSampler(sample_w, num_samples=3, replacement="yes"),
            lambda: WeightedRandomSampler(torch.ones(2, 2), 2),
            lambda: list(WeightedRandomSampler(sample_w, 20, replacement=False))]:
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__ + ":", e)

# Models: the "Datasets & DataLoaders" tutorial -- a custom map-style Dataset with a transform,
# a DataLoader with batch_size/shuffle/drop_last and a collate_fn, random_split and Subset.
import torch
from torch.utils.data import DataLoader, Dataset, Subset, random_split


class SquaresDataset(Dataset):
    def __init__(self, n, transform=None):
        self.x = torch.arange(n, dtype=torch.float32)
        self.transform = transform

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        x = self.x[idx]
        sample = {"x": x, "y": x ** 2, "idx": idx}
        if self.transform:
            sample = self.transform(sample)
        return sample


def scale(sample):
    sample["x"] = sample["x"] / 10
    return sample


ds = SquaresDataset(23, transform=scale)
print(len(ds), ds[4])
g = torch.Generator().manual_seed(0)
loader = DataLoader(ds, batch_size=5, shuffle=True, generator=g)
for batch in loader:
    print(batch["idx"], batch["x"], batch["y"])
loader = DataLoader(ds, batch_size=4, shuffle=False, drop_last=True)
print(len(loader), [b["idx"].tolist() for b in loader])


def collate_pairs(batch):
    xs = torch.stack([b["x"] for b in batch])
    ys = torch.tensor([b["y"] for b in batch])
    return xs, ys


torch.manual_seed(1)
for xs, ys in DataLoader(ds, batch_size=6, shuffle=True, collate_fn=collate_pairs):
    print(xs.shape, ys)

train, val = random_split(ds, [18, 5], generator=torch.Generator().manual_seed(42))
print(len(train), len(val), sorted(val.indices))
sub = Subset(ds, [1, 3, 5])
print([s["idx"] for s in sub])
tds = torch.utils.data.TensorDataset(torch.arange(6).view(3, 2), torch.tensor([1, 0, 1]))
for a, b in DataLoader(tds, batch_size=2):
    print(a, b)
